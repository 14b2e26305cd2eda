// A native file's body in the JSON syntax's tree: the one model every rule reads. Blocks become
// objects under their type and labels, attributes properties; a literal (number, bool, null,
// quoted string without anything to interpolate), a tuple and an object keep their shape, so that
// block shapes, conversions and value rules see what they see in a `.tf.json` file; any other
// expression becomes the template "${…}" of its own source text, which the expression grammar
// reads as it reads a JSON string's. Arguments that take static references or keywords (depends_on,
// ignore_changes, moved.from, variable.type, when, …) are written as the bare strings the JSON
// syntax uses there.
//
// Each piece of JSON written remembers where it came from, so a position in the JSON text maps
// back to the native file (toNative): diagnostics, code frames and "already set at" point into the
// `.tf` file. A property that was a block in the native file (not `name = {…}`) is remembered too
// (blockKeys), for the rules where Terraform tells the two apart.
import { Lexer, quoteEnd, escapeAt, T } from "../../expr/lexer.js";
import type { NativeBlock, NativeBody, NativeFile, NativeItem } from "./parser.js";
import { LineMap, type Position } from "../positions.js";

export interface LoweredNative {
  /** the JSON text the rules read */
  json: string;
  /** an offset in `json` → the offset in the native text it stands for */
  toNative(offset: number): number;
  /** JSON offsets of the property names that were blocks in the native file */
  blockKeys: Set<number>;
}

/** A native file's own text, and where a position of its lowered JSON text is in it. */
export interface NativeSource {
  text: string;
  toNative(offset: number): number;
  /** JSON offsets of property names that were blocks in the native file */
  blockKeys: Set<number>;
  /** what Terraform's loader refuses in the file's block structure (structure.ts), offsets into `text` */
  problems: { summary: string; detail: string; offset: number; endOffset: number }[];
}

/** Lines and columns of the native text, asked with offsets of the lowered JSON text. */
export class MappedLineMap extends LineMap {
  constructor(
    text: string,
    private readonly toNative: (offset: number) => number,
  ) {
    super(text);
  }

  override position(offset: number): Position {
    return super.position(this.toNative(offset));
  }
}

/** Arguments whose value is static references or keywords, by the block type they belong to ("*": any). */
const STATIC: Record<string, ReadonlySet<string>> = {
  "*": new Set(["depends_on", "ignore_changes", "replace_triggered_by", "providers", "configuration_aliases"]),
  resource: new Set(["provider"]),
  data: new Set(["provider"]),
  ephemeral: new Set(["provider"]),
  import: new Set(["to", "provider"]),
  moved: new Set(["from", "to"]),
  removed: new Set(["from"]),
  variable: new Set(["type"]),
  provisioner: new Set(["when", "on_failure"]),
  dynamic: new Set(["iterator"]),
};

/** How many pieces the writer joins at a time: the pieces die young, only the joined text stays. */
const PIECES_PER_CHUNK = 512;

class Writer {
  /** the pieces written since the last chunk, and the chunks joined so far */
  private readonly pieces: string[] = [];
  private readonly chunks: string[] = [];
  length = 0;
  /**
   * per piece written, four numbers: its JSON offset, the native offset it maps to, and the native
   * range it stays in (typed: millions of numbers the garbage collector need not visit)
   */
  private map = new Int32Array(4096);
  private count = 0;
  readonly blockKeys = new Set<number>();

  constructor(
    readonly text: string,
    /** items Terraform's loader drops (structure.ts): not written */
    readonly skip: ReadonlySet<NativeItem>,
    /** the file sets some argument twice (the parser said so): only the first of a name is written */
    readonly repeatedNames: boolean,
  ) {}

  /**
   * Writes `s`, whose first character stands for native offset `from`; the characters after it
   * advance from there, kept within [low, to].
   */
  put(s: string, from: number, to = from, low = from): void {
    let map = this.map;
    const at = this.count * 4;
    if (at === map.length) {
      map = new Int32Array(map.length * 2);
      map.set(this.map);
      this.map = map;
    }
    map[at] = this.length;
    map[at + 1] = from;
    map[at + 2] = low;
    map[at + 3] = Math.max(low, to);
    this.count++;
    this.pieces.push(s);
    if (this.pieces.length === PIECES_PER_CHUNK) this.flush();
    this.length += s.length;
  }

