// HCL's expression grammar (operators, terms, traversals, calls, tuples, objects, for
// expressions) over the lexer's tokens: the references an expression makes, its syntax tree, and
// the first syntax error in Terraform's words. Quoted templates and heredocs inside an expression
// are read by the template parser (template-parser.ts), which extends this class.

import { checkCall } from "./functions.js";
import { fail, INVALID_EXPRESSION, Lexer, T } from "./lexer.js";
import type { Expr, Reference, SyntaxProblem } from "./syntax-tree.js";

export const UNKNOWN: Expr = { t: "unknown" };

/** No problems: shared, so that an expression without any allocates no list. */
export const NO_PROBLEMS: SyntaxProblem[] = [];
Object.freeze(NO_PROBLEMS);
/** No references, likewise (a native reader's results share it: callers never add to `refs`). */
export const NO_REFS: Reference[] = [];
Object.freeze(NO_REFS);

/**
 * How deeply expressions may nest (brackets, calls, templates, unary operators), as the JSON
 * parser bounds objects: Terraform accepts 1,500 levels of parentheses; where levels are heavier
 * (objects, calls) the stack runs out first and parseTemplate answers the same (template-parser.ts).
 */
export const MAX_EXPRESSION_DEPTH = 2500;

/** binary operators by precedence, loosest first */
const BINARY_LEVEL = new Map<string, number>([["||", 0], ["&&", 1], ["==", 2], ["!=", 2], ["<", 3], [">", 3], ["<=", 3], [">=", 3], ["+", 4], ["-", 4], ["*", 5], ["/", 5], ["%", 5]]);

