// A single-pass JSON parser for HCL-JSON that keeps what JSON.parse throws away: every duplicate
// key in order, the raw text of numbers (arbitrary precision) and the source offsets of every
// value. It is strict JSON (no comments, no trailing commas) and stops at the first syntax error,
// reporting its offset; line and column are computed from offsets only when a diagnostic needs
// them (see positions.ts).
//
// For speed the tree is flat (json-doc.ts): one entry per value and per property name, in typed
// arrays, so parsing allocates no object per token; the text is read as bytes, the long runs
// (indentation, string content) a word at a time.

import { JsonDoc, K_OBJECT, K_ARRAY, K_STRING, K_NUMBER, K_TRUE, K_FALSE, K_NULL, K_STRING_ESC, takeSpare } from "./json-doc.js";
import { afterRecovery, nextToken } from "./json-recovery.js";
export { decodeString, numberAt, rawOffset, setOwn } from "./json-text.js";

export { K_OBJECT, K_ARRAY, K_STRING, K_NUMBER, K_TRUE, K_FALSE, K_NULL, K_STRING_ESC, JsonDoc, forObjects, someString, type NodeKind } from "./json-doc.js";

export interface SyntaxProblem {
  /** short Terraform-style summary, e.g. "Trailing comma in object" */
  summary: string;
  detail: string;
  /** offset of the problem */
  offset: number;
  /** offset just after the problem (exclusive) */
  endOffset: number;
}

export type ParseResult = { ok: true; doc: JsonDoc; problem: null } | { ok: false; doc: null; problem: SyntaxProblem };

/**
 * Objects and arrays nested deeper than this are read for their syntax only, without recursion, and
 * kept as one empty node of their kind: every later pass walks the tree recursively, with room to
 * spare on Node's stack at this depth. Terraform has no limit (it accepts 300 000 levels; its stack
 * overflows, a crash, somewhere below 450 000): any depth is read here, in memory bounded by the text.
 */
export const MAX_DEPTH = 2500;

class Stop {
  constructor(readonly problem: SyntaxProblem) {}
}

// Parser state. The parser is not re-entrant, which is fine: it never calls out.
let src = "";
/** src as bytes (see byteView): the parser reads these, src only for messages */
let bytes: Uint8Array = new Uint8Array(1);
let pos = 0;
let len = 0;
let n = 0; // entries used
let cap = 0;
let kinds: Uint8Array = new Uint8Array(0);
let starts: Int32Array = new Int32Array(0);
let ends: Int32Array = new Int32Array(0);
let nexts: Int32Array = new Int32Array(0);
let lastComma = 0;

function grow(): void {
  cap = cap * 2;
  const k = new Uint8Array(cap);
  k.set(kinds);
  kinds = k;
  const s = new Int32Array(cap);
  s.set(starts);
  starts = s;
  const e = new Int32Array(cap);
  e.set(ends);
  ends = e;
  const x = new Int32Array(cap);
  x.set(nexts);
  nexts = x;
}

function fail(summary: string, detail: string, offset: number, endOffset = offset + 1): never {
  throw new Stop({ summary, detail, offset: Math.min(offset, len), endOffset: Math.min(Math.max(endOffset, offset), len) });
}

/** A problem reported at the token starting at `offset` (the end of the file: an empty range there). */
function failAt(summary: string, detail: string, offset: number): never {
  fail(summary, detail, offset, offset < len ? offset + 1 : offset);
}

