// The msgpack wire format, as much of it as Terraform's DynamicValues use: a reader over one
// message's bytes and a writer into one growing buffer. No schema knowledge: provider/codec.ts
// drives both from the schema. Why this is written by hand rather than taken from
// @msgpack/msgpack: see the top of codec.ts (bench/codec.mjs measures it).

/** A DynamicValue that cannot be read or written: malformed msgpack, or a value that does not fit its type. */
export class CodecError extends Error {
  constructor(
    message: string,
    /** Where in the value (attribute names, list indexes, map keys), filled in on the way out. */
    readonly path: (string | number)[] = [],
  ) {
    super(message);
    this.name = "CodecError";
  }
}

/** The JS type @msgpack/msgpack would have produced for a value's head byte (for error messages). */
export function wireTypeName(head: number): string {
  if (head < 0x80 || head >= 0xe0 || (head >= 0xca && head <= 0xd3 && head !== 0xcf && head !== 0xd3)) return "number";
  if (head === 0xcf || head === 0xd3) return "bigint";
  if ((head >= 0xa0 && head <= 0xbf) || (head >= 0xd9 && head <= 0xdb)) return "string";
  if (head === 0xc2 || head === 0xc3) return "boolean";
  return "object"; // maps, arrays, bin (a Uint8Array)
}

/** Whether a head byte starts an extension value (fixext 1-16, ext 8/16/32). */
export function isExtHead(head: number): boolean {
  return (head >= 0xd4 && head <= 0xd8) || (head >= 0xc7 && head <= 0xc9);
}

export const NIL = 0xc0;

// What a reader holds between messages: shared, so that releasing one allocates nothing.
const EMPTY = Buffer.alloc(0);
const EMPTY_VIEW = new DataView(EMPTY.buffer, 0, 0);

export class MsgpackReader {
  private bytes: Uint8Array = EMPTY;
  private view: DataView<ArrayBufferLike> = EMPTY_VIEW;
  /** `bytes` as a Buffer, for native string decoding. */
  private text: Buffer = EMPTY;
  pos = 0;
  private end = 0;

  reset(input: Uint8Array): void {
    this.bytes = input;
    this.view = new DataView(input.buffer, input.byteOffset, input.byteLength);
    this.text = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    this.pos = 0;
    this.end = input.length;
  }

  /** Drops the reference to the last message (it may be a view of a large gRPC frame). */
  release(): void {
    this.bytes = EMPTY;
    this.view = EMPTY_VIEW;
    this.text = EMPTY;
    this.pos = 0;
    this.end = 0;
  }

  atEnd(): boolean {
    return this.pos === this.end;
  }

  remaining(): number {
    return this.end - this.pos;
  }

  private need(n: number): void {
    if (this.pos + n > this.end) throw new CodecError("truncated msgpack (insufficient data)");
  }

  /** The head byte of the next value, not consumed. */
  peek(): number {
    if (this.pos >= this.end) throw new CodecError("truncated msgpack (insufficient data)");
    return this.bytes[this.pos]!;
  }

  /** Consumes the head byte just peeked (for one-byte values: nil, bools, fixints). */
  skipHead(): void {
    this.pos++;
  }

  /** Skips an extension value of any type (each is an unknown value, refined or not). */
  skipExt(head: number): void {
    this.pos++;
    let size: number;
    if (head >= 0xd4 && head <= 0xd8) size = 1 << (head - 0xd4);
    else if (head === 0xc7) {
      this.need(1);
      size = this.bytes[this.pos++]!;
    } else if (head === 0xc8) {
      this.need(2);
      size = this.view.getUint16(this.pos);
      this.pos += 2;
    } else {
      this.need(4);
      size = this.view.getUint32(this.pos);
      this.pos += 4;
    }
    this.need(1 + size); // type byte, data
    this.pos += 1 + size;
  }

  /** The entry count of a map, or -1 (nothing consumed) when the value is not a map. */
  mapHeader(head: number): number {
    return this.containerHeader(head, 0x80, 0xde);
  }

