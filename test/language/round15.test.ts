// Disagreements the fifteenth differential round found (test/differential/mutations-round15.mjs),
// each as Terraform 1.11.4 decides it at validate (every expectation was run through it).
import { describe, expect, it } from "vitest";
import { jsonFiles, modulesOnDisk } from "./module-on-disk.js";

const disk = modulesOnDisk("round15");
const errors = (files: Record<string, unknown>) => disk.errors(jsonFiles(files));

const terraform = { required_providers: { tsdb: { source: "schemaform/tsdb" }, containerbackup: { source: "schemaform/containerbackup" } } };
const service = (extra: object) => ({ "main.tf.json": { terraform, resource: { tsdb_service: { s: { name: "s", milli_cpu: 1000, memory_gb: 4, region_code: "us-east-1", ...extra } } } } });
/** terraform_data instances counted by each expression (a built-in resource: no provider needed) */
const counted = (...counts: string[]) => errors({ "main.tf.json": { resource: { terraform_data: Object.fromEntries(counts.map((c, i) => [`t${i}`, { count: c }])) } } });

describe("arithmetic over number literals is cty's, in 512-bit binary floats", () => {
  it("keeps what doubles lose: a difference of integers beyond 2^53, a product just above a whole number", async () => {
    expect(await counted("${9007199254740993 - 9007199254740992 == 1 ? 1 : -1}")).toEqual([]);
    expect(await errors(service({ milli_cpu: "${1000 * 1.0000000000000001}" }))).toContain("main.tf.json:16: milli_cpu must be a whole number, got 1000.0000000000001");
  });

  it("compares sums and products as cty rounds them (0.1 + 0.2 == 0.3 there, 1.1 * 1.1 == 1.21 not)", async () => {
    expect(await counted("${0.1 + 0.2 == 0.3 ? 1 : -1}", "${3 * 0.1 == 0.3 ? 1 : -1}", "${(0.1 + 0.7) * 10 == 8 ? 1 : -1}", "${1000 * 1.1}", "${4.35 * 100}")).toEqual([]);
    const negative = 'Invalid count argument: The given "count" argument value is unsuitable: must be greater than or equal to zero.';
    expect(await counted("${1.1 * 1.1 == 1.21 ? 1 : -1}", "${0.3 - 0.1 == 0.2 ? 1 : -1}")).toEqual([`main.tf.json:5: ${negative}`, `main.tf.json:8: ${negative}`]);
  });

  it("computes known local values from the decimals they were written as: 4.35 * 100 is 435, not 434.99999999999994", async () => {
    const locals = { a: 4.35, k: 100, h: 0.5 };
    const found = await errors({ "main.tf.json": { locals, resource: { terraform_data: { t0: { count: "${local.a * local.k}" }, t1: { count: "${local.h * 3}" } } } } });
    expect(found).toEqual([expect.stringMatching(/^main\.tf\.json:13: Invalid count argument: .*value must be a whole number/)]);
  });

  it("divides Go's logarithms as log() does: log(1000, 10) is 2.9999999999999996, no whole count", async () => {
    expect(await counted("${log(1000, 10)}")).toEqual([expect.stringMatching(/^main\.tf\.json:5: Invalid count argument/)]);
    expect(await counted("${log(8, 2)}")).toEqual([]);
  });
});

describe("a number in a string is written with every digit, as cty writes it", () => {
  it("writes 1e200 as 201 digits and 1e-7 as 0.0000001 (the provider's rules then see them)", async () => {
    expect(await errors(service({ name: "${1e200}" }))).toEqual(["main.tf.json:15: name must be at most 128 characters long"]);
    const channel = { destination_project: "projects/restore-target", location: "us-central1", project: "my-project", name: "ch-${1e-7}" };
    expect(await errors({ "main.tf.json": { terraform, resource: { containerbackup_restore_channel: { c: channel } } } })).toEqual([
      expect.stringMatching(/^main\.tf\.json:18: name must be 1-63 lowercase letters.*got "ch-0\.0000001"$/),
    ]);
  });
});

describe("strings are cty's: grapheme lengths, Go's case mapping, NFC keys", () => {
  it("counts a string's user-perceived characters (a flag is one)", async () => {
    expect(await errors(service({ ha_replicas: '${length("🇺🇸🇬🇧")}' }))).toEqual([]);
    expect(await errors(service({ ha_replicas: '${length("e\u0301e\u0301x")}' }))).toEqual(["main.tf.json:19: ha_replicas must be at most 2, got 3"]);
  });

  it("upper-cases letter by letter as Go does: ß stays one letter", async () => {
    expect(await errors(service({ ha_replicas: 2, sync_replicas: '${length(upper("ß"))}' }))).toEqual([]);
    expect(await errors(service({ environment_tag: '${upper("dev")}' }))).toEqual([]);
  });

  it("reads object keys in NFC: é written composed and decomposed is one key, given twice", async () => {
    const channel = { destination_project: "projects/restore-target", location: "us-central1", project: "my-project", labels: { "\u00e9quipe": "a", "e\u0301quipe": "b" } };
    const found = await errors({ "main.tf.json": { terraform, resource: { containerbackup_restore_channel: { c: channel } } } });
    expect(found).toEqual([expect.stringMatching(/^main\.tf\.json:20: Duplicate object attribute: An attribute named "équipe" was already defined at main\.tf\.json:19,11/)]);
  });
});

