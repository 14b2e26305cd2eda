// tsdb_connector_obj_store and tsdb_connector_src_db: UUID ids, attached to an existing service of
// the project (deleted with it).
//
// Source-database connectors: `connection_string` is encrypted at rest and never returned; an SSH
// tunnel gets a real Ed25519 key pair (public key in OpenSSH form, private key encrypted); tables
// are keyed by (schema_name, table_name): a changed `table_mapping` or `publication_name` drops
// and re-adds the table (a `table_resync` event and a warning), a changed or added
// `hypertable_spec` on an existing table is refused (`failed_precondition`). Status: `paused` when
// disabled, `warning` when enabled with no tables to replicate, `ok` otherwise (the embedded
// platform never reaches a source database, so it never reports `error`).

import { invalid, notFound, precondition, type Warning } from "../errors.js";
import { generateSshKeyPair, newUuid } from "../secrets.js";
import type {
  Mutation,
  ObjStoreConnector,
  ObjStoreConnectorInput,
  ObjStoreConnectorPatch,
  SrcDbConnector,
  SrcDbConnectorInput,
  SrcDbConnectorPatch,
  SrcDbStatus,
  SrcDbTable,
  SshTunnel,
  SshTunnelInput,
} from "../types.js";
import { checkBody } from "../validation.js";
import type { Tx } from "../storage.js";
import { compact, parseJson, sameJson, warning, type Ctx } from "./context.js";
import { checkProject } from "./services.js";
import { claimProject, projectKey } from "./projects.js";

type Kind = "obj_store" | "src_db";
const TF_TYPE: Record<Kind, string> = { obj_store: "tsdb_connector_obj_store", src_db: "tsdb_connector_src_db" };

interface ConnectorRow {
  id: string;
  project: string;
  service_id: string;
  kind: Kind;
  spec: string;
  secrets: string | null;
  created: string;
  updated: string;
}

abstract class ConnectorBase {
  constructor(
    protected readonly ctx: Ctx,
    protected readonly kind: Kind,
  ) {}

  protected row(tx: Tx, project: string, id: string): Promise<ConnectorRow | undefined> {
    return tx.get<ConnectorRow>("SELECT * FROM connectors WHERE id = ? AND project = ? AND kind = ?", id, project, this.kind);
  }

  protected async requireRow(tx: Tx, project: string, id: string): Promise<ConnectorRow> {
    const row = await this.row(tx, project, id);
    if (!row) throw notFound(`${this.kind === "src_db" ? "source database" : "object store"} connector ${id} in project ${project}`);
    return row;
  }

  protected async checkService(tx: Tx, project: string, serviceId: unknown): Promise<void> {
    if (typeof serviceId !== "string" || serviceId === "") throw invalid(["service_id"], "service_id is required");
    const found = await tx.get("SELECT 1 FROM services WHERE id = ? AND project = ?", serviceId, project);
    if (!found) throw precondition(["service_id"], `service ${serviceId} does not exist in project ${project}`);
  }

  protected checkServiceUnchanged(row: ConnectorRow, serviceId: unknown): void {
    if (serviceId !== undefined && serviceId !== null && serviceId !== row.service_id) {
      throw precondition(["service_id"], `service_id of a connector cannot change (it is ${row.service_id}): the connector must be replaced`);
    }
  }

  protected async listRows(project: string, serviceId?: string): Promise<ConnectorRow[]> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    return this.ctx.read(
      async (tx) =>
        (serviceId === undefined
          ? (await tx.all("SELECT * FROM connectors WHERE project = ? AND kind = ? ORDER BY created, id", project, this.kind))
          : (await tx.all("SELECT * FROM connectors WHERE project = ? AND kind = ? AND service_id = ? ORDER BY created, id", project, this.kind, serviceId))) as ConnectorRow[],
    );
  }

  async delete(project: string, id: string): Promise<void> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    await this.ctx.write(async (tx) => {
      await this.requireRow(tx, project, id);
      await tx.run("DELETE FROM connectors WHERE id = ?", id);
      await this.ctx.event(tx, project, TF_TYPE[this.kind], id, "deleted", "connector deleted");
    });
    // With real databases, done once the agent stopped it (a subscription and its slot dropped).
    await this.ctx.awaitRemoval(`connector ${id}`, async (tx) => !(await tx.get("SELECT 1 FROM dataplane_components WHERE id = ?", id)));
  }
}

