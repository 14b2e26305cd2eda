// tsdb_connector_src_db: logical replication from a source PostgreSQL database into a service.
// - An `ssh_tunnel` gets a generated key pair; `ssh_tunnel.public_key` must be added to the
//   bastion's authorized keys (known after the tunnel is created, kept afterwards).
// - Tables are keyed by (schema_name, table_name). Changing a table's `table_mapping` or
//   `publication_name` drops and re-adds it: the plan warns about the full re-sync. Changing or
//   adding `hypertable_spec` on an existing table is a plan-time error (it only applies when the
//   connector creates the table).
// - `connection_string` is never returned by the platform: state keeps the configured value.
// Import: `<service_id>:<connector_id>` or the connector id.
import { model } from "../../generated/models/resource.tsdb_connector_src_db.js";
import type { SrcDbConnector, SrcDbConnectorInput, SrcDbConnectorPatch } from "../../platform/types.js";
import type { Value } from "../codec.js";
import { type Body, HandlerError, type Path, type ResourceHandler } from "../framework/types.js";
import {
  type TsdbClient,
  UNKNOWN,
  call,
  changedAttributes,
  diagnose,
  firstFound,
  isNotFound,
  isSet,
  matchImport,
  orNull,
  owned,
  passWarnings,
  pick,
  same,
  text,
  warn,
} from "./common.js";

const INPUTS = ["service_id", "display_name", "connection_string", "name", "enabled", "table_sync_workers", "ssh_tunnel", "tables"] as const;
const UPDATABLE = ["display_name", "name", "enabled", "table_sync_workers", "ssh_tunnel", "tables"] as const;
const OWNED = ["id", "service_id", "display_name", "name", "enabled", "table_sync_workers", "ssh_tunnel", "tables", "source_id", "created_at", "status"] as const;

/**
 * The platform always answers with a list of tables; a configuration that never set `tables`
 * has null there, and must keep null so that plans stay clean.
 */
function toState(connector: SrcDbConnector, tablesBefore?: Value): Body {
  const state = owned(connector, OWNED);
  if (Array.isArray(state.tables) && state.tables.length === 0 && (tablesBefore === null || tablesBefore === undefined)) state.tables = null;
  return state;
}

function objects(value: Value | undefined): Body[] {
  return Array.isArray(value) ? value.filter((v): v is Body => v !== null && typeof v === "object" && !Array.isArray(v)) : [];
}

function hasUnknown(value: Value | undefined): boolean {
  if (value === UNKNOWN) return true;
  if (value && typeof value === "object") return Object.values(value).some(hasUnknown);
  return false;
}

function key(table: Body): string {
  return `${String(table.schema_name)}\u0000${String(table.table_name)}`;
}

function label(table: Body): string {
  return `${String(table.schema_name)}.${String(table.table_name)}`;
}

/** The tunnel as the platform takes it: only the configured attributes. */
function tunnelInput(value: Value | undefined): Value {
  if (value === null || value === undefined || typeof value !== "object" || Array.isArray(value)) return value ?? null;
  const { ssh_tunnel_id: _id, public_key: _key, ...input } = value as Body;
  return input;
}

const isTablePath = (path: Path) => path[0] === "tables";

/** The path of the first value that differs between two bodies (the deepest point to show). */
function firstDifference(a: Value | undefined, b: Value | undefined, path: Path): Path {
  if (same(a, b)) return path;
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    const i = a.findIndex((item, j) => !same(item, b[j]));
    return firstDifference(a[i], b[i], [...path, i]);
  }
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    for (const key of Object.keys(a)) if (!same(a[key], b[key]) && a[key] !== null && a[key] !== undefined) return firstDifference(a[key], b[key], [...path, key]);
  }
  return path;
}

export const connectorSrcDb: ResourceHandler<TsdbClient> = {
  modifyPlan(request) {
    const { prior, planned, requiresReplace } = request;
    if (prior === null || requiresReplace.length > 0) return planned;

    const before = new Map(objects(prior.tables).map((t) => [key(t), t]));
    objects(planned.tables).forEach((table, i) => {
      if (hasUnknown(table)) return; // decided at apply time
      const previous = before.get(key(table));
      if (!previous) return;
      if (isSet(table.hypertable_spec) && !same(table.hypertable_spec, previous.hypertable_spec)) {
        throw new HandlerError(`hypertable_spec of table ${label(table)} cannot ${isSet(previous.hypertable_spec) ? "change" : "be added"}`, {
          path: firstDifference(table.hypertable_spec, previous.hypertable_spec, ["tables", i, "hypertable_spec"]),
          detail:
            "hypertable_spec applies only when the connector creates the target table. Keep the previous hypertable_spec, or remove the table entry in one apply and add it again in the next (the table is then fully re-synced).",
        });
      }
      const what = [
        !same(table.table_mapping, previous.table_mapping) ? "table_mapping" : "",
        !same(table.publication_name, previous.publication_name) ? "publication_name" : "",
      ].filter(Boolean);
      if (what.length > 0) {
        warn(request, ["tables", i], `Changing ${what.join(" and ")} of table ${label(table)} drops the table from the connector and adds it again: the table is fully re-synced from the source.`);
      }
    });

    // status follows `enabled` and whether there is anything to replicate.
    const emptyBefore = objects(prior.tables).length === 0;
    const emptyAfter = Array.isArray(planned.tables) ? planned.tables.length === 0 : planned.tables !== UNKNOWN;
    if (!same(planned.enabled, prior.enabled) || emptyBefore !== emptyAfter) planned.status = UNKNOWN;
    return planned;
  },

  async create(request) {
    const { client, desired } = request;
    const body = pick<SrcDbConnectorInput>(desired, INPUTS);
    if (body.ssh_tunnel) body.ssh_tunnel = tunnelInput(body.ssh_tunnel as unknown as Value) as never;
    const { body: created, warnings } = await call("Creating source database connector", () => client.platform.srcDbConnectors.create(client.projectId, body));
    passWarnings(request, warnings);
    return toState(created, request.planned.tables);
  },

  async read({ client, state }) {
    const id = text(state.id);
    if (!id) return null;
    const remote = await call("Reading source database connector", () => orNull(() => client.platform.srcDbConnectors.get(client.projectId, id)));
    return remote && toState(remote, state.tables);
  },

  async update(request) {
    const { client, prior, planned, desired } = request;
    const patch = changedAttributes(desired, prior, UPDATABLE) as SrcDbConnectorPatch;
    if ("ssh_tunnel" in patch) patch.ssh_tunnel = tunnelInput(patch.ssh_tunnel as unknown as Value) as never;
    if (!same(planned.connection_string, prior.connection_string) && typeof planned.connection_string === "string") {
      patch.connection_string = planned.connection_string;
    }
    const { body, warnings } = await call("Updating source database connector", () =>
      client.platform.srcDbConnectors.update(client.projectId, String(prior.id), patch),
    );
    passWarnings(request, warnings, isTablePath);
    return toState(body, planned.tables);
  },

  async delete({ client, state }) {
    try {
      await client.platform.srcDbConnectors.delete(client.projectId, String(state.id));
    } catch (error) {
      if (!isNotFound(error)) diagnose(error, "Deleting source database connector");
    }
  },

  async importState({ client, id }) {
    return firstFound(matchImport(model, id), async ({ parts }) => {
      const remote = await call("Importing source database connector", () => orNull(() => client.platform.srcDbConnectors.get(client.projectId, parts.id!)));
      if (remote && parts.service_id !== undefined && remote.service_id !== parts.service_id) return null;
      return remote && toState(remote);
    });
  },
};
