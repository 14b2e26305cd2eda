// HCL's templates (literal text, interpolations, directives, quoted strings, heredocs) over a
// string, on top of the expression grammar (expression-parser.ts): the first syntax error with
// Terraform's words, the references, and a small syntax tree (syntax-tree.ts) that evaluate.ts
// evaluates when every input is known at validate time. A JSON string is read decoded (JSON
// escapes applied), as Terraform does, and a native file's expression in place; offsets are into
// the text read.

import { suggest } from "../syntax/suggest.js";
import { ExpressionParser, MAX_EXPRESSION_DEPTH, NO_PROBLEMS, NO_REFS, UNKNOWN } from "./expression-parser.js";
import { EXTRA_AFTER_INTERPOLATION, Fail, fail, failMentioning, INVALID_EXPRESSION, isIdentPart, quotedEscape, quoteEnd, T } from "./lexer.js";
import type { Expr, ParseResult, Reference, SyntaxProblem } from "./syntax-tree.js";

/** Parses the template `s` (a JSON string's decoded value). */
export function parseTemplate(s: string): ParseResult {
  const p = new Parser(s);
  try {
    const expr = p.template(0, s.length, "file");
    return { ok: true, expr, refs: p.refs, only: p.only };
  } catch (e) {
    return problemOf(e);
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
    p.flush = false;
    try {
      p.seek(from);
      if (p.k === T.EOF) fail("Missing expression", "Expected the start of an expression, but found the end of the file.", from);
      const expr = p.expression();
      return { ok: true, expr, refs: p.refs, end: p.last, callProblems: p.callProblems };
    } catch (e) {
      return problemOf(e);
    }
  }
}

/**
 * A syntax error's problem. Nesting heavier per level than the bound allows for (objects, calls
 * and quoted templates in each other) runs out of stack first: the same answer, not a crash.
 */
function problemOf(e: unknown): { ok: false; problem: SyntaxProblem } {
  if (e instanceof Fail) return { ok: false, problem: e.problem };
  if (e instanceof RangeError && /call stack/i.test(e.message)) return { ok: false, problem: { summary: "Nesting too deep", detail: `Expressions may be nested at most ${MAX_EXPRESSION_DEPTH} levels deep.`, offset: 0 } };
  throw e;
}

type TemplateEnd = "file" | "quote" | "heredoc";

const TEMPLATE_KEYWORDS = ["if", "else", "endif", "for", "endfor"];

/**
 * An `%{if}` or `%{for}` whose end has not come: its keyword, its range, its names, whether it had
 * an else; its condition or collection, the parts of the template around it, and an if's parts
 * before its else.
 */
interface OpenDirective {
  word: string;
  at: number;
  end: number;
  names: string[];
  hadElse: boolean;
  head: Expr;
  outer: Expr[];
  before: Expr[] | null;
}

class Parser extends ExpressionParser {
  // -------------------------------------------------------------------------------------------
  // Templates

  /** A template over s[from, to): literal text, interpolations and directives. */
  template(from: number, to: number, end: TemplateEnd): Expr {
    const s = this.s;
    let parts: Expr[] = [];
    // the open directives (allocated at the first: most templates have none)
    let open: OpenDirective[] | null = null;
    let literal = "";
    // false with a strip marker ("~"), whose trimming is not modelled: the value is then unknown
    let known = true;
    let directives = false;
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
          for (let k = i; k < j - 1; k++) if (s.charCodeAt(k) === 10) lineStarts.push(parts.length, literal.length + k + 1 - i);
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
          this.enterSequence(to);
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
          this.leaveSequence();
        } else {
          directives = true;
          i = this.directive(at, j, to, end, (open ??= []), parts);
          parts = this.parts;
          if (s.charCodeAt(this.a) === 126) known = false;
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
    // a `<<-` heredoc's indentation is stripped from its top-level text only: with directives, unknown
    if (lineStarts !== null && directives) known = false;
    if (lineStarts !== null && known) {
      if (literal !== "") parts.push({ t: "lit", v: literal });
      literal = "";
      stripSharedIndent(parts, lineStarts, indentShared);
    }
    if (literal !== "") parts.push({ t: "lit", v: literal });
    if (!known) return parts.length > 0 ? { t: "unknown", checks: [{ kind: "evaluate", e: { t: "tpl", parts } }] } : UNKNOWN;
    // a template with directives is always a string
    if (directives) return { t: "tpl", parts };
    // a template that is one interpolation and nothing else has the value of its expression, not a string
    if (parts.length === 1 && interpolations === 1) return parts[0]!;
    // a string or heredoc without sequences is a string literal (one node, not three)
    if (interpolations === 0 && end !== "file") return parts.length === 0 ? { t: "lit", v: "" } : parts[0]!;
    // (a list grown by push keeps room for 17 parts)
    if (this.native && parts.length > 0) parts = parts.slice();
    return { t: "tpl", parts };
  }

