// Protobuf encoding and decoding of the plugin protocol's messages for the RPC path, read
// straight from the protocol descriptor (protobufjs's JSON form, precompiled into the bundle).
//
// protobufjs (provider/protocol/messages.ts) builds reflection objects for the whole descriptor
// and then generates and evaluates JavaScript for every message type it meets; in a process
// that Terraform starts for a handful of calls (or for a few thousand, once each), that set-up
// costs more than the calls. This codec walks the descriptor of the types a method needs, once,
// and encodes and decodes with one small interpreter that all message types share.
//
// It produces what protobufjs produces for the messages of this protocol:
// - decoded messages carry only the fields present on the wire as own properties, on a
//   prototype holding the proto3 defaults ("" for strings, 0 for numbers and enums, false,
//   an empty byte array, null for messages), with repeated fields as own [] and maps as own {};
//   int64 values are plain numbers;
// - encoding writes the own, non-null properties in field-number order (repeated fields when
//   non-empty), and the message fields of an object given as a plain object.
// The protocol uses only strings, bytes, bools, int64, enums, messages, repeated messages and
// maps with string keys; any other field type is refused when a method's types are built.

type Message = Record<string, unknown>;

interface Namespace {
  nested?: Record<string, Namespace>;
  fields?: Record<string, FieldJson>;
  oneofs?: Record<string, { oneof: string[] }>;
  values?: Record<string, number>;
  methods?: Record<string, { requestType: string; responseType: string; requestStream?: boolean; responseStream?: boolean }>;
}

interface FieldJson {
  type: string;
  id: number;
  rule?: string;
  keyType?: string;
  options?: { proto3_optional?: boolean };
}

const enum Kind {
  String,
  Bytes,
  Bool,
  Int64,
  Int32, // int32 and enums
  Uint32,
  Message,
}

interface Field {
  name: string;
  id: number;
  kind: Kind;
  repeated: boolean;
  /** map<string, …>: the value's kind (Kind.String or Kind.Message). */
  map: boolean;
  /**
   * Whether the field has explicit presence (messages, oneof members, proto3 `optional`): set
   * and sent whatever its value. Other scalars are sent only when not the default value, and a
   * default value on the wire leaves them unset, as protobufjs does.
   */
  presence: boolean;
  /** The other members of the field's oneof: setting one member clears them. */
  siblings?: string[];
  /** For Kind.Message (or a map of messages). */
  type?: MessageType;
  /** The encoded tag of the field. */
  tag: number;
}

export interface MessageType {
  fullName: string;
  fields: Field[];
  /** Field by number. */
  byId: (Field | undefined)[];
  /** The prototype of decoded messages: the proto3 defaults. */
  defaults: object;
  decode(bytes: Uint8Array): Message;
  encode(message: Message): Uint8Array;
}

/** The default of an absent bytes field (protobufjs uses a frozen empty array). */
const EMPTY_BYTES: readonly number[] = Object.freeze([]);

export class WireTypes {
  private readonly types = new Map<string, MessageType>();

  constructor(private readonly root: Namespace) {}

  /** The request and response types of a unary gRPC method path such as "/tfplugin6.Provider/ReadResource". */
  method(path: string): { request: MessageType; response: MessageType } | undefined {
    const match = /^\/([\w.]+)\.(\w+)\/(\w+)$/.exec(path);
    if (!match) return undefined;
    const scope = match[1]!.split(".");
    const service = this.namespace([...scope, match[2]!]);
    const methods = service?.methods;
    const method = methods && Object.prototype.hasOwnProperty.call(methods, match[3]!) ? methods[match[3]!] : undefined;
    if (!method || method.requestStream || method.responseStream) return undefined;
    return { request: this.message(method.requestType, scope), response: this.message(method.responseType, scope) };
  }

  private namespace(path: string[]): Namespace | undefined {
    let at: Namespace | undefined = this.root;
    for (const name of path) at = at?.nested?.[name];
    return at;
  }

  /** Resolves a type reference the way protobuf scoping does: innermost enclosing scope first. */
  private resolve(name: string, scope: string[]): { path: string[]; definition: Namespace } {
    const parts = name.replace(/^\./, "").split(".");
    const start = name.startsWith(".") ? 0 : scope.length;
    for (let depth = start; depth >= 0; depth--) {
      const path = [...scope.slice(0, depth), ...parts];
      const definition = this.namespace(path);
      if (definition && (definition.fields || definition.values)) return { path, definition };
    }
    throw new Error(`protocol descriptor: cannot resolve type ${name} from ${scope.join(".")}`);
  }

