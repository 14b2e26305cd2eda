// `schemaform platform export` / `import`: every row of a platform's database as JSON lines, read
// from one storage and written to another, SQLite or PostgreSQL in either direction (a team moving
// from one machine's SQLite file to a shared PostgreSQL, or a copy of the shared platform to debug
// on a laptop).
//
// The file: a header line {"format", "version", "schema", "source", "exported"}, then one line per
// row {"table", "row"} (columns as stored: ids, etags, timestamps, hashes, and secrets still
// encrypted), one line per generated-id counter {"sequence", "last"} (so ids are not handed out
// twice after an import), and a trailer {"end": true, "rows"} that tells a complete file from a
// truncated one. Secrets stay encrypted with the source's key: the importing platform must use the
// same key (a SQLite data directory's platform.key is the key file a PostgreSQL platform is given).

import { LATEST_SCHEMA_VERSION } from "./schema.js";
import { SEALED_COLUMNS, compareKeyCheck, keyCheckOf } from "./key-check.js";
import type { SecretBox } from "./secrets.js";
import type { Storage, Tx } from "./storage.js";

export const EXPORT_FORMAT = "schemaform-platform-export";
export const EXPORT_FORMAT_VERSION = 1;

/** Every table of the schema, a parent before the tables that reference it, with its generated-id column. */
const TABLES: ReadonlyArray<{ name: string; generated?: string }> = [
  { name: "meta" },
  { name: "projects" },
  { name: "restore_channels" },
  { name: "services" },
  { name: "vpcs", generated: "id" },
  { name: "peerings", generated: "id" },
  { name: "exporters" },
  { name: "connectors" },
  { name: "service_credentials" },
  { name: "events", generated: "seq" },
  { name: "credentials" },
  { name: "access_tokens" },
  { name: "idempotency_keys" },
  { name: "rate_buckets" },
];

const TABLE_NAMES: ReadonlySet<string> = new Set(TABLES.map((t) => t.name));

/**
 * What the data plane's agent observed on the machine it runs on (and its lease): not desired
 * state, and wrong anywhere else, so never exported; the importing platform's agent observes anew.
 */
const MACHINE_TABLES: ReadonlySet<string> = new Set(["dataplane_services", "dataplane_components", "dataplane_lease"]);

type Row = Record<string, unknown>;

interface Header {
  format: string;
  version: number;
  schema: number;
  source: Storage["kind"];
  exported: string;
}

export class TransferError extends Error {}

/** The lines of an export of `store`, read in one consistent snapshot, and the number of rows in it. */
export async function exportPlatform(store: Storage): Promise<{ lines: string[]; rows: number }> {
  return store.read(async (tx) => {
    await checkTables(tx, store.kind);
    const header: Header = { format: EXPORT_FORMAT, version: EXPORT_FORMAT_VERSION, schema: LATEST_SCHEMA_VERSION, source: store.kind, exported: new Date().toISOString() };
    const lines = [JSON.stringify(header)];
    let rows = 0;
    for (const table of TABLES) {
      const columns = await columnsOf(tx, store.kind, table.name);
      // every column in the sort: the same order from both databases (byte-order text on both)
      const all = await tx.all<Row>(`SELECT * FROM ${table.name} ORDER BY ${columns.map((_, i) => i + 1).join(", ")}`);
      for (const row of all) lines.push(JSON.stringify({ table: table.name, row }));
      rows += all.length;
    }
    for (const table of TABLES) {
      if (table.generated) lines.push(JSON.stringify({ sequence: table.name, last: await lastGenerated(tx, store.kind, table.name, table.generated) }));
    }
    lines.push(JSON.stringify({ end: true, rows }));
    return { lines, rows };
  });
}

export interface ImportOptions {
  /** delete every row of the target first; without it, a target with any row is refused */
  replace?: boolean;
  /**
   * The key the importing platform will use: every encrypted secret in the file must open with it.
   * Without it, a file that holds encrypted secrets is refused (they would be unreadable after the move).
   */
  box?: SecretBox;
}

