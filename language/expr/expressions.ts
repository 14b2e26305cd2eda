// HCL's native expression syntax inside a JSON string (a template): a parser that reports the first
// syntax error with Terraform's words, checks function calls against Terraform's functions, and
// builds a small syntax tree that values.ts evaluates when every input is known at validate time.
// It works on the decoded string (JSON escapes applied), as Terraform does; offsets are into it.

import { suggest } from "../syntax/suggest.js";
import { checkCall } from "./functions.js";

export type Expr =
  /** `raw`: a number's source text (cty numbers are arbitrary-precision; a double may round it) */
  | { t: "lit"; v: string | number | boolean | null; raw?: string }
  | { t: "tpl"; parts: Expr[] }
  | { t: "var"; name: string }
  | { t: "attr"; of: Expr; name: string }
  | { t: "index"; of: Expr; key: Expr }
  | { t: "call"; name: string; args: Expr[]; expand: boolean }
  | { t: "un"; op: string; x: Expr }
  | { t: "bin"; op: string; l: Expr; r: Expr }
  | { t: "cond"; c: Expr; a: Expr; b: Expr }
  | { t: "tuple"; items: Expr[] }
  | { t: "object"; keys: Expr[]; values: Expr[] }
  /**
   * for expressions, splats, directives: never known at validate time here; `checks` are the
   * parts validate still evaluates on their own (a for's collection and condition, a directive's)
   */
  | { t: "unknown"; checks?: ValueCheck[] };

/**
 * A part of an unknown expression whose known value must be of a kind: a for expression's or
 * for directive's collection must be iterable, an if directive's condition a bool, and a for
 * expression's `if` clause a bool (asked only when its collection has an element).
 */
export type ValueCheck = { kind: "iterable"; e: Expr } | { kind: "if-directive"; e: Expr } | { kind: "for-if"; e: Expr; collection: Expr };

export interface SyntaxProblem {
  summary: string;
  detail: string;
  offset: number;
  /** where Terraform's range for it ends, when that is not the end of the token at `offset` */
  end?: number;
  /**
   * a range the detail names, as Terraform names it ("main.tf:2,8-20"): `detail` says "earlier"
   * instead; a reader that knows the file's name and lines writes `mention.detail(where)`
   */
  mention?: { start: number; end: number; detail: (where: string) => string };
}

export type TraversalStep = { kind: "attr"; name: string } | { kind: "index"; key: string | number | null } | { kind: "splat" };

/** A reference to another object: a name that is not a function, a literal or a for expression's own. */
export interface Reference {
  /** first name, e.g. "tsdb_service", "data", "var" */
  root: string;
  /** its attribute and index steps; an index computed by an expression is the last ({ key: null }) */
  steps: TraversalStep[];
  /** offsets in the decoded string */
  start: number;
  end: number;
}

export type ParseResult =
  | {
      ok: true;
      expr: Expr;
      refs: Reference[];
      /** the expression's span when the template is one interpolation and nothing else */
      only: [number, number] | null;
    }
  | { ok: false; problem: SyntaxProblem };

const UNKNOWN: Expr = { t: "unknown" };

/**
 * How deeply expressions may nest (brackets, calls, templates, unary operators): every pass over
 * the tree recurses, and a stack of this many levels is what each of them can walk.
 */
export const MAX_EXPRESSION_DEPTH = 1000;

function failMentioning(summary: string, detail: string, offset: number, end: number, mention: NonNullable<SyntaxProblem["mention"]>): never {
  throw new Fail({ summary, detail, offset, end, mention });
}

class Fail {
  constructor(readonly problem: SyntaxProblem) {}
}

function fail(summary: string, detail: string, offset: number, end?: number): never {
  throw new Fail(end === undefined ? { summary, detail, offset } : { summary, detail, offset, end });
}

const TEMPLATE_KEYWORDS = ["if", "else", "endif", "for", "endfor"];

const EXTRA_AFTER_INTERPOLATION =
  'Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with "$${" instead of just "${".';
const INVALID_EXPRESSION = "Expected the start of an expression, but found an invalid expression token.";

// token kinds
const enum T {
  EOF,
  Ident,
  Number,
  Quote,
  Heredoc,
  Punct,
  /** the "}" or "~}" that ends the interpolation or directive */
  Close,
}

export function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c > 127;
}
export function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57) || c === 45;
}
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** punctuation by its characters' codes (c1 * 128 + c2 for two), so that no token text is sliced */
const TWO_CHAR = new Map(["==", "!=", "<=", ">=", "&&", "||", "=>", "::"].map((p) => [p.charCodeAt(0) * 128 + p.charCodeAt(1), p]));
const SINGLE: (string | undefined)[] = [];
for (const p of "+-*/%<>!?:=.,()[]{}") SINGLE[p.charCodeAt(0)] = p;
/** binary operators by precedence, loosest first */
const BINARY_LEVEL = new Map<string, number>([["||", 0], ["&&", 1], ["==", 2], ["!=", 2], ["<", 3], [">", 3], ["<=", 3], [">=", 3], ["+", 4], ["-", 4], ["*", 5], ["/", 5], ["%", 5]]);

