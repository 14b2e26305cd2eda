// Per-credential rate limits of the platform server, for the calls that cost the server the most:
// creates, and everything that runs scrypt on a service password (a password check, an update that
// sets a password). Token buckets: a credential may spend `burst` at once, then `perSecond`. Past
// that the server answers 429 with Retry-After, so one tenant cannot fill the thread pool that
// every tenant's password hashing shares, and a password cannot be guessed at the server's speed.
// A session token counts against the access key it was issued for.
// Creates are counted by each replica in memory (RateLimiter); password checks in the platform's
// database (StoredRateLimiter), so that the guessing budget of a credential is one however many
// replicas serve it.

import type { Storage } from "./storage.js";

export interface RateLimit {
  /** calls allowed at once */
  burst: number;
  /** calls allowed per second after the burst */
  perSecond: number;
}

export interface RateLimits {
  creates: RateLimit;
  passwordChecks: RateLimit;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  // Terraform starts at most 10 creates at once (its parallelism) and waits for each resource to
  // be ready before the next: well under 5 a second. One hash costs about 40 ms of a core, so a
  // credential at the limit takes a fifth of a core, and cannot starve a small server's others.
  creates: { burst: 20, perSecond: 5 },
  // checks come from people and scripts, not from applies; this is slow for guessing
  passwordChecks: { burst: 10, perSecond: 2 },
};

export type LimitedAction = keyof RateLimits;

/** Which limit a call counts against, if any. `body` is the decoded JSON body of the call. */
export function limitedAction(op: string, body: Record<string, unknown> | undefined): LimitedAction | undefined {
  if (op === "services.checkPassword") return "passwordChecks";
  if (op === "services.update" && body && (typeof body.password === "string" || typeof body.password_wo === "string")) return "passwordChecks";
  if (op.endsWith(".create")) return "creates";
  return undefined;
}

interface Bucket {
  tokens: number;
  /** monotonic milliseconds of the last refill */
  at: number;
}

// Buckets that are full again hold nothing worth keeping; past this many, they are dropped.
const PRUNE_ABOVE = 10_000;

export class RateLimiter {
  readonly #limit: RateLimit;
  readonly #now: () => number;
  readonly #buckets = new Map<string, Bucket>();

  /** `now`: monotonic milliseconds (the platform's clock may be moved by tests; this one must not). */
  constructor(limit: RateLimit, now: () => number = () => performance.now()) {
    if (!(limit.burst >= 1) || !(limit.perSecond > 0)) throw new RangeError("a rate limit needs burst >= 1 and perSecond > 0");
    this.#limit = limit;
    this.#now = now;
  }

  /** Spends one call of `key`: undefined when allowed, else the whole seconds until one is (Retry-After). */
  take(key: string): number | undefined {
    const now = this.#now();
    const bucket = this.#refilled(key, now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.#limit.perSecond));
  }

  #refilled(key: string, now: number): Bucket {
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      if (this.#buckets.size >= PRUNE_ABOVE) this.#prune(now);
      bucket = { tokens: this.#limit.burst, at: now };
      this.#buckets.set(key, bucket);
      return bucket;
    }
    bucket.tokens = Math.min(this.#limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.#limit.perSecond);
    bucket.at = now;
    return bucket;
  }

  #prune(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * this.#limit.perSecond >= this.#limit.burst) this.#buckets.delete(key);
    }
  }
}

/**
 * The same token bucket kept in the platform's database (table `rate_buckets`), so that every
 * replica spends from one budget per credential: one write transaction per allowed call (a
 * refused one writes nothing), serializable on PostgreSQL like every write, so two replicas
 * never spend the same token. Counted in wall-clock time, the one clock replicas share.
 */
export class StoredRateLimiter {
  readonly #limit: RateLimit;

  constructor(
    private readonly store: Pick<Storage, "write">,
    private readonly action: string,
    limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {
    if (!(limit.burst >= 1) || !(limit.perSecond > 0)) throw new RangeError("a rate limit needs burst >= 1 and perSecond > 0");
    this.#limit = limit;
  }

  /** Spends one call of `key`: undefined when allowed, else the whole seconds until one is (Retry-After). */
  take(key: string): Promise<number | undefined> {
    const { burst, perSecond } = this.#limit;
    return this.store.write(async (tx) => {
      const now = this.now();
      const row = await tx.get<{ tokens: number | string; at: number | string }>("SELECT tokens, at FROM rate_buckets WHERE credential = ? AND action = ?", key, this.action);
      const tokens = row ? Math.min(burst, Number(row.tokens) + (Math.max(0, now - Number(row.at)) / 1000) * perSecond) : burst;
      if (tokens < 1) return Math.max(1, Math.ceil((1 - tokens) / perSecond));
      await tx.run(
        "INSERT INTO rate_buckets (credential, action, tokens, at) VALUES (?, ?, ?, ?) ON CONFLICT (credential, action) DO UPDATE SET tokens = excluded.tokens, at = excluded.at",
        key, this.action, tokens - 1, now,
      );
      return undefined;
    });
  }
}
