// Evaluation of a parsed template (template-parser.ts) over the values known at validate time. Local
// values come from the caller (config/known-values.ts reads them from the module; without a module every
// reference is unknown). An operand, index or argument that is known and of the wrong type is an
// error Terraform reports at validate time, in its words; anything unknown is passed through.

export { UNKNOWN, EvaluationError, asString, asNumber, type Value, type Known, type Locals } from "./known.js";
import type { Expr } from "./syntax-tree.js";
import { parameterOf, refusesNull } from "./functions.js";
import { durationError } from "./time-functions.js";
import { UNKNOWN, EvaluationError, asString, asNumber, fail, callFailed, badArgument, typeOf, literalNumber, type Value, type Known, type Locals } from "./known.js";
import { boundValue, evaluateFor, hasBindings, NOT_BOUND } from "./for-expressions.js";
import { exactLiteralArithmetic, exactOperation } from "./exact-numbers.js";
import { fileFunction, isFileFunction, pathValue } from "./module-files.js";
import { cidrhost, cidrsubnet, cidrsubnets } from "./network-functions.js";
import { caseMapped, csvdecode, formatlist, graphemeCount, replaceRegex, stringValue } from "./string-functions.js";
import { collectionCallProblem, collectionValue, expandedArguments } from "./collection-functions.js";
import { scalarCallProblem } from "./scalar-functions.js";
import { ownFunctionArgumentError } from "./provider-functions.js";

/** The value of `e`, or the first evaluation error (thrown as an EvaluationError). */
export function evaluate(e: Expr, locals: Locals): Known {
  switch (e.t) {
    case "lit":
      return typeof e.v === "number" && e.raw !== undefined ? literalNumber(e.raw, e.v) : e.v;
    case "tpl": {
      let out = "";
      let unknown = false;
      for (const part of e.parts) {
        const v = evaluate(part, locals);
        if (v === UNKNOWN) unknown = true;
        else if (v === null) fail("Invalid template interpolation value", "The expression result is null. Cannot include a null value in a string template.");
        else if (typeof v === "object") fail("Invalid template interpolation value", "Cannot include the given value in a string template: string required.");
        else {
          const s = asString(v);
          if (s === UNKNOWN) unknown = true;
          else out += s;
        }
      }
      return unknown ? UNKNOWN : out;
    }
    case "var":
      return bound(e.name);
    case "attr":
      if (e.of.t === "var") {
        // a name a for expression declares shadows the module's objects
        const of = hasBindings() ? boundValue(e.of.name) : NOT_BOUND;
        if (of !== NOT_BOUND) return attribute(of, e.name);
        if (locals === null) return UNKNOWN;
        if (e.of.name === "path") return pathValue(e.name);
        // local.X, var.X, and a dynamic block's iterator (ITERATOR.key, ITERATOR.value): the resolver knows which it can tell
        return locals(e.of.name, e.name);
      }
      return chain(e, locals);
    case "index":
      return chain(e, locals);
    case "un": {
      const x = evaluate(e.x, locals);
      if (x === UNKNOWN) return UNKNOWN;
      if (x === null) fail("Operation failed", "Error during operation: argument must not be null.");
      if (e.op === "-") {
        const n = asNumber(x);
        if (n === UNKNOWN) fail("Invalid operand", "Unsuitable value for unary operand: a number is required.");
        return -n;
      }
      const b = asBool(x);
      if (b === UNKNOWN) fail("Invalid operand", "Unsuitable value for unary operand: a bool is required.");
      return !b;
    }
    case "bin": {
      // over number literals only, cty's 512-bit arithmetic (exact-numbers.ts)
      const exact = exactLiteralArithmetic(e);
      return exact !== null ? exact : chain(e, locals);
    }
    case "cond": {
      // both results are evaluated (their types must agree), but only the chosen one's errors
      // count; with an unknown condition, neither's (the result is unknown)
      const c = evaluate(e.c, locals);
      const a = branch(e.a, locals);
      const b = branch(e.b, locals);
      const which = c === UNKNOWN || c === null ? UNKNOWN : asBool(c);
      if (which === true && a instanceof EvaluationError) throw a;
      if (which === false && b instanceof EvaluationError) throw b;
      return conditional(c, a instanceof EvaluationError ? UNKNOWN : a, b instanceof EvaluationError ? UNKNOWN : b);
    }
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
    case "call": {
      if ((e.name === "templatestring" || e.name === "core::templatestring") && e.args[0] && (e.args[0].t === "tpl" || (e.args[0].t === "lit" && typeof e.args[0].v === "string"))) {
        badArgument("template", "invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere, and so does not support providing a literal template; consider using a template string expression instead");
      }
      if (e.name === "can" || e.name === "core::can") return e.args.length === 1 && !e.expand ? can(e.args[0]!, locals) : UNKNOWN;
      if (e.name === "try" || e.name === "core::try") return e.expand ? UNKNOWN : attempt(e.args, locals);
      const name = e.name.startsWith("core::") ? e.name.slice(6) : e.name;
      const values = e.args.map((a) => evaluate(a, locals));
      // the files a module names are read only where its values are (locals given)
      if (locals !== null && !e.expand && isFileFunction(name)) {
        checkArguments(name, values);
        return fileFunction(name, values, evaluate);
      }
      return call(name, values, e.expand);
    }
    case "for":
      return evaluateFor(e, locals, evaluate);
    case "unknown":
      if (e.checks !== undefined) for (const check of e.checks) evaluate(check.e, locals);
      return UNKNOWN;
    default:
      return UNKNOWN;
  }
}

