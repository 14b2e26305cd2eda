// The platform's storage interface: the domain core (core/*) talks to it only, and it has two
// implementations: SQLite (store.ts; the embedded platform and the default for the server) and
// PostgreSQL (postgres.ts; `schemaform platform serve --database postgres://…`, shared by replicas).
//
// Every statement runs in a transaction: `write` for a read-modify-write (the whole function is
// one atomic unit; it may be run again from the start when the database reports a conflict with
// a concurrent transaction, so it must not have effects outside the database), `read` for a
// consistent snapshot. A transaction function passes its `tx` to the helpers it calls and never
// opens another transaction (on SQLite that would wait for itself); its statements run one after
// another (a transaction is one connection). SQL is written once for both databases: `?`
// placeholders, TEXT for JSON, `INSERT ... ON CONFLICT` for upserts, `RETURNING` for generated ids.

export interface Tx {
  /** The first row, or undefined. */
  get<T>(sql: string, ...params: unknown[]): Promise<T | undefined>;
  all<T>(sql: string, ...params: unknown[]): Promise<T[]>;
  /** Runs a statement; the number of rows it changed. */
  run(sql: string, ...params: unknown[]): Promise<number>;
}

export interface Storage {
  readonly kind: "sqlite" | "postgres";
  /** Where the data is, for messages (a file, or the database URL without its password). */
  readonly location: string;
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Resolves when the database answers (the server's /v1/ready). */
  ping(): Promise<void>;
  /** SQLite closes before this returns (an `exit` handler may call it); PostgreSQL ends its pool. */
  close(): Promise<void>;
}

/** How often a write that conflicted with a concurrent transaction is run again before the conflict is reported. */
export const MAX_TRANSACTION_ATTEMPTS = 30;

/** Backoff before attempt `attempt` (from 1) of a transaction that conflicted: 5 ms doubling, at most 200 ms, jittered. */
export function conflictBackoffMs(attempt: number): number {
  return Math.min(200, 5 * 2 ** Math.min(attempt, 6)) * (0.5 + Math.random());
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
