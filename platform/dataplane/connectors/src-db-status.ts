// The source-database connector's status, from what replication really does on the service:
// the subscription's workers (pg_stat_subscription), its error counters
// (pg_stat_subscription_stats) and each table's state (pg_subscription_rel). When the workers are
// not running or keep failing, the source is probed (at most every few seconds) for a cause a
// person can act on: unreachable, wal_level, a missing publication or replication slot.

import type { Client } from "pg";
import { errorText, type ConnectorObserved } from "./observed.js";
import { withSource } from "./sql.js";
import type { SrcDbPlan } from "./src-db.js";

interface Counters {
  apply: number;
  sync: number;
  firstSeen: number;
}

const counters = new Map<string, Counters>();
const probes = new Map<string, { at: number; cause?: string }>();

/** Workers start a moment after CREATE/ENABLE and restart 5 s after a failure (wal_retrieve_retry_interval). */
const STARTUP_GRACE_MS = 15_000;
const PROBE_EVERY_MS = 5_000;

const STATE_NAMES: Record<string, string> = { i: "initializing", d: "copying", f: "copied", s: "synchronized", r: "ready" };

export interface SubscriptionRef {
  oid: number;
  enabled: boolean;
}

export async function observeReplication(service: Client, plan: SrcDbPlan, sub: SubscriptionRef, publications: string[], slot: string): Promise<ConnectorObserved> {
  const workers = (
    await service.query(
      "SELECT pid, relid, received_lsn::text AS received, latest_end_lsn::text AS confirmed, last_msg_receipt_time AS last_message FROM pg_stat_subscription WHERE subid = $1",
      [sub.oid],
    )
  ).rows as Array<{ pid: number | null; relid: number | null; received: string | null; confirmed: string | null; last_message: Date | null }>;
  const stats = (await service.query("SELECT apply_error_count AS apply, sync_error_count AS sync FROM pg_stat_subscription_stats WHERE subid = $1", [sub.oid])).rows[0] as
    | { apply: string; sync: string }
    | undefined;
  const rels = (
    await service.query(
      "SELECT n.nspname AS schema, c.relname AS table, r.srsubstate AS state FROM pg_subscription_rel r JOIN pg_class c ON c.oid = r.srrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE r.srsubid = $1",
      [sub.oid],
    )
  ).rows as Array<{ schema: string; table: string; state: string }>;

  const now = Date.now();
  const apply = Number(stats?.apply ?? 0);
  const sync = Number(stats?.sync ?? 0);
  const before = counters.get(plan.id);
  counters.set(plan.id, { apply, sync, firstSeen: before?.firstSeen ?? now });
  const failures = before ? apply - before.apply + (sync - before.sync) : 0;
  const applyWorker = workers.find((w) => w.relid === null && w.pid !== null);
  const state = new Map(rels.map((r) => [`${r.schema}.${r.table}`, r.state]));
  const tables = plan.tables.map((t) => {
    const source = `${t.schema_name}.${t.table_name}`;
    const target = t.table_mapping ? `${t.table_mapping.schema_name}.${t.table_mapping.table_name}` : source;
    const s = state.get(source);
    return { source, target, state: s ? STATE_NAMES[s] ?? s : "not subscribed" };
  });
  const details: Record<string, unknown> = {
    tables,
    apply_errors: apply,
    sync_errors: sync,
    ...(applyWorker ? { received_lsn: applyWorker.received, confirmed_lsn: applyWorker.confirmed, last_message_at: applyWorker.last_message?.toISOString() } : {}),
  };

  if (!applyWorker || failures > 0) {
    const cause = await probeSource(plan, publications, slot, now);
    if (!cause && !applyWorker && now - (before?.firstSeen ?? now) < STARTUP_GRACE_MS) {
      return { status: "warning", message: "replication is starting", details };
    }
    const syncFailing = before !== undefined && sync > before.sync;
    const stuck = tables.filter((t) => t.state === "copying" || t.state === "initializing").map((t) => t.source);
    const what =
      cause ??
      (syncFailing && stuck.length
        ? `the initial copy of ${stuck.join(", ")} keeps failing (${sync} failed attempts); rows already in the target that conflict with the source's (a duplicate key) are the usual cause: empty the target table or map the table to a new one`
        : applyWorker
          ? `replication failed ${failures} time(s) since the last check`
          : "the replication worker is not running");
    return { status: "error", message: `${what}; the service's server log has the details of each failure`, details };
  }
  const missing = tables.filter((t) => t.state === "not subscribed");
  if (missing.length) {
    return {
      status: "warning",
      message: `${missing.map((t) => t.source).join(", ")} not replicated: the publication does not contain ${missing.length === 1 ? "it" : "them"} on the source database`,
      details,
    };
  }
  const copying = tables.filter((t) => t.state !== "ready" && t.state !== "synchronized");
  if (copying.length) {
    return { status: "warning", message: `initial copy in progress: ${tables.length - copying.length} of ${tables.length} tables copied`, details };
  }
  if (tables.length === 0) return { status: "warning", message: "no tables to replicate: add tables to the connector", details };
  return { status: "ok", message: `replicating ${tables.length} table${tables.length === 1 ? "" : "s"}`, details };
}

/** Why replication cannot work, seen from the source (undefined: nothing wrong found). Throttled. */
async function probeSource(plan: SrcDbPlan, publications: string[], slot: string, now: number): Promise<string | undefined> {
  const last = probes.get(plan.id);
  if (last && now - last.at < PROBE_EVERY_MS) return last.cause;
  let cause: string | undefined;
  try {
    cause = await withSource(plan.connectionString, async (source) => {
      const wal = (await source.query("SHOW wal_level")).rows[0].wal_level as string;
      if (wal !== "logical") return `the source database has wal_level = ${wal}; logical replication needs wal_level = logical`;
      const found = new Set((await source.query("SELECT pubname FROM pg_publication WHERE pubname = ANY($1)", [publications])).rows.map((r: { pubname: string }) => r.pubname));
      const gone = publications.filter((p) => !found.has(p));
      if (gone.length) return `publication ${gone.join(", ")} does not exist on the source database`;
      const slots = await source.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = $1", [slot]);
      if (slots.rowCount === 0) return `the replication slot ${slot} is missing on the source database (dropped there?): delete the connector and create it again`;
      return undefined;
    });
  } catch (error) {
    cause = errorText(error, [plan.connectionString]);
  }
  probes.set(plan.id, { at: now, cause });
  return cause;
}

/** Forgets what was counted for a connector (it was removed). */
export function forgetReplication(id: string): void {
  counters.delete(id);
  probes.delete(id);
}
