// Idempotency keys of the platform server. A create or update sent with `Idempotency-Key` is
// performed once per credential, project and key; a repeat (a client retrying after a lost
// answer, a reset connection or a restart of this server) gets the first answer again instead
// of a second object. Answers are kept in the platform's database, so a restarted server still
// knows them; they are encrypted there, because a create's answer can hold a generated password.

import { PlatformError } from "./errors.js";
import type { Ctx } from "./core/context.js";

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
    const fingerprint = this.ctx.box.mac("idempotency-request", request.request).toString("base64url");
    const pending = this.#inFlight.get(scope);
    if (pending) {
      if (pending.request !== fingerprint) throw reused();
      return pending.answer;
    }
    const stored = await this.#lookup(request, scope, fingerprint);
    if (stored) return stored;
    const answer = perform().then(async (result) => {
      await this.#store(request, scope, fingerprint, result);
      return result;
    });
    this.#inFlight.set(scope, { request: fingerprint, answer });
    try {
      return await answer;
    } finally {
      this.#inFlight.delete(scope);
    }
  }

  async #lookup(request: IdempotentRequest, scope: string, fingerprint: string): Promise<Answer | undefined> {
    const row = await this.ctx.read(
      async (tx) =>
        (await tx.get("SELECT fingerprint, status, answer, created FROM idempotency_keys WHERE credential = ? AND project = ? AND key = ?", request.credential, request.project, request.key)) as { fingerprint: string; status: number; answer: string; created: string } | undefined,
    );
    if (!row || Date.parse(row.created) < this.ctx.now() - IDEMPOTENCY_TTL_MS) return undefined;
    if (row.fingerprint !== fingerprint) throw reused();
    return { status: row.status, body: JSON.parse(this.ctx.box.decrypt(row.answer, scope)) as unknown };
  }

  // Only successes are kept: a refused request changed nothing, so repeating it is harmless.
  // The answer is written right after the create's own transaction, with no I/O in between; a
  // server killed in that instant forgets the key, and a repeat would create a second object.
  async #store(request: IdempotentRequest, scope: string, fingerprint: string, answer: Answer): Promise<void> {
    const now = this.ctx.now();
    const sealed = this.ctx.box.encrypt(JSON.stringify(answer.body ?? null), scope);
    await this.ctx.write(async (tx) => {
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
    });
  }
}

function reused(): PlatformError {
  return new PlatformError("conflict", "this Idempotency-Key was already used for a different request; send a new key for a new request");
}
