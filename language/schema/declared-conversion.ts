// Whether a value known only by its type converts to an attribute's type. At validate an input
// variable is an unknown value of its declared type, and cty refuses a conversion by the types
// alone: a list(string) variable given to a string argument is "string required" before any value
// exists. Only what cty can never convert is judged; anything that may convert is left alone.
import type { TypeExpr } from "../expr/type-expressions.js";
import type { BlockModel, CtyType } from "./model-types.js";

/** cty's words for a required type (FriendlyNameForConstraint), as Terraform's messages print it. */
function required(t: CtyType): string {
  if (typeof t === "string") return t;
  if (t[0] === "object") return "object";
  return `${t[0]} of ${required(t[1])}`;
}

/**
 * Why a value of type `from` cannot convert to `to` (the detail after the attribute's name, as
 * Terraform 1.11 prints it: "string required", "incorrect set element type: string required",
 * `element "a": string required`), or null when it converts or the types alone do not tell.
 */
export function conversionProblem(from: TypeExpr, to: CtyType): string | null {
  if (from.kind === "any") return null;
  if (typeof to === "string") {
    if (from.kind === to || from.kind === "string" || to === "string") {
      return from.kind === "string" || from.kind === "number" || from.kind === "bool" ? null : `${to} required`;
    }
    // number and bool never convert to each other; every collection or structure is refused too
    return `${to} required`;
  }
  const [shape, inner] = to;
  if (shape === "object") {
    // a map or object may convert to an object type attribute by attribute: not judged here
    return from.kind === "map" || from.kind === "object" ? null : "object required";
  }
  if (shape === "list" || shape === "set") {
    if (from.kind === "list" || from.kind === "set") {
      const problem = conversionProblem(from.element, inner);
      return problem === null ? null : `incorrect ${shape} element type: ${problem}`;
    }
    if (from.kind === "tuple") return firstElementProblem(from.elements.map((e, i) => [String(i), e]), inner);
    return `${required(to)} required`;
  }
  if (from.kind === "map") {
    const problem = conversionProblem(from.element, inner);
    return problem === null ? null : `incorrect map element type: ${problem}`;
  }
  if (from.kind === "object") {
    const names = [...from.attributes.keys()].sort();
    return firstElementProblem(names.map((n) => [JSON.stringify(n), from.attributes.get(n)!.type]), inner);
  }
  return `${required(to)} required`;
}

/** The first element of a tuple or object that does not convert to a collection's element type, as cty names it. */
function firstElementProblem(elements: [string, TypeExpr][], element: CtyType): string | null {
  for (const [key, type] of elements) {
    const problem = conversionProblem(type, element);
    if (problem !== null) return `element ${key}: ${problem}`;
  }
  return null;
}

/**
 * Why a value of object type `from` cannot convert to a single nested attribute's object (its
 * required attributes that `from` lacks, in cty's words), or null.
 */
export function missingAttributesProblem(from: TypeExpr, block: BlockModel): string | null {
  if (from.kind !== "object") return null;
  const missing = Object.keys(block.attributes)
    .filter((name) => block.attributes[name]!.required === true && !from.attributes.has(name))
    .sort()
    .map((name) => JSON.stringify(name));
  if (missing.length === 0) return null;
  if (missing.length === 1) return `attribute ${missing[0]} is required`;
  const list = missing.length === 2 ? `${missing[0]} and ${missing[1]}` : `${missing.slice(0, -1).join(", ")}, and ${missing[missing.length - 1]}`;
  return `attributes ${list} are required`;
}
