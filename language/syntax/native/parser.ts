// HCL native syntax (`.tf`, `.tftest.hcl`): the body structure (attributes and blocks, one-line
// blocks, comments, newlines as separators) with positions, and each attribute's expression read by
// the project's one expression grammar (expr/template-parser.ts NativeExpressionReader), so that an
// expression of a `.tf` file is the same `Expr` tree, with the same references, as one inside a
// `.tf.json` string.
//
//   parseNative(text, filename) → { file: NativeFile; problems: NativeSyntaxProblem[] }
//
// Offsets are UTF-16 code unit offsets into `text` (what `LineMap` in ../positions.ts turns into
// Terraform's line and column). Problems carry Terraform 1.11's summaries and details (checked by
// running `terraform validate` on the same text: test/language/native-parser.test.ts). Reading stops
// at the first problem that leaves the structure unknown (HCL recovers and may report more; the file
// read again past bad argument values is `recovered`, for the modules it calls); an attribute set
// twice is reported and reading goes on. The tree's nodes are tree.ts's. Blocks are read with an explicit stack, so
// nesting depth costs no call stack. Every list in the result (items, labels, refs,
// callProblems) may be a shared, frozen empty list: read them, never add to them.

import type { SyntaxProblem } from "../../expr/syntax-tree.js";
import { Attribute, Block, Body, NONE, exact, type NativeAttribute, type NativeBody, type Range } from "./tree.js";
import { escapeAt, isDigit, isIdentPart, isIdentStart } from "../../expr/lexer.js";
import { skipItem } from "./recovery.js";
import { NativeExpressionReader } from "../../expr/template-parser.js";
import { LineMap } from "../positions.js";

export type { NativeAttribute, NativeBlock, NativeBody, NativeItem, Range } from "./tree.js";

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
  /** the whole file was read (its problems, if any, are arguments set twice: the first of each is kept) */
  complete: boolean;
  /**
   * when reading stopped: the file read again past each argument whose value is in error, as HCL
   * recovers (it skips the rest of that argument and reads on); Terraform still loads the modules
   * such a file calls. Nothing else of it is checked.
   */
  recovered?: NativeBody;
}

const REQUIRED = "An argument or block definition is required here.";
const REQUIRED_EQUALS = `${REQUIRED} To set an argument, use the equals sign "=" to introduce the argument value.`;

class Stop {
  constructor(readonly problem: NativeSyntaxProblem) {}
}

function stop(summary: string, detail: string, start: number, end: number): never {
  throw new Stop({ summary, detail, range: { start, end } });
}

/** One open body: the block it belongs to (null for the file) and its arguments by name once it has many. */
interface OpenBody {
  block: Block | null;
  body: Body;
  seen: Map<string, NativeAttribute> | null;
}

/** Below this many items a body is searched for an argument set twice; from it on, a hash table. */
const SCAN_LIMIT = 16;

export function parseNative(text: string, filename: string): NativeParseResult {
  const lines = new LineMap(text);
  const root = new Body(0, text.length);
  const reader = new BodyReader(text, filename, lines);
  // Terraform reads a file that starts with a byte order mark as if it had none
  if (text.charCodeAt(0) === 0xfeff) reader.pos = 1;
  const problems = reader.problems;
  try {
    reader.read(root);
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    problems.push(e.problem);
    return { file: { filename, text, body: root, lines }, problems, complete: false, recovered: recoveredBody(text, filename, lines) };
  }
  return { file: { filename, text, body: root, lines }, problems, complete: true };
}

/** The body HCL reads past the arguments whose values are in error (up to the first other problem). */
function recoveredBody(text: string, filename: string, lines: LineMap): NativeBody {
  const root = new Body(0, text.length);
  const reader = new BodyReader(text, filename, lines);
  reader.recovering = true;
  if (text.charCodeAt(0) === 0xfeff) reader.pos = 1;
  try {
    reader.read(root);
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
  }
  return root;
}

class BodyReader {
  readonly problems: NativeSyntaxProblem[] = [];
  pos = 0;
  /** skip an argument whose value is in error and read on (recoveredBody) instead of stopping */
  recovering = false;
  readonly expressions: NativeExpressionReader;

  constructor(
    readonly text: string,
    readonly filename: string,
    readonly lines: LineMap,
  ) {
    this.expressions = new NativeExpressionReader(text);
  }