// --- object store ------------------------------------------------------------------------------

type ObjStoreSpec = Omit<ObjStoreConnector, "id" | "service_id" | "created_at" | "updated_at">;

export class ObjStoreConnectors extends ConnectorBase {
  constructor(ctx: Ctx) {
    super(ctx, "obj_store");
  }

  private resolve(input: ObjStoreConnectorInput, warnings: Warning[]): ObjStoreSpec {
    const creds = input.credentials;
    if (creds?.type === "RoleARN" && !creds.role_arn) throw invalid(["credentials", "role_arn"], "credentials.role_arn is required when credentials.type is RoleARN");
    if (creds?.type === "Public" && creds.role_arn !== undefined) throw invalid(["credentials", "role_arn"], "credentials.role_arn can only be set when credentials.type is RoleARN");
    const def = input.definition;
    if (def?.csv && def.type !== "CSV") throw invalid(["definition", "csv"], "definition.csv can only be set when definition.type is CSV");
    if (def?.parquet && def.type !== "PARQUET") throw invalid(["definition", "parquet"], "definition.parquet can only be set when definition.type is PARQUET");
    const definition = { ...def };
    if (def?.csv) {
      const csv = def.csv;
      const mapping = ["auto_column_mapping", "column_names", "column_mappings"].filter((k) => (csv as Record<string, unknown>)[k] !== undefined && (k !== "auto_column_mapping" || csv.auto_column_mapping === true));
      if (mapping.length > 1) throw invalid(["definition", "csv"], "definition.csv: auto_column_mapping, column_names and column_mappings are mutually exclusive");
      definition.csv = { ...csv, delimiter: csv.delimiter ?? ",", skip_header: csv.skip_header ?? false };
      if ((csv.auto_column_mapping === true || csv.column_mappings !== undefined) && !definition.csv.skip_header) {
        warnings.push(warning(["definition", "csv", "skip_header"], "columns are matched by the header line, but skip_header is false: the header line will also be imported as a row"));
      }
    }
    if (def?.parquet && def.parquet.auto_column_mapping === true && def.parquet.column_mappings !== undefined) {
      throw invalid(["definition", "parquet"], "definition.parquet: auto_column_mapping and column_mappings are mutually exclusive");
    }
    return compact({
      bucket: input.bucket,
      pattern: input.pattern,
      credentials: input.credentials,
      definition,
      table_identifier: { ...input.table_identifier, schema_name: input.table_identifier.schema_name ?? "public" },
      name: input.name ?? input.bucket,
      enabled: input.enabled ?? true,
      frequency: input.frequency ?? "@always",
      on_conflict_do_nothing: input.on_conflict_do_nothing ?? false,
    });
  }

  async create(project: string, body: ObjStoreConnectorInput): Promise<Mutation<ObjStoreConnector>> {
    checkProject(project);
    project = await claimProject(this.ctx, project);
    const warnings = checkBody("resource.tsdb_connector_obj_store", body as unknown as Record<string, unknown>);
    const spec = this.resolve(body, warnings);
    const row = await this.ctx.write(async (tx) => {
      await this.checkService(tx, project, body.service_id);
      const now = this.ctx.iso();
      const record: ConnectorRow = { id: newUuid(), project, service_id: body.service_id, kind: "obj_store", spec: JSON.stringify(spec), secrets: null, created: now, updated: now };
      await tx.run("INSERT INTO connectors (id, project, service_id, kind, spec, secrets, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", record.id, record.project, record.service_id, record.kind, record.spec, record.secrets, record.created, record.updated);
      await this.ctx.event(tx, project, TF_TYPE.obj_store, record.id, "created", `object store connector ${spec.name} created for service ${body.service_id}`);
      return record;
    });
    return { body: this.toBody(row), warnings };
  }

