// tsdb_vpcs (one VPC per resource) and tsdb_peering_connection.
//
// VPC: integer `vpcs_id` (from 1001), `id` = its decimal string, `provisioned_id` `vpc-<17 hex>`,
// default name `vpc-NNNNN` (unique per project), CREATING → CREATED after one transition.
// Deleting a VPC is refused while peering connections or services use it.
//
// Peering: integer id (from 3001). `peering_type` is `vpc` or `tgw` from which peer id is set.
// VPC peering: `provisioned_id` = `accepter_provisioned_id` = `pcx-<17 hex>`, PENDING → ACTIVE
// after one transition. Transit gateway peering: `provisioned_id` `tgw-attach-<17 hex>` (requester
// attachment), `accepter_provisioned_id` another `tgw-attach-<17 hex>` (to accept on the cloud
// side), PENDING for two transitions (the attachment propagates) → ACTIVE. A peer CIDR block that
// overlaps the platform VPC's block ends in INVALID with an `error_message`.

import { randomInt } from "node:crypto";
import { PlatformError, invalid, notFound, precondition, type Warning } from "../errors.js";
import { findRegion, regionList } from "../catalog.js";
import { createHash } from "node:crypto";
import { randomHex } from "../secrets.js";
import { parseTrack, statusAt, track, type Track } from "../status.js";
import type {
  Mutation,
  PeeringConnection,
  PeeringInput,
  PeeringPatch,
  PeeringStatus,
  Vpc,
  VpcInput,
  VpcPatch,
  VpcPeeringSummary,
  VpcStatus,
  VpcsLookup,
} from "../types.js";
import { checkBody } from "../validation.js";
import type { Tx } from "../storage.js";
import { compact, parseJson, type Ctx } from "./context.js";
import { checkProject } from "./services.js";
import { claimProject, projectKey } from "./projects.js";

// --- IPv4 CIDR helpers ----------------------------------------------------------------------

export interface Cidr {
  base: number;
  prefix: number;
}

const OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
const CIDR_RE = new RegExp(`^${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}/(3[0-2]|[12]?[0-9])$`);

export function parseCidr(text: string): Cidr | undefined {
  const m = CIDR_RE.exec(text);
  if (!m) return undefined;
  const base = ((Number(m[1]) << 24) | (Number(m[2]) << 16) | (Number(m[3]) << 8) | Number(m[4])) >>> 0;
  return { base, prefix: Number(m[5]) };
}

function mask(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

function formatIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
}

export function cidrsOverlap(a: Cidr, b: Cidr): boolean {
  const m = mask(Math.min(a.prefix, b.prefix));
  return ((a.base & m) >>> 0) === ((b.base & m) >>> 0);
}

/** Parses a CIDR block and insists that no host bit is set (`10.0.0.1/16` is refused). */
function strictCidr(text: unknown, path: (string | number)[]): Cidr {
  const cidr = typeof text === "string" ? parseCidr(text) : undefined;
  if (!cidr) throw invalid(path, "must be an IPv4 CIDR block such as 10.0.0.0/16");
  const network = (cidr.base & mask(cidr.prefix)) >>> 0;
  if (network !== cidr.base) throw invalid(path, `${String(text)} has host bits set; did you mean ${formatIp(network)}/${cidr.prefix}?`);
  return cidr;
}

function awsRegion(region: unknown, path: (string | number)[]): string {
  const r = typeof region === "string" ? findRegion(region) : undefined;
  if (!r || r.cloud !== "aws") throw invalid(path, `region ${String(region)} is not supported here; available regions: ${regionList("aws")}`);
  return r.code;
}

// --- VPCs -------------------------------------------------------------------------------------

interface VpcRow {
  id: number;
  project: string;
  name: string;
  region: string;
  cidr: string;
  provisioned_id: string;
  track: string;
  error_message: string;
  created: string;
  updated: string;
}

export class Vpcs {
  constructor(private readonly ctx: Ctx) {}

