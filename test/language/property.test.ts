// Random and mutated documents never crash the validator, never hang, and never touch a
// prototype, whatever the keys (`__proto__`, `constructor`, `prototype`) and shapes.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { preloadTypes, validateHclJsonSync, type Diagnostic } from "../../language/index.js";

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const corpus = ["valid", "invalid"].flatMap((dir) =>
  readdirSync(`${fixtures}${dir}`)
    .filter((n) => n.endsWith(".tf.json"))
    .map((n) => readFileSync(`${fixtures}${dir}/${n}`, "utf8")),
);

const TIME_BOX_MS = 2000;
const prototypeKeys = () => [Object.getOwnPropertyNames(Object.prototype).sort().join(","), Object.getOwnPropertyNames(Array.prototype).sort().join(",")];
const before = prototypeKeys();

function check(text: string): Diagnostic[] {
  const started = performance.now();
  const diagnostics = validateHclJsonSync(text, { filename: "fuzz.tf.json" });
  const elapsed = performance.now() - started;
  expect(elapsed).toBeLessThan(TIME_BOX_MS);
  expect(Array.isArray(diagnostics)).toBe(true);
  for (const d of diagnostics) {
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.column).toBeGreaterThanOrEqual(1);
    expect(typeof d.message).toBe("string");
  }
  expect(prototypeKeys()).toEqual(before);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  return diagnostics;
}

// Keys that matter to Terraform, to our schemas, and to JavaScript objects.
const KEYS = [
  "__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "//", "_",
  "resource", "data", "provider", "variable", "output", "locals", "module", "terraform", "import", "moved", "removed", "check",
  "tsdb_service", "tsdb_vpcs", "tsdb_log_exporter", "tsdb_metric_exporter", "tsdb_connector_src_db", "tsdb_connector_obj_store",
  "tsdb_peering_connection", "containerbackup_restore_channel", "tsdb", "aws_instance", "db", "a",
  "count", "for_each", "depends_on", "lifecycle", "dynamic", "content", "provisioner", "connection", "timeouts", "create",
  "milli_cpu", "memory_gb", "region_code", "vpc_id", "labels", "tables", "schema_name", "cloudmon", "saasmon", "password",
  "to", "id", "from", "type", "default", "value",
];
const STRINGS = ["", "x", "3", "1e1", " 2 ", "true", "True", "0", "${var.x}", "${tsdb_vpcs.a.vpcs_id}", "$${x}", "%{ if x }", "${", "${var.}", "tsdb_service.db", "us-east-1", "10.0.0.0/16", "\u0024{x}", "__proto__"];

/** JSON text with duplicate keys allowed, built directly (JSON.stringify would drop them). */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(...STRINGS).map((s) => JSON.stringify(s)),
    fc.string().map((s) => JSON.stringify(s)),
    fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(12345678901234567890123)).map((n) => String(n)),
    fc.constantFrom("true", "false", "null"),
    fc.array(tie("value"), { maxLength: 4 }).map((items) => `[${items.join(",")}]`),
    fc.array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 6 })), tie("value")), { maxLength: 6 }).map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`),
  ),
})).value;

const mutation = fc.record({
  doc: fc.nat(corpus.length - 1),
  edits: fc.array(
    fc.record({
      at: fc.nat(),
      remove: fc.nat(8),
      insert: fc.oneof(fc.constantFrom("{", "}", "[", "]", ",", ":", '"', "\\", "null", "${", "}", "[]", "{}", '"__proto__":', '"constructor":{}', "\n", "0"), fc.string({ maxLength: 3 })),
    }),
    { minLength: 1, maxLength: 6 },
  ),
});

describe("property-based", () => {
  beforeAll(async () => {
    await preloadTypes();
  });

  it("random documents never throw, hang or pollute", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        check(text);
      }),
      { numRuns: 400 },
    );
  });

  it("random Terraform-shaped documents never throw, hang or pollute", () => {
    const body = fc.array(fc.tuple(fc.constantFrom(...KEYS), jsonText), { maxLength: 6 }).map((m) => `{${m.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`);
    const doc = fc
      .tuple(fc.constantFrom("resource", "data", "provider", "__proto__", "import", "check"), fc.constantFrom(...KEYS), fc.constantFrom(...KEYS), body, fc.boolean())
      .map(([block, type, name, b, array]) => {
        const inner = block === "provider" ? `{${JSON.stringify(type)}: ${array ? `[${b}]` : b}}` : block === "import" ? `[${b}]` : `{${JSON.stringify(type)}: {${JSON.stringify(name)}: ${array ? `[${b}, ${b}]` : b}}}`;
        return array ? `[{${JSON.stringify(block)}: ${inner}}]` : `{${JSON.stringify(block)}: ${inner}}`;
      });
    fc.assert(
      fc.property(doc, (text) => {
        check(text);
      }),
      { numRuns: 600 },
    );
  });

  it("mutated fixtures never throw, hang or pollute", () => {
    fc.assert(
      fc.property(mutation, ({ doc, edits }) => {
        let text = corpus[doc]!;
        for (const e of edits) {
          const at = text.length === 0 ? 0 : e.at % (text.length + 1);
          text = text.slice(0, at) + e.insert + text.slice(at + e.remove);
        }
        check(text);
      }),
      { numRuns: 400 },
    );
  });

  it("user keys named like prototype members are data, not prototypes", () => {
    const text = JSON.stringify({
      resource: {
        containerbackup_restore_channel: {
          c: { destination_project: "projects/p-target", location: "us-central1", labels: { constructor: "x", prototype: "y", toString: "z" } },
        },
      },
    }).replace('"constructor":"x"', '"__proto__":{"polluted":true},"constructor":"x"');
    const diagnostics = check(text);
    // a label holding an object is a type error, reported at that label; toString is no label key
    // (labels are lowercase), reported on the map; nothing else
    expect(diagnostics.map((d) => d.path).sort()).toEqual(["labels", "labels.__proto__"]);
    expect(diagnostics.find((d) => d.path === "labels")!.message).toContain('labels key "toString" must start with a lowercase letter');
  });

  it('a "//" key in a map is data, not a comment: checked as a label key', () => {
    const text = JSON.stringify({
      resource: { containerbackup_restore_channel: { c: { destination_project: "projects/p-target", location: "us-central1", labels: { team: "data", "//": "not-a-comment" } } } },
    });
    expect(check(text).map((d) => d.message)).toEqual(['labels key "//" must start with a lowercase letter and hold only lowercase letters, digits, underscores and dashes (international lowercase letters too)']);
  });
});
