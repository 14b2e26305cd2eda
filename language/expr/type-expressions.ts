// Terraform type constraints as written in `variable.type` ("list(string)", "object({a = number})"),
// and whether a literal JSON value converts to one (go-cty rules: number and bool convert to
// string, numeric strings to number, "true"/"false"/"1"/"0" to bool).
import { K_ARRAY, K_FALSE, K_NULL, K_NUMBER, K_OBJECT, K_TRUE, type JsonDoc } from "../syntax/json-parser.js";

export type TypeExpr =
  | { kind: "string" | "number" | "bool" | "any" }
  | { kind: "list" | "set" | "map"; element: TypeExpr }
  | { kind: "tuple"; elements: TypeExpr[] }
  | { kind: "object"; attributes: Map<string, { type: TypeExpr; optional: boolean }> };

export function parseTypeExpression(text: string): { type: TypeExpr } | { error: string } {
  let i = 0;
  const s = text;
  // a type expression is an HCL expression: comments may sit between its tokens (a native
  // file's multi-line object type often has one per attribute)
  const ws = () => {
    i = skipSpaceAndComments(s, i);
  };
  const ident = (): string => {
    ws();
    const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(s.slice(i));
    if (!m) throw new Error(`a type name is expected at character ${i + 1}`);
    i += m[0].length;
    return m[0];
  };
  const expect = (ch: string) => {
    ws();
    if (s[i] !== ch) throw new Error(`"${ch}" is expected at character ${i + 1}`);
    i++;
  };
  const type = (allowOptional: boolean): { type: TypeExpr; optional: boolean } => {
    const name = ident();
    switch (name) {
      case "string":
      case "number":
      case "bool":
      case "any":
        return { type: { kind: name }, optional: false };
      case "list":
      case "set":
      case "map": {
        ws();
        if (s[i] !== "(") throw new Error(`the ${name} type constructor requires one argument specifying the element type, e.g. ${name}(string)`);
        i++;
        const element = type(false).type;
        expect(")");
        return { type: { kind: name, element }, optional: false };
      }
      case "tuple": {
        expect("(");
        expect("[");
        const elements: TypeExpr[] = [];
        ws();
        while (s[i] !== "]") {
          elements.push(type(false).type);
          ws();
          if (s[i] === ",") i++;
          else break;
          ws();
        }
        expect("]");
        expect(")");
        return { type: { kind: "tuple", elements }, optional: false };
      }
      case "object": {
        expect("(");
        expect("{");
        const attributes = new Map<string, { type: TypeExpr; optional: boolean }>();
        ws();
        while (s[i] !== "}") {
          const key = ident();
          ws();
          if (s[i] !== "=" && s[i] !== ":") throw new Error(`"=" is expected after the attribute name "${key}"`);
          i++;
          attributes.set(key, type(true));
          ws();
          if (s[i] === ",") i++;
          ws();
          if (i >= s.length) throw new Error("the object type is not closed");
        }
        expect("}");
        expect(")");
        return { type: { kind: "object", attributes }, optional: false };
      }
      case "optional": {
        if (!allowOptional) throw new Error("optional() may only be used for attributes of an object type");
        expect("(");
        const inner = type(false).type;
        ws();
        if (s[i] === ",") {
          // a default value: skip to the matching parenthesis (a third argument is refused)
          let depth = 0;
          i++;
          while (i < s.length && !(s[i] === ")" && depth === 0)) {
            const after = skipSpaceAndComments(s, i);
            if (after !== i) {
              i = after;
              continue;
            }
            if (s[i] === "," && depth === 0) throw new Error("Optional attribute modifier expects at most two arguments: the attribute type, and a default value");
            if (s[i] === '"') i = stringEnd(s, i);
            if ("([{".includes(s[i]!)) depth++;
            else if (")]}".includes(s[i]!)) depth--;
            i++;
          }
        }
        expect(")");
        return { type: inner, optional: true };
      }
      default:
        throw new Error(`the keyword "${name}" is not a valid type constructor`);
    }
  };
  // Terraform still reads the bare keywords of its 0.11 type system: "list" and "map" (not "set")
  // are a list and a map of any single element type.
  const legacy = s.trim();
  if (legacy === "list" || legacy === "map") return { type: { kind: legacy, element: { kind: "any" } } };
  try {
    const result = type(false).type;
    ws();
    if (i < s.length) throw new Error(`unexpected "${s.slice(i, i + 10)}" after the type`);
    return { type: result };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The index of the closing quote of the HCL string literal opening at s[at] (escapes skipped), or the end. */
/** The offset after the whitespace and comments (`#` and `//` to the end of the line, `/* *\/`) at `at`. */
function skipSpaceAndComments(s: string, at: number): number {
  let i = at;
  for (;;) {
    while (i < s.length && /\s/.test(s[i]!)) i++;
    if (s[i] === "#" || (s[i] === "/" && s[i + 1] === "/")) {
      while (i < s.length && s[i] !== "\n") i++;
    } else if (s[i] === "/" && s[i + 1] === "*") {
      const end = s.indexOf("*/", i + 2);
      i = end < 0 ? s.length : end + 2;
    } else return i;
  }
}

function stringEnd(s: string, at: number): number {
  let i = at + 1;
  while (i < s.length && s[i] !== '"') i += s[i] === "\\" ? 2 : 1;
  return i;
}

const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** cty's string → number conversion: no surrounding spaces, scientific notation allowed. */
export function parseNumberString(s: string): number | undefined {
  return NUMBER_TEXT.test(s) ? Number(s) : undefined;
}

/** cty's string → bool conversion. */
export function parseBoolString(s: string): boolean | undefined {
  if (s === "true" || s === "1") return true;
  if (s === "false" || s === "0") return false;
  return undefined;
}

export function describeType(t: TypeExpr): string {
  switch (t.kind) {
    case "list":
    case "set":
    case "map":
      // cty's words for a collection whose element type is left open
      return `${t.kind} of ${t.element.kind === "any" ? "any single type" : describeType(t.element)}`;
    case "tuple":
      return "tuple";
    case "object":
      return "object";
    default:
      return t.kind;
  }
}

/**
 * Whether values can take one type (a collection of `any` needs one element type): a primitive
 * and a list or object never unify, nor a list and an object. Nulls unify with anything.
 */
function unifiable(doc: JsonDoc, nodes: number[]): boolean {
  let seen = -1;
  for (const n of nodes) {
    const kind = doc.kinds[n]!;
    if (kind === K_NULL) continue;
    const shape = kind === K_ARRAY ? 1 : kind === K_OBJECT ? 2 : 0;
    if (seen >= 0 && shape !== seen) return false;
    seen = shape;
  }
  return true;
}

/**
 * Why a literal JSON value (no templates: variable defaults are literal) does not convert to a
 * type, or null when it does. `path` is filled with where inside the value the problem is.
 */
export function conversionProblem(doc: JsonDoc, node: number, type: TypeExpr, path: (string | number)[]): string | null {
  const kind = doc.kinds[node]!;
  if (kind === K_NULL || type.kind === "any") return null;
  switch (type.kind) {
    case "string":
      return kind === K_OBJECT || kind === K_ARRAY ? "string required" : null;
    case "number":
      if (kind === K_NUMBER) return null;
      if (doc.isString(node)) {
        const s = doc.str(node);
        return parseNumberString(s) === undefined ? `a number is required` : null;
      }
      return "a number is required";
    case "bool":
      if (kind === K_TRUE || kind === K_FALSE) return null;
      if (doc.isString(node)) {
        const s = doc.str(node);
        if (parseBoolString(s) !== undefined) return null;
        if (s.toLowerCase() === "true" || s.toLowerCase() === "false") return `a bool is required; to convert from string, use lowercase "${s.toLowerCase()}"`;
      }
      return "a bool is required";
    case "list":
    case "set":
    case "tuple": {
      if (kind !== K_ARRAY) return `${describeType(type)} required`;
      const elements = doc.elements(node);
      if (type.kind === "tuple" && elements.length !== type.elements.length) return `tuple required with exactly ${type.elements.length} elements`;
      if (type.kind !== "tuple" && type.element.kind === "any" && !unifiable(doc, elements)) return `all ${type.kind} elements must have the same type`;
      for (let i = 0; i < elements.length; i++) {
        const t = type.kind === "tuple" ? type.elements[i]! : type.element;
        const problem = conversionProblem(doc, elements[i]!, t, path);
        if (problem) {
          path.unshift(i);
          return problem;
        }
      }
      return null;
    }
    case "map":
    case "object": {
      if (kind !== K_OBJECT) return `${describeType(type)} required`;
      if (type.kind === "map" && type.element.kind === "any" && !unifiable(doc, doc.members(node).map((k) => k + 1))) return "all map elements must have the same type";
      const seen = new Set<string>();
      for (const k of doc.members(node)) {
        const key = doc.str(k);
        seen.add(key);
        if (type.kind === "map") {
          const problem = conversionProblem(doc, k + 1, type.element, path);
          if (problem) {
            path.unshift(key);
            return problem;
          }
          continue;
        }
        const attribute = (type as { attributes: Map<string, { type: TypeExpr; optional: boolean }> }).attributes.get(key);
        // cty drops the attributes an object type does not name ("//" included)
        if (!attribute) continue;
        const problem = conversionProblem(doc, k + 1, attribute.type, path);
        if (problem) {
          path.unshift(key);
          return problem;
        }
      }
      if (type.kind === "object") {
        for (const [name, attribute] of (type as { attributes: Map<string, { optional: boolean }> }).attributes) {
          if (!attribute.optional && !seen.has(name)) return `attribute "${name}" is required`;
        }
      }
      return null;
    }
  }
}

/**
 * Why the steps after `var.NAME` cannot be taken on a value of the variable's type (Terraform's
 * words at validate, where the value is unknown but its type is known), or null when they can or
 * the type does not tell.
 */
export function stepsProblem(type: TypeExpr, steps: readonly ({ kind: "attr"; name: string } | { kind: "index"; key: string | number | null } | { kind: "splat" })[]): string | null {
  let t: TypeExpr = type;
  for (const step of steps) {
    if (step.kind === "splat") return null;
    switch (t.kind) {
      case "any":
        return null;
      case "string":
      case "number":
      case "bool":
        return step.kind === "attr" ? `Unsupported attribute: Can't access attributes on a primitive-typed value (${t.kind}).` : "Invalid index: This value does not have any indices.";
      case "object": {
        const name = step.kind === "attr" ? step.name : typeof step.key === "string" ? step.key : null;
        if (name === null) return null;
        const attribute = t.attributes.get(name);
        // an index with a missing key is not judged at validate (the object is unknown), an attribute is
        if (!attribute) return step.kind === "attr" ? `Unsupported attribute: This object does not have an attribute named ${JSON.stringify(name)}.` : null;
        t = attribute.type;
        break;
      }
      case "tuple":
        if (step.kind === "attr") return "Unsupported attribute: This value does not have any attributes.";
        if (step.kind !== "index" || step.key === null) return null;
        {
          // a string key converts to a number ("1"); one that is no number cannot index a tuple
          const key = typeof step.key === "number" ? step.key : NUMERIC_KEY.test(step.key) ? Number(step.key) : null;
          if (key === null) return /^[A-Za-z_]/.test(step.key as string) && !/^(inf|infinity|nan)$/i.test(step.key as string) ? "Invalid index: The given key does not identify an element in this collection value: a number is required." : null;
          // a tuple's length is part of its type: validate knows an index past it finds nothing
          if (!t.elements[key]) return tupleIndexProblem(key, t.elements.length);
          t = t.elements[key]!;
        }
        break;
      default:
        // a list or set has no attributes (a map's attribute is a key)
        if (step.kind === "attr" && t.kind !== "map") {
          return t.element.kind === "object" && t.kind === "list"
            ? `Unsupported attribute: Can't access attributes on a list of objects. Did you mean to access attribute ${JSON.stringify(step.name)} for a specific element of the list, or across all elements of the list?`
            : "Unsupported attribute: This value does not have any attributes.";
        }
        // list, set, map: any key or index may hold an element
        t = t.element;
    }
  }
  return null;
}

/** A string key that reads as a plain decimal number. */
const NUMERIC_KEY = /^-?[0-9]+(\.[0-9]+)?$/;

/** Terraform 1.11's words for an index a tuple of `length` elements does not have (its length is part of its type). */
function tupleIndexProblem(key: number, length: number): string | null {
  const missing = "Invalid index: The given key does not identify an element in this collection value";
  if (key < 0) return `${missing}: a negative number is not a valid index for a sequence.`;
  if (!Number.isInteger(key)) return key < length ? `${missing}: indexing a sequence requires a whole number, but the given index has a fractional part.` : null;
  // HCL explains only an index equal to the length; one past it gets the bare message
  return key === length ? `${missing}: the given index is greater than or equal to the length of the collection.` : `${missing}.`;
}
