// count and for_each: literal values and known templates, as validate evaluates them (whole
// numbers that fit int64, maps and sets of strings, no null).
import { Ctx } from "./context.js";
import { K_NULL, K_NUMBER, K_OBJECT, K_ARRAY } from "../syntax/json-parser.js";
import { hasTemplate, analyzeTemplate } from "../expr/templates.js";
import { checkString, checkExpression } from "./expression-check.js";
import { expressionKnownValue, templateKnownValue } from "./known-values.js";
import { parseNumberString } from "../expr/type-expressions.js";
import { type Known } from "../expr/evaluate.js";
import { UNKNOWN } from "../expr/evaluate.js";
import type { Expr } from "../expr/syntax-tree.js";
import { friendlyTypeName, isSensitiveTemplate, variableTypeOf } from "./for-each-values.js";

export function checkCount(ctx: Ctx, value: number, address: string | null, path: string | null): void {
  const doc = ctx.doc;
  const kind = doc.kinds[value];
  let n: number | undefined;
  if (kind === K_NULL) {
    ctx.error("count", 'Invalid count argument: The given "count" argument value is null. An integer is required.', value, address, path);
    return;
  }
  if (kind === K_NUMBER) n = doc.num(value);
  else if (doc.isString(value)) {
    const s = doc.str(value);
    if (hasTemplate(s)) {
      const before = ctx.diagnostics.length;
      checkString(ctx, value, address, path);
      if (ctx.diagnostics.length !== before) return;
      const info = analyzeTemplate(s);
      const known = templateKnownValue(ctx, info);
      if (known !== UNKNOWN) checkKnownCount(ctx, value, known, address, path);
      else {
        // a variable is unknown at validate, but of its declared type: a collection, object or bool is no number
        const declared = variableTypeOf(ctx, info);
        if (declared !== null && declared.kind !== "number" && declared.kind !== "string" && declared.kind !== "any") {
          ctx.error("count", "Incorrect value type: Invalid expression value: number required.", value, address, path);
        }
      }
      return;
    }
    n = parseNumberString(s);
    if (n === undefined) {
      ctx.error("count", 'Incorrect value type: Invalid expression value: a number is required for "count".', value, address, path);
      return;
    }
  } else {
    ctx.error("count", 'Incorrect value type: Invalid expression value: a number is required for "count".', value, address, path);
    return;
  }
  const digits = kind === K_NUMBER ? doc.raw(value) : doc.str(value).trim();
  if (!Number.isInteger(n) || !isWholeDecimal(digits)) ctx.error("count", 'Invalid count argument: The given "count" argument value is unsuitable: must be a whole number.', value, address, path);
  else if (!fitsInt64(digits, n)) ctx.error("count", 'Invalid count argument: The given "count" argument value is unsuitable: value must be a whole number, between -9223372036854775808 and 9223372036854775807.', value, address, path);
  else if (n < 0) ctx.error("count", 'Invalid count argument: The given "count" argument value is unsuitable: must be greater than or equal to zero.', value, address, path);
}

/** A count given by a template whose value validate knows (literals, local values), in Terraform's words for it. */
function checkKnownCount(ctx: Ctx, value: number, known: Known, address: string | null, path: string | null): void {
  if (known === UNKNOWN) return;
  if (known === null) {
    ctx.error("count", 'Invalid count argument: The given "count" argument value is null. An integer is required.', value, address, path);
    return;
  }
  const n = typeof known === "number" ? known : typeof known === "string" ? parseNumberString(known) : undefined;
  if (n === undefined) ctx.error("count", "Incorrect value type: Invalid expression value: a number is required.", value, address, path);
  else if (!Number.isSafeInteger(n)) ctx.error("count", 'Invalid count argument: The given "count" argument value is unsuitable: value must be a whole number, between -9223372036854775808 and 9223372036854775807.', value, address, path);
  else if (n < 0) ctx.error("count", 'Invalid count argument: The given "count" argument value is unsuitable: must be greater than or equal to zero.', value, address, path);
}

