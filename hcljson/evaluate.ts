// Evaluation of a parsed template (expressions.ts) over the values known at validate time. Local
// values come from the caller (values.ts reads them from the module; without a module every
// reference is unknown). An operand, index or argument that is known and of the wrong type is an
// error Terraform reports at validate time, in its words; anything unknown is passed through.

import type { Expr } from "./expressions.js";
import { parameterOf } from "./functions.js";

/** A value not known at validate time. */
export const UNKNOWN: unique symbol = Symbol("unknown");

/** A value; inside a tuple or object, an element may be unknown while the others are known, as in cty. */
export type Value = string | number | boolean | null | Known[] | { [key: string]: Known };
export type Known = Value | typeof UNKNOWN;

/** An error of evaluation, as Terraform words it. */
export class EvaluationError {
  constructor(
    readonly summary: string,
    readonly detail: string,
  ) {}
}

/** Where local values come from; null: every reference is unknown. */
export type Locals = ((name: string) => Known) | null;

function fail(summary: string, detail: string): never {
  throw new EvaluationError(summary, detail);
}

/** The value of `e`, or the first evaluation error (thrown as an EvaluationError). */
export function evaluate(e: Expr, locals: Locals): Known {
  switch (e.t) {
    case "lit":
      return e.v;
    case "tpl": {
      let out = "";
      let unknown = false;
      for (const part of e.parts) {
        const v = evaluate(part, locals);
        if (v === UNKNOWN) unknown = true;
        else if (v !== null && typeof v === "object") fail("Invalid template interpolation value", "Cannot include the given value in a string template: string required.");
        else {
          const s = asString(v);
          if (s === UNKNOWN) unknown = true;
          else out += s;
        }
      }
      return unknown ? UNKNOWN : out;
    }
    case "var":
      return UNKNOWN;
    case "attr":
      if (e.of.t === "var") return e.of.name === "local" && locals !== null ? locals(e.name) : UNKNOWN;
      return attribute(evaluate(e.of, locals), e.name);
    case "index":
      return index(evaluate(e.of, locals), evaluate(e.key, locals));
    case "un": {
      const x = evaluate(e.x, locals);
      if (x === UNKNOWN) return UNKNOWN;
      if (e.op === "-") {
        const n = asNumber(x);
        if (n === UNKNOWN) fail("Invalid operand", "Unsuitable value for unary operand: a number is required.");
        return -n;
      }
      const b = asBool(x);
      if (b === UNKNOWN) fail("Invalid operand", "Unsuitable value for unary operand: a bool is required.");
      return !b;
    }
    case "bin":
      return binary(e.op, evaluate(e.l, locals), evaluate(e.r, locals));
    case "cond":
      return conditional(evaluate(e.c, locals), evaluate(e.a, locals), evaluate(e.b, locals));
    case "tuple":
      return e.items.map((item) => evaluate(item, locals));
    case "object": {
      const out: { [key: string]: Known } = Object.create(null);
      let unknownKey = false;
      for (let i = 0; i < e.keys.length; i++) {
        const k = asString(evaluate(e.keys[i]!, locals));
        const v = evaluate(e.values[i]!, locals);
        if (k === UNKNOWN) unknownKey = true;
        else out[k] = v;
      }
      return unknownKey ? UNKNOWN : out;
    }
    case "call":
      // try and can catch their arguments' errors; their result is left unknown
      if (e.name === "try" || e.name === "can" || e.name === "core::try" || e.name === "core::can") return UNKNOWN;
      return call(e.name.startsWith("core::") ? e.name.slice(6) : e.name, e.args.map((a) => evaluate(a, locals)), e.expand);
    default:
      return UNKNOWN;
  }
}

/** A primitive as a string, as Terraform converts it in a template or to a string attribute. */
export function asString(v: Known): string | typeof UNKNOWN {
  if (typeof v === "string") return v;
  // where JavaScript would write an exponent, Terraform writes every digit: left unknown
  if (typeof v === "number") return Number.isFinite(v) && (v === 0 || (Math.abs(v) >= 1e-6 && Math.abs(v) < 1e21)) ? String(v) : UNKNOWN;
  if (typeof v === "boolean") return v ? "true" : "false";
  return UNKNOWN;
}

