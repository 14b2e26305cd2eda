// A team platform under real load: two `schemaform platform serve` replicas on one PostgreSQL
// database behind a round-robin load balancer, and three `terraform apply` runs of 30 resources
// each (restore channels, VPCs, services on those VPCs) at once, one project per run. Every run
// must succeed, Terraform's state and the platform (read through either replica) must agree
// exactly, second plans must be clean, and a restore channel's stale etag must be refused through
// either replica, while Terraform reconciles a change made out of band through one of them.
//
// Credentials: one per project, as three teams would hold them. Projects A and B use access
// tokens; project C's tsdb provider uses an access key and secret key, so its session tokens,
// issued by whichever replica answered the exchange, must be accepted by the other one too.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createHttpClient, type PlatformCredentials } from "../../platform/http-client.js";
import type { PlatformClient } from "../../platform/types.js";
import { describePostgres, startCluster, type Cluster } from "../platform/postgres-cluster.js";
import { Suite, type Workspace } from "./support/harness.js";
import { PlatformServers, serverProviders, type Server, type Storage } from "./support/platform-server.js";
import { startRoundRobinProxy, type Connection, type RoundRobinProxy } from "./support/round-robin-proxy.js";

const PROJECTS = ["replicas-a", "replicas-b", "replicas-c"] as const;
/** of each kind, per project: 10 channels + 10 VPCs + 10 services = 30 resources */
const PER_KIND = 10;
const LOCATION = "us-central1";
const REGION = "us-east-1";
const TRANSITION_SECONDS = 1;

const index = (i: number) => String(i).padStart(2, "0");
const channelDescription = (project: string, i: number) => `restores ${index(i)} of ${project}`;

/** The configuration of one team's project: every resource of our types that creates quickly. */
function configuration(project: string, endpoint: string): Record<string, unknown> {
  const range = Array.from({ length: PER_KIND }, (_, i) => i);
  return {
    ...serverProviders(endpoint, project),
    resource: {
      containerbackup_restore_channel: Object.fromEntries(
        range.map((i) => [
          `ch_${index(i)}`,
          { name: `ch-${index(i)}`, location: LOCATION, destination_project: "projects/replicas-restores", description: channelDescription(project, i), labels: { team: project, index: index(i) } },
        ]),
      ),
      tsdb_vpcs: Object.fromEntries(range.map((i) => [`vpc_${index(i)}`, { name: `vpc-${index(i)}`, cidr: `10.${i}.0.0/16`, region_code: REGION }])),
      tsdb_service: Object.fromEntries(
        range.map((i) => [`svc_${index(i)}`, { name: `svc-${index(i)}`, milli_cpu: 500, memory_gb: 2, region_code: REGION, vpc_id: `\${tsdb_vpcs.vpc_${index(i)}.vpcs_id}` }]),
      ),
    },
  };
}

interface Team {
  project: string;
  ws: Workspace;
  /** the project's credential, as the HTTP client takes it */
  credentials: PlatformCredentials;
  /** the project's bearer token (project C: its containerbackup token) */
  token: string;
  /** the strings that identify the team's requests on the wire: its token, its access key */
  secrets: string[];
  /** one client per replica, each talking to that replica only */
  direct: PlatformClient[];
}

interface Shown {
  type: string;
  name: string;
  values: Record<string, any>;
}

/** Managed resources of `terraform show -json`, by type. */
async function stateOf(ws: Workspace): Promise<Record<string, Shown[]>> {
  const shown = JSON.parse((await ws.ok(["show", "-json"])).stdout) as { values?: { root_module?: { resources?: Array<Shown & { mode: string }> } } };
  const byType: Record<string, Shown[]> = {};
  for (const r of shown.values?.root_module?.resources ?? []) if (r.mode === "managed") (byType[r.type] ??= []).push(r);
  return byType;
}

const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => a.id.localeCompare(b.id));