  private async row(tx: Tx, project: string, vpcsId: number | string): Promise<VpcRow | undefined> {
    const id = typeof vpcsId === "number" ? vpcsId : /^[0-9]+$/.test(vpcsId) ? Number(vpcsId) : NaN;
    if (!Number.isSafeInteger(id)) throw invalid(["vpcs_id"], `'${vpcsId}' is not a VPC id (a whole number)`);
    return await tx.get<VpcRow>("SELECT * FROM vpcs WHERE id = ? AND project = ?", id, project);
  }

  async create(project: string, body: VpcInput): Promise<Mutation<Vpc>> {
    checkProject(project);
    project = await claimProject(this.ctx, project);
    const warnings = checkBody("resource.tsdb_vpcs", body as unknown as Record<string, unknown>);
    strictCidr(body.cidr, ["cidr"]);
    const region = awsRegion(body.region_code, ["region_code"]);
    const row = await this.ctx.write(async (tx) => {
      const taken = (name: string) => tx.get<{ id: number }>("SELECT id FROM vpcs WHERE project = ? AND name = ?", project, name);
      let name = body.name;
      if (name !== undefined) {
        const other = await taken(name);
        if (other) throw new PlatformError("conflict", `a VPC named ${name} already exists in project ${project} (vpcs_id ${other.id}); VPC names are unique in a project: to manage it, import it (terraform import <address> ${other.id}, or schemaform import), or choose another name`);
      } else {
        do name = `vpc-${randomInt(10000, 100000)}`;
        while (await taken(name));
      }
      const now = this.ctx.now();
      const t: Track<VpcStatus> = track(now, [["CREATING", this.ctx.transitionMs]], "CREATED");
      const inserted = await tx.get<{ id: number }>(
        "INSERT INTO vpcs (project, name, region, cidr, provisioned_id, track, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        project, name, region, body.cidr, `vpc-${randomHex(17)}`, JSON.stringify(t), this.ctx.iso(now), this.ctx.iso(now),
      );
      const id = Number(inserted!.id);
      await this.ctx.event(tx, project, "tsdb_vpcs", String(id), "created", `VPC ${name} (${body.cidr}) created in ${region}`);
      return (await this.row(tx, project, id))!;
    });
    return { body: this.toBody(row), warnings };
  }