  private message(name: string, scope: string[]): MessageType {
    const { path, definition } = this.resolve(name, scope);
    const fullName = path.join(".");
    let type = this.types.get(fullName);
    if (type) return type;
    if (!definition.fields) throw new Error(`protocol descriptor: ${fullName} is not a message`);
    const defaults: Record<string, unknown> = {};
    type = { fullName, fields: [], byId: [], defaults, decode: (bytes) => decodeMessage(type!, bytes), encode: (message) => encodeMessage(type!, message) };
    // Registered before its fields resolve: messages may refer to themselves.
    this.types.set(fullName, type);
    const oneofOf = new Map<string, string[]>();
    for (const { oneof } of Object.values(definition.oneofs ?? {})) for (const member of oneof) oneofOf.set(member, oneof);
    const fields = Object.entries(definition.fields).map(([fieldName, json]) => {
      const field = this.field(fieldName, json, path, oneofOf.has(fieldName));
      const siblings = oneofOf.get(fieldName)?.filter((member) => member !== fieldName);
      if (siblings && siblings.length > 0) field.siblings = siblings;
      return field;
    });
    fields.sort((a, b) => a.id - b.id);
    for (const field of fields) {
      type.byId[field.id] = field;
      // proto3 `optional` fields default to null (unset), the others to their zero value.
      if (!field.repeated && !field.map) defaults[field.name] = definition.fields[field.name]!.options?.proto3_optional ? null : defaultOf(field.kind);
    }
    type.fields.push(...fields);
    return type;
  }

  private field(name: string, json: FieldJson, scope: string[], inOneof: boolean): Field {
    const repeated = json.rule === "repeated";
    const map = json.keyType !== undefined;
    if (map && json.keyType !== "string") throw new Error(`protocol descriptor: unsupported map key type ${json.keyType}`);
    let kind = SCALARS[json.type];
    let type: MessageType | undefined;
    if (kind === undefined) {
      const { definition } = this.resolve(json.type, scope);
      if (definition.values) kind = Kind.Int32;
      else {
        kind = Kind.Message;
        type = this.message(json.type, scope);
      }
    }
    if (repeated && kind !== Kind.Message) throw new Error(`protocol descriptor: unsupported repeated ${json.type} field ${name}`);
    if (map && kind !== Kind.String && kind !== Kind.Message) throw new Error(`protocol descriptor: unsupported map value type ${json.type}`);
    const wireType = map || kind === Kind.Message || kind === Kind.String || kind === Kind.Bytes ? 2 : 0;
    const presence = !repeated && !map && (kind === Kind.Message || inOneof);
    return { name, id: json.id, kind, repeated, map, presence, type, tag: ((json.id << 3) | wireType) >>> 0 };
  }
}

const SCALARS: Record<string, Kind | undefined> = {
  string: Kind.String,
  bytes: Kind.Bytes,
  bool: Kind.Bool,
  int64: Kind.Int64,
  int32: Kind.Int32,
  uint32: Kind.Uint32,
};

function defaultOf(kind: Kind): unknown {
  switch (kind) {
    case Kind.String:
      return "";
    case Kind.Bytes:
      return EMPTY_BYTES;
    case Kind.Bool:
      return false;
    case Kind.Message:
      return null;
    default:
      return 0;
  }
}

// ---------------------------------------------------------------------------------------------
// decoding

class Reader {
  pos = 0;
  constructor(
    readonly buf: Buffer,
    readonly end: number,
  ) {}

