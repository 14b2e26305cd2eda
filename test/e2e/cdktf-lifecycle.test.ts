// The CDKTF example (examples/stack) end to end: `schemaform up` synthesizes it, installs the
// providers and applies it (twice: the second run changes nothing); then Terraform, in the
// synthesized stack directory, updates every resource in place, replaces every resource, notices
// out-of-band deletes, adopts existing objects through import blocks; `schemaform down` destroys.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { terraformPlatform } from "../../provider/install.js";
import { CLI, ROOT, Suite, type Workspace, planCounts, planJson, planned, runProcess } from "./support/harness.js";

const PROJECT = "demo-project";
const ALL = [
  "containerbackup_restore_channel.prod_restores",
  "tsdb_connector_obj_store.events",
  "tsdb_connector_src_db.orders",
  "tsdb_log_exporter.logs",
  "tsdb_metric_exporter.metrics",
  "tsdb_peering_connection.to_shared_services",
  "tsdb_service.db",
  "tsdb_service.replica",
  "tsdb_vpcs.main",
].sort();

let suite: Suite;
let outdir: string;
let ws: Workspace;
const STACK = "cdk.tf.json";

beforeAll(async () => {
  suite = await Suite.create("cdktf");
  outdir = join(suite.root, "cdktf.out");
  ws = suite.workspaceAt(join(outdir, "stacks", "example"), { TF_CLI_CONFIG_FILE: join(outdir, "providers", "terraform.rc") });
});

afterAll(async () => {
  if (suite) {
    process.stdout.write(`cdktf lifecycle: ${suite.summary()}\n`);
    await suite.dispose();
  }
});

function up() {
  // A home without providers in Terraform's implied mirror: `up` installs them in its own.
  const env: NodeJS.ProcessEnv = { ...suite.env, HOME: join(suite.root, "home") };
  delete env.TF_CLI_CONFIG_FILE; // `up` writes and uses its own
  return runProcess(process.execPath, [CLI, "up", join("examples", "stack"), "--out", outdir], { cwd: ROOT, env });
}

