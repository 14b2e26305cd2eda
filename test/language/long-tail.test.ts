// Classes a fresh corpus found (issue 21), each as Terraform 1.11.4 decides it at validate
// (the differential round 12 records the same on whole modules).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateFiles } from "../../language/index.js";

const work = mkdtempSync(join(tmpdir(), "schemaform-long-tail-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;

const providers = { required_providers: { tsdb: { source: "schemaform/tsdb" } } };

/** The error messages (first lines) of a module of one main.tf.json written raw. */
async function errors(text: string): Promise<string[]> {
  const dir = join(work, String(n++));
  mkdirSync(dir);
  writeFileSync(join(dir, "main.tf.json"), text);
  const result = await validateFiles([dir]);
  return result.diagnostics.filter((d) => d.severity === "error").map((d) => d.message.split("\n")[0]!);
}
const counted = (count: string) => `{ "resource": { "terraform_data": { "x": { "count": ${count} } } } }`;

describe("count follows cty's arbitrary-precision numbers", () => {
  it("refuses numbers a double would round to a whole one", async () => {
    expect(await errors(counted("1.0000000000000000001"))).toEqual([expect.stringContaining("must be a whole number")]);
    expect(await errors(counted("1e-400"))).toEqual([expect.stringContaining("must be a whole number")]);
    expect(await errors(counted('"1.0000000000000000001"'))).toEqual([expect.stringContaining("must be a whole number")]);
  });

  it("accepts whole numbers however written", async () => {
    expect(await errors(counted("2.0e0"))).toEqual([]);
    expect(await errors(counted("0.00"))).toEqual([]);
    expect(await errors(counted("1.5e1"))).toEqual([]);
  });

  it("refuses a division by zero (an infinity), not 0 / 0", async () => {
    expect(await errors(counted('"${2 / 0}"'))).toEqual([expect.stringContaining("Invalid count argument")]);
    expect(await errors(counted('"${0 / 0}"'))).toEqual([]);
  });
});

describe("shapes Terraform accepts at validate", () => {
  it("issensitive() and nonsensitive() of a sensitive variable in an output not marked sensitive", async () => {
    const module = (value: string) =>
      JSON.stringify({ variable: { s: { type: "string", sensitive: true, default: "x" } }, output: { o: { value } } });
    expect(await errors(module("${issensitive(var.s)}"))).toEqual([]);
    expect(await errors(module("${nonsensitive(var.s)}"))).toEqual([]);
    expect(await errors(module('${issensitive(var.s) ? "yes" : "no"}'))).toEqual([]);
    // the value itself still needs the mark
    expect(await errors(module("${upper(var.s)}"))).toEqual([expect.stringContaining("Output refers to sensitive values")]);
    expect(await errors(module("${issensitive(var.s) ? var.s : \"\"}"))).toEqual([expect.stringContaining("Output refers to sensitive values")]);
  });

  it("an import with for_each = null", async () => {
    const module = { terraform: providers, provider: { tsdb: { project_id: "p" } }, resource: { tsdb_vpcs: { main: { cidr: "10.0.0.0/16", region_code: "us-east-1" } } }, import: [{ for_each: null, to: "tsdb_vpcs.main", id: "x" }] };
    expect(await errors(JSON.stringify(module))).toEqual([]);
  });

  it("spaces between the tokens of a provider reference", async () => {
    const module = {
      terraform: providers,
      provider: { tsdb: [{ project_id: "p" }, { alias: "east", project_id: "p" }] },
      resource: { tsdb_vpcs: { main: { cidr: "10.0.0.0/16", region_code: "us-east-1", provider: "tsdb .east" } } },
    };
    expect(await errors(JSON.stringify(module))).toEqual([]);
    module.resource.tsdb_vpcs.main.provider = "tsdb . nope";
    expect(await errors(JSON.stringify(module))).toEqual([expect.stringContaining("nope")]);
  });
});

describe("a variable changed by an override file is checked merged", () => {
  const base = JSON.stringify({ variable: { cpu: { type: "number", default: 1000 } } });
  async function withOverride(override: object): Promise<{ file: string; message: string }[]> {
    const dir = join(work, String(n++));
    mkdirSync(dir);
    writeFileSync(join(dir, "main.tf.json"), base);
    writeFileSync(join(dir, "override.tf.json"), JSON.stringify(override));
    const result = await validateFiles([dir]);
    return result.diagnostics.filter((d) => d.severity === "error").map((d) => ({ file: d.file.slice(dir.length + 1), message: d.message.split("\n")[0]! }));
  }

  it("an overriding default that does not fit the primary type, and an overriding type the primary default does not fit", async () => {
    expect(await withOverride({ variable: { cpu: { default: "many" } } })).toEqual([{ file: "override.tf.json", message: expect.stringContaining("Invalid default value for variable") }]);
    expect(await withOverride({ variable: { cpu: { type: "bool" } } })).toEqual([{ file: "override.tf.json", message: expect.stringContaining("Invalid default value for variable") }]);
  });

  it("overrides that fit", async () => {
    expect(await withOverride({ variable: { cpu: { default: 2000 } } })).toEqual([]);
    expect(await withOverride({ variable: { cpu: { type: "string" } } })).toEqual([]);
  });
});

describe("depends_on", () => {
  it("naming a bare type is Terraform's Invalid reference", async () => {
    const module = (dep: string) => JSON.stringify({ resource: { terraform_data: { a: { input: 1 }, b: { input: 2, depends_on: [dep] } } } });
    expect(await errors(module("terraform_data"))).toEqual([expect.stringContaining("A reference to a resource type must be followed by at least one attribute access")]);
    expect(await errors(module("data.terraform_remote_state"))).toEqual([expect.stringContaining("A reference to a data source type must be followed")]);
    expect(await errors(module("terraform_data.a"))).toEqual([]);
  });
});
