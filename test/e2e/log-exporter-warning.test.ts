// The restart note of a log exporter attached to a running service. User finding: it appeared
// twice per apply, worded differently at plan ("a log exporter", its id unknown) and at apply
// (Terraform's apply walk plans again, with the id known). Now: one wording, from the platform,
// once per Terraform command: `terraform plan` shows it, `terraform apply` shows it once.
import { afterAll, beforeAll, expect, test } from "vitest";
import { LOG_EXPORTER_RESTART_NOTE } from "../../platform/core/services.js";
import { Suite, type Workspace } from "./support/harness.js";

const PROJECT = "log-warning-project";
const EXPORTER = { region: "us-east-1", cloudmon: { region: "us-east-1", log_group_name: "/g", log_stream_name: "s", role_arn: "arn:aws:iam::123456789012:role/w" } };

let suite: Suite;
let ws: Workspace;

beforeAll(async () => {
  suite = await Suite.create("log-warning");
  ws = suite.workspace("main");
  ws.writeJson("main.tf.json", {
    terraform: { required_providers: { tsdb: { source: "schemaform/tsdb", version: "0.1.0" } } },
    provider: { tsdb: { project_id: PROJECT } },
    resource: { tsdb_service: { svc: { name: "warn-db", region_code: "us-east-1" } }, tsdb_log_exporter: { known: EXPORTER } },
  });
  await ws.ok(["init", "-input=false"]);
  await ws.ok(["apply", "-input=false", "-auto-approve"]);
});

afterAll(async () => {
  if (suite) await suite.dispose();
});

/** Every restart note in Terraform's output (which wraps lines at 80 columns). */
function notes(output: string): string[] {
  return output.replace(/\s+/g, " ").match(/Warning: [^│]*?logs flow only after the service restarts[^│]*?and apply again\)\./g) ?? [];
}

const NOTE = `Warning: ${LOG_EXPORTER_RESTART_NOTE}`;

test("a log exporter created in the same apply (its id unknown at plan): the note once, in the one wording", async () => {
  ws.editJson("main.tf.json", (c) => {
    c.resource.tsdb_log_exporter.fresh = EXPORTER;
    c.resource.tsdb_service.svc.log_exporter_id = "${tsdb_log_exporter.fresh.id}";
  });
  expect(notes((await ws.ok(["plan", "-input=false"])).output)).toEqual([NOTE]);
  expect(notes((await ws.ok(["apply", "-input=false", "-auto-approve"])).output)).toEqual([NOTE]);
  // attached: the next plan has nothing to say
  expect(notes((await ws.ok(["plan", "-input=false"])).output)).toEqual([]);
});

test("an existing log exporter, through a saved plan: once at plan, once at apply", async () => {
  ws.editJson("main.tf.json", (c) => {
    c.resource.tsdb_service.svc.log_exporter_id = "${tsdb_log_exporter.known.id}";
  });
  expect(notes((await ws.ok(["plan", "-input=false", "-out=attach.tfplan"])).output)).toEqual([NOTE]);
  expect(notes((await ws.ok(["apply", "-input=false", "attach.tfplan"])).output)).toEqual([NOTE]);
});
