// Value codec: Terraform's msgpack (and JSON state) <-> the body (ARCHITECTURE.md section 1),
// driven by the Terraform schema.
//
// Decoded bodies always have every attribute and block of the schema as a key (null when Terraform
// sent null), absent list/set blocks are [] and an absent single block is null, exactly as
// Terraform sends them. Encoding accepts missing keys (they become null, or [] for list/set
// blocks), because Terraform requires every attribute of an object to be present.
//
// Unknown values (msgpack extension type 0, or any other extension such as a refined unknown)
// become the UNKNOWN marker; we always encode unknowns as plain `d4 00 00`, never refined,
// because a refinement is a promise Terraform enforces after apply.
import { Decoder, Encoder, ExtData, type ExtensionCodecType } from "@msgpack/msgpack";
import { GIVE_UP, fastDecode, fastEncode, fastEncodeJsonState } from "./codec-fast.js";
import { type CtyType, type SchemaAttribute, type SchemaBlock, nestedAsBlock } from "./schema.js";

/** Marks a value Terraform does not know yet (known after apply). */
export const UNKNOWN: unique symbol = Symbol.for("schemaform.unknown");
export type Unknown = typeof UNKNOWN;

export type Value = string | number | boolean | null | Unknown | Value[] | { [key: string]: Value };
export type Body = { [key: string]: Value };

export function isUnknown(value: unknown): value is Unknown {
  return value === UNKNOWN;
}

export class CodecError extends Error {
  constructor(
    message: string,
    readonly path: (string | number)[] = [],
  ) {
    super(message);
    this.name = "CodecError";
  }
}

// ---------------------------------------------------------------------------------------------
// msgpack

/** Every extension type decodes to UNKNOWN (the built-in timestamp extension must not apply). */
const unknownExtensions = {
  __brand: undefined,
  tryToEncode: () => null,
  decode: () => UNKNOWN,
} as unknown as ExtensionCodecType<undefined>;

const UNKNOWN_WIRE = new ExtData(0, new Uint8Array([0]));

// One encoder and one decoder per process: constructing them per value costs a fresh buffer and
// key cache every time (both are re-entrancy safe: a nested use works on a clone).
const decoder = new Decoder({ extensionCodec: unknownExtensions, useBigInt64: true });
const encoder = new Encoder({ ignoreUndefined: false });
const plainEncoder = new Encoder();
const utf8 = new TextDecoder();
const utf8Encoder = new TextEncoder();

/** Decodes a msgpack DynamicValue of an object of `block`'s type; null stays null. */
export function decodeMsgpack(bytes: Uint8Array | undefined | null, block: SchemaBlock): Body | null {
  // An absent DynamicValue (empty bytes) means null; Terraform normally sends `c0` for that.
  if (!bytes || bytes.length === 0) return null;
  // The compiled single-pass decoder (codec-fast.ts); it gives up on anything unusual, and this
  // general path then decides.
  const fast = fastDecode(bytes, block);
  if (fast !== GIVE_UP && fast !== UNKNOWN) return fast;
  const raw = decoder.decode(bytes);
  const value = fromWireBlock(raw, block, [], "msgpack");
  if (value === UNKNOWN) throw new CodecError("a whole object was unknown where a resource object was expected");
  return value;
}

/** Encodes a body (or null) of `block`'s type as msgpack. */
export function encodeMsgpack(body: Body | null | undefined, block: SchemaBlock): Uint8Array {
  const fast = fastEncode(body ?? null, block);
  if (fast !== GIVE_UP) return fast;
  return encoder.encode(toWireBlock(body ?? null, block, []));
}

/** Encodes one value of a cty type (used by tests and by `dynamic` values). */
export function encodeValue(value: Value, type: CtyType): Uint8Array {
  return plainEncoder.encode(toWireValue(value, type, []));
}

export function decodeValue(bytes: Uint8Array, type: CtyType): Value {
  return fromWireValue(decoder.decode(bytes), type, [], "msgpack");
}

