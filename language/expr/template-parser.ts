// HCL's template and expression grammar over a string (a JSON string's decoded value): a parser that reports the first
// syntax error with Terraform's words, checks function calls against Terraform's functions, and
// builds a small syntax tree (syntax-tree.ts) that evaluate.ts evaluates when every input is known at validate time.
// It works on the decoded string (JSON escapes applied), as Terraform does; offsets are into it.

import { checkCall } from "./functions.js";
import { EXTRA_AFTER_INTERPOLATION, Fail, fail, INVALID_EXPRESSION, isIdentPart, Lexer, quotedEscape, quoteEnd, T } from "./lexer.js";
import type { Expr, ParseResult, Reference, ValueCheck } from "./syntax-tree.js";

const UNKNOWN: Expr = { t: "unknown" };

/** how deeply expressions may nest, as json-parser.ts's MAX_DEPTH for objects and arrays */
const MAX_EXPRESSION_DEPTH = 2500;

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
    // nesting that is heavier per level than the bound allows for (objects, calls and quoted
    // templates in each other) runs out of stack first: the same answer, not a crash
    if (e instanceof RangeError && /call stack/i.test(e.message)) return { ok: false, problem: { summary: "Nesting too deep", detail: `Expressions may be nested at most ${MAX_EXPRESSION_DEPTH} levels deep.`, offset: 0 } };
    throw e;
  }
}

type TemplateEnd = "file" | "quote" | "heredoc";

class Parser extends Lexer {
  /** the references found */
  readonly refs: Reference[] = [];
  /** the reference the term just parsed starts, which postfix() extends with its steps */
  pendingRef: Reference | null = null;
  /** names a for expression or directive declares, while in their scope */
  readonly scope: string[] = [];
  /** set when the whole template is one interpolation: its expression's span */
  only: [number, number] | null = null;
  /** the checks of the directives of the template being read */
  directiveChecks: ValueCheck[] | null = null;
  /** how many expressions the one being read is nested in (see deeper) */
  depth = 0;



  // -------------------------------------------------------------------------------------------
  // Templates

