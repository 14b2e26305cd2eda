// The plan as a CDKTF stack in TypeScript: the schemaform constructs with their props in
// camelCase, `importFrom` for every resource, references between constructs, and
// `TerraformVariable`s (sensitive) for secrets. The file exports the stack class and makes no
// `App`: it goes into a project that has its own app, and synthesizing two apps from one
// `main.ts` writes a second manifest over the first.

import { escapeTemplate } from "./escape.js";
import { Fields, Ref, VarRef, type ImportPlan, type PlannedResource, type PlannedVariable, type Value } from "./config.js";
import { MODELS } from "./ids.js";
import { camelCase } from "./naming.js";
import type { ProviderName } from "./types.js";

const PROVIDER_CLASS: Record<ProviderName, string> = { tsdb: "TsdbProvider", containerbackup: "ContainerbackupProvider" };
const PROVIDER_PROP: Record<string, string> = { project_id: "projectId", project: "project", endpoint: "endpoint", access_key: "accessKey" };
const ENTRY: Record<ProviderName, string> = { tsdb: "schemaform/tsdb", containerbackup: "schemaform/containerbackup" };

/** Names the CDKTF runtime and the generated module use: generated identifiers avoid them. */
const TAKEN = new Set(["TerraformStack", "TerraformVariable", "Construct", "ImportedStack", "app", "scope", "id", "this"]);

export interface CdktfOptions {
  /** the stack's name (its directory under cdktf.out/stacks), in the lines that add it to an app */
  stackName?: string;
  /** the file the stack is written to, for the import line in those lines */
  fileName?: string;
}

/** The lines a user adds to the app's main.ts to synthesize the imported stack. */
export function cdktfAppLines(fileName: string | undefined, stackName = "imported"): string[] {
  const module = `./${(fileName ?? "imported.ts").replace(/^.*[\\/]/, "").replace(/\.ts$/, "")}`;
  return [`import { ImportedStack } from ${tsString(module)};`, `new ImportedStack(app, ${tsString(stackName)});`];
}

/** A TypeScript string literal. Literal values are escaped for Terraform (CDKTF passes plain strings through). */
function tsString(value: string): string {
  return JSON.stringify(value);
}

function tsKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : tsString(key);
}

export function emitCdktf(plan: ImportPlan, options: CdktfOptions = {}): string {
  const used = new Set<string>(TAKEN);
  for (const r of plan.resources) used.add(MODELS[r.type].className);
  for (const p of Object.keys(plan.providers) as ProviderName[]) used.add(PROVIDER_CLASS[p]);
  const unique = (wanted: string, alternative: string): string => {
    let name = used.has(wanted) ? alternative : wanted;
    for (let n = 2; used.has(name); n++) name = `${alternative}${n}`;
    used.add(name);
    return name;
  };
  const varNames = new Map<PlannedVariable, string>();
  for (const v of plan.variables) varNames.set(v, unique(camelCase(v.name), `${camelCase(v.name)}Var`));
  const resourceNames = new Map<PlannedResource, string>();
  for (const r of plan.resources) {
    const short = camelCase(r.name);
    resourceNames.set(r, unique(short, `${short}${MODELS[r.type].className}`));
  }

  const render = (value: Value, indent: string): string => {
    if (value instanceof Ref) return `${resourceNames.get(value.target)}.${camelCase(value.attribute)}`;
    if (value instanceof VarRef) return `${varNames.get(value.variable)}.stringValue`;
    if (value instanceof Fields) {
      const entries = Object.entries(value.values);
      if (entries.length === 0) return "{}";
      const inner = `${indent}  `;
      const lines = entries.map(([k, v]) => `${inner}${tsKey(value.block.attributes[k]?.camel ?? k)}: ${render(v, inner)},`);
      return `{\n${lines.join("\n")}\n${indent}}`;
    }
    if (typeof value === "string") return tsString(escapeTemplate(value));
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    if (Array.isArray(value)) {
      if (value.length === 0) return "[]";
      const inner = `${indent}  `;
      return `[\n${value.map((v) => `${inner}${render(v, inner)},`).join("\n")}\n${indent}]`;
    }
    // A map: keys are data (escaped like any template), written as string literals.
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const inner = `${indent}  `;
    return `{\n${entries.map(([k, v]) => `${inner}${tsString(escapeTemplate(k))}: ${render(v, inner)},`).join("\n")}\n${indent}}`;
  };

  const providers = Object.keys(plan.providers).sort() as ProviderName[];
  const imports: string[] = ['import { TerraformStack, TerraformVariable } from "cdktf";', 'import type { Construct } from "constructs";'];
  for (const p of providers) {
    const classes = new Set<string>([PROVIDER_CLASS[p]]);
    for (const r of plan.resources) if (r.provider === p) classes.add(MODELS[r.type].className);
    imports.push(`import { ${[...classes].sort().join(", ")} } from "${ENTRY[p]}";`);
  }
  if (plan.variables.length === 0) imports[0] = 'import { TerraformStack } from "cdktf";';

  const body: string[] = [];
  const I = "    ";
  for (const p of providers) {
    const settings = Object.entries(plan.providers[p] ?? {});
    const props = settings.length === 0 ? "{}" : `{ ${settings.map(([k, v]) => `${PROVIDER_PROP[k] ?? camelCase(k)}: ${tsString(escapeTemplate(v))}`).join(", ")} }`;
    body.push(`${I}new ${PROVIDER_CLASS[p]}(this, ${tsString(p)}, ${props});`);
  }
  if (plan.variables.length > 0) body.push("");
  for (const v of plan.variables) {
    body.push(`${I}// ${v.resource.type}.${v.resource.name}: ${v.attribute}`);
    body.push(
      `${I}const ${varNames.get(v)} = new TerraformVariable(this, ${tsString(v.name)}, {\n${I}  type: "string",\n${I}  sensitive: true,\n${I}  description: ${tsString(v.description)},\n${I}});`,
    );
  }
  for (const r of plan.resources) {
    const name = resourceNames.get(r)!;
    body.push("");
    let props = render(r.body, I);
    if (r.ignoreChanges.length > 0) {
      body.push(`${I}// The platform never returns ${r.ignoreChanges.join(", ")}: ignoreChanges keeps the import from rewriting`);
      body.push(`${I}// ${r.ignoreChanges.length === 1 ? "it" : "them"}. Remove an entry to manage that value from this stack.`);
      const lifecycle = `${I}  lifecycle: { ignoreChanges: [${r.ignoreChanges.map(tsString).join(", ")}] },`;
      props = props === "{}" ? `{\n${lifecycle}\n${I}}` : props.replace(/\n(\s*)\}$/, `\n${lifecycle}\n$1}`);
    }
    body.push(`${I}const ${name} = new ${MODELS[r.type].className}(this, ${tsString(r.name)}, ${props});`);
    body.push(`${I}${name}.importFrom(${tsString(escapeTemplate(r.importId))});`);
  }

  return `// Generated by \`schemaform import --format cdktf\`: the existing resources as a CDKTF stack.
// Every resource is adopted with \`importFrom\`; secrets the platform never returns are sensitive
// variables (give them with TF_VAR_<name> or a .tfvars file when planning).
// Add it to your app's main.ts, before app.synth():
${cdktfAppLines(options.fileName, options.stackName).map((line) => `//   ${line}`).join("\n")}
${imports.join("\n")}

export class ImportedStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);

${body.join("\n").replace(/^\n/, "")}
  }
}
`;
}