  async get(project: string, id: string): Promise<ObjStoreConnector> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    return this.toBody(await this.ctx.read(async (tx) => (await this.requireRow(tx, project, id))));
  }

  async list(project: string, serviceId?: string): Promise<ObjStoreConnector[]> {
    return (await this.listRows(project, serviceId)).map((r) => this.toBody(r));
  }

  async update(project: string, id: string, patch: ObjStoreConnectorPatch): Promise<Mutation<ObjStoreConnector>> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    const warnings: Warning[] = [];
    const row = await this.ctx.write(async (tx) => {
      const current = await this.requireRow(tx, project, id);
      this.checkServiceUnchanged(current, patch.service_id);
      const spec = parseJson<ObjStoreSpec>(current.spec);
      const merged: Record<string, unknown> = { service_id: current.service_id, ...spec };
      for (const [k, v] of Object.entries(patch)) {
        if (v === undefined || k === "service_id") continue;
        if (v === null) {
          if (k === "name") continue; // computed: keeps its value
          delete merged[k];
        } else merged[k] = v;
      }
      warnings.push(...checkBody("resource.tsdb_connector_obj_store", merged));
      const next = this.resolve(merged as unknown as ObjStoreConnectorInput, warnings);
      if (sameJson(next, spec)) return current;
      const updated = this.ctx.iso();
      await tx.run("UPDATE connectors SET spec = ?, updated = ? WHERE id = ?", JSON.stringify(next), updated, id);
      const what = spec.enabled !== next.enabled ? (next.enabled ? "enabled" : "disabled") : "updated";
      await this.ctx.event(tx, project, TF_TYPE.obj_store, id, what, `object store connector ${next.name} ${what}`);
      return { ...current, spec: JSON.stringify(next), updated };
    });
    return { body: this.toBody(row), warnings };
  }

  private toBody(row: ConnectorRow): ObjStoreConnector {
    const spec = parseJson<ObjStoreSpec>(row.spec);
    return { id: row.id, service_id: row.service_id, ...spec, created_at: row.created, updated_at: row.updated };
  }
}

// --- source database ---------------------------------------------------------------------------

interface StoredTunnel extends SshTunnelInput {
  ssh_tunnel_id: string;
  public_key: string;
}

interface SrcDbSpec {
  display_name: string;
  name: string;
  enabled: boolean;
  table_sync_workers: number;
  source_id: string;
  ssh_tunnel?: StoredTunnel;
  tables: SrcDbTable[];
}

interface SrcDbSecrets {
  connection_string?: string;
  /** PKCS#8 PEM of the tunnel's private key */
  ssh_private_key?: string;
}

function tableKey(t: SrcDbTable): string {
  return `${t.schema_name}\u0000${t.table_name}`;
}

function tableLabel(t: SrcDbTable): string {
  return `${t.schema_name}.${t.table_name}`;
}

function slug(text: string): string {
  const s = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63);
  return s || "source";
}

const CONNECTION_RE = /^postgres(ql)?:\/\/\S+$/;
const INTERVAL_RE = /^[1-9][0-9]*(s|m|h|d|w)$/;

function checkTables(tables: unknown): SrcDbTable[] {
  if (tables === undefined || tables === null) return [];
  if (!Array.isArray(tables)) throw invalid(["tables"], "must be a list of tables");
  const seen = new Map<string, number>();
  return tables.map((t: SrcDbTable, i) => {
    if (!t || typeof t.schema_name !== "string" || typeof t.table_name !== "string") throw invalid(["tables", i], "schema_name and table_name are required");
    const key = tableKey(t);
    if (seen.has(key)) throw invalid(["tables", i], `table ${tableLabel(t)} is listed twice (also at tables[${seen.get(key)}]); tables are keyed by schema_name and table_name`);
    seen.set(key, i);
    const spec = t.hypertable_spec;
    if (spec) {
      if (!spec.primary_dimension || !INTERVAL_RE.test(spec.primary_dimension.partition_interval ?? "")) {
        throw invalid(["tables", i, "hypertable_spec", "primary_dimension"], "primary_dimension needs column_name and a partition_interval such as 7d, 1h or 168h");
      }
      (spec.secondary_dimensions ?? []).forEach((d, j) => {
        const path = ["tables", i, "hypertable_spec", "secondary_dimensions", j];
        if ((d.hash === undefined) === (d.range === undefined)) throw invalid(path, "each secondary dimension needs exactly one of hash and range");
        if (d.range && !INTERVAL_RE.test(d.range.partition_interval ?? "")) throw invalid([...path, "range", "partition_interval"], "must be a number and a unit (s, m, h, d or w), such as 7d, 1h or 168h");
        if (d.hash && !(Number.isInteger(d.hash.number_partitions) && d.hash.number_partitions >= 1)) throw invalid([...path, "hash", "number_partitions"], "must be a whole number of at least 1");
      });
    }
    return compact({ ...t });
  });
}

