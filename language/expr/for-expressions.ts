// For expressions (`[for x in c : …]`, `{for k, v in c : k => v}`) and `%{for}` directives over a
// collection validate knows, evaluated element by element as HCL does: the names they declare are
// bound while their parts are evaluated, so that "Duplicate object key", a non-bool `if` clause or
// a key of the wrong type are found where Terraform finds them, and the result is known when every
// part is. The same bindings carry templatefile's variables (module-files.ts).

import type { Expr } from "./syntax-tree.js";
import { UNKNOWN, asString, fail, typeOf, type Known, type Locals } from "./known.js";

type Evaluate = (e: Expr, locals: Locals) => Known;

/** The names bound now, innermost last, and their values; names below `floor` are out of scope. */
const boundNames: string[] = [];
const boundValues: Known[] = [];
let floor = 0;

export const NOT_BOUND: unique symbol = Symbol("not bound");

/** The value bound to `name`, or NOT_BOUND (most evaluations bind nothing: one length check). */
export function boundValue(name: string): Known | typeof NOT_BOUND {
  for (let i = boundNames.length - 1; i >= floor; i--) if (boundNames[i] === name) return boundValues[i]!;
  return NOT_BOUND;
}

export function hasBindings(): boolean {
  return boundNames.length > floor;
}

/**
 * Runs `run` with `names` bound to `values` (a for's key and value, templatefile's variables);
 * `alone`: the names bound around it are out of scope meanwhile (a template file's own scope).
 */
export function withBindings<R>(names: string[], values: Known[], run: () => R, alone = false): R {
  const depth = boundNames.length;
  const savedFloor = floor;
  if (alone) floor = depth;
  for (let i = 0; i < names.length; i++) {
    boundNames.push(names[i]!);
    boundValues.push(values[i]!);
  }
  try {
    return run();
  } finally {
    boundNames.length = depth;
    boundValues.length = depth;
    floor = savedFloor;
  }
}

/**
 * Iterations left to the outermost for expression being evaluated: nested for expressions over
 * long literal lists multiply, and past this budget the result is left unknown (never guessed).
 */
const ITERATION_BUDGET = 100_000;
let budget = 0;
let nesting = 0;

/** The value of a for expression or directive, or the first error evaluating it (thrown). */
export function evaluateFor(e: Expr & { t: "for" }, locals: Locals, evaluate: Evaluate): Known {
  const coll = evaluate(e.coll, locals);
  if (coll === UNKNOWN) return UNKNOWN;
  if (coll === null) fail("Iteration over null value", "A null value cannot be used as the collection in a 'for' expression.");
  if (typeof coll !== "object") fail("Iteration over non-iterable value", `A value of type ${typeOf(coll)} cannot be used as the collection in a 'for' expression.`);
  if (nesting === 0) budget = ITERATION_BUDGET;
  else if (budget <= 0) return UNKNOWN;
  nesting++;
  try {
    return iterate(e, coll, locals, evaluate);
  } finally {
    nesting--;
  }
}

function iterate(e: Expr & { t: "for" }, coll: Known[] | { [key: string]: Known }, locals: Locals, evaluate: Evaluate): Known {
  // cty iterates a tuple by index, an object by its attribute names in order
  const keys: (string | number)[] = Array.isArray(coll) ? coll.map((_, i) => i) : Object.keys(coll).sort();
  const names = e.keyName === null ? [e.valueName] : [e.keyName, e.valueName];
  const values: Known[] = names.length === 1 ? [UNKNOWN] : [UNKNOWN, UNKNOWN];
  const items: Known[] = [];
  const object: { [key: string]: Known } = Object.create(null);
  let known = true;
  for (const k of keys) {
    if (--budget < 0) return UNKNOWN;
    const v = Array.isArray(coll) ? coll[k as number]! : coll[k as string]!;
    if (names.length === 2) values[0] = k;
    values[names.length - 1] = v;
    const outcome = withBindings(names, values, () => element(e, locals, evaluate));
    if (outcome === SKIP) continue;
    if (outcome === UNKNOWN_ELEMENT) {
      known = false;
      continue;
    }
    const [key, value] = outcome;
    if (e.result !== "object") items.push(value);
    else if (e.group) ((object[key!] ??= []) as Known[]).push(value);
    else if (Object.prototype.hasOwnProperty.call(object, key!)) {
      fail("Duplicate object key", `Two different items produced the key ${JSON.stringify(key)} in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.`);
    } else object[key!] = value;
  }
  if (!known) return UNKNOWN;
  if (e.result === "tuple") return items;
  if (e.result === "object") return object;
  return join(items);
}

const SKIP: unique symbol = Symbol("skip");
const UNKNOWN_ELEMENT: unique symbol = Symbol("unknown element");

/** One element: filtered out by the `if` clause, of an unknown key or condition, or its key and value. */
function element(e: Expr & { t: "for" }, locals: Locals, evaluate: Evaluate): typeof SKIP | typeof UNKNOWN_ELEMENT | [string | null, Known] {
  if (e.cond !== null) {
    const c = evaluate(e.cond, locals);
    if (c === null) fail("Condition is null", "The value of the 'if' clause must not be null.");
    if (c === UNKNOWN) return UNKNOWN_ELEMENT;
    const include = c === true || c === "true" ? true : c === false || c === "false" ? false : null;
    if (include === null) fail("Invalid 'for' condition", "The 'if' clause value is invalid: bool required.");
    if (!include) return SKIP;
  }
  let key: string | null = null;
  if (e.key !== null) {
    const k = evaluate(e.key, locals);
    if (k === null) fail("Invalid object key", "Key expression in 'for' expression must not produce a null value.");
    if (k === UNKNOWN) return UNKNOWN_ELEMENT;
    if (typeof k === "object") fail("Invalid object key", "The key expression produced an invalid result: string required.");
    const s = asString(k);
    if (s === UNKNOWN) return UNKNOWN_ELEMENT;
    key = s;
  }
  return [key, evaluate(e.value, locals)];
}

/** A `%{for}` directive's iterations joined, each a string (its content is a template). */
function join(items: Known[]): Known {
  let out = "";
  for (const item of items) {
    if (item === null) fail("Invalid template interpolation value", "An iteration result is null. Cannot include a null value in a string template.");
    const s = asString(item);
    if (s === UNKNOWN) return UNKNOWN;
    out += s;
  }
  return out;
}
