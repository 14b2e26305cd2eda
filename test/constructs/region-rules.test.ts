// The region rules across constructs fail `app.synth()`, with the messages `schemaform validate`
// gives on the synthesized stack: a service uses only a VPC and exporters of its own region (an
// omitted regionCode is us-east-1), and a read replica is in its source's region. Before, the
// synth passed and the apply failed halfway, after other objects were created.
import { TerraformVariable } from "cdktf";
import { LogExporter, MetricExporter, Service, Vpcs, type ServiceRegionCode } from "schemaform/tsdb";
import { afterAll, describe, expect, test } from "vitest";
import { cleanOutdirs, synthErrors } from "./helpers.js";

afterAll(cleanOutdirs);

const pullmon = { username: "scraper", password: "s3cret-long-enough" };
const cloudmon = (region: string) => ({ region, logGroupName: "/tsdb/app", logStreamName: "primary", roleArn: "arn:aws:iam::123456789012:role/w" });

describe("region rules across constructs at synth", () => {
  test("a VPC in another region than the service using it, whose regionCode is left at its default", () => {
    expect(
      synthErrors((s) => {
        const vpc = new Vpcs(s, "main", { cidr: "10.0.0.0/16", regionCode: "eu-west-1" });
        new Service(s, "db", { vpcId: vpc.vpcsId });
      }),
    ).toEqual([
      '[stack/db] tsdb_service.db: VPC region mismatch: tsdb_vpcs.main is in region "eu-west-1", but tsdb_service.db is in "us-east-1"; a service can only use a VPC in its own region. (at vpc_id (vpcId))',
    ]);
  });

  test("exporters in another region, and a read replica set elsewhere than its source", () => {
    expect(
      synthErrors((s) => {
        const metrics = new MetricExporter(s, "metrics", { name: "m", region: "eu-west-1", pullmon });
        const logs = new LogExporter(s, "logs", { region: "us-east-1", cloudmon: cloudmon("us-east-1") });
        const db = new Service(s, "db", { regionCode: "us-east-1", metricExporterId: metrics.id, logExporterId: logs.id });
        new Service(s, "replica", { readReplicaSource: db.id, regionCode: "eu-central-1" });
      }),
    ).toEqual([
      '[stack/db] tsdb_service.db: Exporter region mismatch: tsdb_metric_exporter.metrics is in region "eu-west-1", but tsdb_service.db is in "us-east-1"; only services in the exporter\'s region can attach it. (at metric_exporter_id (metricExporterId))',
      '[stack/replica] tsdb_service.replica: Read replica region mismatch: region_code (regionCode) "eu-central-1" differs from the region of its source tsdb_service.db ("us-east-1"); a read replica must be in its source\'s region. (at read_replica_source (readReplicaSource))',
    ]);
  });

  test("the same region, a region only known later, and a replica that inherits: nothing to report", () => {
    expect(
      synthErrors((s) => {
        const region = new TerraformVariable(s, "region", { type: "string" });
        const vpc = new Vpcs(s, "main", { cidr: "10.0.0.0/16", regionCode: "eu-west-1" });
        const metrics = new MetricExporter(s, "metrics", { name: "m", region: vpc.regionCode, pullmon });
        const db = new Service(s, "db", { vpcId: vpc.vpcsId, regionCode: "eu-west-1", metricExporterId: metrics.id });
        new Service(s, "elsewhere", { vpcId: vpc.vpcsId, regionCode: region.stringValue as ServiceRegionCode });
        new Service(s, "replica", { readReplicaSource: db.id, vpcId: vpc.vpcsId });
      }),
    ).toEqual([]);
  });
});
