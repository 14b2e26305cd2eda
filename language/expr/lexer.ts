// HCL's native tokens over a string: identifiers, numbers, quoted strings and heredocs, punctuation,
// and the brace that closes an interpolation; with Terraform's words for an invalid character.
// The template and expression parser (template-parser.ts) reads them one at a time.

import type { SyntaxProblem } from "./syntax-tree.js";

export class Fail {
  constructor(readonly problem: SyntaxProblem) {}
}

export function fail(summary: string, detail: string, offset: number, end?: number): never {
  throw new Fail(end === undefined ? { summary, detail, offset } : { summary, detail, offset, end });
}

export function failMentioning(summary: string, detail: string, offset: number, end: number, mention: NonNullable<SyntaxProblem["mention"]>): never {
  throw new Fail({ summary, detail, offset, end, mention });
}

export const EXTRA_AFTER_INTERPOLATION =
  'Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with "$${" instead of just "${".';
export const INVALID_EXPRESSION = "Expected the start of an expression, but found an invalid expression token.";

// token kinds
export const enum T {
  EOF,
  Ident,
  Number,
  Quote,
  Heredoc,
  Punct,
  /** the "}" or "~}" that ends the interpolation or directive */
  Close,
}

/**
 * Non-ASCII identifier characters as HCL's scanner reads them (Unicode ID_Start, ID_Continue), by
 * UTF-16 code unit, looked up once each: 1 start, 2 continue only, 3 neither. The halves of a
 * surrogate pair pass (a letter outside the BMP is rare, and Terraform takes it).
 */
const UNICODE_IDENT = new Uint8Array(65536);
const ID_START = /^\p{ID_Start}$/u;
const ID_CONTINUE = /^\p{ID_Continue}$/u;

function unicodeIdent(c: number): number {
  let kind = UNICODE_IDENT[c]!;
  if (kind === 0) {
    const ch = String.fromCharCode(c);
    kind = (c >= 0xd800 && c <= 0xdfff) || ID_START.test(ch) ? 1 : ID_CONTINUE.test(ch) ? 2 : 3;
    UNICODE_IDENT[c] = kind;
  }
  return kind;
}

export function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (c > 127 && unicodeIdent(c) === 1);
}
export function isIdentPart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (c >= 48 && c <= 57) || c === 45 || (c > 127 && unicodeIdent(c) <= 2);
}
/** HCL's identifier: a letter or underscore, then letters, digits, underscores and dashes. */
export function isIdentifier(name: string): boolean {
  if (name === "" || !isIdentStart(name.charCodeAt(0))) return false;
  for (let i = 1; i < name.length; i++) if (!isIdentPart(name.charCodeAt(i))) return false;
  return true;
}
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** punctuation by its characters' codes (c1 * 128 + c2 for two), so that no token text is sliced */
const TWO_CHAR = new Map(["==", "!=", "<=", ">=", "&&", "||", "=>", "::"].map((p) => [p.charCodeAt(0) * 128 + p.charCodeAt(1), p]));
const SINGLE: (string | undefined)[] = [];
for (const p of "+-*/%<>!?:=.,()[]{}") SINGLE[p.charCodeAt(0)] = p;

/** The token reader the parser extends: the current token and how to move to the next. */
export class Lexer {
  /** current token: kind, start, end, and whether a newline came before it */
  k: T = T.EOF;
  /** the punctuation's text, when k is Punct */
  p = "";
  a = 0;
  b = 0;
  nl = false;
  /** where the current expression's text ends (the end of the template holding it) */
  limit = 0;
  /** how many "{" of objects and for expressions are open (a "}" then closes one of them) */
  braces = 0;
  /** where the first newline before the current token is, when `nl` */
  nlAt = 0;
  /** the end of the token before the current one */
  last = 0;

  constructor(readonly s: string) {}

  /** Moves to the token starting at or after `i`. */
  seek(i: number): void {
    this.b = i;
    this.next();
  }