/** Loads an export into `store` in one transaction: all of it, or nothing. The number of rows. */
export async function importPlatform(store: Storage, text: string, options: ImportOptions = {}): Promise<number> {
  const { rows, sequences } = parseExport(text);
  checkSecrets(rows, options.box);
  return store.write(async (tx) => {
    await checkTables(tx, store.kind);
    const columns = new Map<string, Set<string>>();
    for (const table of TABLES) columns.set(table.name, new Set(await columnsOf(tx, store.kind, table.name)));
    if (options.replace) {
      for (const table of [...TABLES].reverse()) await tx.run(`DELETE FROM ${table.name}`);
    } else {
      for (const table of TABLES) {
        const found = await tx.get<{ n: number | string }>(`SELECT count(*) AS n FROM ${table.name}`);
        if (Number(found?.n ?? 0) > 0) {
          throw new TransferError(`the target platform is not empty (table ${table.name} has rows); import into an empty database, or give --replace to delete what it holds first`);
        }
      }
    }
    for (const table of TABLES) {
      for (const row of rows.get(table.name) ?? []) {
        const names = Object.keys(row);
        for (const name of names) {
          // column names come from the file: only the table's own columns reach the SQL text
          if (!columns.get(table.name)!.has(name)) throw new TransferError(`the export has a column ${table.name}.${name} this schema does not have`);
        }
        await tx.run(`INSERT INTO ${table.name} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`, ...names.map((n) => row[n]));
      }
    }
    for (const [table, last] of sequences) {
      const spec = TABLES.find((t) => t.name === table);
      if (!spec?.generated) throw new TransferError(`the export has a counter for ${table}, which has no generated ids`);
      await restoreGenerated(tx, store.kind, table, spec.generated, last);
    }
    return [...rows.values()].reduce((n, list) => n + list.length, 0);
  });
}

/**
 * Opens every encrypted value of the export with the importing platform's key (each is bound to
 * its row, as the core sealed it), so that a wrong key is found now rather than by the first
 * update of a connector after the move.
 */
function checkSecrets(rows: Map<string, Row[]>, box: SecretBox | undefined): void {
  // the export's key check value, when the source had one: the key must be among the ones given
  const check = keyCheckOf(rows.get("meta") ?? []);
  if (box && check !== undefined) compareKeyCheck(box, check, { newest: false, what: "the exported platform" });
  const sealed = SEALED_COLUMNS.flatMap((s) =>
    (rows.get(s.table) ?? []).map((r) => ({ table: s.table, id: s.keys.map((k) => String(r[k])).join("/"), value: r[s.column], boundTo: s.boundTo(r) })),
  );
  for (const one of sealed) {
    if (one.value === null || one.value === undefined) continue;
    if (!box) {
      throw new TransferError(
        "the export holds encrypted secrets: give --secrets-key-file FILE, the key of the platform it was exported from (a SQLite platform's is <data dir>/platform.key), so that they can be checked before the import",
      );
    }
    try {
      box.decrypt(String(one.value), one.boundTo);
    } catch {
      throw new TransferError(
        `the secrets in the export do not decrypt with ${box.source} (first: ${one.table} ${one.id}); use the key of the platform it was exported from (a SQLite platform's is <data dir>/platform.key)`,
      );
    }
  }
}

