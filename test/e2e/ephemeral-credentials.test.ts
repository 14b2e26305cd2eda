// The ephemeral tsdb_service_credentials judged by real Terraform: in one apply it is opened after
// the service it names exists, its password feeds another service's write-only password_wo, and
// it is closed (the credentials revoked) at the end of the run. Neither terraform.tfstate nor
// `terraform show -json` holds anything of it.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Suite, type Workspace } from "./support/harness.js";

const PROJECT = "ephemeral-e2e";

let suite: Suite;
let ws: Workspace;

beforeAll(async () => {
  suite = await Suite.create("ephemeral");
  ws = suite.workspace("ephemeral");
  ws.writeJson("main.tf.json", {
    terraform: { required_providers: { tsdb: { source: "schemaform/tsdb", version: "0.1.0" } } },
    provider: { tsdb: { project_id: PROJECT } },
    resource: {
      tsdb_service: {
        admin_db: { name: "eph-admin-db" },
        reporting: { name: "eph-reporting-db", password_wo: "${ephemeral.tsdb_service_credentials.admin.password}", password_wo_version: 1 },
      },
    },
    ephemeral: { tsdb_service_credentials: { admin: { service_id: "${tsdb_service.admin_db.id}", ttl: "15m" } } },
  });
  await ws.ok(["init", "-input=false"]);
});

afterAll(async () => {
  if (suite) await suite.dispose();
});

describe("ephemeral service credentials", () => {
  test("feed another service's password_wo in one apply and never reach the state", async () => {
    const applied = await ws.ok(["apply", "-auto-approve", "-input=false"]);
    expect(applied.output).toMatch(/ephemeral\.tsdb_service_credentials\.admin: Opening complete/);
    expect(applied.output).toMatch(/ephemeral\.tsdb_service_credentials\.admin: Closing complete/);
    expect(applied.output).toMatch(/Resources: 2 added/);

    const services = await suite.platform().services.list(PROJECT);
    const admin = services.find((s) => s.name === "eph-admin-db")!;
    const reporting = services.find((s) => s.name === "eph-reporting-db")!;
    // The temporary role was created for the admin service and revoked at Close.
    const events = await suite.platform().events.list(PROJECT, { resourceId: admin.id });
    const created = events.find((e) => e.kind === "credentials_created");
    expect(created, JSON.stringify(events)).toBeDefined();
    const role = /temporary role (tsdb_tmp_[a-z0-9]+)/.exec(created!.message)![1]!;
    expect(events.some((e) => e.kind === "credentials_revoked" && e.message.includes(role))).toBe(true);

    // password_wo was set (a service given none gets a generated password in state instead).
    const state = ws.state().get("tsdb_service.reporting")!;
    expect(state.password).toBeNull();
    expect(state.password_wo).toBeNull();
    expect(state.password_wo_version).toBe(1);
    expect(reporting.id).toBe(state.id);

    const stateText = ws.read("terraform.tfstate");
    const shown = (await ws.ok(["show", "-json"])).stdout;
    for (const text of [stateText, shown]) {
      expect(text).not.toContain(role);
      expect(text).not.toContain("expires_at");
    }
    // Only the dependency of reporting on it is recorded, never the ephemeral resource itself.
    const recorded = (JSON.parse(stateText) as { resources: Array<{ mode: string; type: string }> }).resources;
    expect(recorded.map((r) => `${r.mode}.${r.type}`).sort()).toEqual(["managed.tsdb_service", "managed.tsdb_service"]);
    // A second plan opens the credentials again and changes nothing.
    const plan = await ws.tf(["plan", "-detailed-exitcode", "-input=false"]);
    expect(plan.code, plan.output).toBe(0);
  });
});