  async get(project: string, vpcsId: number | string): Promise<Vpc> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    const row = await this.ctx.read(async (tx) => (await this.row(tx, project, vpcsId)));
    if (!row) throw notFound(`VPC ${vpcsId} in project ${project}`);
    return this.toBody(row);
  }

  async getByName(project: string, name: string): Promise<Vpc> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    const row = await this.ctx.read((tx) => tx.get<VpcRow>("SELECT * FROM vpcs WHERE project = ? AND name = ?", project, name));
    if (!row) throw notFound(`VPC named ${name} in project ${project}`);
    return this.toBody(row);
  }

  async list(project: string): Promise<Vpc[]> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    const rows = await this.ctx.read((tx) => tx.all<VpcRow>("SELECT * FROM vpcs WHERE project = ? ORDER BY id", project));
    return rows.map((r) => this.toBody(r));
  }

  async update(project: string, vpcsId: number | string, patch: VpcPatch): Promise<Mutation<Vpc>> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    const row = await this.ctx.write(async (tx) => {
      const current = await this.row(tx, project, vpcsId);
      if (!current) throw notFound(`VPC ${vpcsId} in project ${project}`);
      if (patch.cidr !== undefined && patch.cidr !== null && patch.cidr !== current.cidr) {
        throw precondition(["cidr"], `cidr of a VPC cannot change (it is ${current.cidr}): the VPC must be replaced`);
      }
      if (patch.region_code !== undefined && patch.region_code !== null && patch.region_code !== current.region) {
        throw precondition(["region_code"], `region_code of a VPC cannot change (it is ${current.region}): the VPC must be replaced`);
      }
      const name = patch.name ?? current.name;
      checkBody("resource.tsdb_vpcs", { cidr: current.cidr, region_code: current.region, name });
      if (name === current.name) return current;
      const other = await tx.get<{ id: number }>("SELECT id FROM vpcs WHERE project = ? AND name = ? AND id != ?", project, name, current.id);
      if (other) throw new PlatformError("conflict", `a VPC named ${name} already exists in project ${project} (vpcs_id ${other.id}); VPC names are unique in a project: to manage it, import it (terraform import <address> ${other.id}, or schemaform import), or choose another name`);
      const updated = this.ctx.iso();
      await tx.run("UPDATE vpcs SET name = ?, updated = ? WHERE id = ?", name, updated, current.id);
      await this.ctx.event(tx, project, "tsdb_vpcs", String(current.id), "renamed", `VPC renamed from ${current.name} to ${name}`);
      return { ...current, name, updated };
    });
    return { body: this.toBody(row), warnings: [] };
  }

  async delete(project: string, vpcsId: number | string): Promise<void> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    await this.ctx.write(async (tx) => {
      const current = await this.row(tx, project, vpcsId);
      if (!current) throw notFound(`VPC ${vpcsId} in project ${project}`);
      const peerings = (await tx.all("SELECT id FROM peerings WHERE vpc_id = ? ORDER BY id", current.id)) as Array<{ id: number }>;
      if (peerings.length > 0) {
        throw precondition(["vpcs_id"], `VPC ${current.id} (${current.name}) still has peering connections ${peerings.map((p) => p.id).join(", ")}: delete them first`);
      }
      const services = (await tx.all("SELECT id FROM services WHERE vpc_id = ? ORDER BY id", current.id)) as Array<{ id: string }>;
      if (services.length > 0) {
        throw precondition(["vpcs_id"], `VPC ${current.id} (${current.name}) is still attached to services ${services.map((s) => s.id).join(", ")}: detach or delete them first`);
      }
      await tx.run("DELETE FROM vpcs WHERE id = ?", current.id);
      await this.ctx.event(tx, project, "tsdb_vpcs", String(current.id), "deleted", `VPC ${current.name} deleted`);
    });
  }

  async lookup(project: string, peering: Peerings): Promise<VpcsLookup> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    return await this.ctx.read(async (tx) => {
      const rows = await tx.all<VpcRow>("SELECT * FROM vpcs WHERE project = ? ORDER BY id", project);
      const vpcs: VpcsLookup["vpcs"] = [];
      // one statement at a time: a transaction is one connection
      for (const row of rows) {
        const vpc = this.toBody(row);
        vpcs.push({
          id: vpc.vpcs_id,
          name: vpc.name,
          cidr: vpc.cidr,
          region_code: vpc.region_code,
          project_id: vpc.project_id,
          provisioned_id: vpc.provisioned_id,
          status: vpc.status,
          created: vpc.created,
          updated: vpc.updated,
          error_message: vpc.error_message,
          peering_connections: (await peering.listRows(tx, row.id)).map((p) => summary(peering.toBody(p, row))),
        });
      }
      return { id: `vpcs/${project}`, vpcs };
    });
  }

  toBody(row: VpcRow): Vpc {
    return {
      id: String(row.id),
      vpcs_id: row.id,
      name: row.name,
      cidr: row.cidr,
      region_code: row.region,
      project_id: row.project,
      provisioned_id: row.provisioned_id,
      status: statusAt(parseTrack<VpcStatus>(row.track), this.ctx.now()),
      error_message: row.error_message,
      created: row.created,
      updated: row.updated,
    };
  }
}

function summary(p: PeeringConnection): VpcPeeringSummary {
  return compact({
    id: p.peering_connection_id,
    platform_vpc_id: p.platform_vpc_id,
    peering_type: p.peering_type,
    provisioned_id: p.provisioned_id,
    accepter_provisioned_id: p.accepter_provisioned_id,
    peer_account_id: p.peer_account_id,
    peer_region_code: p.peer_region_code,
    peer_vpc_id: p.peer_vpc_id,
    peer_tgw_id: p.peer_tgw_id,
    peer_cidr: p.peer_cidr,
    peer_cidr_blocks: p.peer_cidr_blocks,
    vpc_id: p.vpc_id,
    status: p.status,
    error_message: p.error_message,
  });
}

// --- peering connections ---------------------------------------------------------------------

interface PeeringSpec {
  peer_account_id: string;
  peer_region_code: string;
  peer_vpc_id?: string;
  peer_tgw_id?: string;
  peer_cidr_blocks: string[];
  peering_type: "vpc" | "tgw";
  provisioned_id: string;
  accepter_provisioned_id: string;
}

