// The SQLite store (better-sqlite3): one file per data directory, shared safely by every process that
// opens it (Terraform runs several provider processes at once):
// - WAL journal, so readers never block the writer and the writer never blocks readers;
// - busy_timeout, so a writer waits for another process's write transaction instead of failing;
// - every read-modify-write in one IMMEDIATE transaction (the write lock is taken at BEGIN, so two
//   processes can never both read the old state and both write);
// - schema migrations under the same lock, guarded by `PRAGMA user_version`.
// better-sqlite3 is loaded on first open, never at import time.

import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { describeNativeAddonError } from "./native-addon.js";
import { describeStorageError } from "./storage-errors.js";
import { MAX_TRANSACTION_ATTEMPTS, conflictBackoffMs, sleep, type Storage, type Tx } from "./storage.js";

export type Db = BetterSqlite3.Database;

export const DB_FILE = "platform.db";
const BUSY_TIMEOUT_MS = 30_000;

export interface OpenStoreOptions {
  dataDir: string;
  /**
   * Loads better-sqlite3's native addon, for the bundled provider plugin, which cannot find it in
   * node_modules (provider/native.ts); unset: better-sqlite3 finds its own build.
   */
  loadNativeBinding?: () => object;
}

let driver: Promise<typeof BetterSqlite3> | undefined;

async function loadDriver(): Promise<typeof BetterSqlite3> {
  driver ??= import("better-sqlite3").then((m) => (m as unknown as { default: typeof BetterSqlite3 }).default ?? (m as unknown as typeof BetterSqlite3));
  return driver;
}

/** Prepared statements kept per connection (the SQL texts are a small fixed set). */
const STATEMENT_CACHE_LIMIT = 256;

export class Store implements Storage {
  readonly kind = "sqlite" as const;
  readonly db: Db;
  readonly location: string;
  readonly #begin: { deferred: BetterSqlite3.Statement; immediate: BetterSqlite3.Statement };
  readonly #commit: BetterSqlite3.Statement;
  readonly #rollback: BetterSqlite3.Statement;
  readonly #tx: Tx;
  // One connection serves every caller in this process, and a transaction function may await
  // between its statements: transactions take turns (other processes are kept out by SQLite's lock).
  #running = false;
  readonly #waiting: Array<() => void> = [];

  constructor(db: Db) {
    this.db = db;
    this.location = db.name;
    cacheStatements(db);
    this.#begin = { deferred: db.prepare("BEGIN DEFERRED"), immediate: db.prepare("BEGIN IMMEDIATE") };
    this.#commit = db.prepare("COMMIT");
    this.#rollback = db.prepare("ROLLBACK");
    this.#tx = {
      get: async <T>(sql: string, ...params: unknown[]) => db.prepare(sql).get(...params) as T | undefined,
      all: async <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[],
      run: async (sql: string, ...params: unknown[]) => db.prepare(sql).run(...params).changes,
    };
  }

  /** Runs `fn` in an IMMEDIATE transaction (the write lock is held from the start). */
  async write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await this.transaction(fn, "immediate");
    } catch (error) {
      throw describeStorageError(error, dirname(this.db.name), this.db.name);
    }
  }

  /** Runs `fn` in a DEFERRED transaction: a consistent snapshot for multi-statement reads. */
  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.transaction(fn, "deferred");
  }

  async ping(): Promise<void> {
    await this.read((tx) => tx.get("SELECT 1"));
  }

  private async transaction<T>(fn: (tx: Tx) => Promise<T>, mode: "deferred" | "immediate"): Promise<T> {
    // Uncontended (the usual case: a provider plugin's calls come one at a time), no queueing.
    if (this.#running) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running = true;
    try {
      for (let attempt = 1; ; attempt++) {
        this.#begin[mode].run();
        try {
          const result = await fn(this.#tx);
          this.#commit.run();
          return result;
        } catch (error) {
          if (this.db.inTransaction) this.#rollback.run();
          // better-sqlite3 already waits up to busy_timeout; this covers the rare immediate SQLITE_BUSY
          const code = (error as { code?: string }).code;
          if ((code === "SQLITE_BUSY" || code === "SQLITE_BUSY_SNAPSHOT") && attempt < MAX_TRANSACTION_ATTEMPTS) {
            await sleep(conflictBackoffMs(attempt));
            continue;
          }
          throw error;
        }
      }
    } finally {
      // hand the connection to the next waiting transaction, if any
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running = false;
    }
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

/**
 * Makes `db.prepare(sql)` return the statement prepared the first time for the same text:
 * SQLite compiles a statement in tens of microseconds, and the platform prepares its statements
 * inline at every call. Safe because the platform only runs statements to completion (run, get,
 * all; never a pending iterate()) and never changes a statement's mode (pluck, raw, expand).
 */
function cacheStatements(db: Db): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, BetterSqlite3.Statement>();
  db.prepare = ((sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= STATEMENT_CACHE_LIMIT) cache.clear();
      statement = prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  }) as Db["prepare"];
}

/** Retries a statement outside any transaction (opening the database) that found it busy. */
function retryBusySync<T>(fn: () => T): T {
  for (let attempt = 0; ; attempt++) {
    try {
      return fn();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if ((code === "SQLITE_BUSY" || code === "SQLITE_BUSY_SNAPSHOT") && attempt < 20) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 + attempt * 20);
        continue;
      }
      throw error;
    }
  }
}

