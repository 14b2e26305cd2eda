// The shapes the import generator passes between its steps: requested identifiers, live
// resources read from the platform, and the configuration planned for them.

import type { PlatformClient } from "../../platform/types.js";

/** The resource types `schemaform import` knows (Terraform type names). */
export const IMPORT_TYPES = [
  "tsdb_service",
  "tsdb_vpcs",
  "tsdb_peering_connection",
  "tsdb_log_exporter",
  "tsdb_metric_exporter",
  "tsdb_connector_obj_store",
  "tsdb_connector_src_db",
  "containerbackup_restore_channel",
] as const;

export type ImportType = (typeof IMPORT_TYPES)[number];

export type ProviderName = "tsdb" | "containerbackup";

/** One `TYPE ID` pair as the user wrote it, with where it came from (for messages). */
export interface ImportRequest {
  type: string;
  id: string;
  /** e.g. "imports.txt:3" or "argument 2" */
  origin?: string;
}

/** A resource read from the platform. `body` is the platform's response body (ARCHITECTURE §1). */
export interface LiveResource {
  type: ImportType;
  /** the canonical import identifier (the first import format of the type, filled from the live values) */
  importId: string;
  body: Record<string, unknown>;
}

/** Where the settings of the providers come from, and what must be written into the provider blocks. */
export interface ProviderSettings {
  /** tsdb `project_id` to use (from `--project` or `TSDB_PROJECT_ID`) */
  tsdbProject?: string;
  /** containerbackup `project` (from `--project` or `CONTAINERBACKUP_PROJECT`) */
  containerbackupProject?: string;
  /** settings to write in `provider "tsdb"`: those not supplied by the environment */
  tsdb: Record<string, string>;
  /** settings to write in `provider "containerbackup"` */
  containerbackup: Record<string, string>;
}

/** `hcl-json` (`*.tf.json`), `hcl` (native `*.tf`) or `cdktf` (a TypeScript stack). */
export type OutputFormat = "hcl-json" | "hcl" | "cdktf";

export interface GenerateImportOptions {
  /** The platform client used to read resources (both providers, unless `containerbackupClient` is given). */
  client: PlatformClient;
  /** A separate client for restore channels (when the two providers talk to different endpoints). */
  containerbackupClient?: PlatformClient;
  /** `TYPE ID` pairs to import. */
  requests?: ImportRequest[];
  /** List and import everything in the configured project(s). */
  discover?: boolean;
  /** Locations whose restore channels discovery lists; none: every location of the project. */
  locations?: string[];
  /** `--project`: the project of both providers (overrides the environment). */
  project?: string;
  /** `--endpoint`: the platform endpoint of both providers (overrides the environment). */
  endpoint?: string;
  /** The environment the providers will run in (default `process.env`); its settings are left out of the output. */
  env?: Record<string, string | undefined>;
  /** Output format (default `hcl-json`). */
  format?: OutputFormat;
  /** Output file name (default `import.tf.json`, `import.tf` for hcl, or `main.ts` for cdktf). */
  fileName?: string;
  /**
   * Manage secrets the platform never returns from the configuration right away: no
   * `lifecycle.ignore_changes` for them. The first plan then shows an in-place update per secret,
   * and `apply` sets each secret to its variable's value. Default: ignored, so that adopting
   * changes nothing.
   */
  manageSecrets?: boolean;
  /** CDKTF: the stack's name (default `imported`). */
  stackName?: string;
}

export interface GeneratedFile {
  path: string;
  content: string;
}

export interface ImportedResourceInfo {
  type: ImportType;
  name: string;
  address: string;
  importId: string;
  /** secrets listed in the resource's `lifecycle.ignore_changes` */
  ignoreChanges: string[];
}

export interface VariableInfo {
  name: string;
  description: string;
  /** the resource address and attribute path the variable feeds, e.g. "tsdb_service.db" + "password" */
  address: string;
  attribute: string;
}

export interface GenerateImportResult {
  files: GeneratedFile[];
  resources: ImportedResourceInfo[];
  variables: VariableInfo[];
  /** Non-fatal notes (e.g. a reference target that is not imported, kept as a literal id). */
  warnings: string[];
}

/** An error a person can act on: bad identifiers, missing resources, missing settings. */
export class ImportError extends Error {
  override readonly name = "ImportError";
  /** every problem found (all identifiers are checked before failing) */
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.length === 1 ? problems[0]! : `${problems.length} problems:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.problems = problems;
  }
}
