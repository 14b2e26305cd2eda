// tsdb_log_exporter and tsdb_metric_exporter: UUID ids, `created` (RFC 3339), `type` from the
// configured block. Secrets (`cloudmon.secret_key`, `saasmon.api_key`, `pullmon.password`) are
// encrypted at rest and never returned. Only services in the exporter's region can attach it;
// deleting an exporter is refused while a service has it attached.
//
// A pullmon exporter gets a loopback port at create (free then, and held by no stored service or
// exporter), kept for its life and stored in its spec (`ports.metrics`, the shape services use):
// the data plane serves its metrics there, and `endpoint` is the URL. Switching an exporter to
// pullmon chooses a port; switching it away releases it.

import { randomInt } from "node:crypto";
import { PlatformError, invalid, notFound, precondition, type Warning } from "../errors.js";
import { findRegion, regionList } from "../catalog.js";
import { newUuid } from "../secrets.js";
import type {
  ExporterPatch,
  LogExporter,
  LogExporterInput,
  MetricExporter,
  MetricExporterInput,
  Mutation,
} from "../types.js";
import { checkBody, type BodyType } from "../validation.js";
import type { Tx } from "../storage.js";
import { choosePorts, portsHeld } from "../dataplane/ports.js";
import { pullmonEndpoint } from "../dataplane/exporters/pullmon.js";
import { compact, parseJson, type Ctx } from "./context.js";
import { checkProject } from "./services.js";
import { claimProject, projectKey } from "./projects.js";

type Kind = "log" | "metric";
type Block = "cloudmon" | "saasmon" | "pullmon";
type AnyInput = LogExporterInput & MetricExporterInput;

const BLOCKS: Record<Kind, Block[]> = { log: ["cloudmon"], metric: ["saasmon", "pullmon", "cloudmon"] };
const SECRET_OF: Record<Block, string> = { cloudmon: "secret_key", saasmon: "api_key", pullmon: "password" };
const TYPE_KEY: Record<Kind, BodyType> = { log: "resource.tsdb_log_exporter", metric: "resource.tsdb_metric_exporter" };
const TF_TYPE: Record<Kind, string> = { log: "tsdb_log_exporter", metric: "tsdb_metric_exporter" };

interface ExporterRow {
  id: string;
  project: string;
  kind: Kind;
  region: string;
  spec: string;
  secrets: string | null;
  created: string;
  updated: string;
}

/** Non-secret configuration: name and the one configured block, without its secret. */
interface ExporterSpec {
  name: string;
  type: Block;
  config: Record<string, unknown>;
  /** pullmon: the loopback port its endpoint answers on */
  ports?: { metrics: number };
}

/** Every loopback port a stored service or exporter holds. */
async function storedPorts(tx: Tx): Promise<Set<number>> {
  return portsHeld(await tx.all<{ spec: string }>("SELECT spec FROM services UNION ALL SELECT spec FROM exporters"));
}

/** Thrown inside a write when the port chosen before it was taken meanwhile: choose again. */
class PortRace extends Error {}
const PORT_ATTEMPTS = 5;

export class Exporters {
  constructor(
    private readonly ctx: Ctx,
    private readonly kind: Kind,
  ) {}

  private row(tx: Tx, project: string, id: string): Promise<ExporterRow | undefined> {
    return tx.get<ExporterRow>("SELECT * FROM exporters WHERE id = ? AND project = ? AND kind = ?", id, project, this.kind);
  }

  /** Checks the configuration block(s) and returns the one in use. */
  private configured(body: AnyInput): Block {
    const present = BLOCKS[this.kind].filter((b) => body[b] !== undefined && body[b] !== null);
    for (const other of ["saasmon", "pullmon"] as const) {
      if (this.kind === "log" && body[other] !== undefined && body[other] !== null) throw invalid([other], `${other} is not available for log exporters; use cloudmon`);
    }
    if (present.length === 0) {
      throw invalid([], this.kind === "log" ? "cloudmon is required: a log exporter needs a destination" : "exactly one of saasmon, pullmon and cloudmon must be set");
    }
    if (present.length > 1) throw invalid([present[1]!], `exactly one of saasmon, pullmon and cloudmon must be set, got ${present.join(" and ")}`);
    const block = present[0]!;
    if (block === "cloudmon") {
      const c = body.cloudmon!;
      if (c.role_arn !== undefined && (c.access_key !== undefined || c.secret_key !== undefined)) {
        throw invalid(["cloudmon", "role_arn"], "cloudmon: role_arn cannot be combined with access_key or secret_key");
      }
      if ((c.access_key === undefined) !== (c.secret_key === undefined)) {
        throw invalid(["cloudmon", c.access_key === undefined ? "access_key" : "secret_key"], "cloudmon: access_key and secret_key must be set together");
      }
      if (c.role_arn === undefined && c.access_key === undefined) {
        throw invalid(["cloudmon"], "cloudmon needs authentication: set role_arn, or access_key together with secret_key");
      }
      if (this.kind === "metric" && !c.namespace) throw invalid(["cloudmon", "namespace"], "cloudmon.namespace is required for metric exporters");
      if (this.kind === "log" && c.namespace !== undefined) throw invalid(["cloudmon", "namespace"], "namespace applies to metric exporters only");
    }
    return block;
  }

