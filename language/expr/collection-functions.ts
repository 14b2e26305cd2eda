// Collection functions that fail on known arguments at validate time, in Terraform's words (the
// lists' elements and lengths, range's limit of 1,024 values). Unknown arguments pass.
import { UNKNOWN, asNumber, badArgument, callFailed, typeOf, type Known, type Value } from "./known.js";

const isStructural = (v: Known): boolean => v !== UNKNOWN && v !== null && typeof v === "object";
const isPrimitive = (v: Known | undefined): boolean => v !== undefined && v !== UNKNOWN && v !== null && typeof v !== "object";

/** The error of a call of one of these functions on its known arguments, thrown; else nothing. */
export function collectionCallProblem(name: string, values: Known[]): void {
  const [a, b, c] = values;
  switch (name) {
    case "join":
      // every list's elements must be strings: a list or object among them cannot be
      for (const list of values.slice(1)) {
        if (!Array.isArray(list)) continue;
        const at = list.findIndex(isStructural);
        if (at >= 0) badArgument("lists", `element ${at}: string required`);
      }
      return;
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
      if (Array.isArray(a) && a.length > 0 && typeof b === "number" && b < 0) callFailed("element", "cannot use element function with a negative index");
      return;
    case "concat": {
      const scalar = values.find(isPrimitive);
      if (scalar !== undefined) badArgument("seqs", `all arguments must be lists or tuples; got ${typeOf(scalar as Value)}`);
      return;
    }
    case "reverse":
      if (values.length === 1 && isPrimitive(a)) badArgument("list", `can only reverse list or tuple values, not ${typeOf(a as Value)}`);
      return;
    case "values":
      if (values.length === 1 && (Array.isArray(a) || isPrimitive(a))) callFailed("values", "values() requires a map as the first argument");
      return;
    case "setproduct":
      if (values.length < 2) callFailed("setproduct", "at least two arguments are required");
      return;
    case "coalescelist":
      if (values.length > 0 && values.every((v) => Array.isArray(v) && v.length === 0)) callFailed("coalescelist", "no non-null arguments");
      return;
    case "transpose":
      // the map's values must be lists of strings: the first key (in order) whose value is a primitive
      if (values.length === 1 && a !== UNKNOWN && a !== null && typeof a === "object" && !Array.isArray(a)) {
        const key = Object.keys(a).sort().find((k) => isPrimitive(a[k]!));
        if (key !== undefined) badArgument("values", `element ${JSON.stringify(key)}: list of string required`);
      }
      return;
    case "range":
      if (values.length >= 1 && values.length <= 3 && values.every((v) => typeof v === "number") && rangeLength(values as number[]) > 1024) {
        callFailed("range", "more than 1024 values were generated; either decrease the difference between start and end or use a smaller step");
      }
      return;
  }
}

/** How many values range(…) makes (0 for a step that never reaches the limit: refused elsewhere). */
function rangeLength(args: number[]): number {
  const [start, limit, step] = args.length === 1 ? [0, args[0]!, 1] : args.length === 2 ? [args[0]!, args[1]!, args[0]! <= args[1]! ? 1 : -1] : (args as [number, number, number]);
  if (step === 0 || (limit - start) / step < 0) return 0;
  return Math.ceil((limit - start) / step);
}