interface PeeringRow {
  id: number;
  project: string;
  vpc_id: number;
  spec: string;
  track: string;
  failure: string;
  created: string;
  updated: string;
}

const FAILED: ReadonlySet<string> = new Set(["INVALID", "TIMEOUT", "DISABLED"]);

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = [...new Set(a)].sort();
  const sb = [...new Set(b)].sort();
  return sa.length === sb.length && sa.every((v, i) => v === sb[i]);
}

/** The peer VPC's block when VPC peering is requested without one: a stable /16 in 172.16.0.0/12 that avoids the platform VPC. */
function peerBlockFor(peerVpcId: string, platform: Cidr): string {
  const start = createHash("sha256").update(peerVpcId).digest().readUInt8(0) % 16;
  for (let i = 0; i < 16; i++) {
    const second = 16 + ((start + i) % 16);
    const candidate = `172.${second}.0.0/16`;
    if (!cidrsOverlap(parseCidr(candidate)!, platform)) return candidate;
  }
  return "192.168.0.0/16";
}

export class Peerings {
  constructor(private readonly ctx: Ctx) {}

  listRows(tx: Tx, vpcId: number): Promise<PeeringRow[]> {
    return tx.all<PeeringRow>("SELECT * FROM peerings WHERE vpc_id = ? ORDER BY id", vpcId);
  }

  private vpcRow(tx: Tx, project: string, vpcId: number): Promise<VpcRow | undefined> {
    return tx.get<VpcRow>("SELECT * FROM vpcs WHERE id = ? AND project = ?", vpcId, project);
  }

  private async row(tx: Tx, project: string, platformVpcId: number | undefined, id: number | string): Promise<PeeringRow | undefined> {
    const n = typeof id === "number" ? id : /^[0-9]+$/.test(id) ? Number(id) : NaN;
    if (!Number.isSafeInteger(n)) throw invalid(["peering_connection_id"], `'${id}' is not a peering connection id (a whole number)`);
    const row = await tx.get<PeeringRow>("SELECT * FROM peerings WHERE id = ? AND project = ?", n, project);
    if (row && platformVpcId !== undefined && row.vpc_id !== platformVpcId) return undefined;
    return row;
  }

