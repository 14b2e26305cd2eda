// The local driver: every service is a PostgreSQL cluster on this machine (README "Local
// driver"). applyService makes one service match its plan, in this order: the main node (initdb,
// or pg_basebackup from a read replica's source), its roles and password, its HA standbys, then the
// primary's synchronous_standby_names (only once the standbys exist, so that no write waits for a
// standby that is not there), then the pooler. Each step is idempotent and restarts only what a
// change needs; a failure is recorded with its cause and reported by observeService.

import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { AdminConnection, DataPlaneDriver, DriverAvailability, ServiceObserved, ServicePlan } from "../driver.js";
import { POOLER_MISSING_WARNING, findBinaries, type Binaries } from "../binaries.js";
import { CA_CERT_FILE, certificateNeedsRenewal, ensureCa, issueServerCertificate } from "./ca.js";
import { ServiceLayout, checkServiceId, prepareClustersDir, removeEmptyClustersDir, resolveClustersDir, type ServiceState } from "./layout.js";
import {
  NodeError,
  SUPERUSER,
  cloneStandby,
  connect,
  dropSlotsAbove,
  ensurePhysicalSlot,
  hasData,
  initCluster,
  livePostmasterPid,
  probe,
  reloadNode,
  restartNode,
  startNode,
  stopNode,
  writeCertificate,
  writeNodeConfig,
  type NodePaths,
  type NodeTools,
} from "./node.js";
import { observeLayout } from "./observe.js";
import { makingSpare } from "./spare.js";
import { applyPooler, livePoolerPid, stopPooler } from "./pooler.js";
import { freePort, isPortFree } from "./ports.js";
import { DATABASE, bootstrap, setAdminPassword, syncEphemeralRoles } from "./roles.js";
import { resolveRunUser, type RunUser } from "./run-user.js";
import { SETTINGS_FILE, changedSettings, nodeSettings, readSettings, type NodeRole } from "./settings.js";