/** Parses the template `s` (a JSON string's decoded value). */
export function parseTemplate(s: string): ParseResult {
  const p = new Parser(s);
  try {
    const expr = p.template(0, s.length, "file");
    return { ok: true, expr, refs: p.refs, only: p.only };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, problem: e.problem };
    throw e;
  }
}

/** A bare expression of a native file, read from `from` to where it ends. */
export type NativeExpressionResult =
  | {
      ok: true;
      expr: Expr;
      refs: Reference[];
      /** the offset just after the expression's last token */
      end: number;
      /** calls to unknown functions or with wrong argument counts: evaluation errors, not syntax */
      callProblems: SyntaxProblem[];
    }
  | { ok: false; problem: SyntaxProblem };

/**
 * Parses the expression of a native (`.tf`) attribute starting at `from` in `text`: it ends at a
 * newline outside brackets, as HCL's does, or where the next token cannot continue it (a `}`
 * closing a one-line block, a comment). Offsets are into `text`.
 */
export function parseNativeExpression(text: string, from: number): NativeExpressionResult {
  return new NativeExpressionReader(text).read(from);
}

/** No problems: shared, so that an expression without any allocates no list. */
const NO_PROBLEMS: SyntaxProblem[] = [];
Object.freeze(NO_PROBLEMS);
/** No references, likewise (a native reader's results share it: callers never add to `refs`). */
const NO_REFS: Reference[] = [];
Object.freeze(NO_REFS);

/** Reads the expressions of one native file, one parser for all of them (a file has thousands). */
export class NativeExpressionReader {
  private readonly p: Parser;

  constructor(text: string) {
    this.p = new Parser(text);
    this.p.native = true;
    this.p.limit = text.length;
  }

  /** The expression starting at `from` (see parseNativeExpression). */
  read(from: number): NativeExpressionResult {
    const p = this.p;
    p.refs = NO_REFS;
    p.callProblems = NO_PROBLEMS;
    p.nlEnds = true;
    p.braces = 0;
    p.depth = 0;
    p.scope.length = 0;
    p.pendingRef = null;
    p.directiveChecks = null;
    p.flush = false;
    try {
      p.seek(from);
      if (p.k === T.EOF) fail("Missing expression", "Expected the start of an expression, but found the end of the file.", from);
      const expr = p.expression();
      return { ok: true, expr, refs: p.refs, end: p.last, callProblems: p.callProblems };
    } catch (e) {
      if (e instanceof Fail) return { ok: false, problem: e.problem };
      throw e;
    }
  }
}

type TemplateEnd = "file" | "quote" | "heredoc";

/** An `%{if}` or `%{for}` whose end has not come: its keyword, its range, its names, whether it had an else. */
interface OpenDirective {
  word: string;
  at: number;
  end: number;
  names: number;
  hadElse: boolean;
}

class Parser {
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
  /** the references found */
  refs: Reference[] = [];
  /** the reference the term just parsed starts, which postfix() extends with its steps */
  pendingRef: Reference | null = null;
  /** names a for expression or directive declares, while in their scope */
  readonly scope: string[] = [];
  /** set when the whole template is one interpolation: its expression's span */
  only: [number, number] | null = null;
  /** the checks of the directives of the template being read */
  directiveChecks: ValueCheck[] | null = null;
  /** reading a native file (not a JSON string): its own errors for strings split over lines */
  native = false;
  /** a newline ends the expression here (native syntax outside brackets and interpolations) */
  nlEnds = false;
  /** where the first newline before the current token is, when `nl` */
  nlAt = 0;
  /** the end of the token before the current one */
  last = 0;
  /** how deeply the expression being read is nested */
  depth = 0;
  /** the heredoc being read is `<<-`: its lines lose the indentation they share */
  flush = false;
  /** native: call problems are collected here instead of ending the parse */
  callProblems: SyntaxProblem[] | null = null;

  constructor(readonly s: string) {}

  // -------------------------------------------------------------------------------------------
  // Templates

