// Disagreements the sixteenth differential round found (test/differential/mutations-round16.mjs,
// stacks as `cdktf synth` writes them), each as Terraform 1.11.4 decides it at validate (every
// expectation was run through it).
import { describe, expect, it } from "vitest";
import { jsonFiles, modulesOnDisk } from "./module-on-disk.js";

const disk = modulesOnDisk("round16");
const errors = (files: Record<string, unknown>) => disk.errors(jsonFiles(files));

const terraform = { required_providers: { tsdb: { source: "schemaform/tsdb" }, containerbackup: { source: "schemaform/containerbackup" } } };
const NAME_RULE = "name must be 1-63 lowercase letters, digits and dashes, starting with a letter and ending with a letter or digit";
/** restore channels named by each expression, their names on lines 18, 24, 30, … */
const channelsNamed = (...names: string[]) =>
  errors({
    "main.tf.json": {
      terraform,
      resource: { containerbackup_restore_channel: Object.fromEntries(names.map((name, i) => [`c${i}`, { destination_project: "projects/restore-target", location: "us-central1", project: "my-project", name }])) },
    },
  });

describe("title() and jsonencode() on known arguments are known values our rules see", () => {
  it("title-cases as Go's strings.Title: a letter after anything but a letter, digit or underscore", async () => {
    expect(await channelsNamed('${title("nightly restores")}', '${title("don\'t stop")}', '${title("a_b-c.d")}', '${title("nightly")}')).toEqual([
      `main.tf.json:18: ${NAME_RULE}, got "Nightly Restores"`,
      `main.tf.json:24: ${NAME_RULE}, got "Don'T Stop"`,
      `main.tf.json:30: ${NAME_RULE}, got "A_b-C.D"`,
      `main.tf.json:36: ${NAME_RULE}, got "Nightly"`,
    ]);
  });

  it("writes jsonencode's text as cty does: no spaces, keys sorted, every digit", async () => {
    expect(await channelsNamed('${jsonencode(["a", 1.5, null])}', "${jsonencode({ b = 1, a = true })}", "${jsonencode(1e3)}x", '${jsonencode("q")}')).toEqual([
      `main.tf.json:18: ${NAME_RULE}, got "[\\"a\\",1.5,null]"`,
      `main.tf.json:24: ${NAME_RULE}, got "{\\"a\\":true,\\"b\\":1}"`,
      `main.tf.json:30: ${NAME_RULE}, got "1000x"`,
      `main.tf.json:36: ${NAME_RULE}, got "\\"q\\""`,
    ]);
  });

  it("converts a jsonencoded number for a number argument: 1000 fits, 1001 is off the enum", async () => {
    const service = (cpu: string) => errors({ "main.tf.json": { terraform, resource: { tsdb_service: { s: { milli_cpu: cpu, memory_gb: 4, region_code: "us-east-1" } } } } });
    expect(await service("${jsonencode(1000)}")).toEqual([]);
    const found = await service("${jsonencode(1001)}");
    expect(found).toContain("main.tf.json:15: milli_cpu must be one of 500, 1000, 2000, 4000, 8000, 16000, 32000, 48000, 64000, got 1001");
  });
});