/**
 * Whether a number's decimal text is a whole number in arbitrary precision, as cty reads it: a
 * double rounds `1.0000000000000000001` to 1 and `1e-400` to 0, which cty does not.
 */
function isWholeDecimal(text: string): boolean {
  const m = /^[-+]?([0-9]*)(?:\.([0-9]*))?(?:[eE]([-+]?[0-9]+))?$/.exec(text);
  if (m === null) return true; // not a plain decimal: the double decides
  const whole = m[1]!;
  const digits = whole + (m[2] ?? "");
  if (/^0*$/.test(digits)) return true;
  // whole when its last significant digit stands before the decimal point
  return digits.replace(/0+$/, "").length <= whole.length + Number(m[3] ?? 0);
}

/** Whether a whole number (its text, and its value as a double) is within int64, Terraform's range for count. */
function fitsInt64(text: string, n: number): boolean {
  if (Math.abs(n) < 2 ** 62) return true;
  // doubles cannot tell 2^63 - 1 from 2^63: decide on the digits when they are plain
  if (/^-?[0-9]+$/.test(text)) {
    const big = BigInt(text);
    return big >= -(2n ** 63n) && big < 2n ** 63n;
  }
  return n >= -(2 ** 63) && n < 2 ** 63;
}

export function checkForEach(ctx: Ctx, value: number, address: string | null, path: string | null): void {
  const doc = ctx.doc;
  const kind = doc.kinds[value];
  // an import block's for_each may also be a list (its elements are each.value, the index each.key)
  if (kind === K_OBJECT || (kind === K_ARRAY && address === "import")) {
    checkExpression(ctx, value, address, path);
    return;
  }
  if (doc.isString(value)) {
    const s = doc.str(value);
    if (hasTemplate(s)) {
      checkString(ctx, value, address, path);
      // validate evaluates it (an import's for_each may also be a list: not judged here)
      if (address !== "import") checkForEachValue(ctx, s, value, address, path);
      return;
    }
    ctx.error("for-each", 'Invalid for_each argument: The given "for_each" argument value is unsuitable: the "for_each" argument must be a map, or set of strings, and you have provided a value of type string.', value, address, path);
    return;
  }
  // an import's for_each = null is as if it were absent (Terraform accepts it at validate)
  if (kind === K_NULL && address === "import") return;
  unsuitableForEach(ctx, kind === K_NULL ? null : kind === K_ARRAY ? "tuple" : kind === K_NUMBER ? "number" : "bool", value, address, path);
}

/** Terraform's error for a for_each value of `type` (null: the value is null). */
function unsuitableForEach(ctx: Ctx, type: string | null, value: number, address: string | null, path: string | null): void {
  if (type === null) {
    ctx.error("for-each", 'Invalid for_each argument: The given "for_each" argument value is null. A map, or set of strings is allowed.', value, address, path);
    return;
  }
  ctx.error(
    "for-each",
    `Invalid for_each argument: The given "for_each" argument value is unsuitable: the "for_each" argument must be a map, or set of strings, and you have provided a value of type ${type}.${type === "tuple" ? ' Convert a list with "${toset(…)}".' : ""}`,
    value,
    address,
    path,
  );
}

/**
 * A for_each template as validate evaluates it: a sensitive value is refused first (even null or
 * unknown); `toset([…])` of literals is a set whose element type cty unifies, refused unless it is
 * string, then refused for a null element; a variable of a list, tuple or primitive type is
 * refused though its value is unknown; a known tuple, primitive or null is refused as the literal is.
 */