  private flush(): void {
    this.chunks.push(this.pieces.join(""));
    this.pieces.length = 0;
  }

  /** A JSON string holding `value`, its quote at native `from` (its contents from `from + 1`). */
  string(value: string, from: number, to: number, low = from): void {
    this.put(JSON.stringify(value), from, to, low);
  }

  key(name: string, from: number, to: number, block = false): void {
    if (block) this.blockKeys.add(this.length);
    const quoted = JSON.stringify(name);
    // the colon maps to `to`: written with the name when the name's own mapping takes it there
    // (its last character is clamped to `to`), which is so unless escapes made the native longer
    if (quoted.length >= to - from + 1) this.put(`${quoted}:`, from - 1, to, from);
    else {
      this.put(quoted, from - 1, to, from);
      this.put(":", to);
    }
  }

  /** The template "${source}" of the expression at [from, to). */
  template(from: number, to: number): void {
    const source = this.text.slice(from, to);
    // a heredoc's end marker must stand on its own line before the closing brace (a heredoc may
    // end the expression after an operator too: `x == <<EOT`); a newline in an interpolation is nothing
    const close = source.includes("<<") ? "\n}" : "}";
    const json = JSON.stringify(`\${${source}${close}`);
    // "${" shifts the source by two (plus the quote): the first characters map to the expression's start
    if (json.length === source.length + close.length + 4) {
      this.put(json, from - 3, to, from);
      return;
    }
    // escapes make the JSON longer than the source: a piece from each, so every offset maps exactly
    this.put('"${', from - 3, to, from);
    let run = from;
    for (let i = from; i < to; i++) {
      // what JSON.stringify escapes: a quote, a backslash, control characters
      const c = this.text.charCodeAt(i);
      if (c >= 0x20 && c !== 34 && c !== 92) continue;
      if (i > run) this.put(this.text.slice(run, i), run, to, from);
      this.put(JSON.stringify(this.text[i]!).slice(1, -1), i, to, from);
      run = i + 1;
    }
    if (to > run) this.put(this.text.slice(run, to), run, to, from);
    this.put(`${JSON.stringify(close).slice(1, -1)}"`, to, to, from);
  }

  /** The JSON text written. */
  json(): string {
    this.flush();
    return this.chunks.length === 1 ? this.chunks[0]! : this.chunks.join("");
  }

  toNative(): (offset: number) => number {
    const map = this.map.slice(0, this.count * 4);
    const count = this.count;
    return (offset) => {
      let lo = 0;
      let hi = count - 1;
      if (hi < 0) return 0;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (map[mid * 4]! <= offset) lo = mid;
        else hi = mid - 1;
      }
      const at = map[lo * 4 + 1]! + (offset - map[lo * 4]!);
      return Math.min(Math.max(at, map[lo * 4 + 2]!), map[lo * 4 + 3]!);
    };
  }
}

export function lowerNative(file: NativeFile, skip: ReadonlySet<NativeItem> = new Set(), repeatedNames = false): LoweredNative {
  const w = new Writer(file.text, skip, repeatedNames);
  w.put("{", 0);
  writeBody(w, file.body, "", true);
  w.put("}", file.text.length);
  return { json: w.json(), toNative: w.toNative(), blockKeys: w.blockKeys };
}

/** The members of a body (without its braces), each block under its type and labels. */
function writeBody(w: Writer, body: NativeBody, blockType: string, root: boolean): void {
  // a separator stands for the end of what it follows (an error's range ends there)
  let previousEnd = -1;
  // an argument set twice is reported by the parser; HCL keeps the first
  let names: Set<string> | null = null;
  for (const item of body.items) {
    if (w.skip.has(item)) continue;
    if (item.kind === "attribute" && w.repeatedNames) {
      names ??= new Set();
      if (names.has(item.name)) continue;
      names.add(item.name);
    }
    if (previousEnd >= 0) w.put(",", previousEnd);
    previousEnd = item.range.end;
    if (item.kind === "attribute") {
      w.key(item.name, item.nameRange.start, item.nameRange.end);
      const statics = (STATIC[blockType]?.has(item.name) ?? false) || (!root && STATIC["*"]!.has(item.name));
      writeValue(w, item.exprRange.start, item.exprRange.end, statics, 0, blockType === "required_providers" ? REQUIREMENT_STATICS : null);
    } else writeBlock(w, item);
  }
}

