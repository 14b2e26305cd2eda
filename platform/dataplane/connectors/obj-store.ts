// The object-store connector's engine. A bucket is a directory, `<bucketsDir>/<bucket>` (the agent
// passes SCHEMAFORM_BUCKETS_DIR, by default `<data dir>/buckets`); an object's key is its path
// below that directory with `/` separators. On each due scan (frequency.ts) every object whose key
// matches `pattern` and that is not in the ledger with the same size and modification time is
// loaded into `table_identifier`, in one transaction with its ledger row
// (`_schemaform.loaded_objects` in the service database): a crash can neither lose nor repeat a
// load. An object that fails is recorded with its error and is not retried until it changes; the
// others load regardless, and the failure is the connector's status message.

import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Client } from "pg";
import type { AdminConnection } from "../driver.js";
import type { ObjStoreConnector } from "../../types.js";
import { scanDue } from "./frequency.js";
import { ensureLedger } from "./ledger.js";
import { readCsv, readParquet, type CsvSettings, type ObjectRows, type ParquetSettings } from "./obj-store-files.js";
import { errorText, type ConnectorObserved } from "./observed.js";
import { connectService, inTransaction, qualified } from "./sql.js";

export interface ObjStorePlan {
  /** the connector id: keys its ledger rows */
  id: string;
  serviceId: string;
  name: string;
  enabled: boolean;
  bucket: string;
  /** object key pattern: `*` any run of characters (also `/`), `?` one character */
  pattern: string;
  format: "CSV" | "PARQUET";
  csv: CsvSettings;
  parquet: ParquetSettings;
  table: { schema: string; name: string };
  /** `@always`, `@5minutes` … `@yearly` */
  frequency: string;
  onConflictDoNothing: boolean;
}

export function objStorePlanFrom(body: ObjStoreConnector): ObjStorePlan {
  const csv = body.definition.csv ?? {};
  const parquet = body.definition.parquet ?? {};
  return {
    id: body.id,
    serviceId: body.service_id,
    name: body.name ?? body.bucket,
    enabled: body.enabled ?? true,
    bucket: body.bucket,
    pattern: body.pattern,
    format: body.definition.type,
    csv: {
      delimiter: csv.delimiter ?? ",",
      skipHeader: csv.skip_header ?? false,
      autoColumnMapping: csv.auto_column_mapping === true,
      columnNames: csv.column_names,
      columnMappings: csv.column_mappings,
    },
    parquet: { autoColumnMapping: parquet.auto_column_mapping === true, columnMappings: parquet.column_mappings },
    table: { schema: body.table_identifier.schema_name ?? "public", name: body.table_identifier.table_name },
    frequency: body.frequency ?? "@always",
    onConflictDoNothing: body.on_conflict_do_nothing ?? false,
  };
}

/** An object that is still being written (changed within this long) waits for the next scan. */
const SETTLE_MS = 1_000;
/** Rows per INSERT statement. */
const BATCH_ROWS = 5_000;
/** A scan stops loading after this long; the rest loads on the next tick. */
const SCAN_BUDGET_MS = 10_000;

export function patternMatcher(pattern: string): RegExp {
  let source = "";
  for (const ch of pattern) source += ch === "*" ? ".*" : ch === "?" ? "." : ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${source}$`, "s");
}

interface ObjectFile {
  key: string;
  path: string;
  size: number;
  mtime: Date;
}

async function listObjects(dir: string, prefix = ""): Promise<ObjectFile[]> {
  const out: ObjectFile[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const key = prefix + entry.name;
    if (entry.isDirectory()) out.push(...(await listObjects(path, `${key}/`)));
    else if (entry.isFile()) {
      const info = await stat(path);
      out.push({ key, path, size: info.size, mtime: new Date(Math.floor(info.mtimeMs)) });
    }
  }
  return out;
}

interface LedgerEntry {
  object_key: string;
  size: string;
  mtime: Date;
  rows: string | null;
  error: string | null;
}

const sameVersion = (entry: LedgerEntry | undefined, file: ObjectFile) => entry !== undefined && Number(entry.size) === file.size && entry.mtime.getTime() === file.mtime.getTime();

interface TableShape {
  columns: string[];
  types: Map<string, string>;
}

async function tableShape(service: Client, schema: string, table: string): Promise<TableShape | undefined> {
  const { rows } = await service.query(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_attribute a
      WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      ORDER BY a.attnum`,
    [qualified(schema, table)],
  );
  if (rows.length === 0) return undefined;
  return { columns: rows.map((r: { name: string }) => r.name), types: new Map(rows.map((r: { name: string; type: string }) => [r.name, r.type])) };
}

