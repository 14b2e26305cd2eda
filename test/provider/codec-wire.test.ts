// The codec's wire handling against an independent msgpack implementation (@msgpack/msgpack) and
// against bytes written the way Terraform writes them (reference §7): every msgpack format a
// DynamicValue can use, in both directions, plus key order, extra keys and malformed input.
import { ExtData, decode, encode } from "@msgpack/msgpack";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Body, CodecError, UNKNOWN, type Value, decodeMsgpack, decodeValue, encodeJsonState, encodeMsgpack, encodeValue, fromJsonState } from "../../provider/codec.js";
import type { CtyType, SchemaBlock } from "../../provider/schema.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const fromHex = (text: string) => Buffer.from(text.replace(/\s+/g, ""), "hex");
const unknownExt = new ExtData(0, new Uint8Array([0]));

/** Bytes the way Terraform writes a value: object keys sorted, unknowns as ext 0. */
function terraformBytes(value: unknown): Uint8Array {
  const wire = (v: unknown): unknown => {
    if (v === UNKNOWN) return unknownExt;
    if (Array.isArray(v)) return v.map(wire);
    if (v && typeof v === "object" && !(v instanceof Uint8Array) && !(v instanceof ExtData)) {
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, wire(item)]));
    }
    return v;
  };
  return encode(wire(value), { sortKeys: true });
}

/** What @msgpack/msgpack reads from our bytes, with every extension read as UNKNOWN. */
function libraryDecode(bytes: Uint8Array): unknown {
  const asUnknown = (v: unknown): unknown => {
    if (v instanceof ExtData) return UNKNOWN;
    if (Array.isArray(v)) return v.map(asUnknown);
    if (v && typeof v === "object" && !(v instanceof Uint8Array)) return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, asUnknown(item)]));
    return v;
  };
  // Without BigInt: the codec writes only safe integers as ints.
  return asUnknown(decode(bytes));
}

/** Every kind of type and nesting the codec compiles. */
const everything: SchemaBlock = {
  attributes: {
    s: { type: "string", optional: true },
    n: { type: "number", optional: true },
    b: { type: "bool", optional: true },
    list: { type: ["list", "string"], optional: true },
    set: { type: ["set", "number"], optional: true },
    sets: { type: ["set", ["set", "string"]], optional: true },
    map: { type: ["map", "string"], optional: true },
    map_of_lists: { type: ["map", ["list", "bool"]], optional: true },
    obj: { type: ["object", { name: "string", size: "number" }], optional: true },
    nested_list: { optional: true, nested_type: { nesting_mode: "list", attributes: { url: { type: "string", required: true }, weight: { type: "number", optional: true } } } },
    nested_set: { optional: true, nested_type: { nesting_mode: "set", attributes: { key: { type: "string", required: true } } } },
    nested_map: { optional: true, nested_type: { nesting_mode: "map", attributes: { value: { type: "string", optional: true } } } },
    nested_single: { optional: true, nested_type: { nesting_mode: "single", attributes: { on: { type: "bool", optional: true } } } },
  },
  block_types: {
    single: { nesting_mode: "single", block: { attributes: { mode: { type: "string", optional: true } } } },
    rules: {
      nesting_mode: "list",
      block: {
        attributes: { key: { type: "string", required: true } },
        block_types: { tags: { nesting_mode: "set", block: { attributes: { name: { type: "string", optional: true } } } } },
      },
    },
  },
};

