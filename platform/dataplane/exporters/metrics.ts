// The metrics every metric exporter delivers, read from a service's own statistics views, and
// their rendering in the Prometheus text exposition format 0.0.4 (what the pullmon endpoint
// serves). The metric sinks write the same samples as JSON lines (sinks.ts).
//
// One short-lived connection per collection: scrapes are seconds apart, and a pooled connection
// would show up in the very connection counts it reports.

import type { AdminConnection } from "../driver.js";

export interface MetricFamily {
  name: string;
  help: string;
  type: "gauge" | "counter";
}

export interface Sample {
  family: MetricFamily;
  labels: Record<string, string>;
  value: number;
}

/** The service whose metrics are collected; `id` labels every sample. */
export interface MetricsService {
  id: string;
  name: string;
}

export const FAMILIES = {
  up: { name: "tsdb_up", help: "1 when the service's database answered this collection, else 0.", type: "gauge" },
  info: { name: "tsdb_service_info", help: "The service's name (always 1).", type: "gauge" },
  connections: { name: "tsdb_connections", help: "Client connections by state (pg_stat_activity).", type: "gauge" },
  databaseSize: { name: "tsdb_database_size_bytes", help: "Size of each database on disk.", type: "gauge" },
  committed: { name: "tsdb_transactions_committed_total", help: "Transactions committed in each database (pg_stat_database).", type: "counter" },
  rolledBack: { name: "tsdb_transactions_rolled_back_total", help: "Transactions rolled back in each database (pg_stat_database).", type: "counter" },
  lagBytes: { name: "tsdb_replication_lag_bytes", help: "WAL bytes each standby has yet to replay (pg_stat_replication).", type: "gauge" },
  lagSeconds: { name: "tsdb_replication_lag_seconds", help: "Replay lag of each standby, in seconds (pg_stat_replication).", type: "gauge" },
} as const satisfies Record<string, MetricFamily>;

/** The states pg_stat_activity reports; each is a series even at 0, so that graphs do not gap. */
const CONNECTION_STATES = ["active", "idle", "idle in transaction", "idle in transaction (aborted)", "fastpath function call", "disabled"];

const CONNECT_TIMEOUT_MS = 3000;
const QUERY_TIMEOUT_MS = 5000;

/**
 * Samples of one service. A database that does not answer gives `tsdb_up 0` (and the info
 * sample), never an error: a scrape of several services must not fail because one is paused.
 */
export async function collectServiceMetrics(target: AdminConnection, service: MetricsService): Promise<Sample[]> {
  const base = { service_id: service.id };
  const samples: Sample[] = [{ family: FAMILIES.info, labels: { ...base, service_name: service.name }, value: 1 }];
  const pg = (await import("pg")).default;
  const client = new pg.Client({
    host: target.host,
    port: target.port,
    user: target.user,
    database: target.database,
    password: target.password,
    application_name: "schemaform-metrics",
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
  });
  // a server that goes away mid-collection emits 'error' on the client: handled by the query's rejection
  client.on("error", () => {});
  try {
    await client.connect();
    const measured = await readStatistics(client, base);
    samples.push({ family: FAMILIES.up, labels: base, value: 1 }, ...measured);
  } catch {
    samples.push({ family: FAMILIES.up, labels: base, value: 0 });
  } finally {
    await client.end().catch(() => {});
  }
  return samples;
}

interface Queryable {
  query<R extends Record<string, unknown>>(sql: string): Promise<{ rows: R[] }>;
}

async function readStatistics(client: Queryable, base: Record<string, string>): Promise<Sample[]> {
  const out: Sample[] = [];
  const activity = await client.query<{ state: string | null; n: string }>(
    // this collection's own connection is not the user's
    "SELECT state, count(*) AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() GROUP BY state",
  );
  const byState = new Map<string, number>(CONNECTION_STATES.map((s) => [s, 0]));
  for (const row of activity.rows) {
    const state = row.state ?? "unknown";
    byState.set(state, (byState.get(state) ?? 0) + Number(row.n));
  }
  for (const [state, n] of byState) out.push({ family: FAMILIES.connections, labels: { ...base, state }, value: n });

  const databases = await client.query<{ datname: string; size: string; committed: string; rolled_back: string }>(
    `SELECT d.datname, pg_database_size(d.oid) AS size, coalesce(s.xact_commit, 0) AS committed, coalesce(s.xact_rollback, 0) AS rolled_back
       FROM pg_database d LEFT JOIN pg_stat_database s ON s.datid = d.oid
      WHERE NOT d.datistemplate AND d.datallowconn ORDER BY d.datname`,
  );
  for (const row of databases.rows) {
    const labels = { ...base, database: row.datname };
    out.push({ family: FAMILIES.databaseSize, labels, value: Number(row.size) });
    out.push({ family: FAMILIES.committed, labels, value: Number(row.committed) });
    out.push({ family: FAMILIES.rolledBack, labels, value: Number(row.rolled_back) });
  }

  // A standby (a read replica service) has no WAL position of its own to measure lag against.
  const recovery = await client.query<{ standby: boolean }>("SELECT pg_is_in_recovery() AS standby");
  if (!recovery.rows[0]?.standby) {
    const standbys = await client.query<{ name: string; lag_bytes: string | null; lag_seconds: number | null }>(
      `SELECT coalesce(nullif(application_name, ''), pid::text) AS name,
              pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn) AS lag_bytes,
              extract(epoch FROM replay_lag)::float8 AS lag_seconds
         FROM pg_stat_replication ORDER BY 1`,
    );
    for (const row of standbys.rows) {
      const labels = { ...base, standby: row.name };
      // a standby that has replayed nothing yet has no replay_lsn, and no lag to report yet
      if (row.lag_bytes !== null) out.push({ family: FAMILIES.lagBytes, labels, value: Number(row.lag_bytes) });
      // replay_lag is NULL once the standby has caught up and nothing new was written
      out.push({ family: FAMILIES.lagSeconds, labels, value: row.lag_seconds ?? 0 });
    }
  }
  return out;
}

/** Content-Type of renderPrometheus's output. */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/**
 * Prometheus text format 0.0.4: per family one `# HELP` and one `# TYPE` line, then its samples
 * (families in order of first appearance, their samples grouped under them).
 */
export function renderPrometheus(samples: Sample[]): string {
  const families = new Map<string, { family: MetricFamily; lines: string[] }>();
  for (const sample of samples) {
    let entry = families.get(sample.family.name);
    if (!entry) families.set(sample.family.name, (entry = { family: sample.family, lines: [] }));
    entry.lines.push(`${sample.family.name}${renderLabels(sample.labels)} ${renderValue(sample.value)}`);
  }
  let text = "";
  for (const { family, lines } of families.values()) {
    text += `# HELP ${family.name} ${family.help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}\n`;
    text += `# TYPE ${family.name} ${family.type}\n`;
    text += lines.map((line) => `${line}\n`).join("");
  }
  return text;
}

function renderLabels(labels: Record<string, string>): string {
  const pairs = Object.entries(labels).map(([name, value]) => `${name}="${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`);
  return pairs.length ? `{${pairs.join(",")}}` : "";
}

function renderValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}