function writeBlock(w: Writer, block: NativeBlock): void {
  w.key(block.type, block.typeRange.start, block.typeRange.end, true);
  for (let i = 0; i < block.labels.length; i++) {
    const r = block.labelRanges[i]!;
    w.put("{", r.start);
    // a quoted label's range holds its quotes
    const quoted = w.text.charCodeAt(r.start) === 34;
    w.key(block.labels[i]!, quoted ? r.start + 1 : r.start, quoted ? r.end - 1 : r.end);
  }
  w.put("{", block.openBraceRange.start);
  writeBody(w, block.body, block.type, false);
  // Terraform reports what a native body lacks at its opening brace (a JSON body's, at its closing one)
  w.put("}", block.openBraceRange.start);
  for (let i = 0; i < block.labels.length; i++) w.put("}", block.closeBraceRange.start);
}

/** A provider requirement's entries that hold static references (`configuration_aliases = [tsdb.peer]`). */
const REQUIREMENT_STATICS: ReadonlySet<string> = new Set(["configuration_aliases"]);

/**
 * The expression at [from, to): its JSON shape (see the file's comment). `statics`: bare strings
 * for references and keywords (and an object's keys may be references: `providers = { tsdb.peer
 * = tsdb.p }`); `staticKeys`: an object's entries whose values are static.
 */
function writeValue(w: Writer, from: number, to: number, statics: boolean, depth: number, staticKeys: ReadonlySet<string> | null = null): void {
  const text = w.text;
  const shape = depth < 200 ? shapeOf(text, from, to, statics) : null;
  if (shape?.kind === "literal") {
    // HCL reads a number with leading zeros (`04`) as JSON cannot: the same number without them
    const literal = text.slice(from, to).replace(/^0+(?=\d)/, "");
    w.put(literal, from, to);
    return;
  }
  if (shape?.kind === "string") {
    w.string(shape.value, from, to);
    return;
  }
  if (shape?.kind === "tuple") {
    w.put("[", from);
    shape.items.forEach(([a, b], i) => {
      if (i > 0) w.put(",", shape.items[i - 1]![1]);
      writeValue(w, a, b, statics, depth + 1);
    });
    w.put("]", to - 1);
    return;
  }
  if (shape?.kind === "object") {
    w.put("{", from);
    // HCL's object constructor keeps the last of a key given twice, without an error (a JSON object would have two)
    const entries = withoutEarlierDuplicates(shape.entries);
    entries.forEach((e, i) => {
      if (i > 0) w.put(",", entries[i - 1]!.valueTo);
      if (e.key !== null) w.key(e.key, e.keyFrom, e.keyTo);
      else {
        w.template(e.keyFrom, e.keyTo);
        w.put(":", e.keyTo);
      }
      writeValue(w, e.valueFrom, e.valueTo, statics || (staticKeys !== null && e.key !== null && staticKeys.has(e.key)), depth + 1);
    });
    w.put("}", to - 1);
    return;
  }
  if (statics) w.string(text.slice(from, to), from - 1, to, from);
  else w.template(from, to);
}

/** The entries without those whose literal key comes again later. */
function withoutEarlierDuplicates<E extends { key: string | null }>(entries: E[]): E[] {
  const last = new Map<string, number>();
  entries.forEach((e, i) => {
    if (e.key !== null) last.set(e.key, i);
  });
  if (last.size === entries.filter((e) => e.key !== null).length) return entries;
  return entries.filter((e, i) => e.key === null || last.get(e.key) === i);
}

type Shape =
  | { kind: "literal" }
  | { kind: "string"; value: string }
  | { kind: "tuple"; items: [number, number][] }
  | { kind: "object"; entries: { key: string | null; keyFrom: number; keyTo: number; valueFrom: number; valueTo: number }[] };

/** What the expression at [from, to) is, when it is a literal or a plain tuple or object (null otherwise). */
function shapeOf(text: string, from: number, to: number, referenceKeys = false): Shape | null {
  const lx = new Lexer(text);
  lx.limit = to;
  // every "}" is punctuation here (there is no interpolation to close)
  lx.braces = 1 << 30;
  try {
    lx.seek(from);
    if (lx.k === T.Number || (lx.k === T.Ident && (lx.isWord("true") || lx.isWord("false") || lx.isWord("null")))) {
      lx.next();
      return (lx.k as T) === T.EOF ? { kind: "literal" } : null;
    }
    if (lx.k === T.Quote) {
      const close = quoteEnd(text, lx.b, to);
      if (close !== to - 1) return null;
      return literalString(text, lx.b, close);
    }
    if (lx.isPunct("[")) return tupleOf(lx, to);
    if (lx.isPunct("{")) return objectOf(lx, text, to, referenceKeys);
  } catch {
    // a token the lexer refuses: the expression grammar reports it, as a template
  }
  return null;
}

