// generated/docs/<provider>/…md, in the Terraform Registry layout (index.md, resources/<name>.md,
// data-sources/<name>.md, <name> without the provider prefix): one reference page per provider,
// resource and data source: example usage (native HCL, HCL-JSON and CDKTF TypeScript),
// arguments with everything the schema says about them, exported attributes, nested objects, the
// cross-field rules in words, timeouts and every import identifier. Index pages also say how to
// associate the editor schema with `*.tf.json` files.
import { Ajv2020 as Ajv } from "ajv/dist/2020.js";
import { UNKNOWN_VALUE, type BlockModel, type TypeModel } from "../language/schema/model-types.js";
import { hasTemplate } from "../language/expr/templates.js";
import type { FunctionModel } from "../language/expr/provider-functions.js";
import { functionIndexLines } from "./emit-functions.js";
import { terraformTestSection, type TerraformTestFile } from "./doc-terraform-test.js";
import { KEYWORDS } from "./keywords.js";
import { settingsDocLines } from "./settings.js";
import { docExamples, providerBodies, type DocExample, type ExampleBlock } from "./doc-examples.js";
import { configurationToHcl } from "../language/format/native-configuration.js";
import { lowerSchema } from "./lower.js";
import { camelCase } from "./names.js";
import { xt, type SchemaDocument, type SchemaNode } from "./schema-source.js";

export function docPath(model: TypeModel): string {
  if (model.kind === "provider") return `docs/${model.provider}/index.md`;
  const bare = model.type.slice(model.provider.length + 1);
  const folder = model.kind === "data" ? "data-sources" : model.kind === "ephemeral" ? "ephemeral-resources" : "resources";
  return `docs/${model.provider}/${folder}/${bare}.md`;
}

export type Examples = Record<string, DocExample>;

export function emitDocs(
  docs: SchemaDocument[],
  models: TypeModel[],
  examples: Examples = docExamples,
  functions: Record<string, Record<string, FunctionModel>> = {},
  terraformTests: TerraformTestFile[] = [],
): Map<string, string> {
  const files = new Map<string, string>();
  const byKey = new Map(models.map((m) => [m.key, m]));
  docs.forEach((doc, i) => {
    const model = models[i]!;
    const example = examples[model.key];
    if (!example) throw new Error(`generator/doc-examples.ts has no example for ${model.key}`);
    checkExample(model.key, example, docs, byKey);
    files.set(docPath(model), page(doc, model, examples, models, functions[model.provider], terraformTests));
  });
  return files;
}

// ---------------------------------------------------------------------------------------------
// Examples: checked against the schemas, rendered as HCL-JSON and as CDKTF TypeScript.

function checkExample(key: string, example: DocExample, docs: SchemaDocument[], models: Map<string, TypeModel>): void {
  const blocks = withProvider(key, example, models);
  if (!blocks.some((b) => b.key === key)) throw new Error(`the example of ${key} has no ${key} block`);
  for (const block of blocks) {
    const doc = docs.find((d) => d.key === block.key);
    if (!doc) throw new Error(`the example of ${key} uses unknown type ${block.key}`);
    const validate = new Ajv({ strict: false, allErrors: true, keywords: KEYWORDS }).compile(lowerSchema(doc.schema, doc.root.rules ?? []).schema);
    if (!validate(withUnknownTemplates(block.body))) {
      throw new Error(`the example of ${key}: ${block.key}.${block.name} breaks its schema: ${JSON.stringify(validate.errors)}`);
    }
  }
}

/** The body as `schemaform validate` hands it to a validator: every template is the unknown value. */
function withUnknownTemplates(value: unknown): unknown {
  if (typeof value === "string") return hasTemplate(value) ? UNKNOWN_VALUE : value;
  if (Array.isArray(value)) return value.map(withUnknownTemplates);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withUnknownTemplates(v)]));
  return value;
}

/** The example's blocks, preceded by the provider configuration when the example has none. */
function withProvider(key: string, example: DocExample, models: Map<string, TypeModel>): ExampleBlock[] {
  const model = models.get(key)!;
  if (example.blocks.some((b) => b.key.startsWith("provider."))) return example.blocks;
  return [{ key: `provider.${model.provider}`, name: model.provider, body: providerBodies[model.provider] ?? {} }, ...example.blocks];
}