  /** A template over s[from, to): literal text, interpolations and directives. */
  template(from: number, to: number, end: TemplateEnd): Expr {
    const s = this.s;
    let parts: Expr[] = [];
    // the open directives (allocated at the first: most templates have none)
    let open: OpenDirective[] | null = null;
    // the checks of this template's own directives (allocated at the first one)
    const outerChecks = this.directiveChecks;
    this.directiveChecks = null;
    let literal = "";
    let known = true;
    let interpolations = 0;
    // a `<<-` heredoc's line starts in literal text: [part index, offset in that part's text]
    const lineStarts: number[] | null = end === "heredoc" && this.flush ? [] : null;
    let atLineStart = true;
    let indentShared = Infinity;
    this.flush = false;
    let i = from;
    while (i < to) {
      const c = s.charCodeAt(i);
      if (c !== 36 && c !== 37 && c !== 92) {
        // a run of plain text
        let j = i + 1;
        while (j < to) {
          const d = s.charCodeAt(j);
          if (d === 36 || d === 37 || d === 92) break;
          j++;
        }
        if (lineStarts !== null) {
          if (atLineStart) lineStarts.push(parts.length, literal.length);
          for (let k = s.indexOf("\n", i); k >= 0 && k < j - 1; k = s.indexOf("\n", k + 1)) lineStarts.push(parts.length, literal.length + k + 1 - i);
          atLineStart = s.charCodeAt(j - 1) === 10;
        }
        literal += s.slice(i, j);
        i = j;
        continue;
      }
      if (lineStarts !== null) {
        // a line starting with a sequence or an escape has no indentation to share
        if (atLineStart) indentShared = 0;
        atLineStart = false;
      }
      if (c === 36 && s.charCodeAt(i + 1) === 36 && s.charCodeAt(i + 2) === 123) {
        literal += "${";
        i += 3;
        continue;
      }
      if (c === 37 && s.charCodeAt(i + 1) === 37 && s.charCodeAt(i + 2) === 123) {
        literal += "%{";
        i += 3;
        continue;
      }
      if ((c === 36 || c === 37) && s.charCodeAt(i + 1) === 123) {
        if (literal !== "") parts.push({ t: "lit", v: literal });
        literal = "";
        const at = i;
        let j = i + 2;
        if (s.charCodeAt(j) === 126) {
          j++; // "~" strip marker: trims the text around it, which this parser does not model
          known = false;
        }
        if (c === 36) {
          const saved = this.limit;
          const savedBraces = this.braces;
          const savedNl = this.nlEnds;
          this.limit = to;
          this.braces = 0;
          this.nlEnds = false;
          this.seek(j);
          if (this.k === T.EOF) fail("Missing expression", `Expected the start of an expression, but found the end of the ${endName(end)}.`, j);
          const expr = this.expression();
          if ((this.k as T) === T.EOF) this.unclosed(at, end);
          if (this.k !== T.Close) fail("Extra characters after interpolation expression", EXTRA_AFTER_INTERPOLATION, this.a);
          parts.push(expr);
          interpolations++;
          if (from === 0 && at === 0 && end === "file" && this.b === to) this.only = [j, this.a];
          if (s.charCodeAt(this.a) === 126) known = false;
          i = this.b;
          this.limit = saved;
          this.braces = savedBraces;
          this.nlEnds = savedNl;
        } else {
          known = false;
          i = this.directive(at, j, to, end, (open ??= []));
        }
        continue;
      }
      if (end === "quote" && c === 92) {
        // HCL points at the backslash; a JSON string's column is the selector's
        const [text, next] = quotedEscape(s, i, to, this.native ? i : i + 1);
        literal += text;
        i = next;
        continue;
      }
      literal += s[i];
      i++;
    }
    if (open !== null && open.length > 0) {
      const top = open[open.length - 1]!;
      failMentioning("Unexpected end of template", `The ${top.word} directive is missing its corresponding end${top.word} directive.`, to, to + 1, {
        start: top.at,
        end: top.end,
        detail: (where) => `The ${top.word} directive at ${where} is missing its corresponding end${top.word} directive.`,
      });
    }
    if (lineStarts !== null && known) {
      if (literal !== "") parts.push({ t: "lit", v: literal });
      literal = "";
      stripSharedIndent(parts, lineStarts, indentShared);
    }
    const checks = this.directiveChecks as ValueCheck[] | null;
    this.directiveChecks = outerChecks;
    if (!known) return checks !== null ? { t: "unknown", checks } : UNKNOWN;
    if (literal !== "") parts.push({ t: "lit", v: literal });
    // a template that is one interpolation and nothing else has the value of its expression, not a string
    if (parts.length === 1 && interpolations === 1) return parts[0]!;
    // (a list grown by push keeps room for 17 parts)
    if (this.native && parts.length > 0) parts = parts.slice();
    // a string or heredoc without sequences is a string literal (one node, not three)
    if (interpolations === 0 && end !== "file") return parts.length === 0 ? { t: "lit", v: "" } : parts[0]!;
    return { t: "tpl", parts };
  }