export interface LocalDriverOptions {
  /** where clusters live (as root, moved under /var/lib/schemaform when the cluster user cannot reach it) */
  stateDir: string;
  /** the platform's CA: ca.crt (what clients verify with) and ca.key, made on first use */
  caDir: string;
  /** PostgreSQL's bin directory; found at run time when omitted (binaries.ts) */
  pgBin?: string;
  /** the pgbouncer executable; found when omitted (a file that is not there: no pooler, a warning) */
  pgbouncer?: string;
  /** the user clusters run as; default: this process's, or `postgres`/SCHEMAFORM_PG_USER when root */
  runAs?: RunUser;
  log?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

export interface LocalDriver extends DataPlaneDriver {
  /** the directory the clusters really live in */
  readonly clustersDir: string;
  /** the CA certificate clients give as sslrootcert for sslmode=verify-full */
  readonly caCertFile: string;
}

/** A failure that waits on something outside the service (phase starting, not failed). */
class WaitingError extends Error {}

/** The cause of a failed apply, for `message`: ours as written, a file system's by its code and path. */
function describeFailure(error: unknown): string {
  if (error instanceof NodeError || error instanceof WaitingError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOSPC") return `the disk is full: ${(error as NodeJS.ErrnoException).path ?? "a data-plane file"} cannot be written`;
  return `apply failed: ${(error as Error).message}`;
}

export function createLocalDriver(options: LocalDriverOptions): LocalDriver {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => {});
  const found: Binaries = findBinaries(env);
  const pgBin = options.pgBin ?? found.pgBin;
  const pgbouncer = options.pgbouncer === undefined ? found.pgbouncer : existsSync(options.pgbouncer) ? options.pgbouncer : undefined;
  const poolerWarning = found.poolerWarning ?? POOLER_MISSING_WARNING;
  const who = resolveRunUser(options.runAs, env);
  const unavailable = !pgBin ? (found.pgReason ?? "PostgreSQL's binaries were not found") : who.reason;
  const user = who.user;
  const placed = user && !unavailable ? resolveClustersDir(options.stateDir, user) : { dir: resolve(options.stateDir), relocated: false };
  const clustersDir = placed.dir;
  if (placed.relocated) log(`clusters live in ${clustersDir}: the cluster user cannot reach ${options.stateDir}`);
  const caCertFile = join(options.caDir, CA_CERT_FILE);
  const tools = (): NodeTools => ({ pgBin: pgBin!, user: user!, log });
  const layoutOf = (id: string) => new ServiceLayout(clustersDir, id);

  // one operation per service at a time (the agent may apply several services at once)
  const queues = new Map<string, Promise<unknown>>();
  function serialize<T>(id: string, work: () => Promise<T>): Promise<T> {
    const before = queues.get(id) ?? Promise.resolve();
    const next = before.catch(() => {}).then(work);
    queues.set(id, next);
    void next.finally(() => {
      if (queues.get(id) === next) queues.delete(id);
    }).catch(() => {});
    return next;
  }

  function pathsOf(layout: ServiceLayout, index: number, port: number): NodePaths {
    return { dataDir: layout.nodeDir(index), logFile: layout.logFile(index), socketDir: layout.socketDir, port };
  }

  async function ensurePortFree(port: number): Promise<void> {
    if (!(await isPortFree(port))) throw new NodeError(`port ${port} is taken`);
  }

  /** Creates, configures and starts one node; restarts or reloads it when its settings changed. */
  async function applyNode(plan: ServicePlan, layout: ServiceLayout, index: number, port: number, role: NodeRole, floorFrom?: string): Promise<void> {
    const paths = pathsOf(layout, index, port);
    const settingsFile = join(paths.dataDir, SETTINGS_FILE);
    const floor = () => (floorFrom ? readSettings(join(floorFrom, SETTINGS_FILE)) : {});
    const wasRunning = livePostmasterPid(paths.dataDir) !== undefined;
    // before any work: a taken port fails fast, with the port named
    if (!wasRunning) await ensurePortFree(port);
    if (!hasData(paths.dataDir)) {
      if (role.standbyOf) {
        const upstream = { socketDir: role.standbyOf.socketDir, port: role.standbyOf.port };
        await cloneStandby(tools(), paths.dataDir, upstream);
      } else {
        await initCluster(tools(), paths.dataDir);
      }
    }
    if (certificateNeedsRenewal(join(paths.dataDir, "server.crt"), options.caDir)) {
      const { certPem, keyPem } = await issueServerCertificate(options.caDir, `${layout.id} local data plane`);
      writeCertificate(tools(), paths.dataDir, certPem, keyPem);
      if (livePostmasterPid(paths.dataDir) !== undefined) await reloadNode(tools(), paths.dataDir);
    }
    const before = readSettings(settingsFile);
    const after = nodeSettings(plan, role, floor());
    const changed = changedSettings(before, after);
    await writeNodeConfig(tools(), paths.dataDir, after);
    if (!wasRunning) {
      await startNode(tools(), paths);
      return;
    }
    if (changed.length === 0) return;
    if (changed.includes("port")) await ensurePortFree(port);
    if (changed.includes("port") || (await needsRestart(paths, changed))) {
      log(`restart ${paths.dataDir}: ${changed.join(", ")} changed`);
      await restartNode(tools(), paths);
    } else {
      await reloadNode(tools(), paths.dataDir);
    }
  }

  /** Whether one of the changed settings only takes effect at server start (pg_settings.context). */
  async function needsRestart(paths: NodePaths, changed: string[]): Promise<boolean> {
    const seen = await probe(paths);
    if (!seen.ready) return true;
    const client = await connect(paths);
    try {
      const result = await client.query("SELECT 1 FROM pg_settings WHERE name = ANY($1) AND context = 'postmaster'", [changed]);
      return (result.rowCount ?? 0) > 0;
    } finally {
      await client.end().catch(() => {});
    }
  }

  /** Waits until a node accepts connections (pg_ctl -w returns when the postmaster is up; a standby may still be reaching consistency). */
  async function waitReady(paths: { socketDir: string; port: number }, what: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const seen = await probe(paths);
      if (seen.ready) return;
      if (Date.now() > deadline) throw new NodeError(`${what} on port ${paths.port} does not accept connections: ${seen.reason ?? "no answer"}`);
      await new Promise((done) => setTimeout(done, 100));
    }
  }

