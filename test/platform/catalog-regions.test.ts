// The regions the platform offers (platform/catalog.ts) are the ones the tsdb_service schema
// allows (its region_code enum, checked everywhere with a "did you mean"): the two lists agree.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { REGIONS } from "../../platform/catalog.js";

it("tsdb_service.region_code allows exactly the offered regions", () => {
  const schema = JSON.parse(readFileSync(join(process.cwd(), "schemas", "resource.tsdb_service.schema.json"), "utf8"));
  expect(schema.properties.region_code.enum).toEqual(REGIONS.map((r) => r.code));
});