  read(root: Body): void {
    const text = this.text;
    const stack: OpenBody[] = [{ block: null, body: root, seen: null }];
    for (;;) {
      this.skipSpace(true);
      const at = this.pos;
      const top = stack[stack.length - 1]!;
      if (at >= text.length) {
        root.items = exact(root.items);
        if (top.block !== null) {
          const brace = top.block.openBraceRange;
          top.body.items = exact(top.body.items);
          stop("Unclosed configuration block", "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.", brace.start, brace.end);
        }
        return;
      }
      const c = text.charCodeAt(at);
      if (c === 125 && top.block !== null) {
        this.pos = at + 1;
        this.closeBlock(top.block, at);
        top.body.items = exact(top.body.items);
        stack.pop();
        this.endOfBlock();
        continue;
      }
      if (!isIdentStart(c)) this.notAnItem(at);
      const nameEnd = this.identEnd(at);
      const name = text.slice(at, nameEnd);
      this.pos = nameEnd;
      this.skipSpace(false);
      const next = text.charCodeAt(this.pos);
      if (next === 61 && text.charCodeAt(this.pos + 1) !== 61) {
        const attr = this.recovering ? this.attributeOrSkip(name, at, nameEnd) : this.attribute(name, at, nameEnd);
        if (attr === null) continue;
        this.declare(top, attr);
        this.endOfArgument();
        continue;
      }
      const block = this.blockHeader(name, at, nameEnd);
      top.body.items.push(block);
      const opened = this.openBody(block);
      if (opened) stack.push({ block, body: block.body, seen: null });
    }
  }

  /** An attribute whose name is at [start, nameEnd), the current position at its "=". */
  attribute(name: string, start: number, nameEnd: number): NativeAttribute {
    const r = this.expressions.read(this.pos + 1);
    if (!r.ok) {
      const p = r.problem;
      const detail = p.mention === undefined ? p.detail : p.mention.detail(this.rangeText(p.mention));
      stop(p.summary, detail, p.offset, this.problemEnd(p));
    }
    let exprStart = this.pos + 1;
    while (isInlineSpace(this.text.charCodeAt(exprStart))) exprStart++;
    this.pos = r.end;
    return new Attribute(this.text, name, start, exprStart, r.end, r.expr, r.refs, r.callProblems);
  }

  /** An attribute, or null after skipping it (HCL's recoverAfterBodyItem) when its value is in error. */
  attributeOrSkip(name: string, start: number, nameEnd: number): NativeAttribute | null {
    try {
      return this.attribute(name, start, nameEnd);
    } catch (e) {
      if (!(e instanceof Stop)) throw e;
      this.pos = skipItem(this.text, start);
      return null;
    }
  }

  declare(open: OpenBody, attr: NativeAttribute): void {
    const earlier = this.earlier(open, attr.name);
    if (earlier !== undefined) {
      this.problems.push({
        summary: "Attribute redefined",
        detail: `The argument "${attr.name}" was already set at ${this.rangeText(earlier.nameRange)}. Each argument may be set only once.`,
        range: attr.nameRange,
      });
    } else open.seen?.set(attr.name, attr);
    open.body.items.push(attr);
  }

  /** The argument of this name the body already has. */
  earlier(open: OpenBody, name: string): NativeAttribute | undefined {
    const items = open.body.items;
    if (open.seen === null && items.length < SCAN_LIMIT) {
      for (const item of items) if (item.kind === "attribute" && item.name === name) return item;
      return undefined;
    }
    if (open.seen === null) {
      open.seen = new Map();
      // the first of each name, as found in order
      for (const item of items) if (item.kind === "attribute" && !open.seen.has(item.name)) open.seen.set(item.name, item);
    }
    return open.seen.get(name);
  }

  /** A block's type, labels and opening brace; the current position after the brace. */
  blockHeader(type: string, start: number, typeEnd: number): Block {
    const text = this.text;
    let labels: string[] = NONE;
    let labelOffsets: number[] = NONE;
    for (;;) {
      const c = text.charCodeAt(this.pos);
      if (c === 34) {
        const from = this.pos;
        const label = this.quotedLabel();
        labels = labels.length === 0 ? [label] : [...labels, label];
        labelOffsets = [...labelOffsets, from, this.pos];
      } else if (isIdentStart(c)) {
        const from = this.pos;
        this.pos = this.identEnd(from);
        labels = [...labels, text.slice(from, this.pos)];
        labelOffsets = [...labelOffsets, from, this.pos];
      } else break;
      this.skipSpace(false);
    }
    if (text.charCodeAt(this.pos) !== 123) {
      if (labels.length > 0 && text.charCodeAt(this.pos) === 61) {
        stop("Invalid block definition", 'The equals sign "=" indicates an argument definition, and must not be used when defining a block.', this.pos, this.pos + 1);
      }
      // `name value`, `name` alone on its line: Terraform hints at the missing equals sign
      stop("Argument or block definition required", REQUIRED_EQUALS, start, typeEnd);
    }
    const block = new Block(type, start, labels, labelOffsets, this.pos);
    this.pos++;
    return block;
  }

