// The PostgreSQL storage (node-postgres), for a platform server shared by a team: any number of
// `schemaform platform serve --database postgres://…` replicas on one database.
//
// Correctness across replicas comes from the database, never from a process:
// - every write runs SERIALIZABLE. PostgreSQL then guarantees that concurrent transactions have
//   the effect of some serial order, or one of them fails with a serialization failure (40001)
//   or a deadlock (40P01); the failed one is rolled back and run again from the start, here,
//   with backoff. So a read-check-write (an etag compared, a name looked up before an insert, a
//   status derived and a transition stored) can never interleave with another replica's: the
//   second writer re-reads and sees the first one's etag, name or status. Explicit row locks
//   (SELECT … FOR UPDATE) would not cover the checks that read rows that do not exist yet (a
//   name still free), which SERIALIZABLE's predicate locks do;
// - reads run REPEATABLE READ READ ONLY: one consistent snapshot, never a serialization failure;
// - the schema is versioned (table `schemaform_schema`) and migrated at start-up while holding a
//   session advisory lock, so replicas starting together apply each migration exactly once.
// pg is loaded on open, never at import time (the embedded platform never needs it).

import type { Pool, PoolClient, PoolConfig } from "pg";
import { MIGRATIONS, schemaTooNew } from "./store.js";
import { MAX_TRANSACTION_ATTEMPTS, conflictBackoffMs, sleep, type Storage, type Tx } from "./storage.js";

/** SQLSTATEs after which a transaction is run again: serialization_failure, deadlock_detected. */
const RETRYABLE = new Set(["40001", "40P01"]);
/** Key of the advisory lock held while migrating ("schemaform" in ASCII, as a bigint). */
const MIGRATION_LOCK = "126943425891147621";

export interface PostgresOptions {
  /** postgres://user:password@host:port/database (libpq URL; `?sslmode=require` and the PG* environment variables work as usual) */
  url: string;
  /** connections per replica (default 10) */
  maxConnections?: number;
}

export async function openPostgres(options: PostgresOptions): Promise<PostgresStore> {
  const pg = (await import("pg")).default;
  const config: PoolConfig = { connectionString: options.url, max: options.maxConnections ?? 10 };
  const pool = new pg.Pool(config);
  // A connection the server closes (a restart, a failover) must not crash the replica. node-postgres
  // emits 'error' on the pool for an idle connection, and on the client itself for one checked
  // out (in a transaction, or between its statements): an 'error' with no listener ends the
  // process. So every client gets a listener when it connects; the query in progress fails with
  // the same error (answered 503 by the server, database-faults.ts), the broken client is
  // discarded on release, and the next transaction opens a new connection.
  pool.on("error", () => {});
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
  const store = new PostgresStore(pool, redact(options.url));
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end();
    throw new Error(`cannot open the platform database ${store.location}: ${(error as Error).message}`, { cause: error });
  }
  return store;
}

export class PostgresStore implements Storage {
  readonly kind = "postgres" as const;

  constructor(
    private readonly pool: Pool,
    readonly location: string,
  ) {}

  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.transaction(fn, "BEGIN ISOLATION LEVEL SERIALIZABLE");
  }

  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.transaction(fn, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  }

  async ping(): Promise<void> {
    await this.pool.query("SELECT 1");
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private async transaction<T>(fn: (tx: Tx) => Promise<T>, begin: string): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect();
      let result: T;
      try {
        await client.query(begin);
        result = await fn(transactionOn(client));
        await client.query("COMMIT"); // a serialization failure may also be reported here
      } catch (error) {
        // a connection that cannot even roll back is broken: the pool closes it instead of reusing it
        const usable = await client.query("ROLLBACK").then(
          () => true,
          () => false,
        );
        client.release(!usable);
        const code = (error as { code?: string }).code;
        if (code !== undefined && RETRYABLE.has(code) && attempt < MAX_TRANSACTION_ATTEMPTS) {
          await sleep(conflictBackoffMs(attempt));
          continue;
        }
        throw error;
      }
      client.release();
      return result;
    }
  }
}

function transactionOn(client: PoolClient): Tx {
  return {
    async get<T>(sql: string, ...params: unknown[]) {
      return (await client.query(toPostgres(sql), params)).rows[0] as T | undefined;
    },
    async all<T>(sql: string, ...params: unknown[]) {
      return (await client.query(toPostgres(sql), params)).rows as T[];
    },
    async run(sql: string, ...params: unknown[]) {
      return (await client.query(toPostgres(sql), params)).rowCount ?? 0;
    },
  };
}

const converted = new Map<string, string>();

/** `?` placeholders to `$1, $2, …` (outside quoted text); the SQL texts are a small fixed set, so cached. */
export function toPostgres(sql: string): string {
  let out = converted.get(sql);
  if (out !== undefined) return out;
  let n = 0;
  let quote: string | undefined;
  out = "";
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = undefined;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === "?") {
      out += `$${++n}`;
    } else {
      out += ch;
    }
  }
  converted.set(sql, out);
  return out;
}

/**
 * The SQLite migrations in PostgreSQL's dialect: identity columns for AUTOINCREMENT (their first
 * values set as SQLite's sqlite_sequence rows set them), and byte-order collation for text, so
 * that ORDER BY sorts as on SQLite whatever the database's locale.
 */
export function postgresMigration(sqlite: string): string {
  return sqlite
    .replace(/INTEGER PRIMARY KEY AUTOINCREMENT/g, "INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
    .replace(/\bTEXT\b/g, 'TEXT COLLATE "C"')
    .replace(/INSERT INTO sqlite_sequence \(name, seq\) VALUES ([^;]*);/g, (_, values: string) =>
      [...values.matchAll(/\('(\w+)', (\d+)\)/g)].map(([, table, seq]) => `ALTER TABLE ${table} ALTER COLUMN id RESTART WITH ${Number(seq) + 1};`).join("\n"),
    );
}

async function migrate(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      await client.query("CREATE TABLE IF NOT EXISTS schemaform_schema (version INTEGER NOT NULL, applied TEXT NOT NULL)");
      const row = (await client.query("SELECT max(version) AS version FROM schemaform_schema")).rows[0] as { version: number | null };
      const from = row.version ?? 0;
      if (from > MIGRATIONS.length) throw schemaTooNew(from);
      for (let v = from; v < MIGRATIONS.length; v++) {
        await client.query("BEGIN");
        try {
          await client.query(postgresMigration(MIGRATIONS[v]!));
          await client.query("INSERT INTO schemaform_schema (version, applied) VALUES ($1, $2)", [v + 1, new Date().toISOString()]);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK");
          throw error;
        }
      }
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(the database URL)";
  }
}
