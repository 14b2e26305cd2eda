// The local driver with real PostgreSQL processes: plans applied directly (no Terraform, no
// agent), checked from outside with real clients (psql and pg over 127.0.0.1). One primary is
// reused across the checks to keep the wall time small; as root (CI), the clusters run as the
// `postgres` user and live where that user can reach them.

import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { findBinaries } from "../../platform/dataplane/binaries.js";
import type { ServiceObserved, ServicePlan } from "../../platform/dataplane/driver.js";
import { createLocalDriver, type LocalDriver } from "../../platform/dataplane/local/driver.js";
import { freePort } from "../../platform/dataplane/local/ports.js";
import { tempDir } from "../platform/helpers.js";
import { describePostgres, postgresBinaries } from "../platform/postgres-cluster.js";
import { scramVerifier } from "../../platform/dataplane/scram.js";

const timings: string[] = [];

// pgbouncer is optional for the product (a warning without it); the pooler check needs it, and a
// run meant to cover PostgreSQL (SCHEMAFORM_REQUIRE_POSTGRES, .ci/run installs pgbouncer) fails without it
const requirePostgres = Boolean(process.env.SCHEMAFORM_REQUIRE_POSTGRES) && process.env.SCHEMAFORM_REQUIRE_POSTGRES !== "0";
const poolerIt = findBinaries().pgbouncer || requirePostgres ? it : it.skip;

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  // a killed process nobody reaped yet is no server
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

function portListens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(true));
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () => server.close(() => resolve(false)));
  });
}

async function query<T extends pg.QueryResultRow>(config: pg.ClientConfig, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionTimeoutMillis: 5000, ...config });
  client.on("error", () => {});
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

async function refusal(config: pg.ClientConfig): Promise<string> {
  try {
    await query(config, "SELECT 1");
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`a connection to port ${config.port} as ${config.user} was accepted`);
}

