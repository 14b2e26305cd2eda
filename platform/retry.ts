// Which failures of a platform request are worth repeating, and how long to wait before the next
// attempt. The HTTP client only repeats requests that are safe to repeat: reads and deletes by
// nature, creates and updates because they carry an idempotency key (server.ts replays the
// first answer for a repeated key instead of acting twice).

/** Statuses a server or proxy returns when the request may succeed later unchanged. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

// Socket-level failures of undici (fetch) and Node: the server is down, restarting or dropped
// the connection. A DNS failure or a TLS error is a configuration problem and is not repeated.
const TRANSIENT_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ECONNABORTED", "EHOSTUNREACH", "ENETUNREACH", "ETIMEDOUT", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);

/** The socket error code behind a failed fetch, if any. */
export function transportCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let depth = 0; depth < 4 && e instanceof Error; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = e.cause;
  }
  return undefined;
}

export function isTransientTransportError(error: unknown): boolean {
  const code = transportCode(error);
  return code !== undefined && TRANSIENT_CODES.has(code);
}

export interface BackoffPolicy {
  /** first delay, ms */
  baseMs: number;
  /** no single delay is longer */
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 100, capMs: 2000 };

/**
 * The delay before attempt `attempt + 1` (attempt counts from 1): doubling from the base up to
 * the cap, then "equal jitter" (half fixed, half random) so that many clients refused by one
 * restarting server do not all come back in the same instant.
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(attempt - 1, 20));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** `Retry-After` in ms (seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
