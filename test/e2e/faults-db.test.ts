// The platform's database faltering under a Terraform apply: two `schemaform platform serve`
// replicas on one PostgreSQL behind a round-robin proxy, with
// - a fast restart of PostgreSQL (`pg_ctl restart -m fast`) in the middle of an apply of 30
//   resources: the replicas answer 503 + Retry-After while it is down, the clients retry (creates
//   safely: their idempotency answer commits with the object), and the apply is green, nothing is
//   tainted, the platform equals the state and both replicas are still alive;
// - the database's disk filling up in the middle of an apply of 60 VPCs (its data directory on a
//   tmpfs of its own, filled with a filler file; the WAL elsewhere): 503s naming the cause, the
//   creates still waiting fail at their timeout with it, and once space is back a re-apply
//   creates exactly the missing VPCs: every committed create had its answer, so none is orphaned
//   (a VPC name taken by an orphan would fail the re-apply with a conflict) or duplicated.
// The numbers (503s, retries, durations) are printed at the end.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createHttpClient } from "../../platform/http-client.js";
import type { PlatformClient } from "../../platform/types.js";
import { describePostgres, startCluster, type Cluster } from "../platform/postgres-cluster.js";
import { Suite, type Workspace } from "./support/harness.js";
import { PlatformServers, serverProviders, type Server, type Storage } from "./support/platform-server.js";
import { startRoundRobinProxy, type RoundRobinProxy } from "./support/round-robin-proxy.js";

const TRANSITION_SECONDS = 1;
const REGION = "us-east-1";
const index = (i: number) => String(i).padStart(2, "0");

/** Requests each replica answered with `status` since `from` (offsets into its log). */
function answered(replicas: Server[], from: number[], pattern: RegExp): number {
  return replicas.reduce((n, r, i) => n + (r.log().slice(from[i]).match(pattern)?.length ?? 0), 0);
}