function parseExport(text: string): { rows: Map<string, Row[]>; sequences: Map<string, number> } {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  const parse = (line: string, at: number): Record<string, unknown> => {
    try {
      const value = JSON.parse(line) as unknown;
      if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // reported below
    }
    throw new TransferError(`line ${at} of the export is not a JSON object`);
  };
  if (lines.length === 0) throw new TransferError("the export is empty");
  const header = parse(lines[0]!, 1) as Partial<Header>;
  if (header.format !== EXPORT_FORMAT) throw new TransferError(`not a schemaform platform export (the first line must name the format ${EXPORT_FORMAT})`);
  if (header.version !== EXPORT_FORMAT_VERSION) throw new TransferError(`the export is in format version ${header.version}; this schemaform reads version ${EXPORT_FORMAT_VERSION}`);
  if (header.schema !== LATEST_SCHEMA_VERSION) {
    throw new TransferError(
      `the export is of schema version ${header.schema} and this schemaform's is ${LATEST_SCHEMA_VERSION}: export again with the same schemaform version as the importing one (serve or migrate the source with it first)`,
    );
  }
  const rows = new Map<string, Row[]>();
  const sequences = new Map<string, number>();
  let count = 0;
  let trailer: Record<string, unknown> | undefined;
  for (let i = 1; i < lines.length; i++) {
    if (trailer) throw new TransferError(`line ${i + 1} of the export follows its last line`);
    const line = parse(lines[i]!, i + 1);
    if (typeof line.table === "string") {
      if (!TABLE_NAMES.has(line.table)) throw new TransferError(`line ${i + 1} of the export names a table ${JSON.stringify(line.table)} this schema does not have`);
      if (line.row === null || typeof line.row !== "object" || Array.isArray(line.row)) throw new TransferError(`line ${i + 1} of the export has no row`);
      if (!rows.has(line.table)) rows.set(line.table, []);
      rows.get(line.table)!.push(line.row as Row);
      count++;
    } else if (typeof line.sequence === "string" && Number.isSafeInteger(line.last)) {
      sequences.set(line.sequence, line.last as number);
    } else if (line.end === true) {
      trailer = line;
    } else {
      throw new TransferError(`line ${i + 1} of the export is neither a row, a counter nor the last line`);
    }
  }
  if (!trailer) throw new TransferError("the export has no last line: the file is incomplete (cut off while it was written or copied)");
  if (trailer.rows !== count) throw new TransferError(`the export's last line counts ${String(trailer.rows)} rows, but it holds ${count}: the file is damaged`);
  return { rows, sequences };
}

/** Refuses a database with tables this version does not know: their rows would be left behind silently. */
async function checkTables(tx: Tx, kind: Storage["kind"]): Promise<void> {
  const found =
    kind === "sqlite"
      ? await tx.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      : await tx.all<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'schemaform_schema'");
  const unknown = found.map((t) => t.name).filter((name) => !TABLE_NAMES.has(name) && !MACHINE_TABLES.has(name));
  if (unknown.length > 0) throw new TransferError(`the database has tables this schemaform does not know (${unknown.sort().join(", ")}); use the schemaform version that wrote it`);
  const missing = [...TABLE_NAMES].filter((name) => !found.some((t) => t.name === name));
  if (missing.length > 0) throw new TransferError(`the database lacks the tables ${missing.join(", ")}; is it a schemaform platform database?`);
}

async function columnsOf(tx: Tx, kind: Storage["kind"], table: string): Promise<string[]> {
  const rows =
    kind === "sqlite"
      ? await tx.all<{ name: string }>("SELECT name FROM pragma_table_info(?) ORDER BY cid", table)
      : await tx.all<{ name: string }>("SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position", table);
  return rows.map((r) => r.name);
}

/** The last id a table's counter handed out (0: none), as SQLite's sqlite_sequence keeps it. */
async function lastGenerated(tx: Tx, kind: Storage["kind"], table: string, column: string): Promise<number> {
  if (kind === "sqlite") {
    const row = await tx.get<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = ?", table);
    return row?.seq ?? 0;
  }
  const sequence = await tx.get<{ name: string }>("SELECT pg_get_serial_sequence(?, ?) AS name", table, column);
  // the name comes from PostgreSQL itself (schema-qualified, quoted where needed)
  const state = await tx.get<{ last_value: string; is_called: boolean }>(`SELECT last_value, is_called FROM ${sequence!.name}`);
  return state!.is_called ? Number(state!.last_value) : Number(state!.last_value) - 1;
}

/** Sets a table's counter so that the next generated id follows both `last` and every imported id. */
async function restoreGenerated(tx: Tx, kind: Storage["kind"], table: string, column: string, last: number): Promise<void> {
  const max = await tx.get<{ m: number | string | null }>(`SELECT max(${column}) AS m FROM ${table}`);
  const next = Math.max(last, Number(max?.m ?? 0));
  if (kind === "sqlite") {
    if ((await tx.run("UPDATE sqlite_sequence SET seq = ? WHERE name = ?", next, table)) === 0) await tx.run("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", table, next);
    return;
  }
  if (next > 0) await tx.get("SELECT setval(pg_get_serial_sequence(?, ?), ?, true)", table, column, next);
  else await tx.get("SELECT setval(pg_get_serial_sequence(?, ?), 1, false)", table, column);
}