  /** The item count of an array, or -1 (nothing consumed) when the value is not an array. */
  arrayHeader(head: number): number {
    return this.containerHeader(head, 0x90, 0xdc);
  }

  /** Maps and arrays share one header layout: a fix form (base + n, n < 16), then 16- and 32-bit counts. */
  private containerHeader(head: number, fixBase: number, code16: number): number {
    if (head >= fixBase && head <= fixBase + 0x0f) {
      this.pos++;
      return head - fixBase;
    }
    if (head === code16) {
      this.need(3);
      const n = this.view.getUint16(this.pos + 1);
      this.pos += 3;
      return n;
    }
    if (head === code16 + 1) {
      this.need(5);
      const n = this.view.getUint32(this.pos + 1);
      this.pos += 5;
      return n;
    }
    return -1;
  }

  isStringHead(head: number): boolean {
    return (head >= 0xa0 && head <= 0xbf) || (head >= 0xd9 && head <= 0xdb);
  }

  /** A str value; the head byte must be a str format (isStringHead). */
  string(head: number): string {
    let length: number;
    if (head <= 0xbf) {
      length = head - 0xa0;
      this.pos++;
    } else if (head === 0xd9) {
      this.need(2);
      length = this.bytes[this.pos + 1]!;
      this.pos += 2;
    } else if (head === 0xda) {
      this.need(3);
      length = this.view.getUint16(this.pos + 1);
      this.pos += 3;
    } else {
      this.need(5);
      length = this.view.getUint32(this.pos + 1);
      this.pos += 5;
    }
    this.need(length);
    const start = this.pos;
    const stop = (this.pos += length);
    const bytes = this.bytes;
    // ASCII, the common case: Latin-1 decoding is a plain copy and gives the same string.
    for (let i = start; i < stop; i++) if (bytes[i]! >= 0x80) return this.text.toString("utf8", start, stop);
    return this.text.toString("latin1", start, stop);
  }

  /** A map key: a str, or an integer (as its decimal text, as @msgpack/msgpack reads it). */
  key(): string {
    const head = this.peek();
    if (this.isStringHead(head)) return this.string(head);
    if (this.isNumberHead(head)) return String(this.number(head));
    throw new CodecError(`The type of key must be string or number but ${wireTypeName(head)}`);
  }

  /** Consumes `key` (a complete encoded str, header included) if the next bytes are exactly it. */
  matches(key: Uint8Array): boolean {
    const length = key.length;
    const at = this.pos;
    if (at + length > this.end) return false;
    const bytes = this.bytes;
    for (let i = 0; i < length; i++) if (bytes[at + i] !== key[i]) return false;
    this.pos = at + length;
    return true;
  }

  isNumberHead(head: number): boolean {
    return head < 0x80 || head >= 0xe0 || (head >= 0xca && head <= 0xd3);
  }

  /**
   * A number (isNumberHead): ints and floats as JS numbers; 64-bit integers as a number when
   * exact, else as their decimal text, so nothing is silently rounded.
   */
  number(head: number): number | string {
    if (head < 0x80) {
      this.pos++;
      return head;
    }
    if (head >= 0xe0) {
      this.pos++;
      return head - 0x100;
    }
    const view = this.view;
    switch (head) {
      case 0xca:
        this.need(5);
        this.pos += 5;
        return view.getFloat32(this.pos - 4);
      case 0xcb:
        this.need(9);
        this.pos += 9;
        return view.getFloat64(this.pos - 8);
      case 0xcc:
        this.need(2);
        this.pos += 2;
        return this.bytes[this.pos - 1]!;
      case 0xcd:
        this.need(3);
        this.pos += 3;
        return view.getUint16(this.pos - 2);
      case 0xce:
        this.need(5);
        this.pos += 5;
        return view.getUint32(this.pos - 4);
      case 0xd0:
        this.need(2);
        this.pos += 2;
        return view.getInt8(this.pos - 1);
      case 0xd1:
        this.need(3);
        this.pos += 3;
        return view.getInt16(this.pos - 2);
      case 0xd2:
        this.need(5);
        this.pos += 5;
        return view.getInt32(this.pos - 4);
      default: {
        // 0xcf uint64, 0xd3 int64
        this.need(9);
        this.pos += 9;
        const big = head === 0xcf ? view.getBigUint64(this.pos - 8) : view.getBigInt64(this.pos - 8);
        return Number.isSafeInteger(Number(big)) ? Number(big) : big.toString();
      }
    }
  }

