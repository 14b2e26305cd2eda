// `schemaform platform migrate`: the schema migrations serve applies at start-up, on their own, on
// SQLite and on a real PostgreSQL, with the version before and after; data already there survives.
import { rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresMigration } from "../../platform/postgres.js";
import { LATEST_SCHEMA_VERSION } from "../../platform/schema.js";
import { DB_FILE, MIGRATIONS } from "../../platform/store.js";
import { tempDir } from "./helpers.js";
import { describePostgres, startCluster, type Cluster } from "./postgres-cluster.js";
import { runPlatformCli } from "./run-cli.js";

const CREDENTIAL = ["AKMIGRATED", null, "hash", "kept through migrate", "2030-01-01T00:00:00.000Z", null];

describe("platform migrate on SQLite", () => {
  const work = tempDir("schemaform-migrate-");
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("creates a new database at the latest version, then finds it up to date", async () => {
    const dataDir = join(work, "fresh");
    const first = await runPlatformCli(["migrate", "--data-dir", dataDir]);
    expect(first).toMatchObject({ code: 0, stdout: `schema version 0 -> ${LATEST_SCHEMA_VERSION}: applied ${LATEST_SCHEMA_VERSION} migration(s) to data directory ${dataDir}\n` });
    const db = new Database(join(dataDir, DB_FILE), { readonly: true });
    expect(db.pragma("user_version", { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    expect(db.prepare("SELECT count(*) AS n FROM idempotency_keys").get()).toEqual({ n: 0 });
    db.close();
    const again = await runPlatformCli(["migrate", "--data-dir", dataDir]);
    expect(again).toMatchObject({ code: 0, stdout: `schema version ${LATEST_SCHEMA_VERSION}: data directory ${dataDir} is up to date\n` });
  });

  it("brings a database written by an older version up to date and keeps its rows", async () => {
    const dataDir = join(work, "older");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(dataDir);
    const db = new Database(join(dataDir, DB_FILE));
    db.exec(MIGRATIONS[0]!);
    db.pragma("user_version = 1");
    db.prepare("INSERT INTO credentials VALUES (?, ?, ?, ?, ?, ?)").run(...CREDENTIAL);
    db.close();
    const result = await runPlatformCli(["migrate", "--data-dir", dataDir]);
    expect(result).toMatchObject({ code: 0, stdout: `schema version 1 -> ${LATEST_SCHEMA_VERSION}: applied ${LATEST_SCHEMA_VERSION - 1} migration(s) to data directory ${dataDir}\n` });
    const after = new Database(join(dataDir, DB_FILE), { readonly: true });
    expect(after.prepare("SELECT description FROM credentials").all()).toEqual([{ description: "kept through migrate" }]);
    expect(after.prepare("SELECT count(*) AS n FROM idempotency_keys").get()).toEqual({ n: 0 });
    after.close();
  });

  it("refuses a database written by a newer schemaform, and leaves it alone", async () => {
    const dataDir = join(work, "newer");
    await runPlatformCli(["migrate", "--data-dir", dataDir]);
    const db = new Database(join(dataDir, DB_FILE));
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 5}`);
    db.close();
    const result = await runPlatformCli(["migrate", "--data-dir", dataDir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`written by a newer schemaform (schema version ${LATEST_SCHEMA_VERSION + 5}); upgrade schemaform`);
    const after = new Database(join(dataDir, DB_FILE), { readonly: true });
    expect(after.pragma("user_version", { simple: true })).toBe(LATEST_SCHEMA_VERSION + 5);
    after.close();
  });
});

describePostgres("platform migrate on PostgreSQL", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster();
  }, 120_000);
  afterAll(() => cluster?.stop());

  async function query<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
    const pg = (await import("pg")).default;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  it("migrates an empty database, then finds it up to date; the URL's password is never printed", async () => {
    const url = (await cluster.createDatabase()).replace("postgres@", "postgres:pw-not-shown@");
    const first = await runPlatformCli(["migrate", "--database", url]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^schema version 0 -> ${LATEST_SCHEMA_VERSION}: applied ${LATEST_SCHEMA_VERSION} migration\\(s\\) to database postgres://postgres:\\*\\*\\*@`));
    expect(first.stdout + first.stderr).not.toContain("pw-not-shown");
    expect(await query(url, "SELECT version FROM schemaform_schema ORDER BY version")).toEqual(MIGRATIONS.map((_, i) => ({ version: i + 1 })));
    const again = await runPlatformCli(["migrate", "--database", url]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^schema version ${LATEST_SCHEMA_VERSION}: database .* is up to date\\n$`));
  });

  it("brings an older database up to date and keeps its rows; refuses a newer one", async () => {
    const url = await cluster.createDatabase();
    await query(url, "CREATE TABLE schemaform_schema (version INTEGER NOT NULL, applied TEXT NOT NULL)");
    await query(url, postgresMigration(MIGRATIONS[0]!));
    await query(url, "INSERT INTO schemaform_schema VALUES (1, 'then')");
    await query(url, "INSERT INTO credentials VALUES ($1, $2, $3, $4, $5, $6)", CREDENTIAL);
    const result = await runPlatformCli(["migrate", "--database", url]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^schema version 1 -> ${LATEST_SCHEMA_VERSION}: `));
    expect(await query(url, "SELECT description FROM credentials")).toEqual([{ description: "kept through migrate" }]);
    expect(await query(url, "SELECT count(*)::int AS n FROM idempotency_keys")).toEqual([{ n: 0 }]);

    await query(url, "INSERT INTO schemaform_schema VALUES ($1, 'later')", [LATEST_SCHEMA_VERSION + 1]);
    const newer = await runPlatformCli(["migrate", "--database", url]);
    expect(newer.code).toBe(1);
    expect(newer.stderr).toContain("written by a newer schemaform");
  });

  it("reports a database it cannot reach without printing the password", async () => {
    const result = await runPlatformCli(["migrate", "--database", "postgres://someone:secret-pw-123@127.0.0.1:1/nothing"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("schemaform platform migrate: database postgres://someone:***@127.0.0.1:1/nothing");
    expect(result.stderr).not.toContain("secret-pw-123");
  });
});