export class SrcDbConnectors extends ConnectorBase {
  constructor(ctx: Ctx) {
    super(ctx, "src_db");
  }

  async create(project: string, body: SrcDbConnectorInput): Promise<Mutation<SrcDbConnector>> {
    checkProject(project);
    project = await claimProject(this.ctx, project);
    const warnings = checkBody("resource.tsdb_connector_src_db", body as unknown as Record<string, unknown>);
    if (typeof body.connection_string !== "string" || !CONNECTION_RE.test(body.connection_string)) {
      throw invalid(["connection_string"], "must be a postgres:// or postgresql:// connection URI");
    }
    const tables = checkTables(body.tables);
    const workers = body.table_sync_workers ?? 4;
    if (!Number.isInteger(workers) || workers < 1 || workers > 64) throw invalid(["table_sync_workers"], `table_sync_workers must be 1 to 64, got ${workers}`);
    const id = newUuid();
    const secrets: SrcDbSecrets = { connection_string: body.connection_string };
    let tunnel: StoredTunnel | undefined;
    if (body.ssh_tunnel) {
      const created = this.newTunnel(body.ssh_tunnel);
      tunnel = created.tunnel;
      secrets.ssh_private_key = created.privateKeyPem;
    }
    const spec: SrcDbSpec = compact({
      display_name: body.display_name,
      name: body.name ?? slug(body.display_name),
      enabled: body.enabled ?? true,
      table_sync_workers: workers,
      source_id: newUuid(),
      ssh_tunnel: tunnel,
      tables,
    });
    const sealed = this.ctx.box.seal(secrets as Record<string, unknown>, `connector:${id}`);
    const row = await this.ctx.write(async (tx) => {
      await this.checkService(tx, project, body.service_id);
      const now = this.ctx.iso();
      const record: ConnectorRow = { id, project, service_id: body.service_id, kind: "src_db", spec: JSON.stringify(spec), secrets: sealed, created: now, updated: now };
      await tx.run("INSERT INTO connectors (id, project, service_id, kind, spec, secrets, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", record.id, record.project, record.service_id, record.kind, record.spec, record.secrets, record.created, record.updated);
      await this.ctx.event(tx, project, TF_TYPE.src_db, id, "created", `source database connector ${spec.name} created for service ${body.service_id}`);
      if (tunnel) await this.ctx.event(tx, project, TF_TYPE.src_db, id, "ssh_tunnel_created", `SSH tunnel ${tunnel.ssh_tunnel_id} created; add its public key to the bastion's authorized keys`);
      for (const t of tables) await this.ctx.event(tx, project, TF_TYPE.src_db, id, "table_added", `table ${tableLabel(t)} added`);
      return record;
    });
    return { body: await this.observed(this.toBody(row)), warnings };
  }

