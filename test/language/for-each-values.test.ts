// for_each as `terraform validate` 1.11.4 judges it beyond its literal value (each case was run
// through Terraform): sensitive values are refused first, variables of a list, tuple or primitive
// type are refused though unknown, and a literal set is refused for its element type, then its nulls.
import { describe, expect, it } from "vitest";
import { modulesOnDisk } from "./module-on-disk.js";

const onDisk = modulesOnDisk("for-each");

/** The errors (line and first line) of a module of the given files. */
async function errors(files: Record<string, string>): Promise<string[]> {
  return (await onDisk.diagnostics(files)).filter((d) => d.severity === "error").map((d) => `${d.line}: ${d.message.split("\n")[0]!}`);
}

const SENSITIVE = "1: Invalid for_each argument: Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.";
const ofType = (type: string) => expect.stringMatching(new RegExp(`^1: Invalid for_each argument: .*you have provided a value of type ${type}\\.`));

/** A JSON module: the variables given, and one resource whose for_each (a template) is on line 1 of main.tf.json. */
function jsonModule(forEach: string, variables: Record<string, unknown> = {}, locals: Record<string, unknown> = {}): Record<string, string> {
  return {
    "main.tf.json": `{ "resource": { "terraform_data": { "x": { "for_each": ${JSON.stringify(forEach)} } } } }`,
    "variables.tf.json": JSON.stringify({ ...(Object.keys(variables).length > 0 ? { variable: variables } : {}), ...(Object.keys(locals).length > 0 ? { locals } : {}) }),
  };
}

/** The same in native syntax: for_each on line 1 of main.tf. */
function nativeModule(forEach: string, declarations: string): Record<string, string> {
  return { "main.tf": `resource "terraform_data" "x" { for_each = ${forEach} }\n`, "variables.tf": declarations };
}

const sensitiveMap = { s: { type: "map(string)", sensitive: true } };

describe("a sensitive for_each is refused", () => {
  it("a sensitive variable, and what derives from it", async () => {
    for (const forEach of ["${var.s}", '${var.s["a"]}', "${{ for k, v in var.s : k => v }}", "${toset(keys(var.s))}", "${var.b ? var.s : {}}", "${true ? {} : var.s}", "x-${var.s}"]) {
      expect(await errors(jsonModule(forEach, { ...sensitiveMap, b: { type: "bool" } })), forEach).toEqual([SENSITIVE]);
    }
  });

  it("through a local value", async () => {
    expect(await errors(jsonModule("${local.z}", sensitiveMap, { z: "${var.s}" }))).toEqual([SENSITIVE]);
  });

  it("sensitive(…) of any value, before the value's own problems", async () => {
    expect(await errors(jsonModule("${sensitive({ a = 1 })}"))).toEqual([SENSITIVE]);
    expect(await errors(jsonModule('${sensitive(["a"])}'))).toEqual([SENSITIVE]);
    expect(await errors(jsonModule("${sensitive(null)}"))).toEqual([SENSITIVE]);
    expect(await errors(jsonModule("${sensitive(toset([1]))}"))).toEqual([SENSITIVE]);
  });

  it("in data sources and module calls too", async () => {
    const files = {
      "main.tf": ['data "terraform_remote_state" "x" {', "  for_each = var.s", '  backend = "local"', "}", 'module "m" {', '  source = "./m"', "  for_each = var.s", "}", ""].join("\n"),
      "variables.tf": 'variable "s" {\n  type = map(string)\n  sensitive = true\n}\n',
      "m/main.tf": 'variable "a" {\n  default = 1\n}\n',
    };
    expect(await errors(files)).toEqual([expect.stringMatching(/^2: .*Sensitive values/), expect.stringMatching(/^7: .*Sensitive values/)]);
  });

  it("in native syntax", async () => {
    expect(await errors(nativeModule("var.s", 'variable "s" {\n  type = map(string)\n  sensitive = true\n}\n'))).toEqual([SENSITIVE]);
    expect(await errors(nativeModule("sensitive({ a = 1 })", ""))).toEqual([SENSITIVE]);
  });

  it("but not what only holds a sensitive element, nor what drops the mark", async () => {
    const variables = { ...sensitiveMap, secret: { type: "string", sensitive: true }, b: { type: "bool" }, m: { type: "map(string)" } };
    for (const forEach of ['${{ a = sensitive("x") }}', "${{ (var.secret) = 1 }}", "${nonsensitive(var.s)}", "${var.b ? {} : var.m}", "${local.o}"]) {
      expect(await errors(jsonModule(forEach, variables, { o: { a: "${var.secret}" } })), forEach).toEqual([]);
    }
    // a tuple holding a sensitive element is refused as a tuple
    expect(await errors(jsonModule("${[var.secret]}", variables))).toEqual([ofType("tuple")]);
  });

  it("a sensitive attribute of a resource is not marked at validate", async () => {
    const files = {
      "main.tf": ['resource "tsdb_service" "db" {', '  name = "x"', "  milli_cpu = 1000", "  memory_gb = 4", '  region_code = "us-east-1"', "}", 'resource "terraform_data" "a" {', "  for_each = tsdb_service.db.password", "}", ""].join("\n"),
      "versions.tf": 'terraform {\n  required_providers {\n    tsdb = { source = "schemaform/tsdb" }\n  }\n}\nprovider "tsdb" {\n  project_id = "p"\n}\n',
    };
    expect(await errors(files)).toEqual([]);
  });
});

