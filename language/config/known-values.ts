// The values Terraform knows at validate time. `terraform validate` evaluates every expression
// with input variables, resource attributes, data sources, count and each unknown, but local
// values built from literals (and from other such locals), and operators and some functions over
// them, are known: our providers' value rules then see the value, e.g. milli_cpu = "${local.cpu}"
// with locals { cpu = 3 } fails as milli_cpu = 3 does. Anything else stays unknown, never guessed.

import type { Ctx } from "./context.js";
import { evaluate, EvaluationError, UNKNOWN, type Known } from "../expr/evaluate.js";
import type { Expr } from "../expr/syntax-tree.js";
import { K_FALSE, K_NUMBER, K_OBJECT, K_TRUE, K_ARRAY, type JsonDoc } from "../syntax/json-parser.js";
import { analyzeTemplate, hasTemplate, type TemplateInfo } from "../expr/templates.js";
import { declaredLocals } from "./local-names.js";
import { withModuleFiles } from "../expr/module-files.js";
import { hasBindings } from "../expr/for-expressions.js";

export { asString, UNKNOWN, type Known, type Value } from "../expr/evaluate.js";

/** Local values by name once evaluated (IN_PROGRESS while one is, so that a cycle stays unknown). */
const evaluated = new WeakMap<Ctx, Map<string, Known | typeof IN_PROGRESS>>();
const IN_PROGRESS: unique symbol = Symbol("in progress");

/** The value of a template string, if Terraform knows it at validate time. */
export function templateKnownValue(ctx: Ctx, info: TemplateInfo): Known {
  if (info.problem !== null) return UNKNOWN;
  try {
    return valueOf(ctx, info);
  } catch (error) {
    if (error instanceof EvaluationError) return UNKNOWN;
    throw error;
  }
}

/** The value of an expression (a part of a template), if Terraform knows it at validate time. */
export function expressionKnownValue(ctx: Ctx, expr: Expr): Known {
  return templateKnownValue(ctx, { problem: null, references: [], whole: null, expr });
}

/**
 * The error Terraform reports when it evaluates the template with the module's local values (the
 * errors of literals alone are syntax-time problems of analyzeTemplate already), or null.
 */
export function evaluationError(ctx: Ctx, info: TemplateInfo): EvaluationError | null {
  if (info.problem !== null) return null;
  try {
    valueOf(ctx, info);
    return null;
  } catch (error) {
    if (error instanceof EvaluationError) return error;
    throw error;
  }
}

/** The last evaluation: checkString asks for its error, then the conversion for its value. */
const last: { ctx: Ctx | null; info: TemplateInfo | null; element: IteratorElement | null; value: Known; error: EvaluationError | null } = { ctx: null, info: null, element: null, value: UNKNOWN, error: null };

/** Lets go of the last module's evaluation once it is checked (a long-lived process keeps no module alive). */
export function forgetLastEvaluation(): void {
  last.ctx = null;
  last.info = null;
  last.value = UNKNOWN;
  last.error = null;
}

/** The one element a dynamic block generates its block for, when validate knows it (its for_each has one known element). */
export interface IteratorElement {
  /** the iterator's name (the block type, or `iterator`) */
  name: string;
  key: Known;
  value: Known;
}

let element: IteratorElement | null = null;

/** Runs fn with ITERATOR.key and ITERATOR.value known, as Terraform expands a dynamic block whose for_each it knows. */
export function withIteratorElement<T>(bound: IteratorElement, fn: () => T): T {
  const outer = element;
  element = bound;
  try {
    return fn();
  } finally {
    element = outer;
  }
}

/** The name of the iterator whose element is known now, or null. */
export function knownIterator(): string | null {
  return element === null ? null : element.name;
}

function valueOf(ctx: Ctx, info: TemplateInfo): Known {
  if (last.ctx === ctx && last.info === info && last.element === element) {
    if (last.error !== null) throw last.error;
    return last.value;
  }
  // set once done: evaluating a local value on the way evaluates (and caches) its own template
  let value: Known = UNKNOWN;
  let failure: EvaluationError | null = null;
  try {
    value = evaluateTemplate(ctx, info);
  } catch (error) {
    if (!(error instanceof EvaluationError)) throw error;
    failure = error;
  }
  last.ctx = ctx;
  last.info = info;
  last.element = element;
  last.value = value;
  last.error = failure;
  if (failure !== null) throw failure;
  return value;
}

