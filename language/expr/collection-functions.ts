// Collection functions that fail on known arguments at validate time, in Terraform's words (the
// lists' elements and lengths, range's limit of 1,024 values, arguments that are no collection).
// Unknown arguments pass.
import { UNKNOWN, asNumber, badArgument, callFailed, type Known } from "./known.js";

const isStructural = (v: Known): boolean => v !== UNKNOWN && v !== null && typeof v === "object";
const isPrimitive = (v: Known | undefined): v is string | number | boolean => v !== undefined && v !== UNKNOWN && v !== null && typeof v !== "object";
const isMap = (v: Known): boolean => isStructural(v) && !Array.isArray(v);
/** cty's name of a known value's type, as its conversion errors give it */
const typeName = (v: Known): string => (Array.isArray(v) ? "tuple" : typeof v === "object" ? "object" : typeof v === "boolean" ? "bool" : typeof v);

/** The error of a call of one of these functions on its known arguments, thrown; else nothing. */
export function collectionCallProblem(name: string, values: Known[]): void {
  const [a, b, c] = values;
  switch (name) {
    case "join": {
      // every list's elements must be strings: a list or object among them cannot be
      const lists = values.slice(1);
      for (const list of lists) {
        // a string, number, bool or object is no list at all
        if (isPrimitive(list) || isMap(list)) badArgument("lists", "list of string required");
        if (!Array.isArray(list)) continue;
        const at = list.findIndex(isStructural);
        if (at >= 0) badArgument("lists", `element ${at}: string required`);
      }
      // the join itself runs only on wholly known lists
      if (typeof a !== "string" || !lists.every((l) => Array.isArray(l) && !l.includes(UNKNOWN))) return;
      if (lists.length === 0) callFailed(name, "at least one list is required");
      lists.forEach((list, i) => {
        const at = (list as Known[]).indexOf(null);
        if (at >= 0) badArgument("lists", `element ${at}${lists.length > 1 ? ` of list ${i + 1}` : ""} is null; cannot concatenate null values`);
      });
      return;
    }
    case "sort":
      if (Array.isArray(a) && values.length === 1) {
        const at = a.findIndex(isStructural);
        if (at >= 0) badArgument("list", `element ${at}: string required`);
      }
      return;
    case "alltrue":
    case "anytrue":
      if (Array.isArray(a) && values.length === 1) {
        const at = a.findIndex((v) => typeof v === "number" || isStructural(v));
        if (at >= 0) badArgument("list", `element ${at}: bool required`);
        if (a.some((v) => typeof v === "string" && v !== "true" && v !== "false")) badArgument("list", "a bool is required");
      }
      return;
    case "slice": {
      if (!Array.isArray(a) || values.length !== 3) return;
      const start = asNumber(b!);
      const end = asNumber(c!);
      if (start === UNKNOWN || end === UNKNOWN) return;
      if (start < 0) badArgument("start_index", "start index must not be less than zero");
      if (end > a.length) badArgument("end_index", "end index must not be greater than the length of the list");
      if (start > end) badArgument("start_index", "start index must not be greater than end index");
      return;
    }
    case "flatten":
      if (values.length === 1 && a !== UNKNOWN && a !== null && !Array.isArray(a)) callFailed("flatten", "can only flatten lists, sets and tuples");
      return;
    case "matchkeys":
      if (Array.isArray(a) && Array.isArray(b) && a.length !== b.length) callFailed("matchkeys", "length of keys and values should be equal");
      return;
    case "element":
      if (Array.isArray(a) && a.length > 0 && typeof b === "number" && !Number.isInteger(b)) callFailed("element", "invalid index: value must be a whole number, between -9223372036854775808 and 9223372036854775807");
      // go-cty takes the index modulo the length (Go's remainder keeps the sign): a negative one not a multiple of the length panics
      if (Array.isArray(a) && a.length > 0 && typeof b === "number" && Number.isInteger(b) && b % a.length < 0) {
        callFailed("element", `panic in function implementation: runtime error: index out of range [${b % a.length}]`);
      }
      return;
    case "concat":
      for (const v of values) if (isPrimitive(v) || isMap(v)) badArgument("seqs", `all arguments must be lists or tuples; got ${typeName(v)}`);
      return;
    case "coalescelist":
      if (values.some((v) => v === null || isPrimitive(v) || isMap(v))) callFailed(name, "coalescelist arguments must be lists or tuples");
      if (values.length > 0 && values.every((v) => Array.isArray(v) && v.length === 0)) callFailed(name, "no non-null arguments");
      return;
    case "index":
      if (values.length === 2 && (isPrimitive(a) || isMap(a))) callFailed(name, "argument must be a list or tuple");
      return;
    case "reverse":
      if (values.length === 1 && (isMap(a) || isPrimitive(a))) badArgument("list", `can only reverse list or tuple values, not ${typeName(a!)}`);
      return;
    case "transpose":
      // the map's values must be lists of strings: the first key (in order) whose value is a primitive
      if (values.length === 1 && isMap(a)) {
        const map = a as { [key: string]: Known };
        const key = Object.keys(map).sort().find((k) => isPrimitive(map[k]));
        if (key !== undefined) badArgument("values", `element ${JSON.stringify(key)}: list of string required`);
      }
      return;
    case "values":
      if (values.length === 1 && (isPrimitive(a) || Array.isArray(a))) callFailed(name, "values() requires a map as the first argument");
      return;
    case "setproduct":
      if (values.length < 2) callFailed(name, "at least two arguments are required");
      if (values.some(isPrimitive)) badArgument("sets", "a set or a list is required");
      return;
    case "tolist":
    case "toset":
      if (values.length === 1 && (isPrimitive(a) || (name === "toset" && isMap(a)) || (Array.isArray(a) && !unifies(a)))) {
        badArgument("v", `cannot convert ${typeName(a!)} to ${name === "tolist" ? "list" : "set"} of any single type`);
      }
      return;
    case "tomap":
      if (values.length === 1 && (isPrimitive(a) || Array.isArray(a))) badArgument("v", `cannot convert ${typeName(a!)} to map of any single type`);
      return;
    case "chunklist":
      if (values.length === 2 && typeof b === "number" && b < 0) callFailed(name, "the size argument must be positive");
      return;
    case "sum":
      if (values.length === 1 && Array.isArray(a) && a.some((v) => typeof v === "boolean" || isStructural(v) || (typeof v === "string" && asNumber(v) === UNKNOWN))) {
        badArgument("list", "argument must be list, set, or tuple of number values");
      }
      return;
    case "contains":
      if (values.length === 2 && a === null) badArgument("list", "argument must not be null");
      if (values.length === 2 && b !== UNKNOWN && (isPrimitive(a) || isMap(a!))) callFailed(name, "argument must be list, tuple, or set");
      return;
    case "lookup":
      if (values.length >= 2 && (isPrimitive(a) || Array.isArray(a))) badArgument("inputMap", "lookup() requires a map as the first argument");
      return;
    case "distinct":
      if (values.length === 1 && (isPrimitive(a) || isMap(a!))) badArgument("list", "list of any single type required");
      return;
    case "setunion":
    case "setintersection":
    case "setsubtract":
      values.forEach((v, i) => {
        if (isPrimitive(v) || isMap(v)) badArgument(name === "setsubtract" ? (i === 0 ? "a" : "b") : i === 0 ? "first_set" : "other_sets", "set of any single type required");
      });
      return;
    case "compact":
      if (values.length === 1 && Array.isArray(a)) {
        const at = a.findIndex(isStructural);
        if (at >= 0) badArgument("list", `element ${at}: string required`);
      }
      return;
    case "range":
      if (values.length >= 1 && values.length <= 3 && values.every((v) => typeof v === "number") && rangeLength(values as number[]) > 1024) {
        callFailed("range", "more than 1024 values were generated; either decrease the difference between start and end or use a smaller step");
      }
      return;
  }
}

