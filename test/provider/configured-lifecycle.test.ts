// The provider reads a resource's create_before_destroy from the configuration in Terraform's
// directory (the protocol never sends it), so that the VPC-replacement warning is not given again
// once the user has added the lifecycle it recommends. End to end: test/e2e/errors.test.ts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/codec.js";
import { configuredCreateBeforeDestroy, terraformDirectory } from "../../provider/framework/configured-lifecycle.js";

const work = mkdtempSync(join(tmpdir(), "sf-lifecycle-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let counter = 0;
function module(files: Record<string, string>): string {
  const dir = join(work, `m${++counter}`);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const planned = { name: null, cidr: "10.41.0.0/16", region_code: "us-east-1" };

describe("create_before_destroy read from the configuration Terraform runs", () => {
  it("in HCL-JSON (and a CDKTF stack's cdk.tf.json), set or not", async () => {
    const vpc = (lifecycle?: object) => JSON.stringify({ resource: { tsdb_vpcs: { net: { cidr: "10.41.0.0/16", region_code: "us-east-1", ...(lifecycle ? { lifecycle } : {}) } } } });
    expect(await configuredCreateBeforeDestroy(module({ "main.tf.json": vpc({ create_before_destroy: true }) }), "tsdb_vpcs", planned)).toBe(true);
    expect(await configuredCreateBeforeDestroy(module({ "cdk.tf.json": vpc([{ create_before_destroy: true }]) }), "tsdb_vpcs", planned)).toBe(true);
    expect(await configuredCreateBeforeDestroy(module({ "main.tf.json": vpc() }), "tsdb_vpcs", planned)).toBe(false);
    expect(await configuredCreateBeforeDestroy(module({ "main.tf.json": vpc({ create_before_destroy: false }) }), "tsdb_vpcs", planned)).toBe(false);
  });

  it("in native HCL, and in a local module the root calls", async () => {
    const native = `resource "tsdb_vpcs" "net" {\n  cidr        = var.cidr\n  region_code = "us-east-1"\n\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n`;
    expect(await configuredCreateBeforeDestroy(module({ "main.tf": native }), "tsdb_vpcs", planned)).toBe(true);
    const root = module({ "main.tf": `module "network" {\n  source = "./modules/network"\n}\n`, "modules/network/vpc.tf": native });
    expect(await configuredCreateBeforeDestroy(root, "tsdb_vpcs", planned)).toBe(true);
  });

  it("only for the block whose literal arguments are this resource's", async () => {
    const dir = module({
      "main.tf": [
        `resource "tsdb_vpcs" "old" {\n  cidr        = "10.41.0.0/16"\n  region_code = "us-east-1"\n}\n`,
        `resource "tsdb_vpcs" "other" {\n  cidr        = "10.50.0.0/16"\n  region_code = "us-east-1"\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n`,
      ].join("\n"),
    });
    expect(await configuredCreateBeforeDestroy(dir, "tsdb_vpcs", planned)).toBe(false);
    expect(await configuredCreateBeforeDestroy(dir, "tsdb_vpcs", { ...planned, cidr: "10.50.0.0/16" })).toBe(true);
    // An argument only known at apply agrees with every block: both are candidates, one lacks it.
    expect(await configuredCreateBeforeDestroy(dir, "tsdb_vpcs", { ...planned, cidr: UNKNOWN })).toBe(false);
  });

  it("not known (so the warning stays) when no block is found or a file does not parse", async () => {
    expect(await configuredCreateBeforeDestroy(module({ "main.tf": `resource "tsdb_vpcs" "net" {\n  lifecycle {\n    create_before_destroy = true\n` }), "tsdb_vpcs", planned)).toBe(false);
    expect(await configuredCreateBeforeDestroy(join(work, "missing"), "tsdb_vpcs", planned)).toBe(false);
  });

  it("in the directory Terraform runs in", async () => {
    expect(await terraformDirectory(process.pid)).toBe(process.cwd());
  });
});