  async create(project: string, body: PeeringInput): Promise<Mutation<PeeringConnection>> {
    checkProject(project);
    project = await claimProject(this.ctx, project);
    const warnings: Warning[] = checkBody("resource.tsdb_peering_connection", body as unknown as Record<string, unknown>);
    if (!/^[0-9]{12}$/.test(body.peer_account_id ?? "")) throw invalid(["peer_account_id"], "must be a 12-digit cloud account id");
    awsRegion(body.peer_region_code, ["peer_region_code"]);
    const hasVpc = typeof body.peer_vpc_id === "string";
    const hasTgw = typeof body.peer_tgw_id === "string";
    if (hasVpc === hasTgw) throw invalid(hasVpc ? ["peer_tgw_id"] : ["peer_vpc_id"], "exactly one of peer_vpc_id and peer_tgw_id must be set");
    if (hasVpc && !/^vpc-[0-9a-f]{8,17}$/.test(body.peer_vpc_id!)) throw invalid(["peer_vpc_id"], "must be a VPC id such as vpc-0a1b2c3d4e5f67890");
    if (hasTgw && !/^tgw-[0-9a-f]{8,17}$/.test(body.peer_tgw_id!)) throw invalid(["peer_tgw_id"], "must be a transit gateway id such as tgw-0a1b2c3d4e5f67890");
    const blocks = body.peer_cidr_blocks;
    if (hasTgw && (!blocks || blocks.length === 0)) throw invalid(["peer_cidr_blocks"], "peer_cidr_blocks is required for transit gateway peering (peer_tgw_id)");
    const parsed = (blocks ?? []).map((b, i) => strictCidr(b, ["peer_cidr_blocks", i]));
    if (blocks && new Set(blocks).size !== blocks.length) throw invalid(["peer_cidr_blocks"], "must not contain duplicates");

    const row = await this.ctx.write(async (tx) => {
      const vpc = await this.vpcRow(tx, project, body.platform_vpc_id);
      if (!vpc) throw precondition(["platform_vpc_id"], `VPC ${body.platform_vpc_id} does not exist in project ${project}`);
      const vpcStatus = statusAt(parseTrack(vpc.track), this.ctx.now());
      if (vpcStatus !== "CREATED") throw precondition(["platform_vpc_id"], `VPC ${vpc.id} is ${vpcStatus}, not CREATED yet; wait for it and retry`);
      const peerId = hasVpc ? body.peer_vpc_id! : body.peer_tgw_id!;
      for (const other of (await this.listRows(tx, vpc.id))) {
        const spec = parseJson<PeeringSpec>(other.spec);
        if ((spec.peer_vpc_id ?? spec.peer_tgw_id) === peerId && spec.peer_account_id === body.peer_account_id) {
          throw new PlatformError("conflict", `VPC ${vpc.id} already has peering connection ${other.id} to ${peerId} in account ${body.peer_account_id}`);
        }
      }
      const platformCidr = parseCidr(vpc.cidr)!;
      const finalBlocks = blocks ?? [peerBlockFor(peerId, platformCidr)];
      const overlapping = parsed.findIndex((c) => cidrsOverlap(c, platformCidr));
      const failure = overlapping >= 0 ? `peer CIDR block ${blocks![overlapping]} overlaps the platform VPC's block ${vpc.cidr}; peering requires disjoint address ranges` : "";
      const now = this.ctx.now();
      const pending = hasTgw ? 2 * this.ctx.transitionMs : this.ctx.transitionMs;
      const t: Track<PeeringStatus> = track(now, [["PENDING", failure ? this.ctx.transitionMs : pending]], failure ? "INVALID" : "ACTIVE");
      const pcx = `pcx-${randomHex(17)}`;
      const spec: PeeringSpec = compact({
        peer_account_id: body.peer_account_id,
        peer_region_code: body.peer_region_code,
        peer_vpc_id: body.peer_vpc_id,
        peer_tgw_id: body.peer_tgw_id,
        peer_cidr_blocks: finalBlocks,
        peering_type: hasTgw ? ("tgw" as const) : ("vpc" as const),
        provisioned_id: hasTgw ? `tgw-attach-${randomHex(17)}` : pcx,
        accepter_provisioned_id: hasTgw ? `tgw-attach-${randomHex(17)}` : pcx,
      });
      const inserted = await tx.get<{ id: number }>(
        "INSERT INTO peerings (project, vpc_id, spec, track, failure, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        project, vpc.id, JSON.stringify(spec), JSON.stringify(t), failure, this.ctx.iso(now), this.ctx.iso(now),
      );
      const id = Number(inserted!.id);
      await this.ctx.event(tx, project, "tsdb_peering_connection", String(id), "created", `${spec.peering_type} peering from VPC ${vpc.id} to ${peerId} requested`);
      return (await this.row(tx, project, vpc.id, id))!;
    });
    return { body: await this.ctx.read((tx) => this.bodyOf(tx, row)), warnings };
  }