/** Parses `text` as strict JSON. Never throws. */
export function parseJson(text: string): ParseResult {
  src = text;
  bytes = byteView(text);
  len = text.length;
  pos = 0;
  n = 0;
  // Room for one entry per 8 characters: configurations hold one per 10-20 (minified ones the
  // most), so the arrays rarely grow, and growing (doubling) holds the old arrays and the new
  // ones at once. Pages never written to are never mapped: the room left over costs address
  // space, not memory.
  cap = (len >> 3) + 64;
  const reused = takeSpare(cap);
  if (reused !== null) {
    // a released document's arrays (JsonDoc.release): every entry below n is written before it is read
    ({ kinds, starts, ends, nexts } = reused);
    cap = kinds.length;
  } else {
    kinds = new Uint8Array(cap);
    starts = new Int32Array(cap);
    ends = new Int32Array(cap);
    nexts = new Int32Array(cap);
  }
  try {
    if (len > 0 && text.charCodeAt(0) === 0xfeff) pos = 1; // a byte order mark: the caller reports it (module.ts)
    skipWs();
    if (pos >= len) fail("Empty JSON file", "The file contains no JSON value; a configuration needs at least an empty object {}.", pos, pos);
    parseValue(0);
    skipWs();
    if (pos < len) fail("Extraneous data after value", "Extra characters appear after the JSON value.", pos, pos + 1);
    // a reused array may hold a past document's entries after the last: the one just after reads as nothing, as in a fresh array
    if (n < cap) kinds[n] = starts[n] = ends[n] = nexts[n] = 0;
    const doc = new JsonDoc(text, kinds, starts, ends, nexts, n);
    return { ok: true, doc, problem: null };
  } catch (error) {
    if (error instanceof Stop) return { ok: false, doc: null, problem: error.problem };
    if (error instanceof RangeError) {
      return { ok: false, doc: null, problem: { summary: "Nesting too deep", detail: "The JSON value is nested too deeply to be processed.", offset: pos, endOffset: pos } };
    }
    throw error;
  } finally {
    src = "";
    if (bytes.length > KEEP_BYTES) scratch = null;
    bytes = new Uint8Array(1);
    words = NO_WORDS;
    kinds = new Uint8Array(0);
    starts = new Int32Array(0);
    ends = new Int32Array(0);
    nexts = new Int32Array(0);
  }
}

/** Texts up to this size keep their byte buffer for the next parse (a new one costs page faults). */
const KEEP_BYTES = 32 * 1024 * 1024;

let scratch: Buffer | null = null;
const WIDE = /[^\x00-\xff]/;

/**
 * `bytes` four at a time (empty when the buffer is not aligned for it), for the runs that are
 * most of a file: spaces of indentation, the characters of strings. Its last word ends at or
 * before the 0 after the text, so it never reads a past text's bytes; a read past it is undefined.
 */
let words: Int32Array = new Int32Array(0);

const NO_WORDS = new Int32Array(0);

/**
 * The text as one byte per UTF-16 code unit, then a 0 that ends every scan: JSON's syntax is
 * ASCII, and reading a byte array is about twice as fast as charCodeAt on a string. Offsets are
 * the same as in the text. A code unit above 0xFF becomes 0xFF, which like it can only be string
 * content or an invalid character (messages read the text itself).
 */
function byteView(text: string): Uint8Array {
  const needed = text.length + 1;
  if (scratch === null || scratch.length < needed) scratch = Buffer.allocUnsafe(needed);
  scratch.write(text, 0, "latin1");
  scratch[text.length] = 0;
  // a text of one-byte characters only is answered without a scan
  const wide = text.search(WIDE);
  if (wide >= 0) for (let i = wide; i < text.length; i++) if (text.charCodeAt(i) > 0xff) scratch[i] = 0xff;
  words = scratch.byteOffset % 4 === 0 ? new Int32Array(scratch.buffer, scratch.byteOffset, needed >> 2) : NO_WORDS;
  return scratch;
}

/** Four spaces, as a word of `words`. */
const SPACES = 0x20202020;

function skipWs(): void {
  // locals, not the module's variables: a store to `pos` per space was a third of a pretty-printed file's parse
  const b = bytes;
  let p = pos;
  let c = b[p];
  while (c === 32 || c === 10 || c === 13 || c === 9) {
    c = b[++p];
    if (c === 32 && (p & 3) === 0) {
      // indentation, four spaces at a time
      const w = words;
      while (w[p >> 2] === SPACES) p += 4;
      c = b[p];
    }
  }
  pos = p;
}

/**
 * Whether a word of `words` holds a byte below 0x20, a quote or a backslash: the bytes a string's
 * scan must look at one by one (a word-at-a-time test for bytes below a value and for a value).
 */
