// The regions the platform offers (platform/catalog.ts) are the ones the schemas allow: the
// tsdb_service region_code enum has them all, the enums of the VPC's region_code and the
// exporters' region have those with VPCs and exporters (not Azure's). Each enum is checked
// everywhere with a "did you mean", and makes the CDKTF getters typed unions that pass into
// another construct's region prop without a cast (test/constructs/types.test.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { REGIONS } from "../../platform/catalog.js";

const enumOf = (file: string, attribute: string): unknown => JSON.parse(readFileSync(join(process.cwd(), "schemas", `resource.${file}.schema.json`), "utf8")).properties[attribute].enum;

it("tsdb_service.region_code allows exactly the offered regions", () => {
  expect(enumOf("tsdb_service", "region_code")).toEqual(REGIONS.map((r) => r.code));
});

it("a VPC's and an exporter's region allow exactly the offered regions that have VPCs and exporters", () => {
  const aws = REGIONS.filter((r) => r.cloud === "aws").map((r) => r.code);
  expect(enumOf("tsdb_vpcs", "region_code")).toEqual(aws);
  expect(enumOf("tsdb_metric_exporter", "region")).toEqual(aws);
  expect(enumOf("tsdb_log_exporter", "region")).toEqual(aws);
});
