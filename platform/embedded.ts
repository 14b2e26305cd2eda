// The embedded platform: the domain core on a SQLite file in the data directory (or on the storage
// it is given: the server on PostgreSQL), opened in this process on first use (nothing happens at
// import or construction time).

import { existsSync } from "node:fs";
import { join } from "node:path";
import { transitionSecondsFromEnv, defaultDataDir } from "./config.js";
import { PlatformCore } from "./core/index.js";
import { SecretBox, loadOrCreateKey, type SecretsKeys } from "./secrets.js";
import { openStore } from "./store.js";
import type { Storage } from "./storage.js";
import type {
  ConnectorsApi,
  EventsApi,
  ExportersApi,
  LogExporter,
  LogExporterInput,
  LookupsApi,
  MetricExporter,
  MetricExporterInput,
  ObjStoreConnector,
  ObjStoreConnectorInput,
  ObjStoreConnectorPatch,
  PeeringApi,
  PlatformClient,
  RestoreChannelsApi,
  ServicesApi,
  SrcDbConnector,
  SrcDbConnectorInput,
  SrcDbConnectorPatch,
  VpcsApi,
} from "./types.js";
import { prepareValidation, type BodyType } from "./validation.js";
import type { DataPlaneHooks } from "./core/context.js";
import { findBinaries } from "./dataplane/binaries.js";
import { AgentLink, type AgentCommand } from "./dataplane/launcher.js";
import { settleMode } from "./dataplane/mode.js";

export interface EmbeddedOptions {
  /** default: `SCHEMAFORM_DATA_DIR`, else the per-user data directory (see config.ts) */
  dataDir?: string;
  /** loads better-sqlite3's native addon (the bundled provider plugin; see store.ts) */
  loadNativeBinding?: () => object;
  /** default: `SCHEMAFORM_TRANSITION_SECONDS`, else 3 */
  transitionSeconds?: number;
  /** epoch milliseconds; for tests */
  clock?: () => number;
  /**
   * Close the database when the process exits, however it exits (the provider plugin: it leaves
   * through process.exit on Shutdown or when Terraform is gone, with the database open).
   */
  closeOnExit?: boolean;
  /**
   * Another storage than the data directory's SQLite file (`platform serve --database`, postgres.ts),
   * with the secrets key all its users share (never kept in that storage; secrets.ts loadSharedKey).
   */
  storage?: { open(): Promise<Storage>; secretsKey: Buffer | SecretsKeys };
  /**
   * How the data-plane agent is started for this data directory (default: the schemaform CLI;
   * the bundled provider plugin starts its own executable). dataplane/launcher.ts
   */
  agentCommand?: (dataDir: string) => AgentCommand;
  /**
   * The agent runs in this process (platform serve on PostgreSQL): called on every change
   * instead of starting a detached agent.
   */
  onDataPlaneChange?: () => void;
  /** SCHEMAFORM_DATA_PLANE and the binaries' variables; default process.env */
  env?: NodeJS.ProcessEnv;
}

export class EmbeddedPlatform implements PlatformClient {
  readonly mode = "embedded" as const;
  readonly dataDir: string;
  readonly #options: EmbeddedOptions;
  #core: Promise<PlatformCore> | undefined;
  #closed = false;
  #unhookExit: (() => void) | undefined;
  #agent: AgentLink | undefined;

  readonly restoreChannels: RestoreChannelsApi;
  readonly services: ServicesApi;
  readonly vpcs: VpcsApi;
  readonly peering: PeeringApi;
  readonly logExporters: ExportersApi<LogExporterInput, LogExporter>;
  readonly metricExporters: ExportersApi<MetricExporterInput, MetricExporter>;
  readonly objStoreConnectors: ConnectorsApi<ObjStoreConnectorInput, ObjStoreConnector, ObjStoreConnectorPatch>;
  readonly srcDbConnectors: ConnectorsApi<SrcDbConnectorInput, SrcDbConnector, SrcDbConnectorPatch>;
  readonly lookups: LookupsApi;
  readonly events: EventsApi;

