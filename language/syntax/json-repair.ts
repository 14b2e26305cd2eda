// What Terraform still reads of a `.tf.json` file with a syntax error. HCL's JSON parser does not
// stop at the first error: an object or array that fails becomes an invalid value (at its opening
// token) and its parent reads on from wherever the recovery left the tokens, so the rest of the
// file is decoded too, and the invalid value where a block belongs is "Incorrect JSON value type"
// there (`terraform init` reports only those). repairJson writes that reading as JSON text with
// the same offsets: skipped tokens blanked, each invalid value a `0` at its first character, and
// everything after the root value blanked; the rules then read it as any other file. null when the
// reading cannot be written so (an invalid value with no room for its `0`, or an invalid root).

const enum Tok {
  BraceO,
  BraceC,
  BrackO,
  BrackC,
  Comma,
  Colon,
  Equals,
  String,
  Number,
  Keyword,
  Invalid,
  EOF,
}

/** The tokens of a text: their types, and where each starts and ends (typed arrays: a file may hold millions). */
interface Tokens {
  types: Uint8Array;
  starts: Int32Array;
  ends: Int32Array;
}

/** A token's place in Tokens. */
type Token = number;

function scan(text: string): Tokens {
  const len = text.length;
  // at most one token per character, and the end
  let types = new Uint8Array(64);
  let starts = new Int32Array(64);
  let ends = new Int32Array(64);
  let n = 0;
  const push = (type: Tok, start: number, end: number) => {
    if (n === types.length) {
      const t = new Uint8Array(n * 2);
      t.set(types);
      types = t;
      const s = new Int32Array(n * 2);
      s.set(starts);
      starts = s;
      const e = new Int32Array(n * 2);
      e.set(ends);
      ends = e;
    }
    types[n] = type;
    starts[n] = start;
    ends[n++] = end;
  };
  let i = 0;
  while (i < len) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      i++;
      continue;
    }
    const start = i;
    let type: Tok;
    if (c === 123) type = Tok.BraceO;
    else if (c === 125) type = Tok.BraceC;
    else if (c === 91) type = Tok.BrackO;
    else if (c === 93) type = Tok.BrackC;
    else if (c === 44) type = Tok.Comma;
    else if (c === 58) type = Tok.Colon;
    else if (c === 61) type = Tok.Equals;
    else if (c === 34) {
      type = Tok.String;
      i++;
      while (i < len && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 ? 2 : 1;
      i = Math.min(i, len - 1);
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      type = Tok.Number;
      while (i + 1 < len && /[0-9eE.+-]/.test(text[i + 1]!)) i++;
    } else if (/[A-Za-z_]/.test(text[i]!)) {
      type = Tok.Keyword;
      while (i + 1 < len && /[A-Za-z0-9_]/.test(text[i + 1]!)) i++;
    } else type = Tok.Invalid;
    i++;
    push(type, start, i);
  }
  push(Tok.EOF, len, len);
  return { types, starts, ends };
}

/** A value as the recovering parser leaves it: good, or invalid from `start` (its `0` goes there). */
type Node = { ok: true } | { ok: false; start: number };

const GOOD: Node = { ok: true };

class Unrepairable {}

/** Nesting deeper than this is not repaired (the recovering parse is recursive). */
const MAX_REPAIR_DEPTH = 1000;

class Repair {
  p = 0;
  depth = 0;
  /** each invalid value, in the order found: where its `0` goes, and where its parent read on */
  readonly invalid: { at: number; end: number }[] = [];

  constructor(
    readonly text: string,
    readonly tokens: Tokens,
  ) {}

  type(t: Token): Tok {
    return this.tokens.types[t]!;
  }

  start(t: Token): number {
    return this.tokens.starts[t]!;
  }

  peek(): Token {
    return this.p;
  }

  read(): Token {
    const t = this.p;
    if (this.type(t) !== Tok.EOF) this.p++;
    return t;
  }

