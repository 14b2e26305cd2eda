// The keywords of generator/keywords.ts. `x-rule` compiles cross-field rules to plain JavaScript;
// its meaning must stay JSON Schema's: for every rule of our schemas (and the sugar's
// expansions), random bodies get the same verdict from the compiled rule as from Ajv evaluating
// the standard JSON Schema. `x-unknown-or` and `x-unique` let unknown values through.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 as Ajv } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KEYWORDS, RULE, UNIQUE, UNKNOWN_OR } from "../../generator/keywords.js";
import { lowerSchema } from "../../generator/lower.js";
import { ROOT } from "../../scripts/bundle-provider.mjs";
import { UNKNOWN_VALUE } from "../../language/schema/model-types.js";

type Schema = Record<string, any>;

/** Every rule of the project's schemas, with the object properties it may read. */
function projectRules(): { name: string; rule: Schema; fields: string[] }[] {
  const out: { name: string; rule: Schema; fields: string[] }[] = [];
  const dir = join(ROOT, "schemas");
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".schema.json"))) {
    const visit = (node: unknown): void => {
      if (!node || typeof node !== "object") return;
      if (Array.isArray(node)) return node.forEach(visit);
      const n = node as Schema;
      for (const [i, rule] of (n["x-terraform"]?.rules ?? []).entries()) {
        out.push({ name: `${file} rule ${i}: ${rule.message}`, rule, fields: Object.keys(n.properties ?? {}) });
      }
      Object.values(n).forEach(visit);
    };
    visit(JSON.parse(readFileSync(join(dir, file), "utf8")));
  }
  return out;
}

/** Values the rules compare with, plus the unknown value and things that match nothing. */
function valuesOf(rule: Schema): unknown[] {
  const values = new Set<unknown>([UNKNOWN_VALUE, "other", 3, true, false, null]);
  const visit = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach(visit);
    for (const [k, v] of Object.entries(node)) {
      if (k === "const") values.add(v);
      else if (k === "enum") (v as unknown[]).forEach((x) => values.add(x));
      else visit(v);
    }
  };
  visit(rule);
  return [...values];
}

const rules = projectRules();

describe("x-rule", () => {
  it("finds the project's rules", () => {
    expect(rules.length).toBeGreaterThan(20);
  });

  it.each(rules.map((r) => [r.name, r] as const))("%s: same verdict as Ajv on the standard schema", (_name, { rule, fields }) => {
    const lowered = lowerSchema({ type: "object", properties: Object.fromEntries(fields.map((f) => [f, {}])) }, [rule]).schema;
    const entry = lowered.allOf[0][RULE];
    const compiled = new Ajv({ allErrors: true, strict: false, keywords: KEYWORDS }).compile({ [RULE]: entry });
    // the same rule as standard JSON Schema: broken = not(holds), skipped when a read value is unknown
    const reference = new Ajv({ allErrors: true, strict: false }).compile({
      if: { allOf: [{ properties: Object.fromEntries((entry.reads ?? []).map((f: string) => [f, { not: { const: UNKNOWN_VALUE } }])) }, { not: entry.holds }] },
      then: false,
    });
    const values = valuesOf(rule);
    const body = fc.dictionary(fc.constantFrom(...fields), fc.constantFrom(...values), { maxKeys: fields.length });
    fc.assert(
      fc.property(body, (b) => {
        expect(compiled(b), JSON.stringify(b)).toBe(reference(b));
      }),
      { numRuns: 400 },
    );
  });

  it("refuses a rule keyword it cannot compile instead of ignoring it", () => {
    expect(() =>
      new Ajv({ strict: false, keywords: KEYWORDS }).compile({ [RULE]: { holds: { properties: { a: { minimum: 3 } } } } }),
    ).toThrow(/minimum is not supported/);
  });

  it("reports a broken rule once, at the rule", () => {
    const lowered = lowerSchema({ type: "object", properties: { a: { type: "string" }, b: { type: "string" } } }, [{ conflicts: ["a", "b"], message: "a conflicts with b" }]);
    const validate = new Ajv({ allErrors: true, strict: false, keywords: KEYWORDS }).compile(lowered.schema);
    expect(validate({ a: "x", b: "y" })).toBe(false);
    expect(validate.errors?.map((e) => e.schemaPath)).toEqual([`#/allOf/0/${RULE}`]);
    expect(lowered.rules[`#/allOf/0/${RULE}`]?.message).toBe("a conflicts with b");
    expect(validate({ a: "x", b: UNKNOWN_VALUE })).toBe(false); // presence rules count unknowns
  });
});

describe("x-unknown-or and x-unique", () => {
  const lowered = lowerSchema({
    type: "object",
    properties: {
      size: { type: "integer", minimum: 1 },
      cidrs: { type: "array", uniqueItems: true, minItems: 2, items: { type: "string", pattern: "^10\\." } },
    },
  }).schema;
  const validate = new Ajv({ allErrors: true, strict: true, strictTypes: false, keywords: KEYWORDS }).compile(lowered);

  it("lowers every value check under the guard, and uniqueItems to x-unique", () => {
    expect(Object.keys(lowered.properties.size)).toEqual([UNKNOWN_OR]);
    expect(lowered.properties.cidrs[UNKNOWN_OR][UNIQUE]).toBe(true);
    expect(lowered.properties.cidrs[UNKNOWN_OR].uniqueItems).toBeUndefined();
  });

  it("lets the unknown value through where any value goes, and checks everything else", () => {
    expect(validate({ size: UNKNOWN_VALUE, cidrs: UNKNOWN_VALUE })).toBe(true);
    expect(validate({ size: 0 })).toBe(false);
    expect(validate({ size: "${var.size}" })).toBe(false); // a known string, not the unknown value
    expect(validate({ cidrs: ["10.0.0.0/8", UNKNOWN_VALUE] })).toBe(true);
    expect(validate({ cidrs: ["192.168.0.0/16", UNKNOWN_VALUE] })).toBe(false);
  });

  it("rejects duplicates in a set, but does not judge one that holds unknowns", () => {
    expect(validate({ cidrs: ["10.0.0.0/8", "10.0.0.0/8"] })).toBe(false);
    expect(validate.errors?.map((e) => [e.keyword, e.params])).toEqual([[UNIQUE, { i: 1, j: 0 }]]);
    expect(validate({ cidrs: ["10.0.0.0/8", "10.1.0.0/16"] })).toBe(true);
    expect(validate({ cidrs: [UNKNOWN_VALUE, UNKNOWN_VALUE] })).toBe(true);
  });
});