describe("a variable's declared type decides though its value is unknown", () => {
  it("refuses lists, tuples and primitives, in cty's words for the type", async () => {
    const cases: [string, string][] = [
      ["list(string)", "list of string"],
      ["list(number)", "list of number"],
      ["list(any)", "list of dynamic"],
      ["list(list(string))", "list of list of string"],
      ["list(object({ a = string }))", "list of object"],
      ["tuple([string])", "tuple"],
      ["string", "string"],
      ["bool", "bool"],
    ];
    for (const [type, words] of cases) expect(await errors(jsonModule("${var.v}", { v: { type } })), type).toEqual([ofType(words)]);
  });

  it("and the types inside it: an object's attribute, a map's element, a tuple's element", async () => {
    const variables = { o: { type: "object({ l = list(string), m = map(string) })" }, m: { type: "map(list(string))" }, t: { type: "tuple([list(string), string])" } };
    for (const forEach of ["${var.o.l}", '${var.m["a"]}', "${var.m.a}", "${var.t[0]}"]) expect(await errors(jsonModule(forEach, variables)), forEach).toEqual([ofType("list of string")]);
    expect(await errors(jsonModule("${var.o.m}", variables))).toEqual([]);
  });

  it("through a local value that is the variable", async () => {
    expect(await errors(jsonModule("${local.l}", { v: { type: "list(string)" } }, { l: "${var.v}" }))).toEqual([ofType("list of string")]);
  });

  it("in native syntax", async () => {
    expect(await errors(nativeModule("var.v", 'variable "v" {\n  type = list(string)\n}\n'))).toEqual([ofType("list of string")]);
  });

  it("as an override file leaves it", async () => {
    const files = jsonModule("${var.v}", { v: { type: "list(string)" } });
    expect(await errors({ ...files, "variables_override.tf.json": JSON.stringify({ variable: { v: { type: "map(string)" } } }) })).toEqual([]);
  });

  it("accepts maps, objects, sets of any element (unknown) and untyped variables", async () => {
    for (const type of ["map(string)", "object({ a = string })", "set(number)", "set(string)", "any", null]) {
      const variable = type === null ? { default: ["a"] } : { type };
      expect(await errors(jsonModule("${var.v}", { v: variable })), String(type)).toEqual([]);
    }
  });
});

describe("a literal set", () => {
  const SET_OF = (type: string) => `1: Invalid for_each set argument: The given "for_each" argument value is unsuitable: "for_each" supports maps and sets of strings, but you have provided a set containing type ${type}.`;
  const NULLS = '1: Invalid for_each set argument: The given "for_each" argument value is unsuitable: "for_each" sets must not contain null values.';

  it("is refused for its unified element type first, then for a null element", async () => {
    expect(await errors(jsonModule('${toset(["a", null])}'))).toEqual([NULLS]);
    expect(await errors(jsonModule('${toset([null, "a", 1])}'))).toEqual([NULLS]);
    expect(await errors(jsonModule("${toset([1, null])}"))).toEqual([SET_OF("number")]);
    expect(await errors(jsonModule("${toset([null])}"))).toEqual([SET_OF("dynamic")]);
    expect(await errors(jsonModule("${toset([true])}"))).toEqual([SET_OF("bool")]);
  });

  it("of strings (numbers and bools among them become strings) is accepted", async () => {
    expect(await errors(jsonModule('${toset(["a", 1, true])}'))).toEqual([]);
    expect(await errors(jsonModule("${toset([])}"))).toEqual([]);
  });

  it("in native syntax", async () => {
    expect(await errors(nativeModule('toset(["a", null])', ""))).toEqual([NULLS]);
  });
});

describe("for expressions", () => {
  it("grouping ones are maps of tuples, which for_each accepts", async () => {
    expect(await errors(jsonModule('${{ for k in ["a", "b", "a"] : k => k... }}'))).toEqual([]);
    expect(await errors(jsonModule("${{ for k in var.l : k => k... }}", { l: { type: "list(string)" } }))).toEqual([]);
  });

  it("a tuple one over a collection validate knows is a tuple, even empty or with unknown elements", async () => {
    const variables = { l: { type: "list(string)" }, s: { type: "string" } };
    expect(await errors(jsonModule('${[for x in ["a"] : x]}'))).toEqual([ofType("tuple")]);
    expect(await errors(jsonModule("${[for x in [] : x]}"))).toEqual([ofType("tuple")]);
    expect(await errors(jsonModule('${[for x in ["a", var.s] : x]}', variables))).toEqual([ofType("tuple")]);
    expect(await errors(nativeModule('[for x in ["a"] : x]', ""))).toEqual([ofType("tuple")]);
  });

  it("but over an unknown collection, or with a condition, its value is unknown", async () => {
    const variables = { l: { type: "list(string)" }, s: { type: "string" } };
    expect(await errors(jsonModule("${[for x in var.l : x]}", variables))).toEqual([]);
    expect(await errors(jsonModule('${[for x in ["a"] : x if x != var.s]}', variables))).toEqual([]);
  });
});
