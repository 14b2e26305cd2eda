// Deletion protection judged by real Terraform: a protected service (and a PREVENT restore
// channel) makes `terraform destroy` and a replacing change fail at plan, before anything is
// applied, naming the attribute to change; after turning it off (apply) destroy works. A channel
// with deletion_policy = "ABANDON" leaves the state on destroy and stays on the platform.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Suite, type Workspace } from "./support/harness.js";

const PROJECT = "guard-project";
const CHANNEL_PROJECT = "guard-channels";

let suite: Suite;
let ws: Workspace;

function config(options: { protect: boolean; region?: string }): Record<string, unknown> {
  return {
    terraform: {
      required_providers: {
        tsdb: { source: "schemaform/tsdb", version: "0.1.0" },
        containerbackup: { source: "schemaform/containerbackup", version: "0.1.0" },
      },
    },
    provider: { tsdb: { project_id: PROJECT }, containerbackup: { project: CHANNEL_PROJECT } },
    resource: {
      tsdb_service: { prod: { name: "guarded-db", environment_tag: "PROD", region_code: options.region ?? "us-east-1", deletion_protection: options.protect } },
      containerbackup_restore_channel: {
        kept: { name: "kept-channel", location: "us-central1", destination_project: "projects/guard-dest", deletion_policy: options.protect ? "PREVENT" : "DELETE" },
        left: { name: "left-channel", location: "us-central1", destination_project: "projects/guard-dest", deletion_policy: "ABANDON" },
      },
    },
  };
}

beforeAll(async () => {
  suite = await Suite.create("protection");
  ws = suite.workspace("guarded");
  ws.writeJson("main.tf.json", config({ protect: true }));
  await ws.ok(["init", "-input=false"]);
  await ws.ok(["apply", "-auto-approve", "-input=false"]);
});

afterAll(async () => {
  if (suite) await suite.dispose();
});

async function serviceIds(): Promise<string[]> {
  return (await suite.platform().services.list(PROJECT)).map((s) => s.id);
}

async function channelNames(): Promise<string[]> {
  return (await suite.platform().restoreChannels.list(CHANNEL_PROJECT)).map((c) => c.name!).sort();
}

describe("deletion protection", () => {
  test("terraform destroy fails at plan, naming the attribute, and nothing is deleted", async () => {
    const before = await serviceIds();
    expect(before).toHaveLength(1);
    const destroyed = await ws.tf(["destroy", "-auto-approve", "-input=false"]);
    expect(destroyed.code).toBe(1);
    const output = destroyed.output.replace(/\s+/g, " ");
    expect(output).toMatch(/has deletion_protection = true/);
    expect(output).toMatch(/This plan would destroy it\. Set deletion_protection = false and apply first/);
    expect(output).toMatch(/has deletion_policy = "PREVENT"/);
    // Failed at plan: Terraform never got to destroy anything, not even the unprotected channel.
    expect(destroyed.output).not.toMatch(/Destroying\.\.\./);
    expect(await serviceIds()).toEqual(before);
    expect(await channelNames()).toEqual(["kept-channel", "left-channel"]);
    expect([...ws.state().keys()].sort()).toEqual(["containerbackup_restore_channel.kept", "containerbackup_restore_channel.left", "tsdb_service.prod"]);
  });

  test("a change that replaces the service fails at plan", async () => {
    ws.writeJson("main.tf.json", config({ protect: true, region: "eu-west-1" }));
    const plan = await ws.tf(["plan", "-input=false"]);
    expect(plan.code).toBe(1);
    expect(plan.output.replace(/\s+/g, " ")).toMatch(/This change would replace it \(destroy, then create\)\. Set deletion_protection = false/);
    const apply = await ws.tf(["apply", "-auto-approve", "-input=false"]);
    expect(apply.code).toBe(1);
    expect((await suite.platform().services.list(PROJECT))[0]!.region_code).toBe("us-east-1");
  });

  test("after turning protection off, destroy deletes the service; the ABANDON channel leaves the state and stays", async () => {
    ws.writeJson("main.tf.json", config({ protect: false }));
    const applied = await ws.ok(["apply", "-auto-approve", "-input=false"]);
    expect(applied.output).toMatch(/0 added, 2 changed, 0 destroyed/);
    expect((await suite.platform().services.list(PROJECT))[0]!.deletion_protection).toBe(false);

    const destroyed = await ws.ok(["destroy", "-auto-approve", "-input=false"]);
    expect(destroyed.output).toMatch(/abandoned \(deletion_policy = "ABANDON"\)/);
    expect(destroyed.output).toMatch(/Resources: 3 destroyed/);
    expect(await serviceIds()).toEqual([]);
    expect(await channelNames()).toEqual(["left-channel"]);
    expect(ws.state().size).toBe(0);
  });
});