  varint(): number {
    // Up to 64 bits; values beyond 2^53 lose precision, as protobufjs without Long does.
    let result = 0;
    let shift = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new RangeError(`index out of range: ${this.pos} + 1 > ${this.end}`);
      const byte = this.buf[this.pos++]!;
      result += (byte & 0x7f) * shift;
      if (byte < 0x80) return result;
      shift *= 128;
    }
    throw new Error("invalid varint encoding");
  }

  /** A varint read as a signed 64-bit integer (two's complement), as a number. */
  int64(): number {
    const start = this.pos;
    const value = this.varint();
    // Ten bytes: the top bit is set, a negative number.
    if (this.pos - start < 10) return value;
    let big = 0n;
    for (let i = this.pos - 1; i >= start; i--) big = (big << 7n) | BigInt(this.buf[i]! & 0x7f);
    return Number(BigInt.asIntN(64, big));
  }

  length(): number {
    const length = this.varint();
    if (this.pos + length > this.end) throw new RangeError(`index out of range: ${this.pos} + ${length} > ${this.end}`);
    return length;
  }

  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.varint();
        return;
      case 1:
        this.pos += 8;
        break;
      case 2: {
        const length = this.length();
        this.pos += length;
        return;
      }
      case 3:
        for (;;) {
          const tag = this.varint();
          if ((tag & 7) === 4) return;
          this.skip(tag & 7);
        }
      case 5:
        this.pos += 4;
        break;
      default:
        throw new Error(`invalid wire type ${wireType} at offset ${this.pos}`);
    }
    if (this.pos > this.end) throw new RangeError("index out of range");
  }
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function decodeMessage(type: MessageType, bytes: Uint8Array): Message {
  const buf = asBuffer(bytes);
  return readMessage(type, new Reader(buf, buf.length));
}

function readMessage(type: MessageType, reader: Reader): Message {
  const message = Object.create(type.defaults) as Message;
  for (const field of type.fields) {
    if (field.repeated) message[field.name] = [];
    else if (field.map) message[field.name] = {};
  }
  while (reader.pos < reader.end) {
    const tag = reader.varint();
    const field = type.byId[tag >>> 3];
    const wireType = tag & 7;
    if (!field || wireType !== (field.tag & 7)) {
      // Unknown fields are dropped, as protobufjs does here.
      reader.skip(wireType);
      continue;
    }
    if (field.map) {
      const entryEnd = reader.pos + reader.length();
      let key = "";
      let value: unknown = field.kind === Kind.Message ? null : "";
      while (reader.pos < entryEnd) {
        const entryTag = reader.varint();
        const number = entryTag >>> 3;
        if (number === 1 && (entryTag & 7) === 2) key = readString(reader);
        else if (number === 2 && (entryTag & 7) === 2) value = field.kind === Kind.Message ? readNested(field.type!, reader) : readString(reader);
        else reader.skip(entryTag & 7);
      }
      (message[field.name] as Message)[key] = value;
    } else if (field.repeated) {
      (message[field.name] as unknown[]).push(readNested(field.type!, reader));
    } else {
      const value = readScalar(field, reader);
      if (field.siblings) for (const sibling of field.siblings) delete message[sibling];
      if (field.presence || !isDefault(value)) message[field.name] = value;
      // A later default value clears an earlier one.
      else delete message[field.name];
    }
  }
  return message;
}

function isDefault(value: unknown): boolean {
  return value === "" || value === 0 || value === false || (value instanceof Uint8Array && value.length === 0);
}

function readNested(type: MessageType, reader: Reader): Message {
  const length = reader.length();
  const end = reader.pos + length;
  const inner = new Reader(reader.buf, end);
  inner.pos = reader.pos;
  const message = readMessage(type, inner);
  reader.pos = end;
  return message;
}

function readString(reader: Reader): string {
  const length = reader.length();
  const start = reader.pos;
  reader.pos += length;
  return reader.buf.toString("utf8", start, reader.pos);
}

function readScalar(field: Field, reader: Reader): unknown {
  switch (field.kind) {
    case Kind.String:
      return readString(reader);
    case Kind.Bytes: {
      const length = reader.length();
      const start = reader.pos;
      reader.pos += length;
      return reader.buf.subarray(start, reader.pos);
    }
    case Kind.Bool:
      return reader.varint() !== 0;
    case Kind.Int64:
      return reader.int64();
    case Kind.Int32:
      return reader.int64() | 0;
    case Kind.Uint32:
      return reader.varint() >>> 0;
    case Kind.Message:
      return readNested(field.type!, reader);
  }
}

// ---------------------------------------------------------------------------------------------
// encoding

class Writer {
  buf = Buffer.allocUnsafe(1024);
  pos = 0;

