// An omitted region_code counts as the platform's default (us-east-1) in the cross-resource
// region checks: an exporter in another region is refused before apply, as when the service
// writes region_code out; a read replica that omits it still inherits its source's region.
import { describe, expect, it } from "vitest";
import { validateHclJson } from "../../language/index.js";

const logs = (region: string) => ({ region, cloudmon: { region, log_group_name: "/g", log_stream_name: "s", role_arn: "arn:aws:iam::123456789012:role/w" } });

async function errors(services: Record<string, unknown>, region = "eu-west-1"): Promise<string[]> {
  const text = JSON.stringify({ terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" } } }, resource: { tsdb_log_exporter: { logs: logs(region) }, tsdb_service: services } });
  return (await validateHclJson(text)).filter((d) => d.severity === "error").map((d) => d.message);
}

describe("the default region in cross-resource checks", () => {
  it("refuses an exporter in another region than a service that leaves region_code out", async () => {
    expect(await errors({ db: { log_exporter_id: "${tsdb_log_exporter.logs.id}" } })).toEqual([
      'Exporter region mismatch: tsdb_log_exporter.logs is in region "eu-west-1", but tsdb_service.db is in "us-east-1"; only services in the exporter\'s region can attach it.',
    ]);
    expect(await errors({ db: { log_exporter_id: "${tsdb_log_exporter.logs.id}" } }, "us-east-1")).toEqual([]);
  });

  it("refuses a VPC in another region than the service that uses it (region_code written out or left at its default)", async () => {
    const check = async (vpcRegion: string, service: Record<string, unknown>) => {
      const text = JSON.stringify({
        terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" } } },
        resource: { tsdb_vpcs: { net: { cidr: "10.0.0.0/16", region_code: vpcRegion } }, tsdb_service: { db: { vpc_id: "${tsdb_vpcs.net.vpcs_id}", ...service } } },
      });
      return (await validateHclJson(text)).filter((d) => d.severity === "error").map((d) => `${d.source} ${d.message}`);
    };
    expect(await check("eu-west-1", {})).toEqual([
      'schemaform VPC region mismatch: tsdb_vpcs.net is in region "eu-west-1", but tsdb_service.db is in "us-east-1"; a service can only use a VPC in its own region.',
    ]);
    expect(await check("eu-west-1", { region_code: "eu-central-1" })).toEqual([expect.stringContaining('VPC region mismatch: tsdb_vpcs.net is in region "eu-west-1", but tsdb_service.db is in "eu-central-1"')]);
    expect(await check("eu-west-1", { region_code: "eu-west-1" })).toEqual([]);
    expect(await check("us-east-1", {})).toEqual([]);
  });

  it("lets a read replica without region_code inherit, and refuses one set elsewhere than its defaulted source", async () => {
    expect(await errors({ db: {}, replica: { read_replica_source: "${tsdb_service.db.id}" } }, "us-east-1")).toEqual([]);
    const mismatch = await errors({ db: {}, replica: { read_replica_source: "${tsdb_service.db.id}", region_code: "eu-west-1" } }, "us-east-1");
    expect(mismatch).toEqual([expect.stringContaining('Read replica region mismatch: region_code "eu-west-1" differs from the region of its source tsdb_service.db ("us-east-1")')]);
  });
});