  async function applyRunning(plan: ServicePlan, layout: ServiceLayout, state: ServiceState, warnings: string[]): Promise<void> {
    const socketDir = layout.socketDir;
    const main = { socketDir, port: plan.ports.main };
    let mainRole: NodeRole;
    let floorFrom: string | undefined;
    if (plan.role === "read_replica") {
      if (!plan.sourceId) throw new NodeError("a read replica needs the id of its source service");
      const source = layoutOf(plan.sourceId);
      const sourcePort = source.readState()?.ports["0"];
      const sourceReady = sourcePort !== undefined && (await probe({ socketDir: source.socketDir, port: sourcePort })).ready;
      if (!hasData(layout.nodeDir(0)) && !sourceReady) {
        throw new WaitingError(`the source service ${plan.sourceId} is not running: the read replica is made when it is`);
      }
      if (sourcePort === undefined) throw new WaitingError(`the source service ${plan.sourceId} has no cluster`);
      mainRole = { port: plan.ports.main, socketDir, standbyOf: { socketDir: source.socketDir, port: sourcePort, applicationName: `replica_${plan.id}`.slice(0, 63) } };
      floorFrom = source.nodeDir(0);
    } else {
      mainRole = { port: plan.ports.main, socketDir, synchronousStandbyNames: synchronousNames(plan, layout) };
    }
    await applyNode(plan, layout, 0, plan.ports.main, mainRole, floorFrom);
    await waitReady(main, plan.role === "primary" ? "the primary" : "the read replica");

    if (plan.role === "primary") {
      const started = Date.now();
      const client = await connect(main);
      try {
        await bootstrap(client);
      } finally {
        await client.end().catch(() => {});
      }
      const tsdb = await connect(main, DATABASE);
      try {
        await setAdminPassword(tsdb, plan.passwordVerifier);
        warnings.push(...(await syncEphemeralRoles(tsdb, plan.ephemeralRoles)));
      } finally {
        await tsdb.end().catch(() => {});
      }
      log(`roles and database of ${plan.id}: ${Date.now() - started} ms`);
      // HA standbys stream through a physical slot each (node_1, node_2): the primary keeps the WAL
      // a stopped standby still needs (up to max_slot_wal_keep_size) instead of leaving it behind
      for (let index = 1; index <= plan.haReplicas; index++) {
        const port = state.ports[String(index)]!;
        const slot = `node_${index}`;
        await ensurePhysicalSlot(main, slot);
        const role: NodeRole = { port, socketDir, standbyOf: { socketDir, port: plan.ports.main, applicationName: slot, slot } };
        await applyNode(plan, layout, index, port, role, layout.nodeDir(0));
        await waitReady({ socketDir, port }, `standby ${index}`);
      }
      await removeExtraNodes(layout, plan.haReplicas);
      await dropSlotsAbove(main, plan.haReplicas);
      // the standbys exist now: name them synchronous (a reload) when the plan asks
      await applyNode(plan, layout, 0, plan.ports.main, { ...mainRole, synchronousStandbyNames: synchronousNames(plan, layout) });
    } else {
      await removeExtraNodes(layout, 0);
    }

    if (plan.pooler && pgbouncer) {
      if (livePoolerPid(layout.poolerDir) === undefined) await ensurePortFree(plan.ports.pooler);
      await applyPooler(user!, pgbouncer, {
        dir: layout.poolerDir,
        port: plan.ports.pooler,
        serverPort: plan.ports.main,
        adminVerifier: plan.passwordVerifier,
        ephemeralRoles: plan.ephemeralRoles,
        tls: { certPem: readFileSync(join(layout.nodeDir(0), "server.crt"), "utf8"), keyPem: readFileSync(join(layout.nodeDir(0), "server.key"), "utf8") },
      });
    } else {
      if (plan.pooler) warnings.push(poolerWarning);
      await stopPooler(layout.poolerDir);
      await rm(layout.poolerDir, { recursive: true, force: true });
    }
  }

