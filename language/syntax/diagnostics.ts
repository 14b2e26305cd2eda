// The diagnostic every consumer of `schemaform validate` sees (CLI, library, editor tooling).

export type Severity = "error" | "warning";

/**
 * Whose verdict a diagnostic is: "terraform" when `terraform validate` (with our providers
 * installed, whose ValidateResourceConfig runs our schema rules) reports it too; "schemaform" for
 * the checks Terraform makes only at plan or apply, or never.
 */
export type DiagnosticSource = "terraform" | "schemaform";

/** The rules Terraform's validate does not apply, and when Terraform (or the platform) does. */
const SCHEMAFORM_ONLY: ReadonlyMap<string, string> = new Map([
  // the platform refuses related resources in different regions when they are created
  ["region-mismatch", "Terraform reports this at apply"],
  // an id argument given another resource's id: the platform refuses it when it is created
  ["reference-target", "Terraform reports this at apply"],
  // a reference whose type cannot convert: validate reads resources and data sources as values of
  // any type, so the conversion fails only once the value is known
  ["reference-type", "Terraform reports this at plan or apply"],
  // Terraform reads each invalid byte as U+FFFD without a word
  // inside the content of a dynamic block whose for_each is unknown at validate: evaluated at plan
  ["unexpanded-dynamic", "Terraform reports this at plan, once the dynamic block's for_each is known"],
  ["invalid-utf8", "Terraform does not report this"],
  ["internal", "Terraform does not report this"],
]);

/** The source of a diagnostic of a rule (its code). */
export function sourceOf(code: string | undefined): DiagnosticSource {
  return code !== undefined && SCHEMAFORM_ONLY.has(code) ? "schemaform" : "terraform";
}

/** For a schemaform-only rule, when Terraform would report it ("Terraform reports this at apply"); null otherwise. */
export function terraformReportsAt(code: string | undefined): string | null {
  return code === undefined ? null : (SCHEMAFORM_ONLY.get(code) ?? null);
}

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
  /** "terraform" when `terraform validate` reports it too, "schemaform" when only schemaform does (see sourceOf) */
  source: DiagnosticSource;
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
  /**
   * inside a JSON string whose decoded value has line breaks before the position: Terraform counts
   * the decoded value's lines, so the diagnostic is this many lines below `start`, at this column
   */
  within?: { lines: number; column: number };
}

/** Where Terraform puts an offset of a JSON string's decoded value, when a line break ("\n") comes before it. */
export function decodedLines(decoded: string, offset: number): { lines: number; column: number } | undefined {
  const before = decoded.lastIndexOf("\n", offset - 1);
  if (before < 0) return undefined;
  let lines = 0;
  for (let i = decoded.indexOf("\n"); i >= 0 && i < offset; i = decoded.indexOf("\n", i + 1)) lines++;
  return { lines, column: offset - before };
}

export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.column - b.column || (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0);
}
