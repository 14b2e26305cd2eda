// The domain core: every resource family over one storage (storage.ts: SQLite or PostgreSQL),
// asynchronous; scrypt for service passwords runs on the thread pool (secrets.ts). The embedded
// client wraps it in the PlatformClient interface and the server exposes it over HTTP through it.

import { catalogProducts } from "../catalog.js";
import { checkSecretsKey } from "../key-check.js";
import type { PlatformEvent, ProductsLookup } from "../types.js";
import { Ctx, type CoreOptions } from "./context.js";
import { ObjStoreConnectors, SrcDbConnectors } from "./connectors.js";
import { Credentials } from "./credentials.js";
import { Exporters } from "./exporters.js";
import { Projects, mergeNumberedProjects } from "./projects.js";
import { RestoreChannels } from "./restore-channels.js";
import { Services, checkProject } from "./services.js";
import { ServiceCredentialsStore } from "./service-credentials.js";
import { Peerings, Vpcs } from "./vpcs.js";

export class PlatformCore {
  readonly ctx: Ctx;
  readonly projects: Projects;
  readonly restoreChannels: RestoreChannels;
  readonly services: Services;
  readonly vpcs: Vpcs;
  readonly peering: Peerings;
  readonly logExporters: Exporters;
  readonly metricExporters: Exporters;
  readonly objStoreConnectors: ObjStoreConnectors;
  readonly srcDbConnectors: SrcDbConnectors;
  readonly credentials: Credentials;
  readonly serviceCredentials: ServiceCredentialsStore;

  constructor(options: CoreOptions) {
    this.ctx = new Ctx(options);
    this.projects = new Projects(this.ctx);
    this.restoreChannels = new RestoreChannels(this.ctx);
    this.services = new Services(this.ctx);
    this.vpcs = new Vpcs(this.ctx);
    this.peering = new Peerings(this.ctx);
    this.logExporters = new Exporters(this.ctx, "log");
    this.metricExporters = new Exporters(this.ctx, "metric");
    this.objStoreConnectors = new ObjStoreConnectors(this.ctx);
    this.srcDbConnectors = new SrcDbConnectors(this.ctx);
    this.credentials = new Credentials(this.ctx);
    this.serviceCredentials = new ServiceCredentialsStore(this.ctx, this.services);
  }

  /**
   * The domain core over an open store; refuses a secrets key that is not the data's (key-check.ts);
   * moves objects stored under project numbers once (projects.ts).
   */
  static async open(options: CoreOptions): Promise<PlatformCore> {
    const core = new PlatformCore(options);
    await checkSecretsKey(options.store, options.box, { record: true, newest: true });
    await mergeNumberedProjects(core.ctx);
    return core;
  }

  products(): ProductsLookup {
    return { id: "products", products: catalogProducts() };
  }

  async events(project: string, filter: { resourceId?: string; kind?: string } = {}): Promise<PlatformEvent[]> {
    checkProject(project);
    // restore channel events are recorded under the project id (a number is resolved to it)
    const id = (await this.ctx.read((tx) => this.projects.find(tx, project)))?.id ?? project;
    const where = ["project = ?"];
    const args: unknown[] = [id];
    if (filter.resourceId !== undefined) {
      where.push("resource_id = ?");
      args.push(filter.resourceId);
    }
    if (filter.kind !== undefined) {
      where.push("kind = ?");
      args.push(filter.kind);
    }
    return await this.ctx.read((tx) => tx.all<PlatformEvent>(`SELECT * FROM events WHERE ${where.join(" AND ")} ORDER BY seq`, ...args));
  }

  close(): Promise<void> {
    return this.ctx.store.close();
  }
}
