// Value codec: Terraform's msgpack (and JSON state) <-> the body (ARCHITECTURE.md section 1),
// driven by the Terraform schema, compiled once per schema block.
//
// Decoded bodies always have every attribute and block of the schema as a key (null when Terraform
// sent null), absent list/set blocks are [] and an absent single block is null, exactly as
// Terraform sends them. Encoding accepts missing keys (they become null, or [] for list/set
// blocks), because Terraform requires every attribute of an object to be present.
//
// Unknown values (msgpack extension type 0, or any other extension such as a refined unknown)
// become the UNKNOWN marker; we always encode unknowns as plain `d4 00 00`, never refined,
// because a refinement is a promise Terraform enforces after apply. We do not read refinements.
//
// One decoder and one encoder, both hand-written over the wire primitives of msgpack.ts: the
// schema says what comes next, so bytes go straight into a body (and a body straight into bytes)
// in one pass, with no generic intermediate value, and the rare shapes (dynamic values, tuples,
// numbers sent as text, conversions) take the same pass: there is no second path that could
// decide differently. Why not @msgpack/msgpack (bench/codec.mjs; bench/README.md "Codec", one
// alternating run, warm, per value): its decode ALONE, before any schema walk, costs 0.93-2.3×
// this whole decode (tsdb_service with unknowns: 6.0 against 2.6 µs), and its decode plus the
// schema walk, the former general path, 1.6-3.9× this decode, 2.4-5× this encode and 4-12× this
// JSON-state encode. The former compiled fast path (codec-fast.ts), which this replaces together
// with that general path, took 1.2-2.8× this codec's time warm (level with it cold, in a fresh
// process), mostly because object keys are now matched as bytes in the order cty writes them
// instead of being decoded to strings and looked up, and short ASCII strings are written without
// a call into the native encoder. Every RPC of a plan decodes and encodes whole objects, so this
// is the provider's innermost loop.
import { CodecError, MsgpackReader, MsgpackWriter, NIL, encodedString, isExtHead, wireTypeName } from "./msgpack.js";
import { type CtyType, type SchemaAttribute, type SchemaBlock, nestedAsBlock } from "./schema.js";

export { CodecError };

/** Marks a value Terraform does not know yet (known after apply). */
export const UNKNOWN: unique symbol = Symbol.for("schemaform.unknown");
export type Unknown = typeof UNKNOWN;

export type Value = string | number | boolean | null | Unknown | Value[] | { [key: string]: Value };
export type Body = { [key: string]: Value };

export function isUnknown(value: unknown): value is Unknown {
  return value === UNKNOWN;
}

// ---------------------------------------------------------------------------------------------
// compiled schema

const enum K {
  String,
  Number,
  Bool,
  Dynamic,
  List, // list and set: the same on the wire and in a body
  Map,
  Object, // object types, nested attributes' objects, blocks
  Tuple,
  Invalid, // an attribute with neither type nor nested_type: an error whenever it is read
}

interface TypeCode {
  k: K;
  element?: TypeCode;
  object?: ObjectCode;
  items?: TypeCode[];
}

/** What a field is when absent or null: list/set blocks are [], map blocks {}, anything else null. */
const enum Absent {
  Null,
  EmptyList,
  EmptyMap,
}

/** The fields of an object type or block, in schema order (attributes, then blocks). */
interface ObjectCode {
  names: string[];
  types: TypeCode[];
  absent: Absent[];
  /** Each name's msgpack encoding (a str, header included). */
  keys: Uint8Array[];
  index: Map<string, number>;
  /**
   * The fields in byte order of their names, which is the order cty writes an object's
   * attributes in: the next key on the wire is usually the next one here, and is then
   * recognized by comparing bytes, without decoding it.
   */
  wireKeys: Uint8Array[];
  wireField: number[];
  /** Per field, its position in wire order. */
  wirePos: number[];
}

const DYNAMIC: TypeCode = { k: K.Dynamic };
const INVALID: TypeCode = { k: K.Invalid };
const PRIMITIVES: Record<string, TypeCode> = { string: { k: K.String }, number: { k: K.Number }, bool: { k: K.Bool }, dynamic: DYNAMIC };

const blockCodes = new WeakMap<SchemaBlock, TypeCode>();
/** Types by their JSON text: dynamic values name theirs, and encodeValue/decodeValue take one. */
const typeCodes = new Map<string, TypeCode>();

function blockCode(block: SchemaBlock): TypeCode {
  let code = blockCodes.get(block);
  if (!code) {
    code = { k: K.Object, object: compileBlock(block) };
    blockCodes.set(block, code);
  }
  return code;
}