describe("for_each over a set of objects", () => {
  it("is refused as a set whose elements are no strings", async () => {
    const found = await errors({ "main.tf.json": { resource: { terraform_data: { t: { for_each: '${toset([{ cidr = "10.0.0.0/16" }, { cidr = "10.1.0.0/16" }])}' } } } } });
    expect(found).toEqual([
      'main.tf.json:5: Invalid for_each set argument: The given "for_each" argument value is unsuitable: "for_each" supports maps and sets of strings, but you have provided a set containing type object.',
    ]);
  });
});

describe("for_each and count by the type of what they are given (probed beside round 15)", () => {
  const forEach = (expr: string, extra: object = {}) => errors({ "main.tf.json": { ...extra, resource: { terraform_data: { t: { for_each: expr } } } } });
  const setOf = (type: string) => `Invalid for_each set argument: The given "for_each" argument value is unsuitable: "for_each" supports maps and sets of strings, but you have provided a set containing type ${type}.`;

  it("names the set's element type as cty unifies the known elements", async () => {
    expect(await forEach("${toset(local.objs)}", { locals: { objs: [{ a: "x" }] } })).toEqual([`main.tf.json:12: ${setOf("object")}`]);
    expect(await forEach('${toset([for n in ["a", "b"] : { n = n }])}')).toEqual([`main.tf.json:5: ${setOf("object")}`]);
    expect(await forEach('${toset([["a"], ["b"]])}')).toEqual([`main.tf.json:5: ${setOf("tuple")}`]);
    expect(await forEach("${toset([{ a = 1 }, { b = 2 }])}")).toEqual([`main.tf.json:5: ${setOf("map of number")}`]);
    expect(await forEach('${toset(["a", "b"])}')).toEqual([]);
  });

  it("refuses a count given a collection variable, unknown as it is", async () => {
    const count = (type: string) => errors({ "main.tf.json": { variable: { n: { type } }, resource: { terraform_data: { t: { count: "${var.n}" } } } } });
    expect(await count("list(number)")).toEqual(["main.tf.json:10: Incorrect value type: Invalid expression value: number required."]);
    expect(await count("string")).toEqual([]);
    expect(await count("number")).toEqual([]);
  });
});

describe("module calls: a null argument for a variable that refuses null", () => {
  const child = (variable: object) => ({ "modules/c/main.tf.json": { variable: { zone: { type: "string", ...variable } } } });
  const call = (zone: unknown) => ({ "main.tf.json": { module: { c: { source: "./modules/c", zone } } } });

  it("leaves a required variable with nullable = false unset: Required variable not set", async () => {
    expect(await errors({ ...child({ nullable: false }), ...call(null) })).toEqual([
      "main.tf.json:5: Required variable not set: The given value is not suitable for module.c.var.zone defined at modules/c/main.tf.json:3,13: required variable may not be set to null.",
    ]);
  });

  it("knows a template's null value as null (a local value set to null)", async () => {
    const found = await errors({ ...child({ nullable: false }), "main.tf.json": { locals: { z: null }, module: { c: { source: "./modules/c", zone: "${local.z}" } } } });
    expect(found).toEqual([expect.stringMatching(/^main\.tf\.json:8: Required variable not set: /)]);
  });

  it("takes the default of one that has a default, and passes null to a nullable one", async () => {
    expect(await errors({ ...child({ nullable: false, default: "a" }), ...call(null) })).toEqual([]);
    expect(await errors({ ...child({ default: null }), ...call(null) })).toEqual([]);
  });
});

