// Idempotency keys of the platform server. A create or update sent with `Idempotency-Key` is
// performed once per credential, project and key; a repeat (a client retrying after a lost
// answer, a reset connection or a restart of this server) gets the first answer again instead
// of a second object. Answers are kept in the platform's database, so a restarted server still
// knows them; they are encrypted there, because a create's answer can hold a generated password.
//
// The request's writes and its stored answer are ONE transaction (Ctx.inOneTransaction): an
// object is committed with the answer that describes it, or neither is. So a failure anywhere
// (the database restarting, its disk full, this process killed) leaves either nothing (the retry
// performs the request) or the object with its answer (the retry gets that answer): never an
// object whose key was lost, which a retry would create a second time. The key is looked up
// again in that transaction before the answer is written: two replicas serving the same key at
// once conflict there on PostgreSQL (serializable), and the one run again replays the other's
// answer.

import { PlatformError } from "./errors.js";
import type { Ctx } from "./core/context.js";
import type { Tx } from "./storage.js";

/** How long an answer is kept for repeats; far longer than any client retries. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

export interface IdempotentRequest {
  /** the access key or token id the request authenticated with */
  credential: string;
  /** the project the request acts on ("" when the route has none) */
  project: string;
  /** the `Idempotency-Key` header */
  key: string;
  /** method, path and body: a key reused for another request is refused */
  request: string;
}

export interface Answer {
  status: number;
  body: unknown;
}

export class IdempotencyKeys {
  // A repeat that arrives while the first request is still being served waits for its answer.
  readonly #inFlight = new Map<string, { request: string; answer: Promise<Answer> }>();
  #pruned = 0;

  constructor(private readonly ctx: Ctx) {}

  /** Answers with the stored answer for this key, else performs the request once and stores its answer. */
  async run(request: IdempotentRequest, perform: () => Promise<Answer>): Promise<Answer> {
    if (!KEY_SHAPE.test(request.key)) throw new PlatformError("invalid", "the Idempotency-Key header must be 1 to 255 visible ASCII characters");
    const scope = JSON.stringify([request.credential, request.project, request.key]);
    // under every key: a repeat across a key rotation still matches its first request
    const fingerprints = this.ctx.box.macs("idempotency-request", request.request).map((mac) => mac.toString("base64url"));
    const fingerprint = fingerprints[0]!;
    const pending = this.#inFlight.get(scope);
    if (pending) {
      if (pending.request !== fingerprint) throw reused();
      return pending.answer;
    }
    const answer = (async () => {
      const stored = await this.ctx.read((tx) => this.#lookup(tx, request, scope, fingerprints));
      if (stored) return stored;
      try {
        return await this.ctx.inOneTransaction(perform, async (tx, result) => {
          // another replica may have answered the same key meanwhile: its answer, not a second object
          const theirs = await this.#lookup(tx, request, scope, fingerprints);
          if (theirs) throw new AnsweredElsewhere(theirs);
          await this.#store(tx, request, scope, fingerprint, result);
        });
      } catch (error) {
        if (error instanceof AnsweredElsewhere) return error.answer;
        throw error;
      }
    })();
    this.#inFlight.set(scope, { request: fingerprint, answer });
    try {
      return await answer;
    } finally {
      this.#inFlight.delete(scope);
    }
  }

  async #lookup(tx: Tx, request: IdempotentRequest, scope: string, fingerprints: string[]): Promise<Answer | undefined> {
    const row = (await tx.get("SELECT fingerprint, status, answer, created FROM idempotency_keys WHERE credential = ? AND project = ? AND key = ?", request.credential, request.project, request.key)) as
      | { fingerprint: string; status: number; answer: string; created: string }
      | undefined;
    if (!row || Date.parse(row.created) < this.ctx.now() - IDEMPOTENCY_TTL_MS) return undefined;
    if (!fingerprints.includes(row.fingerprint)) throw reused();
    return { status: row.status, body: JSON.parse(this.ctx.box.decrypt(row.answer, scope)) as unknown };
  }

  // Only successes are kept: a refused request changed nothing (its transaction is rolled back),
  // so repeating it is harmless.
  async #store(tx: Tx, request: IdempotentRequest, scope: string, fingerprint: string, answer: Answer): Promise<void> {
    const now = this.ctx.now();
    const sealed = this.ctx.box.encrypt(JSON.stringify(answer.body ?? null), scope);
    await tx.run(
      `INSERT INTO idempotency_keys (credential, project, key, fingerprint, status, answer, created) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (credential, project, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status, answer = excluded.answer, created = excluded.created`,
      request.credential, request.project, request.key, fingerprint, answer.status, sealed, this.ctx.iso(now),
    );
    // Expired keys go at most once a minute, in the same transaction as a new one.
    if (now - this.#pruned > 60_000) {
      this.#pruned = now;
      await tx.run("DELETE FROM idempotency_keys WHERE created < ?", this.ctx.iso(now - IDEMPOTENCY_TTL_MS));
    }
  }
}

/** The key was answered by another replica while this one performed the request: roll back, replay that. */
class AnsweredElsewhere extends Error {
  constructor(readonly answer: Answer) {
    super("answered by another replica");
  }
}

function reused(): PlatformError {
  return new PlatformError("conflict", "this Idempotency-Key was already used for a different request; send a new key for a new request");
}
