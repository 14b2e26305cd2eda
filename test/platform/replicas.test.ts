// Two `schemaform platform serve` replicas on one PostgreSQL database, as a team runs them behind
// a load balancer: concurrent creates and updates through both keep every rule the embedded
// platform keeps (names unique, etags, no lost update).
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { run as platformCommand } from "../../cli/commands/platform.js";
import { createHttpClient } from "../../platform/http-client.js";
import type { PlatformClient } from "../../platform/types.js";
import { rejection, tempDir } from "./helpers.js";
import { describePostgres, startCluster, type Cluster } from "./postgres-cluster.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PROJECT = "replica-team";
const CHANNEL = { destination_project: "projects/replica-dest", location: "us-central1" };

interface Replica {
  child: ChildProcess;
  url: string;
}

/** Every replica process started, to stop in afterAll even when another failed to start. */
const children: ChildProcess[] = [];

function startReplica(database: string, keyFile: string): Promise<Replica> {
  const child = spawn(process.execPath, ["--import", "tsx", "cli/main.ts", "platform", "serve", "--port", "0", "--database", database, "--secrets-key-file", keyFile, "--quiet"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, SCHEMAFORM_DATABASE_URL: "" },
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.stderr!.on("data", (d) => (err += d));
    child.on("exit", (code) => reject(new Error(`a replica exited early with ${code}: ${err}`)));
  });
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  child.kill("SIGTERM");
  return exited;
}

async function createCredentials(database: string, keyFile: string): Promise<{ accessKey: string; secretKey: string }> {
  let out = "";
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    expect(await platformCommand(["credentials", "create", "--all-projects", "--database", database, "--secrets-key-file", keyFile, "--json"])).toBe(0);
  } finally {
    spy.mockRestore();
  }
  const printed = JSON.parse(out) as { access_key: string; secret_key: string };
  return { accessKey: printed.access_key, secretKey: printed.secret_key };
}