function typeCode(type: CtyType): TypeCode {
  if (typeof type === "string" && PRIMITIVES[type]) return PRIMITIVES[type]!;
  const text = JSON.stringify(type);
  let code = typeCodes.get(text);
  if (!code) {
    code = compileType(type);
    typeCodes.set(text, code);
  }
  return code;
}

function compileBlock(block: SchemaBlock): ObjectCode {
  const fields: [string, TypeCode, Absent][] = [];
  for (const [name, attribute] of Object.entries(block.attributes ?? {})) fields.push([name, attributeType(attribute), Absent.Null]);
  for (const [name, blockType] of Object.entries(block.block_types ?? {})) {
    const object: TypeCode = { k: K.Object, object: compileBlock(blockType.block) };
    switch (blockType.nesting_mode) {
      case "single":
      case "group":
        fields.push([name, object, Absent.Null]);
        break;
      case "list":
      case "set":
        fields.push([name, { k: K.List, element: object }, Absent.EmptyList]);
        break;
      case "map":
        fields.push([name, { k: K.Map, element: object }, Absent.EmptyMap]);
        break;
    }
  }
  return objectCode(fields);
}

function attributeType(attribute: SchemaAttribute): TypeCode {
  if (attribute.nested_type) {
    const object: TypeCode = { k: K.Object, object: compileBlock(nestedAsBlock(attribute.nested_type)) };
    switch (attribute.nested_type.nesting_mode) {
      case "single":
        return object;
      case "list":
      case "set":
        return { k: K.List, element: object };
      case "map":
        return { k: K.Map, element: object };
    }
  }
  return attribute.type ? compileType(attribute.type) : INVALID;
}

function compileType(type: CtyType): TypeCode {
  if (typeof type === "string") {
    const primitive = PRIMITIVES[type];
    if (!primitive) throw new CodecError(`unknown type ${JSON.stringify(type)}`);
    return primitive;
  }
  const [kind, element] = type;
  switch (kind) {
    case "list":
    case "set":
      return { k: K.List, element: compileType(element as CtyType) };
    case "map":
      return { k: K.Map, element: compileType(element as CtyType) };
    case "object":
      return { k: K.Object, object: objectCode(Object.entries(element as Record<string, CtyType>).map(([name, t]) => [name, compileType(t), Absent.Null])) };
    case "tuple":
      return { k: K.Tuple, items: (element as CtyType[]).map(compileType) };
  }
  throw new CodecError(`unknown type ${JSON.stringify(type)}`);
}

function objectCode(fields: [string, TypeCode, Absent][]): ObjectCode {
  const names = fields.map(([name]) => name);
  const keys = names.map(encodedString);
  // Attributes go on the wire in the byte order of their UTF-8 names (cty's msgpack order).
  const nameBytes = names.map((name) => Buffer.from(name, "utf8"));
  const wireField = names.map((_, i) => i).sort((a, b) => Buffer.compare(nameBytes[a]!, nameBytes[b]!));
  const wirePos: number[] = new Array(names.length);
  wireField.forEach((field, position) => (wirePos[field] = position));
  return {
    names,
    types: fields.map(([, type]) => type),
    absent: fields.map(([, , absent]) => absent),
    keys,
    index: new Map(names.map((name, i) => [name, i])),
    wireKeys: wireField.map((field) => keys[field]!),
    wireField,
    wirePos,
  };
}

function absentValue(absent: Absent): Value {
  return absent === Absent.EmptyList ? [] : absent === Absent.EmptyMap ? {} : null;
}

/** The type of a list's elements, or of a tuple's i-th (elements beyond its types are read as dynamic). */
function elementType(type: TypeCode, i: number): TypeCode {
  return type.k === K.List ? type.element! : (type.items![i] ?? DYNAMIC);
}

/** Adds a step to the path of an error on its way out. */
function at(error: unknown, step: string | number): unknown {
  if (error instanceof CodecError) error.path.unshift(step);
  return error;
}

const invalidAttribute = () => new CodecError("attribute has neither type nor nested_type");

// ---------------------------------------------------------------------------------------------
// msgpack -> body

const reader = new MsgpackReader();
const utf8 = new TextDecoder();

/** Decodes a msgpack DynamicValue of an object of `block`'s type; null stays null. */
export function decodeMsgpack(bytes: Uint8Array | undefined | null, block: SchemaBlock): Body | null {
  // An absent DynamicValue (empty bytes) means null; Terraform normally sends `c0` for that.
  if (!bytes || bytes.length === 0) return null;
  const value = decodeWith(bytes, blockCode(block));
  if (value === UNKNOWN) throw new CodecError("a whole object was unknown where a resource object was expected");
  return value as Body | null;
}

