// The whole lifecycle of every resource type, with real Terraform, from the hand-written
// examples/tf-json/platform/main.tf.json: create with every argument set, a clean second plan,
// in-place updates, replacements, out-of-band deletes, import through import blocks with
// -generate-config-out, and destroy. Scenarios share one terraform run where that stays clear.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { join } from "node:path";
import { ROOT, Suite, type Workspace, planCounts, planJson, planned } from "./support/harness.js";

const EXAMPLE = join(ROOT, "examples", "tf-json", "platform", "main.tf.json");
const PROJECT = "tfjson-project";
const ADMIN_PASSWORD = "example-only-admin-password";
const NEW_ADMIN_PASSWORD = "rotated-admin-password-2";

const ALL = [
  "containerbackup_restore_channel.restores",
  "tsdb_connector_obj_store.events_csv",
  "tsdb_connector_obj_store.metrics_parquet",
  "tsdb_connector_src_db.orders",
  "tsdb_log_exporter.audit_logs",
  "tsdb_log_exporter.logs",
  "tsdb_metric_exporter.cloudwatch",
  "tsdb_metric_exporter.datadog",
  "tsdb_metric_exporter.prometheus",
  "tsdb_peering_connection.to_shared",
  "tsdb_peering_connection.to_transit",
  "tsdb_service.legacy",
  "tsdb_service.primary",
  "tsdb_service.replica",
  "tsdb_vpcs.main",
].sort();

let suite: Suite;
let ws: Workspace;

beforeAll(async () => {
  suite = await Suite.create("tfjson");
  ws = suite.workspace("main");
  ws.copyFrom(EXAMPLE, "main.tf.json");
});

afterAll(async () => {
  if (suite) {
    process.stdout.write(`tf-json lifecycle: ${suite.summary()}\n`);
    await suite.dispose();
  }
});