/**
 * A chain of binary operators, attributes and indexes (`1 + 1 + …`, `local.x.a.a…`, `x[0][0]…`)
 * parses as a left spine as deep as it is long: walked without recursion, operands left to right,
 * so a 100,000-term expression cannot exhaust the stack; `local.NAME` is looked up whole.
 */
function chain(e: Expr & { t: "bin" | "attr" | "index" }, locals: Locals): Known {
  const spine: (Expr & { t: "bin" | "attr" | "index" })[] = [];
  let first: Expr = e;
  for (; first.t === "bin" || first.t === "index" || (first.t === "attr" && first.of.t !== "var"); first = first.t === "bin" ? first.l : first.of) spine.push(first);
  let value = evaluate(first, locals);
  for (let i = spine.length - 1; i >= 0; i--) {
    const step = spine[i]!;
    value = step.t === "bin" ? binary(step.op, value, evaluate(step.r, locals)) : step.t === "attr" ? attribute(value, step.name) : index(value, evaluate(step.key, locals));
  }
  return value;
}

/** The value bound to a name (a for expression's), else unknown. */
function bound(name: string): Known {
  if (!hasBindings()) return UNKNOWN;
  const v = boundValue(name);
  return v === NOT_BOUND ? UNKNOWN : v;
}

/** One result of a conditional: its value, or the error evaluating it gave. */
function branch(x: Expr, locals: Locals): Known | EvaluationError {
  try {
    return evaluate(x, locals);
  } catch (error) {
    if (error instanceof EvaluationError) return error;
    throw error;
  }
}

/** can(x): false when x fails to evaluate, true when it has a known value. */
function can(x: Expr, locals: Locals): Known {
  try {
    return evaluate(x, locals) === UNKNOWN ? UNKNOWN : true;
  } catch (error) {
    if (error instanceof EvaluationError) return false;
    throw error;
  }
}

/** try(a, b, …): the first argument that evaluates; unknown as soon as one is unknown, or when none does. */
function attempt(args: Expr[], locals: Locals): Known {
  if (args.length === 0) callFailed("try", "at least one argument is required");
  for (const a of args) {
    try {
      return evaluate(a, locals);
    } catch (error) {
      if (!(error instanceof EvaluationError)) throw error;
    }
  }
  return UNKNOWN;
}