/** The attributes a user checks on each kind, from state values or platform objects alike. */
const channelView = (c: Record<string, any>) => ({ id: c.id, name: c.name, description: c.description, effective_labels: c.effective_labels, etag: c.etag, uid: c.uid });
const vpcView = (v: Record<string, any>) => ({ id: v.id, vpcs_id: v.vpcs_id, name: v.name, cidr: v.cidr, region_code: v.region_code, provisioned_id: v.provisioned_id });
const serviceView = (s: Record<string, any>) => ({ id: s.id, name: s.name, vpc_id: s.vpc_id, milli_cpu: s.milli_cpu, memory_gb: s.memory_gb, hostname: s.hostname, port: s.port });

/**
 * Requests each team sent to each replica, from what the clients sent through the proxy. A
 * connection belongs to one provider plugin, so to one team: the one whose credential (token, or
 * access key in a session exchange) or project its requests carry. Unclaimed connections are
 * counted under "".
 */
function requestsByTeam(connections: Connection[], teams: Team[], replicaCount: number): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const c of connections) {
    const requests = c.sent.match(/^(?:GET|POST|PATCH|PUT|DELETE) \S+ HTTP\/1\.1\r$/gm)?.length ?? 0;
    if (requests === 0) continue;
    const owner = teams.find((t) => t.secrets.some((secret) => c.sent.includes(secret)) || c.sent.includes(`/projects/${t.project}/`));
    const key = owner?.project ?? "";
    const counts = out.get(key) ?? Array.from({ length: replicaCount }, () => 0);
    counts[c.backend]! += requests;
    out.set(key, counts);
  }
  return out;
}

/** A PATCH of a restore channel with a given etag, as plain HTTP (to see the status on the wire). */
async function patchChannel(server: Server, token: string, fullName: string, description: string, etag: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}/containerbackup/v1/${fullName}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ patch: { description }, etag }),
  });
  return { status: response.status, body: await response.json() };
}