/** Decodes one msgpack value of a cty type. */
export function decodeValue(bytes: Uint8Array, type: CtyType): Value {
  return decodeWith(bytes, typeCode(type));
}

function decodeWith(bytes: Uint8Array, type: TypeCode): Value {
  reader.reset(bytes);
  try {
    const value = readValue(type);
    if (!reader.atEnd()) throw new CodecError(`Extra ${reader.remaining()} of ${bytes.length} byte(s) found at buffer[${reader.pos}]`);
    return value;
  } finally {
    reader.release();
  }
}

function readValue(type: TypeCode): Value {
  const head = reader.peek();
  if (head === NIL) {
    if (type.k === K.Invalid) throw invalidAttribute();
    reader.skipHead();
    return null;
  }
  if (isExtHead(head)) {
    if (type.k === K.Invalid) throw invalidAttribute();
    reader.skipExt(head);
    return UNKNOWN;
  }
  switch (type.k) {
    case K.String:
      if (reader.isStringHead(head)) return reader.string(head);
      throw new CodecError(`expected a string, got ${wireTypeName(head)}`);
    case K.Number:
      if (reader.isNumberHead(head)) return reader.number(head);
      // Terraform sends numbers that neither an int64 nor a float64 holds exactly as text.
      if (reader.isStringHead(head)) return numberFromText(reader.string(head));
      throw new CodecError(`expected a number, got ${wireTypeName(head)}`);
    case K.Bool:
      if (head === 0xc2 || head === 0xc3) {
        reader.skipHead();
        return head === 0xc3;
      }
      throw new CodecError(`expected a bool, got ${wireTypeName(head)}`);
    case K.List:
    case K.Tuple: {
      const n = reader.arrayHeader(head);
      if (n < 0) throw new CodecError("expected a list");
      const out: Value[] = new Array(n);
      for (let i = 0; i < n; i++) {
        try {
          out[i] = readValue(elementType(type, i));
        } catch (error) {
          throw at(error, i);
        }
      }
      return out;
    }
    case K.Map: {
      const n = reader.mapHeader(head);
      if (n < 0) throw new CodecError("expected a map");
      const element = type.element!;
      const out: Body = {};
      for (let i = 0; i < n; i++) {
        const key = readKey();
        try {
          out[key] = readValue(element);
        } catch (error) {
          throw at(error, key);
        }
      }
      return out;
    }
    case K.Object: {
      const n = reader.mapHeader(head);
      if (n < 0) throw new CodecError("expected an object");
      return readObject(type.object!, n);
    }
    case K.Dynamic:
      return readDynamic(head);
    case K.Invalid:
      throw invalidAttribute();
  }
}

/** A map key; "__proto__" is refused (as a body key it would set the object's prototype). */
function readKey(): string {
  const key = reader.key();
  if (key === "__proto__") throw new CodecError("The key __proto__ is not allowed");
  return key;
}

/** The fields of an object from a map of `n` entries; keys the type does not have are skipped. */
function readObject(code: ObjectCode, n: number): Body {
  const { types, wireKeys, wireField } = code;
  const count = types.length;
  const values: (Value | undefined)[] = new Array(count);
  let next = 0;
  for (let i = 0; i < n; i++) {
    let field: number;
    if (next < count && reader.matches(wireKeys[next]!)) field = wireField[next++]!;
    else {
      const found = code.index.get(readKey());
      if (found === undefined) {
        reader.skip();
        continue;
      }
      field = found;
      next = code.wirePos[found]! + 1;
    }
    try {
      values[field] = readValue(types[field]!);
    } catch (error) {
      throw at(error, code.names[field]!);
    }
  }
  const { names, absent } = code;
  const body: Body = {};
  for (let i = 0; i < count; i++) {
    let value = values[i];
    if (value === undefined || value === null) {
      if (value === undefined && types[i]!.k === K.Invalid) throw at(invalidAttribute(), names[i]!);
      value = absentValue(absent[i]!);
    }
    body[names[i]!] = value;
  }
  return body;
}

/** `dynamic` values carry their own type: [bin(JSON type), value]. */
function readDynamic(head: number): Value {
  const typeBytes = reader.arrayHeader(head) === 2 ? reader.bin(reader.peek()) : null;
  if (!typeBytes) throw new CodecError("expected a dynamic value as [type, value]");
  return readValue(typeCode(JSON.parse(utf8.decode(typeBytes)) as CtyType));
}

