// Literal expressions of a native file as the JSON text that means the same value, so that a
// literal `.tf` value can go wherever a `.tf.json` value goes (the JSON parser, jsonValue, the
// schema conversion). Numbers keep the text they were written with: cty numbers are
// arbitrary-precision, and a double would round `1.0000000000000000001` to a whole number.

import type { Expr } from "../../expr/syntax-tree.js";

/**
 * The JSON text of `e` when it is a literal (string, number, bool, null, a template of literal
 * text alone, a negated number, a tuple or object of literals with literal keys); null when any
 * part of it is a reference, a call, an operator or a template with a sequence.
 */
export function literalJson(e: Expr): string | null {
  switch (e.t) {
    case "lit":
      if (typeof e.v === "number") return e.raw !== undefined ? jsonNumber(e.raw) : JSON.stringify(e.v);
      return JSON.stringify(e.v);
    case "tpl": {
      let text = "";
      for (const part of e.parts) {
        if (part.t !== "lit" || typeof part.v !== "string") return null;
        text += part.v;
      }
      return JSON.stringify(text);
    }
    case "un": {
      if (e.op !== "-" || e.x.t !== "lit" || typeof e.x.v !== "number") return null;
      const inner = literalJson(e.x)!;
      return inner.startsWith("-") ? null : `-${inner}`;
    }
    case "tuple": {
      const items: string[] = [];
      for (const item of e.items) {
        const json = literalJson(item);
        if (json === null) return null;
        items.push(json);
      }
      return `[${items.join(",")}]`;
    }
    case "object": {
      const members: string[] = [];
      for (let i = 0; i < e.keys.length; i++) {
        const key = literalKey(e.keys[i]!);
        const value = literalJson(e.values[i]!);
        if (key === null || value === null) return null;
        members.push(`${JSON.stringify(key)}:${value}`);
      }
      return `{${members.join(",")}}`;
    }
    default:
      return null;
  }
}

/** An object key that is literal: a name, a string, a number or a bool (cty converts them to strings). */
function literalKey(e: Expr): string | null {
  if (e.t === "lit") return e.v === null ? null : typeof e.v === "number" && e.raw !== undefined ? e.raw : String(e.v);
  if (e.t === "tpl") {
    const json = literalJson(e);
    return json === null ? null : (JSON.parse(json) as string);
  }
  return null;
}

/** HCL number text as JSON number text: HCL allows what JSON does, except a leading "." never occurs. */
function jsonNumber(raw: string): string {
  // HCL numbers are digits, an optional fraction and an optional exponent: JSON's grammar, but
  // leading zeros ("007") are allowed in HCL and not in JSON
  const stripped = raw.replace(/^0+(?=\d)/, "");
  return stripped;
}