/** Polls until check returns a value (or the timeout ends with its last error). */
async function eventually<T>(check: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function psql(connection: string, sql: string, password: string): { status: number | null; out: string } {
  const bin = postgresBinaries()!;
  const result = spawnSync(join(bin, "psql"), ["-X", "-A", "-t", "-c", sql, connection], {
    encoding: "utf8",
    env: { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: "5" },
  });
  return { status: result.status, out: (result.stdout + result.stderr).trim() };
}

async function timed(what: string, work: () => Promise<ServiceObserved>): Promise<ServiceObserved> {
  const started = Date.now();
  const observed = await work();
  timings.push(`${what}: ${Date.now() - started} ms`);
  return observed;
}

describePostgres("local data-plane driver", () => {
  let driver: LocalDriver;
  let dataDir: string;
  let plan: ServicePlan;
  const ca = () => readFileSync(driver.caCertFile, "utf8");
  let password = "first password";
  const admin = (port = plan.ports.main, user = "tsdbadmin", secret = password): pg.ClientConfig => ({
    host: "127.0.0.1",
    port,
    user,
    password: secret,
    database: "tsdb",
    ssl: { ca: ca() },
  });

  /** The row `id` of notes as the standby at `port` shows it, within 15 s, and whether that server is in recovery. */
  const rowOnStandby = (port: number, id: number) =>
    eventually(async () => {
      const found = await query<{ body: string; recovery: boolean }>(admin(port), "SELECT body, pg_is_in_recovery() AS recovery FROM notes WHERE id = $1", [id]);
      if (found.length === 0) throw new Error(`row ${id} has not reached the standby at port ${port}`);
      return found;
    });

  beforeAll(async () => {
    // mkdtemp makes a 0700 directory: as root, the `postgres` user cannot reach it (as in a CI
    // data directory under root's home), so the driver must place the clusters elsewhere
    dataDir = tempDir("schemaform-dataplane-");
    driver = createLocalDriver({ stateDir: join(dataDir, "clusters"), caDir: join(dataDir, "ca"), log: (line) => timings.push(line) });
    plan = {
      id: "svc-main",
      role: "primary",
      running: true,
      milliCpu: 1000,
      memoryGb: 1,
      haReplicas: 0,
      syncReplicas: 0,
      pooler: false,
      ports: { main: await freePort(), replica: await freePort(), pooler: await freePort() },
      passwordVerifier: await scramVerifier(password),
      parameters: {},
      ephemeralRoles: [],
    };
  });

  afterAll(async () => {
    if (!driver) return;
    for (const id of await driver.listServices()) await driver.removeService(id);
    console.log(`local driver timings:\n  ${timings.filter((line) => /ms$/.test(line)).join("\n  ")}`);
  });

  it("finds PostgreSQL and is available", async () => {
    expect(findBinaries().pgBin).toBeTruthy();
    expect(await driver.available()).toEqual({ ok: true });
    if (process.getuid?.() === 0) {
      // the root-only temporary directory is not where the postgres user's clusters live
      expect(driver.clustersDir.startsWith(dataDir)).toBe(false);
    }
  });

  it("says plainly why it is unavailable without binaries or without a user to run as", async () => {
    const noBinaries = findBinaries({ ...process.env, SCHEMAFORM_PG_BIN: join(dataDir, "nowhere") });
    expect(noBinaries.pgBin).toBeUndefined();
    expect(noBinaries.pgReason).toMatch(/SCHEMAFORM_PG_BIN is .*nowhere, which has no initdb/);
    expect(findBinaries({ ...process.env, SCHEMAFORM_PG_BIN: postgresBinaries() })).toMatchObject({ pgBin: postgresBinaries(), pgSource: "SCHEMAFORM_PG_BIN" });
    if (process.getuid?.() === 0) {
      const userless = createLocalDriver({ stateDir: join(dataDir, "other"), caDir: join(dataDir, "ca"), env: { ...process.env, SCHEMAFORM_PG_USER: "no_such_user_here" } });
      const availability = await userless.available();
      expect(availability.ok).toBe(false);
      expect(availability.reason).toMatch(/no_such_user_here.*not a user.*never creates users/);
      const observed = await userless.applyService({ ...plan, id: "never" });
      expect(observed.phase).toBe("failed");
    }
  });

  it("runs a primary: tsdbadmin logs in over TLS (sslmode=require, verify-full with the platform CA), SCRAM only, on 127.0.0.1 only", async () => {
    const observed = await timed("create primary (initdb, start, roles)", () => driver.applyService(plan));
    expect(observed).toMatchObject({ phase: "running", processes: [{ kind: "postgres", port: plan.ports.main }] });
    expect(observed.diskBytes).toBeGreaterThan(1_000_000);

    const require = psql(`postgresql://tsdbadmin@127.0.0.1:${plan.ports.main}/tsdb?sslmode=require`, "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", password);
    expect(require).toEqual({ status: 0, out: "t" });
    const verified = psql(`postgresql://tsdbadmin@localhost:${plan.ports.main}/tsdb?sslmode=verify-full&sslrootcert=${driver.caCertFile}`, "SELECT current_user", password);
    expect(verified).toEqual({ status: 0, out: "tsdbadmin" });

    const [me] = await query<{ superuser: boolean; owner: string; listen: string; method: string }>(
      admin(),
      "SELECT r.rolsuper AS superuser, pg_get_userbyid(d.datdba) AS owner, current_setting('listen_addresses') AS listen, current_setting('password_encryption') AS method FROM pg_roles r, pg_database d WHERE r.rolname = current_user AND d.datname = 'tsdb'",
    );
    expect(me).toEqual({ superuser: false, owner: "tsdbadmin", listen: "127.0.0.1", method: "scram-sha-256" });
    expect(await refusal(admin(plan.ports.main, "tsdbadmin", "wrong"))).toMatch(/password authentication failed/);
    expect(await refusal(admin(plan.ports.main, "postgres", ""))).toMatch(/password|SASL/);
    await query(admin(), "CREATE TABLE notes (id int PRIMARY KEY, body text); INSERT INTO notes VALUES (1, 'kept')");

    // the CA's key stays private; the server's key belongs to the cluster user only
    expect(statSync(join(dataDir, "ca", "ca.key")).mode & 0o077).toBe(0);
    expect(statSync(join(driver.clustersDir, plan.id, "node-0", "server.key")).mode & 0o077).toBe(0);
    expect(driver.serverLogFile(plan.id)).toBeDefined();
    expect(await driver.listServices()).toContain(plan.id);
  });

  it("changes tsdbadmin's password when the verifier changes", async () => {
    const old = password;
    password = "second password";
    plan = { ...plan, passwordVerifier: await scramVerifier(password) };
    expect((await driver.applyService(plan)).phase).toBe("running");
    expect(await refusal(admin(plan.ports.main, "tsdbadmin", old))).toMatch(/password authentication failed/);
    expect(await query(admin(), "SELECT body FROM notes")).toEqual([{ body: "kept" }]);
  });

  it("resizes with a restart and applies parameters (reloaded, or restarted when a postmaster setting changed)", async () => {
    const [before] = await query<{ shared_buffers: string }>(admin(), "SHOW shared_buffers");
    const pidBefore = (await driver.observeService(plan.id)).processes[0]!.pid;
    plan = { ...plan, memoryGb: 4, milliCpu: 2000, parameters: { max_connections: "150", work_mem: "12MB" } };
    await timed("resize (restart)", () => driver.applyService(plan));
    const [after] = await query<{ shared_buffers: string }>(admin(), "SHOW shared_buffers");
    expect(after!.shared_buffers).not.toBe(before!.shared_buffers);
    expect(await query(admin(), "SHOW max_connections")).toEqual([{ max_connections: "150" }]);
    expect(await query(admin(), "SHOW work_mem")).toEqual([{ work_mem: "12MB" }]);
    expect(await query(admin(), "SHOW max_parallel_workers")).toEqual([{ max_parallel_workers: "2" }]);
    const pidResized = (await driver.observeService(plan.id)).processes[0]!.pid;
    expect(pidResized).not.toBe(pidBefore);

    plan = { ...plan, parameters: { max_connections: "150", work_mem: "16MB" } };
    await driver.applyService(plan);
    expect(await query(admin(), "SHOW work_mem")).toEqual([{ work_mem: "16MB" }]);
    expect((await driver.observeService(plan.id)).processes[0]!.pid).toBe(pidResized);

    // an invalid value fails the apply, naming it, and leaves the server as it was
    const invalid = await driver.applyService({ ...plan, parameters: { max_connections: "150", work_mem: "lots" } });
    expect(invalid).toMatchObject({ phase: "failed", message: 'the settings are not valid: invalid value for parameter "work_mem": "lots"' });
    expect(await query(admin(), "SHOW work_mem")).toEqual([{ work_mem: "16MB" }]);
    expect((await driver.applyService(plan)).phase).toBe("running");
  });

  it("creates ephemeral roles as members of tsdbadmin and drops them when no longer planned", async () => {
    const role = { role: "tsdb_eph_test1", verifier: await scramVerifier("ephemeral secret"), validUntil: new Date(Date.now() + 3600_000).toISOString() };
    plan = { ...plan, ephemeralRoles: [role] };
    await driver.applyService(plan);
    const [row] = await query<{ member: boolean }>(admin(plan.ports.main, role.role, "ephemeral secret"), "SELECT pg_has_role(current_user, 'tsdbadmin', 'MEMBER') AS member");
    expect(row).toEqual({ member: true });
    const expired = { role: "tsdb_eph_test2", verifier: await scramVerifier("old secret"), validUntil: new Date(Date.now() - 60_000).toISOString() };
    plan = { ...plan, ephemeralRoles: [expired] };
    await driver.applyService(plan);
    expect(await refusal(admin(plan.ports.main, role.role, "ephemeral secret"))).toMatch(/password authentication failed/);
    expect(await refusal(admin(plan.ports.main, expired.role, "old secret"))).toMatch(/password authentication failed/);
    expect(await query(admin(), "SELECT rolname FROM pg_roles WHERE rolname LIKE 'tsdb_eph_%'")).toEqual([{ rolname: expired.role }]);
    plan = { ...plan, ephemeralRoles: [] };
    await driver.applyService(plan);
    expect(await query(admin(), "SELECT rolname FROM pg_roles WHERE rolname LIKE 'tsdb_eph_%'")).toEqual([]);
  });

  it("runs a synchronous streaming standby at ports.replica that shows new rows", async () => {
    plan = { ...plan, haReplicas: 1, syncReplicas: 1 };
    const observed = await timed("add a synchronous HA standby", () => driver.applyService(plan));
    expect(observed.phase).toBe("running");
    expect(observed.processes.map((p) => p.kind).sort()).toEqual(["postgres", "standby"]);
    await query(admin(), "INSERT INTO notes VALUES (2, 'streamed')");
    expect(await rowOnStandby(plan.ports.replica, 2)).toEqual([{ body: "streamed", recovery: true }]);
    expect(await query(admin(), "SELECT application_name, sync_state FROM pg_stat_replication")).toEqual([{ application_name: "node_1", sync_state: "sync" }]);
    expect(await query(admin(), "SELECT slot_name, active FROM pg_replication_slots")).toEqual([{ slot_name: "node_1", active: true }]);
    expect(await refusal({ ...admin(plan.ports.replica), statement_timeout: 2000 }).catch(() => "accepted")).toBe("accepted");
    await expect(query(admin(plan.ports.replica), "INSERT INTO notes VALUES (9, 'no')")).rejects.toThrow(/read-only/);
  });

  it("adds and removes a second standby (a potential synchronous one), dropping its slot", async () => {
    await timed("add a second standby", () => driver.applyService({ ...plan, haReplicas: 2 }));
    const replication = "SELECT application_name, sync_state FROM pg_stat_replication ORDER BY 1";
    await eventually(async () => {
      expect(await query(admin(), replication)).toEqual([
        { application_name: "node_1", sync_state: "sync" },
        { application_name: "node_2", sync_state: "potential" },
      ]);
    });
    const second = (await driver.observeService(plan.id)).processes.find((p) => p.dataDir?.endsWith("node-2"))!;
    const observed = await driver.applyService(plan);
    expect(observed.processes.map((p) => p.kind).sort()).toEqual(["postgres", "standby"]);
    expect(gone(second.pid)).toBe(true);
    expect(await portListens(second.port)).toBe(false);
    expect(await query(admin(), "SELECT slot_name FROM pg_replication_slots")).toEqual([{ slot_name: "node_1" }]);
    expect(await query(admin(), "SHOW synchronous_standby_names")).toEqual([{ synchronous_standby_names: "FIRST 1 (node_1)" }]);
  });

  poolerIt("serves the database through pgbouncer in transaction mode", async () => {
    expect(findBinaries().pgbouncer, "pgbouncer is not installed (apt-get install pgbouncer)").toBeDefined();
    plan = { ...plan, pooler: true };
    const observed = await timed("add the pooler", () => driver.applyService(plan));
    expect(observed.processes.some((p) => p.kind === "pgbouncer" && p.port === plan.ports.pooler)).toBe(true);
    const pooled = { ...admin(plan.ports.pooler), ssl: false };
    expect(await query(pooled, "SELECT body FROM notes WHERE id = 1")).toEqual([{ body: "kept" }]);
    // the same connection strings as direct: sslmode=require, and verify-full with the platform CA
    const viaPooler = psql(`postgresql://tsdbadmin@localhost:${plan.ports.pooler}/tsdb?sslmode=verify-full&sslrootcert=${driver.caCertFile}`, "SELECT body FROM notes WHERE id = 1", password);
    expect(viaPooler).toEqual({ status: 0, out: "kept" });
    expect(await refusal({ ...pooled, password: "wrong" })).toMatch(/password authentication failed|SASL/);

    // without pgbouncer (a machine that lacks it): the service runs, with a warning saying how to get it
    const withoutPgbouncer = createLocalDriver({ stateDir: join(dataDir, "clusters"), caDir: join(dataDir, "ca"), pgbouncer: join(dataDir, "no-pgbouncer-here") });
    const degraded = await withoutPgbouncer.applyService(plan);
    expect(degraded.phase).toBe("running");
    expect(degraded.warnings).toEqual([expect.stringMatching(/pgbouncer is not installed: the connection pooler is not running \(.*apt-get install pgbouncer/)]);
    expect(degraded.processes.some((p) => p.kind === "pgbouncer")).toBe(false);
    expect((await driver.applyService(plan)).processes.some((p) => p.kind === "pgbouncer")).toBe(true);
  });

  it("runs a read-replica service as a standby of its source, with its own endpoint", async () => {
    const missingSource = await driver.applyService({ ...plan, id: "svc-orphan", role: "read_replica", sourceId: "svc-nothing", haReplicas: 0, syncReplicas: 0, pooler: false, ports: { main: await freePort(), replica: await freePort(), pooler: await freePort() } });
    expect(missingSource).toMatchObject({ phase: "starting", message: expect.stringMatching(/source service svc-nothing is not running/) });
    await driver.removeService("svc-orphan");

    const replica: ServicePlan = { ...plan, id: "svc-replica", role: "read_replica", sourceId: plan.id, haReplicas: 0, syncReplicas: 0, pooler: false, memoryGb: 1, milliCpu: 500, ports: { main: await freePort(), replica: await freePort(), pooler: await freePort() } };
    const observed = await timed("create a read-replica service", () => driver.applyService(replica));
    expect(observed).toMatchObject({ phase: "running", processes: [{ kind: "standby", port: replica.ports.main }] });
    await query(admin(), "INSERT INTO notes VALUES (3, 'replicated')");
    expect(await rowOnStandby(replica.ports.main, 3)).toEqual([{ body: "replicated", recovery: true }]);
  });

  it("fails with the port named when a port is taken", async () => {
    const port = await freePort();
    const squatter: Server = createServer();
    await new Promise<void>((resolve) => squatter.listen(port, "127.0.0.1", resolve));
    try {
      const observed = await driver.applyService({ ...plan, id: "svc-taken", haReplicas: 0, syncReplicas: 0, pooler: false, ports: { main: port, replica: await freePort(), pooler: await freePort() } });
      expect(observed).toMatchObject({ phase: "failed", message: `port ${port} is taken` });
    } finally {
      squatter.close();
      await driver.removeService("svc-taken");
    }
  });

  it("fails with the cause when the disk is full (a small tmpfs; skipped where mounting is not allowed)", async ({ skip }) => {
    const mountPoint = tempDir("schemaform-full-");
    chmodSync(mountPoint, 0o755);
    if (spawnSync("mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", mountPoint]).status !== 0) skip();
    try {
      const small = createLocalDriver({ stateDir: join(mountPoint, "clusters"), caDir: join(dataDir, "ca") });
      const observed = await small.applyService({ ...plan, id: "svc-full", haReplicas: 0, syncReplicas: 0, pooler: false, ports: { main: await freePort(), replica: await freePort(), pooler: await freePort() } });
      expect(observed.phase).toBe("failed");
      expect(observed.message).toMatch(/^the disk is full: initdb failed: FATAL: +could not (extend|write)/);
      await small.removeService("svc-full");
    } finally {
      spawnSync("umount", [mountPoint]);
    }
  });

  it("brings a kill -9'd postmaster (and pooler) back with its data on the next apply", async () => {
    const before = (await driver.observeService(plan.id)).processes;
    const killed = before.filter((p) => p.kind === "postgres" || p.kind === "pgbouncer");
    for (const { pid } of killed) process.kill(pid, "SIGKILL");
    await eventually(async () => {
      if (killed.some(({ pid }) => !gone(pid))) throw new Error("a killed process is still alive");
    });
    const seen = await driver.observeService(plan.id);
    expect(seen.phase).toBe("failed");
    expect(seen.message).toMatch(/primary .* is not running/);
    if (plan.pooler) expect(seen.message).toMatch(/pooler .* is not running/);
    const observed = await timed("restart after kill -9", () => driver.applyService(plan));
    expect(observed.phase).toBe("running");
    expect(observed.processes.map((p) => p.kind).sort()).toEqual(before.map((p) => p.kind).sort());
    expect(await query(admin(), "SELECT count(*)::int AS n FROM notes")).toEqual([{ n: 3 }]);
    if (plan.pooler) expect(await query({ ...admin(plan.ports.pooler), ssl: false }, "SELECT count(*)::int AS n FROM notes")).toEqual([{ n: 3 }]);
  });

  it("pauses (connections refused, files kept) and resumes with the data", async () => {
    const paused = await timed("pause", () => driver.applyService({ ...plan, running: false }));
    expect(paused).toMatchObject({ phase: "stopped", processes: [] });
    expect(paused.diskBytes).toBeGreaterThan(1_000_000);
    expect(await refusal(admin())).toMatch(/ECONNREFUSED/);
    expect(await refusal(admin(plan.ports.pooler))).toMatch(/ECONNREFUSED/);
    // as after a reboot: the pid file names a live process that is no postmaster (this test's own)
    writeFileSync(join(driver.clustersDir, plan.id, "node-0", "postmaster.pid"), `${process.pid}\n`);
    expect((await driver.observeService(plan.id)).phase).toBe("stopped");
    const resumed = await timed("resume", () => driver.applyService(plan));
    expect(resumed.phase).toBe("running");
    expect(await query(admin(), "SELECT body FROM notes ORDER BY id")).toEqual([{ body: "kept" }, { body: "streamed" }, { body: "replicated" }]);
  });

  it("stops everything (schemaform down), then removes the services: no process, no listening port, no files", async () => {
    const services = await driver.listServices();
    expect(services).toEqual(["svc-main", "svc-replica"]);
    const observed = await Promise.all(services.map((id) => driver.observeService(id)));
    const pids = observed.flatMap((o) => o.processes.map((p) => p.pid));
    const ports = observed.flatMap((o) => o.processes.map((p) => p.port));
    expect(pids.length).toBe(plan.pooler ? 4 : 3);
    await driver.stopAll();
    expect(pids.filter((pid) => !gone(pid))).toEqual([]);
    for (const port of ports) expect(await portListens(port)).toBe(false);
    expect((await driver.observeService("svc-main")).processes).toEqual([]);
    // stopped, not removed: the next apply (the agent's) brings the service back with its data
    expect(await driver.applyService(plan)).toMatchObject({ phase: "running" });
    const restarted = (await driver.observeService("svc-main")).processes.map((p) => p.pid);

    for (const id of services) await driver.removeService(id);
    await driver.removeService("svc-main"); // idempotent
    expect(restarted.filter((pid) => !gone(pid))).toEqual([]);
    for (const port of ports) expect(await portListens(port)).toBe(false);
    for (const id of services) expect(existsSync(join(driver.clustersDir, id))).toBe(false);
    expect(await driver.listServices()).toEqual([]);
    expect((await driver.observeService("svc-main")).phase).toBe("absent");
  });
});