const NUMBER_TEXT = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/**
 * A number sent as text: a JS number when that is exact, else the decimal text itself, so
 * nothing is silently rounded.
 */
function numberFromText(raw: string): number | string {
  const n = Number(raw);
  if (raw.trim() !== "" && Number.isFinite(n) && (Number.isSafeInteger(n) || !Number.isInteger(n))) return n;
  if (NUMBER_TEXT.test(raw)) return raw;
  throw new CodecError(`expected a number, got "${raw}"`);
}

// ---------------------------------------------------------------------------------------------
// body -> msgpack, and JSON state -> msgpack

const writer = new MsgpackWriter();
const utf8Encoder = new TextEncoder();

/**
 * Whether the value being written is a resource's JSON state (UpgradeResourceState): its
 * primitives must already have their schema types (numbers may be decimal text) and dynamic
 * values are {value, type}. A body's primitives are converted as Terraform converts them.
 */
let fromState = false;

/** Encodes a body (or null) of `block`'s type as msgpack. */
export function encodeMsgpack(body: Body | null | undefined, block: SchemaBlock): Uint8Array {
  return encodeWith(body ?? null, blockCode(block), false);
}

/** Encodes one value of a cty type. */
export function encodeValue(value: Value, type: CtyType): Uint8Array {
  return encodeWith(value, typeCode(type), false);
}

/**
 * `encodeMsgpack(fromJsonState(state, block), block)` in one pass (UpgradeResourceState answers
 * every resource of every plan this way).
 */
export function encodeJsonState(state: unknown, block: SchemaBlock): Uint8Array {
  return encodeWith(state as Value, blockCode(block), true);
}

function encodeWith(value: Value | undefined, type: TypeCode, state: boolean): Uint8Array {
  writer.reset();
  fromState = state;
  writeValue(value, type);
  return writer.finish();
}

