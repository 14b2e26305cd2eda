// Two real PostgreSQL clusters for the connector engines: a "source" (the user's database, with
// wal_level = logical) and a "service" (what the data plane runs), with helpers to make a database
// on each and to poll until replication shows what a test waits for.

import pg from "pg";
import type { AdminConnection } from "../../platform/dataplane/driver.js";
import { startCluster, type Cluster } from "../platform/postgres-cluster.js";

export interface ConnectorClusters {
  source: Cluster;
  service: Cluster;
  stop(): void;
}

export async function startConnectorClusters(): Promise<ConnectorClusters> {
  const [source, service] = await Promise.all([
    startCluster({ settings: { wal_level: "logical", max_replication_slots: "20", max_wal_senders: "20" } }),
    // workers restart 1 s (not 5 s) after a failure, so that tests see recovery quickly
    startCluster({ settings: { max_logical_replication_workers: "8", max_worker_processes: "16", wal_retrieve_retry_interval: "1s" } }),
  ]);
  return {
    source,
    service,
    stop() {
      service.stop();
      source.stop();
    },
  };
}

/** The AdminConnection of a service database made by Cluster.createDatabase. */
export function adminOf(url: string): AdminConnection {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port), user: decodeURIComponent(u.username), database: u.pathname.slice(1) };
}

/** Runs one statement (or several, without parameters) on a database. */
export async function sql<T = Record<string, unknown>>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query(text, params);
    return (Array.isArray(result) ? result.at(-1)!.rows : result.rows) as T[];
  } finally {
    await client.end();
  }
}

/** Calls `step` every 300 ms until `done` holds of its result; the last result, or a timeout error. */
export async function until<T>(what: string, step: () => Promise<T>, done: (value: T) => boolean | Promise<boolean>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T;
  for (;;) {
    last = await step();
    if (await done(last)) return last;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}
