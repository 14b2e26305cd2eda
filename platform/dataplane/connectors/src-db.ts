// The source-database connector's engine: logical replication from the user's database (the
// connector's `connection_string`) into the service, made real on each agent tick.
//
// On the source: a publication `schemaform_<id>` (the connector's own, holding the listed tables
// that name no `publication_name`) and the subscription's replication slot. On the service: the
// subscription `schemaform_<id>` (slot of the same name) over that publication and every named
// one, target tables created from the source's catalog (src-db-tables.ts), partitions kept ahead
// (partitions.ts), and the ledger of what was set up (`_schemaform.src_db_tables`), which is what
// a changed table entry is compared against: a changed `table_mapping` or `publication_name` takes
// the table out of the subscription and puts it back, so it is copied again in full (rule 2).
// `table_sync_workers` is the service's `max_sync_workers_per_subscription` (the largest of its
// connectors', set with ALTER SYSTEM and a reload); the service's max_logical_replication_workers
// bounds it.
//
// SSH tunnels are refused: the local data plane has no bastion to reach, so a connector with
// `ssh_tunnel` reports status `error` and replicates nothing.

import { createHash } from "node:crypto";
import type { Client } from "pg";
import type { AdminConnection } from "../driver.js";
import type { HypertableSpec, SrcDbConnector, SrcDbTable } from "../../types.js";
import { ensureLedger } from "./ledger.js";
import { errorText, type ConnectorObserved } from "./observed.js";
import { keepPartitionsAhead, type TimeType } from "./partitions.js";
import { compactId, connectService, ident, literal, qualified, withService, withSource } from "./sql.js";
import { checkPublishable, ConnectorProblem, dropLanding, ensureLanding, ensureTarget, readSourceTable, tableExists } from "./src-db-tables.js";
import { forgetReplication, observeReplication } from "./src-db-status.js";

export interface SrcDbPlan {
  /** the connector id (UUID): names the publication, subscription and slot */
  id: string;
  serviceId: string;
  enabled: boolean;
  /** decrypted; never logged or reported */
  connectionString: string;
  /** tables as stored (schema_name, table_name, publication_name, table_mapping, hypertable_spec) */
  tables: SrcDbTable[];
  /** 1-64, default 4: the service's max_sync_workers_per_subscription (the largest of its connectors') */
  tableSyncWorkers?: number;
  /** set when the connector asks for an SSH tunnel: refused by this engine (status error) */
  sshTunnel?: { name: string; host?: string; port?: number; username?: string };
}

const DEFAULT_SYNC_WORKERS = 4;

export function srcDbPlanFrom(body: SrcDbConnector, connectionString: string): SrcDbPlan {
  return {
    id: body.id,
    serviceId: body.service_id,
    enabled: body.enabled,
    connectionString,
    tables: body.tables ?? [],
    tableSyncWorkers: body.table_sync_workers ?? DEFAULT_SYNC_WORKERS,
    sshTunnel: body.ssh_tunnel ? { name: body.ssh_tunnel.name, host: body.ssh_tunnel.host, port: body.ssh_tunnel.port, username: body.ssh_tunnel.username } : undefined,
  };
}

/** The subscription's (and its replication slot's) name. */
export function subscriptionName(id: string): string {
  return `schemaform_${compactId(id)}`;
}

/** The publication the connector creates on the source for tables that name none. */
export function publicationName(id: string): string {
  return `schemaform_${compactId(id)}`;
}

export const SSH_TUNNEL_REFUSED =
  "SSH tunnels are not supported by the local data plane (there is no bastion to reach from this machine): remove ssh_tunnel and give a connection_string the service can reach directly";

interface LedgerRow {
  source_schema: string;
  source_table: string;
  target_schema: string;
  target_table: string;
  publication: string;
  created_target: boolean;
  partition_column_type: TimeType | null;
  hypertable_spec: HypertableSpec | null;
}

interface Wanted {
  sourceSchema: string;
  sourceTable: string;
  targetSchema: string;
  targetTable: string;
  publication: string;
  spec?: HypertableSpec;
}