function evaluateTemplate(ctx: Ctx, info: TemplateInfo): Known {
  if (info.plain === true && plainTemplateUnknown(ctx, info)) return UNKNOWN;
  const locals = (root: string, name: string) => (root === "local" ? localValue(ctx, name) : element !== null && root === element.name ? iteratorAttribute(element, name) : UNKNOWN);
  if (info.expr !== null) {
    const expr = info.expr;
    return ctx.moduleFiles === null ? evaluate(expr, locals) : withModuleFiles(ctx.moduleFiles, () => evaluate(expr, locals));
  }
  // "${root.a.b}": only local.NAME… (and a known iterator's key and value) can be known
  const ref = info.whole;
  if (ref === null || (ref.root !== "local" && ref.root !== element?.name) || ref.steps[0]?.kind !== "attr") return UNKNOWN;
  let expr: Expr = { t: "attr", of: { t: "var", name: ref.root }, name: ref.steps[0].name };
  for (let i = 1; i < ref.steps.length; i++) {
    const step = ref.steps[i]!;
    if (step.kind === "attr") expr = { t: "attr", of: expr, name: step.name };
    else if (step.kind === "index" && step.key !== null) expr = { t: "index", of: expr, key: { t: "lit", v: step.key } };
    else return UNKNOWN;
  }
  return evaluate(expr, locals);
}

/**
 * Whether a template of literal text and plain references (reference-template.ts) is unknown
 * without evaluating it: no reference reads a name the evaluator may know (a known local value,
 * `path`, the known iterator, a for expression's binding), so every interpolation is unknown and
 * none can fail. False when evaluation must decide.
 */
function plainTemplateUnknown(ctx: Ctx, info: TemplateInfo): boolean {
  if (hasBindings()) return false;
  for (const ref of info.references) {
    const first = ref.steps[0];
    if (first === undefined || first.kind !== "attr" || ref.root === "path" || (element !== null && ref.root === element.name)) return false;
    if (ref.root === "local" && localValue(ctx, first.name) !== UNKNOWN) return false;
  }
  return true;
}

function iteratorAttribute(bound: IteratorElement, name: string): Known {
  return name === "key" ? bound.key : name === "value" ? bound.value : UNKNOWN;
}

/** Whether validate does not know local.NAME's value (a declared local value of a variable or a resource, or an undeclared one). */
export function unknownLocal(ctx: Ctx, name: string): boolean {
  return localValue(ctx, name) === UNKNOWN;
}

function localValue(ctx: Ctx, name: string | null): Known {
  if (name === null) return UNKNOWN;
  let cache = evaluated.get(ctx);
  if (cache === undefined) evaluated.set(ctx, (cache = new Map()));
  const cached = cache.get(name);
  if (cached === IN_PROGRESS) return UNKNOWN;
  if (cached !== undefined) return cached;
  const where = declaredLocals(ctx).get(name) as { file: number; key: number } | undefined;
  const doc = where === undefined ? undefined : ctx.files[where.file]?.doc;
  if (where === undefined || doc == null) return UNKNOWN;
  // each local value a local value reads is one level deeper: a chain longer than this stays unknown (not cached: a shorter way in may know it)
  if (localDepth >= MAX_LOCAL_DEPTH) return UNKNOWN;
  cache.set(name, IN_PROGRESS);
  let v: Known;
  localDepth++;
  try {
    v = jsonValue(ctx, doc, where.key + 1);
  } finally {
    localDepth--;
    cache.delete(name);
  }
  cache.set(name, v);
  return v;
}

const MAX_LOCAL_DEPTH = 500;
let localDepth = 0;

/** The value of a JSON expression (a local's value): literals, and templates where known. */
export function jsonValue(ctx: Ctx, doc: JsonDoc, node: number): Known {
  const kind = doc.kinds[node];
  if (kind === K_NUMBER) return doc.num(node);
  if (kind === K_TRUE) return true;
  if (kind === K_FALSE) return false;
  if (doc.isString(node)) {
    const s = doc.str(node);
    if (hasTemplate(s)) return templateKnownValue(ctx, analyzeTemplate(s));
    // a string without templates is still read as one: its escapes "$${" and "%%{" lose a character
    return s.includes("{") ? s.replace(/([$%])\1\{/g, "$1{") : s;
  }
  if (kind === K_ARRAY) return doc.elements(node).map((e) => jsonValue(ctx, doc, e));
  if (kind === K_OBJECT) {
    const out: { [key: string]: Known } = Object.create(null);
    for (const k of doc.members(node)) {
      const key = doc.str(k);
      if (hasTemplate(key) || Object.prototype.hasOwnProperty.call(out, key)) return UNKNOWN;
      out[key] = jsonValue(ctx, doc, k + 1);
    }
    return out;
  }
  return null;
}

