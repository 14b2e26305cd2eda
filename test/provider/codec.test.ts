// The value codec against the wire encodings Terraform uses (reference §7).
import { decode, encode, ExtData } from "@msgpack/msgpack";
import { describe, expect, it } from "vitest";
import { type Body, UNKNOWN, decodeMsgpack, decodeValue, encodeMsgpack, encodeValue, fromJsonState } from "../../provider/codec.js";
import type { SchemaBlock } from "../../provider/schema.js";
import { fixtureSchema } from "./fixture/schema.js";

const thing = fixtureSchema.resource_schemas.fixture_thing!.block;

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

describe("unknown values", () => {
  it("encode as fixext1 type 0 (d4 00 00)", () => {
    expect(hex(encodeValue(UNKNOWN, "string"))).toBe("d40000");
  });

  it("decode from any extension type, including refined unknowns", () => {
    expect(decodeValue(Buffer.from("d40000", "hex"), "string")).toBe(UNKNOWN);
    // Refined unknown: ext type 12 with a refinement map (not null, prefix "id-").
    expect(decodeValue(Buffer.from("d70c8201c202a369642d", "hex"), "string")).toBe(UNKNOWN);
  });

  it("round-trip inside objects, collections and blocks", () => {
    const body: Body = { id: UNKNOWN, name: "a", region: "r", tags: UNKNOWN, labels: ["x", UNKNOWN], rule: [{ key: UNKNOWN, value: null }] };
    const back = decodeMsgpack(encodeMsgpack(body, thing), thing)!;
    expect(back.id).toBe(UNKNOWN);
    expect(back.tags).toBe(UNKNOWN);
    expect(back.labels).toEqual(["x", UNKNOWN]);
    expect(back.rule).toEqual([{ key: UNKNOWN, value: null }]);
  });

  it("never parse as a msgpack timestamp (ext type -1)", () => {
    const timestamp = encode(new Date(0));
    expect(decodeValue(timestamp, "string")).toBe(UNKNOWN);
  });
});

describe("null and absent", () => {
  it("null whole object is c0 both ways", () => {
    expect(hex(encodeMsgpack(null, thing))).toBe("c0");
    expect(decodeMsgpack(Buffer.from("c0", "hex"), thing)).toBeNull();
    expect(decodeMsgpack(new Uint8Array(0), thing)).toBeNull();
  });

  it("encodes every attribute, null for absent; absent list block = [], absent single block = null", () => {
    const raw = decode(encodeMsgpack({ name: "a" }, thing)) as Record<string, unknown>;
    expect(Object.keys(raw).sort()).toEqual([...Object.keys(thing.attributes!), ...Object.keys(thing.block_types!)].sort());
    expect(raw.name).toBe("a");
    expect(raw.id).toBeNull();
    expect(raw.rule).toEqual([]);
    expect(raw.settings).toBeNull();
    expect(raw.endpoints).toBeNull();
  });

  it("decodes absent keys as null and null list blocks as []", () => {
    const body = decodeMsgpack(encode({ name: "a", rule: null }), thing)!;
    expect(body.id).toBeNull();
    expect(body.rule).toEqual([]);
    expect(body.settings).toBeNull();
  });
});

describe("nested values", () => {
  const body: Body = {
    id: "1",
    name: "n",
    region: "r",
    tags: { a: "1", b: "2" },
    labels: ["z", "y"],
    endpoints: [{ url: "https://a", weight: 2.5 }, { url: "https://b", weight: null }],
    settings: { enabled: true, mode: "fast" },
    rule: [{ key: "k", value: "v" }],
  };

  it("round-trips nested attributes, maps, sets, single and list blocks", () => {
    const back = decodeMsgpack(encodeMsgpack(body, thing), thing)!;
    for (const key of Object.keys(body)) expect(back[key]).toEqual(body[key]);
    expect(back.secret).toBeNull();
  });

  it("encodes floats as float64 and small integers as ints", () => {
    expect(hex(encodeValue(2.5, "number"))).toBe("cb4004000000000000");
    expect(hex(encodeValue(443, "number"))).toBe("cd01bb");
  });

  it("decodes dynamic values from [type, value] and encodes them with their implied type", () => {
    const type = new TextEncoder().encode('["object",{"x":["tuple",["number","string","bool"]]}]');
    const wire = encode([type, { x: [1, "two", true] }]);
    expect(decodeValue(wire, "dynamic")).toEqual({ x: [1, "two", true] });
    const again = decode(encodeValue({ x: [1, "two", true] }, "dynamic")) as [Uint8Array, unknown];
    expect(JSON.parse(new TextDecoder().decode(again[0]))).toEqual(["object", { x: ["tuple", ["number", "string", "bool"]] }]);
    expect(again[1]).toEqual({ x: [1, "two", true] });
  });
});

describe("big numbers", () => {
  it("keeps uint64 values beyond 2^53 exact (as decimal strings)", () => {
    const big = encode(18446744073709551615n, { useBigInt64: true });
    expect(decodeValue(big, "number")).toBe("18446744073709551615");
  });

  it("turns safe int64 values into numbers", () => {
    expect(decodeValue(encode(2n ** 40n, { useBigInt64: true }), "number")).toBe(2 ** 40);
  });

  it("accepts numbers sent as strings, and sends big ones back as strings", () => {
    expect(decodeValue(encode("12"), "number")).toBe(12);
    expect(decodeValue(encode("123456789012345678901234567890"), "number")).toBe("123456789012345678901234567890");
    expect(decode(encodeValue("123456789012345678901234567890", "number"))).toBe("123456789012345678901234567890");
  });
});

describe("sets", () => {
  it("keep Terraform's order on the wire (order is never compared)", () => {
    const schema: SchemaBlock = { attributes: { s: { type: ["set", "number"], optional: true } } };
    expect(decodeMsgpack(encodeMsgpack({ s: [3, 1, 2] }, schema), schema)!.s).toEqual([3, 1, 2]);
  });
});

describe("JSON state (UpgradeResourceState)", () => {
  it("reads state through the current schema: new attributes null, removed ones dropped, dynamic {value,type}", () => {
    const schema: SchemaBlock = {
      attributes: { a: { type: "string", optional: true }, added: { type: "string", optional: true }, d: { type: "dynamic", optional: true } },
      block_types: { b: { nesting_mode: "list", block: { attributes: { k: { type: "string", optional: true } } } } },
    };
    const body = fromJsonState({ a: "x", removed: 1, d: { value: ["p", 2], type: ["tuple", ["string", "number"]] } }, schema)!;
    expect(body).toEqual({ a: "x", added: null, d: ["p", 2], b: [] });
    const wire = decode(encodeMsgpack(body, schema)) as Record<string, unknown>;
    expect(Object.keys(wire).sort()).toEqual(["a", "added", "b", "d"]);
  });

  it("rejects values of the wrong type with the attribute path", () => {
    expect(() => fromJsonState({ name: 5 }, { attributes: { name: { type: "bool", optional: true } } })).toThrow(/expected a bool/);
  });
});

describe("decoding errors", () => {
  it("name the path of a bad value", () => {
    try {
      decodeMsgpack(encode({ rule: [{ key: 5 }] }), thing);
      expect.unreachable();
    } catch (error) {
      expect((error as { path: unknown }).path).toEqual(["rule", 0, "key"]);
    }
  });

  it("treat ExtData encoded by hand as unknown", () => {
    expect(decodeValue(encode(new ExtData(0, new Uint8Array([0]))), "bool")).toBe(UNKNOWN);
  });
});
