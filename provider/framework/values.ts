// Schema-aware helpers over bodies: equality (sets compare without order), and the body
// transformations the RPCs need (validation view, platform input, secrets for redaction).
import { UNKNOWN_VALUE } from "../../language/schema/model-types.js";
import { type Body, type Value, UNKNOWN } from "../codec.js";
import { type CtyType, type SchemaAttribute, type SchemaBlock, type SchemaBlockType, type SchemaNestedType, nestedAsBlock } from "../schema.js";


// ---------------------------------------------------------------------------------------------
// equality: a canonical string per value in which set elements are sorted

// Identical values have identical canonical strings, so a plain structural comparison settles
// the common case (nothing changed) without building any string.

export function blockEqual(a: Value | undefined, b: Value | undefined, block: SchemaBlock): boolean {
  return identical(a, b) || canonicalBlock(a, block) === canonicalBlock(b, block);
}

export function attributeEqual(a: Value | undefined, b: Value | undefined, attribute: SchemaAttribute): boolean {
  return identical(a, b) || canonicalAttribute(a, attribute) === canonicalAttribute(b, attribute);
}

export function blockTypeEqual(a: Value | undefined, b: Value | undefined, blockType: SchemaBlockType): boolean {
  return identical(a, b) || canonicalBlockType(a, blockType) === canonicalBlockType(b, blockType);
}

/**
 * Strict structural equality: the same primitives (===), arrays of identical elements in the same
 * order, objects with the same prototype and the same own keys holding identical values. A
 * sufficient (not a necessary) condition for equality under any of the canonical forms.
 */