// ---------------------------------------------------------------------------------------------
// JSON state (UpgradeResourceState): same shapes, except `dynamic` values are {value, type}
// objects and numbers are JSON numbers.

/**
 * `encodeMsgpack(fromJsonState(state, block), block)`, in one pass when the state allows it
 * (UpgradeResourceState answers every resource of every plan this way).
 */
export function encodeJsonState(state: unknown, block: SchemaBlock): Uint8Array {
  const fast = fastEncodeJsonState(state, block);
  if (fast !== GIVE_UP) return fast;
  return encodeMsgpack(fromJsonState(state, block), block);
}

/** Reads a resource's JSON state through the current schema: unknown keys are dropped, missing ones become null. */
export function fromJsonState(state: unknown, block: SchemaBlock): Body | null {
  const value = fromWireBlock(state, block, [], "json");
  if (value === UNKNOWN) throw new CodecError("state cannot contain unknown values");
  return value;
}

// ---------------------------------------------------------------------------------------------
// wire form -> body

type Source = "msgpack" | "json";

function fromWireBlock(raw: unknown, block: SchemaBlock, path: (string | number)[], source: Source): Body | null | Unknown {
  if (raw === null || raw === undefined) return null;
  if (raw === UNKNOWN) return UNKNOWN;
  if (typeof raw !== "object" || Array.isArray(raw)) throw new CodecError("expected an object", path);
  const input = raw as Record<string, unknown>;
  const body: Body = {};
  for (const [name, attribute] of Object.entries(block.attributes ?? {})) {
    body[name] = fromWireAttribute(input[name], attribute, [...path, name], source);
  }
  for (const [name, blockType] of Object.entries(block.block_types ?? {})) {
    const value = input[name];
    const here = [...path, name];
    switch (blockType.nesting_mode) {
      case "single":
      case "group":
        body[name] = fromWireBlock(value, blockType.block, here, source);
        break;
      case "list":
      case "set":
        // Absent list/set blocks are empty collections, never null.
        if (value === null || value === undefined) body[name] = [];
        else if (value === UNKNOWN) body[name] = UNKNOWN;
        else body[name] = asArray(value, here).map((item, i) => fromWireBlock(item, blockType.block, [...here, i], source));
        break;
      case "map":
        body[name] = value === null || value === undefined ? {} : fromWireMap(value, (item, key) => fromWireBlock(item, blockType.block, [...here, key], source), here);
        break;
    }
  }
  return body;
}

function fromWireAttribute(raw: unknown, attribute: SchemaAttribute, path: (string | number)[], source: Source): Value {
  if (attribute.nested_type) {
    const nested = attribute.nested_type;
    const block = nestedAsBlock(nested);
    if (raw === null || raw === undefined) return null;
    if (raw === UNKNOWN) return UNKNOWN;
    switch (nested.nesting_mode) {
      case "single":
        return fromWireBlock(raw, block, path, source);
      case "list":
      case "set":
        return asArray(raw, path).map((item, i) => fromWireBlock(item, block, [...path, i], source));
      case "map":
        return fromWireMap(raw, (item, key) => fromWireBlock(item, block, [...path, key], source), path);
    }
  }
  if (!attribute.type) throw new CodecError("attribute has neither type nor nested_type", path);
  return fromWireValue(raw, attribute.type, path, source);
}

