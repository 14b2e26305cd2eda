// `schemaform platform export` / `import`: a platform written through the server on SQLite moves to a
// real PostgreSQL and is served from there as it was: the same ids, etags and timestamps, the same
// credentials, idempotency answers replayed, secrets that decrypt with the key the two share; and
// back again, row for row. An export leaves its source as it found it (no migration).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmbeddedPlatform } from "../../platform/embedded.js";
import { createHttpClient } from "../../platform/http-client.js";
import { openPostgres, postgresMigration } from "../../platform/postgres.js";
import { LATEST_SCHEMA_VERSION, schemaVersion } from "../../platform/schema.js";
import { SecretBox, loadSharedKey } from "../../platform/secrets.js";
import { startServer, type RunningServer } from "../../platform/server.js";
import { DB_FILE, MIGRATIONS } from "../../platform/store.js";
import type { PlatformClient } from "../../platform/types.js";
import { rejection, startServerHarness, tempDir, type ServerHarness } from "./helpers.js";
import { describePostgres, postgresBinaries, startCluster, type Cluster } from "./postgres-cluster.js";
import { runPlatformCli } from "./run-cli.js";

const P = "moving-project";
const CHANNEL = { destination_project: "projects/moving-dest", location: "us-central1" };

/** Everything a user can read back of the objects the test made. */
async function snapshot(c: PlatformClient, ids: { channel: string; service: string; vpc: string; peering: string; exporter: string; connector: string }) {
  return {
    channel: await c.restoreChannels.get(ids.channel),
    service: await c.services.get(P, ids.service),
    vpcs: await c.vpcs.list(P),
    peering: await c.peering.get(P, Number(ids.vpc), ids.peering),
    exporter: await c.metricExporters.get(P, ids.exporter),
    connector: await c.srcDbConnectors.get(P, ids.connector),
    services: await c.services.list(P),
    events: await c.events.list(P),
  };
}

/** The rows of an export (its header carries the time of the export and the source's kind). */
const rowsOf = (file: string) => readFileSync(file, "utf8").trimEnd().split("\n").slice(1);

/** A create sent with an Idempotency-Key of our own, to replay it after the move. */
async function idempotentCreate(url: string, auth: string, key: string): Promise<{ status: number; body: { body: { id: string } } }> {
  const response = await fetch(`${url}/tsdb/v1/projects/${P}/services`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify({ name: "idempotent" }),
  });
  return { status: response.status, body: (await response.json()) as { body: { id: string } } };
}

const MIGRATE_HINT = "run `schemaform platform migrate` against it with this schemaform first";

