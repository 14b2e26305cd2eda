// The platform database's schema version, and `schemaform platform migrate`: the same versioned
// migrations `platform serve` applies when it opens the database (store.ts on SQLite, postgres.ts
// under its advisory lock on PostgreSQL), applied on their own, so that an operator can migrate
// before rolling out new replicas and see what changed.

import { existsSync } from "node:fs";
import { describeNativeAddonError } from "./native-addon.js";
import { join } from "node:path";
import { DB_FILE, MIGRATIONS, openStore } from "./store.js";
import { openPostgres } from "./postgres.js";
import type { Storage } from "./storage.js";

/** Where a platform's data is, for the commands that need the database but not the secrets key. */
export type StorageTarget = { kind: "sqlite"; dataDir: string } | { kind: "postgres"; url: string };

/** The version this schemaform migrates to. */
export const LATEST_SCHEMA_VERSION = MIGRATIONS.length;

/** Opens (and so migrates) the storage. */
export function openTarget(target: StorageTarget): Promise<Storage> {
  return target.kind === "sqlite" ? openStore({ dataDir: target.dataDir }) : openPostgres({ url: target.url });
}

/** The schema version of the database, without changing it: 0 for a database (or a SQLite file) not created yet. */
export async function schemaVersion(target: StorageTarget): Promise<number> {
  if (target.kind === "sqlite") {
    const file = join(target.dataDir, DB_FILE);
    if (!existsSync(file)) return 0;
    const Database = (await import("better-sqlite3")).default;
    let db: InstanceType<typeof Database>;
    try {
      db = new Database(file, { readonly: true, fileMustExist: true });
    } catch (error) {
      throw describeNativeAddonError(error) ?? error;
    }
    try {
      return db.pragma("user_version", { simple: true }) as number;
    } finally {
      db.close();
    }
  }
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    const table = await client.query<{ present: boolean }>("SELECT to_regclass('schemaform_schema') IS NOT NULL AS present");
    if (!table.rows[0]!.present) return 0;
    const row = await client.query<{ version: number | null }>("SELECT max(version) AS version FROM schemaform_schema");
    return row.rows[0]!.version ?? 0;
  } finally {
    await client.end();
  }
}

/** Applies the migrations the database lacks; the version before and after. */
export async function migrateTarget(target: StorageTarget): Promise<{ before: number; after: number }> {
  const before = await schemaVersion(target);
  const store = await openTarget(target);
  await store.close();
  // opening either brings the schema to LATEST_SCHEMA_VERSION or throws (a newer database)
  return { before, after: LATEST_SCHEMA_VERSION };
}
