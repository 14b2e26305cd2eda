// The one error type of the platform API. Both clients (embedded and HTTP) throw it, with the same
// `code`, so callers branch on `code` and never on message text. Messages are written for a person,
// name fields in Terraform terms and never contain a secret value.

/** What went wrong, independent of transport. */
export type PlatformErrorCode =
  | "not_found" // the addressed resource does not exist
  | "conflict" // a stale etag, or a name/id already taken
  | "invalid" // the request body breaks a value rule (schema or platform)
  | "unauthenticated" // missing, wrong or expired credentials (server mode), or credentials for another project
  | "failed_precondition" // the request is well-formed but the current state forbids it
  | "timeout"; // a wait (waitFor) ran out of time

/** One finding about a request body, shaped like the language checker's `Issue`. */
export interface Issue {
  severity: "error" | "warning";
  /** attribute path in Terraform terms, e.g. ["tables", 0, "hypertable_spec"] */
  path: (string | number)[];
  message: string;
}

/** A non-fatal finding returned with a successful mutation (e.g. "a restart completes the log exporter attachment"). */
export interface Warning {
  path: (string | number)[];
  message: string;
}

export class PlatformError extends Error {
  override readonly name = "PlatformError";
  readonly code: PlatformErrorCode;
  readonly issues?: Issue[];

  constructor(code: PlatformErrorCode, message: string, issues?: Issue[]) {
    super(message);
    this.code = code;
    if (issues && issues.length > 0) this.issues = issues;
  }

  /** JSON form used on the wire by the server (and understood by the HTTP client). */
  toJSON(): { code: PlatformErrorCode; message: string; issues?: Issue[] } {
    return this.issues ? { code: this.code, message: this.message, issues: this.issues } : { code: this.code, message: this.message };
  }
}

export const HTTP_STATUS: Record<PlatformErrorCode, number> = {
  not_found: 404,
  conflict: 409,
  invalid: 400,
  unauthenticated: 401,
  failed_precondition: 422,
  timeout: 504,
};

const CODES = new Set<string>(Object.keys(HTTP_STATUS));

export function isPlatformErrorCode(value: unknown): value is PlatformErrorCode {
  return typeof value === "string" && CODES.has(value);
}

export function notFound(what: string): PlatformError {
  return new PlatformError("not_found", `${what} does not exist`);
}

/** An `invalid` error for one attribute. */
export function invalid(path: (string | number)[], message: string): PlatformError {
  const where = path.length > 0 ? `${formatPath(path)}: ` : "";
  return new PlatformError("invalid", `${where}${message}`, [{ severity: "error", path, message }]);
}

/** A `failed_precondition` error for one attribute. */
export function precondition(path: (string | number)[], message: string): PlatformError {
  const where = path.length > 0 ? `${formatPath(path)}: ` : "";
  return new PlatformError("failed_precondition", `${where}${message}`, [{ severity: "error", path, message }]);
}

/** `tables[0].hypertable_spec` */
export function formatPath(path: (string | number)[]): string {
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : out === "" ? part : `.${part}`;
  return out;
}