describe("strings of every msgpack length format", () => {
  // fixstr (< 32 bytes), str 8 (< 256), str 16 (< 65536), str 32; ASCII and multi-byte UTF-8.
  const lengths = [0, 1, 31, 32, 255, 256, 65535, 65536, 70000];
  const texts = lengths.flatMap((n) => [
    "a".repeat(n),
    // 2-, 3- and 4-byte UTF-8 characters: the byte length, not the character count, picks the header.
    "é".repeat(Math.ceil(n / 2)),
    "キ".repeat(Math.ceil(n / 3)),
    "😀".repeat(Math.ceil(n / 4)),
  ]);

  it("encode exactly as @msgpack/msgpack does, and decode back", () => {
    for (const text of texts) {
      const ours = encodeValue(text, "string");
      expect(hex(ours.subarray(0, 5)), `${text.length} chars`).toBe(hex(encode(text).subarray(0, 5)));
      expect(Buffer.compare(ours, encode(text)), `${text.length} chars`).toBe(0);
      expect(decodeValue(encode(text), "string")).toBe(text);
    }
  });

  it("use the header the length calls for at the boundaries", () => {
    expect(hex(encodeValue("x".repeat(31), "string")).slice(0, 2)).toBe("bf");
    expect(hex(encodeValue("x".repeat(32), "string")).slice(0, 4)).toBe("d920");
    expect(hex(encodeValue("x".repeat(255), "string")).slice(0, 4)).toBe("d9ff");
    expect(hex(encodeValue("x".repeat(256), "string")).slice(0, 6)).toBe("da0100");
    expect(hex(encodeValue("x".repeat(65535), "string")).slice(0, 6)).toBe("daffff");
    expect(hex(encodeValue("x".repeat(65536), "string")).slice(0, 10)).toBe("db00010000");
    // 16 two-byte characters are 32 bytes: str 8, not fixstr.
    expect(hex(encodeValue("é".repeat(16), "string")).slice(0, 4)).toBe("d920");
  });

  it("round-trip as attribute values inside a resource object", () => {
    for (const text of texts) {
      const body = decodeMsgpack(encodeMsgpack({ s: text, list: [text], map: { k: text } }, everything), everything)!;
      expect(body.s).toBe(text);
      expect(body.list).toEqual([text]);
      expect(body.map).toEqual({ k: text });
    }
  });
});

describe("maps with non-ASCII keys", () => {
  const tags = { région: "ouest", キー: "値", "emoji 😀": "yes", plain: "p", ["k".repeat(40)]: "long key" };

  it("round-trip, and read the same as @msgpack/msgpack reads them", () => {
    const bytes = encodeMsgpack({ map: tags }, everything);
    expect((libraryDecode(bytes) as Body).map).toEqual(tags);
    expect(decodeMsgpack(bytes, everything)!.map).toEqual(tags);
    expect(decodeMsgpack(terraformBytes({ map: tags }), everything)!.map).toEqual(tags);
  });

  it("as keys of nested map attributes", () => {
    const nested = { "ü-1": { value: "a" }, "日本": { value: null } };
    expect(decodeMsgpack(encodeMsgpack({ nested_map: nested }, everything), everything)!.nested_map).toEqual(nested);
  });
});