function wantedTables(plan: SrcDbPlan): Wanted[] {
  return plan.tables.map((t) => ({
    sourceSchema: t.schema_name,
    sourceTable: t.table_name,
    targetSchema: t.table_mapping?.schema_name ?? t.schema_name,
    targetTable: t.table_mapping?.table_name ?? t.table_name,
    publication: t.publication_name ?? publicationName(plan.id),
    spec: t.hypertable_spec,
  }));
}

const sourceKey = (schema: string, table: string) => `${schema}\u0000${table}`;
const isMapped = (w: Wanted) => w.sourceSchema !== w.targetSchema || w.sourceTable !== w.targetTable;
const wasMapped = (r: LedgerRow) => r.source_schema !== r.target_schema || r.source_table !== r.target_table;

async function forget(service: Client, id: string, key: string): Promise<void> {
  const [schema, table] = key.split("\u0000") as [string, string];
  await service.query("DELETE FROM _schemaform.src_db_tables WHERE connector_id = $1 AND source_schema = $2 AND source_table = $3", [id, schema, table]);
}

/** What the engine last made real per connector (this process): a tick with the same plan skips the source. */
const reconciled = new Map<string, string>();

function planKey(plan: SrcDbPlan): string {
  return createHash("sha256").update(JSON.stringify([plan.connectionString, plan.tables, plan.tableSyncWorkers])).digest("hex");
}

interface Subscription {
  oid: number;
  enabled: boolean;
  conninfo: string;
  publications: string[];
}

async function readSubscription(service: Client, name: string): Promise<Subscription | undefined> {
  const { rows } = await service.query(
    "SELECT oid, subenabled AS enabled, subconninfo AS conninfo, subpublications AS publications FROM pg_subscription WHERE subname = $1 AND subdbid = (SELECT oid FROM pg_database WHERE datname = current_database())",
    [name],
  );
  return rows[0] as Subscription | undefined;
}

/** Subscribed relations (on the service) by their schema-qualified name. */
async function subscribedRelations(service: Client, oid: number): Promise<Set<string>> {
  const { rows } = await service.query(
    "SELECT n.nspname AS schema, c.relname AS table FROM pg_subscription_rel r JOIN pg_class c ON c.oid = r.srrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE r.srsubid = $1",
    [oid],
  );
  return new Set(rows.map((r: { schema: string; table: string }) => sourceKey(r.schema, r.table)));
}

/** Statements carry the connection string: keep them out of the service's server log. */
async function quietLog(service: Client): Promise<void> {
  await service.query("SET log_min_error_statement = PANIC; SET log_statement = 'none'; SET log_min_duration_statement = -1");
}

/** A failed set-up is retried at most this often (each attempt connects to the user's database). */
const RETRY_FAILED_MS = 5_000;
const failures = new Map<string, { key: string; at: number; message: string }>();