  async get(project: string, id: string): Promise<SrcDbConnector> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    return this.observed(this.toBody(await this.ctx.read(async (tx) => (await this.requireRow(tx, project, id)))));
  }

  async list(project: string, serviceId?: string): Promise<SrcDbConnector[]> {
    return Promise.all((await this.listRows(project, serviceId)).map((r) => this.observed(this.toBody(r))));
  }

  /** With the data plane, `status` is what replication really does (the agent's observation). */
  private async observed(body: SrcDbConnector): Promise<SrcDbConnector> {
    if (!this.ctx.dataPlane.on) return body;
    const seen = await this.ctx.read((tx) => tx.get<{ status: string }>("SELECT status FROM dataplane_components WHERE id = ?", body.id));
    if (seen && ["ok", "warning", "error", "paused"].includes(seen.status)) body.status = seen.status as SrcDbStatus;
    // not observed yet: a tunnel can never work here; otherwise the initial copy has not run
    else if (body.ssh_tunnel) body.status = "error";
    else if (body.status === "ok") body.status = "warning";
    return body;
  }

  async update(project: string, id: string, patch: SrcDbConnectorPatch): Promise<Mutation<SrcDbConnector>> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    const before = await this.ctx.read(async (tx) => (await this.requireRow(tx, project, id)));
    this.checkServiceUnchanged(before, patch.service_id);
    if (patch.connection_string !== undefined && patch.connection_string !== null && !CONNECTION_RE.test(patch.connection_string)) {
      throw invalid(["connection_string"], "must be a postgres:// or postgresql:// connection URI");
    }
    // A new tunnel needs a key pair: generate it before taking the write lock.
    const beforeSpec = parseJson<SrcDbSpec>(before.spec);
    const fresh = patch.ssh_tunnel && !beforeSpec.ssh_tunnel ? this.newTunnel(patch.ssh_tunnel) : undefined;
    const warnings: Warning[] = [];

    const row = await this.ctx.write(async (tx) => {
      const current = await this.requireRow(tx, project, id);
      const spec = parseJson<SrcDbSpec>(current.spec);
      const secrets = this.ctx.box.open(current.secrets, `connector:${id}`) as SrcDbSecrets;
      const events: Array<[string, string]> = [];

      const next: SrcDbSpec = { ...spec };
      if (patch.display_name !== undefined && patch.display_name !== null) next.display_name = patch.display_name;
      if (patch.name !== undefined && patch.name !== null) next.name = patch.name;
      if (patch.enabled !== undefined) next.enabled = patch.enabled ?? true;
      if (patch.table_sync_workers !== undefined) next.table_sync_workers = patch.table_sync_workers ?? 4;
      if (!Number.isInteger(next.table_sync_workers) || next.table_sync_workers < 1 || next.table_sync_workers > 64) {
        throw invalid(["table_sync_workers"], `table_sync_workers must be 1 to 64, got ${next.table_sync_workers}`);
      }
      if (next.enabled !== spec.enabled) events.push([next.enabled ? "enabled" : "disabled", next.enabled ? "replication resumed" : "replication paused"]);

      // SSH tunnel: add (new key pair), change (same key pair), remove (unlink).
      if (patch.ssh_tunnel === null && spec.ssh_tunnel) {
        delete next.ssh_tunnel;
        delete secrets.ssh_private_key;
        events.push(["ssh_tunnel_removed", `SSH tunnel ${spec.ssh_tunnel.ssh_tunnel_id} unlinked`]);
      } else if (patch.ssh_tunnel) {
        if (spec.ssh_tunnel) {
          const t = patch.ssh_tunnel;
          const changed: StoredTunnel = compact({ name: t.name, host: t.host, port: t.port, username: t.username, ssh_tunnel_id: spec.ssh_tunnel.ssh_tunnel_id, public_key: spec.ssh_tunnel.public_key });
          if (!sameJson(changed, spec.ssh_tunnel)) events.push(["ssh_tunnel_updated", `SSH tunnel ${spec.ssh_tunnel.ssh_tunnel_id} updated`]);
          next.ssh_tunnel = changed;
        } else {
          const created = fresh ?? this.newTunnel(patch.ssh_tunnel);
          next.ssh_tunnel = created.tunnel;
          secrets.ssh_private_key = created.privateKeyPem;
          events.push(["ssh_tunnel_created", `SSH tunnel ${created.tunnel.ssh_tunnel_id} created; add its public key to the bastion's authorized keys`]);
        }
      }

      // Tables, keyed by (schema_name, table_name).
      if (patch.tables !== undefined) {
        const wanted = checkTables(patch.tables);
        const old = new Map(spec.tables.map((t) => [tableKey(t), t]));
        const wantedKeys = new Set(wanted.map(tableKey));
        for (const t of spec.tables) if (!wantedKeys.has(tableKey(t))) events.push(["table_dropped", `table ${tableLabel(t)} dropped from the connector (the target table is kept)`]);
        wanted.forEach((t, i) => {
          const prev = old.get(tableKey(t));
          if (!prev) {
            events.push(["table_added", `table ${tableLabel(t)} added`]);
            return;
          }
          if (t.hypertable_spec !== undefined && !sameJson(t.hypertable_spec, prev.hypertable_spec)) {
            throw precondition(
              ["tables", i, "hypertable_spec"],
              `hypertable_spec of table ${tableLabel(t)} cannot ${prev.hypertable_spec ? "change" : "be added"} once the table entry exists: it applies only when the connector creates the table. Remove the table entry and add it again, or keep the previous hypertable_spec`,
            );
          }
          const remapped = !sameJson(t.table_mapping, prev.table_mapping);
          const republished = (t.publication_name ?? null) !== (prev.publication_name ?? null);
          if (remapped || republished) {
            const what = [remapped ? "table_mapping" : "", republished ? "publication_name" : ""].filter(Boolean).join(" and ");
            events.push(["table_resync", `table ${tableLabel(t)} dropped and re-added because its ${what} changed: full re-sync`]);
            warnings.push(warning(["tables", i], `changing ${what} of table ${tableLabel(t)} dropped the table from the connector and added it again: the table is fully re-synced`));
          }
        });
        next.tables = wanted;
      }

      let connectionChanged = false;
      if (typeof patch.connection_string === "string" && patch.connection_string !== secrets.connection_string) {
        secrets.connection_string = patch.connection_string;
        connectionChanged = true;
        events.push(["connection_updated", "connection string replaced"]);
      }

      warnings.push(
        ...checkBody("resource.tsdb_connector_src_db", {
          ...this.toBody({ ...current, spec: JSON.stringify(next) }),
          connection_string: secrets.connection_string,
        } as unknown as Record<string, unknown>),
      );

      if (sameJson(next, spec) && !connectionChanged && !(patch.ssh_tunnel === null && spec.ssh_tunnel)) return current;
      const sealed = this.ctx.box.seal(secrets as Record<string, unknown>, `connector:${id}`);
      const updated = this.ctx.iso();
      await tx.run("UPDATE connectors SET spec = ?, secrets = ?, updated = ? WHERE id = ?", JSON.stringify(next), sealed, updated, id);
      if (events.length === 0) events.push(["updated", "connector updated"]);
      for (const [kind, message] of events) await this.ctx.event(tx, project, TF_TYPE.src_db, id, kind, message);
      return { ...current, spec: JSON.stringify(next), secrets: sealed, updated };
    });
    return { body: await this.observed(this.toBody(row)), warnings };
  }

  private newTunnel(input: SshTunnelInput): { tunnel: StoredTunnel; privateKeyPem: string } {
    if (!input.name) throw invalid(["ssh_tunnel", "name"], "ssh_tunnel.name is required");
    const ssh_tunnel_id = newUuid();
    const { publicKey, privateKeyPem } = generateSshKeyPair(`schemaform-tunnel-${ssh_tunnel_id.slice(0, 8)}`);
    return {
      tunnel: compact({ name: input.name, host: input.host, port: input.port, username: input.username, ssh_tunnel_id, public_key: publicKey }),
      privateKeyPem,
    };
  }

  private toBody(row: ConnectorRow): SrcDbConnector {
    const spec = parseJson<SrcDbSpec>(row.spec);
    const status: SrcDbStatus = !spec.enabled ? "paused" : spec.tables.length === 0 ? "warning" : "ok";
    return compact({
      id: row.id,
      service_id: row.service_id,
      display_name: spec.display_name,
      name: spec.name,
      enabled: spec.enabled,
      table_sync_workers: spec.table_sync_workers,
      ssh_tunnel: spec.ssh_tunnel ? ({ ...spec.ssh_tunnel } as SshTunnel) : undefined,
      tables: spec.tables,
      source_id: spec.source_id,
      created_at: row.created,
      status,
    });
  }
}