/** The example as an HCL-JSON document (what a `main.tf.json` would hold). */
export function exampleConfiguration(key: string, models: TypeModel[], examples: Examples = docExamples): Record<string, unknown> {
  const byKey = new Map(models.map((m) => [m.key, m]));
  const example = examples[key];
  if (!example) throw new Error(`no example for ${key}`);
  const blocks = withProvider(key, example, byKey);
  const providers = [...new Set(blocks.map((b) => byKey.get(b.key)!.provider))];
  const config: Record<string, any> = {
    terraform: { required_providers: Object.fromEntries(providers.map((p) => [p, { source: `schemaform/${p}` }])) },
  };
  if (example.variables) {
    config.variable = Object.fromEntries(
      Object.entries(example.variables).map(([name, v]) => [name, { type: v.type, description: v.description, ...(v.sensitive ? { sensitive: true } : {}) }]),
    );
  }
  for (const block of blocks) {
    const [kind, type] = block.key.split(".") as [string, string];
    if (kind === "provider") {
      (config.provider ??= {})[type] = block.body;
      continue;
    }
    ((config[kind] ??= {})[type] ??= {})[block.name] = block.body;
  }
  if (example.outputs) config.output = Object.fromEntries(Object.entries(example.outputs).map(([name, value]) => [name, { value }]));
  return config;
}