  next(): void {
    const s = this.s;
    let i = this.b;
    let nl = false;
    this.last = i;
    for (;;) {
      if (i >= this.limit) {
        this.k = T.EOF;
        this.a = this.b = this.limit;
        this.nl = nl;
        return;
      }
      const c = s.charCodeAt(i);
      if (c === 32 || c === 9 || c === 13) i++;
      else if (c === 10) {
        if (!nl) this.nlAt = i;
        nl = true;
        i++;
      } else if (c === 35 || (c === 47 && s.charCodeAt(i + 1) === 47)) {
        // "#" and "//" comments run to the end of the line
        while (i < this.limit && s.charCodeAt(i) !== 10) i++;
      } else if (c === 47 && s.charCodeAt(i + 1) === 42) {
        const close = s.indexOf("*/", i + 2);
        i = close < 0 || close + 2 > this.limit ? this.limit : close + 2;
      } else break;
    }
    this.nl = nl;
    this.a = i;
    const c = s.charCodeAt(i);
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < this.limit && isIdentPart(s.charCodeAt(j))) j++;
      this.k = T.Ident;
      this.b = j;
      return;
    }
    if (isDigit(c)) {
      // HCL's scanner takes digits, dots and exponents ("e5", "e-5") as one number token, never
      // ending in a dot: "1.30.e-309" is one (invalid) number, "1.foo" a number and an attribute
      let j = i + 1;
      while (j < this.limit) {
        const d = s.charCodeAt(j);
        const exponent = d === 101 || d === 69 ? exponentLength(s, j, this.limit) : 0;
        if (isDigit(d)) j++;
        else if (exponent > 0) j += exponent;
        else if (d === 46 && j + 1 < this.limit && (isDigit(s.charCodeAt(j + 1)) || exponentLength(s, j + 1, this.limit) > 0)) j++;
        else break;
      }
      this.k = T.Number;
      this.b = j;
      return;
    }
    if (c === 34) {
      this.k = T.Quote;
      this.b = i + 1;
      return;
    }
    if (c === 126 && s.charCodeAt(i + 1) === 125) {
      this.k = T.Close;
      this.b = i + 2;
      return;
    }
    if (c === 125) {
      // a "}" closes the sequence unless an object or for expression opened a brace
      this.k = this.braces === 0 ? T.Close : T.Punct;
      this.p = "}";
      this.b = i + 1;
      return;
    }
    if (c === 60 && s.charCodeAt(i + 1) === 60 && i + 2 < this.limit) {
      this.k = T.Heredoc;
      this.b = i + 2;
      return;
    }
    if (c === 46 && s.charCodeAt(i + 1) === 46 && s.charCodeAt(i + 2) === 46) {
      this.k = T.Punct;
      this.p = "...";
      this.b = i + 3;
      return;
    }
    const two = i + 2 <= this.limit ? TWO_CHAR.get(c * 128 + s.charCodeAt(i + 1)) : undefined;
    if (two !== undefined) {
      this.k = T.Punct;
      this.p = two;
      this.b = i + 2;
      return;
    }
    const single = c < 128 ? SINGLE[c] : undefined;
    if (single !== undefined) {
      this.k = T.Punct;
      this.p = single;
      this.b = i + 1;
      return;
    }
    if (c === 38) fail("Unsupported operator", 'Bitwise operators are not supported. Did you mean boolean AND ("&&")?', i);
    if (c === 124) fail("Unsupported operator", 'Bitwise operators are not supported. Did you mean boolean OR ("||")?', i);
    if (c === 39) fail("Invalid character", 'Single quotes are not valid. Use double quotes (") to enclose strings.', i);
    fail("Invalid character", "This character is not used within the language.", i);
  }

  isPunct(p: string): boolean {
    return this.k === T.Punct && this.p === p;
  }

  isWord(w: string): boolean {
    return this.k === T.Ident && this.b - this.a === w.length && this.s.startsWith(w, this.a);
  }

}

/** The length of an exponent ("e5", "E+5", "e-5") at `j`, or 0. */
function exponentLength(s: string, j: number, limit: number): number {
  const e = s.charCodeAt(j);
  if (e !== 101 && e !== 69) return 0;
  let k = j + 1;
  const sign = s.charCodeAt(k);
  if (sign === 43 || sign === 45) k++;
  return k < limit && isDigit(s.charCodeAt(k)) ? k + 1 - j : 0;
}

/**
 * The offset of the quote closing a quoted template that starts at `from`; when there is none,
 * -1 at the end of the text, or `-2 - i` when a newline at `i` (before its CR, if any) splits the
 * template's text or a string nested in its interpolations. Iterative: strings nested in
 * interpolations nested in strings cost no call stack.
 */
export function quoteEnd(s: string, from: number, limit: number): number {
  // most strings are plain text up to their quote
  for (let i = from; i < limit; i++) {
    const c = s.charCodeAt(i);
    if (c === 34) return i;
    if (c === 92 || c === 10 || c === 36 || c === 37) break;
  }
  // open strings and interpolations, innermost last: -1 for a string, an interpolation's brace depth
  const open: number[] = [-1];
  for (let i = from; i < limit; i++) {
    const c = s.charCodeAt(i);
    const top = open[open.length - 1]!;
    if (c === 92) i++;
    else if (top < 0) {
      if (c === 34) {
        open.pop();
        if (open.length === 0) return i;
      } else if (c === 10) return -2 - (s.charCodeAt(i - 1) === 13 ? i - 1 : i);
      else if ((c === 36 || c === 37) && s.charCodeAt(i + 1) === 123 && s.charCodeAt(i - 1) !== c) {
        open.push(0);
        i++;
      }
    } else if (c === 34) open.push(-1);
    else if (c === 123) open[open.length - 1] = top + 1;
    else if (c === 125) {
      if (top === 0) open.pop();
      else open[open.length - 1] = top - 1;
    }
  }
  return -1;
}

/** The backslash escape of a quoted string at `i` (`\n`, `\uNNNN`, …): its text and the offset after it, or null. */
export function escapeAt(s: string, i: number, to = s.length): [string, number] | null {
  const c = s[i + 1];
  switch (c) {
    case "n":
      return ["\n", i + 2];
    case "r":
      return ["\r", i + 2];
    case "t":
      return ["\t", i + 2];
    case '"':
      return ['"', i + 2];
    case "\\":
      return ["\\", i + 2];
    case "u":
    case "U": {
      const n = c === "u" ? 4 : 8;
      const hex = s.slice(i + 2, i + 2 + n);
      if (hex.length === n && /^[0-9a-fA-F]+$/.test(hex) && i + 2 + n <= to) {
        const code = parseInt(hex, 16);
        // a surrogate half is no character either (HCL escapes runes, not UTF-16 units)
        if (code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)) return [String.fromCodePoint(code), i + 2 + n];
      }
      break;
    }
  }
  return null;
}

/** One backslash escape of a quoted template at `i`: its text and the offset after it. */
export function quotedEscape(s: string, i: number, to: number, at: number): [string, number] {
  const escaped = escapeAt(s, i, to);
  if (escaped !== null) return escaped;
  fail("Invalid escape sequence", `The symbol "${s[i + 1] ?? ""}" is not a valid escape sequence selector.`, at);
}
