// HCL native syntax (`.tf`, `.tftest.hcl`): the body structure (attributes and blocks, one-line
// blocks, comments, newlines as separators) with positions, and each attribute's expression read by
// the project's one expression grammar (expr/expressions.ts parseNativeExpression), so that an
// expression of a `.tf` file is the same `Expr` tree, with the same references, as one inside a
// `.tf.json` string.
//
//   parseNative(text, filename) → { file: NativeFile; problems: NativeSyntaxProblem[] }
//
// Offsets are UTF-16 code unit offsets into `text` (what `LineMap` in ../positions.ts turns into
// Terraform's line and column). Problems carry Terraform 1.11's summaries and details (checked by
// running `terraform validate` on the same text: test/language/native-parser.test.ts). Reading stops
// at the first problem that leaves the structure unknown (HCL recovers and may report more); an
// attribute set twice is reported and reading goes on. Blocks are read with an explicit stack, so
// nesting depth costs no call stack.

import type { Expr, Reference, SyntaxProblem } from "../../expr/syntax-tree.js";
import { escapeAt, isDigit, isIdentPart, isIdentStart } from "../../expr/lexer.js";
import { parseNativeExpression } from "../../expr/template-parser.js";
import { LineMap } from "../positions.js";

export interface Range {
  start: number;
  end: number;
}

export interface NativeAttribute {
  kind: "attribute";
  name: string;
  nameRange: Range;
  expr: Expr;
  exprRange: Range;
  /** the expression's source text, `text.slice(exprRange.start, exprRange.end)` */
  source: string;
  /** what the expression refers to (offsets into the file) */
  refs: Reference[];
  /** calls to unknown functions or with wrong argument counts (evaluation errors in Terraform) */
  callProblems: SyntaxProblem[];
  /** from the name to the end of the expression */
  range: Range;
}

export interface NativeBlock {
  kind: "block";
  type: string;
  typeRange: Range;
  /** labels' values (a quoted label's escapes applied, a bare identifier as written) */
  labels: string[];
  labelRanges: Range[];
  openBraceRange: Range;
  closeBraceRange: Range;
  body: NativeBody;
  /** from the type to the closing brace */
  range: Range;
}

export type NativeItem = NativeAttribute | NativeBlock;

export interface NativeBody {
  /** attributes and blocks in source order */
  items: NativeItem[];
  /** the text between the braces (the whole file for the root body) */
  range: Range;
}

export interface NativeFile {
  filename: string;
  text: string;
  body: NativeBody;
  lines: LineMap;
}

export interface NativeSyntaxProblem {
  summary: string;
  detail: string;
  range: Range;
}

export interface NativeParseResult {
  file: NativeFile;
  problems: NativeSyntaxProblem[];
}

const REQUIRED = "An argument or block definition is required here.";
const REQUIRED_EQUALS = `${REQUIRED} To set an argument, use the equals sign "=" to introduce the argument value.`;

class Stop {
  constructor(readonly problem: NativeSyntaxProblem) {}
}

function stop(summary: string, detail: string, start: number, end: number): never {
  throw new Stop({ summary, detail, range: { start, end } });
}

/** One open body: the block it belongs to (null for the file) and the arguments it has set. */
interface OpenBody {
  block: NativeBlock | null;
  body: NativeBody;
  seen: Map<string, NativeAttribute>;
}

export function parseNative(text: string, filename: string): NativeParseResult {
  const lines = new LineMap(text);
  const root: NativeBody = { items: [], range: { start: 0, end: text.length } };
  const reader = new BodyReader(text, filename, lines);
  const problems = reader.problems;
  try {
    reader.read(root);
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    problems.push(e.problem);
  }
  return { file: { filename, text, body: root, lines }, problems };
}

class BodyReader {
  readonly problems: NativeSyntaxProblem[] = [];
  pos = 0;

  constructor(
    readonly text: string,
    readonly filename: string,
    readonly lines: LineMap,
  ) {}

  read(root: NativeBody): void {
    const text = this.text;
    const stack: OpenBody[] = [{ block: null, body: root, seen: new Map() }];
    for (;;) {
      this.skipSpace(true);
      const at = this.pos;
      const top = stack[stack.length - 1]!;
      if (at >= text.length) {
        if (top.block !== null) {
          const brace = top.block.openBraceRange;
          stop("Unclosed configuration block", "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.", brace.start, brace.end);
        }
        return;
      }
      const c = text.charCodeAt(at);
      if (c === 125 && top.block !== null) {
        this.pos = at + 1;
        this.closeBlock(top.block, at);
        stack.pop();
        this.endOfBlock();
        continue;
      }
      if (!isIdentStart(c)) stop("Argument or block definition required", REQUIRED, at, this.tokenEnd(at));
      const nameEnd = this.identEnd(at);
      const name = text.slice(at, nameEnd);
      this.pos = nameEnd;
      this.skipSpace(false);
      const next = text.charCodeAt(this.pos);
      if (next === 61 && text.charCodeAt(this.pos + 1) !== 61) {
        const attr = this.attribute(name, at, nameEnd);
        this.declare(top, attr);
        this.endOfArgument();
        continue;
      }
      const block = this.blockHeader(name, at, nameEnd);
      top.body.items.push(block);
      const opened = this.openBody(block);
      if (opened) stack.push({ block, body: block.body, seen: new Map() });
    }
  }

