// The example app synthesizes (validation on) to the same HCL-JSON every time, with no path of
// the machine in it; `examples/stack/main.ts` run as a program writes the same file.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { App } from "cdktf";
import { PlatformStack } from "../../examples/stack/stack.js";

const outdirs: string[] = [];
afterAll(() => outdirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function outdir(): string {
  const dir = mkdtempSync(join(tmpdir(), "schemaform-synth-"));
  outdirs.push(dir);
  return dir;
}

function synthesizeExample(): { dir: string; text: string } {
  const dir = outdir();
  const app = new App({ outdir: dir, stackTraces: false });
  new PlatformStack(app, "example");
  app.synth();
  return { dir, text: readFileSync(join(dir, "stacks", "example", "cdk.tf.json"), "utf8") };
}

test("the example synthesizes to the committed snapshot", async () => {
  const { dir, text } = synthesizeExample();
  for (const path of [dir, process.cwd(), homedir(), tmpdir()]) expect(text).not.toContain(path);
  const manifest = readFileSync(join(dir, "manifest.json"), "utf8");
  for (const path of [dir, process.cwd(), homedir()]) expect(manifest).not.toContain(path);
  expect(JSON.parse(manifest).stacks.example.annotations).toEqual([]);
  await expect(text).toMatchFileSnapshot("__snapshots__/example.cdk.tf.json");
});

test("it uses every resource and data source of both providers, with the seed's references", () => {
  const json = JSON.parse(synthesizeExample().text);
  expect(Object.keys(json.resource).sort()).toEqual([
    "containerbackup_restore_channel",
    "tsdb_connector_obj_store",
    "tsdb_connector_src_db",
    "tsdb_log_exporter",
    "tsdb_metric_exporter",
    "tsdb_peering_connection",
    "tsdb_service",
    "tsdb_vpcs",
  ]);
  expect(Object.keys(json.data).sort()).toEqual(["tsdb_products", "tsdb_service", "tsdb_vpcs"]);
  expect(Object.keys(json.provider).sort()).toEqual(["containerbackup", "tsdb"]);
  const db = json.resource.tsdb_service.db;
  expect(db.vpc_id).toBe("${tsdb_vpcs.main.vpcs_id}");
  expect(db.log_exporter_id).toBe("${tsdb_log_exporter.logs.id}");
  expect(db.metric_exporter_id).toBe("${tsdb_metric_exporter.metrics.id}");
  expect(json.resource.tsdb_peering_connection.to_shared_services.platform_vpc_id).toBe("${tsdb_vpcs.main.vpcs_id}");
  expect(json.resource.tsdb_connector_obj_store.events.service_id).toBe("${tsdb_service.db.id}");
  expect(json.resource.tsdb_connector_src_db.orders.service_id).toBe("${tsdb_service.db.id}");
  expect(json.resource.tsdb_service.replica.read_replica_source).toBe("${tsdb_service.db.id}");
});

test("examples/stack/main.ts run as a program writes the same file", () => {
  const dir = outdir();
  const tsx = join(process.cwd(), "node_modules", ".bin", "tsx");
  execFileSync(tsx, [join("examples", "stack", "main.ts")], { env: { ...process.env, CDKTF_OUTDIR: dir }, stdio: "pipe" });
  const text = readFileSync(join(dir, "stacks", "example", "cdk.tf.json"), "utf8");
  expect(text).toBe(synthesizeExample().text);
}, 60_000);
