// Native range partitioning standing in for hypertables (TimescaleDB is not packaged here): the
// target is `PARTITION BY RANGE (<time column>)` with one partition per `partition_interval`,
// aligned to the Unix epoch, plus a DEFAULT partition that catches rows no partition covers yet.
// Each tick keeps partitions ahead of the clock and gives every time bucket that has rows in
// DEFAULT its own partition, moving those rows in the same transaction (PostgreSQL refuses to
// create a partition whose range has rows in DEFAULT). A hash secondary dimension makes each range
// partition `PARTITION BY HASH` with `number_partitions` sub-partitions.

import type { Client } from "pg";
import type { HypertableSpec } from "../../types.js";
import { ident, qualified } from "./sql.js";

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** Partitions kept ahead of the current time. */
export const PARTITIONS_AHEAD = 3;
/** At most this many partitions are created per table and tick (a far-flung backlog takes several ticks). */
const MAX_NEW_PER_TICK = 200;

export function intervalSeconds(interval: string): number {
  const match = /^([1-9][0-9]*)(s|m|h|d|w)$/.exec(interval);
  if (!match) throw new Error(`partition_interval ${JSON.stringify(interval)} is not a number and a unit (s, m, h, d or w)`);
  return Number(match[1]) * UNIT_SECONDS[match[2]!]!;
}

export type TimeType = "timestamp with time zone" | "timestamp without time zone" | "date";
const TIME_TYPES: readonly string[] = ["timestamp with time zone", "timestamp without time zone", "date"];

/** The partition column's type, checked: only time types partition by a time interval. */
export function checkTimeColumn(table: string, column: string, type: string | undefined, spec: HypertableSpec): TimeType {
  if (type === undefined) throw new Error(`hypertable_spec of ${table}: the primary dimension's column ${column} is not a column of the source table`);
  const base = type.replace(/\(\d+\)/, "");
  if (!TIME_TYPES.includes(base)) {
    throw new Error(`hypertable_spec of ${table}: column ${column} is ${type}; the primary dimension must be a timestamptz, timestamp or date column`);
  }
  if (base === "date" && intervalSeconds(spec.primary_dimension.partition_interval) % 86_400 !== 0) {
    throw new Error(`hypertable_spec of ${table}: column ${column} is a date, so partition_interval must be whole days (d or w)`);
  }
  return base as TimeType;
}

/** The bound literal of a bucket's start, in the column's type (UTC). */
function boundLiteral(epochSeconds: number, type: TimeType): string {
  const iso = new Date(epochSeconds * 1000).toISOString();
  if (type === "date") return `'${iso.slice(0, 10)}'`;
  if (type === "timestamp without time zone") return `'${iso.slice(0, 19).replace("T", " ")}'`;
  return `'${iso.slice(0, 19).replace("T", " ")}+00'`;
}

function partitionName(table: string, epochSeconds: number): string {
  const stamp = new Date(epochSeconds * 1000).toISOString().replace(/[-:]/g, "").replace("T", "_").slice(0, 15);
  const suffix = `_p${stamp}`;
  return `${Buffer.from(table).subarray(0, 63 - suffix.length).toString()}${suffix}`;
}

function defaultName(table: string): string {
  return `${Buffer.from(table).subarray(0, 55).toString()}_default`;
}

function hashDimension(spec: HypertableSpec): { column_name: string; number_partitions: number } | undefined {
  return spec.secondary_dimensions?.find((d) => d.hash)?.hash;
}

/** The clause that makes a new range partition itself hash-partitioned, when the spec asks. */
function subPartitioning(spec: HypertableSpec): string {
  const hash = hashDimension(spec);
  return hash ? ` PARTITION BY HASH (${ident(hash.column_name)})` : "";
}

async function createRangePartition(client: Client, schema: string, table: string, spec: HypertableSpec, type: TimeType, bucket: number): Promise<void> {
  const step = intervalSeconds(spec.primary_dimension.partition_interval);
  const from = bucket * step;
  const name = partitionName(table, from);
  await client.query(
    `CREATE TABLE ${qualified(schema, name)} PARTITION OF ${qualified(schema, table)} FOR VALUES FROM (${boundLiteral(from, type)}) TO (${boundLiteral(from + step, type)})${subPartitioning(spec)}`,
  );
  const hash = hashDimension(spec);
  for (let r = 0; hash && r < hash.number_partitions; r++) {
    const sub = `${Buffer.from(name).subarray(0, 56).toString()}_h${r}`;
    await client.query(`CREATE TABLE ${qualified(schema, sub)} PARTITION OF ${qualified(schema, name)} FOR VALUES WITH (MODULUS ${hash.number_partitions}, REMAINDER ${r})`);
  }
}

/** The bucket number (start / interval) of a time value, computed by the server. */
function bucketExpression(column: string, step: number): string {
  return `floor(extract(epoch from ${ident(column)}) / ${step})::bigint`;
}

