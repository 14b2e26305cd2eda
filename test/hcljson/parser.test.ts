import { describe, expect, it } from "vitest";
import { K_NUMBER, parseJson } from "../../hcljson/parser.js";
import { LineMap } from "../../hcljson/positions.js";
import { validateHclJson } from "../../hcljson/index.js";

function problemAt(text: string) {
  const r = parseJson(text);
  expect(r.ok).toBe(false);
  const p = r.problem!;
  return { ...new LineMap(text).position(p.offset), summary: p.summary };
}

describe("parser", () => {
  it("keeps every duplicate key, in order", () => {
    const r = parseJson('{"resource": {"a": 1}, "resource": {"b": 2}}');
    expect(r.ok).toBe(true);
    const doc = r.doc!;
    expect(doc.members(0).map((k) => doc.str(k))).toEqual(["resource", "resource"]);
    expect(doc.members(0).map((k) => doc.members(k + 1).map((m) => doc.str(m)))).toEqual([["a"], ["b"]]);
  });

  it("keeps the raw text of numbers (arbitrary precision)", () => {
    const doc = parseJson("[12345678901234567890123, -0.5e-3, 7]").doc!;
    const items = doc.elements(0);
    expect(items.map((i) => doc.kinds[i])).toEqual([K_NUMBER, K_NUMBER, K_NUMBER]);
    expect(items.map((i) => doc.raw(i))).toEqual(["12345678901234567890123", "-0.5e-3", "7"]);
    expect(doc.num(items[2]!)).toBe(7);
  });

  it("decodes escapes and keeps offsets of the source", () => {
    const text = '{"k\\u0041": "a\\"b\\n\\u00e9"}';
    const doc = parseJson(text).doc!;
    const [k] = doc.members(0);
    expect(doc.str(k!)).toBe("kA");
    expect(doc.str(k! + 1)).toBe('a"b\né');
    expect(text.slice(doc.start(k! + 1), doc.end(k! + 1))).toBe('"a\\"b\\n\\u00e9"');
  });

  it("reports syntax errors at their line and column", () => {
    expect(problemAt('{\n  "a": 1,\n}')).toMatchObject({ line: 2, column: 9, summary: "Trailing comma in object" });
    expect(problemAt("[1,\n 2,\n]")).toMatchObject({ line: 2, column: 3, summary: "Trailing comma in array" });
    expect(problemAt('{\n  "a" = 1\n}')).toMatchObject({ line: 2, column: 7, summary: "Missing property value colon" });
    expect(problemAt('{\n  /* c */ "a": 1\n}')).toMatchObject({ line: 2, column: 3, summary: "Comments are not allowed in JSON" });
    expect(problemAt('{"a": tru}')).toMatchObject({ line: 1, column: 7, summary: "Invalid JSON keyword" });
    expect(problemAt('{"a": 01}')).toMatchObject({ summary: "Invalid JSON number" });
    expect(problemAt('{"a": "x\ty"}')).toMatchObject({ line: 1, column: 9, summary: "Invalid character in string" });
    expect(problemAt('{"a": 1} x')).toMatchObject({ line: 1, column: 10, summary: "Extraneous data after value" });
    expect(problemAt('{"a": [1, 2')).toMatchObject({ summary: "Unclosed array" });
    expect(problemAt("")).toMatchObject({ summary: "Empty JSON file" });
  });

  it("counts columns in characters, not UTF-16 units", () => {
    const text = '{"😀é": 1,}';
    // the comma is the 9th character (the 10th UTF-16 unit)
    expect(problemAt(text)).toMatchObject({ line: 1, column: 9 });
  });

  it("refuses absurd nesting instead of overflowing the stack", () => {
    const deep = "[".repeat(100000) + "]".repeat(100000);
    const r = parseJson(deep);
    expect(r.ok).toBe(false);
    expect(r.problem!.summary).toBe("Nesting too deep");
  });

  it("accepts what JSON.parse accepts on ordinary documents", () => {
    const text = JSON.stringify({ a: [1, 2.5, -3e2, true, false, null, "x\u2028y"], b: { c: {} }, d: [] }, null, 2);
    const doc = parseJson(text).doc!;
    expect(doc.toValue(0)).toEqual(JSON.parse(text));
  });
});

describe("validate reports parse errors like Terraform", () => {
  it("gives file, line and column", async () => {
    const d = await validateHclJson('{\n  "resource": {\n    "tsdb_vpcs": {},\n  }\n}\n', { filename: "x.tf.json" });
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ severity: "error", file: "x.tf.json", line: 3, column: 20, address: null, path: null });
    expect(d[0]!.message).toContain("Trailing comma in object");
  });
});