function stopsString(x: number): number {
  const quote = x ^ 0x22222222;
  const backslash = x ^ 0x5c5c5c5c;
  return (((x - 0x20202020) & ~x) | ((quote - 0x01010101) & ~quote) | ((backslash - 0x01010101) & ~backslash)) & 0x80808080;
}

function parseValue(depth: number): void {
  const c = bytes[pos];
  if (c === 34) parseString();
  else if (c === 123) parseObject(depth + 1);
  else if (c === 91) parseArray(depth + 1);
  else if (c === 45 || (c >= 48 && c <= 57)) parseNumber();
  else parseOther();
}

function leaf(kind: number, start: number, end: number): void {
  if (n === cap) grow();
  kinds[n] = kind;
  starts[n] = start;
  ends[n] = end;
  nexts[n] = ++n;
}

function parseObject(depth: number): void {
  const start = pos;
  if (depth > MAX_DEPTH) return parseDeep();
  if (n === cap) grow();
  const self = n++;
  kinds[self] = K_OBJECT;
  starts[self] = start;
  pos++;
  skipWs();
  let c = bytes[pos];
  if (c !== 125) {
    for (;;) {
      propertyName(start);
      parseValue(depth);
      skipWs();
      c = bytes[pos];
      if (c === 44) {
        lastComma = pos;
        pos++;
        skipWs();
        c = bytes[pos];
        continue;
      }
      if (c === 125) break;
      objectSeparatorError(c, start);
    }
  }
  pos++;
  ends[self] = pos;
  nexts[self] = n;
}

function parseArray(depth: number): void {
  const start = pos;
  if (depth > MAX_DEPTH) return parseDeep();
  if (n === cap) grow();
  const self = n++;
  kinds[self] = K_ARRAY;
  starts[self] = start;
  pos++;
  skipWs();
  let c = bytes[pos];
  if (c !== 93) {
    for (;;) {
      if (c === 93) fail("Trailing comma in array", "JSON does not permit a trailing comma after the final value in an array.", lastComma, lastComma + 1);
      // Terraform reads a value there and finds the end of the file
      if (pos >= len) fail("Missing value", "The JSON data ends prematurely.", len, len);
      parseValue(depth);
      skipWs();
      c = bytes[pos];
      if (c === 44) {
        lastComma = pos;
        pos++;
        skipWs();
        c = bytes[pos];
        continue;
      }
      if (c === 93) break;
      arraySeparatorError(c, start);
    }
  }
  pos++;
  ends[self] = pos;
  nexts[self] = n;
}

/** Where an object's property name should start (at `c`, not a quote): Terraform's error. */
function propertyNameError(c: number): never {
  // Terraform reads a property name there and finds the end of the file
  if (pos >= len) fail("Missing value", "The JSON data ends prematurely.", len, len);
  if (c === 125) fail("Trailing comma in object", "JSON does not permit a trailing comma after the final property in an object.", lastComma, lastComma + 1);
  if (c === 47) commentError();
  fail("Invalid object property name", "A JSON object property name must be a string in double quotes.", pos, pos + 1);
}

/** A property's name and colon, up to its value, in the object opened at `start`. */
function propertyName(start: number): void {
  const c = bytes[pos];
  if (c !== 34) propertyNameError(c);
  parseString();
  skipWs();
  if (bytes[pos] !== 58) colonError(start);
  pos++;
  skipWs();
  if (pos >= len) fail("Missing property value", "The file ends where a property value was expected.", pos, pos);
}

/** After a property's name, no colon: Terraform's error. */
function colonError(start: number): never {
  if (bytes[pos] === 61) fail("Missing property value colon", "JSON uses a colon as its name/value delimiter, not an equals sign.", pos, pos + 1);
  if (pos >= len) fail("Unclosed object", "No closing brace was found for this JSON object.", start, start + 1);
  fail("Missing property value colon", "A colon must appear between an object property's name and its value.", pos, pos + 1);
}

