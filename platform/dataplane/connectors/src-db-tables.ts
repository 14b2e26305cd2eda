// Target tables of the source-database connector, made from the source's catalog.
//
// A missing target is created with the source's columns, types and primary key (a hypertable_spec
// makes it range-partitioned: partitions.ts); an existing one is used as it is (rule 3: the spec
// then has no effect) and is never dropped. PostgreSQL's logical replication applies a published
// table to the subscriber's table of the same schema-qualified name, so a `table_mapping` to another
// name is served by a landing table of the source's name on the service whose trigger (ENABLE
// ALWAYS, so that it fires under replication) forwards each insert, update, delete and truncate to
// the mapped target. The landing table keeps its rows so that updates and deletes find them.

import { createHash } from "node:crypto";
import type { Client } from "pg";
import type { HypertableSpec } from "../../types.js";
import { bucketsOf, checkTimeColumn, createPartitionedTable, type TimeType } from "./partitions.js";
import { ident, literal, qualified } from "./sql.js";

export interface SourceColumn {
  name: string;
  type: string;
  notNull: boolean;
}

export interface SourceTable {
  schema: string;
  table: string;
  columns: SourceColumn[];
  primaryKey: string[];
  /** a primary key, a replica identity index or REPLICA IDENTITY FULL: updates and deletes can be published */
  hasReplicaIdentity: boolean;
}

/** A failure the user can fix on their side; its message is shown as the connector's status. */
export class ConnectorProblem extends Error {}