export function asNumber(v: Known): number | typeof UNKNOWN {
  if (typeof v === "number") return v;
  if (typeof v === "string" && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(v)) return Number(v);
  return UNKNOWN;
}

function asBool(v: Known): boolean | typeof UNKNOWN {
  if (typeof v === "boolean") return v;
  if (v === "true") return true;
  if (v === "false") return false;
  return UNKNOWN;
}

function typeOf(v: Value): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "tuple";
  return typeof v === "object" ? "object" : typeof v === "boolean" ? "bool" : typeof v;
}

function attribute(v: Known, name: string): Known {
  if (v === UNKNOWN || v === null) return UNKNOWN;
  if (typeof v !== "object") fail("Unsupported attribute", `Can't access attributes on a primitive-typed value (${typeOf(v)}).`);
  if (Array.isArray(v)) {
    // the legacy index syntax ("a.0") is an index
    return /^\d+$/.test(name) ? index(v, Number(name)) : UNKNOWN;
  }
  if (!Object.prototype.hasOwnProperty.call(v, name)) fail("Unsupported attribute", `This object does not have an attribute named "${name}".`);
  return v[name]!;
}

function index(v: Known, key: Known): Known {
  if (v === UNKNOWN || v === null) return UNKNOWN;
  if (typeof v !== "object") fail("Invalid index", "This value does not have any indices.");
  if (key === UNKNOWN || key === null) return UNKNOWN;
  if (Array.isArray(v)) {
    const i = asNumber(key);
    if (i === UNKNOWN) fail("Invalid index", "The given key does not identify an element in this collection value: a number is required.");
    if (!Number.isInteger(i) || i < 0 || i >= v.length) fail("Invalid index", "The given key does not identify an element in this collection value.");
    return v[i]!;
  }
  const k = asString(key);
  if (k === UNKNOWN || !Object.prototype.hasOwnProperty.call(v, k)) return UNKNOWN;
  return v[k]!;
}

const ARITHMETIC = new Set(["+", "-", "*", "/", "%", "<", ">", "<=", ">="]);

function binary(op: string, l: Known, r: Known): Known {
  if (ARITHMETIC.has(op)) {
    const a = operand(l, "left");
    const b = operand(r, "right");
    if (a === UNKNOWN || b === UNKNOWN) return UNKNOWN;
    switch (op) {
      case "<":
        return a < b;
      case ">":
        return a > b;
      case "<=":
        return a <= b;
      case ">=":
        return a >= b;
      case "+":
        return a + b;
      case "-":
        return a - b;
      case "*":
        return a * b;
      default:
        // Terraform's numbers are not JavaScript's: a division by zero is left to it
        return b === 0 ? UNKNOWN : op === "/" ? a / b : a % b;
    }
  }
  if (op === "&&" || op === "||") {
    const a = logical(l, "left");
    const b = logical(r, "right");
    if (a === UNKNOWN || b === UNKNOWN) return UNKNOWN;
    return op === "&&" ? a && b : a || b;
  }
  // == and !=: values of different types are not equal; only primitives are compared here
  if (l === UNKNOWN || r === UNKNOWN || (l !== null && typeof l === "object") || (r !== null && typeof r === "object")) return UNKNOWN;
  return op === "==" ? l === r : l !== r;
}

function operand(v: Known, side: string): number | typeof UNKNOWN {
  if (v === UNKNOWN) return UNKNOWN;
  if (v === null) fail("Operation failed", "Error during operation: argument must not be null.");
  const n = asNumber(v);
  if (n === UNKNOWN) fail("Invalid operand", `Unsuitable value for ${side} operand: a number is required.`);
  return n;
}

function logical(v: Known, side: string): boolean | typeof UNKNOWN {
  if (v === UNKNOWN || v === null || typeof v === "string") return asBool(v);
  if (typeof v === "boolean") return v;
  // a number, tuple or object never converts to bool
  return fail("Invalid operand", `Unsuitable value for ${side} operand: ${typeof v === "number" ? "bool required" : "a bool is required"}.`);
}

