// Disagreements the thirteenth differential round found (test/differential/mutations-round13.mjs),
// each as Terraform 1.11.4 decides it at validate.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateFiles } from "../../language/index.js";

const work = mkdtempSync(join(tmpdir(), "schemaform-round13-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;

/** The error messages (first lines) of a module written from path → JSON value. */
async function errors(files: Record<string, unknown>): Promise<string[]> {
  const dir = join(work, String(n++));
  for (const [name, value] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), JSON.stringify(value, null, 2));
  }
  const result = await validateFiles([dir]);
  return result.diagnostics.filter((d) => d.severity === "error").map((d) => d.message.split("\n")[0]!);
}

const terraform = { required_providers: { tsdb: { source: "schemaform/tsdb" } } };
const vpc = { cidr: "10.0.0.0/16", region_code: "us-east-1" };
const service = { name: "db", milli_cpu: 1000, memory_gb: 4, region_code: "us-east-1" };

describe("module call arguments are evaluated with unknown instance data", () => {
  const child = { "modules/net/main.tf.json": { variable: { v: { type: "string" } } } };
  const call = (body: object) => errors({ "main.tf.json": { module: { net: { source: "./modules/net", ...body } } }, ...child });

  it("accepts each in a call with count, and count.index in a call with for_each", async () => {
    expect(await call({ count: 2, v: "${each.key}" })).toEqual([]);
    expect(await call({ for_each: { a: 1 }, v: "${count.index}" })).toEqual([]);
  });

  it("still refuses each in a resource with count", async () => {
    expect(await errors({ "main.tf.json": { resource: { terraform_data: { x: { count: 1, input: "${each.key}" } } } } })).toEqual([expect.stringContaining('Reference to "each" in context without for_each')]);
  });
});

describe("the ephemeral resource's references", () => {
  const module = (extra: object) => ({
    terraform,
    resource: { tsdb_service: { db: service } },
    ephemeral: { tsdb_service_credentials: { c: { service_id: "${tsdb_service.db.id}" } } },
    ...extra,
  });

  it("refuses an attribute the ephemeral resource does not have", async () => {
    expect(await errors({ "main.tf.json": module({ locals: { u: "${ephemeral.tsdb_service_credentials.c.nope}" } }) })).toEqual([
      expect.stringContaining('Unsupported attribute: This object has no argument, nested block, or exported attribute named "nope"'),
    ]);
    expect(await errors({ "main.tf.json": module({ locals: { u: "${ephemeral.tsdb_service_credentials.c.username}" } }) })).toEqual([]);
  });

  it("finds a cycle through an ephemeral resource (reference or depends_on)", async () => {
    const written = await errors({ "main.tf.json": { ...module({}), resource: { tsdb_service: { db: { ...service, password_wo: "${ephemeral.tsdb_service_credentials.c.password}", password_wo_version: 1 } } } } });
    expect(written).toEqual(["Cycle: ephemeral.tsdb_service_credentials.c, tsdb_service.db"]);
    const ordered = await errors({
      "main.tf.json": { ...module({}), resource: { tsdb_vpcs: { main: { ...vpc, depends_on: ["ephemeral.tsdb_service_credentials.c"] } }, tsdb_service: { db: { ...service, vpc_id: "${tsdb_vpcs.main.vpcs_id}" } } } },
    });
    expect(ordered).toEqual(["Cycle: ephemeral.tsdb_service_credentials.c, tsdb_service.db, tsdb_vpcs.main"]);
  });
});

describe("depends_on naming something inside a module call", () => {
  const child = { "modules/net/main.tf.json": { resource: { terraform_data: { x: {} } }, output: { id: { value: "${terraform_data.x.id}" } } } };
  const dependsOn = (target: string) => errors({ "main.tf.json": { module: { net: { source: "./modules/net" } }, resource: { terraform_data: { y: { depends_on: [target] } } } }, ...child });

  it("refuses a resource inside the call", async () => {
    expect(await dependsOn("module.net.terraform_data.x")).toEqual([expect.stringContaining("Invalid depends_on reference")]);
  });

  it("accepts the call and one of its outputs", async () => {
    expect(await dependsOn("module.net")).toEqual([]);
    expect(await dependsOn("module.net.id")).toEqual([]);
  });
});

describe("optional() in a type constraint", () => {
  const typed = (type: string) => errors({ "main.tf.json": { variable: { v: { type } } } });

  it("refuses a third argument", async () => {
    expect(await typed('object({ a = optional(string, "x", "y") })')).toEqual([
      "Invalid type specification: Optional attribute modifier expects at most two arguments: the attribute type, and a default value.",
    ]);
  });

  it("accepts a default holding commas and parentheses in a string", async () => {
    expect(await typed('object({ a = optional(string, "x, (y") })')).toEqual([]);
    expect(await typed("object({ a = optional(list(number), [1, 2]) })")).toEqual([]);
  });
});

