// The tree of a native (`.tf`) file that parser.ts reads: attributes and blocks in bodies, with
// offsets into the file's text. Nodes keep their offsets as numbers and make ranges when asked.
import type { Expr, Reference, SyntaxProblem } from "../../expr/syntax-tree.js";

export interface Range {
  start: number;
  end: number;
}

export interface NativeAttribute {
  readonly kind: "attribute";
  readonly name: string;
  readonly nameRange: Range;
  readonly expr: Expr;
  readonly exprRange: Range;
  /** the expression's source text, `text.slice(exprRange.start, exprRange.end)` */
  readonly source: string;
  /** what the expression refers to (offsets into the file) */
  readonly refs: Reference[];
  /** calls to unknown functions or with wrong argument counts (evaluation errors in Terraform) */
  readonly callProblems: SyntaxProblem[];
  /** from the name to the end of the expression */
  readonly range: Range;
}

/**
 * An attribute keeps its offsets as numbers and makes its ranges and source text when asked: a
 * 10 MB file has hundreds of thousands of attributes, and their garbage was most of the time.
 */
export class Attribute implements NativeAttribute {
  readonly kind = "attribute";

  constructor(
    private readonly text: string,
    readonly name: string,
    private readonly nameStart: number,
    private readonly exprStart: number,
    private readonly exprEnd: number,
    readonly expr: Expr,
    readonly refs: Reference[],
    readonly callProblems: SyntaxProblem[],
  ) {}

  get nameRange(): Range {
    return { start: this.nameStart, end: this.nameStart + this.name.length };
  }
  get exprRange(): Range {
    return { start: this.exprStart, end: this.exprEnd };
  }
  get range(): Range {
    return { start: this.nameStart, end: this.exprEnd };
  }
  get source(): string {
    return this.text.slice(this.exprStart, this.exprEnd);
  }
}

export interface NativeBlock {
  readonly kind: "block";
  readonly type: string;
  readonly typeRange: Range;
  /** labels' values (a quoted label's escapes applied, a bare identifier as written) */
  readonly labels: string[];
  readonly labelRanges: Range[];
  readonly openBraceRange: Range;
  readonly closeBraceRange: Range;
  readonly body: NativeBody;
  /** from the type to the closing brace */
  readonly range: Range;
}

/** Offsets as numbers, ranges made when asked (see Attribute). */
export class Block implements NativeBlock {
  readonly kind = "block";
  /** the closing brace's offset (the opening one's until it is read) */
  closeBrace: number;
  readonly body: Body;

  constructor(
    readonly type: string,
    private readonly typeStart: number,
    readonly labels: string[],
    /** each label's start and end */
    private readonly labelOffsets: number[],
    private readonly openBrace: number,
  ) {
    this.closeBrace = openBrace;
    this.body = new Body(openBrace + 1, openBrace + 1);
  }

  get typeRange(): Range {
    return { start: this.typeStart, end: this.typeStart + this.type.length };
  }
  get labelRanges(): Range[] {
    const out: Range[] = [];
    for (let i = 0; i < this.labelOffsets.length; i += 2) out.push({ start: this.labelOffsets[i]!, end: this.labelOffsets[i + 1]! });
    return out;
  }
  get openBraceRange(): Range {
    return { start: this.openBrace, end: this.openBrace + 1 };
  }
  get closeBraceRange(): Range {
    return { start: this.closeBrace, end: this.closeBrace + 1 };
  }
  get range(): Range {
    return { start: this.typeStart, end: this.closeBrace + 1 };
  }
}

export type NativeItem = NativeAttribute | NativeBlock;

export interface NativeBody {
  /** attributes and blocks in source order */
  readonly items: NativeItem[];
  /** the text between the braces (the whole file for the root body) */
  readonly range: Range;
}

export class Body implements NativeBody {
  items: NativeItem[] = [];

  constructor(
    private readonly start: number,
    public end: number,
  ) {}

  get range(): Range {
    return { start: this.start, end: this.end };
  }
}

/** An empty list shared by every body, block and label list that has nothing. */
export const NONE: never[] = [];
Object.freeze(NONE);

/** A list of exactly its length (one grown by push keeps room for 17 or more). */
export function exact<T>(list: T[]): T[] {
  return list.length === 0 ? NONE : list.slice();
}