function checkForEachValue(ctx: Ctx, text: string, value: number, address: string | null, path: string | null): void {
  const info = analyzeTemplate(text);
  if (info.problem !== null) return;
  if (isSensitiveTemplate(ctx, info)) {
    ctx.error("for-each", "Invalid for_each argument: Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.", value, address, path);
    return;
  }
  const e = info.expr;
  if (e !== null && e.t === "call" && (e.name === "toset" || e.name === "core::toset") && e.args.length === 1 && !e.expand) {
    const structure = structuredElementType(expressionKnownValue(ctx, e.args[0]!));
    if (structure !== null) {
      ctx.error("for-each", `Invalid for_each set argument: The given "for_each" argument value is unsuitable: "for_each" supports maps and sets of strings, but you have provided a set containing type ${structure}.`, value, address, path);
      return;
    }
    if (e.args[0]!.t === "tuple") {
      checkLiteralSet(ctx, e.args[0]!.items, value, address, path);
      return;
    }
  }
  // a tuple for expression over a collection validate knows is a tuple (without an `if`, whose value it may not know)
  if (e !== null && e.t === "for" && e.result === "tuple" && e.cond === null) {
    if (expressionKnownValue(ctx, e.coll) !== UNKNOWN) unsuitableForEach(ctx, "tuple", value, address, path);
    return;
  }
  const declared = variableTypeOf(ctx, info);
  if (declared !== null && declared.kind !== "map" && declared.kind !== "set" && declared.kind !== "object" && declared.kind !== "any") {
    unsuitableForEach(ctx, friendlyTypeName(declared), value, address, path);
    return;
  }
  const known = templateKnownValue(ctx, info);
  if (known === UNKNOWN || (known !== null && typeof known === "object" && !Array.isArray(known))) return;
  unsuitableForEach(ctx, known === null ? null : Array.isArray(known) ? "tuple" : typeof known === "boolean" ? "bool" : typeof known, value, address, path);
}

/** `toset([…])` of literals: the set's element type as cty unifies them (strings win over numbers and bools), then its nulls. */
function checkLiteralSet(ctx: Ctx, items: Expr[], value: number, address: string | null, path: string | null): void {
  if (items.length === 0 || items.some((item) => item.t !== "lit")) return;
  const kinds = new Set(items.map((item) => (item as { v: unknown }).v).filter((v) => v !== null).map((v) => typeof v));
  // numbers and bools together have no common type: toset itself fails (not judged here)
  const element = kinds.size === 0 ? "dynamic" : kinds.has("string") ? "string" : kinds.size > 1 ? null : kinds.has("number") ? "number" : "bool";
  if (element === null) return;
  if (element !== "string") {
    ctx.error("for-each", `Invalid for_each set argument: The given "for_each" argument value is unsuitable: "for_each" supports maps and sets of strings, but you have provided a set containing type ${element}.`, value, address, path);
  } else if (items.some((item) => (item as { v: unknown }).v === null)) {
    ctx.error("for-each", 'Invalid for_each set argument: The given "for_each" argument value is unsuitable: "for_each" sets must not contain null values.', value, address, path);
  }
}

/**
 * The element type toset gives a known tuple of structures, as cty unifies it and Terraform names
 * it: objects with the same attributes are "object", with different ones of one primitive type a
 * "map of" it, tuples of one length "tuple"; null for anything else (strings and primitives are
 * checkLiteralSet's, and what does not unify is toset's own error).
 */
function structuredElementType(v: Known): string | null {
  if (!Array.isArray(v) || v.length === 0 || v.some((e) => e === UNKNOWN || e === null || typeof e !== "object")) return null;
  const elements = v as (Known[] | { [key: string]: Known })[];
  if (elements.every(Array.isArray)) return elements.every((t) => (t as Known[]).length === (elements[0] as Known[]).length) ? "tuple" : null;
  if (elements.some(Array.isArray)) return null;
  const objects = elements as { [key: string]: Known }[];
  const names = (o: { [key: string]: Known }) => Object.keys(o).sort().join("\u0000");
  if (objects.every((o) => names(o) === names(objects[0]!))) return "object";
  const kinds = new Set(objects.flatMap((o) => Object.values(o).map((x) => (x === UNKNOWN || x === null ? "?" : typeof x))));
  return kinds.size === 1 && ["string", "number", "boolean"].includes([...kinds][0]!) ? `map of ${[...kinds][0] === "boolean" ? "bool" : [...kinds][0]}` : null;
}