function asBool(v: Known): boolean | typeof UNKNOWN {
  if (typeof v === "boolean") return v;
  if (v === "true") return true;
  if (v === "false") return false;
  return UNKNOWN;
}

function attribute(v: Known, name: string): Known {
  if (v === UNKNOWN) return UNKNOWN;
  if (v === null) fail("Attempt to get attribute from null value", "This value is null, so it does not have any attributes.");
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
  if (k === UNKNOWN) return UNKNOWN;
  // a known map or object has every key it will have: a missing one is an error
  if (!Object.prototype.hasOwnProperty.call(v, k)) fail("Invalid index", "The given key does not identify an element in this collection value.");
  return v[k]!;
}

const ARITHMETIC = new Set(["+", "-", "*", "/", "%", "<", ">", "<=", ">="]);

function binary(op: string, l: Known, r: Known): Known {
  if (ARITHMETIC.has(op)) {
    const a = operand(l, "left");
    const b = operand(r, "right");
    if (a === UNKNOWN || b === UNKNOWN) return UNKNOWN;
    const exact = exactOperation(op, a, b);
    if (exact !== null) return exact;
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
        // cty divides as big.Float does: a non-zero number over zero is an infinity (count and the
        // like refuse it); 0 / 0 and a modulo by zero are left to Terraform
        if (b === 0) return op === "/" && a !== 0 ? a / b : UNKNOWN;
        return op === "/" ? a / b : a % b;
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
  if (typeof l === "number" && typeof r === "number") return exactOperation(op, l, r) ?? (op === "==" ? l === r : l !== r);
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
  if (v === null) fail("Operation failed", "Error during operation: argument must not be null.");
  if (v === UNKNOWN || typeof v === "string") return asBool(v);
  if (typeof v === "boolean") return v;
  // a number, tuple or object never converts to bool
  return fail("Invalid operand", `Unsuitable value for ${side} operand: ${typeof v === "number" ? "bool required" : "a bool is required"}.`);
}

function conditional(c: Known, a: Known, b: Known): Known {
  if (c !== UNKNOWN && c !== null && typeof c !== "boolean" && asBool(c) === UNKNOWN) fail("Incorrect condition type", "The condition expression must be of type bool.");
  if (a !== UNKNOWN && b !== UNKNOWN && a !== null && b !== null) {
    const structural = (v: Value) => typeof v === "object";
    // a tuple and an object never unify (two tuples, or two objects, may)
    if (structural(a) !== structural(b) || (structural(a) && Array.isArray(a) !== Array.isArray(b))) {
      fail("Inconsistent conditional result types", `The true and false result expressions must have consistent types. The 'true' value is ${typeOf(a)}, but the 'false' value is ${typeOf(b)}.`);
    }
  }
  if (c === null) fail("Null condition", "The condition value is null. Conditions must either be true or false.");
  const which = asBool(c);
  if (which === UNKNOWN) return UNKNOWN;
  const v = which ? a : b;
  const other = which ? b : a;
  // the result's type unifies both branches: only equal primitive kinds are passed on
  if (v === UNKNOWN || (other !== UNKNOWN && other !== null && v !== null && typeof other !== typeof v)) return UNKNOWN;
  return v;
}

/** Known arguments must not be null where Terraform refuses it, and must convert to a primitive-typed parameter's type, as at validate time. */
function checkArguments(name: string, args: Known[]): void {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!;
    if (v === UNKNOWN) continue;
    if (v === null) {
      if (refusesNull(name, i)) fail("Invalid function argument", `Invalid value for "${parameterOf(name, i)![0]}" parameter: argument must not be null.`);
      continue;
    }
    const p = parameterOf(name, i);
    if (p === null || p[1] === null) continue;
    const [param, type] = p;
    if (type === "string" && typeof v === "object") fail("Invalid function argument", `Invalid value for "${param}" parameter: string required.`);
    if (type === "number" && asNumber(v) === UNKNOWN) fail("Invalid function argument", `Invalid value for "${param}" parameter: a number is required.`);
  }
}

