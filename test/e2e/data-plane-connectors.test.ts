// Connectors and exporters through real Terraform, against a real service of the data plane and a
// real source database (a PostgreSQL with wal_level = logical, as the user's would be): rows
// replicate into a range-partitioned table, a CSV dropped into the bucket directory is loaded, the
// pullmon endpoint serves Prometheus text behind Basic auth, and destroy leaves no replication
// slot on the source and nothing listening.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Suite, type Workspace } from "./support/harness.js";
import { listening, query, within, type Endpoint } from "./support/data-plane.js";
import { describePostgres, startCluster, type Cluster } from "../platform/postgres-cluster.js";
import { sql } from "../dataplane/connector-clusters.js";

const PROJECT = "dp-connectors";

describePostgres("connectors and exporters on the data plane", () => {
  let suite: Suite;
  let ws: Workspace;
  let source: Cluster;
  let sourceUrl: string;
  let db: Record<string, any>;
  let metrics: Record<string, any>;
  let main: Endpoint;

  function config(): Record<string, unknown> {
    return {
      terraform: { required_providers: { tsdb: { source: "schemaform/tsdb", version: "0.1.0" } } },
      provider: { tsdb: { project_id: PROJECT } },
      variable: { source_url: { type: "string", sensitive: true } },
      resource: {
        tsdb_metric_exporter: { scrape: { name: "scrape", region: "us-east-1", pullmon: { username: "scraper", password: "scrape-secret-1" } } },
        tsdb_service: { db: { name: "dp-connectors", region_code: "us-east-1", metric_exporter_id: "${tsdb_metric_exporter.scrape.id}" } },
        tsdb_connector_src_db: {
          orders: {
            service_id: "${tsdb_service.db.id}",
            display_name: "events from the source",
            connection_string: "${var.source_url}",
            tables: [{ schema_name: "public", table_name: "events", hypertable_spec: { primary_dimension: { column_name: "time", partition_interval: "1d" } } }],
          },
        },
        tsdb_connector_obj_store: {
          drops: {
            service_id: "${tsdb_service.db.id}",
            bucket: "drops",
            pattern: "incoming/*.csv",
            credentials: { type: "Public" },
            definition: { type: "CSV", csv: { delimiter: ",", skip_header: true, column_names: ["time", "device", "value"] } },
            table_identifier: { table_name: "readings" },
            frequency: "@always",
          },
        },
      },
    };
  }

  beforeAll(async () => {
    source = await startCluster({ settings: { wal_level: "logical", max_replication_slots: "10", max_wal_senders: "10" } });
    sourceUrl = await source.createDatabase();
    // 1,000 rows over ten days: the target's partitions must exist for all of them
    await sql(
      sourceUrl,
      `CREATE TABLE events (time timestamptz NOT NULL, device int NOT NULL, value double precision, PRIMARY KEY (time, device));
       INSERT INTO events SELECT now() - g * interval '15 minutes', g % 7, g FROM generate_series(1, 1000) g`,
    );
    suite = await Suite.create("data-plane-connectors");
    suite.env.SCHEMAFORM_DATA_PLANE = "on";
    suite.env.TF_VAR_source_url = sourceUrl;
    ws = suite.workspace("stack");
    ws.writeJson("main.tf.json", config());
    await ws.ok(["init", "-input=false"]);
    await ws.ok(["apply", "-auto-approve", "-input=false"]);
    const state = ws.state();
    db = state.get("tsdb_service.db")!;
    metrics = state.get("tsdb_metric_exporter.scrape")!;
    main = { host: db.hostname, port: db.port, password: db.password };
  }, 300_000);

  afterAll(async () => {
    if (suite) {
      process.stdout.write(`data-plane connectors: ${suite.summary()}\n`);
      if (ws && ws.state().size > 0) await ws.tf(["destroy", "-auto-approve", "-input=false"]);
      await suite.dispose();
    }
    source?.stop();
  }, 300_000);

  describe("connectors and exporters move data", () => {
    test("1,000 source rows are replicated within 30 s into a range-partitioned table, and a new row within 15 s", async () => {
      await within(30_000, "1,000 rows replicated", async () => {
        const [row] = await query<{ n: number }>(main, "select count(*)::int as n from events");
        return row!.n === 1000 ? true : undefined;
      });
      const [kind] = await query<{ relkind: string }>(main, "select relkind from pg_class where relname = 'events' and relnamespace = 'public'::regnamespace");
      expect(kind!.relkind).toBe("p"); // partitioned
      const [parts] = await query<{ n: number }>(main, "select count(*)::int as n from pg_inherits where inhparent = 'public.events'::regclass");
      expect(parts!.n).toBeGreaterThan(10);
      await sql(sourceUrl, "INSERT INTO events VALUES (now(), 99, 42.5)");
      await within(15_000, "the new row replicated", async () => ((await query(main, "select 1 from events where device = 99")).length === 1 ? true : undefined));
    });

    test("a CSV dropped into the bucket directory is loaded within 60 s", async () => {
      await query(main, "create table readings (time timestamptz not null, device int not null, value double precision, primary key (time, device))");
      const bucket = join(suite.dataDir, "buckets", "drops", "incoming");
      mkdirSync(bucket, { recursive: true });
      writeFileSync(join(bucket, "first.csv"), "time,device,value\n2026-11-27T10:00:00Z,1,1.5\n2026-11-27T10:01:00Z,2,2.5\n");
      await within(60_000, "the CSV loaded", async () => {
        const [row] = await query<{ n: number }>(main, "select count(*)::int as n from readings");
        return row!.n === 2 ? true : undefined;
      });
    });

    test("the pullmon endpoint answers 401 without credentials and Prometheus text with them", async () => {
      expect(metrics.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const anonymous = await within(30_000, "the endpoint answers", async () => await fetch(metrics.endpoint));
      expect(anonymous.status).toBe(401);
      const authorized = await fetch(metrics.endpoint, { headers: { authorization: `Basic ${Buffer.from("scraper:scrape-secret-1").toString("base64")}` } });
      expect(authorized.status).toBe(200);
      const text = await authorized.text();
      expect(text).toContain(`tsdb_up{service_id="${db.id}"} 1`);
      expect(text).toMatch(/# TYPE tsdb_database_size_bytes gauge/);
    });

    test("the connector's status comes from replication, and a second plan is clean", async () => {
      const state = (await ws.ok(["apply", "-refresh-only", "-auto-approve", "-input=false"]), ws.state());
      expect(state.get("tsdb_connector_src_db.orders")!.status).toBe("ok");
      const plan = await ws.tf(["plan", "-detailed-exitcode", "-input=false"]);
      expect(plan.code, plan.output).toBe(0);
    });

    test("after destroy no replication slot is left on the source and nothing listens", async () => {
      const [before] = await sql<{ n: string }>(sourceUrl, "select count(*) as n from pg_replication_slots");
      expect(Number(before!.n)).toBeGreaterThan(0);
      const port = Number(new URL(metrics.endpoint).port);
      await ws.ok(["destroy", "-auto-approve", "-input=false"]);
      expect(await sql(sourceUrl, "select slot_name from pg_replication_slots")).toEqual([]);
      expect(await sql(sourceUrl, "select pubname from pg_publication where pubname like 'schemaform%'")).toEqual([]);
      for (const p of [db.port, port]) expect(await listening(p), `port ${p}`).toBe(false);
    });
  });
});
