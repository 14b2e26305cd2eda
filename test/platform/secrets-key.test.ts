// One secrets key for a platform, and rotating it: a replica (or migrate, export, import) with
// another key refuses, naming the key's file and fingerprint and never the key; a key file others
// can read is refused with the chmod that fixes it; several keys decrypt with any and encrypt with
// the newest, and `platform migrate` moves every secret to the newest.
import { randomBytes } from "node:crypto";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmbeddedPlatform } from "../../platform/embedded.js";
import { openPostgres } from "../../platform/postgres.js";
import { loadSharedKey } from "../../platform/secrets.js";
import { rejection, tempDir } from "./helpers.js";
import { describePostgres, startCluster, type Cluster } from "./postgres-cluster.js";
import { runPlatformCli } from "./run-cli.js";

const P = "key-proj";

function keyFile(dir: string, name: string, keys = 1, mode = 0o600): string {
  const path = join(dir, name);
  writeFileSync(path, Array.from({ length: keys }, () => `${randomBytes(32).toString("base64")}\n`).join(""), { mode });
  chmodSync(path, mode);
  return path;
}

describe("secrets key files", () => {
  it("refuses a key file readable by group or others, with the chmod that fixes it, for serve and for a data directory's platform.key", async () => {
    const dir = tempDir();
    const open = keyFile(dir, "open.key", 1, 0o644);
    const served = await runPlatformCli(["serve", "--port", "0", "--database", "postgres://127.0.0.1:1/none", "--secrets-key-file", open]);
    expect(served.code).toBe(2);
    expect(served.stderr).toContain(`the secrets key file ${open} is accessible by others than its owner (mode 0644); it must be private: run \`chmod 600 ${open}\``);
    expect(served.stderr).not.toContain(readFileSync(open, "utf8").trim());
    // the one usage line of serve, not the whole help
    expect(served.stderr.split("\n").length).toBeLessThan(8);

    const dataDir = tempDir();
    const sqlite = new EmbeddedPlatform({ dataDir, transitionSeconds: 0 });
    await sqlite.vpcs.list(P); // creates platform.key, 0600
    await sqlite.close();
    chmodSync(join(dataDir, "platform.key"), 0o640);
    const reopened = new EmbeddedPlatform({ dataDir, transitionSeconds: 0 });
    expect((await rejection(() => reopened.vpcs.list(P))).message).toContain(`run \`chmod 600 ${join(dataDir, "platform.key")}\``);
    await reopened.close();
  });
});