export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const file = join(options.dataDir, DB_FILE);
  try {
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw describeStorageError(error, options.dataDir, file);
  }
  const Database = await loadDriver();
  const isNew = !existsSync(file);
  let db: Db;
  try {
    // better-sqlite3 takes a loaded addon as well as a path (its typings only say path).
    db = new Database(file, options.loadNativeBinding ? { nativeBinding: options.loadNativeBinding() as unknown as string } : {});
  } catch (error) {
    throw describeNativeAddonError(error) ?? describeStorageError(error, options.dataDir, file);
  }
  try {
    if (isNew) {
      try {
        chmodSync(file, 0o600);
      } catch {
        // another process may have created it; its permissions are its own business
      }
    }
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    retryBusySync(() => db.pragma("journal_mode = WAL"));
    db.pragma("synchronous = FULL");
    db.pragma("foreign_keys = ON");
    const store = new Store(db);
    migrate(db);
    return store;
  } catch (error) {
    db.close();
    throw describeStorageError(error, options.dataDir, file);
  }
}

/** The schema, version by version (SQLite's dialect; postgres.ts translates it). */
export const MIGRATIONS: string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  -- project registry: ids <-> numbers (restore channels accept either)
  CREATE TABLE projects (
    id TEXT PRIMARY KEY,
    number TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL
  );

  CREATE TABLE restore_channels (
    project_id TEXT NOT NULL,
    location TEXT NOT NULL,
    name TEXT NOT NULL,
    project_ref TEXT NOT NULL,
    uid TEXT NOT NULL UNIQUE,
    etag TEXT NOT NULL,
    destination_project TEXT NOT NULL,
    destination_project_id TEXT NOT NULL,
    description TEXT,
    labels TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    PRIMARY KEY (project_id, location, name)
  );

  CREATE TABLE services (
    id TEXT PRIMARY KEY,
    project TEXT NOT NULL,
    region TEXT NOT NULL,
    source_id TEXT,
    vpc_id INTEGER,
    log_exporter_id TEXT,
    metric_exporter_id TEXT,
    spec TEXT NOT NULL,
    password_hash TEXT,
    track TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
  );
  CREATE INDEX services_by_project ON services (project);
  CREATE INDEX services_by_source ON services (source_id);
  CREATE INDEX services_by_vpc ON services (vpc_id);

  CREATE TABLE vpcs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project TEXT NOT NULL,
    name TEXT NOT NULL,
    region TEXT NOT NULL,
    cidr TEXT NOT NULL,
    provisioned_id TEXT NOT NULL,
    track TEXT NOT NULL,
    error_message TEXT NOT NULL DEFAULT '',
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    UNIQUE (project, name)
  );

  CREATE TABLE peerings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project TEXT NOT NULL,
    vpc_id INTEGER NOT NULL REFERENCES vpcs (id),
    spec TEXT NOT NULL,
    track TEXT NOT NULL,
    failure TEXT NOT NULL DEFAULT '',
    created TEXT NOT NULL,
    updated TEXT NOT NULL
  );
  CREATE INDEX peerings_by_vpc ON peerings (vpc_id);

  CREATE TABLE exporters (
    id TEXT PRIMARY KEY,
    project TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('log', 'metric')),
    region TEXT NOT NULL,
    spec TEXT NOT NULL,
    secrets TEXT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
  );
  CREATE INDEX exporters_by_project ON exporters (project);

  CREATE TABLE connectors (
    id TEXT PRIMARY KEY,
    project TEXT NOT NULL,
    service_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('obj_store', 'src_db')),
    spec TEXT NOT NULL,
    secrets TEXT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
  );
  CREATE INDEX connectors_by_service ON connectors (service_id);

  CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL,
    project TEXT NOT NULL,
    resource_type TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    message TEXT NOT NULL
  );
  CREATE INDEX events_by_resource ON events (project, resource_id);

  -- server credentials: access key + hashed secret key, or a hashed long-lived access token;
  -- project NULL means every project
  CREATE TABLE credentials (
    access_key TEXT PRIMARY KEY,
    project TEXT,
    secret_hash TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    created TEXT NOT NULL,
    revoked TEXT
  );
  CREATE TABLE access_tokens (
    lookup TEXT PRIMARY KEY,
    token_id TEXT NOT NULL UNIQUE,
    project TEXT,
    description TEXT NOT NULL DEFAULT '',
    created TEXT NOT NULL,
    revoked TEXT
  );

  -- internal ids look like the reference platform's (VPCs from 1001, peerings from 3001)
  INSERT INTO sqlite_sequence (name, seq) VALUES ('vpcs', 1000), ('peerings', 3000);
  `,
  `
  -- answers of the server to creates and updates sent with an Idempotency-Key (idempotency.ts),
  -- encrypted; a repeat of the key gets the stored answer
  CREATE TABLE idempotency_keys (
    credential TEXT NOT NULL,
    project TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    answer TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (credential, project, key)
  );
  CREATE INDEX idempotency_keys_by_created ON idempotency_keys (created);
  `,
  `
  -- password-check budgets (token buckets) shared by every replica of a server (rate-limit.ts):
  -- tokens left and when they were counted (epoch ms), per credential and action
  CREATE TABLE rate_buckets (
    credential TEXT NOT NULL,
    action TEXT NOT NULL,
    tokens DOUBLE PRECISION NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (credential, action)
  );
  `,
  `
  -- what destroying a restore channel does: DELETE, PREVENT (the platform refuses) or ABANDON
  ALTER TABLE restore_channels ADD COLUMN deletion_policy TEXT NOT NULL DEFAULT 'DELETE';

  -- short-lived database roles of a service (tsdb_service_credentials): only a SCRAM-SHA-256
  -- verifier of the password is kept; the data plane turns each row into a PostgreSQL role that
  -- expires at expires_at and drops the role when the row is gone
  CREATE TABLE service_credentials (
    id TEXT PRIMARY KEY,
    project TEXT NOT NULL,
    service_id TEXT NOT NULL,
    role TEXT NOT NULL UNIQUE,
    verifier TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    created TEXT NOT NULL
  );
  CREATE INDEX service_credentials_by_service ON service_credentials (project, service_id);
  `,
  `
  -- the data plane (platform/dataplane/): tsdbadmin's SCRAM-SHA-256 verifier (the database's
  -- login check; never a plaintext), what the agent observed of each service and of each
  -- connector and exporter it runs, and the lease that lets exactly one agent run the data plane
  ALTER TABLE services ADD COLUMN password_verifier TEXT;
  CREATE TABLE dataplane_services (
    service_id TEXT PRIMARY KEY,
    plan_hash TEXT NOT NULL,
    phase TEXT NOT NULL,
    message TEXT,
    processes TEXT NOT NULL,
    disk_bytes BIGINT NOT NULL,
    warnings TEXT NOT NULL,
    updated TEXT NOT NULL
  );
  CREATE TABLE dataplane_components (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    service_id TEXT,
    status TEXT NOT NULL,
    message TEXT,
    cleanup TEXT,
    updated TEXT NOT NULL
  );
  CREATE TABLE dataplane_lease (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires TEXT NOT NULL
  );
  `,
];

// Synchronous, before the store serves anything: `PRAGMA user_version` and the migrations under
// one IMMEDIATE transaction, so processes opening a new file together apply them once.
function migrate(db: Db): void {
  const current = () => db.pragma("user_version", { simple: true }) as number;
  const found = current();
  if (found > MIGRATIONS.length) throw schemaTooNew(found);
  if (found === MIGRATIONS.length) return;
  retryBusySync(() =>
    db.transaction(() => {
      const from = current();
      if (from > MIGRATIONS.length) throw schemaTooNew(from);
      for (let v = from; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v]!);
      if (from < MIGRATIONS.length) db.pragma(`user_version = ${MIGRATIONS.length}`);
    }).immediate(),
  );
}

export function schemaTooNew(version: number): Error {
  return new Error(`the platform database was written by a newer schemaform (schema version ${version}); upgrade schemaform`);
}
