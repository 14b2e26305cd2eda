import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { K_NUMBER, parseJson } from "../../language/syntax/json-parser.js";
import { LineMap } from "../../language/syntax/positions.js";
import { validateHclJson } from "../../language/index.js";

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

  // Terraform (HCL) skips tokens to recover from these and points at the token after (or at the
  // end of the file); each position here is what terraform validate 1.11.4 printed for the text
  it("reports mismatched closers, missing commas and early ends where Terraform does", () => {
    expect(problemAt('{\n  "locals": {\n    "v": 1 2\n  },\n  "output": {}\n}\n')).toMatchObject({ line: 4, column: 4, summary: "Missing attribute seperator comma" });
    expect(problemAt('{\n  "locals": {\n    "v": {"hello":true]\n  }\n}\n')).toMatchObject({ line: 4, column: 3, summary: "Mismatched braces" });
    expect(problemAt('{\n  "locals": {\n    "v": [true}\n  }\n}\n')).toMatchObject({ line: 6, column: 1, summary: "Mismatched brackets" });
    expect(problemAt('{\n  "locals": {\n    "v": ["a": {"b": [1]}],\n    "w": 1\n  }\n}\n')).toMatchObject({ line: 3, column: 25, summary: "Invalid array value" });
    expect(problemAt('{\n  "locals": {\n    "v": ["a"\n "b"],\n    "w": 1\n  }\n}\n')).toMatchObject({ line: 4, column: 6, summary: "Missing attribute seperator comma" });
    expect(problemAt('{\n  "locals": {\n    "v": [\n')).toMatchObject({ line: 4, column: 1, summary: "Missing value" });
    // a brace inside a string is not counted while recovering
    expect(problemAt('{\n  "locals": {\n    "v": {"a": {"x": 1} "b": "}"},\n  "w": 2}\n}\n')).toMatchObject({ line: 3, column: 34, summary: "Missing attribute seperator comma" });
  });

  it("counts columns in characters, not UTF-16 units", () => {
    const text = '{"😀é": 1,}';
    // the comma is the 9th character (the 10th UTF-16 unit)
    expect(problemAt(text)).toMatchObject({ line: 1, column: 9 });
  });

  it("reads nesting as deep as Terraform does (300,000 levels) without overflowing the stack", () => {
    for (const depth of [10000, 300000]) {
      const r = parseJson(`{"locals": {"deep": ${"[".repeat(depth)}${"]".repeat(depth)}}, "after": {"a": 1}}`);
      expect(r.ok).toBe(true);
      // what follows the deep value is read as usual
      expect(r.doc!.toValue(0)).toMatchObject({ after: { a: 1 } });
    }
    expect(parseJson(`{"d": ${'{"k": '.repeat(5000)}1${"}".repeat(5000)}}`).ok).toBe(true);
  });

  it("reports a syntax error deep inside as it does near the surface, at the same place", () => {
    const wrapped = (depth: number, inner: string) => `{"a": ${"[".repeat(depth)}${inner}${"]".repeat(depth)}, "b": 2}`;
    for (const inner of ['{"x": 1,}', '{"x": 1 "y": 2}', "[1,]", "[1 2]", '{"x" 1}', "tru", '{"x": [1}', '["a": 1]', "/* c */"]) {
      const shallow = parseJson(wrapped(10, inner));
      const deep = parseJson(wrapped(3000, inner));
      expect(shallow.ok, inner).toBe(false);
      expect({ ...deep.problem, offset: deep.problem!.offset - 2990, endOffset: deep.problem!.endOffset - 2990 }, inner).toEqual(shallow.problem);
    }
    expect(parseJson(`{"a": ${"[".repeat(3000)}`).problem).toMatchObject({ summary: "Missing value" });
  });

  it("reads characters beyond Latin-1 as string content, wherever their low byte is a quote or brace", () => {
    // U+2022 and U+227B end in 0x22 (") and 0x7B ({): the parser must not mistake them for syntax
    const text = '{"k\u2022": "a\u2022b\u227Bc😀", "n": 1}';
    expect(parseJson(text).doc!.toValue(0)).toEqual(JSON.parse(text));
    expect(problemAt('{"a": 1, \u2022}')).toMatchObject({ line: 1, column: 10, summary: "Invalid object property name" });
    expect(problemAt("[1, \u227B]")).toMatchObject({ line: 1, column: 5, summary: "Invalid character" });
  });

  it("is not misled by a longer document parsed before", () => {
    // the byte buffer is reused: what follows the text must never be read as part of it
    expect(parseJson(`{"a": "${"x".repeat(10000)}", "b": [1, 2, 3]}`).ok).toBe(true);
    expect(problemAt('{"a": "x')).toMatchObject({ summary: "Unterminated string" });
    expect(parseJson(`[${"1,".repeat(5000)}1]`).ok).toBe(true);
    expect(problemAt('["\\u12')).toMatchObject({ summary: "Invalid escape sequence" });
    expect(problemAt("[12")).toMatchObject({ summary: "Unclosed array" });
    expect(problemAt("[tru")).toMatchObject({ summary: "Invalid JSON keyword" });
  });

  it("reads long strings and indentation a word at a time, stopping at every quote, escape, control and wide character wherever it falls", () => {
    for (let pad = 0; pad < 8; pad++) {
      for (const special of ['\\"', "\\\\", "\\n", "\\u00e9", "\u00ff", "\u2022", "\u227B", "\u0100"]) {
        const text = `{\n${" ".repeat(pad + 4)}"k${"x".repeat(pad)}": "${"a".repeat(pad)}${special}${"b".repeat(9)}",\n${" \t".repeat(pad)}"n": 1}`;
        expect(parseJson(text).doc!.toValue(0)).toEqual(JSON.parse(text));
      }
      // a raw control character or line break is an error at its own place, after any run of plain bytes
      const before = `{"k": "${"a".repeat(pad + 5)}`;
      expect(problemAt(`${before}\u0001${"b".repeat(9)}"}`)).toMatchObject({ column: before.length + 1, summary: "Invalid character in string" });
      expect(problemAt(`${before}\n"}`)).toMatchObject({ line: 1, summary: "Unterminated string" });
      expect(problemAt(`${before}${"b".repeat(pad)}`)).toMatchObject({ summary: "Unterminated string" });
      expect(problemAt(`{${" ".repeat(pad + 8)}x}`)).toMatchObject({ column: pad + 10, summary: "Invalid object property name" });
    }
  });

  it("reuses a released document's arrays, and the released document reads as empty", () => {
    const big = parseJson(JSON.stringify({ resource: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`r${i}`, { a: i, b: [i, "x"] }])) })).doc!;
    big.release();
    expect(big.size).toBe(0);
    expect(big.kinds.length).toBe(0);
    // the next, smaller document gets the big one's arrays: nothing after its last entry is read as its own
    const small = parseJson('{"a": {"b": 1}}').doc!;
    expect(small.toValue(0)).toEqual({ a: { b: 1 } });
    expect(small.kinds[small.size]).toBe(0);
    expect(small.members(0).length).toBe(1);
    expect(small.count(2)).toBe(1);
  });

  it("agrees with JSON.parse on random documents of any characters", () => {
    const anyString = fc.string({ unit: "binary", maxLength: 8 });
    const value = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        anyString,
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie("v"), { maxLength: 4 }),
        fc.dictionary(anyString, tie("v"), { maxKeys: 4 }),
      ),
    })).v;
    const edit = fc.record({ at: fc.nat(), remove: fc.nat(3), insert: fc.oneof(fc.constantFrom('"', "\\", "{", "}", ",", ":", "\u2022", "\u227B", "1e", "-"), fc.string({ unit: "binary", maxLength: 2 })) });
    fc.assert(
      fc.property(value, fc.boolean(), fc.array(edit, { maxLength: 2 }), (v, pretty, edits) => {
        let text = JSON.stringify(v, null, pretty ? 2 : undefined);
        for (const e of edits) {
          const at = e.at % (text.length + 1);
          text = text.slice(0, at) + e.insert + text.slice(at + e.remove);
        }
        if (text.charCodeAt(0) === 0xfeff) return; // a byte order mark is the caller's business
        let expected: unknown;
        try {
          expected = { ok: true, value: JSON.parse(text) };
        } catch {
          expected = { ok: false };
        }
        const r = parseJson(text);
        expect(r.ok ? { ok: true, value: r.doc!.toValue(0) } : { ok: false }).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
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
    // and what Terraform reads on past it: "resource" is invalid where its type labels belong
    expect(d.map((x) => `${x.line}:${x.column} ${x.message.split(":")[0]}`)).toEqual(["2:15 Incorrect JSON value type", "2:15 Missing block label", "3:20 Trailing comma in object"]);
    expect(d[2]).toMatchObject({ severity: "error", file: "x.tf.json", line: 3, column: 20, address: null, path: null });
  });
});
