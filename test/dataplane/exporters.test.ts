// The exporters' data-plane modules against a real PostgreSQL and real HTTP: the pullmon
// endpoint (Basic auth, Prometheus text whose values follow the database), the local metric
// sinks, and log shipping that starts with the first restart after the attachment and never ships
// a line twice.

import { mkdtempSync, readFileSync, rmSync, truncateSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { AdminConnection } from "../../platform/dataplane/driver.js";
import { LogShippers, type LogShipment } from "../../platform/dataplane/exporters/log-sink.js";
import { PullmonServers, pullmonEndpoint, type PullmonExporter } from "../../platform/dataplane/exporters/pullmon.js";
import { MetricSinks, logSinkFile, metricSinkFile } from "../../platform/dataplane/exporters/sinks.js";
import { describePostgres, freePort, startCluster, type Cluster } from "../platform/postgres-cluster.js";

/** name{labels} value lines of a Prometheus text body, checked for HELP/TYPE before each family. */
function parsePrometheus(text: string): Array<{ name: string; labels: Record<string, string>; value: number }> {
  const out: Array<{ name: string; labels: Record<string, string>; value: number }> = [];
  const declared = new Set<string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      if (meta[1] === "TYPE") {
        expect(["gauge", "counter"]).toContain(meta[3]);
        declared.add(meta[2]!);
      }
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    expect(m, `not a sample line: ${line}`).not.toBeNull();
    expect(declared.has(m![1]!), `${m![1]} has no # TYPE line before it`).toBe(true);
    const labels: Record<string, string> = {};
    for (const pair of (m![2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]!] = pair[2]!.replace(/\\n/g, "\n").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
    }
    out.push({ name: m![1]!, labels, value: m![3] === "NaN" ? Number.NaN : Number(m![3]) });
  }
  return out;
}

