// Request bodies are checked with the generated validators (language/schema/body.ts), the same rules that
// the constructs, `schemaform validate` and the provider's Validate*Config RPCs apply. Computed-only
// attributes (ids, statuses, endpoints, etags …) are dropped first: a client may send back a body
// it read, and only the configuration part is checked. The platform's own rules (cross-resource
// references, state-dependent checks) run after this, in the domain core.

import { loadType, loadedType, validateBody } from "../language/schema/body.js";
import { formatPath, type PathSegment } from "../language/schema/attribute-path.js";
import { UNKNOWN_VALUE, type BlockModel } from "../language/schema/model-types.js";
import { PlatformError, type Issue, type Warning } from "./errors.js";

export type BodyType =
  | "resource.containerbackup_restore_channel"
  | "resource.tsdb_service"
  | "resource.tsdb_vpcs"
  | "resource.tsdb_peering_connection"
  | "resource.tsdb_log_exporter"
  | "resource.tsdb_metric_exporter"
  | "resource.tsdb_connector_obj_store"
  | "resource.tsdb_connector_src_db";

/** Loads a type's validator; must be awaited before `checkBody` for that type. */
export async function prepareValidation(key: BodyType): Promise<void> {
  await loadType(key);
}

/**
 * Validates the configuration part of `body` against the type's schema. Throws an `invalid`
 * PlatformError listing every error; returns the warnings (deprecated attributes …).
 */
export function checkBody(key: BodyType, body: Record<string, unknown>): Warning[] {
  const { model } = loadedType(key);
  const config = configPart(model.block, body);
  // the validators let unknown values pass (they serve plans too); a stored value must be known
  const unknown = unknownAt(config, []);
  if (unknown) throw invalidBody(model.type, [{ severity: "error", path: unknown, message: `${formatPath(unknown)} is not known yet; the platform needs a known value` }]);
  const issues = validateBody(key, config);
  const errors = issues.filter((i) => i.severity === "error");
  if (errors.length > 0) throw invalidBody(model.type, errors);
  return issues.filter((i) => i.severity === "warning").map(({ path, message }) => ({ path, message }));
}

export function invalidBody(typeName: string, errors: Issue[]): PlatformError {
  const first = errors[0]!.message;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more ${errors.length === 2 ? "problem" : "problems"})` : "";
  return new PlatformError("invalid", `invalid ${typeName}: ${first}${more}`, errors);
}

/** A copy of `body` without computed-only attributes (at any depth) and without null values. */
function configPart(block: BlockModel, body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === null || value === undefined) continue;
    // own properties only: a key such as "toString" must not find Object.prototype's member
    const attribute = Object.hasOwn(block.attributes, key) ? block.attributes[key] : undefined;
    if (attribute && attribute.computed && !attribute.optional && !attribute.required) continue;
    const child = Object.hasOwn(block.blocks, key) ? block.blocks[key] : undefined;
    const nested = attribute?.nested ?? (child ? { nesting: child.nesting, block: child.block } : undefined);
    if (nested && value && typeof value === "object") {
      out[key] = Array.isArray(value)
        ? value.map((item) => (item && typeof item === "object" && !Array.isArray(item) ? configPart(nested.block, item as Record<string, unknown>) : item))
        : configPart(nested.block, value as Record<string, unknown>);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** The path of the first unknown value in a body, if any. */
function unknownAt(value: unknown, path: PathSegment[]): PathSegment[] | undefined {
  if (value === UNKNOWN_VALUE) return path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unknownAt(value[i], [...path, i]);
      if (found) return found;
    }
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const found = unknownAt(v, [...path, k]);
      if (found) return found;
    }
  }
  return undefined;
}
