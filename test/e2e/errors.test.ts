// Bad input gets a clear error naming where and what, before anything is changed when possible:
// `terraform validate` rejects a bad configuration with our messages on the right lines; plan
// rejects what only the platform can know (exporter region, hypertable changes); imports with an
// unknown format or a missing object fail clearly; a stale etag is a conflict, not an overwrite;
// a missing project is a configure error; a create that fails after the object exists keeps it
// in state as tainted instead of orphaning it.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Suite, type Workspace, planJson } from "./support/harness.js";

const PROJECT = "errors-project";

const PROVIDERS = {
  terraform: {
    required_providers: {
      tsdb: { source: "schemaform/tsdb", version: "0.1.0" },
      containerbackup: { source: "schemaform/containerbackup", version: "0.1.0" },
    },
  },
  provider: { tsdb: { project_id: PROJECT }, containerbackup: { project: PROJECT } },
};

function base(): Record<string, any> {
  return {
    ...PROVIDERS,
    resource: {
      containerbackup_restore_channel: {
        ch: { name: "errors-channel", location: "us-central1", destination_project: "projects/errors-target", labels: { tier: "gold" } },
      },
      tsdb_log_exporter: {
        near: { region: "us-east-1", cloudmon: { region: "us-east-1", log_group_name: "/g", log_stream_name: "s", role_arn: "arn:aws:iam::123456789012:role/w" } },
        far: { region: "eu-west-1", cloudmon: { region: "eu-west-1", log_group_name: "/g", log_stream_name: "s", role_arn: "arn:aws:iam::123456789012:role/w" } },
      },
      tsdb_service: { svc: { name: "errors-db", region_code: "us-east-1" } },
      tsdb_connector_src_db: {
        conn: {
          service_id: "${tsdb_service.svc.id}",
          display_name: "conn",
          connection_string: "postgres://u:example-only@db.internal:5432/app",
          tables: [
            { schema_name: "public", table_name: "events", hypertable_spec: { primary_dimension: { column_name: "time", partition_interval: "1d" } } },
          ],
        },
      },
    },
  };
}

/** Terraform wraps diagnostic details at 80 columns: compare with whitespace collapsed. */
function flat(text: string): string {
  return text.replace(/\s+/g, " ");
}

/** 1-based line of the first line of `text` containing `needle` (after `after`, when given). */
function lineOf(text: string, needle: string, after?: string): number {
  const lines = text.split("\n");
  const start = after ? lines.findIndex((l) => l.includes(after)) : 0;
  const index = lines.findIndex((l, i) => i >= start && l.includes(needle));
  if (index < 0) throw new Error(`${needle} not found`);
  return index + 1;
}

let suite: Suite;
let ws: Workspace;

beforeAll(async () => {
  suite = await Suite.create("errors");
  ws = suite.workspace("main");
  ws.writeJson("main.tf.json", base());
  await ws.ok(["init", "-input=false"]);
});

afterAll(async () => {
  if (suite) {
    process.stdout.write(`errors: ${suite.summary()}\n`);
    await suite.dispose();
  }
});

