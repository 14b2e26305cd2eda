// One write transaction for a whole request of the server (idempotency.ts): the object a create
// writes and the answer stored for its idempotency key commit together or not at all.
//
// The transaction opens at the request's first write, not before: what the request does before
// (reads in their own snapshots, a service password's scrypt hash, ~40 ms of a core) holds no
// transaction. From its first write on, every read and write of the request (Ctx.read/write,
// however deep) joins that transaction, which stays open until the request is done; then the
// answer is written into it and it commits. A request whose transaction conflicts with another's
// (PostgreSQL's serializable isolation: 40001 or 40P01, reported by a statement or at COMMIT) is
// run again from its start, as any write is (storage.ts), up to MAX_TRANSACTION_ATTEMPTS times.
//
// The storage interface runs a transaction around a callback; here the callback waits, holding
// its transaction, until the request is done, and the storage's own retry of a callback is
// turned into a run of the whole request (a second run of only the callback would store the
// answer without the object).

import { AsyncLocalStorage } from "node:async_hooks";
import { MAX_TRANSACTION_ATTEMPTS, conflictBackoffMs, sleep, type Storage, type Tx } from "../storage.js";

interface Scope {
  owner: object;
  /** the request's transaction, once its first write opened it */
  opening?: Promise<Tx>;
  /** the storage's transaction: settles when it committed or rolled back */
  held?: Promise<void>;
  /** ends the held transaction: `finish` writes into it and commits, `error` rolls it back */
  release?: (outcome: { finish: (tx: Tx) => Promise<void> } | { error: unknown }) => void;
}

const current = new AsyncLocalStorage<Scope>();

/** SQLSTATEs after which a request is run again: serialization_failure, deadlock_detected. */
const CONFLICTS = new Set(["40001", "40P01"]);

/** The storage ran the held callback twice (a conflict at COMMIT): the request runs again. */
class RunAgain extends Error {}

/** The request failed: its transaction is rolled back (an error without a code, so that the storage does not retry it). */
class RolledBack extends Error {}

/** The transaction of the request running for `owner` in this async context, opened now if it is not yet. */
export function requestTransactionOf(owner: object, store: Storage): Promise<Tx> | undefined {
  const scope = current.getStore();
  if (scope?.owner !== owner) return undefined;
  scope.opening ??= new Promise<Tx>((resolve, reject) => {
    let runs = 0;
    scope.held = store.write(async (tx) => {
      if (++runs > 1) throw new RunAgain("the request's transaction conflicted at commit");
      resolve(tx);
      const outcome = await new Promise<{ finish: (tx: Tx) => Promise<void> } | { error: unknown }>((settle) => (scope.release = settle));
      if ("error" in outcome) throw new RolledBack("the request failed", { cause: outcome.error });
      await outcome.finish(tx);
    });
    // BEGIN failed (the database is down): the write that asked for the transaction fails with it
    scope.held.catch(reject);
  });
  return scope.opening;
}

/** Whether a read of `owner` in this async context belongs to a request's open transaction. */
export function inOpenRequestTransaction(owner: object): boolean {
  const scope = current.getStore();
  return scope?.owner === owner && scope.opening !== undefined;
}

/**
 * Runs `request` as one transaction from its first write (see above) and, before that
 * transaction commits, `finish` with the request's result (the idempotency answer). A request that
 * writes nothing gets `finish` in a transaction of its own. `finish` may throw to roll back.
 */
export async function runAsOneTransaction<T>(owner: object, store: Storage, request: () => Promise<T>, finish: (tx: Tx, result: T) => Promise<void>): Promise<T> {
  if (current.getStore()?.owner === owner) throw new Error("a request transaction inside another");
  for (let attempt = 1; ; attempt++) {
    const scope: Scope = { owner };
    let result: T | undefined;
    let failure: unknown;
    let failed = false;
    try {
      result = await current.run(scope, request);
    } catch (error) {
      failed = true;
      failure = error;
    }
    if (!scope.opening) {
      if (failed) throw failure;
      await store.write((tx) => finish(tx, result as T));
      return result as T;
    }
    // the held callback is waiting for its outcome once the transaction opened
    const opened = await scope.opening.then(
      () => true,
      () => false,
    );
    if (opened) scope.release!(failed ? { error: failure } : { finish: (tx) => finish(tx, result as T) });
    let ended: unknown;
    try {
      await scope.held;
      return result as T;
    } catch (error) {
      ended = error instanceof RolledBack ? error.cause : error;
    }
    const code = (ended as { code?: unknown } | undefined)?.code;
    const conflict = ended instanceof RunAgain || (typeof code === "string" && CONFLICTS.has(code));
    if (conflict && attempt < MAX_TRANSACTION_ATTEMPTS) {
      await sleep(conflictBackoffMs(attempt));
      continue;
    }
    throw failed ? failure : ended;
  }
}
