// tsdb_service: a managed time-series database service.
//
// Statuses are derived from the stored track at read time:
//   create        QUEUED → CONFIGURING → READY      (½ + ½ transition)
//   create paused QUEUED → CONFIGURING → PAUSING → PAUSED
//   pause         PAUSING → PAUSED                  (1 transition)
//   resume        RESUMING → READY                  (1 transition)
//   resize, HA, pooler, VPC or exporter change of a READY service: CONFIGURING → READY
// `paused` = status ∈ {PAUSED, PAUSING}.
//
// Passwords are kept only as a scrypt hash (checkPassword) and a SCRAM-SHA-256 verifier (the data
// plane's database checks logins against it): a generated initial password is returned once, in
// the create response; `password_wo` is applied at create and whenever `password_wo_version`
// changes. A read replica shares its source's password.
//
// With the data plane on (ctx.dataPlane), a service is a real database: its endpoints are
// 127.0.0.1 and loopback ports chosen free at create, and a settled status is checked against
// what the agent observed (dataplane/observed.ts honestStatus): READY only when the current plan
// runs, ERROR with the driver's message when it failed. A delete returns once the agent removed
// the service's processes and files.

import { randomInt } from "node:crypto";
import { PlatformError, invalid, notFound, precondition, type Warning } from "../errors.js";
import {
  DEFAULT_MEMORY_GB,
  DEFAULT_MILLI_CPU,
  DEFAULT_REGION,
  MEMORY_SIZES,
  MILLI_CPU_PER_GB,
  MILLI_CPU_SIZES,
  findRegion,
  regionList,
} from "../catalog.js";
import { hashPassword, newPassword, newServiceId, verifyPassword } from "../secrets.js";
import { parseTrack, statusAt, track, type Track } from "../status.js";
import type { Mutation, Service, ServiceInput, ServiceLookup, ServicePatch, ServiceStatus } from "../types.js";
import { checkBody } from "../validation.js";
import type { Tx } from "../storage.js";
import { compact, parseJson, sameJson, warning, type Ctx } from "./context.js";
import { claimProject, projectKey } from "./projects.js";
import { scramVerifier } from "../dataplane/scram.js";
import { ephemeralRoles, servicePlan, type PlanSource } from "../dataplane/plan.js";
import { honestStatus, readObservation } from "../dataplane/observed.js";
import { choosePorts, portsHeld } from "../dataplane/ports.js";

export const SERVICE_USERNAME = "tsdbadmin";
export const ENDPOINT_DOMAIN = "tsdb.cloud.example.com";
export const VPC_ENDPOINT_DOMAIN = "vpc.tsdb.cloud.example.com";
/** Every stored spec that holds loopback ports (services, and pullmon exporters). */
const HELD_PORTS = "SELECT spec FROM services UNION ALL SELECT spec FROM exporters";
/** Where a data-plane service listens (never on all interfaces). */
export const LOOPBACK = "127.0.0.1";
const VPC_PORT = 5432;
const VPC_POOLER_PORT = 6432;
const ENVIRONMENT_TAGS = ["DEV", "PROD"];
const TYPE = "tsdb_service";

interface Ports {
  main: number;
  pooler: number;
  replica: number;
}

/** The non-secret settings of a service (the `spec` JSON column). */
interface ServiceSpec {
  name: string;
  milli_cpu: number;
  memory_gb: number;
  ha_replicas: number;
  sync_replicas: number;
  connection_pooler_enabled: boolean;
  environment_tag: string;
  read_replica_nodes?: number;
  password_wo_version?: number;
  storage_gb?: number;
  enable_ha_replica?: boolean;
  /** stored only when true */
  deletion_protection?: boolean;
  /** PostgreSQL settings; the data plane applies exactly these to the service's database */
  parameters?: Record<string, string>;
  ports: Ports;
}

export interface ServiceRow {
  id: string;
  project: string;
  region: string;
  source_id: string | null;
  vpc_id: number | null;
  log_exporter_id: string | null;
  metric_exporter_id: string | null;
  spec: string;
  password_hash: string | null;
  password_verifier: string | null;
  track: string;
  created: string;
  updated: string;
}

