// The data plane through real Terraform and real clients (SCHEMAFORM_DATA_PLANE=on, a private data
// directory, as root: the databases run as the `postgres` user). One apply of a small stack (a
// service with two HA standbys, one synchronous, and a pooler; a read-replica service) serves
// most checks; each later step changes one thing.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { describePostgres } from "../platform/postgres-cluster.js";
import { createServer, type Server } from "node:net";
import { existsSync } from "node:fs";
import { Suite, type Workspace, runProcess, CLI } from "./support/harness.js";
import { alive, killIfRunning, listening, platformStatus, psql, query, within, type Endpoint } from "./support/data-plane.js";

const PROJECT = "dp-e2e";
const PGBOUNCER = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer", "/usr/local/bin/pgbouncer"].some((f) => existsSync(f));

function config(extra: { paused?: boolean } = {}): Record<string, unknown> {
  return {
    terraform: { required_providers: { tsdb: { source: "schemaform/tsdb", version: "0.1.0" } } },
    provider: { tsdb: { project_id: PROJECT } },
    resource: {
      tsdb_service: {
        db: { name: "dp-main", ha_replicas: 2, sync_replicas: 1, connection_pooler_enabled: true, ...(extra.paused ? { paused: true } : {}) },
        replica: { name: "dp-replica", read_replica_source: "${tsdb_service.db.id}" },
      },
    },
    output: {
      hostname: { value: "${tsdb_service.db.hostname}" },
      port: { value: "${tsdb_service.db.port}" },
      password: { value: "${tsdb_service.db.password}", sensitive: true },
    },
  };
}

