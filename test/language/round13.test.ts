// Disagreements the thirteenth differential round found (test/differential/mutations-round13.mjs),
// each as Terraform 1.11.4 decides it at validate.
import { describe, expect, it } from "vitest";
import { jsonFiles, modulesOnDisk } from "./module-on-disk.js";

const disk = modulesOnDisk("round13");

/** The errors (first lines) of a module written from path → JSON value, pretty-printed. */
async function errors(files: Record<string, unknown>): Promise<string[]> {
  return (await disk.diagnostics(jsonFiles(files))).filter((d) => d.severity === "error").map((d) => d.message.split("\n")[0]!);
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
    ["${element([1, 2], -1)}", 'Error in function call: Call to function "element" failed: panic in function implementation: runtime error: index out of range [-1].'],
    ["${sort([[1]])}", 'Invalid function argument: Invalid value for "list" parameter: element 0: string required.'],
    ["${range(1025)}", 'Error in function call: Call to function "range" failed: more than 1024 values were generated; either decrease the difference between start and end or use a smaller step.'],
    ["${try()}", 'Error in function call: Call to function "try" failed: at least one argument is required.'],
    ['${timecmp("yesterday", "2024-01-01T00:00:00Z")}', 'Invalid function argument: Invalid value for "timestamp_a" parameter: not a valid RFC3339 timestamp: cannot use "yesterday" as year.'],
    ["${alltrue([1])}", 'Invalid function argument: Invalid value for "list" parameter: element 0: bool required.'],
    ['${anytrue(["yes"])}', 'Invalid function argument: Invalid value for "list" parameter: a bool is required.'],
    ['${concat("a", ["b"])}', 'Invalid function argument: Invalid value for "seqs" parameter: all arguments must be lists or tuples; got string.'],
    ['${index("abc", "b")}', 'Error in function call: Call to function "index" failed: argument must be a list or tuple.'],
    ["${reverse({ a = 1 })}", 'Invalid function argument: Invalid value for "list" parameter: can only reverse list or tuple values, not object.'],
    ['${setproduct(["a"])}', 'Error in function call: Call to function "setproduct" failed: at least two arguments are required.'],
    ['${tolist("a")}', 'Invalid function argument: Invalid value for "v" parameter: cannot convert string to list of any single type.'],
    ["${toset({ a = 1 })}", 'Invalid function argument: Invalid value for "v" parameter: cannot convert object to set of any single type.'],
    ["${tomap([1])}", 'Invalid function argument: Invalid value for "v" parameter: cannot convert tuple to map of any single type.'],
    ['${values("a")}', 'Error in function call: Call to function "values" failed: values() requires a map as the first argument.'],
    ['${coalescelist("a")}', 'Error in function call: Call to function "coalescelist" failed: coalescelist arguments must be lists or tuples.'],
    ["${chunklist([1], -1)}", 'Error in function call: Call to function "chunklist" failed: the size argument must be positive.'],
    ['${sum(["a"])}', 'Invalid function argument: Invalid value for "list" parameter: argument must be list, set, or tuple of number values.'],
    ['${parseint("zz", 10)}', 'Invalid function argument: Invalid value for "number" parameter: cannot parse "zz" as a base 10 integer.'],
    ['${csvdecode("")}', 'Error in function call: Call to function "csvdecode" failed: missing header line.'],
    ['${timeadd("2024-01-01T00:00:00Z", "1x")}', 'Error in function call: Call to function "timeadd" failed: time: unknown unit "x" in duration "1x".'],
    ["${tonumber(true)}", 'Invalid function argument: Invalid value for "v" parameter: cannot convert bool to number.'],
    ["${element([1, 2], 1.5)}", 'Error in function call: Call to function "element" failed: invalid index: value must be a whole number, between -9223372036854775808 and 9223372036854775807.'],
    ["${contains(null, 1)}", 'Invalid function argument: Invalid value for "list" parameter: argument must not be null.'],
    ['${format("%s", 1, 2)}', 'Invalid function argument: Invalid value for "args" parameter: too many arguments; only 1 used by format string.'],
  ];
  it.each(failing)("%s", async (expr, message) => {
    expect(await local(expr)).toEqual([message]);
  });

  it("accepts the same functions within their limits", async () => {
    for (const expr of ['${cidrnetmask("10.0.0.0/8")}', '${format("%-5s|%03d|%q", "a", 7, "b")}', "${slice([1, 2], 0, 2)}", "${range(1024)}", "${range(10, 0)}", '${sum([1, "2"])}', '${parseint("FF", 16)}', '${timeadd("2024-01-01T00:00:00Z", "1h30m")}', '${format("%s %%", "a")}', "${concat([1], [2])}", '${alltrue(["true", false])}', '${join(",", ["a"], [1])}', '${timecmp("2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z")}']) {
      expect(await local(expr), expr).toEqual([]);
    }
  });
});