/** What the patch's `null` means per attribute: back to the default, cleared, or kept (computed). */
const NULL_MEANS: Record<keyof ServiceInput, "default" | "clear" | "keep"> = {
  name: "keep",
  milli_cpu: "default",
  memory_gb: "default",
  region_code: "keep",
  storage_gb: "clear",
  enable_ha_replica: "clear",
  ha_replicas: "default",
  sync_replicas: "default",
  connection_pooler_enabled: "default",
  environment_tag: "keep",
  paused: "default",
  vpc_id: "clear",
  log_exporter_id: "clear",
  metric_exporter_id: "clear",
  read_replica_source: "clear",
  read_replica_nodes: "keep",
  password: "clear",
  password_wo: "clear",
  password_wo_version: "clear",
  deletion_protection: "default",
  parameters: "clear",
  timeouts: "clear",
};

export function checkProject(project: unknown): asserts project is string {
  if (typeof project !== "string" || project.trim() === "" || /[/\s]/.test(project)) {
    throw invalid(["project_id"], "the project id must be a non-empty string without slashes or spaces");
  }
}

function dnsLabel(text: string): string {
  const label = text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63);
  return label || "project";
}

function randomPort(): number {
  return randomInt(30000, 40000);
}

export class Services {
  constructor(private readonly ctx: Ctx) {}

  // --- reads ---------------------------------------------------------------------------------

  findRow(tx: Tx, project: string, id: string): Promise<ServiceRow | undefined> {
    return tx.get<ServiceRow>("SELECT * FROM services WHERE id = ? AND project = ?", id, project);
  }