describe("override files", () => {
  it("refuse a new type for a variable whose empty default was already converted to the primary type", async () => {
    const found = await errors({
      "variables.tf.json": { variable: { nets: { type: "map(object({ cidr = string }))", default: {} } } },
      "variables_override.tf.json": { variable: { nets: { type: "map(string)" } } },
    });
    expect(found).toEqual([
      "variables_override.tf.json:3: Invalid default value for variable: Overriding this variable's type constraint has made its default value invalid: incorrect map element type: string required.",
    ]);
    expect(await errors({ "variables.tf.json": { variable: { nets: { type: "map(number)", default: {} } } }, "variables_override.tf.json": { variable: { nets: { type: "map(string)" } } } })).toEqual([]);
  });

  it("put a provider's finding about an argument the primary block lacks at the end of the primary block", async () => {
    const files = {
      ...service({}),
      "main_override.tf.json": { resource: { tsdb_service: { s: { ha_replicas: 1, sync_replicas: 1 } } } },
    };
    // the primary body "s" closes on line 19; an argument it has is reported where the override sets it
    expect(await errors(files)).toEqual(["main.tf.json:19: sync_replicas = 1 requires ha_replicas = 2"]);
    const replaced = { ...service({ ha_replicas: 0, sync_replicas: 0 }), "main_override.tf.json": files["main_override.tf.json"] };
    expect(await errors(replaced)).toEqual(["main_override.tf.json:6: sync_replicas = 1 requires ha_replicas = 2"]);
  });
});

describe("positions inside a JSON string with line breaks (probed beside round 15)", () => {
  // Terraform reads a JSON string's template with lines of its own: each "\n" in the decoded value starts one
  const local = async (template: string) => (await errors({ "main.tf.json": { locals: { a: 1, x: template } } })).map((e) => e.replace(/: .*/, ""));

  it("counts the decoded value's lines to a syntax error, a reference or a failing call", async () => {
    expect(await local("first\n${var.nope}")).toEqual(["main.tf.json:5"]);
    expect(await local('first\nsecond ${tonumber("x")}')).toEqual(["main.tf.json:5"]);
    expect(await local("first\nsecond ${1 +}")).toEqual(["main.tf.json:5"]);
  });

  it("reports a heredoc without its closing marker at the end of the value, an unclosed interpolation at its start", async () => {
    expect(await local("${<<EOT\nhello\nEND\n}")).toEqual(["main.tf.json:7"]);
    expect(await local("${<<EOT\nhello\nEOT}")).toEqual(["main.tf.json:6"]);
    expect(await local("first\nsecond\nthird ${1")).toEqual(["main.tf.json:4"]);
  });
});

describe("terraform.applying is an ephemeral value (probed beside round 15)", () => {
  it("may not reach an output through a local value, unless the output is ephemeral or ephemeralasnull drops it", async () => {
    expect(await errors({ "main.tf.json": { locals: { a: "${terraform.applying}" }, output: { o: { value: "${local.a}" } } } })).toEqual([
      expect.stringMatching(/^main\.tf\.json:7: Ephemeral value not allowed: This output value is not declared as returning an ephemeral value/),
    ]);
    expect(await errors({ "main.tf.json": { output: { o: { value: "${ephemeralasnull(terraform.applying)}" } } } })).toEqual([]);
    expect(await errors({ "modules/a/main.tf.json": { output: { o: { value: "${terraform.applying}", ephemeral: true } } }, "main.tf.json": { module: { a: { source: "./modules/a" } } } })).toEqual([]);
  });
});

describe("a provider's finding about a nested object (probed beside round 15)", () => {
  it("is at the object's closing brace: Terraform looks the name up inside the object it walked into", async () => {
    const definition = { type: "CSV", parquet: { auto_column_mapping: true } };
    const store = { service_id: "svc-1", bucket: "bkt-one", pattern: "*.csv", credentials: { type: "Public" }, definition, table_identifier: { table_name: "t" } };
    // "parquet": { is line 23, its closing brace line 25
    expect(await errors({ "main.tf.json": { terraform, resource: { tsdb_connector_obj_store: { o: store } } } })).toEqual(["main.tf.json:25: definition.parquet can only be set when definition.type is PARQUET"]);
  });
});

describe("merge() of known maps, and where a finding about one of its keys is (probed beside round 15)", () => {
  const channel = (labels: string, extra: object = {}) =>
    errors({ "main.tf.json": { terraform, ...extra, resource: { containerbackup_restore_channel: { c: { destination_project: "projects/restore-target", location: "us-central1", project: "my-project", labels } } } } });

  it("knows the merged map: a key or a value the provider refuses is found", async () => {
    expect(await channel('${merge({ team = "a" }, { Bad = "b" })}')).toEqual([expect.stringMatching(/^main\.tf\.json:18: labels key "Bad" must start with a lowercase letter/)]);
    expect(await channel('${merge({ team = "a" }, { env = "b" })}')).toEqual([]);
    expect(await channel('${merge(null, { team = "a" })}')).toEqual([]);
  });

  it("points at the attribute for a value of a map set by a template (a map key is Terraform's index step)", async () => {
    const found = await channel('${merge(local.l, { team = "A B" })}', { locals: { l: { team: "a" } } });
    expect(found).toEqual([expect.stringMatching(/^main\.tf\.json:23: labels\.team must hold only lowercase letters/)]);
  });
});
