// Turning what a handler returned into the state Terraform stores, so that Terraform's
// consistency rules (reference §10) hold no matter how much the remote echoes back:
// - after apply, every value the plan knew stays as planned, unknowns take the remote's value
//   (or null), and nothing unknown is left;
// - after read, missing keys keep the prior value (the remote does not know about them, e.g.
//   `timeouts`), and sensitive values the remote never echoes keep their prior value;
// - write-only attributes are null everywhere.
import { type Body, type Value, UNKNOWN } from "../codec.js";
import { type SchemaAttribute, type SchemaBlock, nestedAsBlock } from "../schema.js";
import { containsUnknown, isObject } from "./values.js";

/** The new state after create/update: planned values win where known. */
export function settleApplied(planned: Body, actual: Body, block: SchemaBlock): Body {
  const out: Body = {};
  for (const [name, attribute] of Object.entries(block.attributes ?? {})) {
    out[name] = attribute.write_only ? null : settleValue(planned[name] ?? null, actual[name], attribute);
  }
  for (const [name, blockType] of Object.entries(block.block_types ?? {})) {
    out[name] = settleNested(planned[name] ?? null, actual[name], blockType.nesting_mode, blockType.block);
  }
  return out;
}

function settleValue(planned: Value, actual: Value | undefined, attribute: SchemaAttribute): Value {
  if (!containsUnknown(planned)) return planned;
  if (planned === UNKNOWN) return withoutUnknowns(actual ?? null);
  if (attribute.nested_type) {
    return settleNested(planned, actual, attribute.nested_type.nesting_mode, nestedAsBlock(attribute.nested_type));
  }
  // A partly unknown primitive collection: the remote's value is the only complete one.
  return withoutUnknowns(actual ?? null);
}

function settleNested(planned: Value, actual: Value | undefined, mode: string, block: SchemaBlock): Value {
  if (!containsUnknown(planned)) return planned;
  if (planned === UNKNOWN) return withoutUnknowns(actual ?? emptyOf(mode));
  if (mode === "single" || mode === "group") {
    return isObject(planned) ? settleApplied(planned, isObject(actual) ? actual : {}, block) : planned;
  }
  if (mode === "list" && Array.isArray(planned)) {
    const items = Array.isArray(actual) ? actual : [];
    return planned.map((item, i) => (isObject(item) ? settleApplied(item, isObject(items[i]) ? (items[i] as Body) : {}, block) : item));
  }
  if (mode === "map" && isObject(planned)) {
    const items = isObject(actual) ? actual : {};
    return Object.fromEntries(Object.entries(planned).map(([key, item]) => [key, isObject(item) ? settleApplied(item, isObject(items[key]) ? (items[key] as Body) : {}, block) : item]));
  }
  // Sets cannot be paired by position: take the remote's elements, with planned unknowns filled in.
  if (Array.isArray(actual)) return actual.map((item) => (isObject(item) ? settleApplied(fillFrom(item, block), item, block) : item));
  return withoutUnknowns(planned);
}

/** A set element from the remote, used as its own plan (its values are all known). */
function fillFrom(item: Body, block: SchemaBlock): Body {
  const out: Body = {};
  for (const name of Object.keys(block.attributes ?? {})) out[name] = item[name] ?? null;
  for (const name of Object.keys(block.block_types ?? {})) out[name] = item[name] ?? null;
  return out;
}

function emptyOf(mode: string): Value {
  return mode === "list" || mode === "set" ? [] : mode === "map" ? {} : null;
}

/** The value with unknowns replaced by null (the value itself when it holds none). */
function withoutUnknowns(value: Value): Value {
  return containsUnknown(value) ? copyWithoutUnknowns(value) : value;
}

function copyWithoutUnknowns(value: Value): Value {
  if (value === UNKNOWN) return null;
  if (Array.isArray(value)) return value.map(copyWithoutUnknowns);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyWithoutUnknowns(v)]));
  return value;
}

/** The state after a read (or an import, with `prior` null). */
export function settleRead(prior: Body | null, actual: Body, block: SchemaBlock): Body {
  const out: Body = {};
  for (const [name, attribute] of Object.entries(block.attributes ?? {})) {
    const value = actual[name];
    const before = prior?.[name] ?? null;
    if (attribute.write_only) out[name] = null;
    else if (value === undefined) out[name] = before;
    // Secrets are write-only from the platform's point of view: it never returns them.
    else if (attribute.sensitive && value === null) out[name] = before;
    else out[name] = withoutUnknowns(value);
  }
  for (const [name, blockType] of Object.entries(block.block_types ?? {})) {
    const value = actual[name];
    out[name] = value === undefined ? (prior?.[name] ?? emptyOf(blockType.nesting_mode)) : withoutUnknowns(value);
  }
  return out;
}

/** A data source's state: configured values always win; the rest comes from the result. */
export function settleDataSource(config: Body, actual: Body, block: SchemaBlock): Body {
  const out: Body = {};
  for (const [name, attribute] of Object.entries(block.attributes ?? {})) {
    const configured = config[name] ?? null;
    if (attribute.write_only) out[name] = null;
    else if (configured !== null || !attribute.computed) out[name] = configured;
    else out[name] = withoutUnknowns(actual[name] ?? null);
  }
  for (const name of Object.keys(block.block_types ?? {})) out[name] = config[name] ?? null;
  return out;
}