describe("numbers as Terraform sends them", () => {
  // Every msgpack number format; Terraform writes integers as ints and everything else as float64.
  const cases: [string, number | string][] = [
    ["05", 5],
    ["7f", 127],
    ["ff", -1],
    ["e0", -32],
    ["cc80", 128],
    ["cd01bb", 443],
    ["ce00010000", 65536],
    ["cf0000000000000003", 3],
    ["cf001fffffffffffff", 2 ** 53 - 1],
    ["cf0020000000000001", "9007199254740993"],
    ["cfffffffffffffffff", "18446744073709551615"],
    ["d080", -128],
    ["d1ff38", -200],
    ["d2ffff0000", -65536],
    ["d3fffffffffffffffd", -3],
    ["d38000000000000000", "-9223372036854775808"],
    ["ca3fc00000", 1.5],
    ["cb4004000000000000", 2.5],
    ["cb7e37e43c8800759c", 1e300],
    ["cbc00921fb54442d18", -3.141592653589793],
  ];

  it("decode to exact JS numbers, or decimal text when a number would round", () => {
    for (const [bytes, expected] of cases) expect(decodeValue(fromHex(bytes), "number"), bytes).toBe(expected);
  });

  it("encode integers in the smallest int form and fractions as float64", () => {
    expect(hex(encodeValue(5, "number"))).toBe("05");
    expect(hex(encodeValue(-1, "number"))).toBe("ff");
    expect(hex(encodeValue(443, "number"))).toBe("cd01bb");
    expect(hex(encodeValue(-200, "number"))).toBe("d1ff38");
    expect(hex(encodeValue(2 ** 32, "number"))).toBe("cf0000000100000000");
    expect(hex(encodeValue(-(2 ** 40), "number"))).toBe("d3ffffff0000000000");
    expect(hex(encodeValue(2.5, "number"))).toBe("cb4004000000000000");
    // Beyond 2^53 a JS number is no longer an exact integer: float64, as Terraform reads any number.
    expect(hex(encodeValue(2 ** 60, "number"))).toBe("cb43b0000000000000");
    for (const n of [0, 1, 127, 128, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 53 - 1, -32, -33, -128, -129, -32768, -32769, -(2 ** 31), -(2 ** 31) - 1, 0.1, -7.25]) {
      expect(hex(encodeValue(n, "number")), String(n)).toBe(hex(encode(n)));
      expect(decodeValue(encodeValue(n, "number"), "number")).toBe(n);
    }
  });

  it("keep big numbers exact through a round trip as decimal text", () => {
    for (const text of ["18446744073709551615", "-9223372036854775809", "123456789012345678901234567890"]) {
      const bytes = encodeValue(text, "number");
      expect(decode(bytes)).toBe(text);
      expect(decodeValue(bytes, "number")).toBe(text);
    }
  });

  it("read fractions sent as text as JS numbers (integers beyond 2^53 stay text)", () => {
    expect(decodeValue(encode("0.1000000000000000055511151231257827"), "number")).toBe(0.1);
    expect(decodeValue(encode("9007199254740993"), "number")).toBe("9007199254740993");
    expect(() => decodeValue(encode("1e"), "number")).toThrow(/expected a number, got "1e"/);
  });
});

describe("unknown and null round trips", () => {
  it("at every level: whole attributes, collection elements, map values, nested objects and blocks", () => {
    const body: Body = {
      s: UNKNOWN,
      n: null,
      b: UNKNOWN,
      list: ["a", UNKNOWN, null],
      set: UNKNOWN,
      sets: [["x", UNKNOWN], UNKNOWN],
      map: { a: UNKNOWN, b: null },
      map_of_lists: { k: [true, UNKNOWN] },
      obj: { name: UNKNOWN, size: null },
      nested_list: [{ url: UNKNOWN, weight: null }, UNKNOWN],
      nested_set: UNKNOWN,
      nested_map: { one: { value: UNKNOWN } },
      nested_single: null,
      single: { mode: UNKNOWN },
      rules: [{ key: "k", tags: UNKNOWN }],
    };
    const bytes = encodeMsgpack(body, everything);
    expect(libraryDecode(bytes)).toEqual(body);
    expect(decodeMsgpack(bytes, everything)).toEqual(body);
    expect(decodeMsgpack(terraformBytes(body), everything)).toEqual(body);
  });

  it("unknown list blocks stay unknown; null and absent ones are []", () => {
    expect(decodeMsgpack(terraformBytes({ rules: UNKNOWN }), everything)!.rules).toBe(UNKNOWN);
    expect(decodeMsgpack(terraformBytes({ rules: null }), everything)!.rules).toEqual([]);
    expect(decodeMsgpack(terraformBytes({}), everything)!.rules).toEqual([]);
    expect(hex(encodeMsgpack({ rules: UNKNOWN }, { block_types: everything.block_types }))).toContain("a572756c6573d40000");
  });

  it("refined unknowns of any extension form (fixext 1-16, ext 8/16/32) decode as unknown", () => {
    for (const ext of ["d40000", "d50c0000", "d60c00000000", "d70c8201c202a369642d", "d80c" + "00".repeat(16), "c7030c820102", "c800030c820102", "c9000000030c820102"]) {
      expect(decodeValue(fromHex(ext), "string"), ext).toBe(UNKNOWN);
      const body = decodeMsgpack(fromHex(`82 a173 ${ext} a16e 05`), everything)!;
      expect(body.s, ext).toBe(UNKNOWN);
      expect(body.n, ext).toBe(5);
    }
  });
});

