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

  it("asks for an instance key exactly when the ephemeral resource sets count or for_each", async () => {
    const counted = { ephemeral: { tsdb_service_credentials: { c: { count: 2, service_id: "${tsdb_service.db.id}" } } } };
    expect(await errors({ "main.tf.json": module({ ...counted, locals: { u: "${ephemeral.tsdb_service_credentials.c.username}" } }) })).toEqual([expect.stringContaining("Missing resource instance key")]);
    expect(await errors({ "main.tf.json": module({ ...counted, locals: { u: "${ephemeral.tsdb_service_credentials.c[1].username}" } }) })).toEqual([]);
    expect(await errors({ "main.tf.json": module({ locals: { u: "${ephemeral.tsdb_service_credentials.c[0].username}" } }) })).toEqual([expect.stringContaining("Unexpected resource instance key")]);
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

describe("more functions that fail on known arguments", () => {
  const local = (expr: string) => errors({ "main.tf.json": { locals: { x: expr } } });
  const failing: [string, string][] = [
    ['${cidrnetmask("fd00::/8")}', 'Error in function call: Call to function "cidrnetmask" failed: IPv6 addresses cannot have a netmask: fd00::/8.'],
    ['${format("%5.2z", 1)}', `Error in function call: Call to function "format" failed: unsupported format verb 'z' in "%5.2z" at offset 0.`],
    ['${join(",", ["a"], [1, {}])}', 'Invalid function argument: Invalid value for "lists" parameter: element 1: string required.'],
    ["${slice([1, 2], 1, 5)}", 'Invalid function argument: Invalid value for "end_index" parameter: end index must not be greater than the length of the list.'],
    ["${slice([1, 2], -1, 1)}", 'Invalid function argument: Invalid value for "start_index" parameter: start index must not be less than zero.'],
    ["${slice([1, 2], 2, 1)}", 'Invalid function argument: Invalid value for "start_index" parameter: start index must not be greater than end index.'],
    ['${flatten("a")}', 'Error in function call: Call to function "flatten" failed: can only flatten lists, sets and tuples.'],
    ['${matchkeys(["a"], ["b", "c"], ["b"])}', 'Error in function call: Call to function "matchkeys" failed: length of keys and values should be equal.'],
    ["${element([1, 2], -1)}", 'Error in function call: Call to function "element" failed: cannot use element function with a negative index.'],
    ["${sort([[1]])}", 'Invalid function argument: Invalid value for "list" parameter: element 0: string required.'],
    ["${range(1025)}", 'Error in function call: Call to function "range" failed: more than 1024 values were generated; either decrease the difference between start and end or use a smaller step.'],
    ["${try()}", 'Error in function call: Call to function "try" failed: at least one argument is required.'],
    ['${timecmp("yesterday", "2024-01-01T00:00:00Z")}', 'Invalid function argument: Invalid value for "timestamp_a" parameter: not a valid RFC3339 timestamp: cannot use "yesterday" as year.'],
    ["${alltrue([1])}", 'Invalid function argument: Invalid value for "list" parameter: element 0: bool required.'],
    ['${anytrue(["yes"])}', 'Invalid function argument: Invalid value for "list" parameter: a bool is required.'],
  ];
  it.each(failing)("%s", async (expr, message) => {
    expect(await local(expr)).toEqual([message]);
  });

  it("accepts the same functions within their limits", async () => {
    for (const expr of ['${cidrnetmask("10.0.0.0/8")}', '${format("%-5s|%03d|%q", "a", 7, "b")}', "${slice([1, 2], 0, 2)}", "${range(1024)}", "${range(10, 0)}", '${alltrue(["true", false])}', '${join(",", ["a"], [1])}', '${timecmp("2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z")}']) {
      expect(await local(expr), expr).toEqual([]);
    }
  });
});
