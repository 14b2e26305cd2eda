// The msgpack codec of provider/codec.ts, compiled per schema block: Terraform's msgpack is read
// straight into a body and a body is written straight to msgpack, in one pass each, instead of
// decoding to generic JS values, walking them against the schema, and copying them again (and
// the reverse for encoding). Every RPC of a plan decodes and encodes whole objects, so this is
// the provider's innermost loop.
//
// It is a fast path only. It handles the shapes Terraform sends and the provider produces
// (strings, numbers, bools, collections, objects, nested blocks, null, unknown); anything else
// (dynamic values, tuples, numbers sent as strings, conversions, malformed input, keys that JS
// objects treat specially) makes it give up, and codec.ts then runs the general path on the
// same input. So both paths always produce the same bodies, bytes and errors.
import type { Body, Unknown, Value } from "./codec.js";
import { type CtyType, type SchemaAttribute, type SchemaBlock, nestedAsBlock } from "./schema.js";

// codec.ts's UNKNOWN (a registered symbol, so this is the same value without an import cycle).
const UNKNOWN: Unknown = Symbol.for("schemaform.unknown") as Unknown;

/** Thrown (never escaping this module) when the fast path cannot handle an input. */
const BAIL: unique symbol = Symbol("bail");
export { BAIL as GIVE_UP };

// ---------------------------------------------------------------------------------------------
// compiled schema

const enum T {
  String,
  Number,
  Bool,
  List, // list and set: the same on the wire and in a body
  Map,
  Object,
  NestedSingle,
  NestedList,
  NestedMap,
  Slow, // dynamic, tuple: general path only
}

interface TypeCode {
  t: T;
  element?: TypeCode;
  /** Object attributes or nested block. */
  object?: ObjectCode;
}

/** An object type's or a block's fields, in the order the general path writes them. */
interface ObjectCode {
  names: string[];
  /** The msgpack encoding of each name (map keys are written as they are). */
  keys: Uint8Array[];
  fields: FieldCode[];
  index: Map<string, number>;
}

const enum F {
  Attribute,
  BlockSingle,
  BlockList, // list and set blocks: absent is []
  BlockMap, // absent is {}
}

interface FieldCode {
  f: F;
  type?: TypeCode;
  block?: ObjectCode;
}

/** Names that a missing key would read from Object.prototype in the general path. */
const inherited = (name: string) => name in Object.prototype;

class SlowSchema extends Error {}

const compiled = new WeakMap<SchemaBlock, ObjectCode | null>();

function blockCode(block: SchemaBlock): ObjectCode | null {
  let code = compiled.get(block);
  if (code === undefined) {
    try {
      code = compileBlock(block);
    } catch (error) {
      if (!(error instanceof SlowSchema)) throw error;
      code = null;
    }
    compiled.set(block, code);
  }
  return code;
}

function objectCode(entries: [string, FieldCode][]): ObjectCode {
  const index = new Map<string, number>();
  entries.forEach(([name], i) => {
    if (inherited(name) || index.has(name)) throw new SlowSchema();
    index.set(name, i);
  });
  return { names: entries.map(([name]) => name), keys: entries.map(([name]) => keyBytes(name)), fields: entries.map(([, field]) => field), index };
}

function compileBlock(block: SchemaBlock): ObjectCode {
  const entries: [string, FieldCode][] = [];
  for (const [name, attribute] of Object.entries(block.attributes ?? {})) entries.push([name, { f: F.Attribute, type: attributeType(attribute) }]);
  for (const [name, blockType] of Object.entries(block.block_types ?? {})) {
    const inner = compileBlock(blockType.block);
    const mode = blockType.nesting_mode;
    const f = mode === "single" || mode === "group" ? F.BlockSingle : mode === "map" ? F.BlockMap : F.BlockList;
    entries.push([name, { f, block: inner }]);
  }
  return objectCode(entries);
}

