// The control plane's side of the data plane, without running databases: SCRAM verifiers (and
// PostgreSQL taking them as they are), plans and their hashes (a password_wo rotation is a new
// plan), loopback endpoints, honest statuses from observations, the mode rule and the lease.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmbeddedPlatform } from "../../platform/embedded.js";
import { checkScram, isScramVerifier, scramVerifier } from "../../platform/dataplane/scram.js";
import { storedPlans } from "../../platform/dataplane/plan.js";
import { writeObservation } from "../../platform/dataplane/observed.js";
import { holdLease, releaseLease } from "../../platform/dataplane/lease.js";
import { openStore } from "../../platform/store.js";
import { describePostgres, startCluster, type Cluster } from "../platform/postgres-cluster.js";
import { sql } from "./connector-clusters.js";

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "schemaform-dp-control-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A platform with the data plane on whose agent is this test (nothing is started). */
function realPlatform(dir = dataDir()): EmbeddedPlatform {
  return new EmbeddedPlatform({ dataDir: dir, transitionSeconds: 0, env: { SCHEMAFORM_DATA_PLANE: "on" }, onDataPlaneChange: () => {} });
}

describe("SCRAM verifiers", () => {
  it("are SCRAM-SHA-256 verifiers that check the password and nothing else", async () => {
    const verifier = await scramVerifier("correct horse battery");
    expect(verifier).toMatch(/^SCRAM-SHA-256\$4096:[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(isScramVerifier(verifier)).toBe(true);
    expect(await checkScram("correct horse battery", verifier)).toBe(true);
    expect(await checkScram("correct horse battery!", verifier)).toBe(false);
    expect(await scramVerifier("correct horse battery")).not.toBe(verifier); // a new salt each time
  });

  describePostgres("PostgreSQL", () => {
    let cluster: Cluster;
    beforeAll(async () => {
      cluster = await startCluster();
    });
    afterAll(() => cluster?.stop());
    it("stores the verifier as given (it is not hashed again as a password would be)", async () => {
      const verifier = await scramVerifier("a-password-1");
      await sql(cluster.adminUrl, `CREATE ROLE verifier_probe LOGIN PASSWORD '${verifier}'`);
      const [row] = await sql<{ rolpassword: string }>(cluster.adminUrl, "SELECT rolpassword FROM pg_authid WHERE rolname = 'verifier_probe'");
      expect(row!.rolpassword).toBe(verifier);
    });
  });
});

describe("desired state with the data plane on", () => {
  it("a service gets loopback endpoints on free ports, a verifier and never a plaintext", async () => {
    const dir = dataDir();
    const platform = realPlatform(dir);
    const { body } = await platform.services.create("p", { name: "a", ha_replicas: 1, connection_pooler_enabled: true, password: "first-password-1" });
    expect(body).toMatchObject({ hostname: "127.0.0.1", replica_hostname: "127.0.0.1", pooler_hostname: "127.0.0.1" });
    expect(new Set([body.port, body.replica_port, body.pooler_port]).size).toBe(3);
    const store = (await platform.core()).ctx.store;
    const [planned] = await store.read((tx) => storedPlans(tx));
    if ("error" in planned!.result) throw new Error(planned!.result.error);
    expect(planned!.result.plan.ports).toEqual({ main: body.port, replica: body.replica_port, pooler: body.pooler_port });
    expect(await checkScram("first-password-1", planned!.result.plan.passwordVerifier)).toBe(true);
    await platform.close();
    const stored = Buffer.concat(readdirSync(dir).filter((f) => f.startsWith("platform.db")).map((f) => readFileSync(join(dir, f))));
    expect(stored.includes(Buffer.from("first-password-1"))).toBe(false);
  });

  it("a password_wo rotation is a new verifier, so a new plan the agent must apply", async () => {
    const platform = realPlatform();
    const { body } = await platform.services.create("p", { name: "rotating", password_wo: "first-password-1", password_wo_version: 1 });
    const store = (await platform.core()).ctx.store;
    const before = (await store.read((tx) => storedPlans(tx)))[0]!.result as { hash: string; plan: { passwordVerifier: string } };
    await platform.services.update("p", body.id, { password_wo: "second-password-2", password_wo_version: 2 });
    const after = (await store.read((tx) => storedPlans(tx)))[0]!.result as { hash: string; plan: { passwordVerifier: string } };
    expect(after.hash).not.toBe(before.hash);
    expect(await checkScram("second-password-2", after.plan.passwordVerifier)).toBe(true);
    expect(await checkScram("first-password-1", after.plan.passwordVerifier)).toBe(false);
    await platform.close();
  });

  it("a read replica's plan is a standby of its source with the source's verifier", async () => {
    const platform = realPlatform();
    const { body: source } = await platform.services.create("p", { name: "src", password: "source-password-1" });
    const { body: replica } = await platform.services.create("p", { read_replica_source: source.id });
    const plans = await (await platform.core()).ctx.store.read((tx) => storedPlans(tx));
    const plan = plans.find((p) => p.id === replica.id)!.result as { plan: { role: string; sourceId: string; passwordVerifier: string } };
    expect(plan.plan).toMatchObject({ role: "read_replica", sourceId: source.id });
    expect(await checkScram("source-password-1", plan.plan.passwordVerifier)).toBe(true);
    await platform.close();
  });

  it("statuses: READY only when the current plan was observed running; ERROR with the driver's cause", async () => {
    const platform = realPlatform();
    const { body } = await platform.services.create("p", { name: "honest" });
    expect(body.status).toBe("QUEUED"); // nothing observed yet, though the transition is over
    const store = (await platform.core()).ctx.store;
    const hash = async () => ((await store.read((tx) => storedPlans(tx)))[0]!.result as { hash: string }).hash;
    const observe = async (planHash: string, phase: "running" | "failed" | "stopped", message?: string) =>
      store.write((tx) => writeObservation(tx, planHash, { id: body.id, phase, message, processes: [], diskBytes: 0, warnings: [] }, new Date().toISOString()));

    await observe("an-older-plan", "running");
    expect((await platform.services.get("p", body.id)).status).toBe("CONFIGURING");
    await observe(await hash(), "failed", "port 31234 is taken");
    expect(await platform.services.get("p", body.id)).toMatchObject({ status: "ERROR", status_message: "port 31234 is taken" });
    await observe(await hash(), "running");
    expect((await platform.services.get("p", body.id)).status).toBe("READY");

    await platform.services.update("p", body.id, { paused: true });
    expect((await platform.services.get("p", body.id)).status).toBe("PAUSING"); // still running as far as anyone saw
    await observe(await hash(), "stopped");
    expect((await platform.services.get("p", body.id)).status).toBe("PAUSED");
    await platform.services.update("p", body.id, { paused: false });
    expect((await platform.services.get("p", body.id)).status).toBe("RESUMING");
    await platform.close();
  });
});

describe("after schemaform up", () => {
  it("a missing pgbouncer is one plain note, said once however many services lack their pooler", async () => {
    const dir = dataDir();
    const platform = realPlatform(dir);
    const store = (await platform.core()).ctx.store;
    const warning = "pgbouncer is not installed: the connection pooler is not running (Debian/Ubuntu: `apt-get install pgbouncer`)";
    for (const name of ["one", "two"]) {
      const { body } = await platform.services.create("p", { name, connection_pooler_enabled: true });
      await store.write((tx) => writeObservation(tx, "h", { id: body.id, phase: "running", processes: [], diskBytes: 0, warnings: [warning] }, new Date().toISOString()));
    }
    await platform.close();
    const { dataPlaneNotes } = await import("../../cli/commands/connect-hint.js");
    expect(await dataPlaneNotes(dir)).toEqual([warning]);
  });
});

describe("modes", () => {
  it("without PostgreSQL a service says once that it is a record only, and how to get the binaries", async () => {
    const platform = new EmbeddedPlatform({ dataDir: dataDir(), transitionSeconds: 0, env: { SCHEMAFORM_PG_BIN: join(tmpdir(), "no-postgres-here") } });
    const { body, warnings } = await platform.services.create("p", { name: "record" });
    expect(body.hostname).toMatch(/\.tsdb\.cloud\.example\.com$/);
    expect(warnings.map((w) => w.message).join("\n")).toMatch(/record only.*SCHEMAFORM_PG_BIN/);
    await platform.close();
  });

  it("a data directory keeps its first mode: the other one is refused while it holds services", async () => {
    const dir = dataDir();
    const on = realPlatform(dir);
    await on.services.create("p", { name: "kept" });
    await on.close();
    const off = new EmbeddedPlatform({ dataDir: dir, transitionSeconds: 0, env: { SCHEMAFORM_DATA_PLANE: "off" } });
    await expect(off.services.list("p")).rejects.toThrow(/SCHEMAFORM_DATA_PLANE=on \(recorded when it was first used\).*1 service/);
    await off.close();
    // unset: the recorded mode goes on
    const unset = new EmbeddedPlatform({ dataDir: dir, transitionSeconds: 0, env: {}, onDataPlaneChange: () => {} });
    expect((await unset.services.list("p"))[0]!.hostname).toBe("127.0.0.1");
    await unset.close();
  });

  it("a directory with services from before the data plane keeps records only unless asked", async () => {
    const dir = dataDir();
    const old = new EmbeddedPlatform({ dataDir: dir, transitionSeconds: 0, env: { SCHEMAFORM_DATA_PLANE: "off" } });
    await old.services.create("p", { name: "from-before" });
    await (await old.core()).ctx.store.write((tx) => tx.run("DELETE FROM meta WHERE key = 'data_plane_mode'"));
    await old.close();
    const later = new EmbeddedPlatform({ dataDir: dir, transitionSeconds: 0, env: {}, onDataPlaneChange: () => {} });
    expect((await later.services.list("p"))[0]!.hostname).not.toBe("127.0.0.1");
    await later.close();
  });

  it("an empty data directory takes the mode it is asked for", async () => {
    const dir = dataDir();
    const on = realPlatform(dir);
    await on.services.list("p");
    await on.close();
    const off = new EmbeddedPlatform({ dataDir: dir, transitionSeconds: 0, env: { SCHEMAFORM_DATA_PLANE: "off" } });
    const { body } = await off.services.create("p", { name: "records" });
    expect(body.hostname).not.toBe("127.0.0.1");
    await off.close();
  });
});

describe("the lease", () => {
  it("one holder at a time; renewed by its holder; taken over at expiry; released at once", async () => {
    const store = await openStore({ dataDir: dataDir() });
    const now = Date.now();
    expect(await holdLease(store, "a", now, 1000)).toBe(true);
    expect(await holdLease(store, "b", now + 10, 1000)).toBe(false);
    expect(await holdLease(store, "a", now + 500, 1000)).toBe(true); // renewed until now + 1500
    expect(await holdLease(store, "b", now + 1200, 1000)).toBe(false);
    expect(await holdLease(store, "b", now + 1600, 1000)).toBe(true); // a stopped renewing
    await releaseLease(store, "b");
    expect(await holdLease(store, "a", now + 1700, 1000)).toBe(true);
    await store.close();
  });
});
