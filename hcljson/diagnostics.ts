// The diagnostic every consumer of `schemaform validate` sees (CLI, library, editor tooling).

export type Severity = "error" | "warning";

export interface Diagnostic {
  severity: Severity;
  message: string;
  /** file name as given (or "<stdin>") */
  file: string;
  /** 1-based */
  line: number;
  /** 1-based, in Unicode characters */
  column: number;
  endLine?: number;
  endColumn?: number;
  /** Terraform address of the block, e.g. "tsdb_service.db", "data.tsdb_vpcs.all", "provider.tsdb"; null outside blocks */
  address: string | null;
  /** attribute path inside the block, e.g. "ha_replicas" or "tables[0].schema_name"; null for the block itself */
  path: string | null;
  /** stable identifier of the rule, e.g. "duplicate-argument", "schema" */
  code?: string;
}

/** A diagnostic before its offsets are turned into lines and columns. */
export interface RawDiagnostic {
  severity: Severity;
  message: string;
  /** index of the file in the module */
  file: number;
  start: number;
  end: number;
  address: string | null;
  path: string | null;
  code: string;
}

export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.column - b.column || (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0);
}