/** After a property's value, neither a comma nor the object's close (`c`): Terraform's error. */
function objectSeparatorError(c: number, start: number): never {
  if (pos >= len) fail("Unclosed object", "No closing brace was found for this JSON object.", start, start + 1);
  if (c === 47) commentError();
  // Terraform (HCL) reports these at the token after the bracket, or after the tokens it skips to recover
  if (c === 93) failAt("Mismatched braces", "A JSON object must be closed with a brace, not a bracket.", nextToken(src, pos + 1));
  failAt("Missing attribute seperator comma", "A comma must appear between each property definition in an object.", afterRecovery(src, pos, 123, 125));
}

/** After an array's element, neither a comma nor the array's close (`c`): Terraform's error. */
function arraySeparatorError(c: number, start: number): never {
  if (pos >= len) fail("Unclosed array", "No closing bracket was found for this JSON array.", start, start + 1);
  if (c === 47) commentError();
  const at = afterRecovery(src, pos, 91, 93);
  if (c === 58) failAt("Invalid array value", "A colon is not used to introduce values in a JSON array.", at);
  if (c === 125) failAt("Mismatched brackets", "A JSON array must be closed with a bracket, not a brace.", at);
  failAt("Missing attribute seperator comma", "A comma must appear between each value in an array.", at);
}

/** An object or array nested deeper than MAX_DEPTH: read with a stack of its own (no recursion) with parseObject's and parseArray's errors, kept as one node of its kind without children. */
function parseDeep(): void {
  if (n === cap) grow();
  const self = n++;
  kinds[self] = bytes[pos] === 123 ? K_OBJECT : K_ARRAY;
  starts[self] = pos;
  const open: number[] = []; // the open objects' and arrays' offsets
  let c = bytes[pos];
  for (;;) {
    if (c === 123 || c === 91) {
      open.push(pos);
      pos++;
      skipWs();
      const empty = bytes[pos] === (c === 123 ? 125 : 93);
      if (!empty && c === 123) propertyName(open[open.length - 1]!);
      else if (!empty && pos >= len) fail("Missing value", "The JSON data ends prematurely.", len, len);
      c = bytes[pos];
      if (!empty) continue;
    } else {
      if (c === 34) parseString();
      else if (c === 45 || (c >= 48 && c <= 57)) parseNumber();
      else parseOther();
      skipWs();
      c = bytes[pos];
    }
    // after a value (or at an empty one's close): closes, then a separator and what follows it
    for (;;) {
      const at = open[open.length - 1]!;
      const object = bytes[at] === 123;
      if (c === (object ? 125 : 93)) {
        pos++;
        open.pop();
        if (open.length > 0) {
          skipWs();
          c = bytes[pos];
          continue;
        }
        n = self + 1; // the values and names read on the way are not kept
        ends[self] = pos;
        nexts[self] = n;
        return;
      }
      if (c !== 44) (object ? objectSeparatorError : arraySeparatorError)(c, at);
      lastComma = pos++;
      skipWs();
      c = bytes[pos];
      if (object) propertyName(at);
      else if (c === 93) fail("Trailing comma in array", "JSON does not permit a trailing comma after the final value in an array.", lastComma, lastComma + 1);
      else if (pos >= len) fail("Missing value", "The JSON data ends prematurely.", len, len);
      c = bytes[pos];
      break;
    }
  }
}

function commentError(): never {
  fail("Comments are not allowed in JSON", 'JSON has no comment syntax; use a "//" property inside a block to keep a comment.', pos, pos + 2);
}