describe("CDKTF example: schemaform up, then every resource through its lifecycle", () => {
  test("schemaform up synthesizes, installs the providers, applies and prints the outputs; a second run changes nothing", async () => {
    const first = await up();
    expect(first.code, first.output).toBe(0);
    expect(first.output).toMatch(/Synthesizing examples\/stack\/main\.ts/);
    // The synth finds the providers where this Terraform looks: no warning to install them.
    expect(first.output).not.toContain("is not installed where terraform init looks");
    expect(first.output).toMatch(/\$ terraform init -input=false/);
    expect(first.output).toMatch(/tsdb_service\.db: Creation complete/); // progress is streamed
    expect(first.output).toMatch(/Apply complete! Resources: 9 added, 0 changed, 0 destroyed/);
    expect(first.output).toMatch(/Outputs:\n[\s\S]*db_hostname = "[a-z0-9]+\.demo-project\.vpc\./);
    // printed once (by Terraform's apply), the password hidden
    expect(first.output.match(/^\s*db_hostname = /gm)).toHaveLength(1);
    expect(first.output).toMatch(/db_password = <sensitive>/);
    // the hint names a command a clone has: npx, with up's own arguments
    expect(first.output).toContain(`Destroy it with 'npx schemaform down examples/stack --out ${outdir}'`);
    const password = ws.state().get("tsdb_service.db")!.password as string;
    expect(password.length).toBeGreaterThan(8);
    expect(first.output).not.toContain(password);

    // A different build of the same version in the mirror (as after a rebuild): `up` replaces it
    // and lets `terraform init` record the package again instead of failing on the lock file.
    const packageJson = join(outdir, "providers", "registry.terraform.io", "schemaform", "tsdb", "0.1.0", terraformPlatform(), "package.json");
    appendFileSync(packageJson, "\n");
    const second = await up();
    expect(second.code, second.output).toBe(0);
    expect(second.output).toMatch(/schemaform\/tsdb 0\.1\.0: replaced/);
    expect(second.output).toMatch(/schemaform\/containerbackup 0\.1\.0: up to date/);
    expect(second.output).toMatch(/No changes\. Your infrastructure matches the configuration/);

    const plan = await ws.tf(["plan", "-input=false", "-detailed-exitcode"]);
    expect(plan.code, plan.output).toBe(0);
  });

  test("in-place update of every resource", async () => {
    ws.editJson(STACK, (c) => {
      const r = c.resource;
      r.containerbackup_restore_channel.prod_restores.description = "Restores go to restore-target only.";
      r.containerbackup_restore_channel.prod_restores.labels = { environment: "production" };
      r.tsdb_vpcs.main.name = "main-vpc-2";
      r.tsdb_peering_connection.to_shared_services.peer_cidr_blocks = ["172.31.0.0/16"];
      r.tsdb_log_exporter.logs.name = "app-logs-2";
      r.tsdb_metric_exporter.metrics.pullmon.username = "scraper-2";
      Object.assign(r.tsdb_service.db, { milli_cpu: 2000, memory_gb: 8, connection_pooler_enabled: false, ha_replicas: 1, sync_replicas: 0 });
      r.tsdb_service.replica.read_replica_nodes = 3;
      r.tsdb_connector_obj_store.events.frequency = "@daily";
      r.tsdb_connector_src_db.orders.table_sync_workers = 3;
      r.tsdb_connector_src_db.orders.tables[1].table_mapping.schema_name = "crm2";
    });
    const plan = await ws.ok(["plan", "-input=false", "-out=update.tfplan"]);
    expect(planned(plan.output, "will be updated in-place")).toEqual(ALL);
    expect(planCounts(plan.output)).toEqual({ import: 0, add: 0, change: 9, destroy: 0 });
    expect(plan.output).toMatch(/Warning: Changing table_mapping of table public\.customers drops the table/);
    const db = (await planJson(ws, "update.tfplan")).get("tsdb_service.db")!;
    // The VPC stays: the main and replica endpoints stay known; the pooler goes away.
    expect(db.after_unknown.hostname).toBeFalsy();
    expect(db.after_unknown.replica_hostname).toBeFalsy();
    expect(db.after!.pooler_hostname).toBeNull();
    await ws.ok(["apply", "-input=false", "update.tfplan"]);
    const clean = await ws.tf(["plan", "-input=false", "-detailed-exitcode"]);
    expect(clean.code, clean.output).toBe(0);
  });

  test("moving the stack to another region replaces every resource, in dependency order", async () => {
    ws.editJson(STACK, (c) => {
      const r = c.resource;
      r.containerbackup_restore_channel.prod_restores.location = "us-west1";
      r.tsdb_vpcs.main.region_code = "us-west-2";
      r.tsdb_log_exporter.logs.region = "us-west-2";
      r.tsdb_metric_exporter.metrics.region = "us-west-2";
      r.tsdb_service.db.region_code = "us-west-2";
    });
    const plan = await ws.ok(["plan", "-input=false", "-out=replace.tfplan"]);
    expect(planned(plan.output, "must be replaced")).toEqual(ALL);
    expect(planCounts(plan.output)).toEqual({ import: 0, add: 9, change: 0, destroy: 9 });
    const changes = await planJson(ws, "replace.tfplan");
    expect(changes.get("tsdb_vpcs.main")!.replace_paths).toEqual([["region_code"]]);
    expect(changes.get("tsdb_service.replica")!.replace_paths).toEqual([["read_replica_source"]]);
    expect(changes.get("tsdb_connector_obj_store.events")!.replace_paths).toEqual([["service_id"]]);
    expect(changes.get("tsdb_peering_connection.to_shared_services")!.replace_paths).toEqual([["platform_vpc_id"]]);
    const apply = await ws.ok(["apply", "-input=false", "replace.tfplan"]);
    expect(apply.output).toMatch(/Resources: 9 added, 0 changed, 9 destroyed/);
    expect(ws.state().get("tsdb_service.replica")!.region_code).toBe("us-west-2");
    const clean = await ws.tf(["plan", "-input=false", "-detailed-exitcode"]);
    expect(clean.code, clean.output).toBe(0);
  });

  test("objects deleted outside Terraform are planned again", async () => {
    const state = ws.state();
    const id = (address: string) => state.get(address)!.id as string;
    const p = suite.platform();
    await p.srcDbConnectors.delete(PROJECT, id("tsdb_connector_src_db.orders"));
    await p.objStoreConnectors.delete(PROJECT, id("tsdb_connector_obj_store.events"));
    await p.services.delete(PROJECT, id("tsdb_service.replica"));
    await p.services.delete(PROJECT, id("tsdb_service.db"));
    await p.peering.delete(PROJECT, undefined, id("tsdb_peering_connection.to_shared_services"));
    await p.vpcs.delete(PROJECT, id("tsdb_vpcs.main"));
    await p.logExporters.delete(PROJECT, id("tsdb_log_exporter.logs"));
    await p.metricExporters.delete(PROJECT, id("tsdb_metric_exporter.metrics"));
    const channel = await p.restoreChannels.get(id("containerbackup_restore_channel.prod_restores"));
    await p.restoreChannels.delete(channel.id, channel.etag);

    const plan = await ws.tf(["plan", "-input=false", "-detailed-exitcode", "-out=recreate.tfplan"]);
    expect(plan.code, plan.output).toBe(2);
    expect(planned(plan.output, "will be created")).toEqual(ALL);
    await ws.ok(["apply", "-input=false", "recreate.tfplan"]);
    const clean = await ws.tf(["plan", "-input=false", "-detailed-exitcode"]);
    expect(clean.code, clean.output).toBe(0);
  });

  test("import blocks adopt existing objects into the synthesized configuration; the next plan is clean", async () => {
    const state = ws.state();
    const ids: Record<string, string> = {};
    for (const address of ALL) ids[address] = String(state.get(address)!.id);
    ids["tsdb_vpcs.main"] = String(state.get("tsdb_vpcs.main")!.name); // by name
    const channel = state.get("containerbackup_restore_channel.prod_restores")!;
    ids["containerbackup_restore_channel.prod_restores"] = `${channel.location}/${channel.name}`; // project from the provider
    await ws.ok(["state", "rm", ...ALL]);
    ws.editJson(STACK, (c) => {
      c.import = Object.entries(ids).map(([to, id]) => ({ to, id }));
    });

    const plan = await ws.ok(["plan", "-input=false", "-out=import.tfplan"]);
    const changes = await planJson(ws, "import.tfplan");
    expect([...changes].filter(([, c]) => c.importing).map(([address]) => address).sort()).toEqual(ALL);
    expect(planCounts(plan.output)).toMatchObject({ import: 9, add: 0, destroy: 0 });
    // Only what an import cannot know is set again: the secrets the platform never returns, and
    // the service's client-side timeouts block.
    const updated = [...changes].filter(([, c]) => c.actions.includes("update")).map(([address]) => address).sort();
    expect(updated).toEqual(["tsdb_connector_src_db.orders", "tsdb_metric_exporter.metrics", "tsdb_service.db"]);
    const db = changes.get("tsdb_service.db")!;
    expect(Object.keys(db.after!).filter((k) => JSON.stringify(db.after![k]) !== JSON.stringify(db.before![k]))).toEqual(["timeouts"]);
    const apply = await ws.ok(["apply", "-input=false", "import.tfplan"]);
    expect(apply.output).toMatch(/Resources: 9 imported, 0 added, 3 changed, 0 destroyed/);
    const clean = await ws.tf(["plan", "-input=false", "-detailed-exitcode"]);
    expect(clean.code, clean.output).toBe(0);
  });

  test("schemaform down destroys everything up applied", async () => {
    const env = { ...suite.env };
    delete env.TF_CLI_CONFIG_FILE; // `down` uses the mirror `up` wrote
    // down takes the app directory as up does (it was refused as a positional argument)
    // as the hint says, through npx in the checkout (the bin must be executable there: scripts/build.mjs)
    const destroy = await runProcess("npx", ["--no-install", "schemaform", "down", join("examples", "stack"), "--out", outdir], { cwd: ROOT, env });
    expect(destroy.code, destroy.output).toBe(0);
    expect(destroy.output).toMatch(/Destroy complete! Resources: 9 destroyed/);
    const p = suite.platform();
    expect(await p.services.list(PROJECT)).toEqual([]);
    expect(await p.vpcs.list(PROJECT)).toEqual([]);
    expect(await p.restoreChannels.list(PROJECT)).toEqual([]);
  });
});