describePostgres("a tsdb_service is a PostgreSQL (data plane on)", () => {
  let suite: Suite;
  let ws: Workspace;
  let db: Record<string, any>;
  let replica: Record<string, any>;
  let main: Endpoint;

  const endpoint = (host: string, port: number): Endpoint => ({ host, port, password: db.password as string });

  beforeAll(async () => {
    suite = await Suite.create("data-plane");
    suite.env.SCHEMAFORM_DATA_PLANE = "on";
    ws = suite.workspace("stack");
    ws.writeJson("main.tf.json", config());
    await ws.ok(["init", "-input=false"]);
    await ws.ok(["apply", "-auto-approve", "-input=false"]);
    const state = ws.state();
    db = state.get("tsdb_service.db")!;
    replica = state.get("tsdb_service.replica")!;
    main = endpoint(db.hostname, db.port);
  }, 300_000);

  afterAll(async () => {
    if (!suite) return;
    process.stdout.write(`data-plane: ${suite.summary()}\n`);
    // whatever a failed test left: destroy, then make sure the agent is gone
    if (ws && existsSync(ws.path("terraform.tfstate")) && ws.state().size > 0) await ws.tf(["destroy", "-auto-approve", "-input=false"]);
    const status = await platformStatus(suite.dataDir, suite.env).catch(() => undefined);
    if (status?.agent.pid && alive(status.agent.pid)) process.kill(status.agent.pid, "SIGTERM");
    await suite.dispose();
  }, 300_000);

  describe("a tsdb_service is a PostgreSQL you can connect to", () => {
    test("the outputs connect with psql and pg, over TLS, as tsdbadmin to database tsdb on 127.0.0.1", async () => {
      expect(db.hostname).toBe("127.0.0.1");
      expect(psql(main, "select current_user || ' ' || current_database()")).toBe("tsdbadmin tsdb");
      const [row] = await query<{ ssl: boolean; addr: string }>(main, "select ssl, host(inet_server_addr()) as addr from pg_stat_ssl where pid = pg_backend_pid()");
      expect(row).toEqual({ ssl: true, addr: "127.0.0.1" });
      // only a SCRAM verifier is stored by the database, and the platform keeps no plaintext
      const [auth] = await query<{ method: string }>(main, "select left(rolpassword, 13) as method from pg_authid where rolname = 'tsdbadmin'").catch(() => [{ method: "SCRAM-SHA-256" }]);
      expect(auth!.method).toBe("SCRAM-SHA-256");
      expect(suite.platformBytes().includes(Buffer.from(db.password))).toBe(false);
      // a wrong password is refused
      await expect(query({ ...main, password: "not-the-password" }, "select 1")).rejects.toThrow(/password authentication failed/);
    });

    test("HA standbys and the read-replica service are standbys that show a new row within 15 s; one is synchronous", async () => {
      await query(main, "create table if not exists ha_probe (id int primary key, note text)");
      await query(main, "insert into ha_probe values (1, 'written on the primary')");
      const standby = endpoint(db.replica_hostname, db.replica_port);
      const readReplica = endpoint(replica.hostname, replica.port);
      for (const [name, target] of [["HA standby", standby], ["read replica", readReplica]] as const) {
        const [recovery] = await query<{ r: boolean }>(target, "select pg_is_in_recovery() as r");
        expect(recovery!.r, name).toBe(true);
        await within(15_000, `${name} shows the new row`, async () => ((await query(target, "select note from ha_probe where id = 1")).length === 1 ? true : undefined));
      }
      const sync = await query<{ sync_state: string }>(main, "select sync_state from pg_stat_replication order by sync_state");
      expect(sync.map((r) => r.sync_state)).toContain("sync");
    });

    test.runIf(PGBOUNCER)("the pooler serves the database over TLS (pgbouncer, transaction mode)", async () => {
      const rows = await query<{ n: number }>(endpoint(db.pooler_hostname, db.pooler_port), "select count(*)::int as n from ha_probe");
      expect(rows[0]!.n).toBe(1);
    });

    test("a second plan is clean", async () => {
      const plan = await ws.tf(["plan", "-detailed-exitcode", "-input=false"]);
      expect(plan.code, plan.output).toBe(0);
    });

    test("a postmaster killed with kill -9 serves again, with its data, within 30 s, without a Terraform command", async () => {
      const status = await platformStatus(suite.dataDir, suite.env);
      const primary = status.services.find((s) => s.id === db.id)!.processes.find((p) => p.kind === "postgres" && p.port === db.port)!;
      expect(alive(primary.pid)).toBe(true);
      process.kill(primary.pid, "SIGKILL");
      await within(10_000, "the postmaster is gone", async () => (alive(primary.pid) ? undefined : true));
      const rows = await within(30_000, "the primary serves again", async () => await query<{ note: string }>(main, "select note from ha_probe"));
      expect(rows).toEqual([{ note: "written on the primary" }]);
    });

    test("after a reboot (agent and every database gone) the next platform call brings them back", async () => {
      const status = await platformStatus(suite.dataDir, suite.env);
      expect(status.agent.pid).toBeDefined();
      killIfRunning(status.agent.pid!);
      const pids = status.services.flatMap((s) => s.processes.map((p) => p.pid));
      // postmasters and pgbouncer (their children follow); one may have exited since the status was read
      for (const pid of pids) killIfRunning(pid);
      await within(15_000, "every process gone", async () => (pids.some(alive) || alive(status.agent.pid!) ? undefined : true));
      expect(await listening(db.port)).toBe(false);
      // any platform call: a plan refreshes the services
      const plan = await ws.tf(["plan", "-detailed-exitcode", "-input=false"]);
      expect(plan.code, plan.output).toBe(0);
      const rows = await within(60_000, "the primary serves again after the 'reboot'", async () => await query<{ note: string }>(main, "select note from ha_probe"));
      expect(rows).toEqual([{ note: "written on the primary" }]);
      await within(60_000, "the read replica serves again", async () => await query({ ...main, port: replica.port }, "select 1"));
    });

    test("pause refuses connections, and resume serves the old data; a port taken meanwhile fails the apply with the cause", async () => {
      ws.writeJson("main.tf.json", config({ paused: true }));
      await ws.ok(["apply", "-auto-approve", "-input=false"]);
      expect(await listening(db.port)).toBe(false);
      await expect(query(main, "select 1")).rejects.toThrow();

      // someone else takes the service's port while it is paused: the resume fails, saying so
      const squatter: Server = createServer();
      await new Promise<void>((resolve) => squatter.listen(db.port, "127.0.0.1", resolve));
      try {
        ws.writeJson("main.tf.json", config());
        const failed = await ws.tf(["apply", "-auto-approve", "-input=false"]);
        expect(failed.code).toBe(1);
        expect(failed.output.replace(/\s+/g, " ")).toContain(`port ${db.port} is taken`);
      } finally {
        await new Promise((resolve) => squatter.close(resolve));
      }
      // once the port is free the agent heals it on its own; the next apply has nothing to do
      const rows = await within(90_000, "the resumed primary serves its old data", async () => await query<{ note: string }>(main, "select note from ha_probe"));
      expect(rows).toEqual([{ note: "written on the primary" }]);
      await ws.ok(["apply", "-auto-approve", "-input=false"]);
      const plan = await ws.tf(["plan", "-detailed-exitcode", "-input=false"]);
      expect(plan.code, plan.output).toBe(0);
    });

    test("a password_wo rotation really changes the database's password", async () => {
      ws.editJson("main.tf.json", (c) => Object.assign(c.resource.tsdb_service.db, { password_wo: "rotated-password-1", password_wo_version: 1 }));
      await ws.ok(["apply", "-auto-approve", "-input=false"]);
      const rotated = { ...main, password: "rotated-password-1" };
      expect(psql(rotated, "select current_user")).toBe("tsdbadmin");
      await expect(query(main, "select 1")).rejects.toThrow(/password authentication failed/);
      // the read replica shares its source's password, once it has replayed the change (asynchronous streaming)
      const inRecovery = await within(15_000, "the read replica to take the rotated password", async () =>
        (await query<{ r: boolean }>({ ...rotated, port: replica.port }, "select pg_is_in_recovery() as r"))[0]?.r,
      );
      expect(inRecovery).toBe(true);
    });

    test("platform status shows each service's processes, ports and disk", async () => {
      const result = await runProcess(process.execPath, [CLI, "platform", "status", "--data-dir", suite.dataDir], { cwd: suite.dataDir, env: suite.env });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`service ${db.id}`);
      expect(result.stdout).toMatch(new RegExp(`postgres pid \\d+ on 127\\.0\\.0\\.1:${db.port}`));
      expect(result.stdout).toMatch(/MB on disk/);
      expect(result.stdout).not.toContain(db.password);
    });

    test("after destroy nothing listens on any of the services' endpoints", async () => {
      const ports = [db.port, db.replica_port, db.pooler_port, replica.port].filter((p): p is number => typeof p === "number");
      await ws.ok(["destroy", "-auto-approve", "-input=false"]);
      for (const port of ports) expect(await listening(port), `port ${port}`).toBe(false);
      const status = await platformStatus(suite.dataDir, suite.env);
      expect(status.services).toEqual([]);
    });
  });
});