  /** HCL's wrapInvalid: a failed value is invalid at the token it started at. */
  value(): Node {
    const tok = this.peek();
    const text = this.text.slice(this.start(tok), this.tokens.ends[tok]!);
    let node: Node | null;
    switch (this.type(tok)) {
      case Tok.BraceO:
        node = this.nested(() => this.object());
        break;
      case Tok.BrackO:
        node = this.nested(() => this.array());
        break;
      case Tok.String:
        this.read();
        node = validString(text) ? GOOD : null;
        break;
      case Tok.Number:
        this.read();
        node = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text) ? GOOD : null;
        break;
      case Tok.Keyword:
        this.read();
        node = text === "true" || text === "false" || text === "null" ? GOOD : null;
        break;
      default:
        // nothing is consumed: the invalid value is empty, its `0` goes in the blank before the token
        return { ok: false, start: -1 - this.start(tok) };
    }
    return node ?? { ok: false, start: this.start(tok) };
  }

  nested(parse: () => Node | null): Node | null {
    if (++this.depth > MAX_REPAIR_DEPTH) throw new Unrepairable();
    const node = parse();
    this.depth--;
    return node;
  }

  /** A value its parent keeps: when invalid, its span (up to the next token) becomes its `0`. */
  keep(node: Node): void {
    if (node.ok) return;
    if (node.start >= 0) {
      this.invalid.push({ at: node.start, end: this.start(this.peek()) });
      return;
    }
    // an empty invalid value: the blank just before its token holds the `0`
    const at = -1 - node.start - 1;
    const c = this.text.charCodeAt(at);
    if (!(c === 32 || c === 9 || c === 10 || c === 13) || this.invalid.some((v) => v.at === at)) throw new Unrepairable();
    this.invalid.push({ at, end: at + 1 });
  }

  /** HCL's recover: skips to the close that brings the count back to one (or the end). */
  recover(tok: Token, open: Tok, close: Tok): void {
    let count = 1;
    for (;;) {
      const type = this.type(tok);
      if (type === open) count++;
      else if (type === close) {
        if (--count <= 1) return;
      } else if (type === Tok.EOF) return;
      tok = this.read();
    }
  }

  object(): Node | null {
    this.read();
    for (;;) {
      if (this.type(this.peek()) === Tok.BraceC) break;
      // a name that is not a string fails the object (the object's own `0` covers it)
      const key = this.value();
      if (!key.ok || this.type(this.p - 1) !== Tok.String) return null;
      const colon = this.read();
      if (this.type(colon) !== Tok.Colon) {
        this.recover(colon, Tok.BraceO, Tok.BraceC);
        return null;
      }
      this.keep(this.value());
      const next = this.type(this.peek());
      if (next === Tok.Comma) {
        this.read();
        if (this.type(this.peek()) === Tok.BraceC) return null;
        continue;
      }
      if (next === Tok.BraceC) break;
      if (next === Tok.BrackC) this.read();
      else if (next !== Tok.EOF) this.recover(this.read(), Tok.BraceO, Tok.BraceC);
      return null;
    }
    this.read();
    return GOOD;
  }

  array(): Node | null {
    this.read();
    for (;;) {
      if (this.type(this.peek()) === Tok.BrackC) break;
      this.keep(this.value());
      const next = this.type(this.peek());
      if (next === Tok.Comma) {
        this.read();
        if (this.type(this.peek()) === Tok.BrackC) return null;
        continue;
      }
      if (next === Tok.BrackC) break;
      this.recover(this.read(), Tok.BrackO, Tok.BrackC);
      return null;
    }
    this.read();
    return GOOD;
  }
}

function validString(token: string): boolean {
  try {
    return typeof JSON.parse(token) === "string";
  } catch {
    return false;
  }
}

/** The file as Terraform reads it despite its syntax error (see the file's comment), or null. */
export function repairJson(text: string): string | null {
  const tokens = scan(text);
  const r = new Repair(text, tokens);
  try {
    const root = r.value();
    if (!root.ok) return null;
  } catch (error) {
    if (error instanceof Unrepairable || error instanceof RangeError) return null;
    throw error;
  }
  // what the reading kept: the tokens of the good values, up to where the root ended
  const out = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  const keptUntil = r.p > 0 ? tokens.ends[r.p - 1]! : 0;
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (out[i] !== 10 && out[i] !== 13) out[i] = 32;
  };
  blank(keptUntil, text.length);
  // each invalid value, in the order found (an outer one blanks the inner ones' zeros)
  for (const { at, end } of r.invalid) {
    blank(at, end);
    out[at] = 48;
  }
  return new TextDecoder("utf-16le").decode(out);
}
