// A value validate knows (a local value, an evaluated template) converted to an argument's type
// as go-cty converts it, for the value rules to see; a shape that can never convert is MISMATCH,
// and whatever does not convert plainly stays unknown.
import { UNKNOWN_VALUE, type CtyType } from "./model-types.js";
import { setOwn } from "../syntax/json-parser.js";
import { parseBoolString, parseNumberString } from "../expr/type-expressions.js";
import { asString, UNKNOWN, type Known } from "../config/known-values.js";

/** A known value whose shape can never convert to the type (a list for a string, a map, or an object). */
export const MISMATCH: unique symbol = Symbol("mismatch");

/**
 * A known list, set, map or object value as the canonical value of type `t` (a local holding
 * `{ type = "Private" }` for an object attribute); whatever does not convert plainly stays unknown.
 */
export function structuralAs(v: Known, t: CtyType): unknown {
  if (v === UNKNOWN || v === null) return UNKNOWN_VALUE;
  if (typeof t === "string") {
    if (typeof v === "object") return MISMATCH;
    if (t === "string") return asString(v) === UNKNOWN ? UNKNOWN_VALUE : asString(v);
    if (t === "number") return typeof v === "number" ? v : typeof v === "string" ? (parseNumberString(v) ?? UNKNOWN_VALUE) : UNKNOWN_VALUE;
    return typeof v === "boolean" ? v : typeof v === "string" ? (parseBoolString(v) ?? UNKNOWN_VALUE) : UNKNOWN_VALUE;
  }
  const [shape, inner] = t;
  if (shape === "list" || shape === "set") {
    if (typeof v !== "object") return MISMATCH;
    if (!Array.isArray(v)) return MISMATCH;
    const items = v.map((e) => (e === null ? null : structuralAs(e, inner as CtyType)));
    return items.includes(MISMATCH) ? MISMATCH : items;
  }
  if (typeof v !== "object" || Array.isArray(v)) return MISMATCH;
  const out: Record<string, unknown> = {};
  if (shape === "map") {
    for (const [k, e] of Object.entries(v)) {
      const item = e === null ? null : structuralAs(e, inner as CtyType);
      if (item === MISMATCH) return MISMATCH;
      setOwn(out, k, item);
    }
    return out;
  }
  const attrs = inner as { [n: string]: CtyType };
  for (const [k, e] of Object.entries(v)) {
    // an attribute the object type lacks is discarded by the conversion, as cty converts objects
    if (!Object.prototype.hasOwnProperty.call(attrs, k) || e === null) continue;
    const item = structuralAs(e, attrs[k]!);
    if (item === MISMATCH) return MISMATCH;
    setOwn(out, k, item);
  }
  return out;
}
