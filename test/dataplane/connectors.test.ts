// The connectors' data-plane engines against real PostgreSQL: a source cluster (wal_level =
// logical) replicated into a service cluster by the source-DB connector, and files in a bucket
// directory loaded by the object-store connector. The engines are called the way the agent calls
// them, tick by tick.

import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parquetWriteBuffer } from "hyparquet-writer";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runObjStore, type ObjStorePlan } from "../../platform/dataplane/connectors/obj-store.js";
import { applySrcDb, publicationName, removeSrcDb, subscriptionName, sweepSrcDb, type SrcDbPlan } from "../../platform/dataplane/connectors/src-db.js";
import type { AdminConnection } from "../../platform/dataplane/driver.js";
import type { ConnectorObserved } from "../../platform/dataplane/connectors/observed.js";
import { describePostgres, startCluster, type Cluster } from "../platform/postgres-cluster.js";
import { adminOf, sql, startConnectorClusters, until, type ConnectorClusters } from "./connector-clusters.js";

const newId = () => randomUUID();

describePostgres("source-DB connector: logical replication into the service", () => {
  let clusters: ConnectorClusters;
  beforeAll(async () => {
    clusters = await startConnectorClusters();
  });
  afterAll(() => clusters?.stop());

  async function databases(): Promise<{ source: string; service: string; target: AdminConnection }> {
    const [source, service] = await Promise.all([clusters.source.createDatabase(), clusters.service.createDatabase()]);
    return { source, service, target: adminOf(service) };
  }

  function plan(id: string, source: string, tables: SrcDbPlan["tables"], more: Partial<SrcDbPlan> = {}): SrcDbPlan {
    return { id, serviceId: "svc", enabled: true, connectionString: source, tables, tableSyncWorkers: 2, ...more };
  }

  /** Ticks until the target has `n` rows (and the status is not error). */
  async function replicated(target: AdminConnection, p: SrcDbPlan, service: string, table: string, n: number, timeoutMs: number): Promise<ConnectorObserved> {
    let observed: ConnectorObserved = { status: "warning" };
    await until(
      `${n} rows in ${table}`,
      async () => {
        observed = await applySrcDb(target, p);
        expect(observed.status, observed.message).not.toBe("error");
        const exists = (await sql<{ ok: boolean }>(service, "SELECT to_regclass($1) IS NOT NULL AS ok", [table]))[0]!.ok;
        return exists ? Number((await sql<{ n: string }>(service, `SELECT count(*) AS n FROM ${table}`))[0]!.n) : -1;
      },
      (count) => count === n,
      timeoutMs,
    );
    return observed;
  }

  it("replicates 1,000 rows into a range-partitioned target, then a new row, and keeps partitions ahead", async () => {
    const { source, service, target } = await databases();
    await sql(
      source,
      `CREATE TABLE metrics (time timestamptz NOT NULL, device int NOT NULL, value double precision, PRIMARY KEY (time, device));
       INSERT INTO metrics SELECT now() - make_interval(mins => g * 10), g % 7, g FROM generate_series(1, 1000) g`,
    );
    const id = newId();
    const p = plan(id, source, [
      {
        schema_name: "public",
        table_name: "metrics",
        hypertable_spec: { primary_dimension: { column_name: "time", partition_interval: "1d" }, secondary_dimensions: [{ hash: { column_name: "device", number_partitions: 2 } }] },
      },
    ]);
    const started = Date.now();
    await replicated(target, p, service, "metrics", 1000, 30_000);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect((await sql(service, "SELECT relkind FROM pg_class WHERE oid = 'metrics'::regclass"))[0]).toEqual({ relkind: "p" });
    // the initial copy landed in daily partitions, each hashed in two, none in DEFAULT
    expect((await sql<{ n: string }>(service, "SELECT count(*) AS n FROM metrics_default"))[0]!.n).toBe("0");
    const hashed = await sql<{ n: string }>(service, "SELECT count(*) AS n FROM pg_inherits WHERE inhparent = (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'metrics'::regclass AND inhrelid <> 'metrics_default'::regclass LIMIT 1)");
    expect(hashed[0]!.n).toBe("2");
    // partitions reach at least three days ahead of now
    const ahead = await sql<{ ok: boolean }>(service, "SELECT count(*) >= 1 AS ok FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'metrics'::regclass AND pg_get_expr(c.relpartbound, c.oid) LIKE '%' || to_char((now() AT TIME ZONE 'UTC') + interval '3 days', 'YYYY-MM-DD') || '%'");
    expect(ahead[0]!.ok).toBe(true);

    const newRow = Date.now();
    await sql(source, "INSERT INTO metrics VALUES (now(), 1, -1)");
    const observed = await replicated(target, p, service, "metrics", 1001, 15_000);
    expect(Date.now() - newRow).toBeLessThan(15_000);
    expect(observed).toMatchObject({ status: "ok", message: "replicating 1 table" });

    // a row far ahead lands in DEFAULT, and the next ticks give it a partition of its own
    await sql(source, "INSERT INTO metrics VALUES (now() + interval '400 days', 2, 4242)");
    await until(
      "the far-ahead row out of DEFAULT",
      async () => {
        await applySrcDb(target, p);
        return sql<{ part: string }>(service, "SELECT tableoid::regclass::text AS part FROM metrics WHERE value = 4242");
      },
      (rows) => rows.length === 1 && rows[0]!.part !== "metrics_default",
      15_000,
    );
    expect(await sql(service, "SELECT time, device, value FROM metrics_default")).toEqual([]);
    await removeSrcDb(target, id, source);
  });

  it("maps a table to another target name, follows updates, re-syncs a changed mapping and adds a new table", async () => {
    const { source, service, target } = await databases();
    await sql(
      source,
      `CREATE TABLE devices (id int PRIMARY KEY, name text);
       INSERT INTO devices SELECT g, 'd' || g FROM generate_series(1, 50) g;
       CREATE TABLE sites (id int PRIMARY KEY, city text);
       INSERT INTO sites VALUES (1, 'Oslo'), (2, 'Lima')`,
    );
    const id = newId();
    let p = plan(id, source, [{ schema_name: "public", table_name: "devices", table_mapping: { schema_name: "inventory", table_name: "devices_copy" } }]);
    await replicated(target, p, service, "inventory.devices_copy", 50, 30_000);
    await sql(source, "UPDATE devices SET name = 'renamed' WHERE id = 7; DELETE FROM devices WHERE id = 8");
    await until(
      "the update and delete in the mapped target",
      async () => {
        await applySrcDb(target, p);
        return sql<{ name: string }>(service, "SELECT name FROM inventory.devices_copy WHERE id IN (7, 8) ORDER BY id");
      },
      (rows) => rows.length === 1 && rows[0]!.name === "renamed",
      15_000,
    );

    // a new table in the set: added to the publication and the subscription, copied in full
    p = { ...p, tables: [...p.tables, { schema_name: "public", table_name: "sites" }] };
    await replicated(target, p, service, "public.sites", 2, 30_000);

    // rule 2: a changed table_mapping re-syncs that table in full into the new target; the old target is kept
    p = { ...p, tables: [{ schema_name: "public", table_name: "devices", table_mapping: { schema_name: "inventory", table_name: "devices_v2" } }, p.tables[1]!] };
    const observed = await replicated(target, p, service, "inventory.devices_v2", 49, 30_000);
    expect(observed.status).toBe("ok");
    expect((await sql<{ n: string }>(service, "SELECT count(*) AS n FROM inventory.devices_copy"))[0]!.n).toBe("49");
    await sql(source, "INSERT INTO devices VALUES (100, 'new')");
    await replicated(target, p, service, "inventory.devices_v2", 50, 15_000);
    expect((await sql<{ n: string }>(service, "SELECT count(*) AS n FROM inventory.devices_copy"))[0]!.n).toBe("49");
    await removeSrcDb(target, id, source);
    // targets are never dropped
    expect((await sql<{ n: string }>(service, "SELECT count(*) AS n FROM inventory.devices_v2"))[0]!.n).toBe("50");
  });

  it("maps a table that was replicated under its own name: the old target is kept, the new one gets every row", async () => {
    const { source, service, target } = await databases();
    await sql(source, "CREATE TABLE prices (id int PRIMARY KEY, amount int); INSERT INTO prices SELECT g, g FROM generate_series(1, 30) g");
    const id = newId();
    let p = plan(id, source, [{ schema_name: "public", table_name: "prices" }]);
    await replicated(target, p, service, "public.prices", 30, 30_000);
    p = { ...p, tables: [{ schema_name: "public", table_name: "prices", table_mapping: { schema_name: "archive", table_name: "prices" } }] };
    await replicated(target, p, service, "archive.prices", 30, 30_000);
    await sql(source, "INSERT INTO prices VALUES (31, 31)");
    await replicated(target, p, service, "archive.prices", 31, 15_000);
    expect((await sql<{ n: string }>(service, "SELECT count(*) AS n FROM public.prices"))[0]!.n).toBe("31");
    // and back: the kept table is the target again, refilled in full
    p = { ...p, tables: [{ schema_name: "public", table_name: "prices" }] };
    await until("the refill", () => applySrcDb(target, p), (o) => o.status === "ok", 30_000);
    await sql(source, "INSERT INTO prices VALUES (32, 32)");
    await replicated(target, p, service, "public.prices", 32, 15_000);
    expect((await sql<{ n: string }>(service, "SELECT count(*) AS n FROM archive.prices"))[0]!.n).toBe("31");
    await removeSrcDb(target, id, source);
    expect((await sql<{ n: string }>(service, "SELECT count(*) AS n FROM public.prices"))[0]!.n).toBe("32");
  });

  it("re-syncs a table in full when its publication_name changes, and honours table_sync_workers", async () => {
    const { source, service, target } = await databases();
    await sql(source, "CREATE TABLE orders (id int PRIMARY KEY, total numeric); INSERT INTO orders SELECT g, g * 1.5 FROM generate_series(1, 20) g");
    const id = newId();
    let p = plan(id, source, [{ schema_name: "public", table_name: "orders" }], { tableSyncWorkers: 3 });
    await replicated(target, p, service, "orders", 20, 30_000);
    expect(await sql(service, "SHOW max_sync_workers_per_subscription")).toEqual([{ max_sync_workers_per_subscription: "3" }]);
    // a row only the target has: a full re-sync empties the target before copying the source again
    await sql(service, "INSERT INTO orders VALUES (999, 0)");
    await sql(source, "CREATE PUBLICATION sales FOR TABLE orders");
    p = { ...p, tables: [{ schema_name: "public", table_name: "orders", publication_name: "sales" }] };
    await replicated(target, p, service, "orders", 20, 30_000);
    expect(await sql(service, "SELECT id FROM orders WHERE id = 999")).toEqual([]);
    expect((await sql<{ pubs: string[] }>(service, "SELECT subpublications AS pubs FROM pg_subscription WHERE subname = $1", [subscriptionName(id)]))[0]!.pubs.sort()).toEqual(
      [publicationName(id), "sales"].sort(),
    );
    await removeSrcDb(target, id, source);
    // the user's own publication stays
    expect(await sql(source, "SELECT pubname FROM pg_publication")).toEqual([{ pubname: "sales" }]);
  });

  it("uses an existing target as it is, pauses with enabled = false and resumes where it left off", async () => {
    const { source, service, target } = await databases();
    await sql(source, "CREATE TABLE events (id int PRIMARY KEY); INSERT INTO events SELECT generate_series(1, 10)");
    // rule 3: the target exists already, so hypertable_spec has no effect (the table stays as it is)
    await sql(service, "CREATE TABLE events (id int PRIMARY KEY)");
    const id = newId();
    const spec = { primary_dimension: { column_name: "id", partition_interval: "1d" } };
    const p = plan(id, source, [{ schema_name: "public", table_name: "events", hypertable_spec: spec }]);
    await replicated(target, p, service, "events", 10, 30_000);
    expect(await sql(service, "SELECT relkind FROM pg_class WHERE oid = 'events'::regclass")).toEqual([{ relkind: "r" }]);
    const paused = await applySrcDb(target, { ...p, enabled: false });
    expect(paused.status).toBe("paused");
    expect((await sql(service, "SELECT subenabled FROM pg_subscription WHERE subname = $1", [subscriptionName(id)]))[0]).toEqual({ subenabled: false });
    await sql(source, "INSERT INTO events VALUES (11)");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await applySrcDb(target, { ...p, enabled: false })).status).toBe("paused");
    expect((await sql<{ n: string }>(service, "SELECT count(*) AS n FROM events"))[0]!.n).toBe("10");
    await replicated(target, p, service, "events", 11, 15_000);
    await removeSrcDb(target, id, source);
  });

  it("removes the subscription, its slot and its publication, also when the service is stopped", async () => {
    const { source, service, target } = await databases();
    await sql(source, "CREATE TABLE readings (id int PRIMARY KEY); INSERT INTO readings VALUES (1)");
    const slots = () => sql(source, "SELECT slot_name FROM pg_replication_slots WHERE database = current_database()");
    const publications = () => sql(source, "SELECT pubname FROM pg_publication");

    const running = newId();
    await replicated(target, plan(running, source, [{ schema_name: "public", table_name: "readings" }]), service, "readings", 1, 30_000);
    expect(await slots()).toEqual([{ slot_name: subscriptionName(running) }]);
    expect(await publications()).toEqual([{ pubname: publicationName(running) }]);
    await removeSrcDb(target, running, source);
    expect(await slots()).toEqual([]);
    expect(await publications()).toEqual([]);
    expect(await sql(service, "SELECT subname FROM pg_subscription WHERE subdbid = (SELECT oid FROM pg_database WHERE datname = current_database())")).toEqual([]);
    expect((await sql<{ n: string }>(service, "SELECT count(*) AS n FROM readings"))[0]!.n).toBe("1");

    // the service's database unreachable (a stopped service): the source is cleaned directly
    const stopped = newId();
    await replicated(target, plan(stopped, source, [{ schema_name: "public", table_name: "readings" }]), service, "readings", 1, 30_000);
    await removeSrcDb({ ...target, port: 1 }, stopped, source);
    expect(await slots()).toEqual([]);
    expect(await publications()).toEqual([]);
    // when it runs again, removal also takes the subscription away
    await removeSrcDb(target, stopped, source);
    expect(await sql(service, "SELECT subname FROM pg_subscription WHERE subdbid = (SELECT oid FROM pg_database WHERE datname = current_database())")).toEqual([]);

    // a new connector onto a target that already holds the rows: the copy conflicts, and the status says what to do
    const again = newId();
    const conflicting = await until(
      "the conflicting copy reported",
      () => applySrcDb(target, plan(again, source, [{ schema_name: "public", table_name: "readings" }])),
      (o) => o.status === "error",
      30_000,
    );
    expect(conflicting.message).toMatch(/the initial copy of public\.readings keeps failing .*duplicate key/);
    await removeSrcDb(target, again, source);

    // a connector the agent no longer knows (deleted while its service was stopped) is swept
    const kept = newId();
    const orphan = newId();
    await sql(source, "CREATE TABLE meters (id int PRIMARY KEY); CREATE TABLE gauges (id int PRIMARY KEY); INSERT INTO gauges VALUES (1)");
    for (const [id, table] of [[kept, "meters"], [orphan, "gauges"]] as const) {
      // ok: every table ready, so the initial copy's table-sync slot is gone too
      await until(`${table} ready`, () => applySrcDb(target, plan(id, source, [{ schema_name: "public", table_name: table }])), (o) => o.status === "ok", 30_000);
    }
    expect(await sweepSrcDb(target, [kept])).toEqual([orphan]);
    expect(await slots()).toEqual([{ slot_name: subscriptionName(kept) }]);
    expect(await publications()).toEqual([{ pubname: publicationName(kept) }]);
    await removeSrcDb(target, kept, source);
  });

  it("reports an error when the source loses the subscription's replication slot", async () => {
    const { source, service, target } = await databases();
    await sql(source, "CREATE TABLE ticks (id int PRIMARY KEY); INSERT INTO ticks VALUES (1)");
    const id = newId();
    const p = plan(id, source, [{ schema_name: "public", table_name: "ticks" }]);
    await replicated(target, p, service, "ticks", 1, 30_000);
    expect((await applySrcDb(target, p)).status).toBe("ok");
    // someone drops the slot on the source (the apply worker reconnects within a second: retry until it is gone)
    await until(
      "the slot dropped",
      () =>
        sql<{ n: string }>(
          source,
          `SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = '${subscriptionName(id)}' AND active;
           SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '${subscriptionName(id)}' AND NOT active;
           SELECT count(*) AS n FROM pg_replication_slots WHERE slot_name = '${subscriptionName(id)}'`,
        ).catch(() => [{ n: "1" }]),
      (rows) => rows[0]!.n === "0",
      15_000,
    );
    const broken = await until("an error status", () => applySrcDb(target, p), (o) => o.status === "error", 15_000);
    expect(broken.message).toMatch(/replication slot schemaform_\w+ is missing on the source database/);
    await removeSrcDb(target, id, source);
    expect(await sql(service, "SELECT subname FROM pg_subscription WHERE subdbid = (SELECT oid FROM pg_database WHERE datname = current_database())")).toEqual([]);
  });

  it("reports what stops replication, without the connection string or its password", async () => {
    const { source, target } = await databases();
    const unreachable = "postgres://postgres:hunter2secret@127.0.0.1:1/nowhere";
    const down = await applySrcDb(target, plan(newId(), unreachable, [{ schema_name: "public", table_name: "x" }]));
    expect(down.status).toBe("error");
    expect(down.message).toMatch(/cannot connect to the source database/);
    expect(JSON.stringify(down)).not.toMatch(/hunter2secret/);

    const missing = await applySrcDb(target, plan(newId(), source, [{ schema_name: "public", table_name: "x", publication_name: "nope" }]));
    expect(missing).toMatchObject({ status: "error", message: expect.stringMatching(/publication nope does not exist on the source database/) });

    // a table without a replica identity is not published: UPDATE and DELETE on it would fail on the source
    await sql(source, "CREATE TABLE loose (v int)");
    const loose = await applySrcDb(target, plan(newId(), source, [{ schema_name: "public", table_name: "loose" }]));
    expect(loose).toMatchObject({ status: "error", message: expect.stringMatching(/public\.loose on the source database has no primary key or replica identity/) });
    expect(await sql(source, "SELECT * FROM pg_publication_tables")).toEqual([]);
    await sql(source, "UPDATE loose SET v = 1");

    const tunnel = await applySrcDb(target, plan(newId(), source, [{ schema_name: "public", table_name: "x" }], { sshTunnel: { name: "bastion", host: "bastion.example.com" } }));
    expect(tunnel).toMatchObject({ status: "error", message: expect.stringMatching(/SSH tunnels are not supported/) });
  });
});