  /** A bin value's bytes (a view), or null (nothing consumed) when the value is not bin. */
  bin(head: number): Uint8Array | null {
    let length: number;
    if (head === 0xc4) {
      this.need(2);
      length = this.bytes[this.pos + 1]!;
      this.pos += 2;
    } else if (head === 0xc5) {
      this.need(3);
      length = this.view.getUint16(this.pos + 1);
      this.pos += 3;
    } else if (head === 0xc6) {
      this.need(5);
      length = this.view.getUint32(this.pos + 1);
      this.pos += 5;
    } else return null;
    this.need(length);
    this.pos += length;
    return this.bytes.subarray(this.pos - length, this.pos);
  }

  /** Skips any value (map keys are checked as a full decode would). */
  skip(): void {
    const head = this.peek();
    if (head < 0x80 || head >= 0xe0 || head === 0xc0 || head === 0xc2 || head === 0xc3) this.pos++;
    else if (this.isStringHead(head)) this.string(head);
    else if (this.isNumberHead(head)) this.number(head);
    else if (isExtHead(head)) this.skipExt(head);
    else if (this.bin(head) !== null) return;
    else {
      let n = this.arrayHeader(head);
      if (n >= 0) {
        for (let i = 0; i < n; i++) this.skip();
        return;
      }
      n = this.mapHeader(head);
      if (n < 0) throw new CodecError(`invalid msgpack: unknown type 0x${head.toString(16)}`);
      for (let i = 0; i < n; i++) {
        this.key();
        this.skip();
      }
    }
  }
}

export class MsgpackWriter {
  private out: Buffer = Buffer.alloc(4096);
  private view = new DataView(this.out.buffer, this.out.byteOffset, this.out.length);
  private at = 0;

  reset(): void {
    this.at = 0;
  }

  /** A copy of what was written since reset (the buffer is reused; a slice would be a view of it). */
  finish(): Uint8Array {
    return new Uint8Array(this.out.buffer.slice(this.out.byteOffset, this.out.byteOffset + this.at));
  }

  private room(n: number): void {
    if (this.at + n <= this.out.length) return;
    let size = this.out.length * 2;
    while (size < this.at + n) size *= 2;
    const grown = Buffer.alloc(size);
    grown.set(this.out.subarray(0, this.at));
    this.out = grown;
    this.view = new DataView(grown.buffer, grown.byteOffset, grown.length);
  }

  /** Bytes written as they are (a precomputed key). */
  raw(bytes: Uint8Array): void {
    const length = bytes.length;
    this.room(length);
    // Keys are short: a loop beats TypedArray#set's call overhead.
    if (length <= 32) {
      const out = this.out;
      let at = this.at;
      for (let i = 0; i < length; i++) out[at++] = bytes[i]!;
      this.at = at;
    } else {
      this.out.set(bytes, this.at);
      this.at += length;
    }
  }

  nil(): void {
    this.room(1);
    this.out[this.at++] = NIL;
  }

  bool(value: boolean): void {
    this.room(1);
    this.out[this.at++] = value ? 0xc3 : 0xc2;
  }

  /** fixext 1, type 0, one zero byte: a plain (never refined) unknown. */
  unknown(): void {
    this.room(3);
    this.out[this.at++] = 0xd4;
    this.out[this.at++] = 0;
    this.out[this.at++] = 0;
  }

  mapHeader(n: number): void {
    this.header(n, 0x80, 0xde);
  }

  arrayHeader(n: number): void {
    this.header(n, 0x90, 0xdc);
  }

  private header(n: number, fixBase: number, code16: number): void {
    this.room(5);
    const out = this.out;
    if (n < 16) out[this.at++] = fixBase + n;
    else if (n < 0x10000) {
      out[this.at++] = code16;
      this.view.setUint16(this.at, n);
      this.at += 2;
    } else {
      out[this.at++] = code16 + 1;
      this.view.setUint32(this.at, n);
      this.at += 4;
    }
  }