/** The example as a CDKTF stack in TypeScript. */
export function exampleTypeScript(key: string, models: TypeModel[], examples: Examples = docExamples): string {
  const byKey = new Map(models.map((m) => [m.key, m]));
  const example = examples[key];
  if (!example) throw new Error(`no example for ${key}`);
  const blocks = withProvider(key, example, byKey);
  const model = byKey.get(key)!;
  const referenced = new Set<string>();
  const texts = [...JSON.stringify(blocks.map((b) => b.body)).matchAll(/\$\{(?:data\.)?[a-z0-9_]+\.([a-z0-9_]+)/g)].map((m) => m[1]!);
  Object.values(example.outputs ?? {}).forEach((o) => texts.push(...[...o.matchAll(/\$\{(?:data\.)?[a-z0-9_]+\.([a-z0-9_]+)/g)].map((m) => m[1]!)));
  texts.forEach((t) => referenced.add(t));

  const cdktf = new Set<string>(["TerraformStack"]);
  const imports = new Map<string, Set<string>>();
  const statements: string[] = [];
  for (const [name, v] of Object.entries(example.variables ?? {})) {
    cdktf.add("TerraformVariable");
    const props = { type: v.type, ...(v.sensitive ? { sensitive: true } : {}), description: v.description };
    statements.push(`const ${camelCase(name)} = new TerraformVariable(this, "${name}", ${tsValue(props, undefined, 4)});`);
  }
  for (const block of blocks) {
    const m = byKey.get(block.key)!;
    (imports.get(m.provider) ?? imports.set(m.provider, new Set()).get(m.provider)!).add(m.className);
    const props = tsValue(block.body, m.block, 4);
    const optional = Object.keys(block.body).length === 0 && !Object.values(m.block.attributes).some((a) => a.required);
    const call = `new ${m.className}(this, "${block.name}"${optional && m.kind !== "provider" ? "" : `, ${props}`})`;
    const isReferenced = m.kind !== "provider" && referenced.has(block.name);
    statements.push(isReferenced ? `const ${camelCase(block.name)} = ${call};` : `${call};`);
  }
  for (const [name, value] of Object.entries(example.outputs ?? {})) {
    cdktf.add("TerraformOutput");
    statements.push(`new TerraformOutput(this, "${name}", { value: ${tsReference(value) ?? JSON.stringify(value)} });`);
  }
  const className = `${model.className}Example`;
  const lines = [
    `import { ${[...cdktf].sort().join(", ")} } from "cdktf";`,
    'import type { Construct } from "constructs";',
    ...[...imports].map(([provider, names]) => `import { ${[...names].sort().join(", ")} } from "schemaform/${provider}";`),
    "",
    `export class ${className} extends TerraformStack {`,
    "  constructor(scope: Construct, id: string) {",
    "    super(scope, id);",
    ...statements.map((s) => `    ${s}`),
  ];
  if (model.kind === "resource" && model.importFormats.length) {
    const documented = blocks.find((b) => b.key === key)!;
    lines.push("");
    lines.push("    // Adopt an existing one instead of creating it (an `import` block; Terraform 1.5+):");
    lines.push(`    // ${camelCase(documented.name)}.importFrom(${JSON.stringify(importIds(model, example)[0])});`);
  }
  lines.push("  }", "}", "");
  return lines.join("\n");
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `${tsdb_vpcs.main.vpcs_id}` → `main.vpcsId`; `${var.x}` → `x.stringValue` (or numberValue). */
function tsReference(value: string, numeric = false): string | undefined {
  const match = /^\$\{([^{}]+)\}$/.exec(value);
  if (!match) return undefined;
  const path = match[1]!.replace(/^data\./, "").split(".");
  if (path[0] === "var") return `${camelCase(path[1]!)}.${numeric ? "numberValue" : "stringValue"}`;
  const [, name, ...rest] = path;
  let out = camelCase(name!);
  for (const segment of rest) {
    const indexed = /^([a-z0-9_]+)\[(\d+)\]$/.exec(segment);
    out += indexed ? `.${camelCase(indexed[1]!)}.get(${indexed[2]})` : `.${camelCase(segment)}`;
  }
  return out;
}

function tsValue(value: unknown, block: BlockModel | undefined, indent: number, numeric = false): string {
  if (typeof value === "string") return tsReference(value, numeric) ?? JSON.stringify(value);
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  const pad = " ".repeat(indent);
  if (Array.isArray(value)) {
    const items = value.map((v) => tsValue(v, block, indent + 2, numeric));
    const inline = `[${items.join(", ")}]`;
    return inline.length + indent < 100 && !inline.includes("\n") ? inline : `[\n${items.map((i) => `${pad}  ${i},`).join("\n")}\n${pad}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => {
    const attribute = block?.attributes[k];
    const nested = block?.blocks[k];
    const key = block ? (attribute?.camel ?? nested?.camel ?? camelCase(k)) : IDENTIFIER.test(k) ? k : JSON.stringify(k);
    const inner = attribute?.nested?.block ?? nested?.block;
    const isNumber = attribute?.type === "number";
    return `${key}: ${tsValue(v, inner, indent + 2, isNumber)}`;
  });
  if (entries.length === 0) return "{}";
  const inline = `{ ${entries.join(", ")} }`;
  return inline.length + indent < 100 && !inline.includes("\n") ? inline : `{\n${entries.map((e) => `${pad}  ${e},`).join("\n")}\n${pad}}`;
}

// ---------------------------------------------------------------------------------------------
// The page.

function page(doc: SchemaDocument, model: TypeModel, examples: Examples, all: TypeModel[], functions?: Record<string, FunctionModel>, terraformTests: TerraformTestFile[] = []): string {
  const example = examples[model.key]!;
  const kindWord = model.kind === "resource" ? "Resource" : model.kind === "data" ? "Data Source" : model.kind === "ephemeral" ? "Ephemeral Resource" : "Provider";
  const title = model.kind === "provider" ? `${model.type} provider` : `${model.type} (${kindWord})`;
  const description = model.description;
  const out: string[] = [];
  out.push("---");
  out.push(`page_title: "${title} - schemaform/${model.provider}"`);
  out.push("description: |-");
  out.push(`  ${firstSentence(description)}`);
  out.push("---");
  out.push("");
  out.push("<!-- Generated by `npm run generate` from schemas/; do not edit. -->");
  out.push("");
  out.push(`# ${title}`);
  out.push("");
  out.push(description);
  out.push("");
  if (model.kind === "provider") {
    out.push(`Source address: \`schemaform/${model.provider}\`. CDKTF: \`import { ${model.className} } from "schemaform/${model.provider}"\`.`);
    out.push("");
    const siblings = all.filter((m) => m.provider === model.provider && m.kind !== "provider");
    if (siblings.length) {
      out.push("Resources and data sources:");
      out.push("");
      for (const m of siblings) {
        const link = docPath(m).slice(`docs/${model.provider}/`.length);
        out.push(
          m.kind === "ephemeral"
            ? `- [\`${m.type}\`](${link}) (ephemeral resource, Terraform 1.10+; no CDKTF class: CDKTF 0.21 has no ephemeral resources)`
            : `- [\`${m.type}\`](${link}) (${m.kind === "data" ? "data source" : "resource"}, CDKTF \`${m.className}\`)`,
        );
      }
      out.push("");
    }
    out.push(...functionIndexLines(functions));
  } else if (model.kind === "ephemeral") {
    out.push("An ephemeral resource (Terraform 1.10+, OpenTofu 1.11+): its values exist only while Terraform runs, never in the state or the plan. CDKTF 0.21 has no ephemeral resources, so there is no CDKTF class; CDK Terrain 0.24's `TerraformEphemeralResource` can declare it by hand.");
    out.push("");
  } else {
    out.push(`CDKTF: \`import { ${model.className} } from "schemaform/${model.provider}"\`.`);
    out.push("");
  }

  const configuration = exampleConfiguration(model.key, all, examples);
  out.push("## Example usage");
  out.push("");
  out.push("### HCL (`main.tf`)");
  out.push("");
  out.push("```terraform");
  out.push(configurationToHcl(configuration, all).trimEnd());
  out.push("```");
  out.push("");
  out.push("### HCL-JSON (`main.tf.json`)");
  out.push("");
  out.push("```json");
  out.push(JSON.stringify(configuration, null, 2));
  out.push("```");
  out.push("");
  if (model.kind !== "ephemeral") {
    out.push("### CDKTF (TypeScript)");
    out.push("");
    out.push("```ts");
    out.push(exampleTypeScript(model.key, all, examples).trimEnd());
    out.push("```");
    out.push("");
  }

  const nestedSections: string[] = [];
  const queue: NestedSection[] = [];
  out.push("## Argument reference");
  out.push("");
  const args = argumentsOf(doc.schema);
  const required = args.filter(([name]) => isRequired(doc.schema, name));
  const optional = args.filter(([name]) => !isRequired(doc.schema, name));
  if (!args.length) {
    out.push("This type takes no arguments.");
    out.push("");
  }
  if (required.length) {
    out.push("### Required");
    out.push("");
    for (const [name, prop] of required) out.push(argumentLine([name], prop, queue));
    out.push("");
  }
  if (optional.length) {
    out.push("### Optional");
    out.push("");
    for (const [name, prop] of optional) out.push(argumentLine([name], prop, queue));
    out.push("");
  }

  const rules = collectRules(doc);
  if (rules.length) {
    out.push("## Rules");
    out.push("");
    out.push("Beyond the type and value of each argument, these rules are checked, with these messages, by `schemaform validate`, by the CDKTF constructs at synth, by the provider at plan time and by the platform API:");
    out.push("");
    for (const rule of rules) out.push(`- ${rule}`);
    out.push("");
  }

  if (model.kind !== "provider") {
    const attributes = Object.entries<SchemaNode>(doc.schema.properties ?? {}).filter(([, p]) => p.readOnly);
    out.push("## Attribute reference");
    out.push("");
    out.push(
      !args.length
        ? "These attributes are exported:"
        : attributes.length
        ? "In addition to the arguments above (each of which can be referenced, including the values the platform fills in for omitted optional ones), these attributes are exported:"
        : "Every argument above can be referenced.",
    );
    out.push("");
    for (const [name, prop] of attributes) out.push(argumentLine([name], prop, queue, true));
    out.push("");
  }

  // Nested objects, breadth first.
  for (let i = 0; i < queue.length; i++) nestedSections.push(...nestedSection(queue[i]!, queue));
  if (nestedSections.length) out.push(...nestedSections);

  if (model.timeouts) {
    out.push("## Timeouts");
    out.push("");
    out.push("The `timeouts` block sets how long an operation may take before it fails, each as a duration made of numbers with unit suffixes `s`, `m`, `h` (e.g. `30s`, `10m`, `1h30m`):");
    out.push("");
    const described = (operation: string) => String(doc.schema.properties?.timeouts?.properties?.[operation]?.description ?? "").split(";")[0]!.replace(/\.$/, "");
    for (const [operation, duration] of Object.entries(model.timeouts)) {
      const what = described(operation);
      out.push(`- \`${operation}\` (default \`${duration}\`)${what && !what.startsWith("A duration") ? `: ${what}` : ""}`);
    }
    out.push("");
  }

  if (model.kind === "resource") {
    out.push(...importSection(doc, model, example));
  }
  if (model.kind === "provider") out.push(...terraformTestSection(model.provider, terraformTests), ...editorSection());
  return `${out.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd()}\n`;
}

function firstSentence(text: string): string {
  const match = /^(.+?[.!?])(\s|$)/.exec(text);
  return (match ? match[1]! : text).replace(/\n/g, " ");
}

function argumentsOf(node: SchemaNode): [string, SchemaNode][] {
  return Object.entries<SchemaNode>(node.properties ?? {}).filter(([, p]) => !p.readOnly);
}

function isRequired(node: SchemaNode, name: string): boolean {
  return (node.required ?? []).includes(name) && !xt(node.properties?.[name] ?? {}).env;
}

interface NestedSection {
  path: string[];
  node: SchemaNode;
  /** "block" (Terraform nested block) or "attribute" (nested attribute / object value). */
  form: "block" | "attribute" | "output";
  nesting: "single" | "list" | "set";
}

function anchor(path: string[]): string {
  return `nested--${path.join("--")}`;
}

/** The object node inside a property, when the property holds objects. */
function objectOf(prop: SchemaNode): { node: SchemaNode; nesting: "single" | "list" | "set"; block: boolean } | undefined {
  const ext = xt(prop);
  if (ext.block) return { node: ext.block === "single" ? prop : prop.items, nesting: ext.block, block: true };
  if (prop.type === "object" && prop.properties) return { node: prop, nesting: "single", block: false };
  if (prop.type === "array" && prop.items?.type === "object" && prop.items.properties) {
    return { node: prop.items, nesting: prop.uniqueItems ? "set" : "list", block: false };
  }
  return undefined;
}

function typeWords(prop: SchemaNode): string {
  const object = objectOf(prop);
  if (object) {
    if (object.block) return object.nesting === "single" ? "Block" : `Block ${object.nesting === "set" ? "Set" : "List"}`;
    return object.nesting === "single" ? "Object" : `${object.nesting === "set" ? "Set" : "List"} of Object`;
  }
  switch (prop.type) {
    case "string":
      return "String";
    case "integer":
    case "number":
      return "Number";
    case "boolean":
      return "Boolean";
    case "array":
      return `${prop.uniqueItems ? "Set" : "List"} of ${typeWords(prop.items ?? { type: "string" })}`;
    case "object":
      return `Map of ${typeWords(prop.additionalProperties ?? { type: "string" })}`;
    default:
      return String(prop.type);
  }
}

function code(value: unknown): string {
  return `\`${typeof value === "string" ? value : JSON.stringify(value)}\``;
}

/** Whether a description already gives the default ("default true", "(default 1)", "Default `false`"). */
function saysDefault(description: string, value: unknown): boolean {
  const text = (typeof value === "string" ? value : JSON.stringify(value)).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`\\bdefaults?:?\\s+\`?${text}\`?(?![\\w-])`, "i").test(description);
}

/** Everything the schema says about a value, in sentences. */
function constraints(prop: SchemaNode): string[] {
  const out: string[] = [];
  const ext = xt(prop);
  // For a list or set of primitives the value rules are on its elements.
  const elements = prop.type === "array" && !objectOf(prop);
  const value: SchemaNode = elements ? (prop.items ?? {}) : prop;
  const sentence = (text: string) => (elements ? `Each element ${text}.` : `${text.charAt(0).toUpperCase()}${text.slice(1)}.`);
  const range = (min: number | undefined, max: number | undefined, unit: string) => {
    const units = (n: number) => (unit ? ` ${unit}${n === 1 ? "" : "s"}` : "");
    if (min !== undefined && max !== undefined) return min === max ? `exactly ${min}${units(min)}` : `between ${min} and ${max}${units(max)}`;
    if (min !== undefined) return `at least ${min}${units(min)}`;
    if (max !== undefined) return `at most ${max}${units(max)}`;
    return undefined;
  };
  const description = String(prop.description ?? "");
  if (ext.settings) out.push(settingsDocLines(ext.settings));
  // A description that lists the allowed values already says it once.
  if (value.enum && !/\bAllowed:/.test(description)) out.push(sentence(`must be one of ${value.enum.map(code).join(", ")}`));
  if (value.const !== undefined) out.push(sentence(`must be ${code(value.const)}`));
  if (value.pattern) {
    const message = xt(value).message as string | undefined;
    out.push(sentence(message ?? `must match \`${value.pattern}\``));
  }
  const numbers = range(value.minimum, value.maximum, "");
  // "1 to 10" in the description already gives the range.
  const describedRange = value.minimum !== undefined && value.maximum !== undefined && description.includes(`${value.minimum} to ${value.maximum}`);
  if (numbers && !value.enum && !describedRange) out.push(sentence(`must be ${numbers}`));
  const length = range(value.minLength, value.maxLength, "character");
  if (length && !value.pattern && !value.enum) out.push(sentence(`must be ${length} long`));
  if (prop.type === "array") {
    const count = range(prop.minItems, prop.maxItems, "element");
    if (count) out.push(`Must have ${count}.`);
    if (prop.uniqueItems && elements) out.push("Order does not matter; no duplicates.");
  }
  if (prop.default !== undefined) {
    if (!saysDefault(description, prop.default)) out.push(`Defaults to ${code(prop.default)}.`);
  }
  else if (ext.computed) out.push("When omitted, the platform chooses the value (readable after apply).");
  if (ext.env && !String(prop.description ?? "").includes(ext.env)) out.push(`Can also be set with the \`${ext.env}\` environment variable.`);
  if (prop.writeOnly) out.push("Write-only: sent to the provider on apply but never stored in the plan or state (Terraform 1.11+).");
  return out;
}

function flags(prop: SchemaNode): string[] {
  const ext = xt(prop);
  const out = [typeWords(prop)];
  if (ext.sensitive) out.push("Sensitive");
  if (prop.writeOnly) out.push("Write-only");
  if (prop.deprecated) out.push("Deprecated");
  if (ext.forceNew) out.push("Forces replacement");
  return out;
}

function argumentLine(path: string[], prop: SchemaNode, queue: NestedSection[], output = false): string {
  const name = path[path.length - 1]!;
  const ext = xt(prop);
  const parts: string[] = [];
  // A description that starts with "Deprecated" says it already; the bold mark then only adds what to do.
  const saysDeprecated = /^Deprecated\b/.test(String(prop.description ?? ""));
  if (prop.deprecated && !saysDeprecated) parts.push(`**Deprecated**${ext.deprecation ? `: ${ext.deprecation}` : ""}.`);
  if (prop.description) parts.push(saysDeprecated ? `**${prop.description.replace(/^(Deprecated\b[^:.]*)/, "$1**")}` : prop.description);
  if (!output) parts.push(...constraints(prop));
  const object = objectOf(prop);
  if (object && name === "timeouts" && path.length === 1 && ext.block === "single") {
    // The Timeouts section below says what it holds; a nested section would repeat it.
    parts.push("See [Timeouts](#timeouts) below.");
  } else if (object) {
    queue.push({ path, node: object.node, form: output ? "output" : object.block ? "block" : "attribute", nesting: object.nesting });
    parts.push(`See [\`${path.join(".")}\`](#${anchor(path)}) below.`);
  }
  return `- \`${name}\` (${flags(prop).join(", ")}) ${parts.join(" ")}`.trimEnd();
}

function nestedSection(section: NestedSection, queue: NestedSection[]): string[] {
  const out: string[] = [];
  const label = section.path.join(".");
  out.push(`<a id="${anchor(section.path)}"></a>`);
  out.push(`### Nested schema for \`${label}\``);
  out.push("");
  const shape =
    section.form === "block"
      ? section.nesting === "single"
        ? "A nested block: at most one."
        : `A nested block that may repeat (${section.nesting}).`
      : section.nesting === "single"
        ? "An object value."
        : `A ${section.nesting} of object values${section.nesting === "set" ? " (order does not matter)" : ""}.`;
  out.push(section.form === "output" ? `Read-only. ${shape}` : shape);
  out.push("");
  const properties = Object.entries<SchemaNode>(section.node.properties ?? {});
  if (section.form === "output") {
    for (const [name, prop] of properties) out.push(argumentLine([...section.path, name], prop, queue, true));
    out.push("");
    return out;
  }
  const args = properties.filter(([, p]) => !p.readOnly);
  const required = args.filter(([name]) => isRequired(section.node, name));
  const optional = args.filter(([name]) => !isRequired(section.node, name));
  const readOnly = properties.filter(([, p]) => p.readOnly);
  if (required.length) {
    out.push("Required:");
    out.push("");
    for (const [name, prop] of required) out.push(argumentLine([...section.path, name], prop, queue));
    out.push("");
  }
  if (optional.length) {
    out.push("Optional:");
    out.push("");
    for (const [name, prop] of optional) out.push(argumentLine([...section.path, name], prop, queue));
    out.push("");
  }
  if (readOnly.length) {
    out.push("Read-only:");
    out.push("");
    for (const [name, prop] of readOnly) out.push(argumentLine([...section.path, name], prop, queue, true));
    out.push("");
  }
  return out;
}

/** Every cross-field rule's message, root rules first, then nested ones in schema order. */
function collectRules(doc: SchemaDocument): string[] {
  const out: string[] = [];
  const visit = (node: SchemaNode | undefined) => {
    if (!node || typeof node !== "object") return;
    for (const rule of xt(node).rules ?? []) if (!out.includes(rule.message)) out.push(rule.message);
    for (const prop of Object.values<SchemaNode>(node.properties ?? {})) {
      if (prop.readOnly) continue;
      visit(prop);
      if (prop.items) visit(prop.items);
    }
  };
  for (const rule of doc.root.rules ?? []) out.push(rule.message);
  visit(doc.schema);
  return out;
}

/** One identifier per import format for the documented block, each checked against its format. */
export function importIds(model: TypeModel, example: DocExample): string[] {
  const body = example.blocks.find((b) => b.key === model.key)?.body ?? {};
  return model.importFormats.map((format) => {
    const id = format.format.replace(/\{([a-z_]+)\}/g, (_, part: string) => {
      const own = body[part];
      const literal = typeof own === "number" || (typeof own === "string" && !hasTemplate(own)) ? String(own) : undefined;
      const value = literal ?? example.importParts?.[part];
      if (value === undefined) throw new Error(`the example of ${model.key} has no value for {${part}} of import format ${format.format}: add it to importParts`);
      return value;
    });
    if (!new RegExp(format.regex).test(id)) throw new Error(`the example of ${model.key}: import identifier ${id} does not match ${format.format}`);
    return id;
  });
}

interface Secret {
  path: string;
  /** Required within its object: a configuration that leaves it out does not plan. */
  required: boolean;
  /** The optional object it belongs to, when it is required only while that object is set. */
  within?: string;
  /** Write-only: never in state at all, so an import leaves no difference behind. */
  writeOnly: boolean;
}

/** Sensitive and write-only arguments: values the platform never returns, so no import can read them. */
function secretsOf(node: SchemaNode, prefix: string[] = [], within?: string): Secret[] {
  const out: Secret[] = [];
  for (const [name, prop] of argumentsOf(node)) {
    const path = [...prefix, name];
    const required = isRequired(node, name);
    if (xt(prop).sensitive || prop.writeOnly) out.push({ path: path.join("."), required, writeOnly: prop.writeOnly === true, ...(within ? { within } : {}) });
    const object = objectOf(prop);
    if (object) out.push(...secretsOf(object.node, path, within ?? (required && object.nesting === "single" ? undefined : path.join("."))));
  }
  return out;
}

/** "a", "a and b", "a, b and c". */
function words(items: string[]): string {
  return items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function importSection(doc: SchemaDocument, model: TypeModel, example: DocExample): string[] {
  const out: string[] = [];
  const name = exampleName(model.key, example);
  const to = `${model.type}.${name}`;
  const ids = importIds(model, example);
  const parts = [...new Set(model.importFormats.flatMap((f) => f.parts))];
  out.push("## Import");
  out.push("");
  out.push(
    `An existing \`${model.type}\` can be adopted by any of these identifiers${
      parts.every((p) => p === "id") ? " (`{id}` is the resource's `id`)" : `, where each \`{part}\` is the value of the attribute of that name${parts.includes("id") ? " (`{id}` is the resource's `id`)" : ""}`
    }:`,
  );
  out.push("");
  model.importFormats.forEach((format, i) => out.push(`- \`${format.format}\`, e.g. \`${ids[i]}\``));
  out.push("");

  const secrets = secretsOf(doc.schema);
  const required = secrets.filter((s) => s.required);
  const names = (list: Secret[], when = false) => words(list.map((s) => `\`${s.path}\`${when && s.within ? ` (when \`${s.within}\` is set)` : ""}`));
  out.push("### With `schemaform import`");
  out.push("");
  out.push(
    "`schemaform import` reads the resource from the platform and writes its `import` block together with its configuration (HCL-JSON; `--format cdktf` writes a CDKTF stack). It takes any identifier above:",
  );
  out.push("");
  out.push("```shell");
  out.push(`schemaform import ${model.type} ${shellQuote(ids[0]!)} -o imported.tf.json`);
  out.push("```");
  out.push("");
  if (required.length) {
    out.push(
      `${
        required.length === secrets.length
          ? `The platform never returns ${names(secrets, true)}, which ${required.length === 1 ? "is" : "are"} required:`
          : `The platform never returns ${names(secrets)}. ${capitalized(names(required, true))} ${required.length === 1 ? "is" : "are"} required:`
      } the configuration that \`terraform plan -generate-config-out\` and CDKTF's \`generateConfigForImport\` write fails plan until you add ${required.length === 1 ? "it" : "them"}; \`schemaform import\` writes a sensitive variable for each secret the resource uses instead. Prefer \`schemaform import\` for this resource.`,
    );
    out.push("");
  } else if (secrets.length) {
    out.push(
      `The platform never returns ${names(secrets)}: a configuration written by \`terraform plan -generate-config-out\` or CDKTF's \`generateConfigForImport\` leaves ${secrets.length === 1 ? "it" : "them"} out, so add ${secrets.length === 1 ? "it if the resource uses it" : "the ones the resource uses"} before relying on that configuration; \`schemaform import\` writes a sensitive variable for each one the resource uses.`,
    );
    out.push("");
  }

  out.push("### With an `import` block (Terraform 1.5+)");
  out.push("");
  out.push(
    `Any one of these, next to the \`${model.type}\` block of the example above (or, without one, let \`terraform plan -generate-config-out=generated.tf\` write it${required.length ? "; see the note on secrets above" : ""}):`,
  );
  out.push("");
  for (const id of ids) {
    out.push("```terraform");
    out.push(configurationToHcl({ import: [{ to, id }] }, []).trimEnd());
    out.push("```");
    out.push("");
  }
  out.push("In HCL-JSON:");
  out.push("");
  out.push("```json");
  out.push(JSON.stringify({ import: [{ to, id: ids[0] }] }, null, 2));
  out.push("```");
  out.push("");

  out.push("### With `terraform import`");
  out.push("");
  out.push("```shell");
  for (const id of ids) out.push(`terraform import ${to} ${shellQuote(id)}`);
  out.push("```");
  out.push("");

  out.push("### With CDKTF");
  out.push("");
  out.push(
    `Call \`${camelCase(name)}.importFrom(${JSON.stringify(ids[0])})\` on the construct (any identifier above), or \`${model.className}.generateConfigForImport(this, "${name}", ${JSON.stringify(ids[0])})\` to have \`terraform plan -generate-config-out=FILE\` write the configuration${required.length ? " (see the note on secrets above)" : ""}.`,
  );
  out.push("");

  const kept = secrets.filter((s) => !s.writeOnly);
  if (kept.length) {
    const one = kept.length === 1;
    out.push("### The first apply after an import");
    out.push("");
    out.push(
      `Whichever way it is imported, the state has no ${names(kept)}: the platform never returns ${one ? "it" : "them"}. When the configuration sets ${one ? "it" : "them"}, the first plan shows an in-place update (\`(sensitive value)\`) and the first apply sends the configured ${one ? "value" : "values"} to the platform, which replaces what it had. This happens once: the plan after that apply is clean.`,
    );
    out.push("");
  }
  return out;
}

/** Where the editor schema is in the installed package, relative to the project that uses it. */
const EDITOR_SCHEMA_IN_PACKAGE = "node_modules/schemaform/generated/editor/tf.json.schema.json";

/** How to get completion and inline errors in `*.tf.json` without touching the files. */
function editorSection(): string[] {
  return [
    "## Editor support for `*.tf.json`",
    "",
    `The package ships a JSON Schema for \`*.tf.json\` files that use the schemaform providers, \`${EDITOR_SCHEMA_IN_PACKAGE}\`: completion, descriptions and inline errors for the attribute names, types, allowed values, patterns and ranges of every resource, data source and provider block. Cross-field rules are left to \`schemaform validate\`.`,
    "",
    "Associate it in the editor's settings, not in the file: Terraform rejects a `\"$schema\"` key in a `*.tf.json` file (`No argument or block type is named \"$schema\"`).",
    "",
    "VS Code, in the project's `.vscode/settings.json`:",
    "",
    "```json",
    "{",
    '  "json.schemas": [',
    "    {",
    '      "fileMatch": ["*.tf.json"],',
    `      "url": "./${EDITOR_SCHEMA_IN_PACKAGE}"`,
    "    }",
    "  ]",
    "}",
    "```",
    "",
    `JetBrains IDEs: Settings → Languages & Frameworks → Schemas and DTDs → JSON Schema Mappings: add a mapping with schema file \`${EDITOR_SCHEMA_IN_PACKAGE}\`, schema version 7 and file path pattern \`*.tf.json\`.`,
    "",
    "The paths above are for a project that has schemaform in its `node_modules`. With a global install (`npm install --global schemaform`), use the file's absolute path, which `node -p \"require.resolve('schemaform/editor/tf.json.schema.json')\"` prints (run where Node.js finds the package, e.g. with `NODE_PATH=\"$(npm root -g)\"`); the package exports it as `schemaform/editor/tf.json.schema.json`.",
    "",
  ];
}

function exampleName(key: string, example: DocExample): string {
  return example.blocks.find((b) => b.key === key)?.name ?? key.split(".")[1]!;
}
