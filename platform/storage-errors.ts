// What went wrong with the platform's data directory, in words that name the directory and what to
// do, instead of SQLite's or Node's bare codes ("unable to open database file", ENOENT from a
// mkdir on a read-only file system, "attempt to write a readonly database").
import { accessSync, constants, existsSync, mkdtempSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";

const HINT = "set SCHEMAFORM_DATA_DIR (or --data-dir) to a writable directory";

export class StorageError extends Error {
  override readonly name = "StorageError";
  readonly code: string | undefined;
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.code = (cause as { code?: string }).code;
  }
}

/** The nearest directory on the path that exists (the data directory may not yet). */
function existingAncestor(dir: string): string {
  let current = dir;
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}

/** Why `dir` cannot be written, found by trying to, or null when it can. */
function whyNotWritable(dir: string): string | null {
  const at = existingAncestor(dir);
  try {
    rmSync(mkdtempSync(join(at, ".schemaform-write-check-")), { recursive: true, force: true });
    return null;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "EROFS") return `${at} is on a read-only file system`;
    if (code === "EACCES" || code === "EPERM") return `${at} is not writable by this user`;
    return `${at} cannot be written (${code ?? String(error)})`;
  }
}

/** Rewrites an error from opening or writing the store; anything else is returned unchanged. */
export function describeStorageError(error: unknown, dataDir: string, file: string): unknown {
  const code = (error as { code?: string }).code;
  if (code === "SQLITE_READONLY" || (typeof code === "string" && code.startsWith("SQLITE_READONLY_"))) {
    let reason = whyNotWritable(dataDir);
    if (!reason) {
      try {
        accessSync(file, constants.W_OK);
      } catch {
        reason = `${file} is read-only`;
      }
    }
    return new StorageError(`cannot write the platform's database ${file}: ${reason ?? "it was opened read-only"}; ${HINT}`, error);
  }
  if (code === "SQLITE_CANTOPEN" || code === "ENOENT" || code === "EROFS" || code === "EACCES" || code === "EPERM") {
    const reason = whyNotWritable(dataDir);
    if (reason) return new StorageError(`cannot open the platform's data directory ${dataDir}: ${reason}; ${HINT}`, error);
    if (code === "SQLITE_CANTOPEN") return new StorageError(`cannot open the platform's database ${file}; ${HINT}`, error);
  }
  return error;
}
