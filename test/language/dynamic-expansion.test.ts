// A dynamic block as `terraform validate` 1.11.4 expands it (each case was run through Terraform):
// with a for_each it knows, the content sees the iterator's key and value and our provider's
// rules judge the generated block (reported at the resource body, where Terraform reports what
// it cannot point into); with an unknown for_each, the generated block's values are all unknown,
// so only the content's names are checked.
import { describe, expect, it } from "vitest";
import { modulesOnDisk } from "./module-on-disk.js";

const { errors, diagnostics: validated } = modulesOnDisk("dynamic");

const versions = JSON.stringify({ terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" } } }, provider: { tsdb: { project_id: "p" } } });
const duration = (field: string, got: string) => `${field} must be a duration made of numbers with s, m or h suffixes, such as 30s, 10m or 1h30m, got ${JSON.stringify(got)}`;

/** A VPC with one dynamic timeouts block (on line 4; the body closes on line 5), in main.tf.json. */
function jsonVpc(dynamic: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, string> {
  const vpc = `{ "cidr": "10.0.0.0/16", "region_code": "us-east-1",\n  "dynamic": { "timeouts": ${JSON.stringify(dynamic)} }\n}`;
  return { "main.tf.json": `{ "resource": { "tsdb_vpcs": { "main":\n\n${vpc}\n} }${Object.keys(extra).length > 0 ? `, ${JSON.stringify(extra).slice(1, -1)}` : ""} }`, "versions.tf.json": versions };
}

describe("a dynamic block whose for_each validate knows", () => {
  it("gives the content its iterator's key and value (a map's key)", async () => {
    expect(await errors(jsonVpc({ for_each: '${{ a = "45m" }}', content: { create: "${timeouts.value}", delete: "${timeouts.key}" } }))).toEqual([`main.tf.json:5: ${duration("timeouts.delete", "a")}`]);
  });

  it("a tuple's index, a named iterator, a local value's map, a template around the value", async () => {
    expect(await errors(jsonVpc({ for_each: '${["45m"]}', content: { create: "${timeouts.value}", delete: "${timeouts.key}" } }))).toEqual([`main.tf.json:5: ${duration("timeouts.delete", "0")}`]);
    expect(await errors(jsonVpc({ for_each: { x: "bad" }, iterator: "t", content: { create: "${t.value}-x" } }))).toEqual([`main.tf.json:5: ${duration("timeouts.create", "bad-x")}`]);
    expect(await errors(jsonVpc({ for_each: "${local.m}", content: { create: "${timeouts.value}" } }, { locals: { m: { a: "zz" } } }))).toEqual([`main.tf.json:5: ${duration("timeouts.create", "zz")}`]);
  });

  it("a set's element is its key too", async () => {
    expect(await errors(jsonVpc({ for_each: '${toset(["45m"])}', iterator: "t", content: { create: "${t.value}", delete: "${t.key}" } }))).toEqual([]);
  });

  it("in native syntax, reported at the resource's opening brace", async () => {
    const main = ['resource "tsdb_vpcs" "a" {', '  cidr        = "10.0.0.0/16"', '  region_code = "us-east-1"', '  dynamic "timeouts" {', '    for_each = { a = "45m" }', "    content {", "      create = timeouts.value", "      delete = timeouts.key", "    }", "  }", "}", ""].join("\n");
    expect(await errors({ "main.tf": main, "versions.tf.json": versions })).toEqual([`main.tf:1: ${duration("timeouts.delete", "a")}`]);
  });
});

describe("a dynamic block whose for_each is unknown", () => {
  const variables = { variable: { x: {} } };

  it("generates a block of unknown values: neither its types nor the provider's rules are judged", async () => {
    expect(await errors(jsonVpc({ for_each: "${var.x}", content: { create: "bad" } }, variables))).toEqual([]);
    expect(await errors(jsonVpc({ for_each: "${var.x}", content: { create: ["x"] } }, variables))).toEqual([]);
    expect(await errors(jsonVpc({ for_each: "${var.x}", content: { create: "${local.bad}" } }, { ...variables, locals: { bad: "zz" } }))).toEqual([]);
  });

  it("but its names are", async () => {
    expect(await errors(jsonVpc({ for_each: "${var.x}", content: { nope: 1 } }, variables))).toEqual([expect.stringMatching(/^main\.tf\.json:4: .*"nope"/)]);
  });

  it("its values' templates are evaluated only at plan: what they hold is reported as ours", async () => {
    const diagnostics = await validated(jsonVpc({ for_each: "${var.x}", content: { create: "${1 +}", delete: "${var.nope}", update: "${nofunc(1)}" } }, variables));
    expect(diagnostics.map((d) => [d.source, d.code, d.message.split(":")[0]])).toEqual([
      ["schemaform", "unexpanded-dynamic", "Invalid expression"],
      ["schemaform", "unexpanded-dynamic", "Reference to undeclared input variable"],
      ["schemaform", "unexpanded-dynamic", "Call to unknown function"],
    ]);
    // with a known for_each, Terraform evaluates them at validate
    const known = await errors(jsonVpc({ for_each: ["1m"], content: { delete: "${var.nope}" } }, variables));
    expect(known).toEqual([expect.stringMatching(/^main\.tf\.json:4: Reference to undeclared input variable/)]);
  });

  it("in native syntax", async () => {
    const main = ['variable "x" {}', 'resource "tsdb_vpcs" "a" {', '  cidr        = "10.0.0.0/16"', '  region_code = "us-east-1"', '  dynamic "timeouts" {', "    for_each = var.x", "    content {", '      create = "bad"', "    }", "  }", "}", ""].join("\n");
    expect(await errors({ "main.tf": main, "versions.tf.json": versions })).toEqual([]);
    const diagnostics = await validated({ "main.tf": main.replace('create = "bad"', "create = nofunc(1)\n      delete = var.y"), "versions.tf.json": versions });
    expect(diagnostics.map((d) => `${d.line} ${d.source}`)).toEqual(["8 schemaform", "9 schemaform"]);
  });
});