describe("platform export of a SQLite platform not at this schemaform's version", () => {
  const work = tempDir("schemaform-export-version-");
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** A data directory whose database is at schema version `version` (tables of the first migration when above 0). */
  function dataDirAt(name: string, version: number): string {
    const dataDir = join(work, name);
    mkdirSync(dataDir);
    const db = new Database(join(dataDir, DB_FILE));
    if (version > 0) db.exec(MIGRATIONS[0]!);
    db.pragma(`user_version = ${version}`);
    db.close();
    return dataDir;
  }
  const versionOf = (dataDir: string) => {
    const db = new Database(join(dataDir, DB_FILE), { readonly: true });
    try {
      return db.pragma("user_version", { simple: true }) as number;
    } finally {
      db.close();
    }
  };

  it("refuses a database of an older schema version, with the migrate hint, and leaves its version as it was", async () => {
    const dataDir = dataDirAt("older", 1);
    const result = await runPlatformCli(["export", "--data-dir", dataDir]);
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toContain(`the data directory ${dataDir} is at schema version 1 and this schemaform's is ${LATEST_SCHEMA_VERSION}: ${MIGRATE_HINT}`);
    expect(versionOf(dataDir)).toBe(1);
  });

  it("refuses a database of a newer schema version", async () => {
    const dataDir = dataDirAt("newer", LATEST_SCHEMA_VERSION + 5);
    const result = await runPlatformCli(["export", "--data-dir", dataDir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`was written by a newer schemaform (schema version ${LATEST_SCHEMA_VERSION + 5}`);
    expect(versionOf(dataDir)).toBe(LATEST_SCHEMA_VERSION + 5);
  });

  it("says there is no platform in an empty database or a missing data directory, and creates neither schema nor directory", async () => {
    const dataDir = dataDirAt("empty", 0);
    const empty = await runPlatformCli(["export", "--data-dir", dataDir]);
    expect(empty).toMatchObject({ code: 1, stdout: "", stderr: `schemaform platform export: there is no platform in the data directory ${dataDir}\n` });
    expect(versionOf(dataDir)).toBe(0);
    const missing = join(work, "missing");
    const none = await runPlatformCli(["export", "--data-dir", missing]);
    expect(none).toMatchObject({ code: 1, stderr: `schemaform platform export: there is no platform in the data directory ${missing}\n` });
    expect(existsSync(missing)).toBe(false);
  });
});

describePostgres("platform export and import between SQLite and PostgreSQL", () => {
  let cluster: Cluster;
  let sqlite: ServerHarness;
  const work = tempDir("schemaform-transfer-");
  const exported = join(work, "platform.jsonl");
  let ids: { channel: string; service: string; vpc: string; peering: string; exporter: string; connector: string };
  let before: Awaited<ReturnType<typeof snapshot>>;
  let basic: string;
  let replayed: { status: number; body: { body: { id: string } } };

  beforeAll(async () => {
    cluster = await startCluster();
    sqlite = await startServerHarness();
    const c = sqlite.client;
    const channel = (await c.restoreChannels.create({ ...CHANNEL, name: "moved", labels: { team: "data" } }, { defaultProject: P })).body;
    const service = (await c.services.create(P, { name: "moved-service" })).body;
    const vpc = (await c.vpcs.create(P, { name: "kept", cidr: "10.1.0.0/16", region_code: "us-east-1" })).body;
    const dropped = (await c.vpcs.create(P, { name: "dropped", cidr: "10.2.0.0/16", region_code: "us-east-1" })).body;
    await c.vpcs.delete(P, String(dropped.id));
    const peering = (await c.peering.create(P, { platform_vpc_id: Number(vpc.id), peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_vpc_id: "vpc-0a1b2c3d4e5f67890" })).body;
    const exporter = (await c.metricExporters.create(P, { name: "m", region: "us-east-1", saasmon: { api_key: "exporter-api-key-123", site: "datadoghq.eu" } })).body;
    const connector = (await c.srcDbConnectors.create(P, { service_id: service.id, display_name: "orders", connection_string: "postgres://replicator:conn-pw-456@db.internal/orders" })).body;
    ids = { channel: channel.id, service: service.id, vpc: String(vpc.id), peering: peering.id, exporter: exporter.id, connector: connector.id };
    basic = `Basic ${Buffer.from(`${sqlite.accessKey}:${sqlite.secretKey}`).toString("base64")}`;
    replayed = await idempotentCreate(sqlite.server.url, basic, "move-me-once");
    expect(replayed.status).toBe(201);
    before = await snapshot(c, ids);
    await sqlite.client.close();
    await sqlite.server.close();
    await sqlite.platform.close();
    const out = await runPlatformCli(["export", "--data-dir", sqlite.dataDir, "--out", exported]);
    expect(out).toMatchObject({ code: 0, stderr: expect.stringMatching(/^exported \d+ rows from the data directory /) });
  }, 120_000);

  afterAll(async () => {
    cluster?.stop();
    rmSync(work, { recursive: true, force: true });
    if (sqlite) rmSync(sqlite.dataDir, { recursive: true, force: true });
  });

  /** The SQLite platform's key, as the importing side is given it. */
  const withKey = () => ["--secrets-key-file", join(sqlite.dataDir, "platform.key")];

  /** `platform serve` on the PostgreSQL database with the SQLite platform's key. */
  async function servePostgres(url: string, keyFile: string, log?: (line: string) => void): Promise<{ server: RunningServer; platform: EmbeddedPlatform; client: PlatformClient; close(): Promise<void> }> {
    const platform = new EmbeddedPlatform({ transitionSeconds: 0, storage: { open: () => openPostgres({ url }), secretsKey: loadSharedKey(keyFile) } });
    const server = await startServer({ platform, port: 0, log });
    const client = createHttpClient({ endpoint: server.url, credentials: { accessKey: sqlite.accessKey, secretKey: sqlite.secretKey } });
    return {
      server,
      platform,
      client,
      close: async () => {
        await client.close();
        await server.close();
        await platform.close();
      },
    };
  }

  it("exports the SQLite platform, imports it into PostgreSQL, and serves it from there unchanged", async () => {
    expect(JSON.parse(readFileSync(exported, "utf8").split("\n")[0]!)).toMatchObject({ format: "schemaform-platform-export", version: 1, source: "sqlite" });
    // secrets travel encrypted: the file never holds them in the clear
    const text = readFileSync(exported, "utf8");
    for (const secret of ["exporter-api-key-123", "conn-pw-456", sqlite.secretKey]) expect(text).not.toContain(secret);

    const url = await cluster.createDatabase();
    const imported = await runPlatformCli(["import", "--database", url, "--in", exported, ...withKey()]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/^imported \d+ rows into the database postgres:/);

    const pg = await servePostgres(url, join(sqlite.dataDir, "platform.key"));
    try {
      // the same objects, ids, etags, timestamps and events; the same credentials authenticate
      expect(await snapshot(pg.client, ids)).toEqual(before);
      // secrets decrypt with the shared key: an update re-reads the stored ones
      expect((await pg.client.metricExporters.update(P, ids.exporter, { name: "renamed" })).body.name).toBe("renamed");
      expect((await pg.client.srcDbConnectors.update(P, ids.connector, { display_name: "renamed" })).body.display_name).toBe("renamed");
      const box = new SecretBox(loadSharedKey(join(sqlite.dataDir, "platform.key")));
      const direct = await openPostgres({ url });
      const row = (await direct.read((tx) => tx.get<{ secrets: string }>("SELECT secrets FROM exporters WHERE id = ?", ids.exporter)))!;
      await direct.close();
      expect(box.open(row.secrets, `exporter:${ids.exporter}`)).toEqual({ api_key: "exporter-api-key-123" });
      // an idempotent create repeated after the move gets its first answer, no second object
      expect(await idempotentCreate(pg.server.url, basic, "move-me-once")).toEqual(replayed);
      expect((await pg.client.services.list(P)).filter((s) => s.name === "idempotent")).toHaveLength(1);
      // generated ids continue after the highest ever handed out (the deleted VPC's too)
      const dropped = Math.max(...before.vpcs.map((v) => Number(v.id))) + 1;
      const next = (await pg.client.vpcs.create(P, { name: "after-move", cidr: "10.3.0.0/16", region_code: "us-east-1" })).body;
      expect(Number(next.id)).toBe(dropped + 1);
    } finally {
      await pg.close();
    }
  }, 60_000);

  it("refuses an import whose secrets do not open with the key given, or with no key at all; served with another key they stay closed", async () => {
    const url = await cluster.createDatabase();
    const otherKey = join(work, "other.key");
    writeFileSync(otherKey, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600 });
    const wrong = await runPlatformCli(["import", "--database", url, "--in", exported, "--secrets-key-file", otherKey]);
    expect(wrong.code).toBe(1);
    // the export's key check value names the mismatch before any secret is tried
    expect(wrong.stderr).toContain(`the secrets key file ${otherKey} (key fingerprint `);
    expect(wrong.stderr).toContain("is not the secrets key of the exported platform");
    expect(wrong.stderr).not.toContain(readFileSync(otherKey, "utf8").trim());
    const saved = { file: process.env.SCHEMAFORM_SECRETS_KEY_FILE, key: process.env.SCHEMAFORM_SECRETS_KEY };
    delete process.env.SCHEMAFORM_SECRETS_KEY_FILE;
    delete process.env.SCHEMAFORM_SECRETS_KEY;
    try {
      const keyless = await runPlatformCli(["import", "--database", url, "--in", exported]);
      expect(keyless.code).toBe(1);
      expect(keyless.stderr).toContain("the export holds encrypted secrets: give --secrets-key-file FILE");
    } finally {
      if (saved.file !== undefined) process.env.SCHEMAFORM_SECRETS_KEY_FILE = saved.file;
      if (saved.key !== undefined) process.env.SCHEMAFORM_SECRETS_KEY = saved.key;
    }
    // nothing was written by the refused imports; with the right key it goes in
    expect((await runPlatformCli(["import", "--database", url, "--in", exported, ...withKey()])).code).toBe(0);
    // a server given another key refuses to start, rather than write secrets no other replica opens
    const refused = await rejection(() => servePostgres(url, otherKey));
    expect(refused.message).toContain(`the secrets key file ${otherKey} (key fingerprint `);
    expect(refused.message).toMatch(/\(key fingerprint [0-9a-f]{12}\) is not the secrets key of the platform at postgres:\/\/\S+ \(its key's fingerprint is [0-9a-f]{12}\)/);
    // export and migrate given that key refuse too
    const exportedAgain = await runPlatformCli(["export", "--database", url, "--out", join(work, "refused.jsonl"), "--secrets-key-file", otherKey]);
    expect(exportedAgain.code).toBe(1);
    expect(exportedAgain.stderr).toContain("is not the secrets key of the platform");
    const migrated = await runPlatformCli(["migrate", "--database", url, "--secrets-key-file", otherKey]);
    expect(migrated.code).toBe(1);
    expect(migrated.stderr).toContain(`the secrets key file ${otherKey} (key fingerprint`);
  }, 60_000);

  it("exports PostgreSQL row for row as SQLite did, and imports back into a new SQLite platform", async () => {
    const url = await cluster.createDatabase();
    expect((await runPlatformCli(["import", "--database", url, "--in", exported, ...withKey()])).code).toBe(0);
    const fromPostgres = join(work, "from-postgres.jsonl");
    expect((await runPlatformCli(["export", "--database", url, "--out", fromPostgres])).code).toBe(0);
    expect(JSON.parse(readFileSync(fromPostgres, "utf8").split("\n")[0]!)).toMatchObject({ source: "postgres" });
    expect(rowsOf(fromPostgres)).toEqual(rowsOf(exported));

    // into a new data directory: the key given becomes its platform.key, and it serves as before
    const dataDir = join(work, "back-to-sqlite");
    expect((await runPlatformCli(["import", "--data-dir", dataDir, "--in", fromPostgres, ...withKey()])).code).toBe(0);
    expect(readFileSync(join(dataDir, "platform.key"), "utf8")).toBe(readFileSync(join(sqlite.dataDir, "platform.key"), "utf8"));
    const again = join(work, "again.jsonl");
    expect((await runPlatformCli(["export", "--data-dir", dataDir, "--out", again])).code).toBe(0);
    expect(rowsOf(again)).toEqual(rowsOf(exported));
    const embedded = new EmbeddedPlatform({ dataDir, transitionSeconds: 0 });
    try {
      expect(await snapshot(embedded, ids)).toEqual(before);
      expect((await embedded.metricExporters.update(P, ids.exporter, { name: "back home" })).body.name).toBe("back home");
    } finally {
      await embedded.close();
    }
  }, 60_000);

  it("restores a pg_dump of the platform with pg_restore into a new database that serves the same objects", async () => {
    const source = await cluster.createDatabase();
    expect((await runPlatformCli(["import", "--database", source, "--in", exported, ...withKey()])).code).toBe(0);
    const dump = join(work, "platform.dump");
    const bin = postgresBinaries()!;
    execFileSync(join(bin, "pg_dump"), ["--format=custom", `--file=${dump}`, source]);
    const restored = await cluster.createDatabase();
    execFileSync(join(bin, "pg_restore"), ["--no-owner", `--dbname=${restored}`, dump]);
    expect((await runPlatformCli(["migrate", "--database", restored])).stdout).toMatch(/is up to date/);
    const pg = await servePostgres(restored, join(sqlite.dataDir, "platform.key"));
    try {
      expect(await snapshot(pg.client, ids)).toEqual(before);
      expect((await pg.client.metricExporters.update(P, ids.exporter, { name: "restored" })).body.name).toBe("restored");
      const next = (await pg.client.vpcs.create(P, { name: "after-restore", cidr: "10.4.0.0/16", region_code: "us-east-1" })).body;
      expect(Number(next.id)).toBe(Math.max(...before.vpcs.map((v) => Number(v.id))) + 2);
    } finally {
      await pg.close();
    }
  }, 60_000);

  it("refuses to import into a platform that holds data unless told to replace it", async () => {
    const url = await cluster.createDatabase();
    expect((await runPlatformCli(["import", "--database", url, "--in", exported, ...withKey()])).code).toBe(0);
    const twice = await runPlatformCli(["import", "--database", url, "--in", exported, ...withKey()]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain("the target platform is not empty");
    const replaced = await runPlatformCli(["import", "--database", url, "--in", exported, "--replace", ...withKey()]);
    expect(replaced.code).toBe(0);
    const check = join(work, "replaced.jsonl");
    expect((await runPlatformCli(["export", "--database", url, "--out", check])).code).toBe(0);
    expect(rowsOf(check)).toEqual(rowsOf(exported));
  }, 60_000);

  it("exports nothing from a database without a platform or at an older schema version, and migrates neither", async () => {
    const empty = (await cluster.createDatabase()).replace("postgres@", "postgres:pw-not-shown@");
    const none = await runPlatformCli(["export", "--database", empty]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^schemaform platform export: there is no platform in the database postgres:\/\/postgres:\*\*\*@/);
    expect(none.stderr).not.toContain("pw-not-shown");
    expect(await schemaVersion({ kind: "postgres", url: empty })).toBe(0);

    const older = await cluster.createDatabase();
    const pg = (await import("pg")).default;
    const client = new pg.Client({ connectionString: older });
    await client.connect();
    try {
      await client.query("CREATE TABLE schemaform_schema (version INTEGER NOT NULL, applied TEXT NOT NULL)");
      await client.query(postgresMigration(MIGRATIONS[0]!));
      await client.query("INSERT INTO schemaform_schema VALUES (1, 'then')");
    } finally {
      await client.end();
    }
    const result = await runPlatformCli(["export", "--database", older]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(MIGRATE_HINT);
    expect(await schemaVersion({ kind: "postgres", url: older })).toBe(1);
  });

  it("refuses a cut-off or foreign file and leaves the target empty", async () => {
    const url = await cluster.createDatabase();
    const lines = readFileSync(exported, "utf8").trimEnd().split("\n");
    const cut = join(work, "cut.jsonl");
    writeFileSync(cut, `${lines.slice(0, -1).join("\n")}\n`);
    const truncated = await runPlatformCli(["import", "--database", url, "--in", cut, ...withKey()]);
    expect(truncated.code).toBe(1);
    expect(truncated.stderr).toContain("the file is incomplete");
    const foreign = join(work, "foreign.jsonl");
    writeFileSync(foreign, `${lines[0]}\n${JSON.stringify({ table: "services; DROP TABLE credentials", row: {} })}\n${lines.at(-1)}\n`);
    const injected = await runPlatformCli(["import", "--database", url, "--in", foreign, ...withKey()]);
    expect(injected.code).toBe(1);
    expect(injected.stderr).toContain("names a table");
    // nothing was written: a complete import still finds the database empty
    expect((await runPlatformCli(["import", "--database", url, "--in", exported, ...withKey()])).code).toBe(0);
  }, 60_000);
});