  /** An attribute whose name is at [start, nameEnd), the current position at its "=". */
  attribute(name: string, start: number, nameEnd: number): NativeAttribute {
    const r = parseNativeExpression(this.text, this.pos + 1);
    if (!r.ok) {
      const at = r.problem.offset;
      stop(r.problem.summary, r.problem.detail, at, this.problemEnd(r.problem));
    }
    let exprStart = this.pos + 1;
    while (isInlineSpace(this.text.charCodeAt(exprStart))) exprStart++;
    this.pos = r.end;
    return {
      kind: "attribute",
      name,
      nameRange: { start, end: nameEnd },
      expr: r.expr,
      exprRange: { start: exprStart, end: r.end },
      source: this.text.slice(exprStart, r.end),
      refs: r.refs,
      callProblems: r.callProblems,
      range: { start, end: r.end },
    };
  }

  declare(open: OpenBody, attr: NativeAttribute): void {
    const earlier = open.seen.get(attr.name);
    if (earlier !== undefined) {
      this.problems.push({
        summary: "Attribute redefined",
        detail: `The argument "${attr.name}" was already set at ${this.rangeText(earlier.nameRange)}. Each argument may be set only once.`,
        range: attr.nameRange,
      });
    } else open.seen.set(attr.name, attr);
    open.body.items.push(attr);
  }

  /** A block's type, labels and opening brace; the current position after the brace. */
  blockHeader(type: string, start: number, typeEnd: number): NativeBlock {
    const text = this.text;
    const labels: string[] = [];
    const labelRanges: Range[] = [];
    for (;;) {
      const c = text.charCodeAt(this.pos);
      if (c === 34) {
        const from = this.pos;
        labels.push(this.quotedLabel());
        labelRanges.push({ start: from, end: this.pos });
      } else if (isIdentStart(c)) {
        const from = this.pos;
        this.pos = this.identEnd(from);
        labels.push(text.slice(from, this.pos));
        labelRanges.push({ start: from, end: this.pos });
      } else break;
      this.skipSpace(false);
    }
    if (text.charCodeAt(this.pos) !== 123) {
      // `name value`, `name` alone on its line: Terraform hints at the missing equals sign
      stop("Argument or block definition required", REQUIRED_EQUALS, start, typeEnd);
    }
    const brace = { start: this.pos, end: this.pos + 1 };
    this.pos++;
    return {
      kind: "block",
      type,
      typeRange: { start, end: typeEnd },
      labels,
      labelRanges,
      openBraceRange: brace,
      closeBraceRange: brace,
      body: { items: [], range: { start: brace.end, end: brace.end } },
      range: { start, end: brace.end },
    };
  }

  /**
   * After a block's "{": a newline opens a body of its own lines (true: the caller reads it); on
   * the same line, the block is empty or holds one argument, and is closed here.
   */
  openBody(block: NativeBlock): boolean {
    const text = this.text;
    this.skipSpace(false);
    if (this.atLineEnd()) return true;
    if (text.charCodeAt(this.pos) === 125) {
      this.closeBlock(block, this.pos);
      this.pos++;
      this.endOfBlock();
      return false;
    }
    const at = this.pos;
    const c = text.charCodeAt(at);
    if (!isIdentStart(c)) stop("Argument or block definition required", REQUIRED, at, this.tokenEnd(at));
    const nameEnd = this.identEnd(at);
    this.pos = nameEnd;
    this.skipSpace(false);
    if (text.charCodeAt(this.pos) !== 61 || text.charCodeAt(this.pos + 1) === 61) {
      const name = text.slice(at, nameEnd);
      let end = this.pos;
      while (end < text.length && text.charCodeAt(end) !== 123 && text.charCodeAt(end) !== 10) end++;
      stop(
        "Argument definition required",
        `A single-line block definition can contain only a single argument. If you meant to define argument "${name}", use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block.`,
        at,
        text.charCodeAt(end) === 123 ? end + 1 : nameEnd,
      );
    }
    const attr = this.attribute(text.slice(at, nameEnd), at, nameEnd);
    block.body.items.push(attr);
    this.skipSpace(false);
    const close = this.pos;
    if (text.charCodeAt(close) !== 125) {
      if (this.atLineEnd()) {
        const lineEnd = this.pos;
        stop(
          "Invalid single-argument block definition",
          "An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition.",
          lineEnd,
          this.afterLineBreak(lineEnd),
        );
      }
      stop(
        "Invalid single-argument block definition",
        "Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line.",
        close,
        this.tokenEnd(close),
      );
    }
    this.pos = close + 1;
    this.closeBlock(block, close);
    this.endOfBlock();
    return false;
  }