describe("ignore_changes paths into an attribute's type", () => {
  const exporter = (ignored: string[]) =>
    errors({
      "main.tf.json": {
        terraform,
        resource: {
          tsdb_log_exporter: {
            l: {
              region: "us-east-1",
              cloudmon: { region: "us-east-1", log_group_name: "/t", log_stream_name: "pg", role_arn: "arn:aws:iam::123456789012:role/logs" },
              lifecycle: { ignore_changes: ignored },
            },
          },
        },
      },
    });

  it("refuses an attribute a nested object lacks (not a key of an index: that is not judged)", async () => {
    expect(await exporter(["cloudmon.role"])).toEqual(['main.tf.json:24: Unsupported attribute: This object does not have an attribute named "role".']);
    expect(await exporter(['cloudmon["role"]', "cloudmon.role_arn"])).toEqual([]);
  });

  it("refuses an attribute of a list of objects, of a set of strings, of a string", async () => {
    const src = { service_id: "x", display_name: "d", connection_string: "postgres://a@b/c", tables: [{ schema_name: "public", table_name: "t" }] };
    const peering = { platform_vpc_id: 1, peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_tgw_id: "tgw-0123456789abcdef0", peer_cidr_blocks: ["10.0.0.0/16"] };
    const found = await errors({
      "main.tf.json": {
        terraform,
        resource: {
          tsdb_connector_src_db: { s: { ...src, lifecycle: { ignore_changes: ["tables.table_name", "tables[0].table_name"] } } },
          tsdb_peering_connection: { p: { ...peering, lifecycle: { ignore_changes: ["peer_cidr_blocks.x"] } } },
          tsdb_service: { v: { parameters: { jit: "on" }, lifecycle: { ignore_changes: ["parameters.jit.x", "parameters.jit"] } } },
        },
      },
    });
    expect(found).toEqual([
      expect.stringMatching(/: Unsupported attribute: Can't access attributes on a list of objects\. Did you mean to access attribute "table_name"/),
      expect.stringMatching(/: Unsupported attribute: This value does not have any attributes\.$/),
      expect.stringMatching(/: Unsupported attribute: Can't access attributes on a primitive-typed value \(string\)\.$/),
    ]);
  });
});

describe("ignore_changes paths into a dynamic value", () => {
  it("takes any attribute after terraform_data's output or input", async () => {
    const found = await errors({ "main.tf.json": { resource: { terraform_data: { t: { input: { a: 1 }, lifecycle: { ignore_changes: ["input.a.b", "output.x"] } } } } } });
    expect(found).toEqual([]);
  });
});

describe("collection, string and hash functions on known arguments are known values our rules see", () => {
  /** the errors of one service whose ha_replicas is the expression (its line is 18) */
  const replicas = (expr: string) =>
    errors({ "main.tf.json": { terraform, resource: { tsdb_service: { s: { milli_cpu: 1000, memory_gb: 4, region_code: "us-east-1", ha_replicas: `\${${expr}}` } } } } });
  const nameOf = async (expr: string) => (await channelsNamed(`\${${expr}}`)).map((e) => e.replace(`main.tf.json:18: ${NAME_RULE}, got `, ""));

  it("counts the lists they build: range, keys, distinct, concat, flatten, compact, zipmap, slice, chunklist", async () => {
    for (const expr of [
      "length(range(3))",
      "length(keys({a=1,b=2,c=3}))",
      "length(distinct([1,2,3,3]))",
      "length(concat([1],[2,3]))",
      'length(flatten([["a"],["b"],["c"]]))',
      'length(compact(["a","","b","c"]))',
      'length(zipmap(["a","b","c"],[1,2,3]))',
      "length(slice([1,2,3,4],0,3))",
      "length(chunklist([1,2,3,4,5,6],2))",
      "length(range(0, 6, 2))",
      'length(trim("xxabcxx","x"))',
      'length(strrev("abc"))',
      'length(urlencode("a b"))',
    ]) {
      expect(await replicas(expr), expr).toEqual(["main.tf.json:18: ha_replicas must be at most 2, got 3"]);
    }
    expect(await replicas("signum(-1)")).toEqual(["main.tf.json:18: ha_replicas must be at least 0, got -1"]);
    expect(await replicas('length(base64encode("ab"))')).toEqual(["main.tf.json:18: ha_replicas must be at most 2, got 4"]);
    expect(await replicas("length(range(2))")).toEqual([]);
  });

  it("gives the strings and elements they return: strrev, trim, chomp, base64encode, md5, urlencode, sort, keys, values, slice", async () => {
    expect(await nameOf('strrev("abC")')).toEqual(['"Cba"']);
    expect(await nameOf('trim("xAbcx","x")')).toEqual(['"Abc"']);
    expect(await nameOf('chomp("Abc\\n")')).toEqual(['"Abc"']);
    expect(await nameOf('base64encode("ab")')).toEqual(['"YWI="']);
    expect(await nameOf('md5("x")')).toEqual(['"9dd4e461268c8034f5c8564e155c67a6"']);
    expect(await nameOf('urlencode("a b")')).toEqual(['"a+b"']);
    expect(await nameOf('sort(["B","a"])[0]')).toEqual(['"B"']);
    expect(await nameOf("keys({B=1})[0]")).toEqual(['"B"']);
    expect(await nameOf('values({a="B"})[0]')).toEqual(['"B"']);
    expect(await nameOf('slice(["a","B"],1,2)[0]')).toEqual(['"B"']);
    expect(await nameOf('cidrnetmask("10.0.0.0/8")')).toEqual(['"255.0.0.0"']);
    expect(await replicas('length(cidrnetmask("10.0.0.0/8")) - 6')).toEqual(["main.tf.json:18: ha_replicas must be at most 2, got 3"]);
    // and a fitting value passes
    expect(await nameOf('sort(["b","a"])[0]')).toEqual([]);
    expect(await nameOf('keys({nightly = 1, weekly = 2})[1]')).toEqual([]);
  });
});

describe("a call with its last argument expanded (f(list...)) over a known list, and tobool", () => {
  it("spreads the list into max, merge and the like", async () => {
    const channel = (labels: string) => ({ destination_project: "projects/restore-target", location: "us-central1", project: "my-project", labels });
    const found = await errors({
      "main.tf.json": {
        terraform,
        locals: { label_sets: [{ team: "data" }, { Owner: "ops" }], ok_sets: [{ team: "data" }, { owner: "ops" }], sizes: [1, 2, 3] },
        resource: {
          containerbackup_restore_channel: { a: channel("${merge(local.label_sets...)}"), b: channel("${merge(local.ok_sets...)}") },
          tsdb_service: { s: { milli_cpu: 1000, memory_gb: 4, ha_replicas: "${max(local.sizes...)}" }, t: { milli_cpu: 1000, memory_gb: 4, ha_replicas: '${tobool("true") ? 3 : 0}' } },
        },
      },
    });
    expect(found).toEqual([
      expect.stringMatching(/^main\.tf\.json:\d+: labels key "Owner" must start with a lowercase letter/),
      expect.stringMatching(/^main\.tf\.json:\d+: ha_replicas must be at most 2, got 3$/),
      expect.stringMatching(/^main\.tf\.json:\d+: ha_replicas must be at most 2, got 3$/),
    ]);
  });
});

describe("a string that does not convert to an argument's number or bool type", () => {
  it("gets cty's words for a string: a number is required, a bool is required", async () => {
    const found = await errors({ "main.tf.json": { terraform, resource: { tsdb_service: { a: { paused: "yes" }, b: { vpc_id: "0x1" }, c: { paused: "TRUE" } } } } });
    expect(found).toEqual([
      'main.tf.json:15: Incorrect attribute value type: Inappropriate value for attribute "paused": a bool is required.',
      'main.tf.json:18: Incorrect attribute value type: Inappropriate value for attribute "vpc_id": a number is required.',
      'main.tf.json:21: Incorrect attribute value type: Inappropriate value for attribute "paused": a bool is required; to convert from string, use lowercase "true".',
    ]);
  });
});