function fromWireValue(raw: unknown, type: CtyType, path: (string | number)[], source: Source): Value {
  if (raw === null || raw === undefined) return null;
  if (raw === UNKNOWN) return UNKNOWN;
  if (typeof type === "string") {
    switch (type) {
      case "string":
        if (typeof raw !== "string") throw new CodecError(`expected a string, got ${typeof raw}`, path);
        return raw;
      case "bool":
        if (typeof raw !== "boolean") throw new CodecError(`expected a bool, got ${typeof raw}`, path);
        return raw;
      case "number":
        return fromWireNumber(raw, path);
      case "dynamic":
        return fromWireDynamic(raw, path, source);
    }
  }
  const [kind, element] = type;
  switch (kind) {
    case "list":
    case "set":
      return asArray(raw, path).map((item, i) => fromWireValue(item, element as CtyType, [...path, i], source));
    case "map":
      return fromWireMap(raw, (item, key) => fromWireValue(item, element as CtyType, [...path, key], source), path);
    case "object": {
      const attributes = element as Record<string, CtyType>;
      if (typeof raw !== "object" || Array.isArray(raw)) throw new CodecError("expected an object", path);
      const out: Body = {};
      for (const [name, attributeType] of Object.entries(attributes)) {
        out[name] = fromWireValue((raw as Record<string, unknown>)[name], attributeType, [...path, name], source);
      }
      return out;
    }
    case "tuple": {
      const types = element as CtyType[];
      return asArray(raw, path).map((item, i) => fromWireValue(item, types[i] ?? "dynamic", [...path, i], source));
    }
  }
}

/**
 * Numbers: Terraform sends small ones as msgpack ints or floats and very large or very precise
 * ones as strings. We keep a JS number whenever it is exact and the decimal string otherwise, so
 * nothing is silently rounded.
 */
function fromWireNumber(raw: unknown, path: (string | number)[]): number | string {
  if (typeof raw === "number") return raw;
  if (typeof raw === "bigint") return Number.isSafeInteger(Number(raw)) ? Number(raw) : raw.toString();
  if (typeof raw === "string") {
    const n = Number(raw);
    if (raw.trim() !== "" && Number.isFinite(n) && (Number.isSafeInteger(n) || !Number.isInteger(n))) return n;
    if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(raw)) return raw;
    throw new CodecError(`expected a number, got "${raw}"`, path);
  }
  throw new CodecError(`expected a number, got ${typeof raw}`, path);
}

/** `dynamic` values carry their own type: [bin(JSON type), value] in msgpack, {value, type} in JSON. */
function fromWireDynamic(raw: unknown, path: (string | number)[], source: Source): Value {
  if (source === "msgpack") {
    if (!Array.isArray(raw) || raw.length !== 2 || !(raw[0] instanceof Uint8Array)) {
      throw new CodecError("expected a dynamic value as [type, value]", path);
    }
    const type = JSON.parse(utf8.decode(raw[0])) as CtyType;
    return fromWireValue(raw[1], type, path, source);
  }
  if (typeof raw !== "object" || raw === null || !("type" in raw)) throw new CodecError("expected a dynamic value as {value, type}", path);
  const { value, type } = raw as { value: unknown; type: CtyType };
  return fromWireValue(value, type, path, source);
}

function asArray(raw: unknown, path: (string | number)[]): unknown[] {
  if (!Array.isArray(raw)) throw new CodecError("expected a list", path);
  return raw;
}

function fromWireMap(raw: unknown, each: (item: unknown, key: string) => Value, path: (string | number)[]): Value {
  if (raw === UNKNOWN) return UNKNOWN;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new CodecError("expected a map", path);
  const out: Body = {};
  for (const [key, item] of Object.entries(raw)) out[key] = each(item, key);
  return out;
}

// ---------------------------------------------------------------------------------------------
// body -> wire form (plain JS that @msgpack/msgpack encodes the way Terraform expects)

function toWireBlock(body: Value | undefined, block: SchemaBlock, path: (string | number)[]): unknown {
  if (body === null || body === undefined) return null;
  if (body === UNKNOWN) return UNKNOWN_WIRE;
  if (typeof body !== "object" || Array.isArray(body)) throw new CodecError("expected an object", path);
  const out: Record<string, unknown> = {};
  for (const [name, attribute] of Object.entries(block.attributes ?? {})) {
    out[name] = toWireAttribute(body[name], attribute, [...path, name]);
  }
  for (const [name, blockType] of Object.entries(block.block_types ?? {})) {
    const value = body[name];
    const here = [...path, name];
    switch (blockType.nesting_mode) {
      case "single":
      case "group":
        out[name] = toWireBlock(value, blockType.block, here);
        break;
      case "list":
      case "set":
        if (value === null || value === undefined) out[name] = [];
        else if (value === UNKNOWN) out[name] = UNKNOWN_WIRE;
        else out[name] = expectArray(value, here).map((item, i) => toWireBlock(item, blockType.block, [...here, i]));
        break;
      case "map":
        out[name] = value === null || value === undefined ? {} : toWireMap(value, (item, key) => toWireBlock(item, blockType.block, [...here, key]), here);
        break;
    }
  }
  return out;
}