  async create(project: string, body: AnyInput): Promise<Mutation<LogExporter | MetricExporter>> {
    checkProject(project);
    project = await claimProject(this.ctx, project);
    const warnings = checkBody(TYPE_KEY[this.kind], body as unknown as Record<string, unknown>);
    const region = exporterRegion(body.region);
    const block = this.configured(body);
    const id = newUuid();
    const { config, secret } = splitSecret(block, body[block] as unknown as Record<string, unknown>);
    const spec: ExporterSpec = { name: body.name ?? `${this.kind === "log" ? "logs" : "metrics"}-${randomInt(10000, 100000)}`, type: block, config };
    const sealed = this.ctx.box.seal({ [SECRET_OF[block]]: secret }, `exporter:${id}`);
    const row = await this.withPort(block, async (port) => this.ctx.write(async (tx) => {
      if (port !== undefined) {
        if ((await storedPorts(tx)).has(port)) throw new PortRace();
        spec.ports = { metrics: port };
      }
      const now = this.ctx.iso();
      const record: ExporterRow = { id, project, kind: this.kind, region, spec: JSON.stringify(spec), secrets: sealed, created: now, updated: now };
      await tx.run("INSERT INTO exporters (id, project, kind, region, spec, secrets, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", record.id, record.project, record.kind, record.region, record.spec, record.secrets, record.created, record.updated);
      await this.ctx.event(tx, project, TF_TYPE[this.kind], id, "created", `${this.kind} exporter ${spec.name} (${block}) created in ${region}`);
      return record;
    }));
    return { body: this.toBody(row), warnings };
  }