  /** the parts of the template after the last directive read (an if's or for's own, or those around it) */
  parts: Expr[] = [];

  /**
   * One `%{ … }` directive starting at `at`, its keyword at `j`, `parts` the template's parts up
   * to it; returns the offset after it, and leaves in `this.parts` the list the parts after it go
   * to. An if is a conditional and a for a for expression, whose results are templates (as HCL
   * reads them).
   */
  directive(at: number, j: number, to: number, end: TemplateEnd, open: OpenDirective[], parts: Expr[]): number {
    this.enterSequence(to);
    this.seek(j);
    if (this.k !== T.Ident) {
      if (this.k === T.EOF) this.unclosed(at, end);
      fail("Invalid template directive", 'A template directive keyword ("if", "for", etc) is expected at the beginning of a %{ sequence.', this.a);
    }
    const word = this.s.slice(this.a, this.b);
    const wordAt = this.a;
    this.next();
    this.parts = parts;
    switch (word) {
      case "if": {
        const head = this.expression();
        this.closeMarker("if", at, end);
        open.push({ word, at, end: this.b, names: [], hadElse: false, head, outer: parts, before: null });
        this.parts = [];
        break;
      }
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
        const head = this.expression();
        this.closeMarker("for", at, end);
        // the names are the directive's own up to its endfor
        this.scope.push(...names);
        open.push({ word, at, end: this.b, names, hadElse: false, head, outer: parts, before: null });
        this.parts = [];
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
        if (top.word !== wanted) {
          failMentioning(`Unexpected ${word} directive`, `Expecting an end${top.word} directive for the ${top.word} started earlier in this template.`, at, this.b, {
            start: top.at,
            end: top.end,
            detail: (where) => `Expecting an end${top.word} directive for the ${top.word} started at ${where}.`,
          });
        }
        if (word === "else") {
          top.hadElse = true;
          top.before = parts;
          this.parts = [];
          break;
        }
        open.pop();
        this.scope.length -= top.names.length;
        this.parts = top.outer;
        if (top.word === "if") {
          const a: Expr = { t: "tpl", parts: top.before ?? parts };
          const b: Expr = { t: "tpl", parts: top.before !== null ? parts : [] };
          top.outer.push({ t: "cond", c: top.head, a, b });
        } else {
          const two = top.names.length === 2;
          const value: Expr = { t: "tpl", parts };
          top.outer.push({ t: "for", result: "join", keyName: two ? top.names[0]! : null, valueName: two ? top.names[1]! : top.names[0]!, coll: top.head, key: null, value, cond: null, group: false });
        }
        break;
      }
      default: {
        const near = suggest(word, TEMPLATE_KEYWORDS);
        fail("Invalid template control keyword", `"${word}" is not a valid template control keyword.${near === undefined ? "" : ` Did you mean "${near}"?`}`, wordAt);
      }
    }
    const next = this.b;
    this.leaveSequence();
    return next;
  }

  /** The reading state around the `${ }` and `%{ }` sequences being read, innermost last: limit, braces, nlEnds (1 or 0). */
  private readonly outside: number[] = [];

  /**
   * Starts reading a sequence's inside, which ends at `to` (its template's end) with brackets and
   * newlines of its own; leaveSequence restores what was read around it. (A stack of numbers, not
   * a closure per sequence: templates are the hot path of large files.)
   */
  enterSequence(to: number): void {
    this.outside.push(this.limit, this.braces, this.nlEnds ? 1 : 0);
    this.limit = to;
    this.braces = 0;
    this.nlEnds = false;
  }

  leaveSequence(): void {
    const o = this.outside;
    this.nlEnds = o.pop() === 1;
    this.braces = o.pop()!;
    this.limit = o.pop()!;
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
      // native: a marker is only one with a newline after it (HCL's scanner: the end of the file does not do)
      if (s.slice(line, eol).trim() === marker && !(this.native && eol >= s.length)) {
        const limit = this.limit;
        const braces = this.braces;
        const savedNl = this.nlEnds;
        const savedFlush = this.flush;
        this.flush = flush;
        const value = this.heredocTemplate(bodyStart, line, flush, limit);
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

  /**
   * A heredoc's template up to its marker line. HCL's scanner sees the marker only in literal
   * text: in a native file, an interpolation still open there reads the marker line as tokens of
   * its expression, and the error is the one HCL meets reading on (the marker as "Extra
   * characters after interpolation expression", usually), not an unclosed interpolation.
   */
  private heredocTemplate(from: number, to: number, flush: boolean, limit: number): Expr {
    try {
      return this.template(from, to, "heredoc");
    } catch (error) {
      if (!this.native || !(error instanceof Fail) || error.problem.summary !== "Unclosed template interpolation sequence") throw error;
      this.flush = flush;
      this.limit = limit;
      this.template(from, limit, "heredoc");
      throw error;
    }
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


function endName(end: TemplateEnd): string {
  return end === "quote" ? "quoted template" : end === "heredoc" ? "heredoc" : "file";
}