function toWireAttribute(value: Value | undefined, attribute: SchemaAttribute, path: (string | number)[]): unknown {
  if (value === null || value === undefined) return null;
  if (value === UNKNOWN) return UNKNOWN_WIRE;
  if (attribute.nested_type) {
    const nested = attribute.nested_type;
    const block = nestedAsBlock(nested);
    switch (nested.nesting_mode) {
      case "single":
        return toWireBlock(value, block, path);
      case "list":
      case "set":
        return expectArray(value, path).map((item, i) => toWireBlock(item, block, [...path, i]));
      case "map":
        return toWireMap(value, (item, key) => toWireBlock(item, block, [...path, key]), path);
    }
  }
  if (!attribute.type) throw new CodecError("attribute has neither type nor nested_type", path);
  return toWireValue(value, attribute.type, path);
}

function toWireValue(value: Value | undefined, type: CtyType, path: (string | number)[]): unknown {
  if (value === null || value === undefined) return null;
  if (value === UNKNOWN) return UNKNOWN_WIRE;
  if (typeof type === "string") {
    switch (type) {
      case "string":
        if (typeof value === "string") return value;
        // Terraform converts primitives to strings; do the same rather than fail on a 3 vs "3".
        if (typeof value === "number" || typeof value === "boolean") return String(value);
        throw new CodecError("expected a string", path);
      case "bool":
        if (typeof value === "boolean") return value;
        if (value === "true" || value === "false") return value === "true";
        throw new CodecError("expected a bool", path);
      case "number":
        if (typeof value === "number") return value;
        if (typeof value === "bigint") return String(value);
        // Big or precise numbers travel as decimal strings, as Terraform itself sends them.
        if (typeof value === "string" && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(value)) return value;
        throw new CodecError("expected a number", path);
      case "dynamic": {
        const implied = impliedType(value);
        return [utf8Encoder.encode(JSON.stringify(implied)), toWireValue(value, implied, path)];
      }
    }
  }
  const [kind, element] = type;
  switch (kind) {
    case "list":
    case "set":
      return expectArray(value, path).map((item, i) => toWireValue(item, element as CtyType, [...path, i]));
    case "map":
      return toWireMap(value, (item, key) => toWireValue(item, element as CtyType, [...path, key]), path);
    case "object": {
      if (typeof value !== "object" || Array.isArray(value)) throw new CodecError("expected an object", path);
      const out: Record<string, unknown> = {};
      for (const [name, attributeType] of Object.entries(element as Record<string, CtyType>)) {
        out[name] = toWireValue(value[name], attributeType, [...path, name]);
      }
      return out;
    }
    case "tuple": {
      const types = element as CtyType[];
      return expectArray(value, path).map((item, i) => toWireValue(item, types[i] ?? "dynamic", [...path, i]));
    }
  }
}

/** The cty type a plain JS value would have in Terraform (for `dynamic` attributes). */
export function impliedType(value: Value): CtyType {
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "bool";
  if (Array.isArray(value)) return ["tuple", value.map(impliedType)];
  if (value && typeof value === "object") {
    return ["object", Object.fromEntries(Object.entries(value).map(([k, v]) => [k, impliedType(v)]))];
  }
  return "dynamic";
}

function expectArray(value: Value, path: (string | number)[]): Value[] {
  if (!Array.isArray(value)) throw new CodecError("expected a list", path);
  return value;
}

function toWireMap(value: Value, each: (item: Value, key: string) => unknown, path: (string | number)[]): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new CodecError("expected a map", path);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = each(item, key);
  return out;
}