  /**
   * Runs `write` with a free loopback port when `block` is pullmon (undefined otherwise), again
   * with another port when a concurrent write took it first.
   */
  private async withPort<T>(block: Block | undefined, write: (port: number | undefined) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const port = block === "pullmon" ? (await choosePorts(1, await this.ctx.read(storedPorts)))[0] : undefined;
      try {
        return await write(port);
      } catch (error) {
        if (!(error instanceof PortRace)) throw error;
        if (attempt >= PORT_ATTEMPTS) throw new PlatformError("conflict", "could not reserve a loopback port for the pullmon endpoint: other creates keep taking them; retry");
      }
    }
  }

  async get(project: string, id: string): Promise<LogExporter | MetricExporter> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    const row = await this.ctx.read(async (tx) => (await this.row(tx, project, id)));
    if (!row) throw notFound(`${this.kind} exporter ${id} in project ${project}`);
    return this.toBody(row);
  }

  async list(project: string): Promise<Array<LogExporter | MetricExporter>> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    const rows = await this.ctx.read(
      (tx) => tx.all<ExporterRow>("SELECT * FROM exporters WHERE project = ? AND kind = ? ORDER BY created, id", project, this.kind),
    );
    return rows.map((r) => this.toBody(r));
  }

  /**
   * Blocks given in the patch replace the stored configuration (the others are cleared). A block
   * of the stored type sent without its secret keeps the stored secret.
   */
  async update(project: string, id: string, patch: ExporterPatch<AnyInput>): Promise<Mutation<LogExporter | MetricExporter>> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    let warnings: Warning[] = [];
    // a port is chosen when the exporter becomes a pullmon exporter (or is one stored without a port)
    const before = await this.ctx.read((tx) => this.row(tx, project, id));
    const beforeSpec = before && parseJson<ExporterSpec>(before.spec);
    const blocksGiven = BLOCKS[this.kind].some((b) => patch[b] !== undefined);
    const willBePullmon = blocksGiven ? patch.pullmon !== undefined && patch.pullmon !== null : beforeSpec?.type === "pullmon";
    const needsPort = beforeSpec !== undefined && !beforeSpec.ports && willBePullmon;
    const row = await this.withPort(needsPort ? "pullmon" : undefined, (port) => this.ctx.write(async (tx) => {
      const current = await this.row(tx, project, id);
      if (!current) throw notFound(`${this.kind} exporter ${id} in project ${project}`);
      if (patch.region !== undefined && patch.region !== null && patch.region !== current.region) {
        throw precondition(["region"], `region of an exporter cannot change (it is ${current.region}): the exporter must be replaced`);
      }
      const spec = parseJson<ExporterSpec>(current.spec);
      const storedSecrets = this.ctx.box.open(current.secrets, `exporter:${id}`);
      const blocksInPatch = BLOCKS[this.kind].filter((b) => patch[b] !== undefined);
      const merged: AnyInput = { region: current.region, name: patch.name ?? spec.name };
      if (blocksInPatch.length === 0) {
        merged[spec.type] = { ...spec.config, [SECRET_OF[spec.type]]: storedSecrets[SECRET_OF[spec.type]] } as never;
      } else {
        for (const b of blocksInPatch) {
          const value = patch[b];
          if (value === null || value === undefined) continue;
          const given = { ...(value as unknown as Record<string, unknown>) };
          const secretKey = SECRET_OF[b];
          if (given[secretKey] === undefined && b === spec.type && storedSecrets[secretKey] !== undefined) given[secretKey] = storedSecrets[secretKey];
          merged[b] = given as never;
        }
      }
      warnings = checkBody(TYPE_KEY[this.kind], merged as unknown as Record<string, unknown>);
      const block = this.configured(merged);
      const { config, secret } = splitSecret(block, merged[block] as unknown as Record<string, unknown>);
      const next: ExporterSpec = { name: merged.name!, type: block, config };
      if (block === "pullmon") {
        if (spec.ports) next.ports = spec.ports;
        else if (port !== undefined && !(await storedPorts(tx)).has(port)) next.ports = { metrics: port };
        else throw new PortRace();
      }
      if (JSON.stringify(next) === current.spec && block === spec.type && storedSecrets[SECRET_OF[block]] === secret) return current;
      const sealed = this.ctx.box.seal({ [SECRET_OF[block]]: secret }, `exporter:${id}`);
      const updated = this.ctx.iso();
      await tx.run("UPDATE exporters SET spec = ?, secrets = ?, updated = ? WHERE id = ?", JSON.stringify(next), sealed, updated, id);
      await this.ctx.event(tx, project, TF_TYPE[this.kind], id, "updated", `${this.kind} exporter ${next.name} updated (${block})`);
      return { ...current, spec: JSON.stringify(next), secrets: sealed, updated };
    }));
    return { body: this.toBody(row), warnings };
  }

  async delete(project: string, id: string): Promise<void> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    await this.ctx.write(async (tx) => {
      const current = await this.row(tx, project, id);
      if (!current) throw notFound(`${this.kind} exporter ${id} in project ${project}`);
      const column = this.kind === "log" ? "log_exporter_id" : "metric_exporter_id";
      const users = (await tx.all(`SELECT id FROM services WHERE ${column} = ? ORDER BY id`, id)) as Array<{ id: string }>;
      if (users.length > 0) {
        throw precondition(["id"], `${this.kind} exporter ${id} is still attached to services ${users.map((u) => u.id).join(", ")}: detach it first (unset ${column})`);
      }
      await tx.run("DELETE FROM exporters WHERE id = ?", id);
      await this.ctx.event(tx, project, TF_TYPE[this.kind], id, "deleted", `${this.kind} exporter deleted`);
    });
    // With the data plane, done once the agent stopped serving it (a pullmon endpoint stops listening).
    await this.ctx.awaitRemoval(`${this.kind} exporter ${id}`, async (tx) => !(await tx.get("SELECT 1 FROM dataplane_components WHERE id = ?", id)));
  }

  private toBody(row: ExporterRow): LogExporter | MetricExporter {
    const spec = parseJson<ExporterSpec>(row.spec);
    return {
      id: row.id,
      region: row.region,
      name: spec.name,
      [spec.type]: spec.config,
      created: row.created,
      type: spec.type,
      ...(spec.type === "pullmon" && spec.ports ? { endpoint: pullmonEndpoint(spec.ports.metrics) } : {}),
    } as LogExporter | MetricExporter;
  }
}

function exporterRegion(region: unknown): string {
  const r = typeof region === "string" ? findRegion(region) : undefined;
  if (!r || r.cloud !== "aws") throw invalid(["region"], `region ${String(region)} is not supported for exporters; available regions: ${regionList("aws")}`);
  return r.code;
}

function splitSecret(block: Block, value: Record<string, unknown>): { config: Record<string, unknown>; secret: unknown } {
  const { [SECRET_OF[block]]: secret, ...config } = value;
  return { config: compact(config), secret };
}