  async get(project: string, platformVpcId: number | undefined, id: number | string): Promise<PeeringConnection> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    return await this.ctx.read(async (tx) => {
      const row = await this.row(tx, project, platformVpcId, id);
      if (!row) throw notFound(`peering connection ${id}${platformVpcId !== undefined ? ` of VPC ${platformVpcId}` : ""} in project ${project}`);
      return this.bodyOf(tx, row);
    });
  }

  async list(project: string, platformVpcId: number): Promise<PeeringConnection[]> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    return await this.ctx.read(async (tx) => {
      const vpc = await this.vpcRow(tx, project, platformVpcId);
      if (!vpc) throw notFound(`VPC ${platformVpcId} in project ${project}`);
      return (await this.listRows(tx, vpc.id)).map((r) => this.toBody(r, vpc));
    });
  }

  async update(project: string, platformVpcId: number | undefined, id: number | string, patch: PeeringPatch): Promise<Mutation<PeeringConnection>> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    const row = await this.ctx.write(async (tx) => {
      const current = await this.row(tx, project, platformVpcId, id);
      if (!current) throw notFound(`peering connection ${id} in project ${project}`);
      const spec = parseJson<PeeringSpec>(current.spec);
      const fixed: Array<[keyof PeeringInput, unknown]> = [
        ["platform_vpc_id", current.vpc_id],
        ["peer_account_id", spec.peer_account_id],
        ["peer_region_code", spec.peer_region_code],
        ["peer_vpc_id", spec.peer_vpc_id],
        ["peer_tgw_id", spec.peer_tgw_id],
      ];
      for (const [field, value] of fixed) {
        const given = patch[field];
        if (given !== undefined && (given ?? undefined) !== value) {
          throw precondition([field], `${field} of a peering connection cannot change: the peering connection must be replaced`);
        }
      }
      const blocks = patch.peer_cidr_blocks;
      if (blocks === undefined || blocks === null || sameSet(blocks, spec.peer_cidr_blocks)) return current;
      if (!Array.isArray(blocks) || blocks.length === 0) throw invalid(["peer_cidr_blocks"], "peer_cidr_blocks cannot be emptied; give at least one CIDR block");
      if (new Set(blocks).size !== blocks.length) throw invalid(["peer_cidr_blocks"], "must not contain duplicates");
      const vpc = (await this.vpcRow(tx, project, current.vpc_id))!;
      const platformCidr = parseCidr(vpc.cidr)!;
      blocks.forEach((b, i) => {
        const c = strictCidr(b, ["peer_cidr_blocks", i]);
        if (cidrsOverlap(c, platformCidr)) throw precondition(["peer_cidr_blocks", i], `${b} overlaps the platform VPC's block ${vpc.cidr}`);
      });
      const next: PeeringSpec = { ...spec, peer_cidr_blocks: [...blocks] };
      const updated = this.ctx.iso();
      await tx.run("UPDATE peerings SET spec = ?, updated = ? WHERE id = ?", JSON.stringify(next), updated, current.id);
      await this.ctx.event(tx, project, "tsdb_peering_connection", String(current.id), "cidrs_updated", `peer CIDR blocks set to ${blocks.join(", ")}`);
      return { ...current, spec: JSON.stringify(next), updated };
    });
    return { body: await this.ctx.read((tx) => this.bodyOf(tx, row)), warnings: [] };
  }

  async delete(project: string, platformVpcId: number | undefined, id: number | string): Promise<void> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    await this.ctx.write(async (tx) => {
      const current = await this.row(tx, project, platformVpcId, id);
      if (!current) throw notFound(`peering connection ${id} in project ${project}`);
      await tx.run("DELETE FROM peerings WHERE id = ?", current.id);
      await this.ctx.event(tx, project, "tsdb_peering_connection", String(current.id), "deleted", `peering connection deleted from VPC ${current.vpc_id}`);
    });
  }

  /** The body of a peering connection, with its platform VPC read in `tx`. */
  async bodyOf(tx: Tx, row: PeeringRow): Promise<PeeringConnection> {
    return this.toBody(row, (await tx.get<VpcRow>("SELECT * FROM vpcs WHERE id = ?", row.vpc_id))!);
  }

  toBody(row: PeeringRow, platform: VpcRow): PeeringConnection {
    const spec = parseJson<PeeringSpec>(row.spec);
    const status = statusAt(parseTrack<PeeringStatus>(row.track), this.ctx.now());
    return compact({
      id: String(row.id),
      peering_connection_id: row.id,
      platform_vpc_id: row.vpc_id,
      peer_account_id: spec.peer_account_id,
      peer_region_code: spec.peer_region_code,
      peer_vpc_id: spec.peer_vpc_id,
      peer_tgw_id: spec.peer_tgw_id,
      peer_cidr_blocks: [...spec.peer_cidr_blocks],
      peering_type: spec.peering_type,
      provisioned_id: spec.provisioned_id,
      accepter_provisioned_id: spec.accepter_provisioned_id,
      status,
      error_message: FAILED.has(status) ? row.failure : "",
      vpc_id: platform.provisioned_id,
      peer_cidr: "deprecated" as const,
    });
  }
}