function attributeType(attribute: SchemaAttribute): TypeCode {
  if (attribute.nested_type) {
    const object = compileBlock(nestedAsBlock(attribute.nested_type));
    const mode = attribute.nested_type.nesting_mode;
    return { t: mode === "single" ? T.NestedSingle : mode === "map" ? T.NestedMap : T.NestedList, object };
  }
  // Neither: the general path reports it (even for a null value).
  if (!attribute.type) throw new SlowSchema();
  return ctyType(attribute.type);
}

function ctyType(type: CtyType): TypeCode {
  if (typeof type === "string") {
    if (type === "string") return { t: T.String };
    if (type === "number") return { t: T.Number };
    if (type === "bool") return { t: T.Bool };
    return { t: T.Slow };
  }
  const [kind, element] = type;
  if (kind === "list" || kind === "set") return { t: T.List, element: ctyType(element as CtyType) };
  if (kind === "map") return { t: T.Map, element: ctyType(element as CtyType) };
  if (kind === "object") {
    const attributes = element as Record<string, CtyType>;
    return { t: T.Object, object: objectCode(Object.entries(attributes).map(([name, t]) => [name, { f: F.Attribute, type: ctyType(t) }])) };
  }
  return { t: T.Slow };
}

// ---------------------------------------------------------------------------------------------
// decoding

let bytes: Uint8Array = new Uint8Array(0);
let view: DataView = new DataView(bytes.buffer);
/** `bytes` as a Buffer, for native string decoding. */
let text: Buffer = Buffer.alloc(0);
let pos = 0;
let end = 0;

/** The body of `input`, or GIVE_UP. Unknown (a whole unknown object) is returned as UNKNOWN. */
export function fastDecode(input: Uint8Array, block: SchemaBlock): Body | null | Unknown | typeof BAIL {
  const code = blockCode(block);
  if (!code) return BAIL;
  bytes = input;
  view = new DataView(input.buffer, input.byteOffset, input.byteLength);
  text = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  pos = 0;
  end = input.length;
  try {
    const value = readBlock(code);
    return pos === end ? value : BAIL;
  } catch (error) {
    if (error === BAIL) return BAIL;
    // Out-of-range reads and the like: let the general path report them its own way.
    return BAIL;
  } finally {
    bytes = EMPTY;
    text = EMPTY_BUFFER;
  }
}

const EMPTY = new Uint8Array(0);
const EMPTY_BUFFER = Buffer.alloc(0);

function need(n: number): void {
  if (pos + n > end) throw BAIL;
}

function isExt(head: number): boolean {
  return (head >= 0xd4 && head <= 0xd8) || (head >= 0xc7 && head <= 0xc9);
}

/** Skips an extension value (any type: every one of them is an unknown to us). */
function skipExt(head: number): void {
  pos++;
  let size: number;
  if (head >= 0xd4 && head <= 0xd8) size = 1 << (head - 0xd4);
  else if (head === 0xc7) {
    need(1);
    size = bytes[pos++]!;
  } else if (head === 0xc8) {
    need(2);
    size = view.getUint16(pos);
    pos += 2;
  } else {
    need(4);
    size = view.getUint32(pos);
    pos += 4;
  }
  need(1 + size); // type byte, data
  pos += 1 + size;
}

/** Reads a map header; throws BAIL if the value is not a map. */
function mapHeader(head: number): number {
  return containerHeader(head, 0x80, 0xde);
}

/** Reads an array header; throws BAIL if the value is not an array. */
function arrayHeader(head: number): number {
  return containerHeader(head, 0x90, 0xdc);
}

/** msgpack maps and arrays share one header layout: a fix form (base + n < base + 16), then 16- and 32-bit counts. */
function containerHeader(head: number, fixBase: number, code16: number): number {
  if (head >= fixBase && head <= fixBase + 0x0f) {
    pos++;
    return head - fixBase;
  }
  if (head === code16) {
    need(3);
    const n = view.getUint16(pos + 1);
    pos += 3;
    return n;
  }
  if (head === code16 + 1) {
    need(5);
    const n = view.getUint32(pos + 1);
    pos += 5;
    return n;
  }
  throw BAIL;
}