  /**
   * After a block's "{": a newline opens a body of its own lines (true: the caller reads it); on
   * the same line, the block is empty or holds one argument, and is closed here.
   */
  openBody(block: Block): boolean {
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
    if (!isIdentStart(c)) this.notAnItem(at);
    const nameEnd = this.identEnd(at);
    this.pos = nameEnd;
    this.skipSpace(false);
    const next = text.charCodeAt(this.pos);
    if (next !== 61 || text.charCodeAt(this.pos + 1) === 61) {
      // a nested block (a brace or a label next): Terraform's range ends after that token's first character
      this.recoverSingleLineBlock(nameEnd);
      if (next === 123 || next === 34 || isIdentStart(next)) {
        stop(
          "Argument definition required",
          `A single-line block definition can contain only a single argument. If you meant to define argument "${text.slice(at, nameEnd)}", use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block.`,
          at,
          this.pos + 1,
        );
      }
      stop("Argument or block definition required", REQUIRED_EQUALS, at, nameEnd);
    }
    const attr = this.attribute(text.slice(at, nameEnd), at, nameEnd);
    block.body.items = [attr];
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

  /**
   * After a one-line block's item that is no argument, HCL skips the rest of that item (to the
   * newline outside brackets, strings and heredocs) and then reads what follows as the block's
   * end: anything but its closing brace is a second problem, which Terraform reports first.
   * Keeps the current position.
   */
  recoverSingleLineBlock(from: number): void {
    const text = this.text;
    const saved = this.pos;
    try {
      this.pos = skipItem(text, from);
      if (this.pos >= text.length) return;
      this.skipSpace(false);
      const at = this.pos;
      const c = text.charCodeAt(at);
      if (c === 44) {
        this.problems.push({
          summary: "Invalid single-argument block definition",
          detail: "Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line.",
          range: { start: at, end: at + 1 },
        });
      } else if (at < text.length && this.atLineEnd()) {
        this.problems.push({
          summary: "Invalid single-argument block definition",
          detail: "An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition.",
          range: { start: at, end: this.afterLineBreak(at) },
        });
      }
    } catch (e) {
      if (!(e instanceof Stop)) throw e;
    } finally {
      this.pos = saved;
    }
  }

  /** A body item that does not start with a name: a quoted name before "=" is named as such. */
  notAnItem(at: number): never {
    const text = this.text;
    if (text.charCodeAt(at) === 34) {
      const close = text.indexOf('"', at + 1);
      const eol = text.indexOf("\n", at);
      if (close > 0 && (eol < 0 || close < eol)) {
        let i = close + 1;
        while (isInlineSpace(text.charCodeAt(i))) i++;
        if (text.charCodeAt(i) === 61 && text.charCodeAt(i + 1) !== 61) stop("Invalid argument name", "Argument names must not be quoted.", at, at + 1);
      }
    }
    const c = text.charCodeAt(at);
    if (c === 39) stop("Invalid character", 'Single quotes are not valid. Use double quotes (") to enclose strings.', at, at + 1);
    if (!isLanguageCharacter(c)) stop("Invalid character", "This character is not used within the language.", at, this.tokenEnd(at));
    stop("Argument or block definition required", REQUIRED, at, this.tokenEnd(at));
  }

  closeBlock(block: Block, brace: number): void {
    block.closeBrace = brace;
    block.body.end = brace;
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
    // most labels are plain text up to their quote
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 34 || c === 92 || c === 10 || c === 13 || c === 36 || c === 37) break;
      i++;
    }
    out = text.slice(open + 1, i);
    for (;;) {
      if (i >= text.length) stop("Unterminated template string", "No closing marker was found for the string.", open, i);
      if (text.charCodeAt(i) === 10 || (text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10)) {
        stop(
          "Invalid multi-line string",
          'Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the "heredoc" multi-line template syntax.',
          i,
          this.afterLineBreak(i),
        );
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
        // Terraform: an unclosed comment is no comment, and no argument or block either
        if (close < 0) stop("Argument or block definition required", REQUIRED, i, i + 1);
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
    if (text.startsWith("...", at)) return at + 3;
    return at + (c >= 0xd800 && c < 0xdc00 ? 2 : 1);
  }

  /** Where an expression problem's range ends, as Terraform draws it. */
  problemEnd(problem: SyntaxProblem): number {
    const at = problem.offset;
    if (problem.end !== undefined) return problem.end;
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

/** A character some token of the language starts with (punctuation, a quote, a digit, a name). */
function isLanguageCharacter(c: number): boolean {
  return isIdentStart(c) || isDigit(c) || (c < 128 && '"+-*/%<>!?:=.,()[]{}&|$#~'.includes(String.fromCharCode(c)));
}

function isInlineSpace(c: number): boolean {
  return c === 32 || c === 9;
}