  constructor(options: EmbeddedOptions = {}) {
    this.#options = options;
    this.dataDir = options.dataDir ?? defaultDataDir();
    const rc: BodyType = "resource.containerbackup_restore_channel";
    const svc: BodyType = "resource.tsdb_service";
    const vpc: BodyType = "resource.tsdb_vpcs";
    const pc: BodyType = "resource.tsdb_peering_connection";
    const le: BodyType = "resource.tsdb_log_exporter";
    const me: BodyType = "resource.tsdb_metric_exporter";
    const os: BodyType = "resource.tsdb_connector_obj_store";
    const sd: BodyType = "resource.tsdb_connector_src_db";

    this.restoreChannels = {
      create: (body, options) => this.run(rc, (c) => c.restoreChannels.create(body, options)),
      get: (fullName, view) => this.run(undefined, (c) => c.restoreChannels.get(fullName, view)),
      update: (fullName, patch, etag, view) => this.run(rc, (c) => c.restoreChannels.update(fullName, patch, etag, view)),
      delete: (fullName, etag) => this.run(undefined, (c) => c.restoreChannels.delete(fullName, etag)),
      list: (project, location) => this.run(undefined, (c) => c.restoreChannels.list(project, location)),
      resolveProject: (project) => this.run(undefined, (c) => c.restoreChannels.resolveProject(project)),
    };
    this.services = {
      create: (project, body) => this.run(svc, (c) => c.services.create(project, body)),
      get: (project, id) => this.run(undefined, (c) => c.services.get(project, id)),
      update: (project, id, patch) => this.run(svc, (c) => c.services.update(project, id, patch)),
      delete: (project, id) => this.run(undefined, (c) => c.services.delete(project, id)),
      list: (project) => this.run(undefined, (c) => c.services.list(project)),
      // The service's password, or a password of its unexpired temporary credentials.
      checkPassword: (project, id, password) =>
        this.run(undefined, async (c) => (await c.services.checkPassword(project, id, password)) || (await c.serviceCredentials.accepts(project, id, password))),
      createCredentials: (project, id, ttlSeconds) => this.run(undefined, (c) => c.serviceCredentials.create(project, id, ttlSeconds)),
      renewCredentials: (project, id, credentialId, ttlSeconds) => this.run(undefined, (c) => c.serviceCredentials.renew(project, id, credentialId, ttlSeconds)),
      revokeCredentials: (project, id, credentialId) => this.run(undefined, (c) => c.serviceCredentials.revoke(project, id, credentialId)),
    };
    this.vpcs = {
      create: (project, body) => this.run(vpc, (c) => c.vpcs.create(project, body)),
      get: (project, id) => this.run(undefined, (c) => c.vpcs.get(project, id)),
      getByName: (project, name) => this.run(undefined, (c) => c.vpcs.getByName(project, name)),
      update: (project, id, patch) => this.run(vpc, (c) => c.vpcs.update(project, id, patch)),
      delete: (project, id) => this.run(undefined, (c) => c.vpcs.delete(project, id)),
      list: (project) => this.run(undefined, (c) => c.vpcs.list(project)),
    };
    this.peering = {
      create: (project, body) => this.run(pc, (c) => c.peering.create(project, body)),
      get: (project, vpcId, id) => this.run(undefined, (c) => c.peering.get(project, vpcId, id)),
      update: (project, vpcId, id, patch) => this.run(pc, (c) => c.peering.update(project, vpcId, id, patch)),
      delete: (project, vpcId, id) => this.run(undefined, (c) => c.peering.delete(project, vpcId, id)),
      list: (project, vpcId) => this.run(undefined, (c) => c.peering.list(project, vpcId)),
    };
    this.logExporters = {
      create: (project, body) => this.run(le, (c) => c.logExporters.create(project, body) as never),
      get: (project, id) => this.run(undefined, (c) => c.logExporters.get(project, id) as Promise<LogExporter>),
      update: (project, id, patch) => this.run(le, (c) => c.logExporters.update(project, id, patch) as never),
      delete: (project, id) => this.run(undefined, (c) => c.logExporters.delete(project, id)),
      list: (project) => this.run(undefined, (c) => c.logExporters.list(project) as Promise<LogExporter[]>),
    };
    this.metricExporters = {
      create: (project, body) => this.run(me, (c) => c.metricExporters.create(project, body) as never),
      get: (project, id) => this.run(undefined, (c) => c.metricExporters.get(project, id) as Promise<MetricExporter>),
      update: (project, id, patch) => this.run(me, (c) => c.metricExporters.update(project, id, patch) as never),
      delete: (project, id) => this.run(undefined, (c) => c.metricExporters.delete(project, id)),
      list: (project) => this.run(undefined, (c) => c.metricExporters.list(project) as Promise<MetricExporter[]>),
    };
    this.objStoreConnectors = {
      create: (project, body) => this.run(os, (c) => c.objStoreConnectors.create(project, body)),
      get: (project, id) => this.run(undefined, (c) => c.objStoreConnectors.get(project, id)),
      update: (project, id, patch) => this.run(os, (c) => c.objStoreConnectors.update(project, id, patch)),
      delete: (project, id) => this.run(undefined, (c) => c.objStoreConnectors.delete(project, id)),
      list: (project, serviceId) => this.run(undefined, (c) => c.objStoreConnectors.list(project, serviceId)),
    };
    this.srcDbConnectors = {
      create: (project, body) => this.run(sd, (c) => c.srcDbConnectors.create(project, body)),
      get: (project, id) => this.run(undefined, (c) => c.srcDbConnectors.get(project, id)),
      update: (project, id, patch) => this.run(sd, (c) => c.srcDbConnectors.update(project, id, patch)),
      delete: (project, id) => this.run(undefined, (c) => c.srcDbConnectors.delete(project, id)),
      list: (project, serviceId) => this.run(undefined, (c) => c.srcDbConnectors.list(project, serviceId)),
    };
    this.lookups = {
      products: () => this.run(undefined, (c) => c.products()),
      vpcs: (project) => this.run(undefined, (c) => c.vpcs.lookup(project, c.peering)),
      service: (project, id) => this.run(undefined, (c) => c.services.lookup(project, id)),
    };
    this.events = {
      list: (project, filter) => this.run(undefined, (c) => c.events(project, filter)),
    };
  }