describe("nested sets", () => {
  it("keep Terraform's element order at every level", () => {
    const body: Body = { sets: [["c", "a"], ["b"], []], nested_set: [{ key: "z" }, { key: "a" }], rules: [{ key: "r", tags: [{ name: "t2" }, { name: "t1" }] }] };
    const back = decodeMsgpack(terraformBytes(body), everything)!;
    expect(back.sets).toEqual(body.sets);
    expect(back.nested_set).toEqual(body.nested_set);
    expect(back.rules).toEqual([{ key: "r", tags: [{ name: "t2" }, { name: "t1" }] }]);
    expect(decodeMsgpack(encodeMsgpack(back, everything), everything)).toEqual(back);
  });
});

describe("dynamic values", () => {
  const schema: SchemaBlock = { attributes: { d: { type: "dynamic", optional: true }, ds: { type: ["list", "dynamic"], optional: true } } };
  const typed = (type: CtyType, value: unknown) => [new TextEncoder().encode(JSON.stringify(type)), value];

  it("decode from [bin(type), value] for every kind of type Terraform names", () => {
    const cases: [CtyType, unknown, Value][] = [
      ["string", "x", "x"],
      ["number", 42, 42],
      ["bool", true, true],
      [["list", "string"], ["a", "b"], ["a", "b"]],
      [["set", "number"], [3, 1], [3, 1]],
      [["map", "bool"], { é: false }, { é: false }],
      [["object", { a: "string", b: ["tuple", ["number", "string"]] }], { a: "x", b: [1, "y"] }, { a: "x", b: [1, "y"] }],
      [["list", ["object", { id: "string" }]], [{ id: unknownExt }], [{ id: UNKNOWN }]],
    ];
    for (const [type, value, expected] of cases) {
      expect(decodeMsgpack(encode({ d: typed(type, value) }), schema)!.d, JSON.stringify(type)).toEqual(expected);
    }
  });

  it("unknown and null dynamic values are not wrapped", () => {
    expect(decodeMsgpack(encode({ d: unknownExt }), schema)!.d).toBe(UNKNOWN);
    expect(decodeMsgpack(encode({ d: null }), schema)!.d).toBeNull();
    expect(hex(encodeValue(UNKNOWN, "dynamic"))).toBe("d40000");
    expect(hex(encodeValue(null, "dynamic"))).toBe("c0");
  });

  it("encode with the value's implied type and round-trip, also as list elements", () => {
    const value: Value = { name: "n", ports: [80, 443], nested: { on: true, missing: null, later: UNKNOWN } };
    const [type, wire] = decode(encodeValue(value, "dynamic")) as [Uint8Array, unknown];
    expect(JSON.parse(new TextDecoder().decode(type))).toEqual([
      "object",
      { name: "string", ports: ["tuple", ["number", "number"]], nested: ["object", { on: "bool", missing: "dynamic", later: "dynamic" }] },
    ]);
    expect((wire as { nested: { later: unknown } }).nested.later).toEqual(unknownExt);
    const body = decodeMsgpack(encodeMsgpack({ d: value, ds: ["a", 1, value] }, schema), schema)!;
    expect(body).toEqual({ d: value, ds: ["a", 1, value] });
  });

  it("read from JSON state as {value, type}, both to a body and straight to msgpack", () => {
    const state = { d: { value: { a: ["x", 2] }, type: ["object", { a: ["tuple", ["string", "number"]] }] }, ds: [{ value: "s", type: "string" }] };
    expect(fromJsonState(state, schema)).toEqual({ d: { a: ["x", 2] }, ds: ["s"] });
    expect(decodeMsgpack(encodeJsonState(state, schema), schema)).toEqual({ d: { a: ["x", 2] }, ds: ["s"] });
    expect(hex(encodeJsonState(state, schema))).toBe(hex(encodeMsgpack(fromJsonState(state, schema), schema)));
  });

  it("reject a dynamic value that is not [type, value]", () => {
    expect(() => decodeMsgpack(encode({ d: ["string", "x"] }), schema)).toThrow(/expected a dynamic value as \[type, value\]/);
    expect(() => fromJsonState({ d: "x" }, schema)).toThrow(/expected a dynamic value as \{value, type\}/);
  });
});