/** A quoted string's value with nothing to interpolate (a template's stays a template: null). */
function literalString(text: string, from: number, to: number): Shape | null {
  let value = "";
  for (let i = from; i < to; ) {
    const c = text.charCodeAt(i);
    if (c === 92) {
      const escaped = escapeAt(text, i, to);
      if (escaped === null) return null;
      value += escaped[0];
      i = escaped[1];
      continue;
    }
    // "${" and "%{" (and their escapes "$${", "%%{") mean the same in a JSON string: kept as written
    value += text[i];
    i++;
  }
  return { kind: "string", value };
}

/** Skips one item: to the "," or closing bracket at its own depth; false at anything it cannot skip. */
function skipItem(lx: Lexer, text: string, to: number, stopAtNewline: boolean): boolean {
  let depth = 0;
  for (;;) {
    if (lx.k === T.EOF || lx.k === T.Heredoc) return false;
    if (depth === 0 && (lx.isPunct(",") || lx.isPunct("]") || lx.isPunct("}"))) return true;
    if (depth === 0 && stopAtNewline && lx.nl) return true;
    if (lx.k === T.Quote) {
      const close = quoteEnd(text, lx.b, to);
      if (close < 0) return false;
      lx.seek(close + 1);
      continue;
    }
    if (lx.isPunct("[") || lx.isPunct("{") || lx.isPunct("(")) depth++;
    else if (lx.isPunct("]") || lx.isPunct("}") || lx.isPunct(")")) depth--;
    lx.next();
    // an object's value ends at a newline outside brackets
    if (depth === 0 && stopAtNewline && lx.nl) return true;
  }
}

function tupleOf(lx: Lexer, to: number): Shape | null {
  const text = lx.s;
  lx.next();
  if (lx.isWord("for")) return null;
  const items: [number, number][] = [];
  while (!lx.isPunct("]")) {
    const start = lx.a;
    if (!skipItem(lx, text, to, false) || lx.a === start) return null;
    items.push([start, lx.last]);
    if (lx.isPunct(",")) lx.next();
    else if (!lx.isPunct("]")) return null;
  }
  lx.next();
  return lx.k === T.EOF ? { kind: "tuple", items } : null;
}

function objectOf(lx: Lexer, text: string, to: number, referenceKeys: boolean): Shape | null {
  lx.next();
  if (lx.isWord("for")) return null;
  const entries: { key: string | null; keyFrom: number; keyTo: number; valueFrom: number; valueTo: number }[] = [];
  while (!lx.isPunct("}")) {
    let key: string | null;
    const keyFrom = lx.a;
    if (lx.k === T.Ident) {
      key = text.slice(lx.a, lx.b);
      lx.next();
      if (referenceKeys && lx.isPunct(".")) {
        // a reference as the key (a provider's local name and alias): its text
        while (lx.isPunct(".")) {
          lx.next();
          if (lx.k !== T.Ident) return null;
          lx.next();
        }
        key = text.slice(keyFrom, lx.last);
      }
    } else if (lx.k === T.Quote) {
      const close = quoteEnd(text, lx.b, to);
      if (close < 0) return null;
      const s = literalString(text, lx.b, close);
      if (s?.kind !== "string") return null;
      key = s.value;
      lx.seek(close + 1);
    } else return null;
    const keyTo = lx.last;
    if (!lx.isPunct("=") && !lx.isPunct(":")) return null;
    lx.next();
    const valueFrom = lx.a;
    if (!skipItem(lx, text, to, true) || lx.a === valueFrom) return null;
    entries.push({ key, keyFrom, keyTo, valueFrom, valueTo: lx.last });
    if (lx.isPunct(",")) lx.next();
    else if (!lx.isPunct("}") && !lx.nl) return null;
  }
  lx.next();
  return lx.k === T.EOF ? { kind: "object", entries } : null;
}