  /** `FIRST 1 (node_1, node_2)` over the standbys that exist, when one must be synchronous. */
  function synchronousNames(plan: ServicePlan, layout: ServiceLayout): string {
    if (plan.role !== "primary" || plan.syncReplicas < 1) return "";
    const standbys: string[] = [];
    for (let index = 1; index <= plan.haReplicas; index++) if (hasData(layout.nodeDir(index))) standbys.push(`node_${index}`);
    return standbys.length === 0 ? "" : `FIRST ${Math.min(plan.syncReplicas, standbys.length)} (${standbys.join(", ")})`;
  }

  async function removeExtraNodes(layout: ServiceLayout, keep: number): Promise<void> {
    for (let index = keep + 1; index <= 9; index++) {
      const dataDir = layout.nodeDir(index);
      if (!existsSync(dataDir) && !existsSync(`${dataDir}.new`)) continue;
      await stopNode(tools(), dataDir, "immediate");
      await rm(dataDir, { recursive: true, force: true });
      await rm(`${dataDir}.new`, { recursive: true, force: true });
      await rm(layout.logFile(index), { force: true });
    }
  }

  async function stopServiceProcesses(layout: ServiceLayout, mode: "fast" | "immediate"): Promise<void> {
    await stopPooler(layout.poolerDir);
    const nodes = existsSync(layout.dir)
      ? readdirSync(layout.dir)
          .map((name) => /^node-(\d+)$/.exec(name)?.[1])
          .filter((index): index is string => index !== undefined)
          .map(Number)
          .sort((a, b) => b - a)
      : [];
    // standbys first: a primary stopping never waits for them
    for (const index of nodes) await stopNode(tools(), layout.nodeDir(index), mode);
  }

  function stateFor(plan: ServicePlan, previous: ServiceState | undefined): ServiceState {
    return {
      id: plan.id,
      role: plan.role,
      ...(plan.sourceId ? { sourceId: plan.sourceId } : {}),
      running: plan.running,
      haReplicas: plan.role === "primary" ? plan.haReplicas : 0,
      syncReplicas: plan.syncReplicas,
      pooler: plan.pooler,
      milliCpu: plan.milliCpu,
      memoryGb: plan.memoryGb,
      ports: { ...(previous?.ports ?? {}) },
      ...(plan.pooler ? { poolerPort: plan.ports.pooler } : {}),
      ...(previous?.lastError ? { lastError: previous.lastError, lastErrorWaiting: previous.lastErrorWaiting } : {}),
    };
  }

  /** node-0: ports.main, node-1: ports.replica, further standbys: the port recorded for them, or a new free one when that is taken by something else. */
  async function assignPorts(plan: ServicePlan, layout: ServiceLayout, state: ServiceState): Promise<void> {
    const standbys = plan.role === "primary" ? plan.haReplicas : 0;
    const ports: Record<string, number> = { "0": plan.ports.main };
    if (standbys >= 1) ports["1"] = plan.ports.replica;
    for (let index = 2; index <= standbys; index++) {
      const recorded = state.ports[String(index)];
      const usable = recorded !== undefined && (livePostmasterPid(layout.nodeDir(index)) !== undefined || (await isPortFree(recorded)));
      ports[String(index)] = usable ? recorded : await freePort();
    }
    state.ports = ports;
  }