/** The few functions whose result is worth knowing for our value rules; any other call is unknown. */
function call(name: string, given: Known[], expand: boolean): Known {
  const values = expand ? expandedArguments(name, given) : given;
  if (values === null) return UNKNOWN;
  checkArguments(name, values);
  const own = ownFunctionArgumentError(name, values, (v) => v === UNKNOWN);
  if (own) fail(own.summary, own.detail);
  failingCall(name, values);
  if (values.includes(UNKNOWN)) return UNKNOWN;
  const [a, b] = values;
  switch (name) {
    case "upper":
    case "lower": {
      if (typeof a !== "string" || values.length !== 1) return UNKNOWN;
      return caseMapped(a, name as "upper" | "lower");
    }
    case "tostring":
      return values.length === 1 ? asString(a!) : UNKNOWN;
    case "tobool":
      return values.length === 1 && (typeof a === "boolean" || a === "true" || a === "false") ? a === true || a === "true" : UNKNOWN;
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
    case "log": {
      // Go's math.Log of both, as cty's log divides them (log(1000, 10) is 2.9999999999999996)
      const [n, base] = values.map(asNumber);
      return values.length === 2 && typeof n === "number" && typeof base === "number" && n > 0 && base > 0 && base !== 1 ? Math.log(n) / Math.log(base) : UNKNOWN;
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
      if (typeof a === "string") return graphemeCount(a);
      if (Array.isArray(a)) return a.length;
      return a !== null && typeof a === "object" ? Object.keys(a).length : UNKNOWN;
    case "lookup":
      if (values.length < 2 || typeof b !== "string") return UNKNOWN;
      if (a !== null && typeof a === "object" && !Array.isArray(a) && Object.prototype.hasOwnProperty.call(a, b)) return a[b]!;
      return values.length === 3 ? values[2]! : UNKNOWN;
    case "contains":
      if (values.length !== 2 || !Array.isArray(a)) return UNKNOWN;
      if (a.includes(UNKNOWN) || b === null || typeof b === "object") return UNKNOWN;
      // elements and value of one primitive kind compare as they are; mixed kinds convert, left unknown
      if (a.some((x) => x === null || typeof x !== typeof b)) return UNKNOWN;
      return a.includes(b);
    case "startswith":
    case "endswith":
    case "strcontains":
      if (values.length !== 2 || typeof a !== "string" || typeof b !== "string") return UNKNOWN;
      return name === "startswith" ? a.startsWith(b) : name === "endswith" ? a.endsWith(b) : a.includes(b);
    case "alltrue":
    case "anytrue": {
      if (values.length !== 1 || !Array.isArray(a) || a.some((x) => typeof x !== "boolean")) return UNKNOWN;
      return name === "alltrue" ? a.every((x) => x === true) : a.some((x) => x === true);
    }
    case "cidrhost":
      return typeof a === "string" && values.length === 2 ? cidrhost(a, b!) : UNKNOWN;
    case "regex":
      return typeof a === "string" && typeof b === "string" && values.length === 2 ? regex(a, b) : UNKNOWN;
    case "element":
      return Array.isArray(a) && typeof b === "number" && a.length > 0 && Number.isInteger(b) && b >= 0 ? a[b % a.length]! : UNKNOWN;
    case "cidrsubnet":
      return typeof a === "string" && values.length === 3 ? cidrsubnet(a, b!, values[2]!) : UNKNOWN;
    case "jsondecode":
      return typeof a === "string" && values.length === 1 ? jsondecode(a) : UNKNOWN;
  }
  const text = stringValue(name, values);
  return text !== UNKNOWN ? text : collectionValue(name, values);
}

const isKnownPrimitive = (v: Known): v is string | number | boolean => v !== UNKNOWN && v !== null && typeof v !== "object";

const isObject = (v: Known): v is { [key: string]: Known } => v !== UNKNOWN && v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Calls that fail on the arguments they were given, known ones only (an unknown argument, or an
 * unknown element where it matters, is passed over): Terraform reports these at validate time
 * with the summary the function's implementation gives ("Error in function call" for a failure of
 * the call, "Invalid function argument" for one argument refused). Each rule is the function's
 * own in Terraform 1.11 (and go-cty's stdlib).
 */
function failingCall(name: string, values: Known[]): void {
  collectionCallProblem(name, values);
  scalarCallProblem(name, values);
  const [a, b] = values;
  switch (name) {
    case "element":
      if (Array.isArray(a) && a.length === 0 && values.length === 2) callFailed(name, "cannot use element function with an empty list");
      return;
    case "lookup":
      if (values.length === 2 && isObject(a) && typeof b === "string" && !Object.prototype.hasOwnProperty.call(a, b)) badArgument("inputMap", `the given object has no attribute ${JSON.stringify(b)}`);
      return;
    case "tobool":
      if (values.length === 1 && typeof a === "string" && a !== "true" && a !== "false") badArgument("v", `cannot convert ${JSON.stringify(a)} to bool; only the strings "true" or "false" are allowed`);
      if (values.length === 1 && (typeof a === "number" || (a !== UNKNOWN && a !== null && typeof a === "object"))) badArgument("v", "bool required");
      return;
    case "tostring":
      if (values.length === 1 && a !== UNKNOWN && a !== null && typeof a === "object") badArgument("v", `cannot convert ${typeOf(a)} to string`);
      return;
    case "keys":
      if (values.length === 1 && (Array.isArray(a) || isKnownPrimitive(a))) badArgument("inputMap", "must have map or object type");
      return;
    case "length":
      if (values.length === 1 && (typeof a === "number" || typeof a === "boolean")) callFailed(name, "argument must be a string, a collection type, or a structural type");
      return;
    case "merge":
      for (const v of values) if (Array.isArray(v) || isKnownPrimitive(v)) callFailed(name, `arguments must be maps or objects, got ${JSON.stringify(typeOf(v))}`);
      return;
    case "max":
    case "min":
      if (values.length === 0) callFailed(name, "must pass at least one number");
      return;
    case "one":
      if (values.length === 1 && Array.isArray(a) && a.length > 1) badArgument("list", "must be a list, set, or tuple value with either zero or one elements");
      return;
    case "sum":
      if (values.length === 1 && Array.isArray(a) && a.length === 0) badArgument("list", "cannot sum an empty list");
      return;
    case "zipmap":
      if (values.length === 2 && Array.isArray(a) && Array.isArray(b) && a.length !== b.length) callFailed(name, `number of keys (${a.length}) does not match number of values (${b.length})`);
      return;
    case "coalesce":
      // every argument known and null or "": nothing to return
      if (values.length > 0 && values.every((v) => v === null || v === "")) callFailed(name, "no non-null, non-empty-string arguments");
      return;
    case "index":
      if (values.length === 2 && Array.isArray(a) && isKnownPrimitive(b) && a.every((x) => isKnownPrimitive(x) && typeof x === typeof b) && !a.includes(b)) callFailed(name, "item not found");
      return;
    case "parseint":
      if (values.length === 2 && typeof b === "number" && (b < 2 || b > 62)) badArgument("base", "base must be a whole number between 2 and 62 inclusive");
      if (values.length === 2 && typeof a === "string" && typeof b === "number" && Number.isInteger(b) && b <= 36 && !digitsOfBase(a, b)) badArgument("number", `cannot parse ${JSON.stringify(a)} as a base ${b} integer`);
      return;
    case "range": {
      if (values.length === 0 || values.length > 3) callFailed(name, "must have one, two, or three arguments");
      if (values.length === 3 && values.every((v) => typeof v === "number")) {
        const [start, limit, step] = values as number[];
        if (step === 0) badArgument("step", "step must not be zero");
        if (start! > limit! && step! > 0) badArgument("step", "step must be negative when start is greater than limit");
        if (start! < limit! && step! < 0) badArgument("step", "step must be positive when start is less than limit");
      }
      return;
    }
    case "format":
      if (typeof a === "string") formatVerbs(a, values.slice(1));
      return;
    case "formatlist":
      formatlist(values.slice(1));
      return;
    case "cidrsubnets":
      if (typeof a === "string") cidrsubnets(a, values.slice(1));
      return;
    case "replace":
      if (values.length === 3 && typeof b === "string") replaceRegex(b, PORTABLE_PATTERN);
      return;
    case "csvdecode":
      if (values.length === 1 && typeof a === "string") csvdecode(a);
      return;
    case "tomap":
      // the values must unify to one type: primitives with collections, or lists with objects, never do
      if (values.length === 1 && isObject(a)) {
        const kinds = new Set(Object.values(a).filter((v) => v !== UNKNOWN && v !== null).map((v) => (typeof v !== "object" ? "primitive" : Array.isArray(v) ? "tuple" : "object")));
        if (kinds.size > 1) badArgument("v", "cannot convert object to map of any single type");
      }
      return;
    case "base64decode":
      if (values.length === 1 && typeof a === "string") base64decode(a);
      return;
    case "timeadd":
      if (typeof a === "string" && !RFC3339.test(a)) callFailed(name, `not a valid RFC3339 timestamp: cannot use ${JSON.stringify(a)} as year`);
      if (typeof a === "string" && typeof b === "string") {
        const why = durationError(b);
        if (why) callFailed(name, why);
      }
      return;
    case "tonumber":
      if (values.length === 1 && typeof a === "boolean") badArgument("v", "cannot convert bool to number");
      return;
    case "timecmp":
      if (typeof a === "string" && !RFC3339.test(a)) badArgument("timestamp_a", `not a valid RFC3339 timestamp: cannot use ${JSON.stringify(a)} as year`);
      if (typeof b === "string" && !RFC3339.test(b)) badArgument("timestamp_b", `not a valid RFC3339 timestamp: cannot use ${JSON.stringify(b)} as year`);
      return;
    case "cidrnetmask":
      if (typeof a === "string" && values.length === 1 && a.includes(":") && /\/\d{1,3}$/.test(a)) callFailed(name, `IPv6 addresses cannot have a netmask: ${a}`);
      return;
    case "formatdate":
      if (typeof b === "string" && !RFC3339.test(b)) badArgument("time", `not a valid RFC3339 timestamp: cannot use ${JSON.stringify(b)} as year`);
      return;
  }
}

/** An RFC 3339 timestamp as Go's time.Parse(time.RFC3339, …) reads it (a fraction may follow the seconds). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}([.,]\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * format(spec, values…): its verbs consume the values in order (`%%` none, `%[n]` or `*` make the
 * order ours no longer): a verb without a value is an error, as is %d or %f given a value that is
 * not a number.
 */
function formatVerbs(spec: string, args: Known[]): void {
  let next = 0;
  for (let i = 0; i < spec.length; i++) {
    if (spec[i] !== "%") continue;
    let j = i + 1;
    while (j < spec.length && "+- #0".includes(spec[j]!)) j++;
    while (j < spec.length && /[0-9.]/.test(spec[j]!)) j++;
    if (j >= spec.length) return;
    const verb = spec[j]!;
    const at = i;
    i = j;
    if (verb === "%") continue;
    // cty's format has no `*` width or precision
    if (verb === "*") callFailed("format", `unrecognized format character '*' at offset ${Buffer.byteLength(spec.slice(0, j))}`);
    if (verb === "[") return;
    if (!"vtbdoxXeEfgGsq".includes(verb)) callFailed("format", `unsupported format verb '${verb}' in ${JSON.stringify(spec.slice(at, j + 1))} at offset ${at}`);
    const verbText = JSON.stringify(spec.slice(at, j + 1));
    if (next >= args.length) callFailed("format", `not enough arguments for ${verbText} at ${at}: need index ${next + 1} but have ${args.length} total`);
    const v = args[next++]!;
    if (verb === "d" && typeof v === "number" && !Number.isInteger(v)) callFailed("format", `unsupported value for ${verbText} at ${at}: an integer is required`);
    if ((verb === "d" || verb === "f" || verb === "e" || verb === "g") && v !== UNKNOWN && v !== null && asNumber(v) === UNKNOWN) {
      callFailed("format", `unsupported value for ${verbText} at ${at}: a number is required`);
    }
  }
  // (Terraform does not count a null argument as one too many)
  if (next < args.length && !args.includes(null)) badArgument("args", next === 0 ? "too many arguments; no verbs in format string" : `too many arguments; only ${next} used by format string`);
}

/** Whether text is an integer in base (2 to 36, either case, a sign allowed), as Go's big.Int reads it. */
function digitsOfBase(text: string, base: number): boolean {
  const digits = text.replace(/^[+-]/, "").toLowerCase();
  return digits !== "" && [...digits].every((d) => {
    const v = parseInt(d, 36);
    return !Number.isNaN(v) && v < base;
  });
}

/** base64decode: Go's standard (padded) alphabet, line breaks ignored, and the result must be UTF-8. */
function base64decode(text: string): void {
  const s = text.replace(/[\r\n]/g, "");
  if (s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s)) callFailed("base64decode", `failed to decode base64 data ${JSON.stringify(text)}`);
  const bytes = Buffer.from(s, "base64");
  if (!isUtf8(bytes)) callFailed("base64decode", "the result of decoding the provided string is not valid UTF-8");
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** jsondecode: invalid JSON is the call's error; valid JSON is its value. */
function jsondecode(text: string): Known {
  try {
    return fromJson(JSON.parse(text));
  } catch {
    return callFailed("jsondecode", "invalid character in JSON input");
  }
}

function fromJson(v: unknown): Known {
  if (v === null || typeof v !== "object") return v as Value;
  if (Array.isArray(v)) return v.map(fromJson);
  const out: { [key: string]: Known } = Object.create(null);
  for (const [k, x] of Object.entries(v)) out[k] = fromJson(x);
  return out;
}

/**
 * Patterns whose meaning is the same in RE2 (Terraform) and JavaScript: no flags or group syntax
 * `(?…)`, no POSIX classes `[:…:]`, no `\s` (Unicode spaces in JavaScript, ASCII in RE2), no
 * Unicode classes. Others are left unknown.
 */
const PORTABLE_PATTERN = /^(?!.*\[:)(?:[^\\(]|\\[dDwW.\\\/^$*+?()[\]{}|]|\((?!\?))*$/;

/**
 * regex(pattern, string) where the pattern reads the same in both engines: no match is the error
 * Terraform reports (so `can(regex(…))` is false); a match is its value, known only without groups.
 */
function regex(pattern: string, text: string): Known {
  if (!PORTABLE_PATTERN.test(pattern)) return UNKNOWN;
  let re: RegExp;
  try {
    re = new RegExp(pattern, "u");
  } catch {
    // an unbalanced group or a dangling quantifier fails in RE2 too (braces and brackets are read differently)
    if (/[{}[\]]/.test(pattern)) return UNKNOWN;
    return badArgument("pattern", "invalid regular expression pattern");
  }
  const match = re.exec(text);
  if (match === null) fail("Error in function call", `Call to function "regex" failed: pattern did not match any part of the given string.`);
  return match.length === 1 ? match[0] : UNKNOWN;
}