describePostgres("object-store connector: files in a bucket directory", () => {
  let cluster: Cluster;
  let buckets: string;
  beforeAll(async () => {
    cluster = await startCluster();
    buckets = mkdtempSync(join(tmpdir(), "schemaform-buckets-"));
  });
  afterAll(() => {
    cluster?.stop();
    rmSync(buckets, { recursive: true, force: true });
  });

  /** Puts an object in a bucket, written a while ago (a fresh file waits a second to settle). */
  function put(bucket: string, key: string, content: string | ArrayBuffer, ageSeconds = 10): void {
    const path = join(buckets, bucket, key);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, typeof content === "string" ? content : Buffer.from(content));
    const when = new Date(Date.now() - ageSeconds * 1000);
    utimesSync(path, when, when);
  }

  function plan(bucket: string, more: Partial<ObjStorePlan> = {}): ObjStorePlan {
    return {
      id: newId(),
      serviceId: "svc",
      name: bucket,
      enabled: true,
      bucket,
      pattern: "*.csv",
      format: "CSV",
      csv: { delimiter: ",", skipHeader: false, autoColumnMapping: false },
      parquet: { autoColumnMapping: false },
      table: { schema: "public", name: "readings" },
      frequency: "@always",
      onConflictDoNothing: false,
      ...more,
    };
  }

  async function serviceDb(): Promise<{ url: string; target: AdminConnection }> {
    const url = await cluster.createDatabase();
    await sql(url, "CREATE TABLE readings (time timestamptz NOT NULL, sensor text NOT NULL, value double precision, PRIMARY KEY (time, sensor))");
    return { url, target: adminOf(url) };
  }

  const count = async (url: string) => Number((await sql<{ n: string }>(url, "SELECT count(*) AS n FROM readings"))[0]!.n);

  it("loads a CSV with a header, a delimiter and column mappings exactly once", async () => {
    const { url, target } = await serviceDb();
    put("csv-once", "exports/2026-11-27.csv", "ts;probe;reading;ignored\n2026-11-27T10:00:00Z;a;1.5;x\n2026-11-27T10:01:00Z;b;;y\n");
    put("csv-once", "exports/notes.txt", "not matched by the pattern");
    const p = plan("csv-once", {
      pattern: "exports/*.csv",
      csv: {
        delimiter: ";",
        skipHeader: true,
        autoColumnMapping: false,
        columnMappings: [
          { source: "ts", destination: "time" },
          { source: "probe", destination: "sensor" },
          { source: "reading", destination: "value" },
        ],
      },
    });
    const first = await runObjStore(target, p, buckets, new Date());
    expect(first).toMatchObject({ status: "ok", details: { loaded_this_tick: ["exports/2026-11-27.csv"], objects_loaded: 1, rows_loaded: 2 } });
    expect(await sql(url, "SELECT sensor, value FROM readings ORDER BY sensor")).toEqual([
      { sensor: "a", value: 1.5 },
      { sensor: "b", value: null },
    ]);
    const second = await runObjStore(target, p, buckets, new Date());
    expect(second.details).toMatchObject({ loaded_this_tick: [] });
    expect(await count(url)).toBe(2);
    expect(await sql(url, "SELECT object_key, rows, error FROM _schemaform.loaded_objects")).toEqual([{ object_key: "exports/2026-11-27.csv", rows: "2", error: null }]);
  });

  it("skips a header line of another width than the data, and still refuses data lines of uneven width", async () => {
    const { url, target } = await serviceDb();
    put("csv-title", "in/a.csv", "readings export\n2026-11-27T11:00:00Z;t1;4\n");
    const p = plan("csv-title", { pattern: "in/*.csv", csv: { delimiter: ";", skipHeader: true, autoColumnMapping: false, columnNames: ["time", "sensor", "value"] } });
    const first = await runObjStore(target, p, buckets, new Date());
    expect(first, first.message).toMatchObject({ status: "ok", details: { rows_loaded: 1 } });
    expect(await sql(url, "SELECT sensor, value FROM readings WHERE sensor = 't1'")).toEqual([{ sensor: "t1", value: 4 }]);
    put("csv-title", "in/b.csv", "title\n2026-11-27T12:00:00Z;t2;5\n2026-11-27T12:01:00Z;t3\n");
    const uneven = await runObjStore(target, p, buckets, new Date());
    expect(uneven.status).not.toBe("ok");
    expect(uneven.message).toContain("in/b.csv");
    expect(uneven.message).toContain("line 3 has 2 fields");
  });

  it("loads a Parquet file by column name", async () => {
    const { url, target } = await serviceDb();
    const file = parquetWriteBuffer({
      columnData: [
        { name: "time", data: [new Date("2026-11-27T08:00:00Z"), new Date("2026-11-27T09:00:00Z"), new Date("2026-11-27T10:00:00Z")], type: "TIMESTAMP" },
        { name: "sensor", data: ["p1", "p2", "p3"], type: "STRING" },
        { name: "value", data: [0.25, 0.5, 0.75], type: "DOUBLE" },
      ],
    });
    put("parquet-bucket", "day.parquet", file);
    const observed = await runObjStore(target, plan("parquet-bucket", { pattern: "*.parquet", format: "PARQUET", parquet: { autoColumnMapping: true } }), buckets, new Date());
    expect(observed).toMatchObject({ status: "ok", details: { rows_loaded: 3 } });
    expect(await sql(url, "SELECT to_char(time AT TIME ZONE 'UTC', 'HH24:MI') AS t, sensor, value FROM readings ORDER BY time")).toEqual([
      { t: "08:00", sensor: "p1", value: 0.25 },
      { t: "09:00", sensor: "p2", value: 0.5 },
      { t: "10:00", sensor: "p3", value: 0.75 },
    ]);
  });

  it("fails a malformed CSV alone, names it in the status, and retries it only when it changes", async () => {
    const { url, target } = await serviceDb();
    put("mixed", "a-good.csv", "2026-11-27T10:00:00Z,a,1\n2026-11-27T10:01:00Z,a,2\n");
    put("mixed", "b-bad.csv", "2026-11-27T11:00:00Z,b,1\n2026-11-27T11:01:00Z,b\n");
    put("mixed", "c-good.csv", "2026-11-27T12:00:00Z,c,1\n");
    const p = plan("mixed");
    const first = await runObjStore(target, p, buckets, new Date());
    expect(first.status).toBe("warning");
    expect(first.message).toMatch(/^object b-bad\.csv failed to load: .*Invalid Record Length/);
    expect(first.details).toMatchObject({ loaded_this_tick: ["a-good.csv", "c-good.csv"], failed_this_tick: [{ key: "b-bad.csv" }] });
    expect(await count(url)).toBe(3);
    // not retried while unchanged
    const again = await runObjStore(target, p, buckets, new Date());
    expect(again).toMatchObject({ status: "warning", details: { loaded_this_tick: [], failed_this_tick: [] } });
    // fixed: a new version loads, and the status clears
    put("mixed", "b-bad.csv", "2026-11-27T11:00:00Z,b,1\n2026-11-27T11:01:00Z,b,2\n", 5);
    const fixed = await runObjStore(target, p, buckets, new Date());
    expect(fixed).toMatchObject({ status: "ok", details: { loaded_this_tick: ["b-bad.csv"] } });
    expect(await count(url)).toBe(5);
  });

  it("honours on_conflict_do_nothing, and without it a conflicting file fails whole", async () => {
    const { url, target } = await serviceDb();
    put("conflicts", "1.csv", "time,sensor,value\n2026-11-27T10:00:00Z,a,1\n", 20);
    put("conflicts", "2.csv", "time,sensor,value\n2026-11-27T10:00:00Z,a,99\n2026-11-27T10:05:00Z,a,2\n", 10);
    const csv = { delimiter: ",", skipHeader: true, autoColumnMapping: true };
    const strict = await runObjStore(target, plan("conflicts", { csv }), buckets, new Date());
    expect(strict).toMatchObject({ status: "warning", message: expect.stringMatching(/^object 2\.csv failed to load: duplicate key value/) });
    expect(await count(url)).toBe(1);

    const other = await serviceDb();
    const lenient = await runObjStore(other.target, plan("conflicts", { csv, onConflictDoNothing: true }), buckets, new Date());
    expect(lenient).toMatchObject({ status: "ok", details: { objects_loaded: 2, rows_loaded: 2 } });
    expect(await sql(other.url, "SELECT value FROM readings ORDER BY time")).toEqual([{ value: 1 }, { value: 2 }]);
  });

  it("scans on its frequency, and waits for an object still being written", async () => {
    const { url, target } = await serviceDb();
    put("hourly", "1.csv", "2026-11-27T10:00:00Z,a,1\n");
    const p = plan("hourly", { frequency: "@hourly" });
    // ticks in an hour that has not begun yet: every object put() writes is older than each tick,
    // as on a real clock (a fixed date would fall behind the files' times once the day passes it)
    const hour = Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 3_600_000;
    const at = (minutes: number, seconds = 0) => new Date(hour + minutes * 60_000 + seconds * 1_000);
    expect((await runObjStore(target, p, buckets, at(20))).details).toMatchObject({ loaded_this_tick: ["1.csv"] });
    put("hourly", "2.csv", "2026-11-27T10:30:00Z,a,2\n");
    // same hour: no scan
    expect((await runObjStore(target, p, buckets, at(59, 59))).details).toMatchObject({ loaded_this_tick: [] });
    expect((await runObjStore(target, p, buckets, at(60, 1))).details).toMatchObject({ loaded_this_tick: ["2.csv"] });
    expect(await count(url)).toBe(2);

    // @always: an object written this instant waits until it has not changed for a second
    const always = plan("hourly");
    put("hourly", "3.csv", "2026-11-27T12:00:00Z,a,3\n", 0);
    const fresh = await runObjStore(target, { ...always, pattern: "3.csv" }, buckets, new Date());
    expect(fresh.details).toMatchObject({ loaded_this_tick: [] });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const settled = await runObjStore(target, { ...always, pattern: "3.csv" }, buckets, new Date());
    expect(settled.details).toMatchObject({ loaded_this_tick: ["3.csv"] });
  });

  it("reports a missing bucket or table as an error, and a disabled connector as paused", async () => {
    const { target } = await serviceDb();
    expect(await runObjStore(target, plan("no-such-bucket"), buckets, new Date())).toMatchObject({ status: "error", message: expect.stringMatching(/bucket no-such-bucket does not exist/) });
    put("tableless", "x.csv", "1\n");
    expect(await runObjStore(target, plan("tableless", { table: { schema: "public", name: "absent" } }), buckets, new Date())).toMatchObject({
      status: "error",
      message: expect.stringMatching(/table public\.absent does not exist in the service/),
    });
    expect((await runObjStore(target, plan("tableless", { enabled: false }), buckets, new Date())).status).toBe("paused");
  });
});
