// The checks on JSON from clients: the depth measured on the raw text must be the real depth
// (whatever strings hold), so that a deep value is refused and a legitimate one never is.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, findForbiddenKey, nestingDepth, parseJsonInput } from "../../platform/json-input.js";

function depthOf(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  const children = Object.values(value as object);
  return 1 + (children.length ? Math.max(...children.map(depthOf)) : 0);
}

describe("JSON from clients", () => {
  it("measures the nesting of any JSON text, brackets, quotes and backslashes inside strings included", () => {
    const tricky = fc.constantFrom('"', "\\", "[", "]", "{", "}", '\\"', "x");
    const text = fc.string({ unit: tricky, maxLength: 8 });
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, text, fc.integer(), fc.array(tie("node"), { maxLength: 3 }), fc.dictionary(text, tie("node"), { maxKeys: 3 })),
    })).node;
    fc.assert(
      fc.property(value, fc.boolean(), (v, pretty) => {
        const json = JSON.stringify(v, null, pretty ? 2 : undefined);
        expect(nestingDepth(json, 1000)).toBe(depthOf(v));
      }),
      { numRuns: 2000 },
    );
  });

  it("stops reading at the first level past the limit", () => {
    expect(nestingDepth("[".repeat(1_000_000), MAX_JSON_DEPTH)).toBe(MAX_JSON_DEPTH + 1);
    expect(nestingDepth(`"${"[".repeat(1000)}`, 10)).toBe(0); // an unterminated string: JSON.parse's to reject
  });

  it("finds forbidden keys at any depth and names where", () => {
    expect(findForbiddenKey(JSON.parse('{"a": [{"b": {"constructor": 1}}]}'))).toBe("a[0].b.constructor");
    expect(findForbiddenKey(JSON.parse('{"a": {"toString": 1, "prototypes": 2}}'))).toBeUndefined();
    expect(() => parseJsonInput('{"x": {"__proto__": null}}', "the request body")).toThrow(/uses the key "__proto__" \(at x.__proto__\)/);
    expect(() => parseJsonInput("{", "query parameter view")).toThrow("query parameter view is not valid JSON");
    expect(parseJsonInput('{"description": "[[[[", "n": [[1]]}', "the request body")).toEqual({ description: "[[[[", n: [[1]] });
  });
});