export async function applySrcDb(target: AdminConnection, plan: SrcDbPlan): Promise<ConnectorObserved> {
  const secrets = [plan.connectionString];
  let service: Client;
  try {
    service = await connectService(target);
  } catch (error) {
    return { status: "error", message: `cannot reach the service's database: ${errorText(error, secrets)}` };
  }
  try {
    await quietLog(service);
    await ensureLedger(service);
    const name = subscriptionName(plan.id);
    let sub = await readSubscription(service, name);
    if (sub) knownOids.set(plan.id, sub.oid);
    if (!plan.enabled || plan.sshTunnel) {
      if (sub?.enabled) await service.query(`ALTER SUBSCRIPTION ${ident(name)} DISABLE`);
      reconciled.delete(plan.id);
      forgetReplication(plan.id);
      if (!plan.enabled) {
        return { status: "paused", message: sub ? "replication is paused (enabled = false); the replication slot on the source keeps its WAL until it resumes" : "not started (enabled = false)" };
      }
      return { status: "error", message: SSH_TUNNEL_REFUSED };
    }
    if (plan.tables.length === 0 && !sub) return { status: "warning", message: "no tables to replicate: add tables to the connector" };
    const key = planKey(plan);
    if (!sub || !sub.enabled || reconciled.get(plan.id) !== key) {
      const failed = failures.get(plan.id);
      if (failed && failed.key === key && Date.now() - failed.at < RETRY_FAILED_MS) return { status: "error", message: failed.message };
      try {
        await reconcile(service, plan, sub);
        failures.delete(plan.id);
      } catch (error) {
        reconciled.delete(plan.id);
        const message = errorText(error, secrets);
        failures.set(plan.id, { key, at: Date.now(), message });
        return { status: "error", message };
      }
      reconciled.set(plan.id, key);
      sub = await readSubscription(service, name);
      if (sub) knownOids.set(plan.id, sub.oid);
    }
    const observed = await observeReplication(service, plan, sub!, sub!.publications, name);
    try {
      const upkeep = await keepTargetsPartitioned(service, plan.id, new Date());
      if (upkeep.length) observed.details = { ...observed.details, partitions: upkeep };
    } catch (error) {
      // a busy table (lock timeout) is kept ahead on a later tick; anything else is worth a warning
      if ((error as { code?: string }).code !== "55P03" && observed.status === "ok") {
        return { ...observed, status: "warning", message: `partitions could not be kept ahead: ${errorText(error, secrets)}` };
      }
    }
    return observed;
  } catch (error) {
    return { status: "error", message: `replication could not be checked: ${errorText(error, secrets)}` };
  } finally {
    await service.end().catch(() => {});
  }
}

/** Partition upkeep of every partitioned target this connector created. */
async function keepTargetsPartitioned(service: Client, id: string, now: Date): Promise<Array<Record<string, unknown>>> {
  const { rows } = await service.query(
    "SELECT target_schema, target_table, partition_column_type, hypertable_spec FROM _schemaform.src_db_tables WHERE connector_id = $1 AND created_target AND hypertable_spec IS NOT NULL",
    [id],
  );
  const out: Array<Record<string, unknown>> = [];
  for (const row of rows as LedgerRow[]) {
    const done = await keepPartitionsAhead(service, row.target_schema, row.target_table, row.hypertable_spec!, row.partition_column_type!, now);
    if (done.created) out.push({ table: `${row.target_schema}.${row.target_table}`, ...done });
  }
  return out;
}