export function identical(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!identical(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if (!identical((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

function canonicalBlock(value: Value | undefined, block: SchemaBlock): string {
  if (value === null || value === undefined) return "null";
  if (value === UNKNOWN) return "?";
  if (typeof value !== "object" || Array.isArray(value)) return JSON.stringify(value);
  const parts: string[] = [];
  for (const [name, attribute] of Object.entries(block.attributes ?? {})) {
    parts.push(`${JSON.stringify(name)}:${canonicalAttribute(value[name], attribute)}`);
  }
  for (const [name, blockType] of Object.entries(block.block_types ?? {})) {
    parts.push(`${JSON.stringify(name)}:${canonicalBlockType(value[name], blockType)}`);
  }
  return `{${parts.join(",")}}`;
}

function canonicalBlockType(value: Value | undefined, blockType: SchemaBlockType): string {
  const mode = blockType.nesting_mode;
  if (mode === "single" || mode === "group") return canonicalBlock(value, blockType.block);
  // An absent list/set block and an empty one are the same thing to Terraform.
  if (value === null || value === undefined) return mode === "map" ? "{}" : "[]";
  return canonicalCollection(value, mode, (item) => canonicalBlock(item, blockType.block));
}

function canonicalAttribute(value: Value | undefined, attribute: SchemaAttribute): string {
  if (attribute.nested_type) {
    const block = nestedAsBlock(attribute.nested_type);
    const mode = attribute.nested_type.nesting_mode;
    if (mode === "single") return canonicalBlock(value, block);
    return canonicalCollection(value, mode, (item) => canonicalBlock(item, block));
  }
  return canonicalValue(value, attribute.type ?? "dynamic");
}

function canonicalValue(value: Value | undefined, type: CtyType): string {
  if (value === null || value === undefined) return "null";
  if (value === UNKNOWN) return "?";
  if (typeof type === "string") {
    // 5 and "5" are the same number to Terraform (big numbers travel as strings).
    if (type === "number" && typeof value === "string" && value.trim() !== "" && !Number.isNaN(Number(value))) return String(Number(value));
    if (type === "dynamic") return JSON.stringify(value);
    return JSON.stringify(value);
  }
  const [kind, element] = type;
  if (kind === "object") {
    if (typeof value !== "object" || Array.isArray(value)) return JSON.stringify(value);
    const attributes = element as Record<string, CtyType>;
    return `{${Object.keys(attributes)
      .map((name) => `${JSON.stringify(name)}:${canonicalValue(value[name], attributes[name]!)}`)
      .join(",")}}`;
  }
  if (kind === "tuple") {
    if (!Array.isArray(value)) return JSON.stringify(value);
    const types = element as CtyType[];
    return `[${value.map((item, i) => canonicalValue(item, types[i] ?? "dynamic")).join(",")}]`;
  }
  return canonicalCollection(value, kind, (item) => canonicalValue(item, element as CtyType));
}

function canonicalCollection(value: Value | undefined, mode: "list" | "set" | "map", each: (item: Value) => string): string {
  if (value === null || value === undefined) return "null";
  if (value === UNKNOWN) return "?";
  if (mode === "map") {
    if (typeof value !== "object" || Array.isArray(value)) return JSON.stringify(value);
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${each(value[key]!)}`)
      .join(",")}}`;
  }
  if (!Array.isArray(value)) return JSON.stringify(value);
  const items = value.map(each);
  // Sets: never compare order.
  if (mode === "set") items.sort();
  return `[${items.join(",")}]`;
}

// ---------------------------------------------------------------------------------------------
// transformations

/** True when a value contains UNKNOWN anywhere. */
export function containsUnknown(value: Value | undefined): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/**
 * The body the shared validator expects: unknown values become "${unknown}" and nulls are
 * removed (absent and null are the same; ARCHITECTURE.md section 1). Numbers the codec kept as
 * decimal text (beyond what a double holds exactly) are numbers again: the validator judges their
 * value, as `schemaform validate` does, and a whole number past 2^53 is still a whole number.
 */
export function validationBody(body: Body, block: SchemaBlock): Body {
  const known = transform(body, (value) => (value === UNKNOWN ? UNKNOWN_VALUE : value)) as Body;
  return numbersIn(known, block);
}

function numbersIn(body: Body, block: SchemaBlock): Body {
  let out: Body | null = null;
  const set = (name: string, value: Value) => {
    out ??= { ...body };
    out[name] = value;
  };
  for (const [name, attribute] of Object.entries(block.attributes ?? {})) {
    const value = body[name];
    if (value === undefined) continue;
    const type: CtyType | undefined = attribute.type ?? (attribute.nested_type ? nestedType(attribute.nested_type) : undefined);
    if (type === undefined) continue;
    const converted = numbersOf(value, type);
    if (converted !== value) set(name, converted);
  }
  for (const [name, blockType] of Object.entries(block.block_types ?? {})) {
    const value = body[name];
    if (Array.isArray(value)) {
      const items = value.map((item) => (isObject(item) ? numbersIn(item, blockType.block) : item));
      if (items.some((item, i) => item !== value[i])) set(name, items);
    } else if (isObject(value)) {
      const converted = numbersIn(value, blockType.block);
      if (converted !== value) set(name, converted);
    }
  }
  return out ?? body;
}

function numbersOf(value: Value, type: CtyType): Value {
  if (type === "number") return typeof value === "string" && value !== UNKNOWN_VALUE && /^-?\d/.test(value) ? Number(value) : value;
  if (typeof type === "string" || type[0] === "tuple") return value;
  if (type[0] === "object") {
    if (!isObject(value)) return value;
    return numbersIn(value, { attributes: Object.fromEntries(Object.entries(type[1]).map(([k, t]) => [k, { type: t }])) });
  }
  const element = type[1];
  if (Array.isArray(value)) {
    const items = value.map((item) => numbersOf(item, element));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  if (type[0] === "map" && isObject(value)) {
    let out: Body | null = null;
    for (const [k, item] of Object.entries(value)) {
      const converted = numbersOf(item, element);
      if (converted !== item) (out ??= { ...value })[k] = converted;
    }
    return out ?? value;
  }
  return value;
}

function nestedType(nested: SchemaNestedType): CtyType {
  const object: CtyType = ["object", Object.fromEntries(Object.entries(nested.attributes).map(([k, a]) => [k, a.type ?? (a.nested_type ? nestedType(a.nested_type) : "dynamic")]))];
  return nested.nesting_mode === "single" ? object : [nested.nesting_mode === "map" ? "map" : "list", object];
}

/** Removes nulls and unknowns, recursively: what a platform request should carry. */
export function knownBody(body: Body): Body {
  return transform(body, (value) => (value === UNKNOWN ? null : value)) as Body;
}

/**
 * Deep copy mapping leaves through `leaf`; object keys whose result is null are dropped (list
 * elements are kept, so that indexes in validation paths stay right).
 */
function transform(value: Value, leaf: (value: Value) => Value): Value {
  if (Array.isArray(value)) return value.map((item) => transform(item, leaf));
  if (value !== null && typeof value === "object") {
    const out: Body = {};
    for (const [key, item] of Object.entries(value)) {
      const mapped = transform(item, leaf);
      if (mapped !== null) out[key] = mapped;
    }
    return out;
  }
  return leaf(value);
}

/** The planned values plus the write-only values of the configuration (planned has them null). */
export function withWriteOnly(planned: Body, config: Body | null, block: SchemaBlock): Body {
  if (!config) return planned;
  const out: Body = { ...planned };
  for (const [name, attribute] of Object.entries(block.attributes ?? {})) {
    if (attribute.write_only) out[name] = config[name] ?? null;
  }
  for (const [name, blockType] of Object.entries(block.block_types ?? {})) {
    const p = planned[name];
    const c = config[name];
    if (blockType.nesting_mode === "single" || blockType.nesting_mode === "group") {
      if (isObject(p) && isObject(c)) out[name] = withWriteOnly(p, c, blockType.block);
    } else if (blockType.nesting_mode === "list" && Array.isArray(p) && Array.isArray(c)) {
      // Write-only attributes cannot sit inside sets (Terraform rejects such schemas), so lists
      // and single blocks are the only places to look.
      out[name] = p.map((item, i) => (isObject(item) && isObject(c[i]) ? withWriteOnly(item, c[i] as Body, blockType.block) : item));
    }
  }
  return out;
}

// What a block holds anywhere inside, worked out once per block: most have no write-only and
// no sensitive attribute, and then the walks below have nothing to do.
const writeOnlyInside = new WeakMap<SchemaBlock, boolean>();
const secretsInside = new WeakMap<SchemaBlock, boolean>();

function anyAttribute(block: SchemaBlock, test: (attribute: SchemaAttribute) => boolean, cache: WeakMap<SchemaBlock, boolean>): boolean {
  let found = cache.get(block);
  if (found === undefined) {
    found =
      Object.values(block.attributes ?? {}).some((attribute) => test(attribute) || (attribute.nested_type !== undefined && anyAttribute(nestedAsBlock(attribute.nested_type), test, cache))) ||
      Object.values(block.block_types ?? {}).some((blockType) => anyAttribute(blockType.block, test, cache));
    cache.set(block, found);
  }
  return found;
}

/** Whether a block has a write-only attribute at any depth. */
export function hasWriteOnly(block: SchemaBlock): boolean {
  return anyAttribute(block, (attribute) => attribute.write_only === true, writeOnlyInside);
}

/** Whether a block has a sensitive or write-only attribute at any depth. */
export function hasSecrets(block: SchemaBlock): boolean {
  return anyAttribute(block, (attribute) => attribute.sensitive === true || attribute.write_only === true, secretsInside);
}

/**
 * Sets every write-only attribute to null, at every depth: they may never reach state. A block
 * without write-only attributes gets the body itself back (callers only read the result).
 */
export function nullWriteOnly(body: Body | null, block: SchemaBlock): Body | null {
  if (!body) return body;
  if (!hasWriteOnly(block)) return body;
  const out: Body = { ...body };
  for (const [name, attribute] of Object.entries(block.attributes ?? {})) {
    if (attribute.write_only) out[name] = null;
    else if (attribute.nested_type) {
      const nested = attribute.nested_type;
      out[name] = mapNested(out[name], nested.nesting_mode, (item) => nullWriteOnly(item, nestedAsBlock(nested)));
    }
  }
  for (const [name, blockType] of Object.entries(block.block_types ?? {})) {
    out[name] = mapNested(out[name], blockType.nesting_mode, (item) => nullWriteOnly(item, blockType.block));
  }
  return out;
}

export type Nesting = "single" | "group" | "list" | "set" | "map";

/** Applies `each` to the object(s) of a nested value according to its nesting mode. */
export function mapNested(value: Value | undefined, nesting: Nesting, each: (item: Body) => Body | null): Value {
  if (value === undefined || value === null || value === UNKNOWN) return value ?? null;
  if (nesting === "single" || nesting === "group") return isObject(value) ? each(value) : value;
  if (nesting === "map") {
    if (!isObject(value)) return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, isObject(item) ? each(item) : item]));
  }
  return Array.isArray(value) ? value.map((item) => (isObject(item) ? each(item) : item)) : value;
}

/** Every sensitive or write-only string (and number) in a body, for redacting messages. */
export function collectSecrets(body: Body | null | undefined, block: SchemaBlock, into: Set<string> = new Set()): Set<string> {
  if (!body || !hasSecrets(block)) return into;
  for (const [name, attribute] of Object.entries(block.attributes ?? {})) {
    const value = body[name];
    if (attribute.sensitive || attribute.write_only) collectLeaves(value, into);
    else if (attribute.nested_type) {
      const nested = attribute.nested_type;
      mapNested(value, nested.nesting_mode, (item) => (collectSecrets(item, nestedAsBlock(nested), into), item));
    }
  }
  for (const [name, blockType] of Object.entries(block.block_types ?? {})) {
    mapNested(body[name], blockType.nesting_mode, (item) => (collectSecrets(item, blockType.block, into), item));
  }
  return into;
}

function collectLeaves(value: Value | undefined, into: Set<string>): void {
  if (typeof value === "string" && value.length > 0) into.add(value);
  else if (typeof value === "number") into.add(String(value));
  else if (Array.isArray(value)) value.forEach((item) => collectLeaves(item, into));
  else if (isObject(value)) Object.values(value).forEach((item) => collectLeaves(item, into));
}

export function isObject(value: Value | undefined): value is Body {
  return value !== null && value !== undefined && typeof value === "object" && !Array.isArray(value);
}