  /** A template over s[from, to): literal text, interpolations and directives. */
  template(from: number, to: number, end: TemplateEnd): Expr {
    const s = this.s;
    const parts: Expr[] = [];
    const open: { word: string; at: number; names: number }[] = [];
    // the checks of this template's own directives (allocated at the first one)
    const outerChecks = this.directiveChecks;
    this.directiveChecks = null;
    let literal = "";
    let known = true;
    let interpolations = 0;
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
        literal += s.slice(i, j);
        i = j;
        continue;
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
          this.limit = to;
          this.braces = 0;
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
        } else {
          known = false;
          i = this.directive(at, j, to, end, open);
        }
        continue;
      }
      if (end === "quote" && c === 92) {
        const [text, next] = quotedEscape(s, i, to);
        literal += text;
        i = next;
        continue;
      }
      literal += s[i];
      i++;
    }
    if (open.length > 0) {
      const top = open[open.length - 1]!;
      fail("Unexpected end of template", `The ${top.word} directive is missing its corresponding end${top.word} directive.`, to);
    }
    const checks = this.directiveChecks as ValueCheck[] | null;
    this.directiveChecks = outerChecks;
    if (!known) return checks !== null ? { t: "unknown", checks } : UNKNOWN;
    if (literal !== "") parts.push({ t: "lit", v: literal });
    // a template that is one interpolation and nothing else has the value of its expression, not a string
    if (parts.length === 1 && interpolations === 1) return parts[0]!;
    return { t: "tpl", parts };
  }

  /** One `%{ … }` directive starting at `at`, its keyword at `j`; returns the offset after it. */
  directive(at: number, j: number, to: number, end: TemplateEnd, open: { word: string; at: number; names: number }[]): number {
    const saved = this.limit;
    const savedBraces = this.braces;
    this.limit = to;
    this.braces = 0;
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
        open.push({ word, at, names: 0 });
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
        open.push({ word, at, names: names.length });
        break;
      }
      case "else":
      case "endif":
      case "endfor": {
        this.closeMarker(word, at, end);
        const top = open[open.length - 1];
        const wanted = word === "endfor" ? "for" : "if";
        if (top === undefined) fail(`Unexpected ${word} directive`, "The control directives within this template are unbalanced.", at);
        if (top.word !== wanted) fail(`Unexpected ${word} directive`, `Expecting an end${top.word} directive for the ${top.word} started earlier in this template.`, at);
        if (word !== "else") this.scope.length -= open.pop()!.names;
        break;
      }
      default:
        fail("Invalid template control keyword", `"${word}" is not a valid template control keyword.`, wordAt);
    }
    const next = this.b;
    this.limit = saved;
    this.braces = savedBraces;
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
  // Expressions

  expression(): Expr {
    this.deeper();
    const c = this.binary(0);
    if (!this.isPunct("?")) {
      this.depth--;
      return c;
    }
    this.next();
    const a = this.expression();
    if (!this.isPunct(":")) fail("Missing false expression in conditional", "The conditional operator (...?...:...) requires a false expression, delimited by a colon.", this.a);
    this.next();
    const b = this.expression();
    this.depth--;
    return { t: "cond", c, a, b };
  }

  /**
   * One level deeper into nested expressions (parentheses, brackets, conditionals, templates in
   * strings, unary operators): the parser and evaluate.ts recurse per level, so the nesting is
   * bounded as the JSON parser bounds objects (Terraform's is not; a run out of stack is no verdict).
   */
  deeper(): void {
    if (++this.depth > MAX_EXPRESSION_DEPTH) fail("Nesting too deep", `Expressions may be nested at most ${MAX_EXPRESSION_DEPTH} levels deep.`, this.a);
  }

  /** Operators of precedence `min` and tighter, left-associative. */
  binary(min: number): Expr {
    let l = this.unary();
    for (;;) {
      if (this.k !== T.Punct) return l;
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
      this.next();
      this.deeper();
      const x = this.unary();
      this.depth--;
      return { t: "un", op, x };
    }
    return this.postfix(this.term());
  }

  term(): Expr {
    const s = this.s;
    switch (this.k) {
      case T.Number: {
        const v = Number(s.slice(this.a, this.b));
        this.next();
        return { t: "lit", v };
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
          this.refs.push(ref);
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
          this.next();
          const inner = this.expression();
          if (!this.isPunct(")")) fail("Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.", this.a);
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
    // the steps are the reference's up to the first index computed by an expression
    let ref = this.pendingRef;
    this.pendingRef = null;
    for (;;) {
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
        } else fail("Invalid attribute name", "An attribute name is required after a dot.", this.a);
        continue;
      }
      if (this.isPunct("[")) {
        this.next();
        if (this.isPunct("*")) {
          this.next();
          if (!this.isPunct("]")) fail("Missing close bracket on splat index", 'The star for a full splat operator must be immediately followed by a closing bracket ("]").', this.a);
          if (ref !== null) {
            ref.steps.push({ kind: "splat" });
            ref.end = this.b;
          }
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
    if (!this.isPunct("(")) fail("Missing function call", "Function scope resolution requires a function call.", this.a);
    const saved = this.braces;
    this.braces = 0;
    this.next();
    const args: Expr[] = [];
    const argStarts: number[] = [];
    let expand = false;
    while (!this.isPunct(")")) {
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
    this.next();
    const problem = checkCall(name, args.length, expand);
    if (problem !== null) {
      const offset = problem.at === "name" ? start : problem.at === "close" ? close : (argStarts[problem.extra ?? 0] ?? start);
      fail(problem.summary, problem.detail, offset);
    }
    return { t: "call", name, args, expand };
  }

  tuple(): Expr {
    const saved = this.braces;
    this.braces = 0;
    this.next();
    if (this.isWord("for")) {
      const checks = this.forExpression(false);
      this.braces = saved;
      this.next();
      return { t: "unknown", checks };
    }
    const items: Expr[] = [];
    while (!this.isPunct("]")) {
      if (this.k === T.EOF || this.k === T.Close) fail("Missing item separator", "Expected a comma to mark the beginning of the next item.", this.a);
      items.push(this.expression());
      if (this.isPunct(",")) {
        this.next();
        continue;
      }
      if (!this.isPunct("]")) fail("Missing item separator", "Expected a comma to mark the beginning of the next item.", this.a);
    }
    this.braces = saved;
    this.next();
    return { t: "tuple", items };
  }

  object(): Expr {
    const saved = this.braces;
    this.braces = 1;
    this.next();
    if (this.isWord("for")) {
      const forAt = this.a;
      this.next();
      const isFor = this.k === T.Ident;
      this.seek(forAt);
      if (isFor) {
        const checks = this.forExpression(true);
        this.braces = saved;
        this.next();
        return { t: "unknown", checks };
      }
    }
    const keys: Expr[] = [];
    const values: Expr[] = [];
    while (!this.isPunct("}")) {
      if (this.k === T.EOF || this.k === T.Close) fail("Missing attribute separator", "Expected a newline or comma to mark the beginning of the next attribute.", this.a);
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
    this.expression();
    if (object) {
      if (!this.isPunct("=>")) fail("Invalid 'for' expression", "Key expression is required when building an object.", this.a);
      this.next();
      this.expression();
      if (this.isPunct("...")) this.next();
    } else {
      if (this.isPunct("=>")) fail("Invalid 'for' expression", "Key expression is not valid when building a tuple.", this.a);
      if (this.isPunct("...")) fail("Invalid 'for' expression", "Grouping ellipsis (...) cannot be used when building a tuple.", this.a);
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
    if (end < 0) fail("Unterminated template string", "No closing marker was found for the string.", this.a);
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
    if (s.charCodeAt(i) === 45) i++;
    const nameStart = i;
    while (i < this.limit && isIdentPart(s.charCodeAt(i))) i++;
    const marker = s.slice(nameStart, i);
    if (marker === "" || s.charCodeAt(i) !== 10) fail("Invalid heredoc", "A heredoc must be introduced by <<MARKER followed by a newline.", this.a);
    const bodyStart = i + 1;
    let line = bodyStart;
    while (line < this.limit) {
      let eol = s.indexOf("\n", line);
      if (eol < 0 || eol > this.limit) eol = this.limit;
      if (s.slice(line, eol).trim() === marker) {
        const limit = this.limit;
        const braces = this.braces;
        this.template(bodyStart, line, "heredoc");
        this.limit = limit;
        this.braces = braces;
        this.seek(eol);
        return UNKNOWN;
      }
      line = eol + 1;
    }
    fail("Unterminated template string", "No closing marker was found for the string.", this.a);
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