function basic(user: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` };
}

async function query(target: AdminConnection, sql: string): Promise<void> {
  const client = new pg.Client(target);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describePostgres("exporters on the data plane", () => {
  let cluster: Cluster;
  let target: AdminConnection;
  let dataDir: string;
  const servers = new PullmonServers();
  const held: pg.Client[] = [];

  beforeAll(async () => {
    cluster = await startCluster();
    target = { host: "127.0.0.1", port: cluster.port, user: "postgres", database: "postgres" };
    dataDir = mkdtempSync(join(tmpdir(), "schemaform-exporters-"));
  });

  afterAll(async () => {
    await servers.close();
    await Promise.all(held.map((c) => c.end().catch(() => {})));
    cluster?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("pullmon: 401 without or with wrong credentials, Prometheus text that follows the database with them; a new password takes effect; a removed exporter stops listening", async () => {
    const port = await freePort();
    const exporter: PullmonExporter = { exporterId: "exp-1", port, username: "scraper", password: "first-secret", services: [{ id: "svc-1", name: 'db "one"', target }] };
    const statuses = await servers.sync([exporter]);
    expect(statuses.get("exp-1")).toEqual({ status: "serving" });
    const url = pullmonEndpoint(port);
    expect(url).toBe(`http://127.0.0.1:${port}/metrics`);

    const anonymous = await fetch(url);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Basic realm="[^"]+"/);
    expect((await fetch(url, { headers: basic("scraper", "wrong") })).status).toBe(401);
    expect((await fetch(url, { headers: basic("someone", "first-secret") })).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: "Bearer first-secret" } })).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/other`, { headers: basic("scraper", "first-secret") })).status).toBe(404);

    const scrape = async () => {
      const response = await fetch(url, { headers: basic("scraper", "first-secret") });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
      return parsePrometheus(await response.text());
    };
    const value = (samples: ReturnType<typeof parsePrometheus>, name: string, labels: Record<string, string>) =>
      samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

    const before = await scrape();
    expect(value(before, "tsdb_up", { service_id: "svc-1" })).toBe(1);
    expect(value(before, "tsdb_service_info", { service_id: "svc-1", service_name: 'db "one"' })).toBe(1);
    expect(value(before, "tsdb_database_size_bytes", { service_id: "svc-1", database: "postgres" })).toBeGreaterThan(1_000_000);
    const committedBefore = value(before, "tsdb_transactions_committed_total", { database: "postgres" })!;
    const rolledBackBefore = value(before, "tsdb_transactions_rolled_back_total", { database: "postgres" })!;

    // three idle connections, committed and rolled-back transactions
    for (let i = 0; i < 3; i++) {
      const client = new pg.Client(target);
      client.on("error", () => {}); // the restart in a later test ends it
      await client.connect();
      held.push(client);
    }
    await held[2]!.query("BEGIN"); // left open: idle in transaction
    // a backend that ends reports its transactions to pg_stat_database (an idle one only after 10 s)
    const worker = new pg.Client(target);
    await worker.connect();
    for (let i = 0; i < 5; i++) await worker.query("SELECT 1");
    await worker.query("BEGIN");
    await worker.query("ROLLBACK");
    await worker.end();
    await new Promise((r) => setTimeout(r, 200));
    const after = await scrape();
    expect(value(after, "tsdb_connections", { service_id: "svc-1", state: "idle" })).toBeGreaterThanOrEqual(2);
    expect(value(after, "tsdb_connections", { service_id: "svc-1", state: "idle in transaction" })).toBe(1);
    expect(value(after, "tsdb_transactions_committed_total", { database: "postgres" })).toBeGreaterThanOrEqual(committedBefore + 5);
    expect(value(after, "tsdb_transactions_rolled_back_total", { database: "postgres" })).toBeGreaterThanOrEqual(rolledBackBefore + 1);
    await held[2]!.query("ROLLBACK");

    // a standby appears with its lag
    await cluster.startStandby();
    let lag: number | undefined;
    for (let i = 0; i < 50 && lag === undefined; i++) {
      lag = value(await scrape(), "tsdb_replication_lag_bytes", { service_id: "svc-1", standby: "standby1" });
      if (lag === undefined) await new Promise((r) => setTimeout(r, 200));
    }
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(value(await scrape(), "tsdb_replication_lag_seconds", { standby: "standby1" })).toBeGreaterThanOrEqual(0);

    // a new password: the old one is refused, the new one accepted, without a restart of the server
    await servers.sync([{ ...exporter, password: "second-secret" }]);
    expect((await fetch(url, { headers: basic("scraper", "first-secret") })).status).toBe(401);
    expect((await fetch(url, { headers: basic("scraper", "second-secret") })).status).toBe(200);

    // a service that does not answer is up 0, and the others still report
    const deadPort = await freePort();
    await servers.sync([{ ...exporter, password: "second-secret", services: [...exporter.services, { id: "svc-2", name: "gone", target: { ...target, port: deadPort } }] }]);
    const mixed = parsePrometheus(await (await fetch(url, { headers: basic("scraper", "second-secret") })).text());
    expect(value(mixed, "tsdb_up", { service_id: "svc-1" })).toBe(1);
    expect(value(mixed, "tsdb_up", { service_id: "svc-2" })).toBe(0);

    // a port another process holds is that exporter's failure, not the others'
    const blocker = createServer();
    const blockedPort = await new Promise<number>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve((blocker.address() as { port: number }).port)));
    try {
      const result = await servers.sync([exporter, { ...exporter, exporterId: "exp-2", port: blockedPort }]);
      expect(result.get("exp-1")).toEqual({ status: "serving" });
      expect(result.get("exp-2")).toEqual({ status: "failed", message: `port ${blockedPort} is taken by another process` });
    } finally {
      blocker.close();
    }

    // removed: nothing listens on its port any more
    await servers.sync([]);
    await expect(fetch(url, { headers: basic("scraper", "first-secret") })).rejects.toThrow();
    expect(servers.serving().size).toBe(0);
  });

  test("metric sinks append samples as JSON lines under <data dir>/sinks/metrics/<destination>/<namespace or site>/ on their interval", async () => {
    const sinks = new MetricSinks({ dataDir, intervalMs: 60_000 });
    const desired = [
      { exporterId: "cw", destination: "cloudmon" as const, scope: "App/DB", services: [{ id: "svc-1", name: "one", target }] },
      { exporterId: "dd", destination: "saasmon" as const, scope: "datadoghq.eu", services: [{ id: "svc-1", name: "one", target }] },
    ];
    const t0 = Date.now();
    const statuses = await sinks.sync(desired, t0);
    expect([...statuses.values()].every((s) => s.status === "serving")).toBe(true);
    const cloudmon = metricSinkFile(dataDir, "cloudmon", "App/DB", "svc-1");
    expect(cloudmon).toBe(join(dataDir, "sinks", "metrics", "cloudmon", "App%2FDB", "svc-1.jsonl"));
    const lines = () => readFileSync(cloudmon, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as { metric: string; value: number; labels: Record<string, string>; time: string });
    const first = lines();
    expect(first.find((l) => l.metric === "tsdb_up")?.value).toBe(1);
    expect(first.find((l) => l.metric === "tsdb_database_size_bytes" && l.labels.database === "postgres")?.value).toBeGreaterThan(0);
    expect(existsSync(join(dataDir, "sinks", "metrics", "saasmon", "datadoghq.eu", "svc-1.jsonl"))).toBe(true);

    // not due yet: nothing new; due: a second batch with a later time
    await sinks.sync(desired, t0 + 30_000);
    expect(lines()).toHaveLength(first.length);
    await sinks.sync(desired, t0 + 60_000);
    const second = lines();
    expect(second).toHaveLength(first.length * 2);
    expect(Date.parse(second.at(-1)!.time)).toBe(t0 + 60_000);
  });

  test("log shipping starts with the first restart after the attachment, appends each new line once, survives a shipper restart and a truncated log", async () => {
    const marker = (n: number) => `exporter-test-marker-${n}-${process.pid}`;
    // the LOG line itself (the STATEMENT line after it quotes the marker too)
    const logged = (n: number) => `LOG:  ${marker(n)}`;
    const raise = (n: number) => query(target, `DO $$ BEGIN RAISE LOG '${marker(n)}'; END $$`);
    await raise(0); // before the attachment: never shipped
    await new Promise((r) => setTimeout(r, 20));
    const shipment: LogShipment = {
      serviceId: "svc-1",
      exporterId: "logs-1",
      logGroupName: "/aws/rds/app",
      logStreamName: "primary",
      logFile: cluster.logFile,
      attachedAt: new Date().toISOString(),
      target,
    };
    const sink = logSinkFile(dataDir, "/aws/rds/app", "primary");
    expect(sink).toBe(join(dataDir, "sinks", "logs", "%2Faws%2Frds%2Fapp", "primary.log"));
    const shipped = () => (existsSync(sink) ? readFileSync(sink, "utf8") : "");
    const count = (text: string, needle: string) => text.split(needle).length - 1;

    let shippers = new LogShippers({ dataDir });
    await raise(1);
    expect((await shippers.sync([shipment])).get("svc-1")?.status).toBe("waiting_for_restart");
    expect(shipped()).toBe("");

    cluster.restart();
    expect((await shippers.sync([shipment])).get("svc-1")).toEqual({ status: "shipping" });
    let text = shipped();
    expect(count(text, "starting PostgreSQL")).toBe(1);
    expect(text).not.toContain(logged(0));
    expect(text).not.toContain(logged(1));
    expect(text.split("\n").filter(Boolean).every((line) => line.startsWith("svc-1 "))).toBe(true);

    await raise(2);
    await shippers.sync([shipment]);
    await shippers.sync([shipment]);
    expect(count(shipped(), logged(2))).toBe(1);

    // the agent restarts: a new shipper continues where the last one stopped
    shippers = new LogShippers({ dataDir });
    await raise(3);
    await shippers.sync([shipment]);
    text = shipped();
    expect(count(text, logged(2))).toBe(1);
    expect(count(text, logged(3))).toBe(1);
    expect(count(text, "starting PostgreSQL")).toBe(1);

    // the log truncated (copytruncate-style rotation): the new lines are shipped, none again
    truncateSync(cluster.logFile, 0);
    await raise(4);
    await shippers.sync([shipment]);
    text = shipped();
    expect(count(text, logged(4))).toBe(1);
    expect(count(text, logged(3))).toBe(1);

    // attached again (a new attachment time): waits for its own restart
    const again = { ...shipment, attachedAt: new Date(Date.now() + 1000).toISOString() };
    await raise(5);
    expect((await shippers.sync([again])).get("svc-1")?.status).toBe("waiting_for_restart");
    expect(shipped()).not.toContain(logged(5));
  });
});
