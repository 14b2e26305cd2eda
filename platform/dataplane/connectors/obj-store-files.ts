// Reading one object of an object-store connector into rows for its table: CSV through csv-parse,
// PARQUET through hyparquet (with hyparquet-compressors for gzip, zstd, brotli, lz4). Values go to
// PostgreSQL as text and are cast there to each column's type, so the server's own input rules
// apply (an unquoted empty CSV field is NULL, as in COPY … CSV).

import type { ColumnMapping } from "../../types.js";

export interface CsvSettings {
  delimiter: string;
  skipHeader: boolean;
  autoColumnMapping: boolean;
  columnNames?: string[];
  columnMappings?: ColumnMapping[];
}

export interface ParquetSettings {
  autoColumnMapping: boolean;
  columnMappings?: ColumnMapping[];
}

/** Rows of one object, as text, under the table's column names. */
export interface ObjectRows {
  columns: string[];
  rows: Array<Array<string | null>>;
}

/** A table column's name as the file names it: exact, else the one column equal ignoring case. */
function tableColumn(name: string, tableColumns: string[], where: string): string {
  if (tableColumns.includes(name)) return name;
  const folded = tableColumns.filter((c) => c.toLowerCase() === name.toLowerCase());
  if (folded.length === 1) return folded[0]!;
  throw new Error(`${where} ${JSON.stringify(name)} is not a column of the table (its columns: ${tableColumns.join(", ")})`);
}

/** Positions of the file's columns to take, and the table column each goes to. */
function mapped(fileColumns: string[], mappings: ColumnMapping[], tableColumns: string[], what: string): { pick: number[]; columns: string[] } {
  const pick: number[] = [];
  const columns: string[] = [];
  for (const m of mappings) {
    const at = fileColumns.indexOf(m.source);
    if (at < 0) throw new Error(`column_mappings: source column ${JSON.stringify(m.source)} is not in the ${what} (it has: ${fileColumns.join(", ")})`);
    pick.push(at);
    columns.push(tableColumn(m.destination, tableColumns, "column_mappings: destination"));
  }
  return { pick, columns };
}

export async function readCsv(content: Buffer, settings: CsvSettings, tableColumns: string[]): Promise<ObjectRows> {
  const { parse } = await import("csv-parse/sync");
  const records = parse(content, {
    delimiter: settings.delimiter,
    bom: true,
    // a skipped header may have another number of fields than the data (a title line, say): the
    // data lines are held to one width below instead
    relax_column_count: settings.skipHeader,
    // an unquoted empty field is NULL, a quoted one the empty string (PostgreSQL's COPY … CSV)
    cast: (value: string, context: { quoting: boolean }) => (value === "" && !context.quoting ? null : value),
  }) as Array<Array<string | null>>;
  const header = records[0]?.map((v) => v ?? "") ?? [];
  const body = settings.skipHeader ? records.slice(1) : records;
  const width = body[0]?.length ?? 0;
  const uneven = body.findIndex((r) => r.length !== width);
  if (uneven >= 0) throw new Error(`line ${uneven + (settings.skipHeader ? 2 : 1)} has ${body[uneven]!.length} fields, the first data line ${width}`);
  let pick: number[] | undefined;
  let columns: string[];
  if (settings.columnMappings) {
    ({ pick, columns } = mapped(header, settings.columnMappings, tableColumns, "header line"));
  } else if (settings.autoColumnMapping) {
    columns = header.map((h) => tableColumn(h, tableColumns, "header column"));
  } else if (settings.columnNames) {
    columns = settings.columnNames.map((c) => tableColumn(c, tableColumns, "column_names:"));
  } else {
    if (width > tableColumns.length) throw new Error(`the file has ${width} columns but the table only ${tableColumns.length}`);
    columns = tableColumns.slice(0, width);
  }
  if (!pick && columns.length !== width && body.length) {
    throw new Error(`the file has ${width} columns but ${columns.length} are named (column_names)`);
  }
  const rows = pick ? body.map((r) => pick!.map((i) => r[i] ?? null)) : body;
  return { columns, rows };
}

/** A Parquet value as PostgreSQL input text. */
function parquetText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint" || typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "string") return value;
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString("hex")}`;
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}

export async function readParquet(content: Buffer, settings: ParquetSettings, tableColumns: string[]): Promise<ObjectRows> {
  const { parquetMetadata, parquetReadObjects, parquetSchema } = await import("hyparquet");
  const { compressors } = await import("hyparquet-compressors");
  const file = content.buffer.slice(content.byteOffset, content.byteOffset + content.byteLength) as ArrayBuffer;
  const metadata = parquetMetadata(file);
  const fileColumns = parquetSchema(metadata).children.map((c) => c.element.name);
  const objects = await parquetReadObjects({ file, metadata, compressors, rowFormat: "object" });
  let pick: string[];
  let columns: string[];
  if (settings.columnMappings) {
    const m = mapped(fileColumns, settings.columnMappings, tableColumns, "file");
    pick = m.pick.map((i) => fileColumns[i]!);
    columns = m.columns;
  } else {
    pick = fileColumns;
    columns = fileColumns.map((c) => tableColumn(c, tableColumns, "file column"));
  }
  return { columns, rows: objects.map((o) => pick.map((c) => parquetText((o as Record<string, unknown>)[c]))) };
}