  /** The domain core, opening the database on first use. */
  core(): Promise<PlatformCore> {
    if (this.#closed) return Promise.reject(new Error("the platform client is closed"));
    this.#core ??= (async () => {
      const shared = this.#options.storage;
      const store = shared ? await shared.open() : await openStore({ dataDir: this.dataDir, loadNativeBinding: this.#options.loadNativeBinding });
      try {
        const box = new SecretBox(shared ? shared.secretsKey : loadOrCreateKey(this.dataDir));
        const seconds = this.#options.transitionSeconds ?? transitionSecondsFromEnv();
        const dataPlane = await this.dataPlaneHooks(store);
        const core = await PlatformCore.open({ store, box, clock: this.#options.clock ?? Date.now, transitionMs: Math.round(seconds * 1000), dataPlane });
        if (this.#options.closeOnExit) {
          // 'exit' handlers must be synchronous, and so is better-sqlite3's close (the part of
          // close() before its promise): the last connection checkpoints the WAL, and no other
          // process waits on a lock we held.
          const closeNow = () => {
            try {
              void core.close();
            } catch {
              // exiting anyway; SQLite recovers from the WAL on the next open
            }
          };
          process.once("exit", closeNow);
          this.#unhookExit = () => process.off("exit", closeNow);
        }
        return core;
      } catch (error) {
        await store.close();
        throw error;
      }
    })();
    this.#core.catch(() => {
      this.#core = undefined; // a failed open can be retried
    });
    return this.#core;
  }

  /**
   * Starts this data directory's agent ahead of the first call, when the directory has run a data
   * plane before (its `dataplane/` directory exists) and SCHEMAFORM_DATA_PLANE is not off: the
   * provider calls it at configure time, so that the agent is up by the time a create needs it.
   * Opens nothing; the first call still settles the mode. `known`: the caller knows the data
   * plane is on (platform serve, after opening).
   */
  prepareDataPlane(known = false): void {
    const env = this.#options.env ?? process.env;
    if (this.#options.storage || this.#options.onDataPlaneChange || env.SCHEMAFORM_DATA_PLANE?.trim().toLowerCase() === "off") return;
    if (!known && !existsSync(join(this.dataDir, "dataplane"))) return;
    void new AgentLink(this.dataDir, this.#options.agentCommand).ensure().catch(() => {});
  }

  /** The data plane under this platform: its mode settled (dataplane/mode.ts), its agent's link. */
  private async dataPlaneHooks(store: Storage): Promise<DataPlaneHooks> {
    const env = this.#options.env ?? process.env;
    const where = this.#options.storage ? "the platform database" : `data directory ${this.dataDir}`;
    const binaries = () => {
      const found = findBinaries(env);
      return { ok: found.pgBin !== undefined, reason: found.pgReason };
    };
    const mode = await settleMode(store, env, binaries, where);
    if (mode.mode === "off") {
      // off by default for want of binaries (now or when the directory was first used): say so
      const missing = mode.explicit || env.SCHEMAFORM_DATA_PLANE?.trim() ? undefined : (mode.missing ?? binaries().reason);
      return {
        on: false,
        recordOnly: missing && `this service is a record only, with no database behind it: ${missing}; then use a new data directory (SCHEMAFORM_DATA_DIR), or set SCHEMAFORM_DATA_PLANE=off to keep records only without this warning`,
      };
    }
    const notify = this.#options.onDataPlaneChange;
    if (notify) return { on: true, changed: notify };
    const agent = new AgentLink(this.dataDir, this.#options.agentCommand);
    this.#agent = agent;
    return { on: true, changed: () => agent.poke() };
  }

  private async run<T>(validate: BodyType | undefined, fn: (core: PlatformCore) => T | Promise<T>): Promise<T> {
    const core = await this.core();
    // the data plane's agent runs whenever this data directory is used (a connect, now and then)
    if (this.#agent) await this.#agent.ensure();
    if (validate) await prepareValidation(validate);
    return fn(core);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const pending = this.#core;
    this.#core = undefined;
    this.#unhookExit?.();
    if (pending) {
      try {
        await (await pending).close();
      } catch {
        // it never opened
      }
    }
  }
}
