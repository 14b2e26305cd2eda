// Failures of the platform's database that say nothing about the request: the database is
// restarting or cannot be reached, or it is out of disk space. The server answers them with 503
// and `Retry-After` (the request may succeed unchanged a moment later, and the HTTP client
// retries it: creates and updates safely, as they carry an idempotency key whose answer commits
// with the object, idempotency.ts), with a message naming the cause, instead of an opaque 500.

export interface DatabaseFault {
  /** for the answer's message: what is wrong with the database */
  cause: string;
  /** seconds before a retry is worth trying */
  retryAfterSeconds: number;
}

export const DATABASE_RESTARTING: DatabaseFault = { cause: "the platform database is restarting or cannot be reached", retryAfterSeconds: 1 };
export const DATABASE_DISK_FULL: DatabaseFault = { cause: "the platform database is out of disk space", retryAfterSeconds: 2 };

// PostgreSQL SQLSTATEs: admin_shutdown (a fast or smart restart), crash_shutdown (another backend
// crashed), cannot_connect_now (starting up or shutting down); class 08 is every connection
// exception. disk_full is 53100.
const RESTARTING_STATES = new Set(["57P01", "57P02", "57P03"]);
// What node-postgres and Node report when the socket to the database fails.
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ECONNABORTED", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH"]);
const SOCKET_MESSAGES = [/^Connection terminated/, /^Client has encountered a connection error/, /^timeout exceeded when trying to connect/, /Connection terminated due to connection timeout/];

/** The database fault behind `error` (or its causes), or undefined for any other error. */
export function databaseFault(error: unknown): DatabaseFault | undefined {
  let e: unknown = error;
  for (let depth = 0; depth < 4 && e instanceof Error; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") {
      if (code === "53100" || code === "SQLITE_FULL") return DATABASE_DISK_FULL;
      if (RESTARTING_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || SOCKET_CODES.has(code)) return DATABASE_RESTARTING;
    }
    if (SOCKET_MESSAGES.some((pattern) => pattern.test(e instanceof Error ? e.message : ""))) return DATABASE_RESTARTING;
    e = e.cause;
  }
  return undefined;
}