function isObject(value: unknown): value is Body {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function writeValue(value: Value | undefined, type: TypeCode): void {
  if (value === null || value === undefined) return writer.nil();
  if (value === UNKNOWN) return writer.unknown();
  switch (type.k) {
    case K.String:
      if (typeof value === "string") return writer.string(value);
      return writeStringConverted(value);
    case K.Number:
      if (typeof value === "number") return writer.number(value);
      return writeNumberConverted(value);
    case K.Bool:
      if (typeof value === "boolean") return writer.bool(value);
      return writeBoolConverted(value);
    case K.List:
    case K.Tuple: {
      if (!Array.isArray(value)) throw new CodecError("expected a list");
      writer.arrayHeader(value.length);
      for (let i = 0; i < value.length; i++) {
        try {
          writeValue(value[i], elementType(type, i));
        } catch (error) {
          throw at(error, i);
        }
      }
      return;
    }
    case K.Map:
      return writeMap(value, type.element!);
    case K.Object:
      if (!isObject(value)) throw new CodecError("expected an object");
      return writeObject(value, type.object!);
    case K.Dynamic:
      return fromState ? writeDynamicState(value) : writeDynamic(value);
    case K.Invalid:
      throw invalidAttribute();
  }
}

/** Every field of the type, in schema order; absent ones as null ([] / {} for list / map blocks). */
function writeObject(value: Body, code: ObjectCode): void {
  const { names, types, absent, keys } = code;
  const count = types.length;
  writer.mapHeader(count);
  for (let i = 0; i < count; i++) {
    writer.raw(keys[i]!);
    const field = value[names[i]!];
    if ((field === null || field === undefined) && absent[i] !== Absent.Null) {
      if (absent[i] === Absent.EmptyList) writer.arrayHeader(0);
      else writer.mapHeader(0);
      continue;
    }
    try {
      writeValue(field, types[i]!);
    } catch (error) {
      throw at(error, names[i]!);
    }
  }
}

/** A map's own keys in their order; a "__proto__" own key (JSON.parse makes them) is left out, as a body cannot hold one. */
function writeMap(value: Value, element: TypeCode): void {
  if (!isObject(value)) throw new CodecError("expected a map");
  const keys = Object.keys(value);
  writer.mapHeader(Object.hasOwn(value, "__proto__") ? keys.length - 1 : keys.length);
  for (const key of keys) {
    if (key === "__proto__") continue;
    writer.string(key);
    try {
      writeValue(value[key], element);
    } catch (error) {
      throw at(error, key);
    }
  }
}

// A body's primitives are converted the way Terraform converts them; a state's must have their type.

function writeStringConverted(value: Value): void {
  if (fromState) throw new CodecError(`expected a string, got ${typeof value}`);
  if (typeof value === "number" || typeof value === "boolean") return writer.string(String(value));
  throw new CodecError("expected a string");
}

function writeBoolConverted(value: Value): void {
  if (fromState) throw new CodecError(`expected a bool, got ${typeof value}`);
  if (value === "true" || value === "false") return writer.bool(value === "true");
  throw new CodecError("expected a bool");
}

function writeNumberConverted(value: Value | bigint): void {
  // Big or precise numbers travel as decimal text, as Terraform itself sends them.
  if (typeof value === "bigint") return writer.string(String(value));
  if (fromState) {
    if (typeof value !== "string") throw new CodecError(`expected a number, got ${typeof value}`);
    const number = numberFromText(value);
    return typeof number === "number" ? writer.number(number) : writer.string(number);
  }
  if (typeof value === "string" && NUMBER_TEXT.test(value)) return writer.string(value);
  throw new CodecError("expected a number");
}

/** [bin(JSON of the value's implied type), value]. */
function writeDynamic(value: Value): void {
  const implied = impliedType(value);
  writer.arrayHeader(2);
  writer.bin(utf8Encoder.encode(JSON.stringify(implied)));
  writeValue(value, typeCode(implied));
}

/** A state's dynamic value, {value, type}: read through its type, then written like a body's. */
function writeDynamicState(raw: Value): void {
  const value = readJsonDynamic(raw);
  fromState = false;
  try {
    writeValue(value, DYNAMIC);
  } finally {
    fromState = true;
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

// ---------------------------------------------------------------------------------------------
// JSON state -> body (UpgradeResourceState of a type with write-only attributes, which are
// nulled in the body before it is encoded): same shapes as msgpack, except that dynamic values
// are {value, type} objects and numbers are JSON numbers.

/** Reads a resource's JSON state through the current schema: unknown keys are dropped, missing ones become null. */
export function fromJsonState(state: unknown, block: SchemaBlock): Body | null {
  const value = readJson(state, blockCode(block));
  if (value === UNKNOWN) throw new CodecError("state cannot contain unknown values");
  return value as Body | null;
}

function readJson(raw: unknown, type: TypeCode): Value {
  if (type.k === K.Invalid) throw invalidAttribute();
  if (raw === null || raw === undefined) return null;
  if (raw === UNKNOWN) return UNKNOWN;
  switch (type.k) {
    case K.String:
      if (typeof raw === "string") return raw;
      throw new CodecError(`expected a string, got ${typeof raw}`);
    case K.Bool:
      if (typeof raw === "boolean") return raw;
      throw new CodecError(`expected a bool, got ${typeof raw}`);
    case K.Number:
      if (typeof raw === "number") return raw;
      if (typeof raw === "bigint") return Number.isSafeInteger(Number(raw)) ? Number(raw) : raw.toString();
      if (typeof raw === "string") return numberFromText(raw);
      throw new CodecError(`expected a number, got ${typeof raw}`);
    case K.Dynamic:
      return readJsonDynamic(raw as Value);
    case K.List:
    case K.Tuple: {
      if (!Array.isArray(raw)) throw new CodecError("expected a list");
      return raw.map((item, i) => {
        try {
          return readJson(item, elementType(type, i));
        } catch (error) {
          throw at(error, i);
        }
      });
    }
    case K.Map: {
      if (!isObject(raw)) throw new CodecError("expected a map");
      const out: Body = {};
      for (const [key, item] of Object.entries(raw)) {
        if (key === "__proto__") continue;
        try {
          out[key] = readJson(item, type.element!);
        } catch (error) {
          throw at(error, key);
        }
      }
      return out;
    }
    case K.Object: {
      if (!isObject(raw)) throw new CodecError("expected an object");
      const { names, types, absent } = type.object!;
      const out: Body = {};
      for (let i = 0; i < names.length; i++) {
        let value: Value;
        try {
          value = readJson(raw[names[i]!], types[i]!);
        } catch (error) {
          throw at(error, names[i]!);
        }
        out[names[i]!] = value === null ? absentValue(absent[i]!) : value;
      }
      return out;
    }
  }
}

function readJsonDynamic(raw: Value): Value {
  if (!isObject(raw) || !("type" in raw)) throw new CodecError("expected a dynamic value as {value, type}");
  return readJson(raw.value, typeCode(raw.type as CtyType));
}
