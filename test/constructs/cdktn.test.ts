// The CDK Terrain build (`schemaform/cdktn/*`): the same constructs, types and synth-time
// validation, built against `cdktn` instead of `cdktf`. The packed-tarball apps in test/package/
// check the install; this checks the build in the repository, fast.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import * as cdktn from "cdktn";
import * as cdktf from "cdktf";
import { RestoreChannel, ContainerbackupProvider } from "schemaform/cdktn/containerbackup";
import { DataTsdbProducts, Service, TsdbProvider, Vpcs } from "schemaform/cdktn/tsdb";
import * as cdktfTsdb from "schemaform/tsdb";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

function stack(name: string): cdktn.TerraformStack {
  const s = new cdktn.TerraformStack(cdktn.Testing.app(), name);
  new TsdbProvider(s, "tsdb", { projectId: "demo-project" });
  new ContainerbackupProvider(s, "containerbackup", { project: "demo-project" });
  return s;
}

describe("schemaform/cdktn", () => {
  it("builds its classes on cdktn's, not cdktf's", () => {
    expect(Service.prototype).toBeInstanceOf(cdktn.TerraformResource);
    expect(Service.prototype).not.toBeInstanceOf(cdktf.TerraformResource);
    expect(cdktfTsdb.Service.prototype).toBeInstanceOf(cdktf.TerraformResource);
  });

  it("synthesizes the same JSON as the cdktf build", () => {
    const build = (lib: { Service: typeof Service; Vpcs: typeof Vpcs; TsdbProvider: typeof TsdbProvider; DataTsdbProducts: typeof DataTsdbProducts }, s: cdktn.TerraformStack | cdktf.TerraformStack) => {
      new lib.TsdbProvider(s as never, "tsdb", { projectId: "demo-project" });
      const vpc = new lib.Vpcs(s as never, "main", { cidr: "10.10.0.0/16", regionCode: "us-east-1" });
      new lib.Service(s as never, "db", { milliCpu: 1000, memoryGb: 4, vpcId: vpc.vpcsId, timeouts: { create: "30m" } });
      new lib.DataTsdbProducts(s as never, "products");
    };
    const terrain = new cdktn.TerraformStack(cdktn.Testing.app(), "same");
    build({ Service, Vpcs, TsdbProvider, DataTsdbProducts }, terrain);
    const classic = new cdktf.TerraformStack(cdktf.Testing.app(), "same");
    build(cdktfTsdb as never, classic);
    const strip = (json: string) => {
      const doc = JSON.parse(json) as Record<string, unknown>;
      delete doc["//"];
      delete doc.terraform;
      return doc;
    };
    expect(strip(cdktn.Testing.synth(terrain))).toEqual(strip(cdktf.Testing.synth(classic)));
  });

  it("fails synth on a broken rule, with the construct path and the Terraform address", () => {
    const s = stack("broken");
    new Service(s, "db", { haReplicas: 1, syncReplicas: 1 });
    new RestoreChannel(s, "restores", { name: "restores", location: "us-central1", destinationProject: "projects/restore-target" });
    expect(() => cdktn.Testing.fullSynth(s)).toThrow(/\[broken\/db\] tsdb_service\.db: sync_replicas.*requires ha_replicas/);
  });

  it("declares its types against cdktn", () => {
    const declarations = readFileSync(createRequire(import.meta.url).resolve("schemaform/cdktn/tsdb").replace(/tsdb\.js$/, "../generated/constructs/tsdb/service.d.ts"), "utf8");
    expect(declarations).toMatch(/from "cdktn"/);
    expect(declarations).not.toMatch(/from "cdktf"/);
    expect(readFileSync(join(ROOT, "dist", "cjs", "cdktf", "generated", "constructs", "tsdb", "service.d.ts"), "utf8")).toMatch(/from "cdktf"/);
  });
});