/** Whether a tuple's known elements can convert to one element type: primitives, tuples and objects do not mix. */
function unifies(elements: Known[]): boolean {
  const kinds = new Set(elements.filter((v) => v !== UNKNOWN && v !== null).map((v) => (isPrimitive(v) ? "primitive" : Array.isArray(v) ? "tuple" : "object")));
  return kinds.size <= 1;
}

/** How many values range(…) makes (0 for a step that never reaches the limit: refused elsewhere). */
function rangeLength(args: number[]): number {
  const [start, limit, step] = args.length === 1 ? [0, args[0]!, 1] : args.length === 2 ? [args[0]!, args[1]!, args[0]! <= args[1]! ? 1 : -1] : (args as [number, number, number]);
  if (step === 0 || (limit - start) / step < 0) return 0;
  return Math.ceil((limit - start) / step);
}

/** Functions whose arguments are all of one variadic parameter: `f(list...)` is `f` of its elements. */
const ALL_VARIADIC = new Set(["max", "min", "concat", "merge", "coalesce", "coalescelist"]);

/** The arguments of `f(a, list...)` with a known list spread, or null where the call is left unknown. */
export function expandedArguments(name: string, values: Known[]): Known[] | null {
  const last = values[values.length - 1];
  return ALL_VARIADIC.has(name) && Array.isArray(last) ? [...values.slice(0, -1), ...last] : null;
}