describe("hand-written .tf.json: every resource through its lifecycle", () => {
  test("init and validate", async () => {
    const init = await ws.ok(["init", "-input=false"]);
    expect(init.output).toMatch(/Installed schemaform\/tsdb v0\.1\.0/);
    expect(init.output).toMatch(/Installed schemaform\/containerbackup v0\.1\.0/);
    const validate = await ws.ok(["validate"]);
    expect(validate.output).toMatch(/The configuration is valid/);
    // Deprecated arguments warn, on their line.
    expect(validate.output).toMatch(/storage_gb is deprecated/);
  });

  test("create with every argument set; the second plan is clean; password_wo is nowhere", async () => {
    const plan = await ws.ok(["plan", "-input=false", "-out=create.tfplan"]);
    expect(planned(plan.output, "will be created")).toEqual(ALL);
    expect(plan.output).toMatch(/password_wo\s+= \(write-only attribute\)/);
    // A new service starts with its log exporter attached: no restart note.
    expect(plan.output).not.toMatch(/logs flow only after the service restarts/);
    const changes = await planJson(ws, "create.tfplan");
    // Known at plan time: the label trio, the peering type, the exporter type, endpoints that
    // will not exist, a replica's (absent) password.
    const channelPlan = changes.get("containerbackup_restore_channel.restores")!;
    const labels = { environment: "prod", team: "data", managed_by: "terraform" };
    expect(channelPlan.after!.tool_labels).toEqual(labels);
    expect(channelPlan.after!.effective_labels).toEqual(labels);
    expect(channelPlan.after!.project).toBe(PROJECT);
    expect(changes.get("tsdb_peering_connection.to_transit")!.after).toMatchObject({ peering_type: "tgw", peer_cidr: "deprecated" });
    expect(changes.get("tsdb_peering_connection.to_shared")!.after).toMatchObject({ peering_type: "vpc" });
    expect(changes.get("tsdb_metric_exporter.datadog")!.after!.type).toBe("saasmon");
    // a pullmon exporter's scrape URL is known after create; the other types have none
    expect(changes.get("tsdb_metric_exporter.prometheus")!.after_unknown.endpoint).toBe(true);
    expect(changes.get("tsdb_metric_exporter.datadog")!.after!.endpoint).toBeNull();
    const primaryPlan = changes.get("tsdb_service.primary")!;
    expect(primaryPlan.after!.password).toBeNull();
    expect(primaryPlan.after!.password_wo).toBeNull();
    expect(primaryPlan.after_unknown).toMatchObject({ hostname: true, pooler_hostname: true, replica_hostname: true });
    const legacyPlan = changes.get("tsdb_service.legacy")!;
    expect(legacyPlan.after!.pooler_hostname).toBeNull();
    expect(legacyPlan.after_unknown.pooler_hostname).toBeFalsy();
    const replicaPlan = changes.get("tsdb_service.replica")!;
    expect(replicaPlan.after).toMatchObject({ password: null, read_replica_nodes: 2, replica_hostname: null, pooler_hostname: null });
    expect(replicaPlan.after_unknown.password).toBeFalsy();

    const apply = await ws.ok(["apply", "-input=false", "create.tfplan"]);
    expect(apply.output).toMatch(/Apply complete! Resources: 15 added, 0 changed, 0 destroyed/);

    const state = ws.state();
    expect([...state.keys()].sort()).toEqual(ALL);
    const primary = state.get("tsdb_service.primary")!;
    expect(primary.password).toBeNull();
    expect(primary.password_wo).toBeNull();
    expect(primary.pooler_hostname).toMatch(/-pooler\./);
    expect(primary.replica_hostname).toMatch(/-repl\./);
    expect(state.get("tsdb_service.legacy")!.paused).toBe(true);
    expect(state.get("tsdb_service.replica")!.read_replica_source).toBe(primary.id);
    expect(state.get("tsdb_service.replica")!.password).toBeNull();
    const channel = state.get("containerbackup_restore_channel.restores")!;
    expect(channel.destination_project_id).toBe("project-123456789012");
    expect(channel.effective_labels).toEqual({ environment: "prod", team: "data", managed_by: "terraform" });
    expect(state.get("tsdb_connector_src_db.orders")!.ssh_tunnel.public_key).toMatch(/^ssh-ed25519 AAAA/);
    expect(state.get("tsdb_peering_connection.to_transit")!.accepter_provisioned_id).toMatch(/^tgw-attach-/);
    expect(state.get("tsdb_peering_connection.to_shared")!.provisioned_id).toMatch(/^pcx-/);
    expect(state.get("tsdb_metric_exporter.prometheus")!.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(state.get("tsdb_metric_exporter.cloudwatch")!.endpoint).toBeNull();

    // The write-only password reached the platform but neither state nor the platform's files.
    expect(await suite.platform().services.checkPassword(PROJECT, primary.id, ADMIN_PASSWORD)).toBe(true);
    expect(ws.read("terraform.tfstate")).not.toContain(ADMIN_PASSWORD);
    expect(suite.platformBytes().includes(ADMIN_PASSWORD)).toBe(false);
    // Other secrets are kept by the platform, encrypted, never in plaintext.
    expect(suite.platformBytes().includes("example-only-datadog-api-key")).toBe(false);
    expect(suite.platformBytes().includes("example-only@source.internal")).toBe(false);

    const second = await ws.tf(["plan", "-input=false", "-detailed-exitcode"]);
    expect(second.code, second.output).toBe(0);
    expect(second.output).toMatch(/No changes/);
  });

  test("in-place update of every resource; computed values unknown only where they change", async () => {
    ws.editJson("main.tf.json", (c) => {
      c.variable.admin_password.default = NEW_ADMIN_PASSWORD;
      c.variable.admin_password_version.default = 2;
      c.variable.legacy_password.default = "rotated-legacy-password";
      c.variable.log_writer_secret.default = "rotated-secret-key-0123456789abcdefghijkl";
      const r = c.resource;
      const channel = r.containerbackup_restore_channel.restores;
      channel.description = "Restores go to the recovery project.";
      channel.labels = { environment: "staging", owner: "dba" };
      r.tsdb_vpcs.main.name = "main-vpc-renamed";
      r.tsdb_peering_connection.to_shared.peer_cidr_blocks = ["172.31.0.0/16", "172.30.0.0/16"];
      r.tsdb_peering_connection.to_transit.peer_cidr_blocks = ["192.168.10.0/24"];
      r.tsdb_log_exporter.logs.cloudmon.log_stream_name = "primary-v2";
      r.tsdb_log_exporter.audit_logs.name = "audit-logs-v2";
      r.tsdb_metric_exporter.datadog.saasmon.site = "datadoghq.eu";
      r.tsdb_metric_exporter.prometheus.pullmon.username = "scraper2";
      r.tsdb_metric_exporter.cloudwatch.cloudmon.namespace = "TSDB/App2";
      const primary = r.tsdb_service.primary;
      Object.assign(primary, { name: "orders-db-v2", milli_cpu: 2000, memory_gb: 8, connection_pooler_enabled: false, ha_replicas: 1, sync_replicas: 0, environment_tag: "DEV" });
      delete primary.vpc_id; // detach: hostname and port change
      r.tsdb_service.replica.read_replica_nodes = 3;
      const legacy = r.tsdb_service.legacy;
      legacy.paused = false;
      delete legacy.storage_gb;
      delete legacy.enable_ha_replica;
      r.tsdb_connector_obj_store.events_csv.frequency = "@daily";
      r.tsdb_connector_obj_store.events_csv.definition.csv.delimiter = ",";
      r.tsdb_connector_obj_store.metrics_parquet.enabled = true;
      const orders = r.tsdb_connector_src_db.orders;
      orders.display_name = "Orders replication v2";
      orders.table_sync_workers = 3;
      orders.ssh_tunnel.port = 2222;
      orders.tables[1].publication_name = "crm_pub";
      orders.tables.push({ schema_name: "public", table_name: "invoices" });
    });
    const plan = await ws.ok(["plan", "-input=false", "-out=update.tfplan"]);
    expect(planned(plan.output, "will be updated in-place")).toEqual(ALL);
    expect(planCounts(plan.output)).toEqual({ import: 0, add: 0, change: 15, destroy: 0 });
    // Re-sync warning for the table whose publication changed.
    expect(plan.output).toMatch(/Warning: Changing publication_name of table public\.customers drops the table/);
    const changes = await planJson(ws, "update.tfplan");
    const primaryPlan = changes.get("tsdb_service.primary")!;
    // The VPC is detached: every endpoint moves; the pooler is switched off: no pooler endpoint.
    expect(primaryPlan.after_unknown).toMatchObject({ hostname: true, port: true, replica_hostname: true, replica_port: true });
    expect(primaryPlan.after!.pooler_hostname).toBeNull();
    expect(primaryPlan.after_unknown.username).toBeFalsy();
    // Resumed and given a new password, but no endpoint input changed: endpoints stay known.
    const legacyPlan = changes.get("tsdb_service.legacy")!;
    for (const name of ["hostname", "port", "replica_hostname", "replica_port", "pooler_hostname"]) expect(legacyPlan.after_unknown[name], name).toBeFalsy();
    expect(legacyPlan.after!.hostname).toBe(legacyPlan.before!.hostname);
    const vpcPlan = changes.get("tsdb_vpcs.main")!;
    expect(vpcPlan.after_unknown).toMatchObject({ updated: true });
    expect(vpcPlan.after_unknown.created).toBeFalsy();
    expect(vpcPlan.after_unknown.provisioned_id).toBeFalsy();
    const channelPlan = changes.get("containerbackup_restore_channel.restores")!;
    expect(channelPlan.after!.tool_labels).toEqual({ environment: "staging", owner: "dba", managed_by: "terraform" });
    expect(channelPlan.after_unknown).toMatchObject({ effective_labels: true, etag: true });
    expect(channelPlan.after_unknown.uid).toBeFalsy();
    const ordersPlan = changes.get("tsdb_connector_src_db.orders")!;
    expect(ordersPlan.after_unknown.status).toBeFalsy();
    expect(ordersPlan.after!.ssh_tunnel.public_key).toBe(ordersPlan.before!.ssh_tunnel.public_key);
    for (const address of ["tsdb_log_exporter.logs", "tsdb_metric_exporter.datadog"]) expect(changes.get(address)!.after_unknown.created).toBeFalsy();
    // the pullmon endpoint stays where it is through an update
    const prometheusPlan = changes.get("tsdb_metric_exporter.prometheus")!;
    expect(prometheusPlan.after_unknown.endpoint).toBeFalsy();
    expect(prometheusPlan.after!.endpoint).toBe(prometheusPlan.before!.endpoint);

    const apply = await ws.ok(["apply", "-input=false", "update.tfplan"]);
    expect(apply.output).toMatch(/Resources: 0 added, 15 changed, 0 destroyed/);
    const state = ws.state();
    const primary = state.get("tsdb_service.primary")!;
    expect(primary.pooler_hostname).toBeNull();
    expect(primary.vpc_id).toBeNull();
    expect(primary.hostname).not.toMatch(/\.vpc\./);
    expect(state.get("tsdb_service.legacy")!.paused).toBe(false);
    expect(state.get("containerbackup_restore_channel.restores")!.effective_labels).toEqual({ environment: "staging", owner: "dba", managed_by: "terraform" });
    const platform = suite.platform();
    expect(await platform.services.checkPassword(PROJECT, primary.id, NEW_ADMIN_PASSWORD)).toBe(true);
    expect(await platform.services.checkPassword(PROJECT, primary.id, ADMIN_PASSWORD)).toBe(false);
    const legacy = state.get("tsdb_service.legacy")!;
    expect(await platform.services.checkPassword(PROJECT, legacy.id, "rotated-legacy-password")).toBe(true);
    const resyncs = await platform.events.list(PROJECT, { resourceId: state.get("tsdb_connector_src_db.orders")!.id, kind: "table_resync" });
    expect(resyncs).toHaveLength(1);

    const second = await ws.tf(["plan", "-input=false", "-detailed-exitcode"]);
    expect(second.code, second.output).toBe(0);
    expect(ws.read("terraform.tfstate")).not.toContain(NEW_ADMIN_PASSWORD);
  });

  test("force-new arguments plan a replacement (never an apply-time error)", async () => {
    ws.editJson("main.tf.json", (c) => {
      const r = c.resource;
      r.containerbackup_restore_channel.restores.location = "europe-west1";
      r.tsdb_vpcs.main.cidr = "10.30.0.0/16"; // its peerings follow (platform_vpc_id)
      r.tsdb_log_exporter.audit_logs.region = "us-west-2";
      r.tsdb_metric_exporter.datadog.region = "eu-west-1";
      r.tsdb_service.legacy.region_code = "eu-west-2";
      r.tsdb_service.replica.read_replica_source = "${tsdb_service.legacy.id}";
      r.tsdb_connector_obj_store.events_csv.service_id = "${tsdb_service.legacy.id}";
      r.tsdb_connector_obj_store.metrics_parquet.service_id = "${tsdb_service.legacy.id}";
      r.tsdb_connector_src_db.orders.service_id = "${tsdb_service.legacy.id}";
    });
    const plan = await ws.ok(["plan", "-input=false", "-out=replace.tfplan"]);
    const replaced = ALL.filter((a) => !["tsdb_log_exporter.logs", "tsdb_metric_exporter.cloudwatch", "tsdb_metric_exporter.prometheus", "tsdb_service.primary"].includes(a));
    expect(planned(plan.output, "must be replaced")).toEqual(replaced);
    expect(planCounts(plan.output)).toEqual({ import: 0, add: 11, change: 0, destroy: 11 });
    const changes = await planJson(ws, "replace.tfplan");
    expect(changes.get("tsdb_vpcs.main")!.replace_paths).toEqual([["cidr"]]);
    expect(changes.get("containerbackup_restore_channel.restores")!.replace_paths).toEqual([["location"]]);
    expect(changes.get("tsdb_service.legacy")!.replace_paths).toEqual([["region_code"]]);
    expect(changes.get("tsdb_log_exporter.audit_logs")!.replace_paths).toEqual([["region"]]);
    expect(changes.get("tsdb_connector_src_db.orders")!.replace_paths).toEqual([["service_id"]]);

    const apply = await ws.ok(["apply", "-input=false", "replace.tfplan"]);
    expect(apply.output).toMatch(/Resources: 11 added, 0 changed, 11 destroyed/);
    const state = ws.state();
    expect(state.get("tsdb_service.replica")!.region_code).toBe("eu-west-2");
    expect(state.get("tsdb_service.replica")!.read_replica_source).toBe(state.get("tsdb_service.legacy")!.id);

    const second = await ws.tf(["plan", "-input=false", "-detailed-exitcode"]);
    expect(second.code, second.output).toBe(0);
  });

  test("objects deleted outside Terraform leave state on refresh and are planned again", async () => {
    const state = ws.state();
    const p = suite.platform();
    const id = (address: string) => state.get(address)!.id as string;
    const channel = await p.restoreChannels.get(id("containerbackup_restore_channel.restores"));
    await p.restoreChannels.delete(channel.id, channel.etag);
    await p.srcDbConnectors.delete(PROJECT, id("tsdb_connector_src_db.orders"));
    await p.objStoreConnectors.delete(PROJECT, id("tsdb_connector_obj_store.events_csv"));
    await p.objStoreConnectors.delete(PROJECT, id("tsdb_connector_obj_store.metrics_parquet"));
    await p.services.delete(PROJECT, id("tsdb_service.replica"));
    await p.services.delete(PROJECT, id("tsdb_service.legacy"));
    for (const name of ["to_shared", "to_transit"]) await p.peering.delete(PROJECT, undefined, id(`tsdb_peering_connection.${name}`));
    await p.vpcs.delete(PROJECT, id("tsdb_vpcs.main"));
    await p.logExporters.delete(PROJECT, id("tsdb_log_exporter.audit_logs"));
    await p.metricExporters.delete(PROJECT, id("tsdb_metric_exporter.datadog"));
    await p.metricExporters.delete(PROJECT, id("tsdb_metric_exporter.cloudwatch"));
    const gone = ALL.filter((a) => !["tsdb_log_exporter.logs", "tsdb_metric_exporter.prometheus", "tsdb_service.primary"].includes(a));

    const plan = await ws.tf(["plan", "-input=false", "-detailed-exitcode", "-out=recreate.tfplan"]);
    expect(plan.code, plan.output).toBe(2);
    expect(planned(plan.output, "will be created")).toEqual(gone);
    expect(planCounts(plan.output)).toEqual({ import: 0, add: 12, change: 0, destroy: 0 });
    await ws.ok(["apply", "-input=false", "recreate.tfplan"]);
    const second = await ws.tf(["plan", "-input=false", "-detailed-exitcode"]);
    expect(second.code, second.output).toBe(0);
  });

  test("import through import blocks: -generate-config-out, apply, clean plan", async () => {
    const state = ws.state();
    const imported = suite.workspace("imported");
    const source = ws.readJson("main.tf.json");
    const attr = (address: string, name: string) => String(state.get(address)![name]);
    const ids: Record<string, string> = {};
    for (const address of ALL) ids[address] = attr(address, "id");
    // Every import format at least once.
    ids["containerbackup_restore_channel.restores"] = `${attr("containerbackup_restore_channel.restores", "location")}/${attr("containerbackup_restore_channel.restores", "name")}`;
    ids["tsdb_vpcs.main"] = attr("tsdb_vpcs.main", "name");
    ids["tsdb_peering_connection.to_shared"] = `${attr("tsdb_peering_connection.to_shared", "peering_connection_id")},${attr("tsdb_vpcs.main", "vpcs_id")}`;
    ids["tsdb_connector_src_db.orders"] = `${attr("tsdb_connector_src_db.orders", "service_id")}:${attr("tsdb_connector_src_db.orders", "id")}`;
    ids["tsdb_connector_obj_store.events_csv"] = `${attr("tsdb_connector_obj_store.events_csv", "service_id")}:${attr("tsdb_connector_obj_store.events_csv", "id")}`;
    imported.writeJson("main.tf.json", {
      terraform: { required_providers: source.terraform.required_providers },
      provider: source.provider,
      import: Object.entries(ids).map(([to, id]) => ({ to, id })),
    });
    await imported.ok(["init", "-input=false"]);
    // Terraform writes the configuration, then validates it: the secrets the platform never
    // returns are written as `null # sensitive`, and the required ones are reported missing.
    const plan = await imported.tf(["plan", "-input=false", "-generate-config-out=generated.tf"]);
    const errors = [...plan.output.matchAll(/^Error: (.*)$/gm)].map((m) => m[1]).sort();
    expect(errors).toEqual([
      "cloudmon: access_key and secret_key must be set together",
      "connection_string is required",
      "password_wo_version requires password_wo: the version only triggers setting the write-only password",
      "pullmon.password is required",
      "saasmon.api_key is required",
    ]);
    let generated = imported.read("generated.tf");
    expect(generated).not.toContain(NEW_ADMIN_PASSWORD);
    generated = fillSecret(generated, "tsdb_connector_src_db", "orders", "connection_string", source.variable.source_db_url.default);
    generated = fillSecret(generated, "tsdb_metric_exporter", "datadog", "api_key", source.variable.datadog_api_key.default);
    generated = fillSecret(generated, "tsdb_metric_exporter", "prometheus", "password", source.variable.scrape_password.default);
    generated = fillSecret(generated, "tsdb_log_exporter", "audit_logs", "secret_key", source.variable.log_writer_secret.default);
    generated = fillSecret(generated, "tsdb_service", "primary", "password_wo", NEW_ADMIN_PASSWORD);
    imported.write("generated.tf", generated);
    await imported.ok(["plan", "-input=false", "-out=import.tfplan"]);
    const importing = await planJson(imported, "import.tfplan");
    expect([...importing].filter(([, c]) => c.importing).map(([address]) => address).sort()).toEqual(ALL);
    // Only the secrets the import could not know change (the values just filled in).
    const updated = [...importing].filter(([, c]) => c.actions.includes("update")).map(([address]) => address).sort();
    expect(updated).toEqual(["tsdb_connector_src_db.orders", "tsdb_log_exporter.audit_logs", "tsdb_metric_exporter.datadog", "tsdb_metric_exporter.prometheus"]);

    const apply = await imported.ok(["apply", "-input=false", "import.tfplan"]);
    expect(apply.output).toMatch(/Apply complete! Resources: 15 imported, 0 added, \d+ changed, 0 destroyed/);
    const clean = await imported.tf(["plan", "-input=false", "-detailed-exitcode"]);
    expect(clean.code, clean.output).toBe(0);
    // The imported channel's labels split as the original's did (no tool_labels diff).
    expect(imported.state().get("containerbackup_restore_channel.restores")!.labels).toEqual({ environment: "staging", owner: "dba" });
  });

  test("destroy removes everything from the platform", async () => {
    const destroy = await ws.ok(["destroy", "-input=false", "-auto-approve"]);
    expect(destroy.output).toMatch(/Destroy complete! Resources: 15 destroyed/);
    const p = suite.platform();
    expect(await p.services.list(PROJECT)).toEqual([]);
    expect(await p.vpcs.list(PROJECT)).toEqual([]);
    expect(await p.logExporters.list(PROJECT)).toEqual([]);
    expect(await p.metricExporters.list(PROJECT)).toEqual([]);
    expect(await p.objStoreConnectors.list(PROJECT)).toEqual([]);
    expect(await p.srcDbConnectors.list(PROJECT)).toEqual([]);
    expect(await p.restoreChannels.list(PROJECT)).toEqual([]);
  });
});

/** Replaces `name = null # sensitive` inside one resource block of generated HCL. */
function fillSecret(hcl: string, type: string, name: string, attribute: string, value: string): string {
  const header = `resource "${type}" "${name}" {`;
  const start = hcl.indexOf(header);
  if (start < 0) throw new Error(`${header} not in generated config:\n${hcl}`);
  const end = hcl.indexOf("\nresource ", start + 1);
  const block = hcl.slice(start, end < 0 ? undefined : end);
  const re = new RegExp(`(\\b${attribute}\\s*=\\s*)null # sensitive$`, "m");
  if (!re.test(block)) throw new Error(`no sensitive ${attribute} in ${type}.${name}:\n${block}`);
  return hcl.slice(0, start) + block.replace(re, `$1${JSON.stringify(value)}`) + (end < 0 ? "" : hcl.slice(end));
}