function conditional(c: Known, a: Known, b: Known): Known {
  if (c !== UNKNOWN && c !== null && typeof c !== "boolean" && asBool(c) === UNKNOWN) fail("Incorrect condition type", "The condition expression must be of type bool.");
  if (a !== UNKNOWN && b !== UNKNOWN && a !== null && b !== null) {
    const structural = (v: Value) => typeof v === "object";
    if (structural(a) !== structural(b)) {
      fail("Inconsistent conditional result types", `The true and false result expressions must have consistent types. The 'true' value is ${typeOf(a)}, but the 'false' value is ${typeOf(b)}.`);
    }
  }
  const which = asBool(c);
  if (which === UNKNOWN) return UNKNOWN;
  const v = which ? a : b;
  const other = which ? b : a;
  // the result's type unifies both branches: only equal primitive kinds are passed on
  if (v === UNKNOWN || (other !== UNKNOWN && other !== null && v !== null && typeof other !== typeof v)) return UNKNOWN;
  return v;
}

/** Known arguments of a primitive-typed parameter must convert to its type, as at validate time. */
function checkArguments(name: string, args: Known[]): void {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!;
    if (v === UNKNOWN || v === null) continue;
    const p = parameterOf(name, i);
    if (p === null || p[1] === null) continue;
    const [param, type] = p;
    if (type === "string" && typeof v === "object") fail("Invalid function argument", `Invalid value for "${param}" parameter: string required.`);
    if (type === "number" && asNumber(v) === UNKNOWN) fail("Invalid function argument", `Invalid value for "${param}" parameter: a number is required.`);
  }
}

/** The few functions whose result is worth knowing for our value rules; any other call is unknown. */
function call(name: string, values: Known[], expand: boolean): Known {
  if (expand) return UNKNOWN;
  checkArguments(name, values);
  if (values.includes(UNKNOWN)) return UNKNOWN;
  const [a, b] = values;
  switch (name) {
    case "upper":
    case "lower": {
      if (typeof a !== "string" || values.length !== 1) return UNKNOWN;
      return name === "upper" ? a.toUpperCase() : a.toLowerCase();
    }
    case "tostring":
      return values.length === 1 ? asString(a!) : UNKNOWN;
    case "tonumber": {
      if (values.length !== 1 || a === null) return UNKNOWN;
      const n = asNumber(a!);
      if (n === UNKNOWN && typeof a === "string") fail("Invalid function argument", `Invalid value for "v" parameter: cannot convert ${JSON.stringify(a)} to number; given string must be a decimal representation of a number.`);
      return n;
    }
    case "max":
    case "min": {
      const ns = values.map(asNumber);
      if (ns.length === 0 || ns.includes(UNKNOWN)) return UNKNOWN;
      return name === "max" ? Math.max(...(ns as number[])) : Math.min(...(ns as number[]));
    }
    case "abs":
    case "floor":
    case "ceil": {
      const n = asNumber(a!);
      if (n === UNKNOWN || values.length !== 1) return UNKNOWN;
      return Math[name](n);
    }
    case "length":
      if (values.length !== 1) return UNKNOWN;
      if (typeof a === "string") return [...a.normalize("NFC")].length;
      if (Array.isArray(a)) return a.length;
      return a !== null && typeof a === "object" ? Object.keys(a).length : UNKNOWN;
    case "lookup":
      if (values.length < 2 || typeof b !== "string") return UNKNOWN;
      if (a !== null && typeof a === "object" && !Array.isArray(a) && Object.prototype.hasOwnProperty.call(a, b)) return a[b]!;
      return values.length === 3 ? values[2]! : UNKNOWN;
    case "element":
      return Array.isArray(a) && typeof b === "number" && a.length > 0 && Number.isInteger(b) && b >= 0 ? a[b % a.length]! : UNKNOWN;
  }
  return UNKNOWN;
}
