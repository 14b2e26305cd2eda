// Two `platform serve` replicas on one PostgreSQL database with the data plane on: each runs an
// agent, exactly one holds the lease and runs the databases; when that replica dies (SIGKILL, no
// goodbye) the other takes the lease over at expiry and heals what the first left (a postmaster
// killed meanwhile comes back) without a Terraform command.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { run as platformCommand } from "../../cli/commands/platform.js";
import { createHttpClient } from "../../platform/http-client.js";
import { waitForService } from "../../platform/wait.js";
import type { PlatformClient } from "../../platform/types.js";
import { describePostgres, startCluster, type Cluster } from "../platform/postgres-cluster.js";
import { ROOT } from "../platform/serve-process.js";
import { sql } from "./connector-clusters.js";
import { query, within } from "../e2e/support/data-plane.js";

const PROJECT = "lease-team";

describePostgres("the data plane of server replicas on PostgreSQL", () => {
  let cluster: Cluster;
  let database: string;
  let dir: string;
  const replicas: Array<{ child: ChildProcess; url: string; err: () => string }> = [];
  let clients: PlatformClient[] = [];

  function startReplica(keyFile: string): Promise<{ child: ChildProcess; url: string; err: () => string }> {
    const child = spawn(process.execPath, ["--import", "tsx", "cli/main.ts", "platform", "serve", "--port", "0", "--database", database, "--secrets-key-file", keyFile, "--quiet"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, SCHEMAFORM_DATABASE_URL: "", SCHEMAFORM_DATA_PLANE: "on", SCHEMAFORM_DATA_DIR: join(dir, "data"), SCHEMAFORM_TRANSITION_SECONDS: "0" },
    });
    let out = "";
    let err = "";
    child.stderr!.on("data", (d) => (err += d));
    return new Promise((resolve, reject) => {
      child.stdout!.on("data", (d) => {
        out += d;
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve({ child, url: m[1]!, err: () => err });
      });
      child.on("exit", (code) => reject(new Error(`a replica exited early with ${code}: ${err}`)));
    });
  }

  beforeAll(async () => {
    cluster = await startCluster();
    dir = mkdtempSync(join(tmpdir(), "schemaform-lease-"));
    const keyFile = join(dir, "secrets.key");
    writeFileSync(keyFile, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600 });
    database = await cluster.createDatabase();
    replicas.push(...(await Promise.all([startReplica(keyFile), startReplica(keyFile)])));
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
    clients = replicas.map((r) => createHttpClient({ endpoint: r.url, credentials: { accessKey: printed.access_key, secretKey: printed.secret_key } }));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    for (const r of replicas) {
      if (r.child.exitCode === null && r.child.signalCode === null) {
        const exited = new Promise((resolve) => r.child.once("exit", resolve));
        r.child.kill("SIGTERM");
        await exited;
      }
    }
    cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it("one replica runs the databases; when it dies the other takes over and heals them", async () => {
    const { body } = await clients[0]!.services.create(PROJECT, { name: "leased", password: "lease-password-1" });
    const ready = await waitForService(clients[1]!, PROJECT, body.id, 90_000);
    expect(ready.status).toBe("READY");
    const endpoint = { host: body.hostname, port: body.port, password: "lease-password-1" };
    await query(endpoint, "create table kept (v text); insert into kept values ('before the takeover')");

    const [lease] = await sql<{ holder: string }>(database, "select holder from dataplane_lease");
    const holderPid = Number(lease!.holder.split(":")[1]);
    const holder = replicas.find((r) => r.child.pid === holderPid)!;
    const other = replicas.find((r) => r !== holder)!;
    expect(holder).toBeDefined();

    // the holder dies without a word, and the database's postmaster with it
    holder.child.kill("SIGKILL");
    const [seen] = await sql<{ processes: string }>(database, "select processes from dataplane_services where service_id = $1", [body.id]);
    const postmaster = (JSON.parse(seen!.processes) as Array<{ kind: string; pid: number }>).find((p) => p.kind === "postgres")!;
    process.kill(postmaster.pid, "SIGKILL");

    // the other replica takes the lease at expiry (15 s) and starts the database again
    const rows = await within(45_000, "the database serves again under the other replica", async () => await query<{ v: string }>(endpoint, "select v from kept"));
    expect(rows).toEqual([{ v: "before the takeover" }]);
    const [after] = await sql<{ holder: string }>(database, "select holder from dataplane_lease");
    expect(Number(after!.holder.split(":")[1])).toBe(other.child.pid);

    // and a delete through it leaves nothing running
    const survivor = clients[replicas.indexOf(other)]!;
    await survivor.services.delete(PROJECT, body.id);
    await expect(query(endpoint, "select 1")).rejects.toThrow();
  }, 180_000);
});