/**
 * The value of a numeric or collection function on known arguments, where it is plain to compute
 * as go-cty does (numbers where numbers are expected, elements of one primitive kind); UNKNOWN
 * otherwise. Our value rules then see it (a size chosen with sum, one, index, labels built with merge, …).
 */
export function collectionValue(name: string, values: Known[]): Known {
  const [a, b] = values;
  switch (name) {
    case "sum":
      return values.length === 1 && Array.isArray(a) && a.length > 0 && a.every((v) => typeof v === "number") ? (a as number[]).reduce((x, y) => x + y, 0) : UNKNOWN;
    case "pow":
      return values.length === 2 && typeof a === "number" && typeof b === "number" ? a ** b : UNKNOWN;
    case "one":
      if (values.length !== 1 || !Array.isArray(a) || a.length > 1) return UNKNOWN;
      return a.length === 0 ? null : a[0]!;
    case "index":
      if (values.length !== 2 || !Array.isArray(a) || !isPrimitive(b) || !a.every((v) => isPrimitive(v) && typeof v === typeof b)) return UNKNOWN;
      return a.indexOf(b) >= 0 ? a.indexOf(b) : UNKNOWN;
    case "parseint": {
      if (values.length !== 2 || typeof a !== "string" || typeof b !== "number" || !Number.isInteger(b) || b < 2 || b > 36) return UNKNOWN;
      const n = parseInt(a, b);
      return Number.isSafeInteger(n) && /^[+-]?[0-9a-z]+$/i.test(a) ? n : UNKNOWN;
    }
    case "merge": {
      // maps and objects (nulls skipped), a later key replacing an earlier one
      if (values.length === 0 || !values.every((v) => v === null || (typeof v === "object" && !Array.isArray(v)))) return UNKNOWN;
      const merged: { [key: string]: Known } = {};
      for (const v of values) if (v !== null) Object.assign(merged, v);
      return merged;
    }
    case "coalesce": {
      // arguments of one kind (numbers or bools; strings are stringValue's): the first not null
      const present = values.filter((v) => v !== null);
      if (present.length === 0 || !present.every((v) => (typeof v === "number" || typeof v === "boolean") && typeof v === typeof present[0])) return UNKNOWN;
      return present[0]!;
    }
    case "merge": {
      // maps and objects (nulls skipped): a later argument's attribute replaces an earlier one's;
      // labels are often merged from a local and a literal, and our key rules read the result
      if (values.some((v) => v !== null && (typeof v !== "object" || Array.isArray(v)))) return UNKNOWN;
      const merged: { [key: string]: Known } = {};
      for (const v of values) if (v !== null) for (const [k, x] of Object.entries(v as { [key: string]: Known })) merged[k] = x;
      return merged;
    }
    case "signum":
      return values.length === 1 && typeof a === "number" ? Math.sign(a) : UNKNOWN;
  }
  return sequenceValue(name, values);
}

const isList = (v: Known | undefined): v is Known[] => Array.isArray(v);
const isObject = (v: Known | undefined): v is { [key: string]: Known } => v !== undefined && isMap(v);
/** Primitives of one kind, every one known (what distinct, sort and the like compare as they are). */
const samePrimitives = (list: Known[]): boolean => list.every((v) => isPrimitive(v) && typeof v === typeof list[0]);
const isAsciiKey = (k: string): boolean => /^[\x00-\x7f]*$/.test(k);
/** An object's keys in cty's order (byte order; ASCII keys only, where that is JavaScript's order too). */
const sortedKeys = (o: { [key: string]: Known }): string[] | null => {
  const keys = Object.keys(o);
  return keys.every(isAsciiKey) ? keys.sort() : null;
};