describePostgres("one secrets key per platform, rotatable (PostgreSQL)", () => {
  let cluster: Cluster;
  let dir: string;
  beforeAll(async () => {
    cluster = await startCluster();
    dir = tempDir();
  }, 60_000);
  afterAll(() => cluster?.stop());

  const platformOn = (url: string, ...files: string[]) => new EmbeddedPlatform({ transitionSeconds: 0, storage: { open: () => openPostgres({ url }), secretsKey: loadSharedKey(files) } });

  it("a replica started with another valid key refuses to start, naming the key file and its fingerprint, never the key", async () => {
    const url = await cluster.createDatabase();
    const first = keyFile(dir, "first.key");
    const other = keyFile(dir, "other.key");
    const platform = platformOn(url, first);
    await platform.metricExporters.create(P, { name: "m", region: "us-east-1", saasmon: { api_key: "exporter-api-key-1", site: "datadoghq.eu" } });
    await platform.close();

    const refused = await runPlatformCli(["serve", "--port", "0", "--database", url, "--secrets-key-file", other, "--quiet"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`the secrets key file ${other} \\(key fingerprint [0-9a-f]{12}\\) is not the secrets key of the platform at postgres://\\S+ \\(its key's fingerprint is [0-9a-f]{12}\\)`));
    expect(refused.stderr).not.toContain(readFileSync(other, "utf8").trim());
    expect(refused.stderr).not.toContain(readFileSync(first, "utf8").trim());
    // through the variable, the variable is named
    const saved = process.env.SCHEMAFORM_SECRETS_KEY;
    process.env.SCHEMAFORM_SECRETS_KEY = readFileSync(other, "utf8").trim();
    try {
      const byVariable = await runPlatformCli(["export", "--database", url, "--out", join(dir, "x.jsonl")]);
      expect(byVariable.code).toBe(1);
      expect(byVariable.stderr).toMatch(/SCHEMAFORM_SECRETS_KEY \(key fingerprint [0-9a-f]{12}\) is not the secrets key/);
    } finally {
      if (saved === undefined) delete process.env.SCHEMAFORM_SECRETS_KEY;
      else process.env.SCHEMAFORM_SECRETS_KEY = saved;
    }
  });

  it("a platform written before the check refuses a key its secrets do not open with, and records the right one", async () => {
    const url = await cluster.createDatabase();
    const first = keyFile(dir, "legacy.key");
    const platform = platformOn(url, first);
    await platform.metricExporters.create(P, { name: "l", region: "us-east-1", saasmon: { api_key: "legacy-api-key-1", site: "datadoghq.eu" } });
    await platform.close();
    // as a database of the version before the check: no check value
    const pg = (await import("pg")).default;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query("DELETE FROM meta WHERE key = 'secrets_key_check'");
    const wrong = platformOn(url, keyFile(dir, "legacy-other.key"));
    expect((await rejection(() => wrong.vpcs.list(P))).message).toContain("its stored secrets do not open with it");
    await wrong.close();
    const right = platformOn(url, first);
    await right.vpcs.list(P);
    await right.close();
    expect((await admin.query("SELECT count(*)::int AS n FROM meta WHERE key = 'secrets_key_check'")).rows).toEqual([{ n: 1 }]);
    await admin.end();
  });

  it("rotates: old and new key, migrate re-encrypts under the newest, then the new key alone serves and the old one is refused", async () => {
    const url = await cluster.createDatabase();
    const oldKey = keyFile(dir, "old.key");
    const newKey = keyFile(dir, "new.key");
    const before = platformOn(url, oldKey);
    const exporter = (await before.metricExporters.create(P, { name: "m", region: "us-east-1", saasmon: { api_key: "rotated-api-key", site: "datadoghq.eu" } })).body;
    await before.close();

    // both keys, the newest last, before migrate: refused (its writes would be unreadable to the others)
    const early = platformOn(url, oldKey, newKey);
    expect((await rejection(() => early.vpcs.list(P))).message).toContain("run `schemaform platform migrate` with these keys first");
    await early.close();

    const migrated = await runPlatformCli(["migrate", "--database", url, "--secrets-key-file", oldKey, "--secrets-key-file", newKey]);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toMatch(/re-encrypted 1 secret\(s\) under the newest key of the secrets key files .*new\.key \(fingerprint [0-9a-f]{12}\)/);
    const again = await runPlatformCli(["migrate", "--database", url, "--secrets-key-file", oldKey, "--secrets-key-file", newKey]);
    expect(again.stdout).toContain("the platform's secrets are under the newest key");

    // the new key alone opens every secret: an update that reads the stored secret works
    const after = platformOn(url, newKey);
    expect((await after.metricExporters.update(P, exporter.id, { name: "renamed" })).body.name).toBe("renamed");
    await after.close();
    const stale = platformOn(url, oldKey);
    expect((await rejection(() => stale.vpcs.list(P))).message).toMatch(/old\.key \(key fingerprint [0-9a-f]{12}\) is not the secrets key/);
    await stale.close();

    // a file with both keys, one per line, is the same as the flag given twice
    const both = join(dir, "both.key");
    writeFileSync(both, `${readFileSync(oldKey, "utf8")}${readFileSync(newKey, "utf8")}`, { mode: 0o600 });
    const fromFile = platformOn(url, both);
    await fromFile.vpcs.list(P);
    await fromFile.close();
  });
});