function parseString(): void {
  const start = pos;
  let i = pos + 1;
  let kind = K_STRING;
  for (;;) {
    const c = bytes[i]; // the 0 after the text ends every scan
    if (c === 34) break;
    if (c > 92) {
      // the bulk of text: letters, digits above "\\"
      i++;
      if ((i & 3) === 0) {
        // then whole words of such bytes, at once
        const w = words;
        for (let x = w[i >> 2]; x !== undefined && stopsString(x) === 0; x = w[i >> 2]) i += 4;
      }
      continue;
    }
    if (c === 92) {
      kind = K_STRING_ESC;
      const e = bytes[i + 1];
      if (e === 117) {
        for (let k = 2; k < 6; k++) {
          const h = bytes[i + k];
          if (!((h >= 48 && h <= 57) || (h >= 97 && h <= 102) || (h >= 65 && h <= 70))) {
            fail("Invalid escape sequence", "\\u must be followed by exactly four hexadecimal digits.", i, i + 2);
          }
        }
        i += 6;
        continue;
      }
      if (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) {
        i += 2;
        continue;
      }
      fail("Invalid escape sequence", 'The only escapes JSON allows are \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX.', i, i + 2);
    }
    if (!(c >= 32)) {
      if (i >= len) fail("Unterminated string", "The string has no closing double quote.", start, start + 1);
      if (c === 10 || c === 13) fail("Unterminated string", "A JSON string cannot contain a raw line break; write it as \\n.", start, i);
      fail("Invalid character in string", "Control characters must be escaped in JSON strings (for example \\t for a tab).", i, i + 1);
    }
    i++;
  }
  pos = i + 1;
  leaf(kind, start, pos);
}

function parseNumber(): void {
  const start = pos;
  let i = pos;
  let c = bytes[i];
  if (c === 45) c = bytes[++i];
  if (c === 48) {
    c = bytes[++i];
    if (c >= 48 && c <= 57) fail("Invalid JSON number", "A JSON number cannot have leading zeros.", start, i + 1);
  } else if (c >= 49 && c <= 57) {
    do c = bytes[++i];
    while (c >= 48 && c <= 57);
  } else {
    fail("Invalid JSON number", "A minus sign must be followed by digits.", start, i + 1);
  }
  if (c === 46) {
    c = bytes[++i];
    if (!(c >= 48 && c <= 57)) fail("Invalid JSON number", "A decimal point must be followed by digits.", start, i + 1);
    do c = bytes[++i];
    while (c >= 48 && c <= 57);
  }
  if (c === 101 || c === 69) {
    c = bytes[++i];
    if (c === 43 || c === 45) c = bytes[++i];
    if (!(c >= 48 && c <= 57)) fail("Invalid JSON number", "An exponent must be followed by digits.", start, i + 1);
    do c = bytes[++i];
    while (c >= 48 && c <= 57);
  }
  pos = i;
  leaf(K_NUMBER, start, i);
}

const KEYWORDS = ["true", "false", "null"];

function parseOther(): void {
  const start = pos;
  let i = pos;
  while (i < len) {
    const c = bytes[i];
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95) i++;
    else break;
  }
  const wordLen = i - start;
  if (wordLen === 4 && src.startsWith("true", start)) {
    pos = i;
    return leaf(K_TRUE, start, i);
  }
  if (wordLen === 5 && src.startsWith("false", start)) {
    pos = i;
    return leaf(K_FALSE, start, i);
  }
  if (wordLen === 4 && src.startsWith("null", start)) {
    pos = i;
    return leaf(K_NULL, start, i);
  }
  if (wordLen > 0) {
    const word = src.slice(start, i);
    const lower = word.toLowerCase();
    const guess = KEYWORDS.find((k) => k === lower || (lower.length >= 2 && k.startsWith(lower)));
    const hint = guess ? ` Did you mean "${guess}"?` : " A string value must be in double quotes.";
    fail("Invalid JSON keyword", `The JSON keyword "${word.length > 40 ? `${word.slice(0, 40)}…` : word}" is not valid.${hint}`, start, i);
  }
  if (start >= len) fail("Missing value", "The file ends where a JSON value was expected.", start, start);
  const c = src.charCodeAt(start);
  if (c === 47) commentError();
  if (c === 39) fail("Invalid character", "JSON strings must use double quotes, not single quotes.", start, start + 1);
  if (c === 125 || c === 93 || c === 44 || c === 58) fail("Missing value", "A JSON value was expected here.", start, start + 1);
  fail("Invalid character", "This character is not used within JSON syntax.", start, start + 1);
}