  /** One `%{ … }` directive starting at `at`, its keyword at `j`; returns the offset after it. */
  directive(at: number, j: number, to: number, end: TemplateEnd, open: OpenDirective[]): number {
    const saved = this.limit;
    const savedBraces = this.braces;
    const savedNl = this.nlEnds;
    this.limit = to;
    this.braces = 0;
    this.nlEnds = false;
    this.seek(j);
    if (this.k !== T.Ident) {
      if (this.k === T.EOF) this.unclosed(at, end);
      fail("Invalid template directive", 'A template directive keyword ("if", "for", etc) is expected at the beginning of a %{ sequence.', this.a);
    }
    const word = this.s.slice(this.a, this.b);
    const wordAt = this.a;
    this.next();
    switch (word) {
      case "if":
        (this.directiveChecks ??= []).push({ kind: "if-directive", e: this.expression() });
        this.closeMarker("if", at, end);
        open.push({ word, at, end: this.b, names: 0, hadElse: false });
        break;
      case "for": {
        if (this.k !== T.Ident) fail("Invalid 'for' directive", "For directive requires variable name after 'for'.", this.a);
        const names = [this.s.slice(this.a, this.b)];
        this.next();
        if (this.isPunct(",")) {
          this.next();
          if (this.k !== T.Ident) fail("Invalid 'for' directive", "For directive requires value variable name after comma.", this.a);
          names.push(this.s.slice(this.a, this.b));
          this.next();
        }
        if (!this.isWord("in")) fail("Invalid 'for' directive", "For directive requires 'in' keyword after names.", this.a);
        this.next();
        (this.directiveChecks ??= []).push({ kind: "iterable", e: this.expression() });
        this.closeMarker("for", at, end);
        // the names are the directive's own up to its endfor
        this.scope.push(...names);
        open.push({ word, at, end: this.b, names: names.length, hadElse: false });
        break;
      }
      case "else":
      case "endif":
      case "endfor": {
        this.closeMarker(word, at, end);
        const top = open[open.length - 1];
        const wanted = word === "endfor" ? "for" : "if";
        if (top === undefined) fail(`Unexpected ${word} directive`, "The control directives within this template are unbalanced.", at, this.b);
        if (word === "else" && top.word === "for") fail("Unexpected else directive", "An else clause is not expected for a for directive.", at, this.b);
        if (word === "else" && top.hadElse) {
          failMentioning("Unexpected else directive", "Already in the else clause for the if started earlier in this template.", at, this.b, {
            start: top.at,
            end: top.end,
            detail: (where) => `Already in the else clause for the if started at ${where}.`,
          });
        }
        if (word === "else") top.hadElse = true;
        if (top.word !== wanted) {
          failMentioning(`Unexpected ${word} directive`, `Expecting an end${top.word} directive for the ${top.word} started earlier in this template.`, at, this.b, {
            start: top.at,
            end: top.end,
            detail: (where) => `Expecting an end${top.word} directive for the ${top.word} started at ${where}.`,
          });
        }
        if (word !== "else") this.scope.length -= open.pop()!.names;
        break;
      }
      default:
      {
        const near = suggest(word, TEMPLATE_KEYWORDS);
        fail("Invalid template control keyword", `"${word}" is not a valid template control keyword.${near === undefined ? "" : ` Did you mean "${near}"?`}`, wordAt);
      }
    }
    const next = this.b;
    this.limit = saved;
    this.braces = savedBraces;
    this.nlEnds = savedNl;
    return next;
  }

  closeMarker(word: string, at: number, end: TemplateEnd): void {
    if (this.k === T.EOF) this.unclosed(at, end);
    if (this.k !== T.Close) fail(`Extra characters in ${word} marker`, "Expected a closing brace to end the sequence, but found extra characters.", this.a);
  }

  unclosed(at: number, end: TemplateEnd): never {
    fail(
      "Unclosed template interpolation sequence",
      `There is no closing brace for this interpolation sequence before the end of the ${endName(end)}. This might be caused by incorrect nesting inside the given expression.`,
      at,
    );
  }