describe("a removed block targeting a module", () => {
  const removed = (from: string) => errors({ "main.tf.json": { removed: [{ from, lifecycle: { destroy: true }, provisioner: { "local-exec": { command: "echo", when: "destroy" } } }] } });

  it("refuses provisioners", async () => {
    expect(await removed("module.gone")).toEqual(["Invalid provisioner block: Provisioners are valid only when a removed block targets a managed resource."]);
  });

  it("accepts them for a managed resource", async () => {
    expect(await removed("terraform_data.gone")).toEqual([]);
  });
});

describe("expressions that fail on known values", () => {
  const local = (expr: string) => errors({ "main.tf.json": { locals: { x: expr } } });

  it("an attribute of a null value", async () => {
    expect(await errors({ "main.tf.json": { locals: { n: null, x: "${local.n.a}" } } })).toEqual([expect.stringContaining("Attempt to get attribute from null value")]);
    expect(await errors({ "main.tf.json": { locals: { n: null, x: '${try(local.n.a, "fallback")}' } } })).toEqual([]);
  });

  it("a null key in an object for expression over a known collection", async () => {
    expect(await local('${{ for k in ["a"] : null => 1 }}')).toEqual(["Invalid object key: Key expression in 'for' expression must not produce a null value."]);
    expect(await local("${{ for k in [] : null => 1 }}")).toEqual([]);
    expect(await local('${{ for k in ["a"] : k => 1 }}')).toEqual([]);
  });

  it("cidrsubnets extending a prefix past 32 bits", async () => {
    expect(await local('${cidrsubnets("10.0.0.0/30", 4)}')).toEqual([
      'Invalid function argument: Invalid value for "newbits" parameter: would extend prefix to 34 bits, which is too long for an IPv4 address.',
    ]);
    expect(await local('${cidrsubnets("10.0.0.0/16", 4, 4, 8)}')).toEqual([]);
  });

  it("formatlist over lists of different lengths", async () => {
    expect(await local('${formatlist("%s-%s", ["a"], ["b", "c"])}')).toEqual([
      'Invalid function argument: Invalid value for "args" parameter: argument 2 has length 2, which is inconsistent with argument 1 of length 1.',
    ]);
    expect(await local('${formatlist("%s-%s", ["a", "b"], "x")}')).toEqual([]);
  });

  it("replace with a /regex/ that does not compile", async () => {
    expect(await local('${replace("abc", "/(/", "x")}')).toEqual([expect.stringContaining('Error in function call: Call to function "replace" failed: error parsing regexp')]);
    expect(await local('${replace("abc", "/(b)/", "x")}')).toEqual([]);
    expect(await local('${replace("abc", "(", "x")}')).toEqual([]);
  });

  it("csvdecode of a row with another number of fields", async () => {
    expect(await local('${csvdecode("a,b\\n1")}')).toEqual(['Error in function call: Call to function "csvdecode" failed: CSV parse error on line 2: wrong number of fields.']);
    expect(await local('${csvdecode("a,b\\n1,2\\n\\n3,4")}')).toEqual([]);
  });

  it("templatestring of a literal template", async () => {
    expect(await local('${templatestring("hello $${name}", { name = "x" })}')).toEqual([expect.stringContaining('Invalid value for "template" parameter: invalid template expression')]);
    expect(await errors({ "main.tf.json": { locals: { t: "hello $${name}", x: '${templatestring(local.t, { name = "x" })}' } } })).toEqual([]);
  });
});

describe("arguments of a provider function are converted to the parameter's type first", () => {
  const call = (expr: string) => errors({ "main.tf.json": { terraform, locals: { x: expr } } });

  it("refuses what does not convert, in go-cty's words", async () => {
    expect(await call('${provider::tsdb::peering_import_id("a", 1)}')).toEqual(['Invalid function argument: Invalid value for "peering_connection_id" parameter: a number is required.']);
    expect(await call("${provider::tsdb::peering_import_id(true, 1)}")).toEqual(['Invalid function argument: Invalid value for "peering_connection_id" parameter: number required.']);
    expect(await call("${provider::tsdb::parse_peering_import_id([5])}")).toEqual(['Invalid function argument: Invalid value for "import_id" parameter: string required.']);
  });

  it("checks the converted value", async () => {
    expect(await call("${provider::tsdb::parse_peering_import_id(5)}")).toEqual([expect.stringContaining('"5" is not a peering import id')]);
    expect(await call('${provider::tsdb::peering_import_id("3001", 1001)}')).toEqual([]);
  });
});