  closeBlock(block: NativeBlock, brace: number): void {
    block.closeBraceRange = { start: brace, end: brace + 1 };
    block.body.range.end = brace;
    block.range.end = brace + 1;
  }

  /** After an argument's expression: only a newline (a comment, the end of the file) may follow. */
  endOfArgument(): void {
    this.skipSpace(false);
    if (!this.atLineEnd()) stop("Missing newline after argument", "An argument definition must end with a newline.", this.pos, this.tokenEnd(this.pos));
  }

  endOfBlock(): void {
    this.skipSpace(false);
    if (!this.atLineEnd()) stop("Missing newline after block definition", "A block definition must end with a newline.", this.pos, this.tokenEnd(this.pos));
  }

  /** A quoted block label: escapes read as in any quoted string, template sequences refused. */
  quotedLabel(): string {
    const text = this.text;
    const open = this.pos;
    let out = "";
    let i = open + 1;
    for (;;) {
      if (i >= text.length || text.charCodeAt(i) === 10 || (text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10)) {
        stop("Unterminated template string", "No closing marker was found for the string.", open, Math.min(i, text.length));
      }
      const c = text.charCodeAt(i);
      if (c === 34) break;
      if ((c === 36 || c === 37) && text.charCodeAt(i + 1) === 123) {
        const sign = c === 36 ? "$" : "%";
        stop("Invalid string literal", `Template sequences are not allowed in this string. To include a literal "${sign}", double it (as "${sign}${sign}") to escape it.`, i, i + 2);
      }
      if ((c === 36 || c === 37) && text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === 123) {
        out += `${text[i]}{`;
        i += 3;
        continue;
      }
      if (c === 92) {
        const escaped = escapeAt(text, i);
        if (escaped === null) stop("Invalid escape sequence", `The symbol "${text[i + 1] ?? ""}" is not a valid escape sequence selector.`, i, Math.min(i + 2, text.length));
        out += escaped[0];
        i = escaped[1];
        continue;
      }
      out += text[i];
      i++;
    }
    this.pos = i + 1;
    return out;
  }

  // -------------------------------------------------------------------------------------------
  // Characters

  /** Skips spaces and comments; newlines too when `newlines`. A line comment stops at its newline. */
  skipSpace(newlines: boolean): void {
    const text = this.text;
    let i = this.pos;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9) i++;
      else if (c === 13 && text.charCodeAt(i + 1) === 10) {
        if (!newlines) break;
        i += 2;
      } else if (c === 10) {
        if (!newlines) break;
        i++;
      } else if (c === 35 || (c === 47 && text.charCodeAt(i + 1) === 47)) {
        const eol = text.indexOf("\n", i);
        i = eol < 0 ? text.length : text.charCodeAt(eol - 1) === 13 ? eol - 1 : eol;
      } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
        const close = text.indexOf("*/", i + 2);
        if (close < 0) stop("Unterminated comment", "There is no closing marker for this comment.", i, i + 2);
        i = close + 2;
      } else break;
    }
    this.pos = i;
  }

  /** At a newline (LF or CRLF) or the end of the file. */
  atLineEnd(): boolean {
    const c = this.text.charCodeAt(this.pos);
    return this.pos >= this.text.length || c === 10 || (c === 13 && this.text.charCodeAt(this.pos + 1) === 10);
  }

  afterLineBreak(i: number): number {
    return this.text.charCodeAt(i) === 13 ? i + 2 : i + 1;
  }

  identEnd(from: number): number {
    const text = this.text;
    let i = from + 1;
    while (i < text.length && isIdentPart(text.charCodeAt(i))) i++;
    return i;
  }

  /** The end of the token at `at` (an identifier, a number, or one character). */
  tokenEnd(at: number): number {
    const text = this.text;
    if (at >= text.length) return at;
    const c = text.charCodeAt(at);
    if (isIdentStart(c)) return this.identEnd(at);
    if (isDigit(c)) {
      let i = at + 1;
      while (i < text.length && (isDigit(text.charCodeAt(i)) || text.charCodeAt(i) === 46)) i++;
      return i;
    }
    if (c === 13 && text.charCodeAt(at + 1) === 10) return at + 2;
    return at + (c >= 0xd800 && c < 0xdc00 ? 2 : 1);
  }

  /** Where an expression problem's range ends, as Terraform draws it. */
  problemEnd(problem: SyntaxProblem): number {
    const at = problem.offset;
    // an escape's backslash and selector; the end of the file as one column past it
    if (problem.summary === "Invalid escape sequence") return Math.min(at + 2, this.text.length);
    if (at >= this.text.length) return at + 1;
    return this.tokenEnd(at);
  }

  /** "main.tf:2,3-4" or "main.tf:2,3-4,1": HCL's way of naming a range in a message. */
  rangeText(range: Range): string {
    const from = this.lines.position(range.start);
    const to = this.lines.position(range.end);
    const end = from.line === to.line ? `${to.column}` : `${to.line},${to.column}`;
    return `${this.filename}:${from.line},${from.column}-${end}`;
  }
}

function isInlineSpace(c: number): boolean {
  return c === 32 || c === 9;
}
