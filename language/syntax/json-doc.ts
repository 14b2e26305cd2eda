// The tree the JSON parser (json-parser.ts) makes: flat, one entry per value (and per property
// name) in preorder, stored in typed arrays. Entry `i` has a kind, a start offset and an end
// offset (exclusive), and `next[i]`, the index just after its subtree. The children of a
// container are `i + 1`, `next[i + 1]`, … up to `next[i]`; the children of an object alternate
// property name (a string entry) and value. Strings are decoded only when asked for (json-text.ts).
import { decodeString, numberAt, setOwn } from "./json-text.js";

export const K_OBJECT = 1;
export const K_ARRAY = 2;
export const K_STRING = 3;
export const K_NUMBER = 4;
export const K_TRUE = 5;
export const K_FALSE = 6;
export const K_NULL = 7;
/** a string whose source contains escapes; value() decodes it */
export const K_STRING_ESC = 8;

export type NodeKind = "object" | "array" | "string" | "number" | "boolean" | "null";
const KIND_NAMES: NodeKind[] = ["null", "object", "array", "string", "number", "boolean", "boolean", "null", "string"];


/** A parsed document. Node 0 is the root. */
export class JsonDoc {
  constructor(
    readonly text: string,
    // not readonly: release() takes them away
    public kinds: Uint8Array,
    public starts: Int32Array,
    public ends: Int32Array,
    public nexts: Int32Array,
    public size: number,
  ) {}

  /**
   * Declares the document no longer needed: the next parse reuses its arrays (their pages are
   * already mapped; fresh ones cost a page fault per 4 KB written, about a tenth of the parse of a
   * large file). The document is empty afterwards, so a use after release fails visibly instead of
   * reading another document's entries.
   */
  release(): void {
    if (this.kinds.length > 0 && (spare === null || spare.kinds.length < this.kinds.length) && this.kinds.length <= KEEP_ENTRIES) {
      spare = { kinds: this.kinds, starts: this.starts, ends: this.ends, nexts: this.nexts };
    }
    this.kinds = new Uint8Array(0);
    this.starts = new Int32Array(0);
    this.ends = new Int32Array(0);
    this.nexts = new Int32Array(0);
    this.size = 0;
    this.lastDecoded = -1;
  }

  kindName(i: number): NodeKind {
    return KIND_NAMES[this.kinds[i]!]!;
  }
  isObject(i: number): boolean {
    return this.kinds[i] === K_OBJECT;
  }
  isArray(i: number): boolean {
    return this.kinds[i] === K_ARRAY;
  }
  isString(i: number): boolean {
    const k = this.kinds[i];
    return k === K_STRING || k === K_STRING_ESC;
  }
  isNull(i: number): boolean {
    return this.kinds[i] === K_NULL;
  }
  start(i: number): number {
    return this.starts[i]!;
  }
  end(i: number): number {
    return this.ends[i]!;
  }
  next(i: number): number {
    return this.nexts[i]!;
  }
  /** The decoded value of a string entry. */
  str(i: number): string {
    const k = this.kinds[i];
    if (k === K_STRING) return this.text.slice(this.starts[i]! + 1, this.ends[i]! - 1);
    if (k === K_STRING_ESC) {
      // a value is read by each check in turn (conversion, its template, its references): decoded once
      if (i !== this.lastDecoded) {
        this.lastDecodedText = decodeString(this.text, this.starts[i]! + 1, this.ends[i]! - 1);
        this.lastDecoded = i;
      }
      return this.lastDecodedText;
    }
    return "";
  }
  /** the entry str() decoded last, and its text */
  private lastDecoded = -1;
  private lastDecodedText = "";
  /** The source text of a number entry, exactly as written. */
  raw(i: number): string {
    return this.text.slice(this.starts[i]!, this.ends[i]!);
  }
  /** The value of a number entry as a JavaScript number (may round). */
  num(i: number): number {
    return numberAt(this.text, this.starts[i]!, this.ends[i]!);
  }
  /** Number of children (for an object: number of properties). */
  count(i: number): number {
    let n = 0;
    const end = this.nexts[i]!;
    for (let c = i + 1; c < end; c = this.nexts[c]!) n++;
    return this.kinds[i] === K_OBJECT ? n >> 1 : n;
  }
  /** Child entries of an array. */
  elements(i: number): number[] {
    const out: number[] = [];
    const end = this.nexts[i]!;
    for (let c = i + 1; c < end; c = this.nexts[c]!) out.push(c);
    return out;
  }
  /** Property-name entries of an object, in source order (the value of name `k` is `k + 1`). */
  members(i: number): number[] {
    const out: number[] = [];
    const end = this.nexts[i]!;
    for (let k = i + 1; k < end; k = this.nexts[k + 1]!) out.push(k);
    return out;
  }
  /**
   * The plain JavaScript value of a subtree, like JSON.parse would give (numbers may round,
   * the last duplicate key wins, `__proto__` becomes an ordinary own property).
   */
  toValue(i: number): unknown {
    switch (this.kinds[i]) {
      case K_STRING:
      case K_STRING_ESC:
        return this.str(i);
      case K_NUMBER:
        return this.num(i);
      case K_TRUE:
        return true;
      case K_FALSE:
        return false;
      case K_NULL:
        return null;
      case K_ARRAY: {
        const out: unknown[] = [];
        const end = this.nexts[i]!;
        for (let c = i + 1; c < end; c = this.nexts[c]!) out.push(this.toValue(c));
        return out;
      }
      default: {
        const out: Record<string, unknown> = {};
        const end = this.nexts[i]!;
        for (let k = i + 1; k < end; k = this.nexts[k + 1]!) setOwn(out, this.str(k), this.toValue(k + 1));
        return out;
      }
    }
  }
}

/** Each object in a value: the value itself, or the objects of an array (nested arrays too), as Terraform's JSON blocks may be written. */
export function forObjects(doc: JsonDoc, node: number, each: (object: number) => void): void {
  const kind = doc.kinds[node];
  if (kind === K_OBJECT) each(node);
  else if (kind === K_ARRAY) for (const e of doc.elements(node)) forObjects(doc, e, each);
}

/** Whether any string in a value (object keys too, unless `keys` is false) passes `test`. */
export function someString(doc: JsonDoc, node: number, test: (s: string) => boolean, keys = true): boolean {
  const kind = doc.kinds[node];
  if (kind === K_OBJECT) return doc.members(node).some((k) => (keys && test(doc.str(k))) || someString(doc, k + 1, test, keys));
  if (kind === K_ARRAY) return doc.elements(node).some((e) => someString(doc, e, test, keys));
  return doc.isString(node) && test(doc.str(node));
}

/** The entry arrays of a document, as the parser fills them. */
export interface EntryArrays {
  kinds: Uint8Array;
  starts: Int32Array;
  ends: Int32Array;
  nexts: Int32Array;
}

/** The entry arrays of a released document (JsonDoc.release), for the next parse. */
let spare: EntryArrays | null = null;

/** Released arrays are kept up to the entries the parser makes room for in a 32 MB text. */
const KEEP_ENTRIES = ((32 * 1024 * 1024) >> 3) + 64;

/** A released document's arrays when they hold at least `entries` (the caller writes each entry before reading it), else null. */
export function takeSpare(entries: number): EntryArrays | null {
  const arrays = spare;
  if (arrays === null || arrays.kinds.length < entries) return null;
  spare = null;
  return arrays;
}
