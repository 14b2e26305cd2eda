// The second most common template after a lone reference: literal text around interpolations
// of plain references, "${local.prefix}-db-1", "/logs/${var.env}/${tsdb_service.db.name}". It is
// read here in one pass, without the lexer and parser, into the same references and syntax tree
// that parseTemplate gives; anything else (whitespace, calls, operators, indexes, escapes,
// directives, literals) returns null and the general parser reads it.

import { isIdentPart, isIdentStart } from "./lexer.js";
import type { Expr, Reference, TraversalStep } from "./syntax-tree.js";

const DOLLAR = 36;
const PERCENT = 37;
const BACKSLASH = 92;
const LBRACE = 123;
const RBRACE = 125;
const DOT = 46;

export interface ReferenceTemplate {
  references: Reference[];
  /** { t: "tpl" } of the literal text and the references, as parseTemplate builds it */
  expr: Expr;
}

/**
 * `s` read as literal text and `${a.b.c}` interpolations when it is only that, with at least one
 * interpolation and more than one part (a lone `${a.b.c}` is the caller's own fast path).
 * Evaluating the result with no values known can fail on nothing: its interpolations are unknown.
 */
export function referenceTemplate(s: string): ReferenceTemplate | null {
  const references = referenceTemplateReferences(s);
  return references === null ? null : { references, expr: referenceTemplateExpr(s, references) };
}

/**
 * The references of `s` when referenceTemplate accepts it, else null: the syntax tree is not
 * built (most such templates are never evaluated, see known-values.ts; referenceTemplateExpr
 * builds it when one is).
 */
export function referenceTemplateReferences(s: string): Reference[] | null {
  // first the shape, allocating nothing (most strings that fail do so here), then the result
  // in lists of their exact length
  const n = s.length;
  let interpolations = 0;
  let literals = 0;
  let literalFrom = 0;
  for (;;) {
    const at = nextInterpolation(s, literalFrom);
    if (at === NOT_PLAIN) return null;
    if (at === NO_MORE) break;
    if (at > literalFrom) literals++;
    const end = traversalEnd(s, at + 2);
    if (end < 0) return null;
    interpolations++;
    literalFrom = end + 1;
  }
  if (n > literalFrom) literals++;
  if (interpolations === 0 || interpolations + literals < 2) return null;
  const references: Reference[] = new Array(interpolations);
  let reference = 0;
  literalFrom = 0;
  for (let i = s.indexOf("${"); i >= 0; i = s.indexOf("${", literalFrom)) {
    const end = traversalEnd(s, i + 2);
    let dots = 0;
    for (let j = i + 2; j < end; j++) if (s.charCodeAt(j) === DOT) dots++;
    const steps: TraversalStep[] = new Array(dots);
    let j = i + 2;
    while (j < end && s.charCodeAt(j) !== DOT) j++;
    const root = s.slice(i + 2, j);
    for (let k = 0; k < dots; k++) {
      const from = j + 1;
      j = from;
      while (j < end && s.charCodeAt(j) !== DOT) j++;
      steps[k] = { kind: "attr", name: s.slice(from, j) };
    }
    references[reference++] = { root, steps, start: i + 2, end };
    literalFrom = end + 1;
  }
  return references;
}

/** The syntax tree ({ t: "tpl" }, as parseTemplate builds it) of a template referenceTemplateReferences accepted, from its references. */
export function referenceTemplateExpr(s: string, references: Reference[]): Expr {
  const parts: Expr[] = [];
  let literalFrom = 0;
  for (const ref of references) {
    // each reference's "${" is 2 before its start, its "}" at its end
    if (ref.start - 2 > literalFrom) parts.push({ t: "lit", v: s.slice(literalFrom, ref.start - 2) });
    let expr: Expr = { t: "var", name: ref.root };
    for (const step of ref.steps) expr = { t: "attr", of: expr, name: (step as { name: string }).name };
    parts.push(expr);
    literalFrom = ref.end + 1;
  }
  if (s.length > literalFrom) parts.push({ t: "lit", v: s.slice(literalFrom) });
  return { t: "tpl", parts };
}

/**
 * Where the plain reference starting at `from` ends (the offset of its closing "}"), or -1 when
 * what starts there is anything else: names joined by dots, the first not a literal's keyword.
 */
function traversalEnd(s: string, from: number): number {
  const n = s.length;
  if (!isIdentStart(s.charCodeAt(from))) return -1;
  let j = from + 1;
  while (j < n && isIdentPart(s.charCodeAt(j))) j++;
  // "${true}", "${null}": literals, not references
  const length = j - from;
  if (length === 4 ? s.startsWith("true", from) || s.startsWith("null", from) : length === 5 && s.startsWith("false", from)) return -1;
  while (s.charCodeAt(j) === DOT) {
    if (!isIdentStart(s.charCodeAt(j + 1))) return -1;
    j += 2;
    while (j < n && isIdentPart(s.charCodeAt(j))) j++;
  }
  return s.charCodeAt(j) === RBRACE ? j : -1;
}

/** nextInterpolation's answers besides an offset */
export const NO_MORE = -1;
export const NOT_PLAIN = -2;

/**
 * Where the next "${" of a plain template starts at or after `from` (NO_MORE: only literal text
 * follows), or NOT_PLAIN when the literal text holds what only the general parser reads: a
 * backslash, a directive ("%{" or any "%"), a "$" that opens nothing.
 */
export function nextInterpolation(s: string, from: number): number {
  const n = s.length;
  for (let i = from; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === BACKSLASH || c === PERCENT) return NOT_PLAIN;
    if (c === DOLLAR) return s.charCodeAt(i + 1) === LBRACE ? i : NOT_PLAIN;
  }
  return NO_MORE;
}