describe("neighbours of round 13's classes", () => {
  const base = { terraform, resource: { tsdb_vpcs: { main: vpc, c: { ...vpc, count: 2 } } } };

  it("an import id whose known value is a list or an object", async () => {
    const imported = (l: unknown) => errors({ "main.tf.json": { ...base, locals: { l }, import: [{ to: "tsdb_vpcs.main", id: "${local.l}" }] } });
    expect(await imported(["a"])).toEqual(["Incorrect value type: Invalid expression value: string required."]);
    expect(await imported({ a: 1 })).toEqual(["Incorrect value type: Invalid expression value: string required."]);
    expect(await imported("4242")).toEqual([]);
  });

  it("attributes after a splat of a resource are not checked at validate", async () => {
    for (const x of ["${tsdb_vpcs.main[*].nope}", "${tsdb_vpcs.c[*].nope}", "${tsdb_vpcs.c.*.nope}", "${tsdb_vpcs.main[*].timeouts.nope}"]) {
      expect(await errors({ "main.tf.json": { ...base, locals: { x } } }), x).toEqual([]);
    }
    expect(await errors({ "main.tf.json": { ...base, locals: { x: "${tsdb_vpcs.main.nope}" } } })).toEqual([expect.stringContaining("Unsupported attribute")]);
  });

  it("a logical or unary operator over null", async () => {
    for (const x of ["${null || true}", "${true && null}", "${!null}", "${-null}"]) {
      expect(await errors({ "main.tf.json": { locals: { x } } }), x).toEqual(["Operation failed: Error during operation: argument must not be null."]);
    }
  });

  it("depends_on naming an ephemeral resource", async () => {
    const module = (target: string) => errors({ "main.tf.json": { ...base, ephemeral: { tsdb_service_credentials: { e: { service_id: "svc-1" } } }, resource: { terraform_data: { t: { depends_on: [target] } } } } });
    expect(await module("ephemeral.tsdb_service_credentials.e")).toEqual([]);
    expect(await module("ephemeral.tsdb_service_credentials.e.username")).toEqual([expect.stringContaining("Invalid depends_on reference")]);
    expect(await module("ephemeral.tsdb_service_credentials.nope")).toEqual([expect.stringContaining("Reference to undeclared resource")]);
  });
});

describe("more neighbours: module arguments, for keys, required_providers, values of string functions", () => {
  it("a value derived from an ephemeral variable passed to a child variable that is not ephemeral", async () => {
    const call = (ephemeralChild: boolean) =>
      errors({
        "main.tf.json": { variable: { e: { type: "string", ephemeral: true, default: "x" } }, module: { m: { source: "./m", v: "${var.e}" } } },
        "m/main.tf.json": { variable: { v: { type: "string", ...(ephemeralChild ? { ephemeral: true } : {}) } } },
      });
    expect(await call(false)).toEqual([expect.stringContaining("Ephemeral value not allowed: This input variable is not declared as accepting a ephemeral values")]);
    expect(await call(true)).toEqual([]);
  });

  it("an ephemeral value in a data source's argument", async () => {
    const data = (id: string) => errors({ "main.tf.json": { terraform, variable: { e: { type: "string", ephemeral: true, default: "x" } }, data: { tsdb_service: { d: { id } } } } });
    expect(await data("${var.e}")).toEqual([expect.stringContaining('Invalid use of ephemeral value: Ephemeral values are not valid for "id"')]);
    expect(await data("svc-1")).toEqual([]);
  });

  it("a for expression or directive over null", async () => {
    for (const x of ["${[for x in null : x]}", "%{ for x in null }a%{ endfor }"]) {
      expect(await errors({ "main.tf.json": { locals: { x } } }), x).toEqual(["Iteration over null value: A null value cannot be used as the collection in a 'for' expression."]);
    }
  });

  it("a key of an object for expression that is a list", async () => {
    expect(await errors({ "main.tf.json": { locals: { x: '${{ for x in ["a"] : [x] => 1 }}' } } })).toEqual(["Invalid object key: The key expression produced an invalid result: string required."]);
  });

  it("a required_providers version that is not a string", async () => {
    expect(await errors({ "main.tf.json": { terraform: { required_providers: { tsdb: { source: "schemaform/tsdb", version: 1 } } } } })).toEqual(["Invalid version constraint: Version must be specified as a string."]);
  });

  it("values built by string functions reach the value rules", async () => {
    const vpcWith = (attrs: object) => errors({ "main.tf.json": { terraform, resource: { tsdb_vpcs: { main: { ...vpc, ...attrs } } } } });
    expect(await vpcWith({ region_code: '${substr("xaz-1", 1, 4)}' })).toEqual([expect.stringContaining('region_code must be one of \"us-east-1\"')]);
    expect(await vpcWith({ region_code: '${coalesce("", "az-9")}' })).toEqual([expect.stringContaining('got "az-9"')]);
    expect(await vpcWith({ cidr: '${format("10.%d.0.0/33", 1)}' })).toEqual([expect.stringContaining('got "10.1.0.0/33"')]);
    expect(await vpcWith({ region_code: '${join("-", ["us", "east", "1"])}', cidr: '${replace("10_0_0_0/16", "_", ".")}' })).toEqual([]);
    expect(await vpcWith({ region_code: '${trimprefix(trimspace(" x-us-east-1 "), "x-")}' })).toEqual([]);
    const service = (cpu: string) => errors({ "main.tf.json": { terraform, resource: { tsdb_service: { db: { milli_cpu: cpu, memory_gb: 4 } } } } });
    expect(await service('${split(",", "3,4")[0]}')).toEqual(expect.arrayContaining([expect.stringContaining("milli_cpu must be one of")]));
    expect(await service('${split(",", "1000,4")[0]}')).toEqual([]);
  });
});

describe("values of numeric and collection functions reach the value rules", () => {
  const service = (cpu: string) => errors({ "main.tf.json": { terraform, resource: { tsdb_service: { db: { milli_cpu: cpu, memory_gb: 4 } } } } });

  it.each(["${sum([1, 2])}", "${pow(2, 2)}", '${parseint("3", 10)}', "${index([5, 6], 6)}", "${one([3])}", "${coalesce(null, 3)}"])("%s gives 3 or less, refused", async (cpu) => {
    expect(await service(cpu)).toEqual(expect.arrayContaining([expect.stringContaining("milli_cpu must be one of")]));
  });

  it.each(["${sum([500, 500])}", '${parseint("3E8", 16)}', "${one([1000])}", "${coalesce(null, 1000)}"])("%s gives 1000, accepted", async (cpu) => {
    expect(await service(cpu)).toEqual([]);
  });
});