describe("keys on the wire", () => {
  it("decode whatever their order, skipping keys the schema does not have (of any value type)", () => {
    const body = { s: "v", n: 3, list: ["a"], rules: [{ key: "k", tags: [] }] };
    const full = decode(terraformBytes(body)) as Record<string, unknown>;
    const keys = Object.keys(full);
    for (const order of [keys, [...keys].reverse()]) {
      const wire: Record<string, unknown> = { extra_bin: new Uint8Array([1, 2]), extra_map: { a: [1, 2.5, "x", null, true, unknownExt] } };
      for (const key of order) wire[key] = full[key];
      wire.zz_extra = "ignored";
      const decoded = decodeMsgpack(encode(wire), everything)!;
      expect(decoded.s).toBe("v");
      expect(decoded.n).toBe(3);
      expect(decoded.list).toEqual(["a"]);
      expect(decoded.rules).toEqual([{ key: "k", tags: [] }]);
      expect(Object.keys(decoded)).toEqual([...Object.keys(everything.attributes!), ...Object.keys(everything.block_types!)]);
    }
  });

  it("integer map keys read as their decimal text; __proto__ is refused", () => {
    // map {1: "a"} with an integer key, as @msgpack/msgpack also reads it.
    expect(decodeValue(fromHex("81 01 a161"), ["map", "string"])).toEqual({ "1": "a" });
    expect(() => decodeValue(fromHex("81 a95f5f70726f746f5f5f a178"), ["map", "string"])).toThrow(/__proto__ is not allowed/);
  });
});

describe("malformed input", () => {
  it("truncated bytes and trailing bytes are codec errors", () => {
    const bytes = encodeMsgpack({ s: "hello", n: 443 }, everything);
    for (let cut = 1; cut < bytes.length; cut++) expect(() => decodeMsgpack(bytes.subarray(0, cut), everything), `cut at ${cut}`).toThrow(CodecError);
    expect(() => decodeMsgpack(Buffer.concat([bytes, fromHex("c0")]), everything)).toThrow(/Extra 1 of/);
  });

  it("a value of the wrong wire type names its path and what it got", () => {
    const cases: [unknown, RegExp, (string | number)[]][] = [
      [{ s: 5 }, /expected a string, got number/, ["s"]],
      [{ n: true }, /expected a number, got boolean/, ["n"]],
      [{ n: "abc" }, /expected a number, got "abc"/, ["n"]],
      [{ b: "true" }, /expected a bool, got string/, ["b"]],
      [{ list: "x" }, /expected a list/, ["list"]],
      [{ map: [1] }, /expected a map/, ["map"]],
      [{ obj: [] }, /expected an object/, ["obj"]],
      [{ map_of_lists: { k: [true, 7] } }, /expected a bool, got number/, ["map_of_lists", "k", 1]],
      [{ nested_list: [{ url: "a" }, { url: 18446744073709551615n }] }, /expected a string, got bigint/, ["nested_list", 1, "url"]],
      [{ rules: [{ key: "k", tags: [{ name: [] }] }] }, /expected a string, got object/, ["rules", 0, "tags", 0, "name"]],
    ];
    for (const [wire, message, path] of cases) {
      let caught: unknown;
      try {
        decodeMsgpack(encode(wire, { useBigInt64: true }), everything);
      } catch (error) {
        caught = error;
      }
      expect(caught, JSON.stringify(path)).toBeInstanceOf(CodecError);
      expect((caught as Error).message).toMatch(message);
      expect((caught as CodecError).path).toEqual(path);
    }
  });

  it("encoding errors name the path too", () => {
    try {
      encodeMsgpack({ nested_map: { a: { value: {} as Value } } }, everything);
      expect.unreachable();
    } catch (error) {
      expect((error as CodecError).path).toEqual(["nested_map", "a", "value"]);
    }
  });
});

