// The differential comparison counts only the diagnostics that stand for `terraform validate`'s
// verdict: an error marked "source": "schemaform" (a rule Terraform applies at plan or apply, such
// as a resource attribute whose type cannot convert, which real Terraform 1.11.4 accepts at
// validate and refuses at plan) is reported early on purpose and is no disagreement.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateFiles } from "../../language/index.js";
import { compare, disagreementKind, ourErrors, writeCase, type RecordedVerdict } from "./compare.mjs";

const work = mkdtempSync(join(tmpdir(), "schemaform-compare-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const accepted: RecordedVerdict = { hash: "", category: "references", valid: true, stage: "validate", first: null, errors: [] };
const rejectedAt = (file: string, line: number): RecordedVerdict => ({ hash: "", category: "references", valid: false, stage: "validate", first: { file, line }, errors: [{ summary: "x", file, line }] });

/** A VPC whose string attribute is given to the peering's set of CIDR blocks (line 3 of main.tf.json). */
const files = {
  "versions.tf.json": JSON.stringify({ terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" } } }, provider: { tsdb: { project_id: "p" } } }),
  "main.tf.json": [
    '{ "resource": { "tsdb_vpcs": { "main": { "cidr": "10.0.0.0/16", "region_code": "us-east-1" } },',
    '  "tsdb_peering_connection": { "p": { "platform_vpc_id": "${tsdb_vpcs.main.vpcs_id}", "peer_account_id": "123456789012", "peer_region_code": "us-east-1", "peer_tgw_id": "tgw-0123456789abcdef0",',
    '    "peer_cidr_blocks": "${tsdb_vpcs.main.cidr}" } } } }',
  ].join("\n"),
};

describe("schemaform-only diagnostics in the differential comparison", () => {
  it("are reported, marked as ours", async () => {
    const dir = join(work, "early");
    writeCase(dir, { files });
    const ours = await ourErrors(validateFiles, dir);
    expect(ours).toEqual([expect.objectContaining({ file: "main.tf.json", line: 3, source: "schemaform", message: expect.stringContaining("is a string, but a set is required") })]);
  });

  it("do not reject a case Terraform accepts at validate", async () => {
    const dir = join(work, "accepted");
    writeCase(dir, { files });
    const outcome = compare(accepted, await ourErrors(validateFiles, dir));
    expect(outcome).toEqual({ verdict: true, line: null });
    expect(disagreementKind(accepted, outcome)).toBeNull();
  });

  it("do not stand for Terraform's first error, nor for its verdict", () => {
    const ours = [{ file: "main.tf.json", line: 3, message: "early", source: "schemaform" as const }];
    expect(compare(rejectedAt("main.tf.json", 3), ours)).toEqual({ verdict: false, line: null });
    const both = [...ours, { file: "main.tf.json", line: 7, message: "Terraform's", source: "terraform" as const }];
    expect(compare(rejectedAt("main.tf.json", 3), both)).toEqual({ verdict: true, line: false });
    expect(compare(rejectedAt("main.tf.json", 7), both)).toEqual({ verdict: true, line: true });
  });
});