  room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  varint(value: number): void {
    this.room(10);
    if (value >= 0 && value < 0x80) {
      this.buf[this.pos++] = value;
      return;
    }
    if (value < 0) {
      this.negative(value);
      return;
    }
    while (value >= 0x80) {
      this.buf[this.pos++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.buf[this.pos++] = value;
  }

  /** A negative integer as a 10-byte two's-complement varint (protobuf's int32/int64 rule). */
  private negative(value: number): void {
    let big = BigInt.asUintN(64, BigInt(Math.trunc(value)));
    for (let i = 0; i < 9; i++) {
      this.buf[this.pos++] = Number(big & 0x7fn) | 0x80;
      big >>= 7n;
    }
    this.buf[this.pos++] = Number(big);
  }

  bytes(data: Uint8Array): void {
    this.varint(data.length);
    this.room(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
  }

  string(text: string): void {
    const length = Buffer.byteLength(text, "utf8");
    this.varint(length);
    this.room(length);
    this.pos += this.buf.write(text, this.pos, length, "utf8");
  }

  /** Writes `fill`'s output preceded by its length (a length-delimited field's payload). */
  delimited(fill: () => void): void {
    // Reserve one length byte; move the payload if the length needs more.
    this.room(1);
    const lengthAt = this.pos++;
    const start = this.pos;
    fill();
    const length = this.pos - start;
    if (length < 0x80) {
      this.buf[lengthAt] = length;
      return;
    }
    let size = 1;
    for (let v = length; v >= 0x80; v = Math.floor(v / 0x80)) size++;
    this.room(size - 1);
    this.buf.copy(this.buf, start + size - 1, start, this.pos);
    this.pos = lengthAt;
    this.varint(length);
    this.pos = start + size - 1 + length;
  }
}

/** One writer, reused (a nested use, never expected, would get a new one). */
let idle: Writer | undefined = new Writer();

function encodeMessage(type: MessageType, message: Message): Uint8Array {
  const w = idle ?? new Writer();
  idle = undefined;
  try {
    writeFields(type, message, w);
    // A copy: the writer's buffer is reused.
    return Uint8Array.prototype.slice.call(w.buf, 0, w.pos);
  } finally {
    w.pos = 0;
    idle = w;
  }
}

const hasOwn = Object.prototype.hasOwnProperty;

function writeFields(type: MessageType, message: Message, w: Writer): void {
  for (const field of type.fields) {
    const value = message[field.name];
    if (value === null || value === undefined || !hasOwn.call(message, field.name)) continue;
    if (field.repeated) {
      const items = value as unknown[];
      for (let i = 0; i < items.length; i++) {
        w.varint(field.tag);
        const item = items[i] as Message;
        w.delimited(() => writeFields(field.type!, item, w));
      }
    } else if (field.map) {
      const entries = value as Record<string, unknown>;
      for (const key of Object.keys(entries)) {
        const item = entries[key];
        w.varint(field.tag);
        w.delimited(() => {
          w.varint(0x0a);
          w.string(key);
          w.varint(0x12);
          if (field.kind === Kind.Message) w.delimited(() => writeFields(field.type!, item as Message, w));
          else w.string(String(item));
        });
      }
    } else {
      if (!field.presence && isDefaultToSend(field.kind, value)) continue;
      w.varint(field.tag);
      writeScalar(field, value, w);
    }
  }
}

/** protobufjs's test for a default (not sent) value of a field without explicit presence. */
function isDefaultToSend(kind: Kind, value: unknown): boolean {
  switch (kind) {
    case Kind.String:
      return value === "";
    case Kind.Bool:
      return value === false;
    case Kind.Bytes:
      return !(value as { length?: number }).length;
    default:
      return value === 0;
  }
}

function writeScalar(field: Field, value: unknown, w: Writer): void {
  switch (field.kind) {
    case Kind.String:
      w.string(String(value));
      return;
    case Kind.Bytes:
      // protobufjs also takes base64 text and plain arrays of bytes.
      w.bytes(value instanceof Uint8Array ? value : typeof value === "string" ? Buffer.from(value, "base64") : Uint8Array.from(value as ArrayLike<number>));
      return;
    case Kind.Bool:
      w.varint(value ? 1 : 0);
      return;
    case Kind.Int64: {
      const n = typeof value === "number" ? value : Number.parseInt(String(value), 10);
      w.varint(Number.isFinite(n) ? Math.trunc(n) : 0);
      return;
    }
    case Kind.Int32:
      w.varint(Number(value) | 0);
      return;
    case Kind.Uint32:
      w.varint(Number(value) >>> 0);
      return;
    case Kind.Message:
      w.delimited(() => writeFields(field.type!, value as Message, w));
      return;
  }
}

/** Bytes of a decoded `bytes` field; an absent one decodes to an empty array. */
export function bytesOf(value: unknown): Uint8Array | undefined {
  return value instanceof Uint8Array && value.length > 0 ? value : undefined;
}