describe("errors are clear, located, and leave nothing half-done", () => {
  test("terraform validate rejects a bad configuration with our messages on the right lines", async () => {
    const bad = suite.workspace("bad");
    const config = {
      ...PROVIDERS,
      resource: {
        tsdb_service: { pair: { milli_cpu: 1000, memory_gb: 2 } },
        containerbackup_restore_channel: {
          named: { name: "Bad_Name", location: "us-central1", destination_project: "projects/x" },
          // labels within GCP's rules, and text without control characters: refused before apply
          labelled: { location: "us-central1", destination_project: "projects/errors-target", labels: { "": "empty-key", Team: "a" }, description: "rings\u0007the bell" },
        },
        tsdb_peering_connection: {
          both: { platform_vpc_id: 1, peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_vpc_id: "vpc-0a1b2c3d4e5f67890", peer_tgw_id: "tgw-0123456789abcdef0" },
        },
        tsdb_metric_exporter: { none: { region: "us-east-1" } },
      },
    };
    bad.writeJson("main.tf.json", config);
    const text = bad.read("main.tf.json");
    await bad.ok(["init", "-input=false"]);
    const result = await bad.tf(["validate", "-json"]);
    expect(result.code).toBe(1);
    const diagnostics = (JSON.parse(result.stdout) as { diagnostics: Array<{ severity: string; summary: string; range?: { filename: string; start: { line: number } } }> }).diagnostics;
    const at = (fragment: string) => diagnostics.find((d) => d.summary.includes(fragment));

    const pair = at("milli_cpu must equal 250 × memory_gb");
    expect(pair?.severity).toBe("error");
    expect(pair?.range?.filename).toBe("main.tf.json");
    expect(pair?.range?.start.line).toBe(lineOf(text, '"milli_cpu": 1000'));

    const named = diagnostics.find((d) => d.range && d.range.start.line === lineOf(text, '"name": "Bad_Name"'));
    expect(named?.summary).toMatch(/name/);

    const both = at("exactly one of peer_vpc_id and peer_tgw_id must be set");
    expect(both?.range?.start.line).toBeGreaterThanOrEqual(lineOf(text, '"both"'));
    expect(at("exactly one of saasmon, pullmon and cloudmon must be set")).toBeDefined();
    expect(at("labels has an empty key; a key must be at least 1 character long")?.severity).toBe("error");
    expect(at('labels key "Team" must start with a lowercase letter')?.severity).toBe("error");
    expect(at("description must not contain control characters")?.summary).toContain('got "rings\\u0007the bell"');

    // The same with the human-readable output: the message, the address and the source line.
    const human = await bad.tf(["validate"]);
    expect(human.output).toMatch(/Error: milli_cpu must equal 250 × memory_gb[\s\S]*with tsdb_service\.pair,\s+on main\.tf\.json line \d+, in resource\.tsdb_service\.pair:\s+\d+:\s+"milli_cpu": 1000/);
  });

  test("a configuration with no project fails at configure, naming both ways to give one", async () => {
    const noProject = suite.workspace("no-project");
    noProject.writeJson("main.tf.json", { ...PROVIDERS, provider: { tsdb: {} }, data: { tsdb_vpcs: { all: {} } } });
    await noProject.ok(["init", "-input=false"]);
    const plan = await noProject.tf(["plan", "-input=false"]);
    expect(plan.code).toBe(1);
    expect(plan.output).toMatch(/Error: Missing project_id/);
    expect(plan.output).toMatch(/TSDB_PROJECT_ID/);
    const fromEnv = await noProject.tf(["plan", "-input=false"], { TSDB_PROJECT_ID: PROJECT });
    expect(fromEnv.code, fromEnv.output).toBe(0);
  });

  test("rules that need the platform are checked at plan time, on the right line", async () => {
    await ws.ok(["apply", "-input=false", "-auto-approve"]);

    // Attaching an exporter of another region.
    ws.editJson("main.tf.json", (c) => {
      c.resource.tsdb_service.svc.log_exporter_id = "${tsdb_log_exporter.far.id}";
    });
    let plan = await ws.tf(["plan", "-input=false"]);
    expect(plan.code).toBe(1);
    expect(plan.output).toMatch(/Error: The log exporter is in another region/);
    expect(flat(plan.output)).toMatch(/log exporter [0-9a-f-]+ is in eu-west-1, but the service is in us-east-1/);
    expect(plan.output).toContain(`on main.tf.json line ${lineOf(ws.read("main.tf.json"), '"log_exporter_id"')}`);

    // A new service that leaves region_code out is in us-east-1: the same check, before it is created.
    ws.editJson("main.tf.json", (c) => {
      delete c.resource.tsdb_service.svc.log_exporter_id;
      c.resource.tsdb_service.plain = { name: "errors-plain", log_exporter_id: "${tsdb_log_exporter.far.id}" };
    });
    plan = await ws.tf(["plan", "-input=false"]);
    expect(plan.code).toBe(1);
    expect(flat(plan.output)).toMatch(/log exporter [0-9a-f-]+ is in eu-west-1, but the service is in us-east-1/);
    ws.editJson("main.tf.json", (c) => {
      delete c.resource.tsdb_service.plain;
    });

    // The same region works, and warns that a restart completes it.
    ws.editJson("main.tf.json", (c) => {
      c.resource.tsdb_service.svc.log_exporter_id = "${tsdb_log_exporter.near.id}";
    });
    plan = await ws.ok(["plan", "-input=false"]);
    expect(flat(plan.output)).toMatch(/Warning: Attaching a log exporter to a running service: logs flow only after the service restarts, which an update does not do\. To restart it, pause the service \(set paused = true and apply\)/);

    // A VPC of another region: refused at plan, before anything is created.
    ws.editJson("main.tf.json", (c) => {
      c.resource.tsdb_vpcs = { west: { cidr: "10.50.0.0/16", region_code: "eu-west-1" } };
    });
    await ws.ok(["apply", "-input=false", "-auto-approve"]);
    ws.editJson("main.tf.json", (c) => {
      c.resource.tsdb_service.svc.vpc_id = "${tsdb_vpcs.west.vpcs_id}";
    });
    plan = await ws.tf(["plan", "-input=false"]);
    expect(plan.code).toBe(1);
    expect(plan.output).toMatch(/Error: The VPC is in another region/);
    expect(flat(plan.output)).toMatch(/VPC \d+ is in eu-west-1, but the service is in us-east-1/);
    ws.editJson("main.tf.json", (c) => {
      delete c.resource.tsdb_service.svc.vpc_id;
      delete c.resource.tsdb_vpcs;
    });
    await ws.ok(["apply", "-input=false", "-auto-approve"]);

    // Changing the hypertable_spec of a table the connector already has.
    ws.editJson("main.tf.json", (c) => {
      c.resource.tsdb_connector_src_db.conn.tables[0].hypertable_spec.primary_dimension.partition_interval = "7d";
    });
    plan = await ws.tf(["plan", "-input=false"]);
    expect(plan.code).toBe(1);
    expect(plan.output).toMatch(/Error: hypertable_spec of table public\.events cannot change/);
    expect(plan.output).toContain(`on main.tf.json line ${lineOf(ws.read("main.tf.json"), '"partition_interval": "7d"')}`);
    ws.writeJson("main.tf.json", base());
  });

  test("a stale etag is a conflict: nothing is overwritten", async () => {
    ws.editJson("main.tf.json", (c) => {
      c.resource.containerbackup_restore_channel.ch.description = "mine";
    });
    await ws.ok(["plan", "-input=false", "-out=stale.tfplan"]);
    // Someone else changes the channel between our plan and our apply.
    const p = suite.platform();
    const id = ws.state().get("containerbackup_restore_channel.ch")!.id as string;
    const current = await p.restoreChannels.get(id);
    await p.restoreChannels.update(id, { description: "theirs" }, current.etag);

    const apply = await ws.tf(["apply", "-input=false", "stale.tfplan"]);
    expect(apply.code).toBe(1);
    expect(apply.output).toMatch(/Error: Restore channel changed since Terraform read it/);
    expect(flat(apply.output)).toMatch(/Nothing was changed/);
    expect((await p.restoreChannels.get(id)).description).toBe("theirs");

    // A fresh plan sees their change and applies ours over it knowingly.
    const again = await ws.ok(["apply", "-input=false", "-auto-approve"]);
    expect(again.output).toMatch(/description\s+= "theirs" -> "mine"/);
    expect((await p.restoreChannels.get(id)).description).toBe("mine");
    ws.writeJson("main.tf.json", base());
    await ws.ok(["apply", "-input=false", "-auto-approve"]);
  });

  test("import: an identifier in no accepted format, and one that does not exist", async () => {
    const imports = suite.workspace("imports");
    imports.writeJson("main.tf.json", {
      ...PROVIDERS,
      import: [{ to: "tsdb_peering_connection.p", id: "not-a-peering" }],
      resource: { tsdb_peering_connection: { p: { platform_vpc_id: 1, peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_vpc_id: "vpc-0a1b2c3d4e5f67890" } } },
    });
    await imports.ok(["init", "-input=false"]);
    let plan = await imports.tf(["plan", "-input=false"]);
    expect(plan.code).toBe(1);
    expect(plan.output).toMatch(/Error: Invalid import identifier for tsdb_peering_connection/);
    expect(flat(plan.output)).toMatch(/Import id "not-a-peering" doesn't match any of the accepted formats: \{peering_connection_id\},\{platform_vpc_id\}, \{id\}/);

    imports.editJson("main.tf.json", (c) => {
      c.import = [{ to: "tsdb_service.s", id: "nosuchsvc1" }];
      c.resource = { tsdb_service: { s: {} } };
    });
    plan = await imports.tf(["plan", "-input=false"]);
    expect(plan.code).toBe(1);
    expect(plan.output).toMatch(/Error: Cannot import non-existent remote object/);
  });

  test("a create that fails after the object exists keeps it in state (tainted), never orphaned", async () => {
    ws.editJson("main.tf.json", (c) => {
      c.resource.tsdb_service.slow = { name: "slow-db", timeouts: { create: "1s" } };
    });
    // Transitions of 30 s: the 1 s create timeout runs out while the service is configuring.
    const apply = await ws.tf(["apply", "-input=false", "-auto-approve"], { SCHEMAFORM_TRANSITION_SECONDS: "30" });
    expect(apply.code).toBe(1);
    expect(apply.output).toMatch(/Error: Timed out waiting for service [a-z0-9]+/);
    expect(flat(apply.output)).toMatch(/kept in state as tainted/);
    const slow = ws.state().get("tsdb_service.slow")!;
    const services = await suite.platform().services.list(PROJECT);
    expect(services.map((s) => s.id)).toContain(slow.id);

    await ws.ok(["plan", "-input=false", "-out=taint.tfplan"]);
    const changes = await planJson(ws, "taint.tfplan");
    expect(changes.get("tsdb_service.slow")!.actions).toEqual(["delete", "create"]);
    ws.writeJson("main.tf.json", base());
    const destroy = await ws.ok(["destroy", "-input=false", "-auto-approve"]);
    expect(destroy.output).toMatch(/Destroy complete!/);
    expect(await suite.platform().services.list(PROJECT)).toEqual([]);
  });

  test("replacing a VPC that services use: plan says why destroy-first fails and which lifecycle works; with it, the services move and nothing is lost", async () => {
    ws.editJson("main.tf.json", (c) => {
      c.resource.tsdb_vpcs = { net: { name: "errors-net", cidr: "10.40.0.0/16", region_code: "us-east-1" } };
      c.resource.tsdb_service.svc.vpc_id = "${tsdb_vpcs.net.vpcs_id}";
    });
    await ws.ok(["apply", "-input=false", "-auto-approve"]);
    const oldVpc = Number(ws.state().get("tsdb_vpcs.net")!.vpcs_id);

    ws.editJson("main.tf.json", (c) => {
      c.resource.tsdb_vpcs.net.cidr = "10.41.0.0/16";
    });
    const plan = await ws.ok(["plan", "-input=false"]);
    expect(flat(plan.output)).toMatch(/Warning: Changing cidr replaces VPC \d+, which service [a-z0-9]+ uses\./);
    expect(flat(plan.output)).toMatch(/Add lifecycle \{ create_before_destroy = true \} to this VPC .* so also change or remove name \("errors-net"\)/);

    ws.editJson("main.tf.json", (c) => {
      c.resource.tsdb_vpcs.net = { cidr: "10.41.0.0/16", region_code: "us-east-1", lifecycle: { create_before_destroy: true } };
    });
    // Done what the warning says: it is not given again, at plan or at apply.
    const followed = await ws.ok(["plan", "-input=false"]);
    expect(followed.output).toMatch(/tsdb_vpcs\.net must be replaced/);
    expect(flat(followed.output)).not.toMatch(/replaces VPC/);
    const applied = await ws.ok(["apply", "-input=false", "-auto-approve"]);
    expect(flat(applied.output)).not.toMatch(/replaces VPC/);
    const newVpc = Number(ws.state().get("tsdb_vpcs.net")!.vpcs_id);
    expect(newVpc).not.toBe(oldVpc);
    const services = await suite.platform().services.list(PROJECT);
    expect(services.find((s) => s.name === "errors-db")!.vpc_id).toBe(newVpc);
    expect((await suite.platform().vpcs.list(PROJECT)).map((v) => v.vpcs_id)).toEqual([newVpc]);

    ws.writeJson("main.tf.json", base());
    await ws.ok(["apply", "-input=false", "-auto-approve"]);
  });

  test("an update that outlasts timeouts.update keeps the service (not tainted) and says which timeout to raise", async () => {
    ws.editJson("main.tf.json", (c) => {
      c.resource.tsdb_service.sized = { name: "sized-db" };
    });
    await ws.ok(["apply", "-input=false", "-auto-approve"]);
    const id = ws.state().get("tsdb_service.sized")!.id;
    ws.editJson("main.tf.json", (c) => {
      c.resource.tsdb_service.sized = { name: "sized-db", milli_cpu: 1000, memory_gb: 4, timeouts: { update: "1s" } };
    });
    // Transitions of 30 s: the resize is still configuring when the 1 s update timeout runs out.
    const apply = await ws.tf(["apply", "-input=false", "-auto-approve"], { SCHEMAFORM_TRANSITION_SECONDS: "30" });
    expect(apply.code).toBe(1);
    expect(apply.output).toMatch(/Error: Timed out waiting for service [a-z0-9]+/);
    expect(flat(apply.output)).toMatch(/kept in state as it was last read.*raise timeouts\.update/);
    expect(ws.state().get("tsdb_service.sized")!.id).toBe(id);

    await ws.ok(["plan", "-input=false", "-out=resize.tfplan"]);
    const changes = await planJson(ws, "resize.tfplan");
    expect(changes.get("tsdb_service.sized")!.actions).toEqual(["no-op"]);
    ws.editJson("main.tf.json", (c) => {
      delete c.resource.tsdb_service.sized;
    });
    await ws.ok(["apply", "-input=false", "-auto-approve"]);
  });
});