async function insertRows(service: Client, plan: ObjStorePlan, shape: TableShape, data: ObjectRows): Promise<number> {
  const { columns } = data;
  if (new Set(columns).size !== columns.length) throw new Error(`a table column is filled twice: ${columns.join(", ")}`);
  const names = columns.map((c) => `"${c.replace(/"/g, '""')}"`);
  const sql =
    `INSERT INTO ${qualified(plan.table.schema, plan.table.name)} (${names.join(", ")}) ` +
    `SELECT ${columns.map((c, i) => `u.c${i}::${shape.types.get(c)}`).join(", ")} FROM unnest(${columns.map((_, i) => `$${i + 1}::text[]`).join(", ")}) AS u(${columns.map((_, i) => `c${i}`).join(", ")})` +
    (plan.onConflictDoNothing ? " ON CONFLICT DO NOTHING" : "");
  let inserted = 0;
  for (let start = 0; start < data.rows.length; start += BATCH_ROWS) {
    const batch = data.rows.slice(start, start + BATCH_ROWS);
    const params = columns.map((_, i) => batch.map((r) => r[i] ?? null));
    const result = await service.query(sql, params);
    inserted += result.rowCount ?? 0;
  }
  return inserted;
}

async function record(service: Client, id: string, file: ObjectFile, rows: number | null, error: string | null): Promise<void> {
  await service.query(
    `INSERT INTO _schemaform.loaded_objects (connector_id, object_key, size, mtime, rows, error) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (connector_id, object_key) DO UPDATE SET size = EXCLUDED.size, mtime = EXCLUDED.mtime, rows = EXCLUDED.rows, error = EXCLUDED.error, loaded_at = now()`,
    [id, file.key, file.size, file.mtime, rows, error],
  );
}

/** Loads one object with its ledger row, exactly once: false when another run already took this version. */
async function loadObject(service: Client, plan: ObjStorePlan, shape: TableShape, file: ObjectFile): Promise<number | false> {
  const content = await readFile(file.path);
  const data = plan.format === "CSV" ? await readCsv(content, plan.csv, shape.columns) : await readParquet(content, plan.parquet, shape.columns);
  return inTransaction(service, async () => {
    await service.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`obj_store:${plan.id}`]);
    const seen = await service.query("SELECT size, mtime FROM _schemaform.loaded_objects WHERE connector_id = $1 AND object_key = $2", [plan.id, file.key]);
    if (sameVersion(seen.rows[0] as LedgerEntry | undefined, file)) return false;
    const rows = await insertRows(service, plan, shape, data);
    await record(service, plan.id, file, rows, null);
    return rows;
  });
}

export async function runObjStore(target: AdminConnection, plan: ObjStorePlan, bucketsDir: string, now: Date): Promise<ConnectorObserved> {
  if (!plan.enabled) return { status: "paused", message: "not loading (enabled = false)" };
  const dir = join(bucketsDir, plan.bucket);
  let service: Client;
  try {
    service = await connectService(target);
  } catch (error) {
    return { status: "error", message: `cannot reach the service's database: ${errorText(error, [])}` };
  }
  try {
    await ensureLedger(service);
    const last = (await service.query("SELECT last_scan FROM _schemaform.obj_store_scans WHERE connector_id = $1", [plan.id])).rows[0]?.last_scan as Date | undefined;
    let tick: TickResult = { loaded: [], failed: [] };
    let lastScan = last;
    if (scanDue(plan.frequency, last, now)) {
      const scan = await scanBucket(service, plan, dir, now);
      if ("problem" in scan) return { status: "error", message: scan.problem, details: { bucket_dir: dir } };
      tick = scan;
      if (scan.complete) {
        await service.query(
          "INSERT INTO _schemaform.obj_store_scans (connector_id, last_scan) VALUES ($1, $2) ON CONFLICT (connector_id) DO UPDATE SET last_scan = EXCLUDED.last_scan",
          [plan.id, now],
        );
        lastScan = now;
      }
    }
    return await summarize(service, plan, dir, tick, lastScan);
  } catch (error) {
    return { status: "error", message: `loading from bucket ${plan.bucket} failed: ${errorText(error, [])}` };
  } finally {
    await service.end().catch(() => {});
  }
}

