// References to our resources and lifecycle.ignore_changes paths follow the provider schema as
// `terraform validate` 1.11.4 does (each case was run through Terraform): a set attribute has no
// indexes, and a single nested block (`timeouts`) takes only attribute access, not even a string key.
import { describe, expect, it } from "vitest";
import { modulesOnDisk } from "./module-on-disk.js";

const { errors } = modulesOnDisk("schema-traversal");

const SET = "Invalid index: Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.";
const BLOCK = "Invalid index operation: Only attribute access is allowed here, using the dot operator.";
const BLOCK_KEY = 'Invalid index operation: Only attribute access is allowed here. Did you mean to access attribute "create" using the dot operator?';

const versions = JSON.stringify({ terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" } } }, provider: { tsdb: { project_id: "p" } } });
const vpc = (extra: Record<string, unknown> = {}) => ({ cidr: "10.0.0.0/16", region_code: "us-east-1", ...extra });
const peering = { platform_vpc_id: "${tsdb_vpcs.main.vpcs_id}", peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_tgw_id: "tgw-0123456789abcdef0", peer_cidr_blocks: ["10.100.0.0/16"] };

/** main.tf.json: the VPC and the peering on lines 1-2, then the outputs one per line from line 3. */
function jsonModule(outputs: string[], main: Record<string, unknown> = vpc()): Record<string, string> {
  if (outputs.length === 0) return { "main.tf.json": JSON.stringify({ resource: { tsdb_vpcs: { main }, tsdb_peering_connection: { p: peering } } }), "versions.tf.json": versions };
  const lines = [
    `{ "resource": { "tsdb_vpcs": { "main": ${JSON.stringify(main)} },`,
    `  "tsdb_peering_connection": { "p": ${JSON.stringify(peering)} } },`,
    `  "output": {`,
    ...outputs.map((value, i) => `    "o${i}": { "value": ${JSON.stringify(value)} }${i < outputs.length - 1 ? "," : ""}`),
    "  } }",
  ];
  return { "main.tf.json": lines.join("\n"), "versions.tf.json": versions };
}

describe("an index into a set attribute", () => {
  it("is refused in a reference, whatever the key", async () => {
    expect(await errors(jsonModule(["${tsdb_peering_connection.p.peer_cidr_blocks[0]}", '${tsdb_peering_connection.p.peer_cidr_blocks["a"]}']))).toEqual([`main.tf.json:4: ${SET}`, `main.tf.json:5: ${SET}`]);
  });

  it("is refused in ignore_changes", async () => {
    const files = jsonModule([]);
    files["main.tf.json"] = JSON.stringify({ resource: { tsdb_vpcs: { main: vpc() }, tsdb_peering_connection: { p: { ...peering, lifecycle: { ignore_changes: ["peer_cidr_blocks[0]"] } } } } });
    expect(await errors(files)).toEqual([`main.tf.json:1: ${SET}`]);
  });

  it("but a splat over the set, and the whole set, are accepted", async () => {
    expect(await errors(jsonModule(["${tsdb_peering_connection.p.peer_cidr_blocks[*]}", "${tsdb_peering_connection.p.peer_cidr_blocks}", "${tsdb_peering_connection.p.peer_cidr_blocks.*.x}"]))).toEqual([]);
  });
});

describe("an index into a single nested block", () => {
  it("is refused in a reference, a number and a string key alike", async () => {
    expect(await errors(jsonModule(["${tsdb_vpcs.main.timeouts[0]}", '${tsdb_vpcs.main.timeouts["create"]}', "${tsdb_vpcs.main.timeouts[0].create}"]))).toEqual([
      `main.tf.json:4: ${BLOCK}`,
      `main.tf.json:5: ${BLOCK_KEY}`,
      `main.tf.json:6: ${BLOCK}`,
    ]);
  });

  it("is refused in ignore_changes", async () => {
    const files = jsonModule([], vpc({ lifecycle: { ignore_changes: ["timeouts[0]", 'timeouts["create"]', "timeouts.create"] } }));
    expect(await errors(files)).toEqual([`main.tf.json:1: ${BLOCK}`, `main.tf.json:1: ${BLOCK_KEY}`]);
  });

  it("but its attributes by name are accepted", async () => {
    expect(await errors(jsonModule(["${tsdb_vpcs.main.timeouts.create}", "${tsdb_vpcs.main.timeouts}"]))).toEqual([]);
  });
});

describe("in native syntax", () => {
  it("the same references and ignore_changes paths are refused", async () => {
    const main = [
      'resource "tsdb_vpcs" "main" {',
      '  cidr        = "10.0.0.0/16"',
      '  region_code = "us-east-1"',
      "  lifecycle {",
      "    ignore_changes = [timeouts[0]]",
      "  }",
      "}",
      'resource "tsdb_peering_connection" "p" {',
      "  platform_vpc_id  = tsdb_vpcs.main.vpcs_id",
      '  peer_account_id  = "123456789012"',
      '  peer_region_code = "us-east-1"',
      '  peer_tgw_id      = "tgw-0123456789abcdef0"',
      '  peer_cidr_blocks = ["10.100.0.0/16"]',
      "}",
      'output "a" { value = tsdb_peering_connection.p.peer_cidr_blocks[0] }',
      'output "b" { value = tsdb_vpcs.main.timeouts["create"] }',
      "",
    ].join("\n");
    expect(await errors({ "main.tf": main, "versions.tf.json": versions })).toEqual([`main.tf:5: ${BLOCK}`, `main.tf:15: ${SET}`, `main.tf:16: ${BLOCK_KEY}`]);
  });
});