describePostgres("three concurrent terraform applies across two replicas on PostgreSQL", () => {
  let suite: Suite;
  let cluster: Cluster | undefined;
  let servers: PlatformServers;
  let replicas: Server[] = [];
  let proxy: RoundRobinProxy | undefined;
  const teams: Team[] = [];
  const started = Date.now();
  const timings: string[] = [];
  const mark = (what: string, since: number) => timings.push(`${what}: ${((Date.now() - since) / 1000).toFixed(1)} s`);

  beforeAll(async () => {
    const t0 = Date.now();
    suite = await Suite.create("replicas");
    cluster = await startCluster();
    const keyFile = join(suite.root, "secrets.key");
    writeFileSync(keyFile, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600 });
    const storage: Storage = { database: await cluster.createDatabase(), secretsKeyFile: keyFile };
    servers = new PlatformServers(suite.env);
    // Started together: they migrate the new database once, under the advisory lock. A service
    // or VPC takes a second to become ready, so the providers poll, and a poll may land on the
    // replica that did not create the object: the status track lives in the database.
    replicas = await Promise.all([servers.serve(storage, 0, TRANSITION_SECONDS), servers.serve(storage, 0, TRANSITION_SECONDS)]);
    proxy = await startRoundRobinProxy(replicas.map((r) => ({ host: "127.0.0.1", port: r.port })));

    for (const project of PROJECTS) {
      const token = await servers.token(storage, project);
      const keys = project === "replicas-c" ? await servers.keys(storage, project) : undefined;
      const env: NodeJS.ProcessEnv = keys
        ? { TSDB_ACCESS_KEY: keys.accessKey, TSDB_SECRET_KEY: keys.secretKey, CONTAINERBACKUP_ACCESS_TOKEN: token }
        : { TSDB_ACCESS_TOKEN: token, CONTAINERBACKUP_ACCESS_TOKEN: token };
      const ws = suite.workspaceAt(suite.workspace(project).dir, env);
      ws.writeJson("main.tf.json", configuration(project, proxy.url));
      const credentials: PlatformCredentials = keys ?? { accessToken: token };
      teams.push({ project, ws, credentials, token, secrets: keys ? [token, keys.accessKey] : [token], direct: replicas.map((r) => createHttpClient({ endpoint: r.url, credentials })) });
    }
    await Promise.all(teams.map((t) => t.ws.ok(["init", "-input=false"])));
    mark("set-up (PostgreSQL, two replicas, the proxy, three inits)", t0);
  }, 150_000);

  afterAll(async () => {
    await Promise.all(teams.flatMap((t) => t.direct.map((c) => c.close())));
    await proxy?.close();
    await servers?.stopAll();
    cluster?.stop();
    mark("whole file", started);
    if (suite) process.stdout.write(`replicas-apply:\n  ${timings.join("\n  ")}\n${suite.summary()}\n`);
    await suite?.dispose();
  });

  it("three applies at once through the load balancer all succeed, and both replicas serve them", async () => {
    const t0 = Date.now();
    const before = proxy!.connections();
    const earlier = proxy!.traffic().length;
    const applies = await Promise.all(teams.map((t) => t.ws.tf(["apply", "-input=false", "-auto-approve"])));
    mark("three concurrent applies of 30 resources", t0);
    for (const apply of applies) {
      expect(apply.code, apply.output).toBe(0);
      expect(apply.output).toMatch(/Apply complete! Resources: 30 added, 0 changed, 0 destroyed\./);
    }
    const during = proxy!.connections().map((n, i) => n - before[i]!);
    timings.push(`connections the proxy handed to each replica during the applies: ${during.join(" / ")}`);
    for (const n of during) expect(n).toBeGreaterThan(0);
    // and each run's requests, not only the sum, went to both
    const requests = requestsByTeam(proxy!.traffic().slice(earlier), teams, replicas.length);
    expect(requests.get(""), "requests no team sent").toBeUndefined();
    for (const team of teams) {
      const counts = requests.get(team.project) ?? [];
      timings.push(`requests of ${team.project} per replica: ${counts.join(" / ")}`);
      expect(counts).toHaveLength(2);
      for (const n of counts) expect(n).toBeGreaterThan(0);
      // at least one create per resource
      expect(counts[0]! + counts[1]!).toBeGreaterThanOrEqual(3 * PER_KIND);
    }
  }, 180_000);

  it("state and platform agree exactly, read through either replica: same ids, no duplicate, nothing missing", async () => {
    const names = (prefix: string) => Array.from({ length: PER_KIND }, (_, i) => `${prefix}-${index(i)}`);
    for (const team of teams) {
      const state = await stateOf(team.ws);
      const channels = (state.containerbackup_restore_channel ?? []).map((r) => r.values);
      const vpcs = (state.tsdb_vpcs ?? []).map((r) => r.values);
      const services = (state.tsdb_service ?? []).map((r) => r.values);
      expect(channels.map((c) => c.name).sort()).toEqual(names("ch"));
      expect(vpcs.map((v) => v.name).sort()).toEqual(names("vpc"));
      expect(services.map((s) => s.name).sort()).toEqual(names("svc"));
      // each service sits on the VPC of its own index, in its own project
      const vpcIdByName = new Map(vpcs.map((v) => [v.name, v.vpcs_id]));
      for (const s of services) expect(s.vpc_id).toBe(vpcIdByName.get(String(s.name).replace("svc", "vpc")));
      for (const c of channels) expect(c.effective_labels).toEqual({ team: team.project, index: String(c.name).slice(3) });

      for (const client of team.direct) {
        const [onChannels, onVpcs, onServices] = await Promise.all([client.restoreChannels.list(team.project), client.vpcs.list(team.project), client.services.list(team.project)]);
        expect(byId(onChannels).map(channelView)).toEqual(byId(channels as any).map(channelView));
        expect(byId(onVpcs).map(vpcView)).toEqual(byId(vpcs as any).map(vpcView));
        expect(byId(onServices).map(serviceView)).toEqual(byId(services as any).map(serviceView));
        expect(onServices.every((s) => s.status === "READY")).toBe(true);
      }
    }
    // three projects, 90 objects, 90 distinct ids
    const all = await Promise.all(teams.map(async (t) => [...(await t.direct[0]!.restoreChannels.list(t.project)), ...(await t.direct[1]!.services.list(t.project))].map((o) => o.id)));
    expect(new Set(all.flat()).size).toBe(PROJECTS.length * 2 * PER_KIND);
  }, 120_000);

  it("a project's credential sees nothing of another project, through the load balancer", async () => {
    const [a, b] = teams;
    const client = createHttpClient({ endpoint: proxy!.url, credentials: b!.credentials });
    try {
      await expect(client.restoreChannels.list(a!.project)).rejects.toMatchObject({ code: "unauthenticated" });
      await expect(client.services.list(a!.project)).rejects.toMatchObject({ code: "unauthenticated" });
    } finally {
      await client.close();
    }
  });

  it("second plans of all three are clean", async () => {
    const t0 = Date.now();
    const plans = await Promise.all(teams.map((t) => t.ws.tf(["plan", "-input=false", "-detailed-exitcode"])));
    mark("three concurrent second plans", t0);
    for (const plan of plans) {
      expect(plan.code, plan.output).toBe(0);
      expect(plan.output).toMatch(/No changes\./);
    }
  }, 120_000);

  it("refuses a restore channel's stale etag through either replica, and Terraform reconciles the change made out of band", async () => {
    const team = teams[0]!;
    const [replicaA, replicaB] = replicas;
    const [throughA, throughB] = team.direct;
    const inState = (await stateOf(team.ws)).containerbackup_restore_channel!.find((r) => r.name === "ch_00")!.values;
    const staleEtag = inState.etag as string;

    // someone changes the channel through replica A, with the etag they read: a new etag
    const changed = await throughA!.restoreChannels.update(inState.id, { description: "changed out of band" }, staleEtag);
    expect(changed.body.etag).not.toBe(staleEtag);

    // the old etag is refused through B and through A, on the wire and through the client
    for (const server of [replicaB!, replicaA!]) {
      const refused = await patchChannel(server, team.token, inState.id, "written with a stale etag", staleEtag);
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe("conflict");
    }
    for (const client of [throughB!, throughA!]) {
      await expect(client.restoreChannels.update(inState.id, { description: "stale again" }, staleEtag)).rejects.toMatchObject({ code: "conflict" });
      await expect(client.restoreChannels.delete(inState.id, staleEtag)).rejects.toMatchObject({ code: "conflict" });
    }
    // nothing of the refused writes landed: both replicas see the out-of-band change, as it was
    for (const client of [throughA!, throughB!]) {
      expect(await client.restoreChannels.get(inState.id)).toMatchObject({ description: "changed out of band", etag: changed.body.etag });
    }

    // Terraform sees the drift and puts the configured description back, with the current etag
    const plan = await team.ws.tf(["plan", "-input=false", "-detailed-exitcode"]);
    expect(plan.code, plan.output).toBe(2);
    expect(plan.output).toMatch(/# containerbackup_restore_channel\.ch_00 will be updated in-place/);
    expect(plan.output).toMatch(/Plan: 0 to add, 1 to change, 0 to destroy\./);
    const apply = await team.ws.ok(["apply", "-input=false", "-auto-approve"]);
    expect(apply.output).toMatch(/Resources: 0 added, 1 changed, 0 destroyed\./);
    const after = (await stateOf(team.ws)).containerbackup_restore_channel!.find((r) => r.name === "ch_00")!.values;
    for (const client of [throughA!, throughB!]) {
      expect(await client.restoreChannels.get(inState.id)).toMatchObject({ description: channelDescription(team.project, 0), etag: after.etag });
    }
    expect(after.etag).not.toBe(changed.body.etag);
    expect((await team.ws.tf(["plan", "-input=false", "-detailed-exitcode"])).code).toBe(0);
  }, 120_000);

  it("three destroys at once leave every project empty, through either replica", async () => {
    const t0 = Date.now();
    const destroys = await Promise.all(teams.map((t) => t.ws.tf(["destroy", "-input=false", "-auto-approve"])));
    mark("three concurrent destroys", t0);
    for (const destroy of destroys) {
      expect(destroy.code, destroy.output).toBe(0);
      expect(destroy.output).toMatch(/Destroy complete! Resources: 30 destroyed\./);
    }
    for (const team of teams) {
      for (const client of team.direct) {
        expect(await client.restoreChannels.list(team.project)).toEqual([]);
        expect(await client.vpcs.list(team.project)).toEqual([]);
        expect(await client.services.list(team.project)).toEqual([]);
      }
    }
  }, 180_000);
});
