// Plugins die with Terraform: a Terraform killed with SIGKILL in the middle of an apply calls no
// Shutdown, and its plugin processes must notice on their own, exit within seconds, and leave the
// platform's database closed, so that the next apply just works. Linux: the plugins are found
// through /proc as Terraform's children.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Suite, type Workspace } from "./support/harness.js";
import { alive, pluginChildren, until } from "./support/processes.js";

const PROJECT = "lifetime-project";
const EXIT_BAR_MS = 10_000;

let suite: Suite;
let ws: Workspace;

beforeAll(async () => {
  suite = await Suite.create("lifetime");
  ws = suite.workspace("main");
  ws.writeJson("main.tf.json", {
    terraform: {
      required_providers: {
        tsdb: { source: "schemaform/tsdb", version: "0.1.0" },
        containerbackup: { source: "schemaform/containerbackup", version: "0.1.0" },
      },
    },
    provider: { tsdb: { project_id: PROJECT }, containerbackup: { project: PROJECT } },
    resource: {
      containerbackup_restore_channel: { ch: { location: "us-central1", destination_project: "projects/lifetime-target" } },
      tsdb_service: { a: { name: "lifetime-a", region_code: "us-east-1" }, b: { name: "lifetime-b", region_code: "us-east-1" } },
    },
  });
  await ws.ok(["init", "-input=false"]);
});

afterAll(async () => {
  if (suite) await suite.dispose();
});

describe.runIf(process.platform === "linux")("plugins die with Terraform", () => {
  test("Terraform killed mid-apply: its plugins exit within 10 s, the database is closed, and the next apply works", async () => {
    // Services take a minute to become ready: the apply is still waiting when Terraform is killed.
    const { child: terraform, output, done: exited } = ws.applyInBackground({ SCHEMAFORM_TRANSITION_SECONDS: "60" });
    const pid = terraform.pid!;
    let plugins: number[] = [];
    try {
      await until("the apply to be creating the services", 60_000, () => /tsdb_service\.a: Creating\.\.\./.test(output()) && /tsdb_service\.b: Creating\.\.\./.test(output()));
      plugins = pluginChildren(pid);
      expect(plugins.length).toBeGreaterThan(0);

      terraform.kill("SIGKILL");
      await exited;
      const killedAt = Date.now();
      await until(`plugins ${plugins.join(", ")} to exit`, EXIT_BAR_MS + 5_000, () => plugins.every((p) => !alive(p)));
      const exitMs = Date.now() - killedAt;
      process.stdout.write(`plugin-lifetime: ${plugins.length} plugin processes exited ${exitMs} ms after Terraform was killed\n`);
      expect(exitMs).toBeLessThan(EXIT_BAR_MS);
    } finally {
      // A failing run must not leave its processes behind either.
      for (const p of [pid, ...plugins]) if (alive(p)) process.kill(p, "SIGKILL");
    }

    // Closed cleanly: the last connection to close checkpoints the WAL into the database and
    // removes it (a process that died holding the database leaves its WAL behind).
    expect(existsSync(join(suite.dataDir, "platform.db-wal"))).toBe(false);
    // Nothing holds a lock: the next apply completes (the killed apply's services were created
    // on the platform but never recorded, so this one creates its own).
    const again = await ws.tf(["apply", "-auto-approve", "-input=false"]);
    expect(again.output).toMatch(/Apply complete!/);
    expect(again.code).toBe(0);
    expect([...ws.state().keys()].sort()).toEqual(["containerbackup_restore_channel.ch", "tsdb_service.a", "tsdb_service.b"]);
  });
});