/** Makes the source, the subscription and the targets match the plan (needs the source). */
async function reconcile(service: Client, plan: SrcDbPlan, sub: Subscription | undefined): Promise<void> {
  const ourPublication = publicationName(plan.id);
  const name = subscriptionName(plan.id);
  const wanted = wantedTables(plan);
  await withSource(plan.connectionString, async (source) => {
    const wal = (await source.query("SHOW wal_level")).rows[0].wal_level as string;
    if (wal !== "logical") {
      throw new ConnectorProblem(`the source database has wal_level = ${wal}; logical replication needs wal_level = logical (ALTER SYSTEM SET wal_level = logical on the source, then restart it)`);
    }
    for (const pub of new Set(wanted.map((w) => w.publication).filter((p) => p !== ourPublication))) {
      const found = await source.query("SELECT 1 FROM pg_publication WHERE pubname = $1", [pub]);
      if (found.rowCount === 0) throw new ConnectorProblem(`publication ${pub} does not exist on the source database: create it there (CREATE PUBLICATION ${pub} FOR TABLE …) or omit publication_name`);
    }
    if ((await source.query("SELECT 1 FROM pg_publication WHERE pubname = $1", [ourPublication])).rowCount === 0) {
      await source.query(`CREATE PUBLICATION ${ident(ourPublication)}`);
    }
    const inOurs = new Set(
      (await source.query("SELECT schemaname, tablename FROM pg_publication_tables WHERE pubname = $1", [ourPublication])).rows.map((r: { schemaname: string; tablename: string }) =>
        sourceKey(r.schemaname, r.tablename),
      ),
    );
    const recorded = new Map(
      ((await service.query("SELECT * FROM _schemaform.src_db_tables WHERE connector_id = $1", [plan.id])).rows as LedgerRow[]).map((r) => [sourceKey(r.source_schema, r.source_table), r]),
    );
    const wantedKeys = new Map(wanted.map((w) => [sourceKey(w.sourceSchema, w.sourceTable), w]));
    const removed = [...recorded.entries()].filter(([k]) => !wantedKeys.has(k)).map(([, r]) => r);
    const changed = wanted.filter((w) => {
      const r = recorded.get(sourceKey(w.sourceSchema, w.sourceTable));
      return r && (r.target_schema !== w.targetSchema || r.target_table !== w.targetTable || r.publication !== w.publication);
    });

    // tables this connector filled under their own name: such a table may become a landing table
    const formerTargets = new Set([...recorded.entries()].filter(([, r]) => !wasMapped(r)).map(([k]) => k));

    // Phase 1 (rule 2): take changed and removed tables out of the subscription.
    if (sub && (changed.length || removed.length)) {
      const leaving = new Set([...changed.map((w) => sourceKey(w.sourceSchema, w.sourceTable)), ...removed.map((r) => sourceKey(r.source_schema, r.source_table))]);
      for (const k of leaving) {
        if (inOurs.has(k)) {
          const [s, t] = k.split("\u0000") as [string, string];
          await source.query(`ALTER PUBLICATION ${ident(ourPublication)} DROP TABLE ${qualified(s, t)}`);
          inOurs.delete(k);
        }
      }
      // a named publication that holds a changed table is left out until phase 2, so that the table leaves
      const holding = new Set<string>();
      for (const w of changed) {
        const r = recorded.get(sourceKey(w.sourceSchema, w.sourceTable))!;
        if (r.publication !== ourPublication) holding.add(r.publication);
      }
      const interim = [...new Set([ourPublication, ...wanted.filter((w) => !changed.includes(w)).map((w) => w.publication)])].filter((p) => !holding.has(p) || p === ourPublication);
      const before = await subscribedRelations(service, sub.oid);
      await service.query(`ALTER SUBSCRIPTION ${ident(name)} SET PUBLICATION ${interim.map(ident).join(", ")} WITH (refresh = true, copy_data = false)`);
      const after = await subscribedRelations(service, sub.oid);
      // every relation that left and comes back is copied in full: empty what the connector filled
      // and set it up again in phase 2
      for (const k of before) {
        const w = wantedKeys.get(k);
        const r = recorded.get(k);
        if (after.has(k) || !w || !r) continue;
        if (wasMapped(r)) await dropLanding(service, plan.id, r.source_schema, r.source_table);
        const refill = (r.target_schema === w.targetSchema && r.target_table === w.targetTable) || (wasMapped(r) && !isMapped(w));
        if (refill && (await tableExists(service, w.targetSchema, w.targetTable))) await service.query(`TRUNCATE ${qualified(w.targetSchema, w.targetTable)}`);
        await forget(service, plan.id, k);
        recorded.delete(k);
      }
    }
    // a changed table that did not leave (another subscribed publication holds it, or there is no
    // subscription yet) is set up again for its new target in phase 2
    if (changed.length || removed.length) {
      for (const w of changed) {
        const k = sourceKey(w.sourceSchema, w.sourceTable);
        const r = recorded.get(k);
        if (!r) continue;
        if (wasMapped(r)) await dropLanding(service, plan.id, r.source_schema, r.source_table);
        await forget(service, plan.id, k);
        recorded.delete(k);
      }
      for (const r of removed) {
        if (wasMapped(r)) await dropLanding(service, plan.id, r.source_schema, r.source_table);
        await forget(service, plan.id, sourceKey(r.source_schema, r.source_table));
      }
    }

    // Phase 2: targets and publication membership of tables not set up yet.
    const now = new Date();
    for (const w of wanted) {
      const k = sourceKey(w.sourceSchema, w.sourceTable);
      if (recorded.has(k)) continue;
      const desc = await readSourceTable(source, w.sourceSchema, w.sourceTable);
      if (w.publication === ourPublication) checkPublishable(desc);
      const made = await ensureTarget(service, source, desc, w.targetSchema, w.targetTable, w.spec, now);
      if (isMapped(w)) await ensureLanding(service, plan.id, desc, w.targetSchema, w.targetTable, formerTargets.has(k));
      if (w.publication === ourPublication && !inOurs.has(k)) {
        await source.query(`ALTER PUBLICATION ${ident(ourPublication)} ADD TABLE ${qualified(w.sourceSchema, w.sourceTable)}`);
        inOurs.add(k);
      }
      await service.query(
        `INSERT INTO _schemaform.src_db_tables (connector_id, source_schema, source_table, target_schema, target_table, publication, created_target, partition_column_type, hypertable_spec)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [plan.id, w.sourceSchema, w.sourceTable, w.targetSchema, w.targetTable, w.publication, made.created, made.partitionType ?? null, made.partitionType && w.spec ? JSON.stringify(w.spec) : null],
      );
    }
    // tables in our publication that no entry wants any more (left by an interrupted tick)
    for (const k of inOurs) {
      const w = wantedKeys.get(k);
      if (w && w.publication === ourPublication) continue;
      const [s, t] = k.split("\u0000") as [string, string];
      await source.query(`ALTER PUBLICATION ${ident(ourPublication)} DROP TABLE ${qualified(s, t)}`);
    }

    await setSyncWorkers(service, plan);
    const publications = [...new Set([ourPublication, ...wanted.map((w) => w.publication)])];
    if (!sub) {
      // a slot of this name is the connector's own, left by a CREATE SUBSCRIPTION that did not finish
      await source.query("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1 AND NOT active", [name]);
      await service.query(
        `CREATE SUBSCRIPTION ${ident(name)} CONNECTION ${literal(plan.connectionString)} PUBLICATION ${publications.map(ident).join(", ")} WITH (slot_name = ${literal(name)}, copy_data = true)`,
      );
      return;
    }
    if (sub.conninfo !== plan.connectionString) await service.query(`ALTER SUBSCRIPTION ${ident(name)} CONNECTION ${literal(plan.connectionString)}`);
    if (!sub.enabled) await service.query(`ALTER SUBSCRIPTION ${ident(name)} ENABLE`);
    await service.query(`ALTER SUBSCRIPTION ${ident(name)} SET PUBLICATION ${publications.map(ident).join(", ")} WITH (refresh = true, copy_data = true)`);
  });
}

/** The service's max_sync_workers_per_subscription: the largest table_sync_workers of its connectors. */
async function setSyncWorkers(service: Client, plan: SrcDbPlan): Promise<void> {
  await service.query(
    "INSERT INTO _schemaform.src_db_connectors (connector_id, table_sync_workers) VALUES ($1, $2) ON CONFLICT (connector_id) DO UPDATE SET table_sync_workers = EXCLUDED.table_sync_workers",
    [plan.id, plan.tableSyncWorkers ?? DEFAULT_SYNC_WORKERS],
  );
  await applySyncWorkers(service);
}

async function applySyncWorkers(service: Client): Promise<void> {
  const wanted = Number((await service.query("SELECT coalesce(max(table_sync_workers), 2) AS n FROM _schemaform.src_db_connectors")).rows[0].n);
  const current = Number((await service.query("SHOW max_sync_workers_per_subscription")).rows[0].max_sync_workers_per_subscription);
  if (current === wanted) return;
  await service.query(`ALTER SYSTEM SET max_sync_workers_per_subscription = ${wanted}`);
  await service.query("SELECT pg_reload_conf()");
}

/** Subscription oids seen by this process, for the sync slots a stopped service cannot drop itself. */
const knownOids = new Map<string, number>();

/**
 * Removes the connector's replication: the subscription on the service (when it runs), and on the
 * source its replication slot, table-sync slots and the publication the connector created. Target
 * tables are kept; landing tables of mapped tables are dropped. Throws (without secrets) when the
 * source cannot be reached, so that the caller retries: a slot left on the source keeps its WAL.
 */
export async function removeSrcDb(target: AdminConnection, id: string, connectionString: string): Promise<void> {
  const secrets = [connectionString];
  const name = subscriptionName(id);
  try {
    await withService(target, async (service) => {
      await quietLog(service);
      const sub = await readSubscription(service, name);
      if (sub) {
        knownOids.set(id, sub.oid);
        try {
          await service.query(`DROP SUBSCRIPTION ${ident(name)}`);
        } catch {
          // the source is out of reach: detach the slot here and drop it below, once reachable
          await service.query(`ALTER SUBSCRIPTION ${ident(name)} DISABLE`);
          await service.query(`ALTER SUBSCRIPTION ${ident(name)} SET (slot_name = NONE)`);
          await service.query(`DROP SUBSCRIPTION ${ident(name)}`);
        }
      }
      if ((await service.query("SELECT to_regclass('_schemaform.src_db_tables') IS NOT NULL AS ok")).rows[0].ok) {
        const { rows } = await service.query("SELECT * FROM _schemaform.src_db_tables WHERE connector_id = $1", [id]);
        for (const r of rows as LedgerRow[]) if (wasMapped(r)) await dropLanding(service, id, r.source_schema, r.source_table);
        await service.query("DELETE FROM _schemaform.src_db_tables WHERE connector_id = $1", [id]);
        await service.query("DELETE FROM _schemaform.src_db_connectors WHERE connector_id = $1", [id]);
        await applySyncWorkers(service);
      }
    });
  } catch {
    // the service is stopped or gone: the source is cleaned directly below
  }
  reconciled.delete(id);
  failures.delete(id);
  forgetReplication(id);
  try {
    await withSource(connectionString, async (source) => {
      const oid = knownOids.get(id);
      const slots = `slot_name = $1${oid === undefined ? "" : " OR slot_name LIKE $2"}`;
      const params = oid === undefined ? [name] : [name, `pg\\_${oid}\\_sync\\_%`];
      await source.query(`SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE active AND (${slots})`, params);
      // a terminated walsender releases its slot a moment later
      for (let attempt = 0; ; attempt++) {
        const left = await source.query(`SELECT slot_name, active FROM pg_replication_slots WHERE ${slots}`, params);
        if (left.rowCount === 0) break;
        for (const slot of left.rows as Array<{ slot_name: string; active: boolean }>) {
          if (!slot.active) await source.query("SELECT pg_drop_replication_slot($1)", [slot.slot_name]).catch(() => {});
        }
        if (attempt >= 50) throw new Error(`replication slot ${name} on the source database is still in use`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await source.query(`DROP PUBLICATION IF EXISTS ${ident(publicationName(id))}`);
    });
  } catch (error) {
    throw new Error(`source database connector ${id}: cannot remove its replication slot and publication from the source database: ${errorText(error, secrets)}`);
  }
  knownOids.delete(id);
}

/** The connector id (UUID) a subscription name stands for, when it is one of this engine's. */
function connectorIdOf(subscription: string): string | undefined {
  const hex = /^schemaform_([0-9a-f]{32})$/.exec(subscription)?.[1];
  return hex && `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Removes the replication of every connector of this service's database that is not in `keep`
 * (connectors deleted while the service was stopped): the source is reached through the
 * connection string the subscription itself holds. Returns the ids removed.
 */
export async function sweepSrcDb(target: AdminConnection, keep: string[]): Promise<string[]> {
  const kept = new Set(keep.map((id) => compactId(id)));
  const found = await withService(target, async (service) => {
    const { rows } = await service.query(
      "SELECT subname, subconninfo FROM pg_subscription WHERE subdbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND subname LIKE 'schemaform\\_%'",
    );
    return rows as Array<{ subname: string; subconninfo: string }>;
  });
  const removed: string[] = [];
  for (const { subname, subconninfo } of found) {
    const id = connectorIdOf(subname);
    if (!id || kept.has(compactId(id))) continue;
    await removeSrcDb(target, id, subconninfo);
    removed.push(id);
  }
  return removed;
}