/**
 * Creates the partitioned target table (columns already rendered), its DEFAULT partition, and
 * partitions for `buckets` (the source's time buckets, so that the initial copy lands in place).
 */
export async function createPartitionedTable(
  client: Client,
  schema: string,
  table: string,
  columnsSql: string,
  spec: HypertableSpec,
  type: TimeType,
  buckets: number[],
  now: Date,
): Promise<void> {
  await client.query(`CREATE TABLE ${qualified(schema, table)} (${columnsSql}) PARTITION BY RANGE (${ident(spec.primary_dimension.column_name)})`);
  await client.query(`CREATE TABLE ${qualified(schema, defaultName(table))} PARTITION OF ${qualified(schema, table)} DEFAULT`);
  const wanted = new Set([...aheadBuckets(spec, now), ...buckets]);
  for (const bucket of [...wanted].sort((a, b) => a - b)) await createRangePartition(client, schema, table, spec, type, bucket);
}

function aheadBuckets(spec: HypertableSpec, now: Date): number[] {
  const step = intervalSeconds(spec.primary_dimension.partition_interval);
  const current = Math.floor(now.getTime() / 1000 / step);
  const out: number[] = [];
  for (let b = current - 1; b <= current + PARTITIONS_AHEAD; b++) out.push(b);
  return out;
}

/** The distinct time buckets of a table's rows (on the source: where the initial copy will land). */
export async function bucketsOf(client: Client, schema: string, table: string, column: string, spec: HypertableSpec, limit = 1000): Promise<number[]> {
  const step = intervalSeconds(spec.primary_dimension.partition_interval);
  const { rows } = await client.query(
    `SELECT DISTINCT ${bucketExpression(column, step)} AS b FROM ${qualified(schema, table)} WHERE ${ident(column)} IS NOT NULL ORDER BY 1 LIMIT ${limit}`,
  );
  return rows.map((r: { b: string }) => Number(r.b));
}

/** Lower bounds (epoch seconds) of the existing range partitions of a table. */
async function existingBuckets(client: Client, schema: string, table: string, step: number): Promise<Set<number>> {
  const { rows } = await client.query(
    `SELECT pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = $1::regclass`,
    [qualified(schema, table)],
  );
  const out = new Set<number>();
  for (const { bound } of rows as Array<{ bound: string }>) {
    const from = /FROM \('([^']+)'\)/.exec(bound)?.[1];
    if (!from) continue;
    const iso = from.includes(" ") ? `${from.replace(" ", "T").replace(/\+00$/, "")}Z` : `${from}T00:00:00Z`;
    const ms = Date.parse(iso);
    if (!Number.isNaN(ms)) out.add(Math.floor(ms / 1000 / step));
  }
  return out;
}

export interface PartitionUpkeep {
  created: number;
  movedRows: number;
}

/**
 * One tick of upkeep: partitions up to now + PARTITIONS_AHEAD intervals, and a partition for every
 * bucket that has rows in DEFAULT (those rows are moved into it in the same transaction, with the
 * table locked so that replication cannot add to DEFAULT meanwhile).
 */
export async function keepPartitionsAhead(client: Client, schema: string, table: string, spec: HypertableSpec, type: TimeType, now: Date): Promise<PartitionUpkeep> {
  const step = intervalSeconds(spec.primary_dimension.partition_interval);
  const column = spec.primary_dimension.column_name;
  const existing = await existingBuckets(client, schema, table, step);
  const stray = await bucketsOf(client, schema, defaultName(table), column, spec, MAX_NEW_PER_TICK);
  const strays = new Set(stray);
  const missing = [...new Set([...aheadBuckets(spec, now), ...stray])].filter((b) => !existing.has(b)).slice(0, MAX_NEW_PER_TICK);
  const result: PartitionUpkeep = { created: 0, movedRows: 0 };
  for (const bucket of missing) {
    await client.query("BEGIN");
    try {
      // a short wait only: replication holds the table while it applies, and the next tick retries
      await client.query("SET LOCAL lock_timeout = '2s'");
      if (strays.has(bucket)) {
        await client.query(`LOCK TABLE ${qualified(schema, table)} IN ACCESS EXCLUSIVE MODE`);
        await client.query(`CREATE TEMP TABLE _schemaform_moving (LIKE ${qualified(schema, table)}) ON COMMIT DROP`);
        const moved = await client.query(
          `WITH gone AS (DELETE FROM ${qualified(schema, defaultName(table))} WHERE ${bucketExpression(column, step)} = $1 RETURNING *)
           INSERT INTO _schemaform_moving SELECT * FROM gone`,
          [bucket],
        );
        await createRangePartition(client, schema, table, spec, type, bucket);
        await client.query(`INSERT INTO ${qualified(schema, table)} SELECT * FROM _schemaform_moving`);
        result.movedRows += moved.rowCount ?? 0;
      } else {
        await createRangePartition(client, schema, table, spec, type, bucket);
      }
      await client.query("COMMIT");
      result.created++;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    }
  }
  return result;
}