export abstract class ExpressionParser extends Lexer {
  /** the references found */
  refs: Reference[] = [];
  /** the reference the term just parsed starts, which postfix() extends with its steps */
  pendingRef: Reference | null = null;
  /** names a for expression or directive declares, while in their scope */
  readonly scope: string[] = [];
  /** set when the whole template is one interpolation: its expression's span */
  only: [number, number] | null = null;
  /** reading a native file (not a JSON string): its own errors for strings split over lines */
  native = false;
  /** a newline ends the expression here (native syntax outside brackets and interpolations) */
  nlEnds = false;
  /** how deeply the expression being read is nested */
  depth = 0;
  /** the heredoc being read is `<<-`: its lines lose the indentation they share */
  flush = false;
  /** native: call problems are collected here instead of ending the parse */
  callProblems: SyntaxProblem[] | null = null;


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
        const v = Number(raw);
        if (Number.isNaN(v)) fail("Invalid number literal", "Failed to recognize the value of this number literal.", this.a, this.b);
        this.next();
        return { t: "lit", v, raw };
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
        // native: a newline after the dot ends the line, not the name (HCL's range is the newline)
        if (this.nlEnds && this.nl) fail("Invalid attribute name", "An attribute name is required after a dot.", this.nlAt);
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
          if (digits.includes(".")) {
            // "a.0.0" reads as "a" "." "0.0"; an exponent ("a.1e3") is one index, as in HCL
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
          e = splatOf(e);
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
          e = splatOf(e);
          continue;
        }
        const key = this.expression();
        if (!this.isPunct("]")) fail("Missing close bracket on index", 'The index operator must end with a closing bracket ("]").', this.a);
        if (ref !== null) {
          const constant = constantKey(key);
          ref.steps.push({ kind: "index", key: constant });
          if (constant === null) {
            // kept for the type rules: a tuple has no negative index
            if (key.t === "un" && key.op === "-" && key.x.t === "lit" && typeof key.x.v === "number") ref.negativeIndex = -key.x.v;
            ref = null;
          } else ref.end = this.b;
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
      this.evaluationProblem(problem.summary, problem.detail, offset);
    }
    return { t: "call", name, args, expand };
  }

  /** A problem Terraform finds when it evaluates the expression: kept apart when asked (callProblems), else the parse fails with it. */
  evaluationProblem(summary: string, detail: string, offset: number, end?: number): void {
    if (this.callProblems === null) fail(summary, detail, offset, end);
    if (this.callProblems === NO_PROBLEMS) this.callProblems = [];
    this.callProblems.push(end === undefined ? { summary, detail, offset } : { summary, detail, offset, end });
  }

  tuple(): Expr {
    const saved = this.braces;
    const savedNl = this.nlEnds;
    this.braces = 0;
    this.nlEnds = false;
    this.next();
    if (this.isWord("for")) {
      const e = this.forExpression(false);
      this.braces = saved;
      this.nlEnds = savedNl;
      this.next();
      return e;
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
        const e = this.forExpression(true);
        this.braces = saved;
        this.nlEnds = savedNl;
        this.next();
        return e;
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
        const keyStart = this.a;
        const name = this.s.slice(this.a, this.b);
        this.next();
        if ((this.isPunct("=") || this.isPunct(":")) && !(this.native && this.nl)) key = { t: "lit", v: name };
        else {
          if (this.native) {
            // any other key is an expression (`a % b`, `local.k`), as HCL reads it
            this.seek(keyStart);
            key = this.expression();
          } else key = this.postfix({ t: "var", name });
          // a bare `a.b` could mean the reference or the name with a dot: HCL refuses to guess (parentheses or quotes say which)
          if (key.t !== "var" && isStaticTraversal(key)) this.evaluationProblem("Ambiguous attribute key", AMBIGUOUS_KEY, keyStart, this.last);
        }
      } else key = this.expression();
      // native: the key's line ends before its "="
      if (this.native && this.nl) fail("Missing attribute value", 'Expected an attribute value, introduced by an equals sign ("=").', this.nlAt);
      if (!this.isPunct("=") && !this.isPunct(":")) fail("Missing key/value separator", 'Expected an equals sign ("=") to mark the beginning of the attribute value.', this.a);
      this.next();
      keys.push(key);
      values.push(this.expression());
      // native: a newline ends the attribute, and a comma after it starts nothing
      if (this.native && this.nl) continue;
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
  forExpression(object: boolean): Expr {
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
    const coll = this.expression();
    // the names are the for expression's own from here to its end
    this.scope.push(...names);
    if (!this.isPunct(":")) fail("Invalid 'for' expression", "For expression requires a colon after the collection expression.", this.a);
    this.next();
    const first = this.a;
    let key: Expr | null = null;
    let value = this.expression();
    let group = false;
    if (object) {
      // Terraform points at the expression that should have been a key
      if (!this.isPunct("=>")) fail("Invalid 'for' expression", "Key expression is required when building an object.", first, this.last);
      this.next();
      key = value;
      value = this.expression();
      if (this.isPunct("...")) {
        group = true;
        this.next();
      }
    } else {
      if (this.isPunct("=>")) fail("Invalid 'for' expression", "Key expression is not valid when building a tuple.", this.a);
      if (this.isPunct("...")) fail("Invalid 'for' expression", "Grouping ellipsis (...) cannot be used when building a tuple.", this.a, this.b);
    }
    let cond: Expr | null = null;
    if (this.isWord("if")) {
      this.next();
      cond = this.expression();
    }
    if (!this.isPunct(close)) fail("Invalid 'for' expression", "Extra characters after the end of the 'for' expression.", this.a);
    this.scope.length -= names.length;
    const two = names.length === 2;
    return { t: "for", result: object ? "object" : "tuple", keyName: two ? names[0]! : null, valueName: two ? names[1]! : names[0]!, coll, key, value, cond, group };
  }

  /** A quoted template (after its opening quote). */
  abstract quoted(): Expr;

  /** A heredoc template (after its `<<`). */
  abstract heredoc(): Expr;
}

/**
 * A splat's value is not modelled (unknown), but its source is still evaluated (its errors count)
 * and still marks it: a splat of a sensitive value is sensitive.
 */
function splatOf(source: Expr): Expr {
  return { t: "unknown", checks: [{ kind: "evaluate", e: source }] };
}

/** The key of an index that is a constant: a number, or a string without templates. */
function constantKey(key: Expr): string | number | null {
  if (key.t === "lit") return typeof key.v === "number" || typeof key.v === "string" ? key.v : null;
  if (key.t === "tpl" && key.parts.length === 0) return "";
  if (key.t === "tpl" && key.parts.length === 1 && key.parts[0]!.t === "lit") return constantKey(key.parts[0]!);
  return null;
}

const AMBIGUOUS_KEY =
  "If this expression is intended to be a reference, wrap it in parentheses. If it's instead intended as a literal name containing periods, wrap it in quotes to create a string literal.";

/** A reference written out: a name with attributes and literal indexes (`a.b`, `a[0]`), nothing computed. */
function isStaticTraversal(e: Expr): boolean {
  for (;;) {
    if (e.t === "var") return true;
    if (e.t === "attr") e = e.of;
    else if (e.t === "index" && e.key.t === "lit") e = e.of;
    else return false;
  }
}