  const driver: LocalDriver = {
    name: "local",
    clustersDir,
    caCertFile,

    async available(): Promise<DriverAvailability> {
      return unavailable ? { ok: false, reason: unavailable } : { ok: true };
    },

    applyService(plan: ServicePlan): Promise<ServiceObserved> {
      checkServiceId(plan.id);
      return serialize(plan.id, async () => {
        const layout = layoutOf(plan.id);
        const warnings: string[] = [];
        if (unavailable) {
          return { id: plan.id, phase: "failed", message: unavailable, processes: [], diskBytes: 0, warnings };
        }
        let state: ServiceState | undefined;
        try {
          prepareClustersDir(clustersDir, placed.relocated ? options.stateDir : undefined);
          layout.ensure(user!);
          state = stateFor(plan, layout.readState());
          await assignPorts(plan, layout, state);
          layout.writeState(state);
          await ensureCa(options.caDir);
          if (plan.running) await applyRunning(plan, layout, state, warnings);
          else await stopServiceProcesses(layout, "fast");
          delete state.lastError;
          delete state.lastErrorWaiting;
        } catch (error) {
          const message = describeFailure(error);
          log(`service ${plan.id}: ${message}`);
          if (!state) return { id: plan.id, phase: "failed", message, processes: [], diskBytes: 0, warnings };
          state.lastError = message;
          state.lastErrorWaiting = error instanceof WaitingError;
        }
        layout.writeState(state);
        const observed = await observeLayout(layout, pgbouncer !== undefined);
        observed.warnings.push(...warnings);
        return observed;
      });
    },

    async observeService(id: string): Promise<ServiceObserved> {
      const observed = await observeLayout(layoutOf(id), pgbouncer !== undefined);
      const state = layoutOf(id).readState();
      if (state?.pooler && !pgbouncer) observed.warnings.push(poolerWarning);
      return observed;
    },

    removeService(id: string): Promise<void> {
      checkServiceId(id);
      return serialize(id, async () => {
        const layout = layoutOf(id);
        if (!existsSync(layout.dir)) return;
        if (pgBin && user) await stopServiceProcesses(layout, "immediate");
        // asynchronous: deleting a used cluster's files can take seconds on some disks, and the
        // agent's loop must not stall meanwhile
        const started = Date.now();
        await rm(layout.socketDir, { recursive: true, force: true });
        await rm(layout.dir, { recursive: true, force: true });
        log(`remove files of ${id}: ${Date.now() - started} ms`);
        // a relocated clusters directory goes with its last service (nothing of it stays under /var/lib)
        if (placed.relocated) removeEmptyClustersDir(clustersDir);
      });
    },

    async listServices(): Promise<string[]> {
      let names: string[];
      try {
        names = readdirSync(clustersDir);
      } catch {
        return [];
      }
      return names.filter((name) => {
        try {
          checkServiceId(name);
          return statSync(join(clustersDir, name)).isDirectory();
        } catch {
          return false;
        }
      }).sort();
    },

    adminConnection(id: string): AdminConnection {
      const layout = layoutOf(id);
      const port = layout.readState()?.ports["0"];
      if (port === undefined) throw new Error(`service ${id} has no local cluster`);
      return { host: layout.socketDir, port, user: SUPERUSER, database: DATABASE };
    },

    serverLogFile(id: string): string | undefined {
      const file = layoutOf(id).logFile(0);
      return existsSync(file) ? file : undefined;
    },

    busy(): boolean {
      return makingSpare();
    },

    async stopAll(): Promise<void> {
      if (!pgBin || !user) return;
      // services stop in parallel (each waits for its own checkpoint); read replicas first, so
      // that none of them is left trying to reach a source that has just gone
      const ids = await driver.listServices();
      const replica = (id: string) => layoutOf(id).readState()?.role === "read_replica";
      const stop = (group: string[]) => Promise.all(group.map((id) => serialize(id, () => stopServiceProcesses(layoutOf(id), "fast"))));
      await stop(ids.filter(replica));
      await stop(ids.filter((id) => !replica(id)));
    },
  };
  return driver;
}
