// Import identifiers: which of a type's import formats (generated/models, from the schemas'
// `x-terraform.importFormats`) an identifier matches, and the parts it names.

import type { ImportFormat, TypeModel } from "../../language/schema/model-types.js";
import { suggest } from "../../language/syntax/suggest.js";
import { model as restoreChannel } from "../../generated/models/resource.containerbackup_restore_channel.js";
import { model as objStore } from "../../generated/models/resource.tsdb_connector_obj_store.js";
import { model as srcDb } from "../../generated/models/resource.tsdb_connector_src_db.js";
import { model as logExporter } from "../../generated/models/resource.tsdb_log_exporter.js";
import { model as metricExporter } from "../../generated/models/resource.tsdb_metric_exporter.js";
import { model as peering } from "../../generated/models/resource.tsdb_peering_connection.js";
import { model as service } from "../../generated/models/resource.tsdb_service.js";
import { model as vpcs } from "../../generated/models/resource.tsdb_vpcs.js";
import { IMPORT_TYPES, type ImportType } from "./types.js";

export const MODELS: Record<ImportType, TypeModel> = {
  tsdb_service: service,
  tsdb_vpcs: vpcs,
  tsdb_peering_connection: peering,
  tsdb_log_exporter: logExporter,
  tsdb_metric_exporter: metricExporter,
  tsdb_connector_obj_store: objStore,
  tsdb_connector_src_db: srcDb,
  containerbackup_restore_channel: restoreChannel,
};

export function isImportType(type: string): type is ImportType {
  return (IMPORT_TYPES as readonly string[]).includes(type);
}

/** "unknown resource type …" with a suggestion and the list of types. */
export function unknownTypeMessage(type: string): string {
  const hint = suggest(type, IMPORT_TYPES);
  return `unknown resource type "${type}"${hint ? `; did you mean "${hint}"?` : ""} (types that can be imported: ${IMPORT_TYPES.join(", ")})`;
}

export interface ParsedImportId {
  /** the format that matched, e.g. "{location}/{name}" */
  format: string;
  /** its index in the type's import formats */
  index: number;
  /** part name → value, e.g. { location: "us-central1", name: "prod" } */
  parts: Record<string, string>;
}

/** Every format of the type the identifier matches, in the type's order (the first is preferred). */
export function matchImportId(type: ImportType, id: string): ParsedImportId[] {
  const matches: ParsedImportId[] = [];
  MODELS[type].importFormats.forEach((format: ImportFormat, index) => {
    const m = new RegExp(format.regex).exec(id);
    if (!m) return;
    const parts: Record<string, string> = {};
    format.parts.forEach((part, i) => {
      parts[part] = m[i + 1]!;
    });
    matches.push({ format: format.format, index, parts });
  });
  return matches;
}

/** The accepted formats of a type, e.g. "{peering_connection_id},{platform_vpc_id} or {id}". */
export function acceptedFormats(type: ImportType): string[] {
  return MODELS[type].importFormats.map((f) => f.format);
}

/** The message for an identifier that matches none of the type's formats. */
export function malformedIdMessage(type: ImportType, id: string): string {
  const formats = acceptedFormats(type);
  return `${type} "${id}": not a valid import identifier; ${formats.length === 1 ? "the accepted format is" : "accepted formats are"} ${formats.map((f) => `"${f}"`).join(", ")}`;
}

/**
 * Fills a format with values: `fillFormat("{service_id}:{id}", { service_id: "a", id: "b" })` →
 * "a:b". Used to build the canonical identifier of a live resource.
 */
export function fillFormat(format: string, values: Record<string, unknown>): string {
  return format.replace(/\{([a-z_]+)\}/g, (_all, part: string) => {
    const value = values[part];
    if (value === undefined || value === null) throw new Error(`no value for {${part}} of import format ${format}`);
    return String(value);
  });
}

/** The canonical import identifier of a live resource: the type's first import format, filled. */
export function canonicalImportId(type: ImportType, body: Record<string, unknown>): string {
  return fillFormat(MODELS[type].importFormats[0]!.format, body);
}