  // -------------------------------------------------------------------------------------------
  // Tokens

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
      let j = i + 1;
      while (j < this.limit && isDigit(s.charCodeAt(j))) j++;
      if (s.charCodeAt(j) === 46 && isDigit(s.charCodeAt(j + 1)) && j + 1 < this.limit) {
        j += 2;
        while (j < this.limit && isDigit(s.charCodeAt(j))) j++;
      }
      const e = s.charCodeAt(j);
      if (e === 101 || e === 69) {
        let k = j + 1;
        const sign = s.charCodeAt(k);
        if (sign === 43 || sign === 45) k++;
        if (k < this.limit && isDigit(s.charCodeAt(k))) {
          j = k + 1;
          while (j < this.limit && isDigit(s.charCodeAt(j))) j++;
        }
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

  // -------------------------------------------------------------------------------------------
  // Expressions

  expression(): Expr {
    if (++this.depth > MAX_EXPRESSION_DEPTH) this.tooDeep();
    const c = this.binary(0);
    if (!this.isPunct("?") || (this.nlEnds && this.nl)) {
      this.depth--;
      return c;
    }
    this.next();
    const a = this.expression();
    if (!this.isPunct(":")) fail("Missing false expression in conditional", "The conditional operator (...?...:...) requires a false expression, delimited by a colon.", this.here());
    this.next();
    const b = this.expression();
    this.depth--;
    return { t: "cond", c, a, b };
  }

  /** Where the current token is, or the newline before it when a newline ends the expression. */
  here(): number {
    return this.nlEnds && this.nl ? this.nlAt : this.a;
  }

  /** Native: the file ends where an expression should start. */
  missingAtEnd(): never {
    fail("Missing expression", "Expected the start of an expression, but found the end of the file.", this.a);
  }

  tooDeep(): never {
    fail("Nesting too deep", `Expressions may be nested at most ${MAX_EXPRESSION_DEPTH} levels deep.`, this.a);
  }

  /** Runs `read` with newlines not ending the expression (inside brackets), or ending it (`ends`). */
  newlines<R>(ends: boolean, read: () => R): R {
    const saved = this.nlEnds;
    this.nlEnds = ends;
    const out = read();
    this.nlEnds = saved;
    return out;
  }

  /** Operators of precedence `min` and tighter, left-associative. */
  binary(min: number): Expr {
    let l = this.unary();
    for (;;) {
      if (this.k !== T.Punct || (this.nlEnds && this.nl)) return l;
      const level = BINARY_LEVEL.get(this.p);
      if (level === undefined || level < min) return l;
      const op = this.p;
      this.next();
      l = { t: "bin", op, l, r: this.binary(level + 1) };
    }
  }

  unary(): Expr {
    if (this.isPunct("!") || this.isPunct("-")) {
      const op = this.p;
      if (++this.depth > MAX_EXPRESSION_DEPTH) this.tooDeep();
      this.next();
      const x = this.unary();
      this.depth--;
      return { t: "un", op, x };
    }
    return this.postfix(this.term());
  }

  term(): Expr {
    const s = this.s;
    // native: `a =` with the value on the next line
    if (this.nlEnds && this.nl) fail("Invalid expression", INVALID_EXPRESSION, this.nlAt);
    if (this.native && this.k === T.EOF) this.missingAtEnd();
    switch (this.k) {
      case T.Number: {
        const raw = s.slice(this.a, this.b);
        this.next();
        return { t: "lit", v: Number(raw), raw };
      }
      case T.Ident: {
        const start = this.a;
        const name = s.slice(this.a, this.b);
        this.next();
        if (this.isPunct("::") || this.isPunct("(")) return this.call(start, name);
        if (name === "true") return { t: "lit", v: true };
        if (name === "false") return { t: "lit", v: false };
        if (name === "null") return { t: "lit", v: null };
        if (!this.scope.includes(name)) {
          const ref: Reference = { root: name, steps: [], start, end: start + name.length };
          if (this.refs === NO_REFS) this.refs = [ref];
          else this.refs.push(ref);
          this.pendingRef = ref;
        }
        return { t: "var", name };
      }
      case T.Quote:
        return this.quoted();
      case T.Heredoc:
        return this.heredoc();
      case T.Punct:
        if (this.isPunct("(")) {
          const savedNl = this.nlEnds;
          this.nlEnds = false;
          this.next();
          const inner = this.expression();
          if (!this.isPunct(")")) fail("Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.", this.a);
          this.nlEnds = savedNl;
          this.next();
          return inner;
        }
        if (this.isPunct("[")) return this.tuple();
        if (this.isPunct("{")) return this.object();
        break;
    }
    fail("Invalid expression", INVALID_EXPRESSION, this.a);
  }

  /** Attribute, index and splat steps after a term; those of a reference are recorded in it. */
  postfix(e: Expr): Expr {
    const started = this.pendingRef;
    const out = this.steps(e);
    // a list grown by push keeps room for 17 steps: a file's references keep theirs exactly
    if (this.native && started !== null && started.steps.length > 0) started.steps = started.steps.slice();
    return out;
  }

  steps(e: Expr): Expr {
    // the steps are the reference's up to the first index computed by an expression
    let ref = this.pendingRef;
    this.pendingRef = null;
    for (;;) {
      if (this.nlEnds && this.nl) return e;
      if (this.isPunct(".")) {
        this.next();
        if (this.k === T.Ident) {
          const name = this.s.slice(this.a, this.b);
          e = { t: "attr", of: e, name };
          if (ref !== null) {
            ref.steps.push({ kind: "attr", name });
            ref.end = this.b;
          }
          this.next();
        } else if (this.k === T.Number) {
          const digits = this.s.slice(this.a, this.b);
          if (!/^\d+$/.test(digits)) {
            // "a.0.0" reads as "a" "." "0.0"
            fail("Invalid legacy index syntax", "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [0][0].", this.a);
          }
          e = { t: "index", of: e, key: { t: "lit", v: Number(digits) } };
          if (ref !== null) {
            ref.steps.push({ kind: "index", key: Number(digits) });
            ref.end = this.b;
          }
          this.next();
        } else if (this.isPunct("*")) {
          if (ref !== null) {
            ref.steps.push({ kind: "splat" });
            ref.end = this.b;
          }
          this.next();
          e = UNKNOWN;
        } else fail("Invalid attribute name", "An attribute name is required after a dot.", this.here());
        continue;
      }
      if (this.isPunct("[")) {
        const savedNl = this.nlEnds;
        this.nlEnds = false;
        this.next();
        if (this.isPunct("*")) {
          this.next();
          if (!this.isPunct("]")) fail("Missing close bracket on splat index", 'The star for a full splat operator must be immediately followed by a closing bracket ("]").', this.a);
          if (ref !== null) {
            ref.steps.push({ kind: "splat" });
            ref.end = this.b;
          }
          this.nlEnds = savedNl;
          this.next();
          e = UNKNOWN;
          continue;
        }
        const key = this.expression();
        if (!this.isPunct("]")) fail("Missing close bracket on index", 'The index operator must end with a closing bracket ("]").', this.a);
        if (ref !== null) {
          const constant = constantKey(key);
          ref.steps.push({ kind: "index", key: constant });
          if (constant === null) ref = null;
          else ref.end = this.b;
        }
        this.nlEnds = savedNl;
        this.next();
        e = { t: "index", of: e, key };
        continue;
      }
      return e;
    }
  }

  call(start: number, first: string): Expr {
    let name = first;
    while (this.isPunct("::")) {
      this.next();
      if (this.k !== T.Ident) fail("Missing function name", "Function scope resolution symbol :: must be followed by a function name in this scope.", this.a);
      name += `::${this.s.slice(this.a, this.b)}`;
      this.next();
    }
    if (!this.isPunct("(")) fail("Missing open parenthesis", "Function selector must be followed by an open parenthesis to begin the function call.", this.here());
    if (++this.depth > MAX_EXPRESSION_DEPTH) this.tooDeep();
    const saved = this.braces;
    const savedNl = this.nlEnds;
    this.braces = 0;
    this.nlEnds = false;
    this.next();
    const args: Expr[] = [];
    const argStarts: number[] = [];
    let expand = false;
    while (!this.isPunct(")")) {
      if (this.native && this.k === T.EOF) this.missingAtEnd();
      if (this.k === T.EOF || this.k === T.Close) fail("Unterminated function call", "There is no closing parenthesis for this function call.", this.a);
      argStarts.push(this.a);
      args.push(this.expression());
      if (this.isPunct("...")) {
        expand = true;
        this.next();
        if (!this.isPunct(")")) fail("Missing closing parenthesis", "An expanded function argument (with ...) must be immediately followed by closing parentheses.", this.a);
        break;
      }
      if (this.isPunct(",")) {
        this.next();
        continue;
      }
      if (this.isPunct(")")) break;
      fail("Missing argument separator", "A comma is required to separate each function argument from the next.", this.a);
    }
    const close = this.a;
    this.braces = saved;
    this.nlEnds = savedNl;
    this.depth--;
    this.next();
    const problem = checkCall(name, args.length, expand);
    if (problem !== null) {
      const offset = problem.at === "name" ? start : problem.at === "close" ? close : (argStarts[problem.extra ?? 0] ?? start);
      if (this.callProblems === null) fail(problem.summary, problem.detail, offset);
      if (this.callProblems === NO_PROBLEMS) this.callProblems = [];
      this.callProblems.push({ summary: problem.summary, detail: problem.detail, offset });
    }
    return { t: "call", name, args, expand };
  }

  tuple(): Expr {
    const saved = this.braces;
    const savedNl = this.nlEnds;
    this.braces = 0;
    this.nlEnds = false;
    this.next();
    if (this.isWord("for")) {
      const checks = this.forExpression(false);
      this.braces = saved;
      this.nlEnds = savedNl;
      this.next();
      return { t: "unknown", checks };
    }
    const items: Expr[] = [];
    while (!this.isPunct("]")) {
      if (this.native && this.k === T.EOF) this.missingAtEnd();
      if (this.k === T.EOF || this.k === T.Close) fail("Missing item separator", "Expected a comma to mark the beginning of the next item.", this.a);
      items.push(this.expression());
      if (this.isPunct(",")) {
        this.next();
        continue;
      }
      if (!this.isPunct("]")) fail("Missing item separator", "Expected a comma to mark the beginning of the next item.", this.a);
    }
    this.braces = saved;
    this.nlEnds = savedNl;
    this.next();
    return { t: "tuple", items };
  }

  object(): Expr {
    const saved = this.braces;
    const savedNl = this.nlEnds;
    this.braces = 1;
    // native: newlines separate an object's attributes, and end their values
    this.nlEnds = this.native;
    this.next();
    if (this.isWord("for")) {
      const forAt = this.a;
      this.next();
      const isFor = this.k === T.Ident;
      this.seek(forAt);
      if (isFor) {
        this.nlEnds = false;
        const checks = this.forExpression(true);
        this.braces = saved;
        this.nlEnds = savedNl;
        this.next();
        return { t: "unknown", checks };
      }
    }
    const keys: Expr[] = [];
    const values: Expr[] = [];
    while (!this.isPunct("}")) {
      if (this.native && this.k === T.EOF) this.missingAtEnd();
      if (this.k === T.EOF || this.k === T.Close) fail("Missing attribute separator", "Expected a newline or comma to mark the beginning of the next attribute.", this.a);
      // the newline before a key separates it from the previous attribute
      this.nl = false;
      let key: Expr;
      if (this.k === T.Ident) {
        // a bare name is the key itself, not a reference
        const name = this.s.slice(this.a, this.b);
        this.next();
        key = this.isPunct("=") || this.isPunct(":") ? { t: "lit", v: name } : this.postfix({ t: "var", name });
      } else key = this.expression();
      if (!this.isPunct("=") && !this.isPunct(":")) fail("Missing key/value separator", 'Expected an equals sign ("=") to mark the beginning of the attribute value.', this.a);
      this.next();
      keys.push(key);
      values.push(this.expression());
      if (this.isPunct(",")) {
        this.next();
        continue;
      }
      if (this.isPunct("}")) break;
      if (!this.nl) fail("Missing attribute separator", "Expected a newline or comma to mark the beginning of the next attribute.", this.a);
    }
    this.braces = saved;
    this.nlEnds = savedNl;
    this.next();
    return { t: "object", keys, values };
  }

  /** `[for …]` / `{for …}`, the current token being "for". */
  forExpression(object: boolean): ValueCheck[] {
    const close = object ? "}" : "]";
    this.next();
    if (this.k !== T.Ident) fail("Invalid 'for' expression", "For expression requires variable name after 'for'.", this.a);
    const names = [this.s.slice(this.a, this.b)];
    this.next();
    if (this.isPunct(",")) {
      this.next();
      if (this.k !== T.Ident) fail("Invalid 'for' expression", "For expression requires value variable name after comma.", this.a);
      names.push(this.s.slice(this.a, this.b));
      this.next();
    }
    if (!this.isWord("in")) fail("Invalid 'for' expression", "For expression requires the 'in' keyword after its name declarations.", this.a);
    this.next();
    const collection = this.expression();
    const checks: ValueCheck[] = [{ kind: "iterable", e: collection }];
    // the names are the for expression's own from here to its end
    this.scope.push(...names);
    if (!this.isPunct(":")) fail("Invalid 'for' expression", "For expression requires a colon after the collection expression.", this.a);
    this.next();
    const first = this.a;
    this.expression();
    if (object) {
      // Terraform points at the expression that should have been a key
      if (!this.isPunct("=>")) fail("Invalid 'for' expression", "Key expression is required when building an object.", first, this.last);
      this.next();
      this.expression();
      if (this.isPunct("...")) this.next();
    } else {
      if (this.isPunct("=>")) fail("Invalid 'for' expression", "Key expression is not valid when building a tuple.", this.a);
      if (this.isPunct("...")) fail("Invalid 'for' expression", "Grouping ellipsis (...) cannot be used when building a tuple.", this.a, this.b);
    }
    if (this.isWord("if")) {
      this.next();
      checks.push({ kind: "for-if", e: this.expression(), collection });
    }
    if (!this.isPunct(close)) fail("Invalid 'for' expression", "Extra characters after the end of the 'for' expression.", this.a);
    this.scope.length -= names.length;
    return checks;
  }

  /** A quoted string inside an expression: a template of its own, up to its closing quote. */
  quoted(): Expr {
    const s = this.s;
    const from = this.b;
    const end = quoteEnd(s, from, this.limit);
    if (end < 0) {
      const split = this.native && end < -1 ? -2 - end : -1;
      if (split >= 0) {
        fail(
          "Invalid multi-line string",
          'Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the "heredoc" multi-line template syntax.',
          split,
        );
      }
      fail("Unterminated template string", "No closing marker was found for the string.", this.a);
    }
    const limit = this.limit;
    const braces = this.braces;
    const value = this.template(from, end, "quote");
    this.limit = limit;
    this.braces = braces;
    this.seek(end + 1);
    return value;
  }

  /** `<<EOT` … `EOT` (or `<<-EOT`): a template over the lines between. */
  heredoc(): Expr {
    const s = this.s;
    let i = this.b;
    const flush = s.charCodeAt(i) === 45;
    if (flush) i++;
    const nameStart = i;
    while (i < this.limit && isIdentPart(s.charCodeAt(i))) i++;
    const marker = s.slice(nameStart, i);
    // the marker's line ends with LF or CRLF (a file, or a JSON string, with Windows line ends)
    if (s.charCodeAt(i) === 13 && s.charCodeAt(i + 1) === 10) i++;
    if (marker === "" || s.charCodeAt(i) !== 10) {
      // HCL's scanner does not read `<<` then as the start of a heredoc at all
      if (this.native) fail("Invalid expression", INVALID_EXPRESSION, this.a);
      fail("Invalid heredoc", "A heredoc must be introduced by <<MARKER followed by a newline.", this.a);
    }
    const bodyStart = i + 1;
    let line = bodyStart;
    while (line < this.limit) {
      let eol = s.indexOf("\n", line);
      if (eol < 0 || eol > this.limit) eol = this.limit;
      if (s.slice(line, eol).trim() === marker) {
        const limit = this.limit;
        const braces = this.braces;
        const savedNl = this.nlEnds;
        const savedFlush = this.flush;
        this.flush = flush;
        const value = this.template(bodyStart, line, "heredoc");
        this.flush = savedFlush;
        this.limit = limit;
        this.braces = braces;
        this.nlEnds = savedNl;
        // the token after the heredoc is on the line after its marker
        this.seek(eol);
        this.last = eol > line && s.charCodeAt(eol - 1) === 13 ? eol - 1 : eol;
        return value;
      }
      line = eol + 1;
    }
    // HCL reads to the end of the file looking for the marker, and says so there
    fail("Unterminated template string", "No closing marker was found for the string.", this.native ? this.limit : this.a);
  }
}

/**
 * `<<-` heredocs: the lines starting in literal text (`lineStarts`, pairs of part index and
 * offset) lose the indentation all of them share, as HCL strips it; a line of spaces alone does
 * not count, and keeps its spaces. `shared` is already 0 when a line starts with a sequence.
 */
function stripSharedIndent(parts: Expr[], lineStarts: number[], shared: number): void {
  const indents: number[] = [];
  for (let n = 0; n < lineStarts.length; n += 2) {
    const text = (parts[lineStarts[n]!] as { v: string }).v;
    let k = lineStarts[n + 1]!;
    while (k < text.length && text.charCodeAt(k) !== 10 && /\s/.test(text[k]!)) k++;
    const blank = text.charCodeAt(k) === 10;
    indents.push(blank ? -1 : k - lineStarts[n + 1]!);
    if (!blank) shared = Math.min(shared, k - lineStarts[n + 1]!);
  }
  if (shared === 0 || shared === Infinity) return;
  // from the last line start back, so that earlier offsets stay valid
  for (let n = lineStarts.length - 2; n >= 0; n -= 2) {
    if (indents[n / 2]! < 0) continue;
    const part = parts[lineStarts[n]!] as { t: "lit"; v: string };
    const at = lineStarts[n + 1]!;
    part.v = part.v.slice(0, at) + part.v.slice(at + shared);
  }
}

/** The key of an index that is a constant: a number, or a string without templates. */
function constantKey(key: Expr): string | number | null {
  if (key.t === "lit") return typeof key.v === "number" || typeof key.v === "string" ? key.v : null;
  if (key.t === "tpl" && key.parts.length === 0) return "";
  if (key.t === "tpl" && key.parts.length === 1 && key.parts[0]!.t === "lit") return constantKey(key.parts[0]!);
  return null;
}

function endName(end: TemplateEnd): string {
  return end === "quote" ? "quoted template" : end === "heredoc" ? "heredoc" : "file";
}

/**
 * The offset of the quote closing a quoted template that starts at `from`; when there is none,
 * -1 at the end of the text, or `-2 - i` when a newline at `i` (before its CR, if any) splits the
 * template's text or a string nested in its interpolations. Iterative: strings nested in
 * interpolations nested in strings cost no call stack.
 */
function quoteEnd(s: string, from: number, limit: number): number {
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
        if (code <= 0x10ffff) return [String.fromCodePoint(code), i + 2 + n];
      }
      break;
    }
  }
  return null;
}

/** One backslash escape of a quoted template at `i`: its text and the offset after it. */
function quotedEscape(s: string, i: number, to: number, at: number): [string, number] {
  const escaped = escapeAt(s, i, to);
  if (escaped !== null) return escaped;
  fail("Invalid escape sequence", `The symbol "${s[i + 1] ?? ""}" is not a valid escape sequence selector.`, at);
}
