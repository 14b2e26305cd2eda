// The native HCL writer of the reference pages' examples, judged by real Terraform (on PATH; a
// missing one fails the suite): literal strings evaluate to exactly themselves, `${` and `%{`
// included; HCL-JSON templates keep their meaning; object keys that are not identifiers or that
// Terraform would read as keywords survive; and `terraform fmt` leaves the layout unchanged.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { attribute, block, expression, fromTemplate, quoteString, renderHcl, type HclValue } from "../../language/syntax/native/writer.js";

const dir = mkdtempSync(join(tmpdir(), "schemaform-hcl-"));
const env = { ...process.env, CHECKPOINT_DISABLE: "1", TF_CLI_CONFIG_FILE: join(dir, "none.tfrc") };
writeFileSync(env.TF_CLI_CONFIG_FILE, "");

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What Terraform makes of each value, written by the writer as a local value. */
function evaluate(values: HclValue[]): unknown[] {
  writeFileSync(join(dir, "main.tf"), renderHcl([block("locals", [], values.map((v, i) => attribute(`v${i}`, v)))]));
  // Base64, so that the console's own quoting of the result does not get in the way.
  const expr = `base64encode(jsonencode([${values.map((_, i) => `local.v${i}`).join(", ")}]))`;
  const out = execFileSync("terraform", ["console"], { cwd: dir, env, input: `${expr}\n`, encoding: "utf8" });
  return JSON.parse(Buffer.from(out.trim().replace(/^"|"$/g, ""), "base64").toString("utf8")) as unknown[];
}

function formatted(text: string): string {
  return execFileSync("terraform", ["fmt", "-"], { cwd: dir, env, input: text, encoding: "utf8" });
}

describe("literal strings", () => {
  const tricky = [
    "plain",
    'with "quotes"',
    "back\\slash \\n not a newline",
    "new\nline, tab\t, return\r",
    "${not.a.reference}",
    "%{ if true }directive%{ endif }",
    "$${already escaped in HCL-JSON}",
    "$$${x}",
    "%%{x}",
    "ends with $",
    "ends with %",
    "{} and $ { and % {",
    "unicode ✓, emoji 🦀, control \u0001 and \u007f",
  ];

  test("evaluate to exactly themselves", () => {
    expect(evaluate(tricky)).toEqual(tricky);
  });

  test("are quoted on one line", () => {
    for (const s of tricky) expect(quoteString(s)).not.toMatch(/\n/);
    expect(quoteString("${x}")).toBe('"$${x}"');
    expect(quoteString("%{x}")).toBe('"%%{x}"');
  });
});

describe("HCL-JSON templates", () => {
  test("one interpolation is a bare expression; literal text is a literal; a mixed template keeps its meaning", () => {
    expect(fromTemplate("${tsdb_vpcs.main.vpcs_id}")).toEqual(expression("tsdb_vpcs.main.vpcs_id"));
    expect(fromTemplate("${ var.x }")).toEqual(expression("var.x"));
    expect(fromTemplate("no template, $${escaped}")).toBe("no template, ${escaped}");
    const mixed = fromTemplate('pre-${upper("x}")}-$${lit}-"q"-%{ if true }yes%{ endif }');
    expect(mixed).toBeInstanceOf(Object.getPrototypeOf(expression("")).constructor);
    expect(evaluate([mixed, fromTemplate("no template, $${escaped}"), fromTemplate('${upper("ab")}')])).toEqual([
      'pre-X}-${lit}-"q"-yes',
      "no template, ${escaped}",
      "AB",
    ]);
  });
});

describe("collections", () => {
  test("objects, maps and lists, nested, with keys Terraform would otherwise misread", () => {
    const value: HclValue = {
      // First, where `{ for` would start a for expression.
      for: "keyword",
      plain: 1,
      "a.b/c": "dotted",
      true: false,
      null: null,
      list: ["x", 2, true],
      nested: { deeper: [{ a: 1, b: "two" }, { c: [] }], empty: {} },
    };
    expect(evaluate([value])).toEqual([value]);
  });
});

describe("layout", () => {
  test("terraform fmt leaves it unchanged", () => {
    const text = renderHcl([
      block("resource", ["tsdb_connector_src_db", "orders"], [
        attribute("service_id", fromTemplate("${tsdb_service.db.id}")),
        attribute("display_name", "Orders"),
        attribute("table_sync_workers", 2),
        attribute("ssh_tunnel", { name: "bastion", host: "bastion.example.com", port: 22, username: "a-rather-long-user-name" }),
        attribute("short", { a: 1 }),
        attribute("tables", [
          { schema_name: "public", table_name: "orders", hypertable_spec: { primary_dimension: { column_name: "created_at", partition_interval: "7d" } } },
          { schema_name: "public", table_name: "customers" },
        ]),
        attribute("labels", { "with space": "x", team: "platform" }),
        block("timeouts", [], [attribute("create", "30m"), attribute("delete", "1h")]),
      ]),
      block("provider", ["tsdb"], []),
    ]);
    expect(text).toMatch(/^  ssh_tunnel = \{$/m);
    expect(text).toMatch(/^  service_id {9}= tsdb_service\.db\.id$/m);
    expect(formatted(text)).toBe(text);
  });
});
