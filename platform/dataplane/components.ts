// The connectors and exporters the agent runs beside the services (agent.ts ComponentRunner), on
// this machine: each pass reads the stored connectors and exporters, builds their plans (secrets
// decrypted with the data directory's key, in memory only), runs the engines of connectors/ and
// exporters/ against the admin connections of the services that run as planned, and records each
// one's status in dataplane_components (what `platform status` and the connectors' `status` show).
//
// A source-database connector holds things on the user's database (a replication slot, a
// publication). So that deleting it, or its service, leaves nothing there, its component row keeps
// its connection string sealed (`cleanup`) while it runs: a connector no longer stored is removed
// with it (removeSrcDb), and its row goes only once that succeeded; the delete waits for that.

import { join } from "node:path";
import type { SecretBox } from "../secrets.js";
import type { Storage } from "../storage.js";
import type { ObjStoreConnector, SrcDbConnector } from "../types.js";
import type { ComponentRunner } from "./agent.js";
import { applySrcDb, removeSrcDb, srcDbPlanFrom } from "./connectors/src-db.js";
import { objStorePlanFrom, runObjStore } from "./connectors/obj-store.js";
import { withService } from "./connectors/sql.js";
import type { AdminConnection, DataPlaneDriver } from "./driver.js";
import { LogShippers, type LogShipment } from "./exporters/log-sink.js";
import { PullmonServers, type PullmonExporter } from "./exporters/pullmon.js";
import { MetricSinks, type MetricSinkExporter } from "./exporters/sinks.js";
import { readComponents, writeComponent, type ComponentStatus } from "./observed.js";

export interface ComponentsOptions {
  store: Storage;
  box: SecretBox;
  driver: DataPlaneDriver;
  dataDir: string;
  log?: (line: string) => void;
}

interface ConnectorRow {
  id: string;
  service_id: string;
  kind: "src_db" | "obj_store";
  spec: string;
  secrets: string | null;
}

interface ExporterRow {
  id: string;
  kind: "log" | "metric";
  spec: string;
  secrets: string | null;
}

interface ServiceRow {
  id: string;
  spec: string;
  created: string;
  log_exporter_id: string | null;
  metric_exporter_id: string | null;
}

interface ExporterSpec {
  name: string;
  type: "cloudmon" | "saasmon" | "pullmon";
  config: Record<string, unknown>;
  ports?: { metrics: number };
}

/** The service's user (core/services.ts SERVICE_USERNAME). */
const SERVICE_USER = "tsdbadmin";
const SECRET_OF = { cloudmon: "secret_key", saasmon: "api_key", pullmon: "password" } as const;

/** Where buckets are: SCHEMAFORM_BUCKETS_DIR, else <data dir>/buckets (a bucket is a directory). */
export function bucketsDir(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.SCHEMAFORM_BUCKETS_DIR?.trim() ? env.SCHEMAFORM_BUCKETS_DIR : join(dataDir, "buckets");
}