/** What one scan did: objects loaded, and objects that failed (for the agent's events). */
interface TickResult {
  loaded: string[];
  failed: Array<{ key: string; error: string }>;
}

type Scan = { problem: string } | (TickResult & { complete: boolean });

async function scanBucket(service: Client, plan: ObjStorePlan, dir: string, now: Date): Promise<Scan> {
  let files: ObjectFile[];
  try {
    files = await listObjects(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { problem: `bucket ${plan.bucket} does not exist: create the directory ${dir} and put objects in it` };
    return { problem: `bucket ${plan.bucket} cannot be read (${code ?? "error"}): ${dir}` };
  }
  const shape = await tableShape(service, plan.table.schema, plan.table.name);
  if (!shape) return { problem: `table ${plan.table.schema}.${plan.table.name} does not exist in the service: create it, then objects load on the next scan` };
  const match = patternMatcher(plan.pattern);
  const ledger = new Map(
    ((await service.query("SELECT object_key, size, mtime, rows, error FROM _schemaform.loaded_objects WHERE connector_id = $1", [plan.id])).rows as LedgerEntry[]).map((e) => [e.object_key, e]),
  );
  const started = Date.now();
  const loaded: string[] = [];
  const failed: TickResult["failed"] = [];
  let complete = true;
  for (const file of files.filter((f) => match.test(f.key)).sort((a, b) => a.mtime.getTime() - b.mtime.getTime() || a.key.localeCompare(b.key))) {
    if (sameVersion(ledger.get(file.key), file)) continue;
    if (now.getTime() - file.mtime.getTime() < SETTLE_MS) {
      complete = false;
      continue;
    }
    if (Date.now() - started > SCAN_BUDGET_MS) {
      complete = false;
      break;
    }
    try {
      const rows = await loadObject(service, plan, shape, file);
      if (rows !== false) loaded.push(file.key);
    } catch (error) {
      const message = errorText(error, []).slice(0, 1000);
      await record(service, plan.id, file, null, message);
      failed.push({ key: file.key, error: message });
    }
  }
  return { loaded, failed, complete };
}

async function summarize(service: Client, plan: ObjStorePlan, dir: string, tick: TickResult, lastScan: Date | undefined): Promise<ConnectorObserved> {
  const { rows } = await service.query(
    "SELECT object_key, rows, error FROM _schemaform.loaded_objects WHERE connector_id = $1 ORDER BY loaded_at DESC, object_key",
    [plan.id],
  );
  const entries = rows as Array<{ object_key: string; rows: string | null; error: string | null }>;
  // a failed object that is gone from the bucket no longer needs anyone's attention
  const failed: typeof entries = [];
  for (const e of entries) if (e.error !== null && (await stat(join(dir, e.object_key)).then(() => true, () => false))) failed.push(e);
  const loaded = entries.filter((e) => e.error === null);
  const details: Record<string, unknown> = {
    bucket_dir: dir,
    objects_loaded: loaded.length,
    rows_loaded: loaded.reduce((n, e) => n + Number(e.rows ?? 0), 0),
    loaded_this_tick: tick.loaded,
    failed_this_tick: tick.failed,
    failed_objects: failed.map((e) => ({ key: e.object_key, error: e.error })),
    ...(lastScan ? { last_scan: lastScan.toISOString() } : {}),
  };
  if (failed.length) {
    const first = failed[0]!;
    const more = failed.length > 1 ? ` (and ${failed.length - 1} more object${failed.length > 2 ? "s" : ""}: ${failed.slice(1, 4).map((e) => e.object_key).join(", ")}${failed.length > 4 ? ", …" : ""})` : "";
    return {
      status: loaded.length ? "warning" : "error",
      message: `object ${first.object_key} failed to load: ${first.error}${more}; a failed object is retried when it changes`,
      details,
    };
  }
  if (entries.length === 0) return { status: "ok", message: `no object matching ${plan.pattern} in bucket ${plan.bucket} yet`, details };
  return { status: "ok", message: `${loaded.length} object${loaded.length === 1 ? "" : "s"} loaded`, details };
}
