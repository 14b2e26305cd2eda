// Disagreements the fourteenth differential round found (test/differential/mutations-round14.mjs),
// each as Terraform 1.11.4 decides it at validate.
import { describe, expect, it } from "vitest";
import { jsonFiles, modulesOnDisk } from "./module-on-disk.js";

const disk = modulesOnDisk("round14");

/** The errors (first lines) of a module written from path → JSON value, pretty-printed. */
async function errors(files: Record<string, unknown>): Promise<string[]> {
  return (await disk.diagnostics(jsonFiles(files))).filter((d) => d.severity === "error").map((d) => `${d.line}: ${d.message.split("\n")[0]!}`);
}

const terraform = { required_providers: { tsdb: { source: "schemaform/tsdb" } } };

describe("timeadd reads its duration as Go's time.ParseDuration does", () => {
  const local = (duration: string) => errors({ "main.tf.json": { locals: { t: `\${timeadd("2024-01-01T00:00:00Z", ${JSON.stringify(duration)})}` } } });

  it("refuses a duration with a unit Go does not know, without a unit, or without a number", async () => {
    expect(await local("1 day")).toEqual([expect.stringContaining('Error in function call: Call to function "timeadd" failed: time: unknown unit " day" in duration "1 day".')]);
    expect(await local("10")).toEqual([expect.stringContaining('time: missing unit in duration "10".')]);
    expect(await local(".h")).toEqual([expect.stringContaining('time: invalid duration ".h".')]);
  });

  it("accepts fractions, signs, several units and a bare zero", async () => {
    for (const duration of ["1.5h30m", "-.5s", "+2h45m10s", "0", "300ms", "1us"]) expect(await local(duration), duration).toEqual([]);
  });
});

describe("where a provider's finding about a list element is reported", () => {
  const resource = (type: string, body: object) => errors({ "main.tf.json": { terraform, resource: { [type]: { x: body } } } });

  it("points at the null element of a nested attribute's list", async () => {
    const found = await resource("tsdb_connector_src_db", {
      service_id: "svc-1",
      display_name: "orders",
      connection_string: "postgres://replicator@db.example.com:5432/orders",
      tables: [{ schema_name: "public", table_name: "a" }, null],
    });
    // "tables": [ is line 15, its null element line 20
    expect(found).toEqual(["20: tables[1] must be an object, got null"]);
  });

  it("points at the attribute for an element of a list of strings", async () => {
    const found = await resource("tsdb_peering_connection", {
      platform_vpc_id: 7,
      peer_account_id: "123456789012",
      peer_region_code: "us-east-1",
      peer_tgw_id: "tgw-0123456789abcdef0",
      peer_cidr_blocks: ["10.1.0.0/16", "300.0.0.0/99"],
    });
    expect(found).toEqual([expect.stringMatching(/^16: peer_cidr_blocks\[1\] must be an IPv4 CIDR block/)]);
  });
});

describe("functions that fail on known arguments (probed beside round 14)", () => {
  const local = async (expr: string) => (await errors({ "main.tf.json": { locals: { f: expr } } })).map((e) => e.replace(/^\d+: /, ""));

  it("refuses a scalar where a list, a map or two sets are needed", async () => {
    expect(await local('${concat([1], "a")}')).toEqual(['Invalid function argument: Invalid value for "seqs" parameter: all arguments must be lists or tuples; got string.']);
    expect(await local('${reverse("abc")}')).toEqual(['Invalid function argument: Invalid value for "list" parameter: can only reverse list or tuple values, not string.']);
    expect(await local("${values([1])}")).toEqual(['Error in function call: Call to function "values" failed: values() requires a map as the first argument.']);
    expect(await local('${setproduct(["a"])}')).toEqual(['Error in function call: Call to function "setproduct" failed: at least two arguments are required.']);
    expect(await local("${coalescelist([], [])}")).toEqual(['Error in function call: Call to function "coalescelist" failed: no non-null arguments.']);
    expect(await local('${transpose({ a = "b" })}')).toEqual(['Invalid function argument: Invalid value for "values" parameter: element "a": list of string required.']);
  });

  it("accepts the same functions on the shapes they take", async () => {
    for (const expr of ['${concat([1], ["a"])}', "${reverse([1, 2])}", "${values({ a = 1 })}", '${setproduct(["a"], ["b"])}', "${coalescelist([], [1])}", '${transpose({ a = ["b"] })}']) {
      expect(await local(expr), expr).toEqual([]);
    }
  });

  it("reads parseint's digits, uuidv5's namespace, formatdate's literals and cidrnetmask's prefix as Terraform does", async () => {
    expect(await local('${parseint("zz", 10)}')).toEqual(['Invalid function argument: Invalid value for "number" parameter: cannot parse "zz" as a base 10 integer.']);
    expect(await local('${uuidv5("nope", "x")}')).toEqual(['Error in function call: Call to function "uuidv5" failed: uuidv5() doesn\'t support namespace nope (invalid UUID length: 4).']);
    expect(await local("${formatdate(\"YYYY-MM-DD '\", \"2024-01-01T00:00:00Z\")}")).toEqual(['Invalid function argument: Invalid value for "format" parameter: unterminated literal \'.']);
    expect(await local('${parseint("1_0", 10)}')).toEqual(['Invalid function argument: Invalid value for "number" parameter: cannot parse "1_0" as a base 10 integer.']);
    expect(await local('${uuidv5("6ba7b810-9dad-11d1-80b4-00c04fd430cz", "x")}')).toEqual([expect.stringContaining("(invalid UUID format).")]);
    expect(await local('${cidrnetmask("10.0.0.0/33")}')).toEqual(['Error in function call: Call to function "cidrnetmask" failed: invalid CIDR expression: invalid CIDR address: 10.0.0.0/33.']);
    expect(await local('${format("%*d", 3, 1)}')).toEqual(['Error in function call: Call to function "format" failed: unrecognized format character \'*\' at offset 1.']);
    const fine = ['${parseint("-FF", 16)}', '${parseint("zZ", 62)}', '${uuidv5("dns", "x")}', '${uuidv5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "x")}', "${formatdate(\"DD 'o''clock'\", \"2024-01-01T00:00:00Z\")}", '${cidrnetmask("10.0.0.0/8")}'];
    for (const expr of fine) expect(await local(expr), expr).toEqual([]);
  });
});

describe("shapes probed beside round 14", () => {
  it("converts a local's objects into a nested attribute's type by discarding attributes the type lacks", async () => {
    const module = (table: object) => ({
      terraform,
      locals: { tables: [table] },
      resource: { tsdb_connector_src_db: { x: { service_id: "svc-1", display_name: "orders", connection_string: "postgres://r@db.example.com:5432/o", tables: "${local.tables}" } } },
    });
    expect(await errors({ "main.tf.json": module({ schema_name: "public", table_name: "a", nope: 1 }) })).toEqual([]);
  });

  it("reports a second lifecycle block of one JSON array at the array's key", async () => {
    const found = await errors({ "main.tf.json": { terraform, resource: { tsdb_vpcs: { x: { cidr: "10.0.0.0/16", region_code: "us-east-1", lifecycle: [{ create_before_destroy: true }, { prevent_destroy: false }] } } } } });
    // "lifecycle": [ is line 14 (its second element line 18)
    expect(found).toEqual([expect.stringMatching(/^14: Duplicate lifecycle block: Only one "lifecycle" block is allowed per resource/)]);
  });
});