/** A string value (the head byte must be a str format), or BAIL. */
function readString(head: number): string {
  let length: number;
  if (head >= 0xa0 && head <= 0xbf) {
    length = head - 0xa0;
    pos++;
  } else if (head === 0xd9) {
    need(2);
    length = bytes[pos + 1]!;
    pos += 2;
  } else if (head === 0xda) {
    need(3);
    length = view.getUint16(pos + 1);
    pos += 3;
  } else if (head === 0xdb) {
    need(5);
    length = view.getUint32(pos + 1);
    pos += 5;
  } else throw BAIL;
  need(length);
  const start = pos;
  pos += length;
  // ASCII, the common case: Latin-1 decoding is a plain copy and gives the same string.
  let ascii = true;
  for (let i = start; i < pos; i++) {
    if (bytes[i]! >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return text.toString("latin1", start, pos);
  const decoded = text.toString("utf8", start, pos);
  // Malformed UTF-8: the general path decodes it its own way.
  if (decoded.includes("\ufffd")) throw BAIL;
  return decoded;
}

/** A map key: a string other than "__proto__" (which the general decoder refuses). */
function readKey(): string {
  need(1);
  const key = readString(bytes[pos]!);
  if (key === "__proto__") throw BAIL;
  return key;
}

function readNumber(head: number): number | string {
  if (head < 0x80) {
    pos++;
    return head;
  }
  if (head >= 0xe0) {
    pos++;
    return head - 0x100;
  }
  switch (head) {
    case 0xca:
      need(5);
      pos += 5;
      return view.getFloat32(pos - 4);
    case 0xcb:
      need(9);
      pos += 9;
      return view.getFloat64(pos - 8);
    case 0xcc:
      need(2);
      pos += 2;
      return bytes[pos - 1]!;
    case 0xcd:
      need(3);
      pos += 3;
      return view.getUint16(pos - 2);
    case 0xce:
      need(5);
      pos += 5;
      return view.getUint32(pos - 4);
    case 0xd0:
      need(2);
      pos += 2;
      return view.getInt8(pos - 1);
    case 0xd1:
      need(3);
      pos += 3;
      return view.getInt16(pos - 2);
    case 0xd2:
      need(5);
      pos += 5;
      return view.getInt32(pos - 4);
    case 0xcf:
    case 0xd3: {
      // 64-bit integers: a number when exact, else the decimal string (codec.ts fromWireNumber).
      need(9);
      pos += 9;
      const big = head === 0xcf ? view.getBigUint64(pos - 8) : view.getBigInt64(pos - 8);
      return Number.isSafeInteger(Number(big)) ? Number(big) : big.toString();
    }
  }
  throw BAIL;
}

/** Skips any value, with the checks the general decoder makes on the way (map keys). */
function skipValue(): void {
  need(1);
  const head = bytes[pos]!;
  if (head < 0x80 || head >= 0xe0 || head === 0xc0 || head === 0xc2 || head === 0xc3) {
    pos++;
    return;
  }
  if ((head >= 0xa0 && head <= 0xbf) || (head >= 0xd9 && head <= 0xdb)) {
    readString(head);
    return;
  }
  if ((head >= 0xca && head <= 0xd3 && head !== 0xc0) || head === 0xcf) {
    readNumber(head);
    return;
  }
  if (isExt(head)) {
    skipExt(head);
    return;
  }
  if ((head >= 0x90 && head <= 0x9f) || head === 0xdc || head === 0xdd) {
    const n = arrayHeader(head);
    for (let i = 0; i < n; i++) skipValue();
    return;
  }
  if ((head >= 0x80 && head <= 0x8f) || head === 0xde || head === 0xdf) {
    const n = mapHeader(head);
    for (let i = 0; i < n; i++) {
      readKey();
      skipValue();
    }
    return;
  }
  // bin and anything else: the general path.
  throw BAIL;
}

/** fromWireBlock */
function readBlock(code: ObjectCode): Body | null | Unknown {
  need(1);
  const head = bytes[pos]!;
  if (head === 0xc0) {
    pos++;
    return null;
  }
  if (isExt(head)) {
    skipExt(head);
    return UNKNOWN;
  }
  return readObject(code, mapHeader(head));
}

/** The fields of a block or object type from a map of `n` entries, in `code`'s order. */
function readObject(code: ObjectCode, n: number): Body {
  const fields = code.fields;
  const values: (Value | undefined)[] = new Array(fields.length);
  for (let i = 0; i < n; i++) {
    const at = code.index.get(readKey());
    if (at === undefined) skipValue();
    else values[at] = readField(fields[at]!);
  }
  const body: Body = {};
  const names = code.names;
  for (let i = 0; i < fields.length; i++) {
    let value = values[i];
    if (value === undefined) {
      const f = fields[i]!.f;
      value = f === F.BlockList ? [] : f === F.BlockMap ? {} : null;
    }
    body[names[i]!] = value;
  }
  return body;
}

function readField(field: FieldCode): Value {
  switch (field.f) {
    case F.Attribute:
      return readValue(field.type!);
    case F.BlockSingle:
      return readBlock(field.block!);
    case F.BlockList: {
      need(1);
      const head = bytes[pos]!;
      if (head === 0xc0) {
        pos++;
        return [];
      }
      if (isExt(head)) {
        skipExt(head);
        return UNKNOWN;
      }
      const n = arrayHeader(head);
      const out: Value[] = new Array(n);
      for (let i = 0; i < n; i++) out[i] = readBlock(field.block!);
      return out;
    }
    case F.BlockMap: {
      need(1);
      const head = bytes[pos]!;
      if (head === 0xc0) {
        pos++;
        return {};
      }
      if (isExt(head)) {
        skipExt(head);
        return UNKNOWN;
      }
      const n = mapHeader(head);
      const out: Body = {};
      for (let i = 0; i < n; i++) {
        const key = readKey();
        out[key] = readBlock(field.block!);
      }
      return out;
    }
  }
}

/** fromWireAttribute / fromWireValue */
function readValue(type: TypeCode): Value {
  need(1);
  const head = bytes[pos]!;
  if (head === 0xc0) {
    pos++;
    return null;
  }
  if (isExt(head)) {
    skipExt(head);
    return UNKNOWN;
  }
  switch (type.t) {
    case T.String:
      return readString(head);
    case T.Number:
      return readNumber(head);
    case T.Bool:
      if (head === 0xc2 || head === 0xc3) {
        pos++;
        return head === 0xc3;
      }
      throw BAIL;
    case T.List: {
      const n = arrayHeader(head);
      const out: Value[] = new Array(n);
      for (let i = 0; i < n; i++) out[i] = readValue(type.element!);
      return out;
    }
    case T.Map: {
      const n = mapHeader(head);
      const out: Body = {};
      for (let i = 0; i < n; i++) {
        const key = readKey();
        out[key] = readValue(type.element!);
      }
      return out;
    }
    case T.Object:
      return readObject(type.object!, mapHeader(head));
    case T.NestedSingle:
      return readObject(type.object!, mapHeader(head));
    case T.NestedList: {
      const n = arrayHeader(head);
      const out: Value[] = new Array(n);
      for (let i = 0; i < n; i++) out[i] = readBlock(type.object!);
      return out;
    }
    case T.NestedMap: {
      const n = mapHeader(head);
      const out: Body = {};
      for (let i = 0; i < n; i++) {
        const key = readKey();
        out[key] = readBlock(type.object!);
      }
      return out;
    }
  }
  throw BAIL;
}

// ---------------------------------------------------------------------------------------------
// encoding

let out: Buffer = Buffer.alloc(4096);
let outView = new DataView(out.buffer, out.byteOffset, out.length);
let at = 0;

/** Whether primitives must already have their schema type (JSON state) or may be converted (bodies). */
let strict = false;

/** The msgpack of `body`, or GIVE_UP. */
export function fastEncode(body: Value | undefined, block: SchemaBlock): Uint8Array | typeof BAIL {
  return encodeWith(body, block, false);
}

/**
 * The msgpack of a resource's JSON state (parsed) read through the schema, or GIVE_UP: what
 * encoding codec.ts's `fromJsonState` body gives, for states whose values all have their
 * schema's types (anything else gives up, and the general path reports it).
 */
export function fastEncodeJsonState(state: unknown, block: SchemaBlock): Uint8Array | typeof BAIL {
  return encodeWith(state as Value, block, true);
}

function encodeWith(body: Value | undefined, block: SchemaBlock, strictTypes: boolean): Uint8Array | typeof BAIL {
  const code = blockCode(block);
  if (!code) return BAIL;
  at = 0;
  strict = strictTypes;
  try {
    writeBlock(body, code);
  } catch (error) {
    if (error === BAIL) return BAIL;
    throw error;
  }
  // A plain Uint8Array copy (the buffer is reused; Buffer#slice would be a view of it).
  return new Uint8Array(out.buffer.slice(out.byteOffset, out.byteOffset + at));
}

function room(n: number): void {
  if (at + n <= out.length) return;
  let size = out.length * 2;
  while (size < at + n) size *= 2;
  const grown = Buffer.alloc(size);
  grown.set(out.subarray(0, at));
  out = grown;
  outView = new DataView(out.buffer, out.byteOffset, out.length);
}

function byte(value: number): void {
  room(1);
  out[at++] = value;
}

function keyBytes(name: string): Uint8Array {
  const saved = [out, outView, at] as const;
  out = Buffer.alloc(16 + name.length * 3);
  outView = new DataView(out.buffer, out.byteOffset, out.length);
  at = 0;
  try {
    writeString(name);
    return new Uint8Array(out.subarray(0, at));
  } finally {
    [out, outView, at] = saved;
  }
}

function writeKey(key: Uint8Array): void {
  room(key.length);
  out.set(key, at);
  at += key.length;
}

function writeNil(): void {
  byte(0xc0);
}

function writeUnknown(): void {
  // fixext 1, type 0, one zero byte: a plain (never refined) unknown.
  room(3);
  out[at++] = 0xd4;
  out[at++] = 0;
  out[at++] = 0;
}

function writeMapHeader(n: number): void {
  room(5);
  if (n < 16) out[at++] = 0x80 + n;
  else if (n < 0x10000) {
    out[at++] = 0xde;
    outView.setUint16(at, n);
    at += 2;
  } else {
    out[at++] = 0xdf;
    outView.setUint32(at, n);
    at += 4;
  }
}

function writeArrayHeader(n: number): void {
  room(5);
  if (n < 16) out[at++] = 0x90 + n;
  else if (n < 0x10000) {
    out[at++] = 0xdc;
    outView.setUint16(at, n);
    at += 2;
  } else {
    out[at++] = 0xdd;
    outView.setUint32(at, n);
    at += 4;
  }
}

function writeString(text: string): void {
  const length = Buffer.byteLength(text, "utf8");
  // As many bytes as UTF-16 code units: ASCII only.
  const ascii = length === text.length;
  // Lone surrogates are written differently by the general encoder's two code paths.
  if (!ascii && /[\ud800-\udfff]/.test(text)) throw BAIL;
  room(5 + length);
  if (length < 32) out[at++] = 0xa0 + length;
  else if (length < 0x100) {
    out[at++] = 0xd9;
    out[at++] = length;
  } else if (length < 0x10000) {
    out[at++] = 0xda;
    outView.setUint16(at, length);
    at += 2;
  } else {
    out[at++] = 0xdb;
    outView.setUint32(at, length);
    at += 4;
  }
  if (length > 0) at += out.write(text, at, length, ascii ? "latin1" : "utf8");
}

/** @msgpack/msgpack's number encoding (integers in the smallest form, everything else float64). */
function writeNumber(value: number): void {
  room(9);
  if (Number.isSafeInteger(value)) {
    if (value >= 0) {
      if (value < 0x80) out[at++] = value;
      else if (value < 0x100) {
        out[at++] = 0xcc;
        out[at++] = value;
      } else if (value < 0x10000) {
        out[at++] = 0xcd;
        outView.setUint16(at, value);
        at += 2;
      } else if (value < 0x100000000) {
        out[at++] = 0xce;
        outView.setUint32(at, value);
        at += 4;
      } else {
        out[at++] = 0xcf;
        outView.setBigUint64(at, BigInt(value));
        at += 8;
      }
    } else if (value >= -0x20) out[at++] = 0xe0 | (value + 0x20);
    else if (value >= -0x80) {
      out[at++] = 0xd0;
      outView.setInt8(at, value);
      at += 1;
    } else if (value >= -0x8000) {
      out[at++] = 0xd1;
      outView.setInt16(at, value);
      at += 2;
    } else if (value >= -0x80000000) {
      out[at++] = 0xd2;
      outView.setInt32(at, value);
      at += 4;
    } else {
      out[at++] = 0xd3;
      outView.setBigInt64(at, BigInt(value));
      at += 8;
    }
    return;
  }
  out[at++] = 0xcb;
  outView.setFloat64(at, value);
  at += 8;
}

function isPlainObject(value: unknown): value is Body {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** toWireBlock */
function writeBlock(body: Value | undefined, code: ObjectCode): void {
  if (body === null || body === undefined) return writeNil();
  if (body === UNKNOWN) return writeUnknown();
  if (!isPlainObject(body)) throw BAIL;
  writeObject(body, code);
}

function writeObject(body: Body, code: ObjectCode): void {
  const fields = code.fields;
  writeMapHeader(fields.length);
  for (let i = 0; i < fields.length; i++) {
    writeKey(code.keys[i]!);
    const value = body[code.names[i]!];
    const field = fields[i]!;
    switch (field.f) {
      case F.Attribute:
        writeValue(value, field.type!);
        break;
      case F.BlockSingle:
        writeBlock(value, field.block!);
        break;
      case F.BlockList:
        if (value === null || value === undefined) writeArrayHeader(0);
        else if (value === UNKNOWN) writeUnknown();
        else if (Array.isArray(value)) {
          writeArrayHeader(value.length);
          for (const item of value) writeBlock(item, field.block!);
        } else throw BAIL;
        break;
      case F.BlockMap:
        if (value === null || value === undefined) writeMapHeader(0);
        else writeMapOf(value, (item) => writeBlock(item, field.block!));
        break;
    }
  }
}

/** toWireMap: an object's own keys in their order ("__proto__" is left to the general path). */
function writeMapOf(value: Value, each: (item: Value) => void): void {
  if (!isPlainObject(value)) throw BAIL;
  const keys = Object.keys(value);
  writeMapHeader(keys.length);
  for (const key of keys) {
    if (key === "__proto__") throw BAIL;
    writeString(key);
    each(value[key]!);
  }
}

/** toWireAttribute / toWireValue */
function writeValue(value: Value | undefined, type: TypeCode): void {
  if (value === null || value === undefined) return writeNil();
  if (value === UNKNOWN) return writeUnknown();
  switch (type.t) {
    case T.String:
      if (typeof value === "string") return writeString(value);
      // Terraform's conversion of primitives to strings, as the general path does it.
      if (!strict && (typeof value === "number" || typeof value === "boolean")) return writeString(String(value));
      throw BAIL;
    case T.Number:
      if (typeof value === "number") return writeNumber(value);
      throw BAIL;
    case T.Bool:
      if (typeof value === "boolean") return byte(value ? 0xc3 : 0xc2);
      throw BAIL;
    case T.List:
      if (!Array.isArray(value)) throw BAIL;
      writeArrayHeader(value.length);
      for (const item of value) writeValue(item, type.element!);
      return;
    case T.Map:
      return writeMapOf(value, (item) => writeValue(item, type.element!));
    case T.Object:
      if (!isPlainObject(value)) throw BAIL;
      return writeObject(value, type.object!);
    case T.NestedSingle:
      if (!isPlainObject(value)) throw BAIL;
      return writeObject(value, type.object!);
    case T.NestedList:
      if (!Array.isArray(value)) throw BAIL;
      writeArrayHeader(value.length);
      for (const item of value) writeBlock(item, type.object!);
      return;
    case T.NestedMap:
      return writeMapOf(value, (item) => writeBlock(item, type.object!));
  }
  throw BAIL;
}