async function until(what: string, check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describePostgres("the platform database restarting or full under an apply, behind two replicas", () => {
  let suite: Suite;
  let cluster: Cluster | undefined;
  let servers: PlatformServers;
  let replicas: Server[] = [];
  let proxy: RoundRobinProxy | undefined;
  let storage: Storage;
  const numbers: string[] = [];

  beforeAll(async () => {
    suite = await Suite.create("faults-db");
    // 96 MiB: the cluster's three databases and ours, with room to spare until it is filled
    cluster = await startCluster({ dataDiskMb: 96 });
    const keyFile = join(suite.root, "secrets.key");
    writeFileSync(keyFile, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600 });
    storage = { database: await cluster.createDatabase(), secretsKeyFile: keyFile };
    servers = new PlatformServers(suite.env);
    replicas = await Promise.all([servers.serve(storage, 0, TRANSITION_SECONDS), servers.serve(storage, 0, TRANSITION_SECONDS)]);
    proxy = await startRoundRobinProxy(replicas.map((r) => ({ host: "127.0.0.1", port: r.port })));
  }, 150_000);

  afterAll(async () => {
    await proxy?.close();
    await servers?.stopAll();
    cluster?.stop();
    if (suite) process.stdout.write(`faults-db:\n  ${numbers.join("\n  ")}\n${suite.summary()}\n`);
    await suite?.dispose();
  });

  async function team(project: string, resources: Record<string, unknown>): Promise<{ ws: Workspace; client: PlatformClient }> {
    const token = await servers.token(storage, project);
    const ws = suite.workspaceAt(suite.workspace(project).dir, { TSDB_ACCESS_TOKEN: token });
    ws.writeJson("main.tf.json", { ...serverProviders(proxy!.url, project), resource: resources });
    await ws.ok(["init", "-input=false"]);
    return { ws, client: createHttpClient({ endpoint: replicas[0]!.url, credentials: { accessToken: token } }) };
  }

  async function bothAlive(): Promise<void> {
    for (const replica of replicas) {
      expect(replica.child.exitCode, replica.log()).toBeNull();
      expect(replica.child.signalCode).toBeNull();
      expect((await fetch(`${replica.url}/v1/ready`)).status).toBe(200);
    }
  }

  it("a fast PostgreSQL restart during an apply of 30 resources: the apply is green, nothing tainted, platform equals state, both replicas alive", async () => {
    const project = "db-restart";
    const range = Array.from({ length: 15 }, (_, i) => i);
    const { ws, client } = await team(project, {
      tsdb_vpcs: Object.fromEntries(range.map((i) => [`vpc_${index(i)}`, { name: `vpc-${index(i)}`, cidr: `10.${i}.0.0/16`, region_code: REGION }])),
      tsdb_service: Object.fromEntries(range.map((i) => [`svc_${index(i)}`, { name: `svc-${index(i)}`, milli_cpu: 500, memory_gb: 2, region_code: REGION }])),
    });
    const from = replicas.map((r) => r.log().length);
    const began = Date.now();
    const apply = ws.applyInBackground();
    // in the middle of it: some creates answered, most still to come or waiting for READY
    await until("the first creates", () => answered(replicas, from, /POST \S+ 201 /g) >= 6);
    const restartMs = cluster!.restart();
    const result = await apply.done;
    const applyMs = Date.now() - began;
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/Apply complete! Resources: 30 added, 0 changed, 0 destroyed\./);

    const unavailable = answered(replicas, from, / 503 \d+ms/g);
    const named = answered(replicas, from, /database unavailable: the platform database is restarting or cannot be reached/g);
    numbers.push(
      `restart: pg_ctl restart -m fast took ${restartMs} ms; the apply of 30 took ${(applyMs / 1000).toFixed(1)} s; ` +
        `${unavailable} answers were 503 (each retried by its client), ${named} logged with the cause; ` +
        `${answered(replicas, from, /POST \S+ 201 /g)} creates answered 201; 500s: ${answered(replicas, from, / 500 \d+ms/g)}`,
    );
    // the restart was felt, and told as what it was
    expect(unavailable).toBeGreaterThan(0);
    expect(named).toBeGreaterThan(0);
    expect(answered(replicas, from, / 500 \d+ms/g)).toBe(0);
    await bothAlive();

    // nothing tainted, nothing to change
    const plan = await ws.tf(["plan", "-input=false", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.output).toBe(0);
    expect(plan.output).not.toMatch(/tainted/);
    // platform equals state: the same ids, no duplicate
    const state = ws.state();
    const stateVpcs = [...state.entries()].filter(([address]) => address.startsWith("tsdb_vpcs.")).map(([, a]) => String(a.vpcs_id)).sort();
    const stateServices = [...state.entries()].filter(([address]) => address.startsWith("tsdb_service.")).map(([, a]) => String(a.id)).sort();
    expect((await client.vpcs.list(project)).map((v) => String(v.vpcs_id)).sort()).toEqual(stateVpcs);
    expect((await client.services.list(project)).map((s) => s.id).sort()).toEqual(stateServices);
    expect(stateVpcs).toHaveLength(15);
    expect(stateServices).toHaveLength(15);
    await client.close();
  }, 240_000);

  it("a full database disk during an apply of 60 VPCs: 503s naming the cause; after space is back a re-apply leaves exactly the objects in state", async () => {
    const project = "db-full";
    const { ws, client } = await team(project, {
      tsdb_vpcs: Object.fromEntries(
        Array.from({ length: 60 }, (_, i) => [`vpc_${index(i)}`, { name: `vpc-${index(i)}`, cidr: `10.${i}.0.0/16`, region_code: REGION, timeouts: { create: "6s" } }]),
      ),
    });
    const from = replicas.map((r) => r.log().length);
    const began = Date.now();
    const apply = ws.applyInBackground();
    await until("the first creates", () => answered(replicas, from, /POST \S+ 201 /g) >= 10);
    cluster!.fillDisk();
    const filledAfter = answered(replicas, from, /POST \S+ 201 /g);
    await until("503s naming the full disk", () => answered(replicas, from, /database unavailable: the platform database is out of disk space/g) >= 5);
    const result = await apply.done;
    const firstApplyMs = Date.now() - began;
    const unavailable = answered(replicas, from, / 503 \d+ms/g);
    const createdBeforeSpace = answered(replicas, from, /POST \S+ 201 /g);
    // the creates still waiting when their timeout ran out fail with the cause, not "internal error"
    expect(result.code, result.output).not.toBe(0);
    expect(result.output).toMatch(/the platform database is out of disk space/);
    expect(result.output).not.toMatch(/internal error/);
    expect(answered(replicas, from, / 500 \d+ms/g)).toBe(0);
    await bothAlive();

    cluster!.freeDisk();
    const again = await ws.tf(["apply", "-input=false", "-auto-approve", "-no-color"]);
    expect(again.code, again.output).toBe(0);
    expect(again.output).not.toMatch(/conflict|tainted/);
    numbers.push(
      `full disk: filled after ${filledAfter} creates; the first apply ended (exit ${result.code}) after ${(firstApplyMs / 1000).toFixed(1)} s with ${createdBeforeSpace} VPCs created, ` +
        `${unavailable} answers 503 (retried until the 6 s create timeout); the re-apply: ${/Resources: (\d+) added/.exec(again.output)?.[1]} added in ${(again.ms / 1000).toFixed(1)} s`,
    );
    const state = ws.state();
    expect(state.size).toBe(60);
    const stateIds = [...state.values()].map((a) => String(a.vpcs_id)).sort();
    const platformVpcs = await client.vpcs.list(project);
    expect(platformVpcs.map((v) => String(v.vpcs_id)).sort()).toEqual(stateIds);
    expect(new Set(platformVpcs.map((v) => v.name)).size).toBe(60);
    const plan = await ws.tf(["plan", "-input=false", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.output).toBe(0);
    await client.close();
  }, 300_000);

  it("the replicas outlive it all", async () => {
    await bothAlive();
  });
});
