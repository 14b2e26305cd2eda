// Database parameters judged by real Terraform: an unknown setting fails `terraform validate`
// with a suggestion (the provider's ValidateResourceConfig, the shared validator), a value out of
// range fails the plan, and allowed settings reach the service's spec.parameters on the platform
// (what the data plane applies) and change in place, with a warning for one that needs a restart.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Suite, type Workspace } from "./support/harness.js";

const PROJECT = "params-e2e";

let suite: Suite;
let ws: Workspace;

function config(parameters: Record<string, string>): Record<string, unknown> {
  return {
    terraform: { required_providers: { tsdb: { source: "schemaform/tsdb", version: "0.1.0" } } },
    provider: { tsdb: { project_id: PROJECT } },
    resource: { tsdb_service: { tuned: { name: "tuned-db", parameters } } },
  };
}

beforeAll(async () => {
  suite = await Suite.create("parameters");
  ws = suite.workspace("parameters");
  ws.writeJson("main.tf.json", config({ max_conections: "200" }));
  await ws.ok(["init", "-input=false"]);
});

afterAll(async () => {
  if (suite) await suite.dispose();
});

describe("database parameters", () => {
  test("an unknown setting fails terraform validate with a suggestion; a bad value fails too", async () => {
    const unknown = await ws.tf(["validate"]);
    expect(unknown.code).toBe(1);
    expect(unknown.output.replace(/\s+/g, " ")).toMatch(/a key named "max_conections" is not expected here \(in parameters\); did you mean "max_connections"\?/);
    ws.writeJson("main.tf.json", config({ work_mem: "1kB" }));
    const range = await ws.tf(["validate"]);
    expect(range.code).toBe(1);
    expect(range.output.replace(/\s+/g, " ")).toMatch(/parameters\.work_mem must be from 64 kB to 2097151 kB, got "1kB"/);
  });

  test("allowed settings reach spec.parameters and change in place", async () => {
    ws.writeJson("main.tf.json", config({ max_connections: "200", work_mem: "64MB", hot_standby_feedback: "on" }));
    await ws.ok(["apply", "-auto-approve", "-input=false"]);
    const [service] = await suite.platform().services.list(PROJECT);
    expect(service!.parameters).toEqual({ max_connections: "200", work_mem: "64MB", hot_standby_feedback: "on" });
    expect((await ws.tf(["plan", "-detailed-exitcode", "-input=false"])).code).toBe(0);

    ws.writeJson("main.tf.json", config({ max_connections: "300" }));
    const changed = await ws.ok(["apply", "-auto-approve", "-input=false"]);
    expect(changed.output).toMatch(/0 added, 1 changed, 0 destroyed/);
    // max_connections needs a restart (declared in the schema): the plan says so.
    expect(changed.output.replace(/\s+/g, " ")).toMatch(/Changing max_connections: PostgreSQL applies it only after the service restarts/);
    const [after] = await suite.platform().services.list(PROJECT);
    expect(after!.id).toBe(service!.id);
    expect(after!.parameters).toEqual({ max_connections: "300" });
  });
});
