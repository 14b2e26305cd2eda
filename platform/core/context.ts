// What every part of the domain core shares: the store, the secret box, the clock, the transition
// delay and the event log.

import type { Storage, Tx } from "../storage.js";
import { inOpenRequestTransaction, requestTransactionOf, runAsOneTransaction } from "./request-transaction.js";
import type { SecretBox } from "../secrets.js";
import { PlatformError, type Warning } from "../errors.js";

export interface CoreOptions {
  store: Storage;
  box: SecretBox;
  /** epoch milliseconds; injectable for tests */
  clock: () => number;
  /** how long each status transition takes, in milliseconds */
  transitionMs: number;
  /** the data plane under this core (platform/dataplane/); absent: records only */
  dataPlane?: DataPlaneHooks;
}

/** What the core needs to know of the data plane. */
export interface DataPlaneHooks {
  /** real databases: loopback endpoints, statuses from what the agent observed */
  on: boolean;
  /** off because PostgreSQL was not found: the plain line each create warns with */
  recordOnly?: string;
  /** stored desired state changed: the agent should reconcile now rather than at its next tick */
  changed?(): void;
  /** how long a delete waits for the agent to remove what ran (default 120 s) */
  removalTimeoutMs?: number;
}

export class Ctx {
  readonly store: Storage;
  readonly box: SecretBox;
  readonly clock: () => number;
  readonly transitionMs: number;
  readonly dataPlane: DataPlaneHooks;

  constructor(options: CoreOptions) {
    this.dataPlane = options.dataPlane ?? { on: false };
    this.store = options.store;
    this.box = options.box;
    this.clock = options.clock;
    this.transitionMs = options.transitionMs;
  }

  now(): number {
    return this.clock();
  }

  /** RFC 3339 timestamp (UTC, milliseconds). */
  iso(ms: number = this.clock()): string {
    return new Date(ms).toISOString();
  }

  /**
   * A read-modify-write; `fn` may run more than once (storage.ts), so it only touches the database.
   * Inside a request run by inOneTransaction, it joins the request's transaction.
   */
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const joined = requestTransactionOf(this, this.store);
    return joined ? joined.then(fn) : this.store.write(fn);
  }

  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return inOpenRequestTransaction(this) ? requestTransactionOf(this, this.store)!.then(fn) : this.store.read(fn);
  }

  /**
   * Runs `request` with every write it makes (and every read after its first write) in ONE
   * transaction, into which `finish` writes the request's answer before it commits: the server's
   * idempotent requests, whose stored answer commits with the object it describes or not at all
   * (request-transaction.ts). Like any write, `request` may run again after a conflict, so it must
   * have no effect outside the database.
   */
  inOneTransaction<T>(request: () => Promise<T>, finish: (tx: Tx, result: T) => Promise<void>): Promise<T> {
    return runAsOneTransaction(this, this.store, request, finish);
  }

  /** Tells the data plane that desired state changed (a no-op with records only). */
  changed(): void {
    if (this.dataPlane.on) this.dataPlane.changed?.();
  }

  /**
   * Waits until `gone` holds (the agent removed what ran), poking the agent meanwhile; a
   * `timeout` error naming `what` when it does not come within the removal timeout.
   */
  async awaitRemoval(what: string, gone: (tx: Tx) => Promise<boolean>): Promise<void> {
    if (!this.dataPlane.on) return;
    const deadline = Date.now() + (this.dataPlane.removalTimeoutMs ?? 120_000);
    let delay = 50;
    for (;;) {
      if (await this.read(gone)) return;
      if (Date.now() >= deadline) {
        throw new PlatformError("timeout", `${what} is deleted, but the data plane has not stopped and removed it yet: see 'schemaform platform status'`);
      }
      this.changed();
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 500);
    }
  }

  /** Records an event in the write transaction `tx`; `message` must never contain a secret. */
  async event(tx: Tx, project: string, resourceType: string, resourceId: string, kind: string, message: string): Promise<void> {
    await tx.run("INSERT INTO events (at, project, resource_type, resource_id, kind, message) VALUES (?, ?, ?, ?, ?, ?)", this.iso(), project, resourceType, resourceId, kind, message);
  }
}

export function warning(path: (string | number)[], message: string): Warning {
  return { path, message };
}

/** Parses the JSON column of a row. */
export function parseJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** Drops undefined values (so bodies have no `key: undefined` entries). */
export function compact<T extends Record<string, unknown>>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
  return out as T;
}

/** Applies a patch: absent keys keep `current`, `null` deletes, anything else replaces. */
export function applyPatch<T extends Record<string, unknown>>(current: T, patch: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out as T;
}

/** Deep equality of JSON values, ignoring key order. */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