  /** A str in its shortest header (fixstr < 32 bytes, str 8, 16, 32). Lone surrogates become U+FFFD, as in any UTF-8 encoder. */
  string(text: string): void {
    // Most values are short ASCII: copied char by char, without a call into the native encoder.
    if (text.length < 32 && this.shortAscii(text)) return;
    const length = Buffer.byteLength(text, "utf8");
    this.room(5 + length);
    const out = this.out;
    if (length < 32) out[this.at++] = 0xa0 + length;
    else if (length < 0x100) {
      out[this.at++] = 0xd9;
      out[this.at++] = length;
    } else if (length < 0x10000) {
      out[this.at++] = 0xda;
      this.view.setUint16(this.at, length);
      this.at += 2;
    } else {
      out[this.at++] = 0xdb;
      this.view.setUint32(this.at, length);
      this.at += 4;
    }
    // As many bytes as UTF-16 code units: ASCII, which Latin-1 writes as a plain copy.
    if (length > 0) this.at += out.write(text, this.at, length, length === text.length ? "latin1" : "utf8");
  }

  /** Writes `text` as a fixstr if it is ASCII; false (nothing written) otherwise. */
  private shortAscii(text: string): boolean {
    const n = text.length;
    this.room(1 + n);
    const out = this.out;
    let at = this.at + 1;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) return false;
      out[at++] = c;
    }
    out[this.at] = 0xa0 + n;
    this.at = at;
    return true;
  }

  bin(bytes: Uint8Array): void {
    const length = bytes.length;
    this.room(5 + length);
    const out = this.out;
    if (length < 0x100) {
      out[this.at++] = 0xc4;
      out[this.at++] = length;
    } else if (length < 0x10000) {
      out[this.at++] = 0xc5;
      this.view.setUint16(this.at, length);
      this.at += 2;
    } else {
      out[this.at++] = 0xc6;
      this.view.setUint32(this.at, length);
      this.at += 4;
    }
    out.set(bytes, this.at);
    this.at += length;
  }

  /**
   * A number as Terraform writes one and reads any: a safe integer in the smallest int form,
   * anything else (fractions, huge values, NaN, infinities) as float64.
   */
  number(value: number): void {
    this.room(9);
    const out = this.out;
    const view = this.view;
    if (Number.isSafeInteger(value)) {
      if (value >= 0) {
        if (value < 0x80) out[this.at++] = value;
        else if (value < 0x100) {
          out[this.at++] = 0xcc;
          out[this.at++] = value;
        } else if (value < 0x10000) {
          out[this.at++] = 0xcd;
          view.setUint16(this.at, value);
          this.at += 2;
        } else if (value < 0x100000000) {
          out[this.at++] = 0xce;
          view.setUint32(this.at, value);
          this.at += 4;
        } else {
          out[this.at++] = 0xcf;
          view.setBigUint64(this.at, BigInt(value));
          this.at += 8;
        }
      } else if (value >= -0x20) out[this.at++] = 0xe0 | (value + 0x20);
      else if (value >= -0x80) {
        out[this.at++] = 0xd0;
        view.setInt8(this.at, value);
        this.at += 1;
      } else if (value >= -0x8000) {
        out[this.at++] = 0xd1;
        view.setInt16(this.at, value);
        this.at += 2;
      } else if (value >= -0x80000000) {
        out[this.at++] = 0xd2;
        view.setInt32(this.at, value);
        this.at += 4;
      } else {
        out[this.at++] = 0xd3;
        view.setBigInt64(this.at, BigInt(value));
        this.at += 8;
      }
      return;
    }
    out[this.at++] = 0xcb;
    view.setFloat64(this.at, value);
    this.at += 8;
  }
}

/** The complete msgpack str encoding of `text` (header included): map keys precomputed per schema. */
export function encodedString(text: string): Uint8Array {
  const writer = new MsgpackWriter();
  writer.string(text);
  return writer.finish();
}