  async get(project: string, id: string): Promise<Service> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    const body = await this.ctx.read(async (tx) => {
      const row = await this.findRow(tx, project, id);
      return row && (await this.observedBody(tx, row));
    });
    if (!body) throw notFound(`service ${id} in project ${project}`);
    return body;
  }

  /** The body with its status checked against what the data plane observed (records only: as stored). */
  async observedBody(tx: Tx, row: ServiceRow): Promise<Service> {
    const body = this.toBody(row);
    if (!this.ctx.dataPlane.on) return body;
    const source = row.source_id ? await this.findRow(tx, row.project, row.source_id) : undefined;
    const planned = servicePlan(row, source, await ephemeralRoles(tx, row.id));
    const { status, message } = honestStatus(body.status, planned, await readObservation(tx, row.id));
    body.status = status;
    if (message) body.status_message = message;
    return body;
  }

  async list(project: string): Promise<Service[]> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    return await this.ctx.read(async (tx) => {
      const rows = await tx.all<ServiceRow>("SELECT * FROM services WHERE project = ? ORDER BY created, id", project);
      const out: Service[] = [];
      for (const row of rows) out.push(await this.observedBody(tx, row));
      return out;
    });
  }

  async checkPassword(project: string, id: string, password: string): Promise<boolean> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    const hash = await this.ctx.read(async (tx) => {
      const row = await this.findRow(tx, project, id);
      if (!row) throw notFound(`service ${id} in project ${project}`);
      if (row.source_id) return (await this.findRow(tx, project, row.source_id))?.password_hash ?? null;
      return row.password_hash;
    });
    return await verifyPassword(password, hash);
  }

  async lookup(project: string, id: string): Promise<ServiceLookup> {
    const s = await this.get(project, id);
    return compact({
      id: s.id,
      name: s.name,
      created: s.created,
      environment_tag: s.environment_tag,
      region_code: s.region_code,
      vpc_id: s.vpc_id,
      spec: compact({
        hostname: s.hostname,
        port: s.port,
        username: s.username,
        pooler_hostname: s.pooler_hostname,
        pooler_port: s.pooler_port,
        replica_hostname: s.replica_hostname,
        replica_port: s.replica_port,
      }),
      resources: [
        {
          id: `${s.id}-compute`,
          spec: {
            milli_cpu: s.milli_cpu,
            memory_gb: s.memory_gb,
            ha_replicas: s.ha_replicas,
            sync_replicas: s.sync_replicas,
            enable_ha_replica: s.ha_replicas > 0,
          },
        },
      ],
    });
  }

  // --- create --------------------------------------------------------------------------------

  async create(project: string, body: ServiceInput, portAttempts = 0): Promise<Mutation<Service>> {
    checkProject(project);
    project = await claimProject(this.ctx, project);
    const warnings = checkBody("resource.tsdb_service", body as Record<string, unknown>);
    const isReplica = body.read_replica_source !== undefined && body.read_replica_source !== null;

    // scrypt is slow: hash (off the event loop) before taking the write lock
    let initialPassword: string | undefined;
    let passwordHash: string | null = null;
    let verifier: string | null = null;
    if (!isReplica) {
      const password = typeof body.password_wo === "string" ? body.password_wo : typeof body.password === "string" ? body.password : (initialPassword = newPassword());
      [passwordHash, verifier] = await Promise.all([hashPassword(password), scramVerifier(password)]);
    } else if (body.password !== undefined || body.password_wo !== undefined) {
      warnings.push(warning([body.password !== undefined ? "password" : "password_wo"], "a read replica shares its source's password; the password given is not applied"));
    }

    if (this.ctx.dataPlane.recordOnly) warnings.push(warning([], this.ctx.dataPlane.recordOnly));
    // Real loopback ports, free now and held by no stored service (checked again in the write).
    const freePorts = async (): Promise<Ports | undefined> => {
      if (!this.ctx.dataPlane.on) return undefined;
      const held = portsHeld(await this.ctx.read((tx) => tx.all<{ spec: string }>(HELD_PORTS)));
      const [main, pooler, replica] = await choosePorts(3, held);
      return { main: main!, pooler: pooler!, replica: replica! };
    };
    let ports = await freePorts();

    const row = await this.ctx.write(async (tx) => {
      if (ports && [...portsHeld(await tx.all<{ spec: string }>(HELD_PORTS))].some((p) => Object.values(ports!).includes(p))) {
        throw new PortRace();
      }
      let source: ServiceRow | undefined;
      if (isReplica) source = await this.replicaSource(tx, project, body.read_replica_source!);
      const region = body.region_code ?? source?.region ?? DEFAULT_REGION;
      if (source && region !== source.region) {
        throw precondition(
          ["region_code"],
          `a read replica must be in its source's region: service ${source.id} is in ${source.region}, not ${region} (omit region_code to inherit it)`,
        );
      }
      this.checkRegion(region);
      const sourceSpec = source ? parseJson<ServiceSpec>(source.spec) : undefined;
      const spec = resolveSpec(body, sourceSpec, isReplica, ports ?? {
        main: randomPort(),
        pooler: randomPort(),
        replica: randomPort(),
      });
      spec.name = body.name ?? (sourceSpec ? `replica-${sourceSpec.name}` : `db-${randomInt(10000, 100000)}`);
      if (body.vpc_id !== undefined && body.vpc_id !== null) await this.checkVpc(tx, project, body.vpc_id, region);
      if (body.log_exporter_id) {
        // a service created with its exporter starts with logs flowing: no restart is pending
        await this.checkExporter(tx, project, body.log_exporter_id, "log", region);
      }
      if (body.metric_exporter_id) await this.checkExporter(tx, project, body.metric_exporter_id, "metric", region);

      const now = this.ctx.now();
      const half = Math.floor(this.ctx.transitionMs / 2);
      const creating: Array<[ServiceStatus, number]> = [
        ["QUEUED", half],
        ["CONFIGURING", this.ctx.transitionMs - half],
      ];
      const t: Track<ServiceStatus> = body.paused
        ? track(now, [...creating, ["PAUSING", this.ctx.transitionMs]], "PAUSED")
        : track(now, creating, "READY");
      let id = newServiceId();
      while ((await tx.get("SELECT 1 FROM services WHERE id = ?", id))) id = newServiceId();
      const record: ServiceRow = {
        id,
        project,
        region,
        source_id: source?.id ?? null,
        vpc_id: body.vpc_id ?? null,
        log_exporter_id: body.log_exporter_id ?? null,
        metric_exporter_id: body.metric_exporter_id ?? null,
        spec: JSON.stringify(spec),
        password_hash: passwordHash,
        password_verifier: verifier,
        track: JSON.stringify(t),
        created: this.ctx.iso(now),
        updated: this.ctx.iso(now),
      };
      await tx.run(`INSERT INTO services (id, project, region, source_id, vpc_id, log_exporter_id, metric_exporter_id, spec, password_hash, password_verifier, track, created, updated)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, record.id, record.project, record.region, record.source_id, record.vpc_id, record.log_exporter_id, record.metric_exporter_id, record.spec, record.password_hash, record.password_verifier, record.track, record.created, record.updated);
      await this.ctx.event(tx, project, TYPE, id, "created", source ? `read replica of ${source.id} created in ${region}` : `service created in ${region}`);
      if (body.paused) await this.ctx.event(tx, project, TYPE, id, "paused", "service paused after creation");
      return record;
    }).catch(async (error: unknown) => {
      if (!(error instanceof PortRace)) throw error;
      return undefined;
    });
    if (!row) {
      // another create took one of the ports between the check and the write: choose again
      if (++portAttempts > 5) throw new PlatformError("conflict", "could not reserve loopback ports for the service: other creates keep taking them; retry");
      return this.create(project, body, portAttempts);
    }
    this.ctx.changed();
    const out = await this.ctx.read((tx) => this.observedBody(tx, row));
    if (initialPassword !== undefined) out.password = initialPassword;
    return { body: out, warnings };
  }

  // --- update --------------------------------------------------------------------------------

  async update(project: string, id: string, patch: ServicePatch): Promise<Mutation<Service>> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    const before = await this.ctx.read(async (tx) => (await this.findRow(tx, project, id)));
    if (!before) throw notFound(`service ${id} in project ${project}`);
    const beforeSpec = parseJson<ServiceSpec>(before.spec);
    const warnings: Warning[] = [];

    // Decide on a password reset (and hash) before taking the write lock.
    let newHash: string | undefined;
    let newVerifier: string | undefined;
    let passwordEvent: string | undefined;
    if (!before.source_id) {
      const versionChanged = patch.password_wo_version !== undefined && (patch.password_wo_version ?? undefined) !== beforeSpec.password_wo_version;
      if (typeof patch.password_wo === "string" && versionChanged) {
        [newHash, newVerifier] = await Promise.all([hashPassword(patch.password_wo), scramVerifier(patch.password_wo)]);
        passwordEvent = `password reset from password_wo (version ${patch.password_wo_version ?? "none"})`;
      } else if (versionChanged && typeof patch.password_wo !== "string" && patch.password_wo_version !== null) {
        warnings.push(warning(["password_wo_version"], "password_wo_version changed but no password_wo was sent: the password is unchanged"));
      } else if (typeof patch.password === "string" && !(await verifyPassword(patch.password, before.password_hash))) {
        [newHash, newVerifier] = await Promise.all([hashPassword(patch.password), scramVerifier(patch.password)]);
        passwordEvent = "password reset";
      }
    }

    const row = await this.ctx.write(async (tx) => {
      const current = await this.findRow(tx, project, id);
      if (!current) throw notFound(`service ${id} in project ${project}`);
      const spec = parseJson<ServiceSpec>(current.spec);
      const t = parseTrack<ServiceStatus>(current.track);
      const now = this.ctx.now();
      const status = statusAt(t, now);

      if (patch.region_code !== undefined && patch.region_code !== null && patch.region_code !== current.region) {
        throw precondition(["region_code"], `region_code cannot change in place (the service is in ${current.region}): the service must be replaced`);
      }
      if (patch.read_replica_source !== undefined && (patch.read_replica_source ?? null) !== current.source_id) {
        throw precondition(
          ["read_replica_source"],
          current.source_id
            ? `read_replica_source cannot change (this service is a read replica of ${current.source_id}): the service must be replaced`
            : "read_replica_source cannot be set on an existing service: the service must be replaced",
        );
      }

      const config = this.configOf(current);
      const merged: ServiceInput = { ...config };
      for (const [key, value] of Object.entries(patch) as Array<[keyof ServiceInput, unknown]>) {
        if (value === undefined) continue;
        if (value === null) {
          if (NULL_MEANS[key] !== "keep") delete merged[key];
        } else {
          (merged as Record<string, unknown>)[key] = value;
        }
      }
      delete merged.timeouts;
      // Validate the configuration the service ends up with (write-only values only when sent).
      const checked: Record<string, unknown> = { ...merged };
      delete checked.password;
      delete checked.password_wo;
      if (typeof patch.password === "string") checked.password = patch.password;
      if (typeof patch.password_wo === "string") checked.password_wo = patch.password_wo;
      else delete checked.password_wo_version;
      warnings.push(...checkBody("resource.tsdb_service", checked));

      const source = current.source_id ? (await this.findRow(tx, project, current.source_id)) : undefined;
      const next = resolveSpec(merged, source ? parseJson<ServiceSpec>(source.spec) : undefined, current.source_id !== null, spec.ports);
      next.name = merged.name ?? spec.name;
      if (current.source_id) next.read_replica_nodes = merged.read_replica_nodes ?? spec.read_replica_nodes ?? 1;

      const vpcId = merged.vpc_id ?? null;
      const logId = merged.log_exporter_id ?? null;
      const metricId = merged.metric_exporter_id ?? null;
      if (vpcId !== null && vpcId !== current.vpc_id) await this.checkVpc(tx, project, vpcId, current.region);
      if (logId !== null && logId !== current.log_exporter_id) {
        await this.checkExporter(tx, project, logId, "log", current.region);
        warnings.push(logExporterWarning());
      }
      if (metricId !== null && metricId !== current.metric_exporter_id) await this.checkExporter(tx, project, metricId, "metric", current.region);

      const wantPaused = merged.paused ?? false;
      const isPaused = t.final === "PAUSED";
      let nextTrack = t;
      const events: Array<[string, string]> = [];
      const reconfigured =
        next.milli_cpu !== spec.milli_cpu ||
        next.memory_gb !== spec.memory_gb ||
        next.ha_replicas !== spec.ha_replicas ||
        next.sync_replicas !== spec.sync_replicas ||
        next.connection_pooler_enabled !== spec.connection_pooler_enabled ||
        next.read_replica_nodes !== spec.read_replica_nodes ||
        vpcId !== current.vpc_id ||
        logId !== current.log_exporter_id ||
        metricId !== current.metric_exporter_id;
      if (wantPaused && !isPaused) {
        nextTrack = track(now, [["PAUSING", this.ctx.transitionMs]], "PAUSED");
        events.push(["paused", "service paused"]);
      } else if (!wantPaused && isPaused) {
        nextTrack = track(now, [["RESUMING", this.ctx.transitionMs]], "READY");
        events.push(["resumed", "service resumed"]);
      } else if (reconfigured && status === "READY") {
        nextTrack = track(now, [["CONFIGURING", this.ctx.transitionMs]], "READY");
      }
      if (next.milli_cpu !== spec.milli_cpu || next.memory_gb !== spec.memory_gb) {
        events.push(["resized", `resized to ${next.milli_cpu} milli-CPU / ${next.memory_gb} GB`]);
      }
      if (next.ha_replicas !== spec.ha_replicas || next.sync_replicas !== spec.sync_replicas) {
        events.push(["replicas_changed", `HA replicas ${next.ha_replicas}, synchronous ${next.sync_replicas}`]);
      }
      if (vpcId !== current.vpc_id) events.push(["vpc_changed", vpcId === null ? `detached from VPC ${current.vpc_id}` : `attached to VPC ${vpcId}`]);
      if (logId !== current.log_exporter_id) events.push(["log_exporter_changed", logId === null ? "log exporter detached" : `log exporter ${logId} attached (restart pending)`]);
      if (metricId !== current.metric_exporter_id) events.push(["metric_exporter_changed", metricId === null ? "metric exporter detached" : `metric exporter ${metricId} attached`]);
      if (newHash !== undefined && passwordEvent) events.push(["password_reset", passwordEvent]);

      const changed =
        !sameJson(next, spec) ||
        nextTrack !== t ||
        vpcId !== current.vpc_id ||
        logId !== current.log_exporter_id ||
        metricId !== current.metric_exporter_id ||
        newHash !== undefined;
      if (!changed) return current;
      const updated: ServiceRow = {
        ...current,
        vpc_id: vpcId,
        log_exporter_id: logId,
        metric_exporter_id: metricId,
        spec: JSON.stringify(next),
        password_hash: newHash ?? current.password_hash,
        password_verifier: newVerifier ?? current.password_verifier,
        track: JSON.stringify(nextTrack),
        updated: this.ctx.iso(now),
      };
      await tx.run(`UPDATE services SET vpc_id = ?, log_exporter_id = ?, metric_exporter_id = ?,
             spec = ?, password_hash = ?, password_verifier = ?, track = ?, updated = ? WHERE id = ?`, updated.vpc_id, updated.log_exporter_id, updated.metric_exporter_id, updated.spec, updated.password_hash, updated.password_verifier, updated.track, updated.updated, updated.id);
      if (events.length === 0) events.push(["updated", "service updated"]);
      for (const [kind, message] of events) await this.ctx.event(tx, project, TYPE, id, kind, message);
      return updated;
    });
    this.ctx.changed();
    return { body: await this.ctx.read((tx) => this.observedBody(tx, row)), warnings };
  }

  // --- delete --------------------------------------------------------------------------------

  async delete(project: string, id: string): Promise<void> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    await this.ctx.write(async (tx) => {
      const current = await this.findRow(tx, project, id);
      if (!current) throw notFound(`service ${id} in project ${project}`);
      if (parseJson<ServiceSpec>(current.spec).deletion_protection === true) {
        throw precondition(["deletion_protection"], `service ${id} has deletion_protection = true: set deletion_protection to false (update the service) before deleting it`);
      }
      const replicas = (await tx.all("SELECT id FROM services WHERE source_id = ? ORDER BY id", id)) as Array<{ id: string }>;
      if (replicas.length > 0) {
        throw precondition(
          ["id"],
          `service ${id} still has read ${replicas.length === 1 ? "replica" : "replicas"} ${replicas.map((r) => r.id).join(", ")}: delete ${replicas.length === 1 ? "it" : "them"} first`,
        );
      }
      const connectors = (await tx.all("SELECT id, kind FROM connectors WHERE service_id = ?", id)) as Array<{ id: string; kind: string }>;
      for (const c of connectors) {
        await tx.run("DELETE FROM connectors WHERE id = ?", c.id);
        await this.ctx.event(tx, project, c.kind === "src_db" ? "tsdb_connector_src_db" : "tsdb_connector_obj_store", c.id, "deleted", `deleted with service ${id}`);
      }
      await tx.run("DELETE FROM services WHERE id = ?", id);
      await this.ctx.event(tx, project, TYPE, id, "deleted", "service deleted");
    });
    // With real databases, the delete is done when nothing of the service runs any more (its
    // connectors' subscriptions dropped first, their slots with them).
    await this.ctx.awaitRemoval(`service ${id}`, async (tx) =>
      !(await tx.get("SELECT 1 FROM dataplane_services WHERE service_id = ?", id)) && !(await tx.get("SELECT 1 FROM dataplane_components WHERE service_id = ?", id)),
    );
  }

  // --- rules ---------------------------------------------------------------------------------

  private async replicaSource(tx: Tx, project: string, sourceId: string): Promise<ServiceRow> {
    const source = await this.findRow(tx, project, sourceId);
    if (!source) throw precondition(["read_replica_source"], `service ${sourceId} does not exist in project ${project}`);
    if (source.source_id) {
      throw precondition(
        ["read_replica_source"],
        `cannot create a read replica of a read replica: service ${sourceId} is itself a read replica of ${source.source_id}`,
      );
    }
    return source;
  }

  private checkRegion(region: string): void {
    if (!findRegion(region)) throw invalid(["region_code"], `region ${region} is not offered; available regions: ${regionList()}`);
  }

  async checkVpc(tx: Tx, project: string, vpcId: number, region: string): Promise<void> {
    const vpc = await tx.get<{ id: number; region: string; track: string }>("SELECT id, region, track FROM vpcs WHERE id = ? AND project = ?", vpcId, project);
    if (!vpc) throw precondition(["vpc_id"], `VPC ${vpcId} does not exist in project ${project}`);
    if (findRegion(region)?.cloud !== "aws") throw precondition(["vpc_id"], `VPCs are supported only for services in AWS regions; this service is in ${region}`);
    if (vpc.region !== region) {
      throw precondition(["vpc_id"], `VPC ${vpcId} is in region ${vpc.region}; a service can only attach a VPC in its own region (${region})`);
    }
    const vpcStatus = statusAt(parseTrack(vpc.track), this.ctx.now());
    if (vpcStatus !== "CREATED") throw precondition(["vpc_id"], `VPC ${vpcId} is ${vpcStatus}, not CREATED yet; wait for it and retry`);
  }

  async checkExporter(tx: Tx, project: string, exporterId: string, kind: "log" | "metric", region: string): Promise<void> {
    const path = [kind === "log" ? "log_exporter_id" : "metric_exporter_id"];
    const exporter = await tx.get<{ kind: string; region: string }>("SELECT kind, region FROM exporters WHERE id = ? AND project = ?", exporterId, project);
    if (!exporter) throw precondition(path, `${kind} exporter ${exporterId} does not exist in project ${project}`);
    if (exporter.kind !== kind) throw precondition(path, `exporter ${exporterId} is a ${exporter.kind} exporter; ${path[0]} takes a ${kind} exporter`);
    if (findRegion(region)?.cloud !== "aws") throw precondition(path, `exporters are supported only for services in AWS regions; this service is in ${region}`);
    if (exporter.region !== region) {
      throw precondition(path, `${kind} exporter ${exporterId} is in region ${exporter.region}; only services in the same region can attach it (this service is in ${region})`);
    }
  }

  /** The configuration view of a stored service (what a patch is applied to). */
  private configOf(row: ServiceRow): ServiceInput {
    const spec = parseJson<ServiceSpec>(row.spec);
    return compact({
      name: spec.name,
      milli_cpu: spec.milli_cpu,
      memory_gb: spec.memory_gb,
      region_code: row.region,
      storage_gb: spec.storage_gb,
      enable_ha_replica: spec.enable_ha_replica,
      ha_replicas: spec.ha_replicas,
      sync_replicas: spec.sync_replicas,
      connection_pooler_enabled: spec.connection_pooler_enabled,
      environment_tag: spec.environment_tag,
      paused: parseTrack(row.track).final === "PAUSED",
      vpc_id: row.vpc_id ?? undefined,
      log_exporter_id: row.log_exporter_id ?? undefined,
      metric_exporter_id: row.metric_exporter_id ?? undefined,
      read_replica_source: row.source_id ?? undefined,
      read_replica_nodes: spec.read_replica_nodes,
      password_wo_version: spec.password_wo_version,
      deletion_protection: spec.deletion_protection,
      parameters: spec.parameters,
    });
  }

  toBody(row: ServiceRow): Service {
    const spec = parseJson<ServiceSpec>(row.spec);
    const status = statusAt(parseTrack<ServiceStatus>(row.track), this.ctx.now());
    const real = this.ctx.dataPlane.on;
    const inVpc = row.vpc_id !== null && !real;
    const domain = `${dnsLabel(row.project)}.${inVpc ? VPC_ENDPOINT_DOMAIN : ENDPOINT_DOMAIN}`;
    const pooler = spec.connection_pooler_enabled;
    const replica = spec.ha_replicas > 0;
    return compact({
      id: row.id,
      name: spec.name,
      milli_cpu: spec.milli_cpu,
      memory_gb: spec.memory_gb,
      region_code: row.region,
      ha_replicas: spec.ha_replicas,
      sync_replicas: spec.sync_replicas,
      connection_pooler_enabled: spec.connection_pooler_enabled,
      environment_tag: spec.environment_tag,
      paused: status === "PAUSED" || status === "PAUSING",
      hostname: real ? LOOPBACK : `${row.id}.${domain}`,
      port: inVpc ? VPC_PORT : spec.ports.main,
      username: SERVICE_USERNAME,
      pooler_hostname: pooler ? (real ? LOOPBACK : `${row.id}-pooler.${domain}`) : undefined,
      pooler_port: pooler ? (inVpc ? VPC_POOLER_PORT : spec.ports.pooler) : undefined,
      replica_hostname: replica ? (real ? LOOPBACK : `${row.id}-repl.${domain}`) : undefined,
      replica_port: replica ? (inVpc ? VPC_PORT : spec.ports.replica) : undefined,
      vpc_id: row.vpc_id ?? undefined,
      log_exporter_id: row.log_exporter_id ?? undefined,
      metric_exporter_id: row.metric_exporter_id ?? undefined,
      read_replica_source: row.source_id ?? undefined,
      read_replica_nodes: row.source_id ? (spec.read_replica_nodes ?? 1) : undefined,
      password_wo_version: spec.password_wo_version,
      deletion_protection: spec.deletion_protection === true,
      parameters: spec.parameters,
      storage_gb: spec.storage_gb,
      enable_ha_replica: spec.enable_ha_replica,
      status,
      created: row.created,
    });
  }
}

/** Thrown inside a create's write when another create took one of its ports meanwhile. */
class PortRace extends Error {}

/**
 * The note for a log exporter attached to a running service, in the one wording every client
 * shows (the provider shows it at plan, or at apply under `terraform apply`, never both).
 */
export const LOG_EXPORTER_RESTART_NOTE =
  "Attaching a log exporter to a running service: logs flow only after the service restarts, which an update does not do. To restart it, pause the service (set paused = true and apply), then resume it (remove paused or set it to false, and apply again).";

function logExporterWarning(): Warning {
  return warning(["log_exporter_id"], LOG_EXPORTER_RESTART_NOTE);
}

/** Sizes, HA and the other settings of a service, with defaults and the platform's rules. */
function resolveSpec(input: ServiceInput, source: ServiceSpec | undefined, isReplica: boolean, ports: Ports): ServiceSpec {
  let milli = input.milli_cpu;
  let memory = input.memory_gb;
  if (milli === undefined && memory === undefined) {
    milli = source?.milli_cpu ?? DEFAULT_MILLI_CPU;
    memory = source?.memory_gb ?? DEFAULT_MEMORY_GB;
  }
  milli ??= DEFAULT_MILLI_CPU;
  memory ??= DEFAULT_MEMORY_GB;
  if (!(MEMORY_SIZES as readonly number[]).includes(memory)) throw invalid(["memory_gb"], `memory_gb must be one of ${MEMORY_SIZES.join(", ")}, got ${memory}`);
  if (!MILLI_CPU_SIZES.includes(milli)) throw invalid(["milli_cpu"], `milli_cpu must be one of ${MILLI_CPU_SIZES.join(", ")}, got ${milli}`);
  if (milli !== memory * MILLI_CPU_PER_GB) {
    throw invalid(["milli_cpu"], `milli_cpu must equal 250 × memory_gb: ${memory} GB goes with ${memory * MILLI_CPU_PER_GB} milli-CPU, got ${milli}`);
  }

  const eha = input.enable_ha_replica;
  let ha = input.ha_replicas;
  if (ha === undefined) ha = eha === true ? 1 : 0;
  else if (eha === false && ha > 0) throw invalid(["enable_ha_replica"], "enable_ha_replica = false cannot be combined with ha_replicas > 0");
  else if (eha === true && ha === 0) throw invalid(["enable_ha_replica"], "enable_ha_replica = true cannot be combined with ha_replicas = 0");
  if (!Number.isInteger(ha) || ha < 0 || ha > 2) throw invalid(["ha_replicas"], `ha_replicas must be 0, 1 or 2, got ${ha}`);
  const sync = input.sync_replicas ?? 0;
  if (sync !== 0 && sync !== 1) throw invalid(["sync_replicas"], `sync_replicas must be 0 or 1, got ${sync}`);
  if (sync === 1 && ha !== 2) throw invalid(["sync_replicas"], "sync_replicas = 1 requires ha_replicas = 2");

  let nodes: number | undefined;
  if (isReplica) {
    if (ha > 0 || sync > 0 || eha === true) {
      throw invalid(["ha_replicas"], "a read replica (read_replica_source set) cannot have HA replicas: leave ha_replicas, sync_replicas and enable_ha_replica unset or 0/false");
    }
    nodes = input.read_replica_nodes ?? 1;
    if (!Number.isInteger(nodes) || nodes < 1 || nodes > 10) throw invalid(["read_replica_nodes"], `read_replica_nodes must be 1 to 10, got ${nodes}`);
  } else if (input.read_replica_nodes !== undefined) {
    throw invalid(["read_replica_nodes"], "read_replica_nodes can only be set when read_replica_source is set");
  }

  const tag = input.environment_tag ?? "DEV";
  if (!ENVIRONMENT_TAGS.includes(tag)) throw invalid(["environment_tag"], `environment_tag must be DEV or PROD, got ${JSON.stringify(tag)}`);
  if (input.password !== undefined && input.password_wo !== undefined) {
    throw new PlatformError("invalid", "password conflicts with password_wo: set only one of them", [
      { severity: "error", path: ["password"], message: "password conflicts with password_wo: set only one of them" },
    ]);
  }

  return compact({
    name: input.name ?? "",
    milli_cpu: milli,
    memory_gb: memory,
    ha_replicas: ha,
    sync_replicas: sync,
    connection_pooler_enabled: input.connection_pooler_enabled ?? false,
    environment_tag: tag,
    read_replica_nodes: nodes,
    password_wo_version: input.password_wo_version,
    storage_gb: input.storage_gb,
    enable_ha_replica: eha,
    deletion_protection: input.deletion_protection === true ? true : undefined,
    parameters: input.parameters ? { ...input.parameters } : undefined,
    ports,
  });
}