describePostgres("two server replicas on PostgreSQL", () => {
  let cluster: Cluster;
  let dir: string;
  let replicas: Replica[] = [];
  let clients: PlatformClient[] = [];
  let credentials: { accessKey: string; secretKey: string };

  beforeAll(async () => {
    cluster = await startCluster();
    dir = tempDir("schemaform-replicas-");
    const keyFile = join(dir, "secrets.key");
    writeFileSync(keyFile, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600 });
    const database = await cluster.createDatabase();
    // started together: the schema is migrated once, under the advisory lock
    replicas = await Promise.all([startReplica(database, keyFile), startReplica(database, keyFile)]);
    credentials = await createCredentials(database, keyFile);
    clients = replicas.map((r) => createHttpClient({ endpoint: r.url, credentials }));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    const codes = await Promise.all(children.map(stop));
    cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    expect(codes).toEqual([0, 0]);
  });

  /** Client i of 2n calls, alternating between the replicas. */
  const through = (i: number) => clients[i % clients.length]!;

  it("both are ready: their database answers", async () => {
    for (const r of replicas) {
      const ready = await fetch(`${r.url}/v1/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ ready: true });
    }
  });

  it("what one replica creates, the other reads, and a secret written through one decrypts through the other", async () => {
    const { body } = await clients[0]!.restoreChannels.create({ ...CHANNEL, name: "seen-by-both" }, { defaultProject: PROJECT });
    expect(await clients[1]!.restoreChannels.get(body.id)).toMatchObject({ id: body.id, etag: body.etag });
    const { body: exporter } = await clients[1]!.metricExporters.create(PROJECT, { name: "m", region: "us-east-1", saasmon: { api_key: "shared-secret-key", site: "datadoghq.eu" } });
    const updated = await clients[0]!.metricExporters.update(PROJECT, exporter.id, { name: "renamed" });
    expect(updated.body.name).toBe("renamed");
  });

  it("names stay unique: of 16 concurrent creates of one name through both, exactly one succeeds", async () => {
    const channels = await Promise.allSettled(
      Array.from({ length: 16 }, (_, i) => through(i).restoreChannels.create({ ...CHANNEL, name: "only-one" }, { defaultProject: PROJECT })),
    );
    expect(channels.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of channels) if (r.status === "rejected") expect((r.reason as { code: string }).code).toBe("conflict");

    const vpcs = await Promise.allSettled(
      Array.from({ length: 16 }, (_, i) => through(i).vpcs.create(PROJECT, { name: "one-vpc", cidr: `10.${i}.0.0/16`, region_code: "us-east-1" })),
    );
    expect(vpcs.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of vpcs) if (r.status === "rejected") expect((r.reason as { code: string }).code).toBe("conflict");
    expect((await clients[1]!.vpcs.list(PROJECT)).filter((v) => v.name === "one-vpc")).toHaveLength(1);
  });

  it("shares one password-check budget between the replicas: a guesser gets no more for a second replica", async () => {
    const { body: service } = await clients[0]!.services.create("replica-guess", { name: "guess-target" });
    const basic = `Basic ${Buffer.from(`${credentials.accessKey}:${credentials.secretKey}`).toString("base64")}`;
    const statuses: number[] = [];
    // sequential guesses, alternating replicas: each replica alone would allow its own burst of 10
    for (let i = 0; i < 16; i++) {
      const response = await fetch(`${replicas[i % 2]!.url}/tsdb/v1/projects/replica-guess/services/${service.id}/checkPassword`, {
        method: "POST",
        headers: { authorization: basic, "content-type": "application/json" },
        body: JSON.stringify({ password: `guess-${i}` }),
      });
      statuses.push(response.status);
      await response.body?.cancel();
    }
    const allowed = statuses.filter((s) => s === 200).length;
    // the burst (10) plus what 2 per second refill while the guesses run, not 2 x 10
    expect(statuses.filter((s) => s === 429).length, statuses.join(" ")).toBeGreaterThan(0);
    expect(allowed).toBeLessThan(16);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
  });

  it("one idempotency key sent to both replicas at once creates one object, and both answer with it", async () => {
    const basic = `Basic ${Buffer.from(`${credentials.accessKey}:${credentials.secretKey}`).toString("base64")}`;
    for (let round = 0; round < 5; round++) {
      const key = `same-key-${round}`;
      const answers = await Promise.all(
        replicas.map(async (r) => {
          const response = await fetch(`${r.url}/tsdb/v1/projects/replica-keys/vpcs`, {
            method: "POST",
            headers: { authorization: basic, "content-type": "application/json", "idempotency-key": key },
            body: JSON.stringify({ cidr: "10.9.0.0/16", region_code: "us-east-1" }),
          });
          return { status: response.status, body: (await response.json()) as { body: { vpcs_id: number } } };
        }),
      );
      expect(answers.map((a) => a.status)).toEqual([201, 201]);
      expect(answers[0]!.body.body.vpcs_id).toBe(answers[1]!.body.body.vpcs_id);
    }
    expect(await clients[0]!.vpcs.list("replica-keys")).toHaveLength(5);
  });

  it("loses no update: 40 concurrent label updates through both all land", async () => {
    const { body } = await clients[0]!.restoreChannels.create({ ...CHANNEL, name: "many-writers" }, { defaultProject: PROJECT });
    await Promise.all(Array.from({ length: 40 }, (_, i) => through(i).restoreChannels.update(body.id, { labels: { [`writer-${i}`]: String(i) } }, undefined)));
    const final = await clients[1]!.restoreChannels.get(body.id);
    expect(Object.keys(final.effective_labels ?? {}).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `writer-${i}`).sort());
  });

  it("refuses a stale etag through either replica, and of concurrent updates with one etag exactly one wins", async () => {
    const { body } = await clients[0]!.restoreChannels.create({ ...CHANNEL, name: "etagged" }, { defaultProject: PROJECT });
    const first = await clients[1]!.restoreChannels.update(body.id, { description: "first" }, body.etag);
    expect(first.body.etag).not.toBe(body.etag);
    for (const client of clients) {
      const stale = await rejection(() => client.restoreChannels.update(body.id, { description: "stale" }, body.etag));
      expect(stale.code).toBe("conflict");
      expect((await rejection(() => client.restoreChannels.delete(body.id, body.etag))).code).toBe("conflict");
    }
    const racing = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => through(i).restoreChannels.update(body.id, { description: `racer ${i}` }, first.body.etag)),
    );
    const winners = racing.filter((r) => r.status === "fulfilled") as PromiseFulfilledResult<{ body: { description?: string; etag: string } }>[];
    expect(winners).toHaveLength(1);
    for (const r of racing) if (r.status === "rejected") expect((r.reason as { code: string }).code).toBe("conflict");
    expect(await clients[0]!.restoreChannels.get(body.id)).toMatchObject({ description: winners[0]!.value.body.description, etag: winners[0]!.value.body.etag });
  });

  it("creates through both concurrently: every object exists once, with a distinct id", async () => {
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => through(i).services.create(PROJECT, { name: `svc-${i}` })));
    const ids = new Set(created.map((c) => c.body.id));
    expect(ids.size).toBe(20);
    const listed = await clients[1]!.services.list(PROJECT);
    expect(listed.map((s) => s.id).sort()).toEqual([...ids].sort());
  });
});