export async function readSourceTable(source: Client, schema: string, table: string): Promise<SourceTable> {
  const found = await source.query(
    "SELECT c.oid, c.relkind, c.relreplident AS identity FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2",
    [schema, table],
  );
  const rel = found.rows[0] as { oid: number; relkind: string; identity: string } | undefined;
  if (!rel) throw new ConnectorProblem(`table ${schema}.${table} does not exist on the source database`);
  if (rel.relkind !== "r" && rel.relkind !== "p") throw new ConnectorProblem(`${schema}.${table} on the source database is not a table (logical replication publishes tables only)`);
  const columns = await source.query(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS "notNull"
       FROM pg_attribute a
      WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      ORDER BY a.attnum`,
    [rel.oid],
  );
  const key = await source.query(
    `SELECT a.attname AS name
       FROM pg_index i CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, pos)
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
      WHERE i.indrelid = $1 AND i.indisprimary
      ORDER BY k.pos`,
    [rel.oid],
  );
  const primaryKey = key.rows.map((r: { name: string }) => r.name);
  return { schema, table, columns: columns.rows as SourceColumn[], primaryKey, hasReplicaIdentity: rel.identity === "f" || rel.identity === "i" || (rel.identity === "d" && primaryKey.length > 0) };
}

/**
 * Refuses to add a table without a replica identity to the connector's own publication: once
 * published, UPDATE and DELETE on it would fail on the user's database.
 */
export function checkPublishable(desc: SourceTable): void {
  if (desc.hasReplicaIdentity) return;
  throw new ConnectorProblem(
    `table ${desc.schema}.${desc.table} on the source database has no primary key or replica identity: publishing it would make UPDATE and DELETE on it fail there. Give it a primary key, or run ALTER TABLE ${desc.schema}.${desc.table} REPLICA IDENTITY FULL on the source`,
  );
}

export async function tableExists(client: Client, schema: string, table: string): Promise<boolean> {
  const { rows } = await client.query("SELECT to_regclass($1) IS NOT NULL AS ok", [qualified(schema, table)]);
  return rows[0].ok === true;
}

function columnsSql(desc: SourceTable, key: string[]): string {
  const cols = desc.columns.map((c) => `${ident(c.name)} ${c.type}${c.notNull ? " NOT NULL" : ""}`);
  if (key.length) cols.push(`PRIMARY KEY (${key.map(ident).join(", ")})`);
  return cols.join(", ");
}

export interface TargetResult {
  created: boolean;
  /** set when the connector created a partitioned target */
  partitionType?: TimeType;
}

/**
 * The target table, created from the source's description when missing. A partitioned target's
 * primary key also holds the partition columns (PostgreSQL requires it), so updates and deletes of
 * such a table need the source's replica identity to cover those columns too.
 */
export async function ensureTarget(service: Client, source: Client, desc: SourceTable, schema: string, table: string, spec: HypertableSpec | undefined, now: Date): Promise<TargetResult> {
  if (await tableExists(service, schema, table)) return { created: false };
  await service.query(`CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`);
  if (!spec) {
    await service.query(`CREATE TABLE ${qualified(schema, table)} (${columnsSql(desc, desc.primaryKey)})`);
    return { created: true };
  }
  const column = spec.primary_dimension.column_name;
  const label = `${desc.schema}.${desc.table}`;
  const type = checkTimeColumn(label, column, desc.columns.find((c) => c.name === column)?.type, spec);
  const partitionColumns = [column, ...(spec.secondary_dimensions ?? []).flatMap((d) => (d.hash ? [d.hash.column_name] : []))];
  for (const c of partitionColumns) {
    if (!desc.columns.some((d) => d.name === c)) throw new ConnectorProblem(`hypertable_spec of ${label}: column ${c} is not a column of the source table`);
  }
  const key = desc.primaryKey.length ? [...desc.primaryKey, ...partitionColumns.filter((c) => !desc.primaryKey.includes(c))] : [];
  const buckets = await bucketsOf(source, desc.schema, desc.table, column, spec);
  await service.query("BEGIN");
  try {
    await createPartitionedTable(service, schema, table, columnsSql(desc, key), spec, type, buckets, now);
    await service.query("COMMIT");
  } catch (error) {
    await service.query("ROLLBACK").catch(() => {});
    throw error;
  }
  return { created: true, partitionType: type };
}

const LANDING_COMMENT = "schemaform landing table of connector ";
/** marks a landing table that used to be a target: never dropped */
const KEPT = " (kept: it was a target)";

/** `_schemaform.forward_<connector>_<table digest>`: the trigger function of one landing table. */
function forwardFunction(connectorId: string, schema: string, table: string): string {
  const digest = createHash("sha256").update(`${schema}.${table}`).digest("hex").slice(0, 12);
  return `_schemaform.${ident(`forward_${connectorId.replace(/-/g, "").slice(0, 16)}_${digest}`)}`;
}

/**
 * The landing table of a mapped source table (the source's name, on the service) and its
 * forwarding trigger to the target. A table of that name that this connector used to fill as an
 * unmapped target (`adopt`) becomes the landing table, emptied for the full re-sync and kept as a
 * table when the mapping goes away again; any other table of that name is refused.
 */
export async function ensureLanding(service: Client, connectorId: string, desc: SourceTable, targetSchema: string, targetTable: string, adopt: boolean): Promise<void> {
  const landing = qualified(desc.schema, desc.table);
  const target = qualified(targetSchema, targetTable);
  const ours = `${LANDING_COMMENT}${connectorId}`;
  let marker = `${ours} -> ${targetSchema}.${targetTable}`;
  let create = true;
  if (await tableExists(service, desc.schema, desc.table)) {
    const { rows } = await service.query("SELECT obj_description($1::regclass, 'pg_class') AS note", [landing]);
    const note: string | null = rows[0].note;
    if (note === marker || note === `${marker}${KEPT}`) return;
    if (note?.startsWith(ours) && !note.endsWith(KEPT)) {
      // the mapping changed: a fresh landing table for the new target
      await service.query(`DROP TABLE ${landing}`);
    } else if (adopt || note?.startsWith(ours)) {
      await unhook(service, connectorId, desc.schema, desc.table);
      await service.query(`TRUNCATE ${landing}`);
      marker += KEPT;
      create = false;
    } else {
      throw new ConnectorProblem(
        `table_mapping of ${desc.schema}.${desc.table}: the service already has a table ${desc.schema}.${desc.table}; replication lands rows in a table of the source's name before forwarding them to ${targetSchema}.${targetTable}, so that name must be free on the service`,
      );
    }
  }
  const names = desc.columns.map((c) => ident(c.name));
  const key = desc.primaryKey.length ? desc.primaryKey.map(ident) : names;
  const match = key.map((k) => `${k} IS NOT DISTINCT FROM OLD.${k}`).join(" AND ");
  const fn = forwardFunction(connectorId, desc.schema, desc.table);
  await service.query("BEGIN");
  try {
    await service.query(`CREATE SCHEMA IF NOT EXISTS ${ident(desc.schema)}`);
    if (create) await service.query(`CREATE TABLE ${landing} (${columnsSql(desc, desc.primaryKey)})`);
    await service.query(`COMMENT ON TABLE ${landing} IS ${literal(marker)}`);
    await service.query(`CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO ${target} (${names.join(", ")}) VALUES (${names.map((n) => `NEW.${n}`).join(", ")});
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE ${target} SET ${names.map((n) => `${n} = NEW.${n}`).join(", ")} WHERE ${match};
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM ${target} WHERE ${match};
  ELSIF TG_OP = 'TRUNCATE' THEN
    TRUNCATE ${target};
  END IF;
  RETURN NULL;
END
$body$`);
    await service.query(`CREATE TRIGGER schemaform_forward AFTER INSERT OR UPDATE OR DELETE ON ${landing} FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
    await service.query(`CREATE TRIGGER schemaform_forward_truncate AFTER TRUNCATE ON ${landing} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
    // replication workers run with session_replication_role = replica: only ALWAYS triggers fire
    await service.query(`ALTER TABLE ${landing} ENABLE ALWAYS TRIGGER schemaform_forward`);
    await service.query(`ALTER TABLE ${landing} ENABLE ALWAYS TRIGGER schemaform_forward_truncate`);
    await service.query("COMMIT");
  } catch (error) {
    await service.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/** Removes the forwarding triggers and function of a landing table. */
async function unhook(service: Client, connectorId: string, schema: string, table: string): Promise<void> {
  await service.query(`DROP TRIGGER IF EXISTS schemaform_forward ON ${qualified(schema, table)}`);
  await service.query(`DROP TRIGGER IF EXISTS schemaform_forward_truncate ON ${qualified(schema, table)}`);
  await service.query(`DROP FUNCTION IF EXISTS ${forwardFunction(connectorId, schema, table)}()`);
}

/**
 * Takes a landing table of this connector out of service: dropped when the connector made it, only
 * unhooked (triggers removed, table kept) when it used to be a target. Other tables are not touched.
 */
export async function dropLanding(service: Client, connectorId: string, schema: string, table: string): Promise<void> {
  if (!(await tableExists(service, schema, table))) return;
  const { rows } = await service.query("SELECT obj_description($1::regclass, 'pg_class') AS note", [qualified(schema, table)]);
  const note: unknown = rows[0].note;
  if (typeof note !== "string" || !note.startsWith(`${LANDING_COMMENT}${connectorId}`)) return;
  if (note.endsWith(KEPT)) {
    await unhook(service, connectorId, schema, table);
    await service.query(`COMMENT ON TABLE ${qualified(schema, table)} IS NULL`);
  } else {
    await service.query(`DROP TABLE ${qualified(schema, table)}`);
    await service.query(`DROP FUNCTION IF EXISTS ${forwardFunction(connectorId, schema, table)}()`);
  }
}