/**
 * Lists built by the collection functions (sets are left unknown: an index into one is refused),
 * where plain to compute as go-cty does; UNKNOWN otherwise. Their lengths and elements then
 * reach our value rules (`length(concat(…))` for a count of replicas, `keys(…)[0]` for a name).
 */
function sequenceValue(name: string, values: Known[]): Known {
  const [a, b, c] = values;
  switch (name) {
    case "range": {
      const ns = values.map(asNumber);
      if (values.length === 0 || values.length > 3 || ns.some((n) => typeof n !== "number" || !Number.isInteger(n))) return UNKNOWN;
      const [start, limit, step] = values.length === 1 ? [0, ns[0] as number, 1] : [ns[0] as number, ns[1] as number, (ns[2] ?? ((ns[0] as number) <= (ns[1] as number) ? 1 : -1)) as number];
      if (step === 0 || (start < limit && step < 0) || (start > limit && step > 0) || Math.abs((limit - start) / step) > 1024) return UNKNOWN;
      const out: number[] = [];
      for (let v = start; step > 0 ? v < limit : v > limit; v += step) out.push(v);
      return out;
    }
    case "keys":
      if (values.length !== 1 || !isObject(a)) return UNKNOWN;
      return sortedKeys(a) ?? UNKNOWN;
    case "values": {
      if (values.length !== 1 || !isObject(a)) return UNKNOWN;
      const keys = sortedKeys(a);
      return keys === null ? UNKNOWN : keys.map((k) => a[k]!);
    }
    case "concat":
      return values.length > 0 && values.every(isList) ? (values as Known[][]).flat() : UNKNOWN;
    case "coalescelist":
      return values.length > 0 && values.every(isList) ? ((values as Known[][]).find((l) => l.length > 0) ?? UNKNOWN) : UNKNOWN;
    case "reverse":
      return values.length === 1 && isList(a) ? [...a].reverse() : UNKNOWN;
    case "distinct":
      return values.length === 1 && isList(a) && samePrimitives(a) ? [...new Set(a)] : UNKNOWN;
    case "compact":
      return values.length === 1 && isList(a) && a.every((v) => v === null || typeof v === "string") ? a.filter((v) => v !== null && v !== "") : UNKNOWN;
    case "sort":
      return values.length === 1 && isList(a) && a.every((v) => typeof v === "string" && isAsciiKey(v)) ? [...(a as string[])].sort() : UNKNOWN;
    case "flatten":
      return values.length === 1 && isList(a) ? flattened(a) : UNKNOWN;
    case "slice":
      if (values.length !== 3 || !isList(a) || typeof b !== "number" || typeof c !== "number" || !Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c > a.length || b > c) return UNKNOWN;
      return a.slice(b, c);
    case "chunklist": {
      if (values.length !== 2 || !isList(a) || typeof b !== "number" || !Number.isInteger(b) || b < 0) return UNKNOWN;
      if (b === 0) return [a];
      const out: Known[] = [];
      for (let i = 0; i < a.length; i += b) out.push(a.slice(i, i + b));
      return out;
    }
    case "zipmap": {
      if (values.length !== 2 || !isList(a) || !isList(b) || a.length !== b.length || !a.every((k) => typeof k === "string")) return UNKNOWN;
      if (new Set(a).size !== a.length) return UNKNOWN;
      return Object.fromEntries((a as string[]).map((k, i) => [k, b[i]!]));
    }
    case "tolist":
      return values.length === 1 && isList(a) && samePrimitives(a) ? a : UNKNOWN;
    case "tomap":
      return values.length === 1 && isObject(a) && samePrimitives(Object.values(a)) ? a : UNKNOWN;
  }
  return UNKNOWN;
}

/** flatten's list: nested lists and tuples opened, any depth; UNKNOWN where an element is unknown (it may be a list). */
function flattened(list: Known[]): Known {
  const out: Known[] = [];
  for (const v of list) {
    if (v === UNKNOWN) return UNKNOWN;
    if (Array.isArray(v)) {
      const inner = flattened(v);
      if (inner === UNKNOWN) return UNKNOWN;
      out.push(...(inner as Known[]));
    } else out.push(v);
  }
  return out;
}