describe("conversions a body may need (and a JSON state may not)", () => {
  it("body primitives convert as Terraform converts them", () => {
    const body = decodeMsgpack(encodeMsgpack({ s: 12, b: "true", n: "98765432109876543210" } as Body, everything), everything)!;
    expect(body).toMatchObject({ s: "12", b: true, n: "98765432109876543210" });
  });

  it("JSON state numbers may be decimal text; other mismatches are errors with the path", () => {
    expect(decodeMsgpack(encodeJsonState({ n: "12", list: ["a"] }, everything), everything)).toMatchObject({ n: 12, list: ["a"] });
    expect(() => encodeJsonState({ list: ["a", 5] }, everything)).toThrow(/expected a string, got number/);
    try {
      encodeJsonState({ rules: [{ key: true }] }, everything);
      expect.unreachable();
    } catch (error) {
      expect((error as CodecError).path).toEqual(["rules", 0, "key"]);
    }
  });

  it("a JSON state encodes to the bytes of its body read through the schema", () => {
    const state = { s: "x", n: 1.5, removed: "dropped", map: { a: "1" }, rules: null, single: { mode: "m" }, nested_list: [{ url: "u" }] };
    expect(hex(encodeJsonState(state, everything))).toBe(hex(encodeMsgpack(fromJsonState(state, everything), everything)));
  });
});

describe("property: agrees with @msgpack/msgpack on any value of the schema", () => {
  const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: "grapheme", maxLength: 40 }), fc.string({ minLength: 250, maxLength: 300 }));
  const number = fc.oneof(
    fc.integer({ min: -(2 ** 31), max: 2 ** 32 }),
    fc.maxSafeInteger(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
  );
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 6, arbitrary: arb as fc.Arbitrary<Value> }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constant(UNKNOWN as Value) });
  const key = fc.oneof(fc.string({ maxLength: 8 }), fc.string({ unit: "grapheme", maxLength: 8 })).filter((k) => k !== "__proto__");
  const mapOf = <T>(arb: fc.Arbitrary<T>) => fc.dictionary(key, arb, { maxKeys: 4 });
  const object = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) => fc.record(fields) as unknown as fc.Arbitrary<Value>;
  const bodyArb = object({
    s: maybe(text),
    n: maybe(number),
    b: maybe(fc.boolean()),
    list: maybe(fc.array(maybe(text), { maxLength: 4 })),
    set: maybe(fc.array(maybe(number), { maxLength: 4 })),
    sets: maybe(fc.array(maybe(fc.array(maybe(text), { maxLength: 3 })), { maxLength: 3 })),
    map: maybe(mapOf(maybe(text))),
    map_of_lists: maybe(mapOf(maybe(fc.array(maybe(fc.boolean()), { maxLength: 3 })))),
    obj: maybe(object({ name: maybe(text), size: maybe(number) })),
    nested_list: maybe(fc.array(maybe(object({ url: maybe(text), weight: maybe(number) })), { maxLength: 3 })),
    nested_set: maybe(fc.array(maybe(object({ key: maybe(text) })), { maxLength: 3 })),
    nested_map: maybe(mapOf(maybe(object({ value: maybe(text) })))),
    nested_single: maybe(object({ on: maybe(fc.boolean()) })),
    single: maybe(object({ mode: maybe(text) })),
    rules: fc.oneof(fc.constant(UNKNOWN as Value), fc.array(maybe(object({ key: maybe(text), tags: fc.array(maybe(object({ name: maybe(text) })), { maxLength: 2 }) })), { maxLength: 3 })),
  });

  it("our bytes read back the same through @msgpack/msgpack, and Terraform-ordered bytes decode to the body", () => {
    fc.assert(
      fc.property(bodyArb, (body) => {
        const ours = encodeMsgpack(body as Body, everything);
        expect(libraryDecode(ours)).toEqual(body);
        expect(decodeMsgpack(terraformBytes(body), everything)).toEqual(body);
        expect(decodeMsgpack(ours, everything)).toEqual(body);
      }),
      { numRuns: 300 },
    );
  });
});
