// One project under either name, with real Terraform: a configuration applied with the project
// id keeps managing the same objects when the provider names the project by its number (no
// "deleted outside Terraform", nothing to re-create), and destroys them under that number.
import { afterAll, beforeAll, expect, test } from "vitest";
import { Suite, type Workspace } from "./support/harness.js";

const PROJECT = "names-e2e-project";

let suite: Suite;
let ws: Workspace;

function config(project: string): Record<string, unknown> {
  return {
    terraform: { required_providers: { tsdb: { source: "schemaform/tsdb", version: "0.1.0" } } },
    provider: { tsdb: { project_id: project } },
    resource: {
      tsdb_service: { svc: { name: "names-db", region_code: "us-east-1" } },
      tsdb_vpcs: { net: { name: "names-net", cidr: "10.0.0.0/16", region_code: "us-east-1" } },
    },
  };
}

beforeAll(async () => {
  suite = await Suite.create("names");
  ws = suite.workspace("main");
  ws.writeJson("main.tf.json", config(PROJECT));
  await ws.ok(["init", "-input=false"]);
});

afterAll(async () => {
  if (suite) await suite.dispose();
});

test("objects applied under the project id are the same objects under its number", async () => {
  await ws.ok(["apply", "-auto-approve", "-input=false"]);
  const number = (await suite.platform().restoreChannels.resolveProject(PROJECT)).project_number;

  ws.writeJson("main.tf.json", config(number));
  // -detailed-exitcode: 0 means no changes (2 would be a plan to re-create what "vanished").
  const plan = await ws.tf(["plan", "-input=false", "-detailed-exitcode"]);
  expect(plan.output).toMatch(/No changes/);
  expect(plan.code).toBe(0);

  const destroyed = await ws.ok(["destroy", "-auto-approve", "-input=false"]);
  expect(destroyed.output).toMatch(/Resources: 2 destroyed/);
  expect(await suite.platform().services.list(PROJECT)).toEqual([]);
  expect(await suite.platform().vpcs.list(PROJECT)).toEqual([]);
});
