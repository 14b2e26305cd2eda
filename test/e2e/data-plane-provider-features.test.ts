// Database parameters and ephemeral credentials on real databases (SCHEMAFORM_DATA_PLANE=on),
// through real Terraform: a parameter set in the configuration is what `SHOW` answers, and an
// `ephemeral "tsdb_service_credentials"` is a real role that logs in during the apply, is dropped
// after it, and reaches neither the state nor the plan.
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import { describePostgres } from "../platform/postgres-cluster.js";
import { Suite, type Workspace } from "./support/harness.js";
import { alive, platformStatus, query, within, type Endpoint } from "./support/data-plane.js";

const PROJECT = "dp-features";

function config(): Record<string, unknown> {
  const login = "host=${ephemeral.tsdb_service_credentials.probe.hostname} port=${ephemeral.tsdb_service_credentials.probe.port} user=${ephemeral.tsdb_service_credentials.probe.username} dbname=tsdb sslmode=require";
  return {
    terraform: { required_providers: { tsdb: { source: "schemaform/tsdb", version: "0.1.0" } } },
    provider: { tsdb: { project_id: PROJECT } },
    resource: {
      tsdb_service: { db: { name: "dp-features", parameters: { work_mem: "12MB", statement_timeout: "30s" } } },
      terraform_data: {
        probe: {
          provisioner: [
            {
              "local-exec": {
                command: `psql "${login}" -Atc "select current_user || ' ' || pg_has_role(current_user, 'tsdbadmin', 'MEMBER')" > probe.txt`,
                environment: { PGPASSWORD: "${ephemeral.tsdb_service_credentials.probe.password}" },
              },
            },
          ],
        },
      },
    },
    ephemeral: { tsdb_service_credentials: { probe: { service_id: "${tsdb_service.db.id}" } } },
    output: { password: { value: "${tsdb_service.db.password}", sensitive: true } },
  };
}

describePostgres("parameters and ephemeral credentials on real databases", () => {
  let suite: Suite;
  let ws: Workspace;
  let main: Endpoint;

  beforeAll(async () => {
    suite = await Suite.create("data-plane-features");
    suite.env.SCHEMAFORM_DATA_PLANE = "on";
    ws = suite.workspace("stack");
    ws.writeJson("main.tf.json", config());
    await ws.ok(["init", "-input=false"]);
    await ws.ok(["apply", "-auto-approve", "-input=false"]);
    const db = ws.state().get("tsdb_service.db")!;
    main = { host: db.hostname, port: db.port, password: db.password };
  }, 300_000);

  afterAll(async () => {
    if (!suite) return;
    if (ws && existsSync(ws.path("terraform.tfstate")) && ws.state().size > 0) await ws.tf(["destroy", "-auto-approve", "-input=false"]);
    const status = await platformStatus(suite.dataDir, suite.env).catch(() => undefined);
    if (status?.agent.pid && alive(status.agent.pid)) process.kill(status.agent.pid, "SIGTERM");
    await suite.dispose();
  }, 300_000);

  test("a parameter set in the configuration is what SHOW answers", async () => {
    expect(await query(main, "SHOW work_mem")).toEqual([{ work_mem: "12MB" }]);
    expect(await query(main, "SHOW statement_timeout")).toEqual([{ statement_timeout: "30s" }]);
  });

  test("the ephemeral credentials logged in as a member of tsdbadmin during the apply, then the role was dropped; state holds none of it", async () => {
    const [role, member] = readFileSync(ws.path("probe.txt"), "utf8").trim().split(" ");
    expect(member).toBe("true");
    expect(role).not.toBe("tsdbadmin");
    await within(15_000, `role ${role} to be dropped`, async () => {
      const rows = await query(main, "select 1 from pg_roles where rolname = $1", [role]);
      return rows.length === 0 ? true : undefined;
    });
    const state = readFileSync(ws.path("terraform.tfstate"), "utf8");
    expect(state).not.toContain(role);
    const shown = (await ws.ok(["show", "-json"])).stdout;
    expect(shown).not.toContain(role);
  });
});
