// Destroy is always possible. Terraform begins a destroy with an ordinary plan of the whole
// configuration, so a plan-time platform look-up that fails (an exporter id that names nothing)
// used to abort the destroy too: after an apply that failed on a wrong reference, the resources
// it did create could not be destroyed. Ordinary plans still reject the wrong reference.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Suite, type Workspace } from "./support/harness.js";

const PROJECT = "destroy-project";

let suite: Suite;

function config(logExporterId: string): Record<string, unknown> {
  return {
    terraform: { required_providers: { tsdb: { source: "schemaform/tsdb", version: "0.1.0" } } },
    provider: { tsdb: { project_id: PROJECT } },
    resource: {
      tsdb_log_exporter: {
        logs: { region: "us-east-1", cloudmon: { region: "us-east-1", log_group_name: "/g", log_stream_name: "s", role_arn: "arn:aws:iam::123456789012:role/w" } },
      },
      tsdb_service: { svc: { name: "destroy-db", region_code: "us-east-1", log_exporter_id: logExporterId } },
    },
  };
}

async function workspace(name: string, logExporterId: string): Promise<Workspace> {
  const ws = suite.workspace(name);
  ws.writeJson("main.tf.json", config(logExporterId));
  await ws.ok(["init", "-input=false"]);
  return ws;
}

/** Addresses of the managed resources with an object in state (a failed create leaves a resource without instances). */
function recorded(ws: Workspace): string[] {
  const state = ws.readJson<{ resources: Array<{ mode: string; type: string; name: string; instances: unknown[] }> }>("terraform.tfstate");
  return state.resources.filter((r) => r.mode === "managed" && r.instances.length > 0).map((r) => `${r.type}.${r.name}`).sort();
}

beforeAll(async () => {
  suite = await Suite.create("destroy");
});

afterAll(async () => {
  if (suite) await suite.dispose();
});

describe("destroy is never blocked by plan-time look-ups", () => {
  test("after an apply failed on a wrong reference, destroy removes what it created", async () => {
    const ws = await workspace("failed-apply", "${tsdb_log_exporter.logs.id}-wrong");
    const applied = await ws.tf(["apply", "-auto-approve", "-input=false"]);
    expect(applied.code).toBe(1);
    expect(applied.output).toMatch(/The log exporter does not exist/);
    expect(recorded(ws)).toEqual(["tsdb_log_exporter.logs"]);

    // The check still guards ordinary plans.
    const plan = await ws.tf(["plan", "-input=false"]);
    expect(plan.code).toBe(1);
    expect(plan.output).toMatch(/The log exporter does not exist/);

    const destroyed = await ws.tf(["destroy", "-auto-approve", "-input=false"]);
    expect(destroyed.output).toMatch(/Resources: 1 destroyed/);
    expect(destroyed.code).toBe(0);
    expect(recorded(ws)).toEqual([]);
    expect(await suite.platform().logExporters.list(PROJECT)).toEqual([]);
  });

  test("resources that exist are destroyed (apply -destroy) even when the configuration now has a wrong reference", async () => {
    const ws = await workspace("wrong-edit", "${tsdb_log_exporter.logs.id}");
    await ws.ok(["apply", "-auto-approve", "-input=false"]);
    const service = ws.state().get("tsdb_service.svc")!;
    expect(recorded(ws)).toEqual(["tsdb_log_exporter.logs", "tsdb_service.svc"]);
    ws.writeJson("main.tf.json", config("${tsdb_log_exporter.logs.id}-wrong"));
    expect((await ws.tf(["plan", "-input=false"])).code).toBe(1);

    const planned = await ws.ok(["plan", "-destroy", "-input=false"]);
    expect(planned.output).toMatch(/Plan: 0 to add, 0 to change, 2 to destroy/);
    const destroyed = await ws.tf(["apply", "-destroy", "-auto-approve", "-input=false"]);
    expect(destroyed.output).toMatch(/Resources: 0 added, 0 changed, 2 destroyed/);
    expect(destroyed.code).toBe(0);
    await expect(suite.platform().services.get(PROJECT, service.id)).rejects.toMatchObject({ code: "not_found" });
  });
});