export function createLocalComponents(options: ComponentsOptions): ComponentRunner {
  const { store, box, driver, dataDir } = options;
  const log = options.log ?? (() => {});
  const pullmon = new PullmonServers();
  const sinks = new MetricSinks({ dataDir });
  const shippers = new LogShippers({ dataDir });
  const now = () => new Date().toISOString();
  /** last status written per component, to write only changes (and a heartbeat now and then) */
  const written = new Map<string, { key: string; at: number }>();
  /** source-database connectors that have reached their source (ok, warning or paused once) */
  const reachedOnce = new Set<string>();

  async function record(c: Omit<ComponentStatus, "updated">, cleanup?: string | null): Promise<void> {
    const key = `${c.status}|${c.message ?? ""}|${cleanup === undefined ? "" : "c"}`;
    // (a sealed value differs each time: compare the status, not the ciphertext)
    const last = written.get(c.id);
    if (last && last.key === key && Date.now() - last.at < 30_000) return;
    written.set(c.id, { key, at: Date.now() });
    await store.write(async (tx) => {
      await writeComponent(tx, { ...c, updated: now() });
      if (cleanup !== undefined) await tx.run("UPDATE dataplane_components SET cleanup = ? WHERE id = ?", cleanup, c.id);
    });
  }

  async function forget(id: string): Promise<void> {
    written.delete(id);
    await store.write((tx) => tx.run("DELETE FROM dataplane_components WHERE id = ?", id));
  }

  const target = (serviceId: string): AdminConnection => driver.adminConnection(serviceId);

  /**
   * What the connectors make in a service (target tables, their partitions, mapped schemas) is
   * made by the platform's superuser; the user is tsdbadmin and must be able to use it: default
   * privileges, set once per service and agent run before its first connector runs.
   */
  const granted = new Set<string>();
  async function grantToUser(serviceId: string): Promise<void> {
    if (granted.has(serviceId)) return;
    await withService(target(serviceId), async (client) => {
      for (const what of ["ALL ON TABLES", "ALL ON SEQUENCES", "USAGE, CREATE ON SCHEMAS"]) {
        await client.query(`ALTER DEFAULT PRIVILEGES FOR ROLE CURRENT_USER GRANT ${what} TO ${SERVICE_USER}`);
      }
    });
    granted.add(serviceId);
  }

  /** Removes a source-database connector that is no longer stored, from its sealed cleanup data. */
  async function removeGone(c: { id: string; service_id: string | null; cleanup: string | null }): Promise<void> {
    if (c.cleanup && c.service_id) {
      const { connection_string: cs, tentative } = box.open(c.cleanup, `dataplane:${c.id}`) as { connection_string?: string; tentative?: boolean };
      try {
        if (typeof cs === "string") await removeSrcDb(target(c.service_id), c.id, cs);
      } catch (error) {
        if (!tentative) throw error;
        log(`${now()} connector ${c.id}: never reached its source; nothing to remove there`);
      }
    }
    await forget(c.id);
    log(`${now()} connector ${c.id}: removed`);
  }

  return {
    async tick(running) {
      const { connectors, exporters, services, attachments, components } = await store.read(async (tx) => ({
        connectors: await tx.all<ConnectorRow>("SELECT id, service_id, kind, spec, secrets FROM connectors ORDER BY created, id"),
        exporters: await tx.all<ExporterRow>("SELECT id, kind, spec, secrets FROM exporters ORDER BY created, id"),
        services: await tx.all<ServiceRow>("SELECT id, spec, created, log_exporter_id, metric_exporter_id FROM services"),
        attachments: await tx.all<{ resource_id: string; at: string }>("SELECT resource_id, at FROM events WHERE kind = 'log_exporter_changed' ORDER BY seq"),
        components: await tx.all<{ id: string; kind: string; service_id: string | null; cleanup: string | null }>("SELECT id, kind, service_id, cleanup FROM dataplane_components"),
      }));

      // connectors no longer stored: let go of the source first (a slot keeps the source's WAL)
      const stored = new Set([...connectors.map((c) => c.id), ...exporters.map((e) => e.id), ...services.map((s) => `log:${s.id}`)]);
      const goneOthers: string[] = [];
      for (const c of components) {
        if (stored.has(c.id)) continue;
        if (c.kind !== "src_db" && c.kind !== "obj_store") {
          goneOthers.push(c.id); // forgotten once the syncs below stopped serving it
          continue;
        }
        try {
          if (c.kind === "src_db") await removeGone(c);
          else await forget(c.id);
        } catch (error) {
          log(`${now()} connector ${c.id}: ${error instanceof Error ? error.message : String(error)} (retried)`);
        }
      }

      const work: Array<Promise<void>> = [];
      for (const row of connectors) {
        const body = { ...(JSON.parse(row.spec) as object), id: row.id, service_id: row.service_id } as never;
        const base = { id: row.id, kind: row.kind, serviceId: row.service_id } as const;
        if (!running.has(row.service_id)) {
          work.push(record({ ...base, status: "warning", message: `waiting for service ${row.service_id} to run` }));
          continue;
        }
        work.push(
          (async () => {
            try {
              await grantToUser(row.service_id);
              if (row.kind === "src_db") {
                const connectionString = String(box.open(row.secrets, `connector:${row.id}`).connection_string ?? "");
                const observed = await applySrcDb(target(row.service_id), srcDbPlanFrom(body as SrcDbConnector, connectionString));
                // What to clean up on the source. `tentative` while the connector has only failed (an
                // unreachable source, a refused tunnel): its removal then tries once and gives up
                // instead of waiting for a source that may never answer.
                const reached = observed.status !== "error" || reachedOnce.has(row.id);
                if (reached) reachedOnce.add(row.id);
                await record({ ...base, status: observed.status, message: observed.message }, box.seal({ connection_string: connectionString, tentative: !reached }, `dataplane:${row.id}`));
              } else {
                const observed = await runObjStore(target(row.service_id), objStorePlanFrom(body as ObjStoreConnector), bucketsDir(dataDir), new Date());
                await record({ ...base, status: observed.status, message: observed.message });
              }
            } catch (error) {
              await record({ ...base, status: "error", message: error instanceof Error ? error.message : String(error) });
            }
          })(),
        );
      }

      // exporters: the services that attach each, among those running
      const serviceName = (s: ServiceRow) => (JSON.parse(s.spec) as { name: string }).name;
      // metrics: every attached service (a paused or failed one answers tsdb_up 0 within the
      // collector's timeouts); logs: the running ones
      const attachedTo = (exporterId: string, kind: "log" | "metric") =>
        services.filter((s) => (kind === "log" ? s.log_exporter_id === exporterId && running.has(s.id) : s.metric_exporter_id === exporterId));
      const pulls: PullmonExporter[] = [];
      const sinking: MetricSinkExporter[] = [];
      const shipments: LogShipment[] = [];
      for (const row of exporters) {
        const spec = JSON.parse(row.spec) as ExporterSpec;
        if (row.kind === "metric") {
          const members = attachedTo(row.id, "metric").map((s) => ({ id: s.id, name: serviceName(s), target: target(s.id) }));
          if (spec.type === "pullmon" && spec.ports) {
            const password = String(box.open(row.secrets, `exporter:${row.id}`)[SECRET_OF.pullmon] ?? "");
            pulls.push({ exporterId: row.id, port: spec.ports.metrics, username: String(spec.config.username ?? ""), password, services: members });
          } else if (spec.type !== "pullmon") {
            const scope = String(spec.type === "cloudmon" ? (spec.config.namespace ?? "default") : (spec.config.site ?? "default"));
            sinking.push({ exporterId: row.id, destination: spec.type, scope, services: members });
          }
        } else if (spec.type === "cloudmon") {
          for (const s of attachedTo(row.id, "log")) {
            const attached = attachments.filter((a) => a.resource_id === s.id).at(-1)?.at ?? s.created;
            shipments.push({
              serviceId: s.id,
              exporterId: row.id,
              logGroupName: String(spec.config.log_group_name ?? "default"),
              logStreamName: String(spec.config.log_stream_name ?? s.id),
              logFile: driver.serverLogFile(s.id),
              attachedAt: attached,
              target: target(s.id),
            });
          }
        }
      }
      const [pullStatus, sinkStatus, shipStatus] = await Promise.all([pullmon.sync(pulls), sinks.sync(sinking), shippers.sync(shipments)]);
      for (const [id, s] of [...pullStatus, ...sinkStatus]) {
        work.push(record({ id, kind: "metric_exporter", status: s.status, message: s.message }));
      }
      for (const [serviceId, s] of shipStatus) {
        const exporterId = shipments.find((x) => x.serviceId === serviceId)!.exporterId;
        work.push(record({ id: `log:${serviceId}`, kind: "log_exporter", serviceId, status: s.status, message: s.message ?? `log exporter ${exporterId}` }));
      }
      await Promise.all(work);
      for (const id of goneOthers) await forget(id);
    },

    async busy() {
      // a connector's cleanup still pending keeps the agent (and the delete that waits for it)
      const rows = await store.read((tx) => readComponents(tx));
      return rows.length > 0 || pullmon.serving().size > 0;
    },

    async releaseService(serviceId) {
      const rows = await store.read((tx) => tx.all<{ id: string; kind: string; service_id: string | null; cleanup: string | null }>("SELECT id, kind, service_id, cleanup FROM dataplane_components WHERE service_id = ?", serviceId));
      for (const c of rows) {
        if (c.kind === "src_db") await removeGone(c);
        else await forget(c.id);
      }
      await shippers.forget(serviceId);
    },

    async stop() {
      await pullmon.sync([]);
    },
  };
}
