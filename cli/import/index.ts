// Library API of `schemaform import`: read existing resources (by import identifier or by
// discovery) and generate the configuration that adopts them: HCL-JSON or native HCL with import
// blocks, or a CDKTF stack using `importFrom`. The CLI (cli/commands/import.ts) is a thin layer over this.

import { loadType, validateBody } from "../../language/schema/body.js";
import { canonicalBody, planImport, type ImportPlan } from "./config.js";
import { emitCdktf } from "./emit-cdktf.js";
import { address, emitHclJson } from "./emit-hcl.js";
import { emitNativeHcl } from "./emit-native.js";
import { MODELS } from "./ids.js";
import { dedupe, discover, readRequests } from "./read.js";
import {
  ImportError,
  type GenerateImportOptions,
  type GenerateImportResult,
  type LiveResource,
  type ProviderName,
  type ProviderSettings,
} from "./types.js";

export * from "./types.js";
export { escapeTemplate, unescapeTemplate, escapeLiteral } from "./escape.js";
export { acceptedFormats, canonicalImportId, isImportType, malformedIdMessage, matchImportId, MODELS, type ParsedImportId } from "./ids.js";
export { assignNames, camelCase, identifier, snakeCase } from "./naming.js";
export { discover, readRequests, type ReadContext } from "./read.js";
export { planImport, canonicalBody, Fields, Ref, VarRef, type ImportPlan, type PlannedResource, type PlannedVariable, type Value } from "./config.js";
export { emitHclJson, hclDocument, hclValue, PROVIDER_SOURCES } from "./emit-hcl.js";
export { cdktfAppLines, emitCdktf } from "./emit-cdktf.js";
export { emitNativeHcl } from "./emit-native.js";

/** Environment variables of the provider settings (DESIGN §1). */
export const PROVIDER_ENV = {
  tsdb: { project_id: "TSDB_PROJECT_ID", endpoint: "TSDB_ENDPOINT" },
  containerbackup: { project: "CONTAINERBACKUP_PROJECT", endpoint: "CONTAINERBACKUP_ENDPOINT" },
} as const;

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== "" ? value : undefined;
}

/**
 * The projects to read and the provider settings to write. `--project` / `--endpoint` override the
 * environment; a setting the environment supplies (with the same value) is left out of the
 * provider block, so the output keeps working where the same environment is set.
 */
export function providerSettings(options: Pick<GenerateImportOptions, "project" | "endpoint" | "env">): ProviderSettings {
  const env = options.env ?? process.env;
  const settings: ProviderSettings = { tsdb: {}, containerbackup: {} };
  for (const provider of ["tsdb", "containerbackup"] as ProviderName[]) {
    const names = PROVIDER_ENV[provider];
    const projectKey = provider === "tsdb" ? "project_id" : "project";
    const projectEnv = nonEmpty(env[provider === "tsdb" ? PROVIDER_ENV.tsdb.project_id : PROVIDER_ENV.containerbackup.project]);
    const project = nonEmpty(options.project) ?? projectEnv;
    if (project !== undefined && project !== projectEnv) settings[provider][projectKey] = project;
    if (provider === "tsdb") settings.tsdbProject = project;
    else settings.containerbackupProject = project;
    const endpointEnv = nonEmpty(env[names.endpoint]);
    const endpoint = nonEmpty(options.endpoint);
    if (endpoint !== undefined && endpoint !== endpointEnv) settings[provider].endpoint = endpoint;
  }
  return settings;
}

/** Reads the live resources the options ask for (requests and/or discovery). */
export async function readLive(options: GenerateImportOptions, settings: ProviderSettings = providerSettings(options)): Promise<LiveResource[]> {
  const ctx = {
    client: options.client,
    containerbackupClient: options.containerbackupClient,
    tsdbProject: settings.tsdbProject,
    containerbackupProject: settings.containerbackupProject,
  };
  const requested = options.requests && options.requests.length > 0 ? await readRequests(ctx, options.requests) : [];
  let discovered: LiveResource[] = [];
  if (options.discover) {
    if (!settings.tsdbProject && !settings.containerbackupProject) {
      throw new ImportError(["--discover needs a project: give it with --project, or set TSDB_PROJECT_ID and/or CONTAINERBACKUP_PROJECT"]);
    }
    discovered = await discover(ctx, { locations: options.locations });
  }
  if (!options.discover && (!options.requests || options.requests.length === 0)) {
    throw new ImportError(["nothing to import: give TYPE ID pairs, --from FILE, or --discover"]);
  }
  return dedupe([...requested, ...discovered]);
}

/**
 * Checks every generated resource body with the schema validator (the same one `schemaform
 * validate` and the provider use). Returns the findings as notes: the values come from the
 * platform, so a finding means the generated configuration needs a look before `apply`.
 */
export async function checkPlan(plan: ImportPlan): Promise<string[]> {
  const notes: string[] = [];
  for (const r of plan.resources) {
    const key = MODELS[r.type].key;
    await loadType(key);
    for (const issue of validateBody(key, canonicalBody(r.body))) {
      const where = issue.path.length > 0 ? ` (${issue.path.join(".")})` : "";
      notes.push(`${address(r)}${where}: ${issue.severity === "warning" ? "warning: " : ""}${issue.message}`);
    }
  }
  return notes;
}

/** Reads the resources and generates the files that import them. */
export async function generateImport(options: GenerateImportOptions): Promise<GenerateImportResult> {
  const settings = providerSettings(options);
  const live = await readLive(options, settings);
  return generateFromLive(live, options, settings);
}

/** Generates the files for resources already read (e.g. from a snapshot or a test fixture). */
export async function generateFromLive(
  live: LiveResource[],
  options: Pick<GenerateImportOptions, "format" | "fileName" | "stackName" | "project" | "endpoint" | "env" | "manageSecrets">,
  settings: ProviderSettings = providerSettings(options),
): Promise<GenerateImportResult> {
  // Validators of the types met (loaded once), so that planning can check bodies synchronously.
  await Promise.all([...new Set(live.map((r) => MODELS[r.type].key))].map((key) => loadType(key)));
  const plan = planImport(live, {
    validate: (type, body) => validateBody(MODELS[type].key, body).filter((i) => i.severity === "error").map((i) => i.path),
    containerbackupProject: settings.containerbackupProject,
    providerSettings: { tsdb: settings.tsdb, containerbackup: settings.containerbackup },
    manageSecrets: options.manageSecrets,
  });
  const notes = await checkPlan(plan);
  const format = options.format ?? "hcl-json";
  const content = format === "cdktf" ? emitCdktf(plan, { stackName: options.stackName, fileName: options.fileName }) : format === "hcl" ? emitNativeHcl(plan) : emitHclJson(plan);
  const path = options.fileName ?? (format === "cdktf" ? "imported.ts" : format === "hcl" ? "import.tf" : "import.tf.json");
  return {
    files: [{ path, content }],
    resources: plan.resources.map((r) => ({ type: r.type, name: r.name, address: address(r), importId: r.importId, ignoreChanges: [...r.ignoreChanges] })),
    variables: plan.variables.map((v) => ({ name: v.name, description: v.description, address: `${v.resource.type}.${v.resource.name}`, attribute: v.attribute })),
    warnings: [...plan.warnings, ...notes],
  };
}
