// The values evaluation knows: cty's primitives, lists and objects, and UNKNOWN for what validate
// cannot know; the error evaluation throws, in Terraform's words; conversions to string and number.

/** A value not known at validate time. */
export const UNKNOWN: unique symbol = Symbol("unknown");

/** A value; inside a tuple or object, an element may be unknown while the others are known, as in cty. */
export type Value = string | number | boolean | null | Known[] | { [key: string]: Known };

export type Known = Value | typeof UNKNOWN;

/**
 * Where the values of `local.NAME` and `var.NAME` come from (`root` is "local" or "var"); null:
 * every reference is unknown. Input variables are known only where a module call passes a
 * literal (the child's validation rules see it).
 */
export type Locals = ((root: string, name: string) => Known) | null;

/** A value's type as Terraform names it in messages. */
export function typeOf(v: Value): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "tuple";
  return typeof v === "object" ? "object" : typeof v === "boolean" ? "bool" : typeof v;
}

/** An error of evaluation, as Terraform words it. */
export class EvaluationError {
  constructor(
    readonly summary: string,
    readonly detail: string,
  ) {}
}

export function fail(summary: string, detail: string): never {
  throw new EvaluationError(summary, detail);
}

/** A primitive as a string, as Terraform converts it in a template or to a string attribute. */
export function asString(v: Known): string | typeof UNKNOWN {
  if (typeof v === "string") return v;
  // where JavaScript would write an exponent, Terraform writes every digit (cty's Text('f', -1))
  if (typeof v === "number") return Number.isFinite(v) ? plainDecimal(String(v)) : UNKNOWN;
  if (typeof v === "boolean") return v ? "true" : "false";
  return UNKNOWN;
}

export function asNumber(v: Known): number | typeof UNKNOWN {
  if (typeof v === "number") return v;
  if (typeof v === "string" && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(v)) return Number(v);
  return UNKNOWN;
}

export function callFailed(name: string, why: string): never {
  return fail("Error in function call", `Call to function "${name}" failed: ${why}.`);
}

export const badArgument = (param: string, why: string): never => fail("Invalid function argument", `Invalid value for "${param}" parameter: ${why}.`);

/**
 * A number literal's value: cty holds `9007199254740993` and `1.0000000000000001` exactly, a
 * double does not, and its rounding would mislead every comparison and rule: such a literal is
 * left unknown.
 */
export function literalNumber(raw: string, v: number): number | typeof UNKNOWN {
  if (raw.length <= 15) return v; // 15 significant digits or fewer: the double's shortest text is the literal
  return Number.isFinite(v) && decimalDigits(raw) === decimalDigits(String(v)) ? v : UNKNOWN;
}

/** A decimal text as its significant digits and an exponent ("12.50e1" and "125" are both "125e3"). */
function decimalDigits(text: string): string {
  const m = /^[-+]?([0-9]*)(?:\.([0-9]*))?(?:[eE]([-+]?[0-9]+))?$/.exec(text);
  if (m === null) return text;
  const all = m[1]! + (m[2] ?? "");
  const lead = all.length - all.replace(/^0+/, "").length;
  const digits = all.slice(lead).replace(/0+$/, "");
  return digits === "" ? "0" : `${digits}e${m[1]!.length - lead + Number(m[3] ?? 0)}`;
}

/** A string as cty holds it: in Unicode normalization form C (so "e\u0301" and "\u00e9" are one key). */
export function nfc(s: string): string {
  return /^[\x00-\x7f]*$/.test(s) ? s : s.normalize("NFC");
}

/** A number's shortest text without an exponent, as cty writes it in a string ("1e+21" → "1000000000000000000000"). */
function plainDecimal(text: string): string {
  const m = /^(-?)([0-9])(?:\.([0-9]+))?e([-+][0-9]+)$/.exec(text);
  if (m === null) return text;
  const digits = m[2]! + (m[3] ?? "");
  const point = 1 + Number(m[4]);
  if (point >= digits.length) return m[1]! + digits + "0".repeat(point - digits.length);
  return point <= 0 ? `${m[1]}0.${"0".repeat(-point)}${digits}` : `${m[1]}${digits.slice(0, point)}.${digits.slice(point)}`;
}
