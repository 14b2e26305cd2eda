// An input variable at validate is an unknown value of its declared type: Terraform 1.11.4 refuses
// it where that type can never convert to the argument's type, and an index past a tuple's length.
// Each expectation is what `terraform validate` printed for the same configuration.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateFiles } from "../../language/index.js";

const work = mkdtempSync(join(tmpdir(), "schemaform-typed-variables-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;

/** The errors (first line and line number) of a module of one file. */
async function errors(name: string, text: string): Promise<{ message: string; line: number }[]> {
  const dir = join(work, String(n++));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), text);
  const result = await validateFiles([dir]);
  return result.diagnostics.filter((d) => d.severity === "error").map((d) => ({ message: d.message.split("\n")[0]!, line: d.line }));
}

const header = `terraform {
  required_providers {
    tsdb = { source = "schemaform/tsdb" }
  }
}
`;
const native = (body: string) => errors("main.tf", header + body);
const json = (value: object) => errors("main.tf.json", JSON.stringify({ terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" } } }, ...value }, null, 2));
const incorrect = (attr: string, detail: string) => `Incorrect attribute value type: Inappropriate value for attribute "${attr}": ${detail}.`;
const INVALID_INDEX = "Invalid index: The given key does not identify an element in this collection value.";

describe("a typed variable given to an argument of a type it cannot convert to", () => {
  it("refuses a list variable for a string argument, directly and through a local value (native)", async () => {
    const found = await native(`variable "l" {
  type = list(string)
}
locals {
  x = var.l
}
resource "tsdb_vpcs" "a" {
  cidr        = var.l
  region_code = local.x
}
`);
    expect(found).toEqual([
      { message: incorrect("cidr", "string required"), line: 13 },
      { message: incorrect("region_code", "string required"), line: 14 },
    ]);
  });

  it("refuses structural mismatches in .tf.json, with cty's detail", async () => {
    const found = await json({
      variable: { m: { type: "map(string)" }, n: { type: "number" }, b: { type: "bool" }, o: { type: "object({ a = list(string) })" }, ll: { type: "list(list(string))" }, tu: { type: "tuple([string, list(string)])" } },
      resource: {
        tsdb_service: { a: { name: "db", region_code: "us-east-1", paused: "${var.n}", storage_gb: "${var.b}", parameters: "${var.o}" } },
        tsdb_peering_connection: {
          a: { peer_cidr_blocks: "${var.m}" },
          b: { peer_cidr_blocks: "${var.ll}" },
          c: { peer_cidr_blocks: "${var.tu}" },
        },
      },
    });
    const messages = found.map((e) => e.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        incorrect("paused", "bool required"),
        incorrect("storage_gb", "number required"),
        incorrect("parameters", 'element "a": string required'),
        incorrect("peer_cidr_blocks", "set of string required"),
        incorrect("peer_cidr_blocks", "incorrect set element type: string required"),
        incorrect("peer_cidr_blocks", "element 1: string required"),
      ]),
    );
  });

  it("accepts what converts: primitives to one another, an element or attribute of the right type, a list for a set", async () => {
    const found = await json({
      variable: { l: { type: "list(string)" }, n: { type: "number" }, s: { type: "string" }, o: { type: "object({ a = string, m = map(number) })" }, t: { type: "tuple([string, number])" }, any: {} },
      resource: {
        tsdb_vpcs: { a: { cidr: "${var.l[0]}", region_code: "${var.n}", name: "${var.o.a}" } },
        tsdb_service: { a: { name: "${var.t[0]}", region_code: "${var.any}", milli_cpu: "${var.s}", memory_gb: "${var.t[1]}", parameters: "${var.o.m}" } },
        tsdb_peering_connection: { a: { peer_cidr_blocks: "${var.l}", peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_vpc_id: "vpc-0a1b2c3d4e5f67890", platform_vpc_id: 1 } },
      },
    });
    expect(found).toEqual([]);
  });
});

describe("an index into a typed variable", () => {
  it("refuses an index past a tuple's length, in .tf.json and native", async () => {
    expect(
      await json({
        variable: { t: { type: "tuple([string, number])" } },
        resource: { tsdb_vpcs: { a: { cidr: "${var.t[5]}", region_code: "us-east-1" } } },
      }),
    ).toEqual([{ message: INVALID_INDEX, line: 17 }]);
    const found = await native(`variable "t" {
  type = tuple([string, number])
}
resource "tsdb_vpcs" "a" {
  cidr        = "\${var.t[2]}-x"
  region_code = "us-east-1"
}
`);
    // HCL explains an index equal to the length (and only that one)
    expect(found).toEqual([{ message: `${INVALID_INDEX.slice(0, -1)}: the given index is greater than or equal to the length of the collection.`, line: 10 }]);
  });

  it("accepts any index into a list, whose length validate does not know", async () => {
    expect(
      await native(`variable "l" {
  type    = list(string)
  default = ["a"]
}
resource "tsdb_vpcs" "a" {
  cidr        = var.l[7]
  region_code = "us-east-1"
}
`),
    ).toEqual([]);
  });
});
