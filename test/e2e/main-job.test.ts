// The main job with real databases: `schemaform up examples/stack` (what `npm start` runs) applies
// the example with SCHEMAFORM_DATA_PLANE=on and prints a one-line psql command per database; that
// line, run as printed, connects, and so does `pg` with the stack's outputs; `schemaform down
// examples/stack` leaves nothing listening and no agent running.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { describePostgres } from "../platform/postgres-cluster.js";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { CLI, ROOT, Suite, runProcess, type Result } from "./support/harness.js";
import { alive, listening, platformStatus, query } from "./support/data-plane.js";

describePostgres("the main job with real databases", () => {
  let suite: Suite;
  let outdir: string;
  let env: NodeJS.ProcessEnv;
  let first: Result;

  beforeAll(async () => {
    suite = await Suite.create("main-job");
    outdir = join(suite.root, "cdktf.out");
    env = { ...suite.env, SCHEMAFORM_DATA_PLANE: "on" };
    delete env.TF_CLI_CONFIG_FILE; // `up` writes and uses its own
    first = await runProcess(process.execPath, [CLI, "up", join("examples", "stack"), "--out", outdir], { cwd: ROOT, env });
  }, 600_000);

  afterAll(async () => {
    if (!suite) return;
    await runProcess(process.execPath, [CLI, "down", join("examples", "stack"), "--out", outdir], { cwd: ROOT, env });
    await suite.dispose();
  }, 300_000);

  describe("npm start with real databases", () => {
    test("up applies the example and prints a psql line that connects, without printing the password", async () => {
      expect(first.code, first.output).toBe(0);
      const state = JSON.parse(execFileSync("cat", [join(outdir, "stacks", "example", "terraform.tfstate")], { encoding: "utf8" }));
      const db = state.resources.find((r: any) => r.type === "tsdb_service" && r.name === "db").instances[0].attributes;
      expect(first.output).not.toContain(db.password);
      const line = first.output.split("\n").find((l) => l.includes("psql") && l.includes(`port=${db.port}`))?.trim();
      expect(line, first.output).toMatch(/^PGPASSWORD="\$\(terraform -chdir=\S+ output -raw db_password\)" psql "host=127\.0\.0\.1 port=\d+ user=tsdbadmin dbname=tsdb sslmode=require"$/);
      const answer = execFileSync("sh", ["-c", `${line} -XAtc 'select current_user'`], { cwd: ROOT, env, encoding: "utf8" });
      expect(answer.trim()).toBe("tsdbadmin");
    });

    test("the example's outputs connect with pg (sslmode=require), and the read replica is a standby", async () => {
      const outputs = JSON.parse(execFileSync("terraform", [`-chdir=${join(outdir, "stacks", "example")}`, "output", "-json"], { env, encoding: "utf8" }));
      const main = { host: outputs.db_hostname.value, port: outputs.db_port.value, password: outputs.db_password.value };
      expect(main.host).toBe("127.0.0.1");
      const [row] = await query<{ ssl: boolean }>(main, "select ssl from pg_stat_ssl where pid = pg_backend_pid()");
      expect(row!.ssl).toBe(true);
      expect(outputs.replica_hostname.value).toBe("127.0.0.1");
    });

    test("down examples/stack leaves nothing listening and no agent", async () => {
      const before = await platformStatus(suite.dataDir, env);
      const ports = before.services.flatMap((s) => s.processes.map((p) => p.port));
      expect(ports.length).toBeGreaterThan(0);
      const down = await runProcess(process.execPath, [CLI, "down", join("examples", "stack"), "--out", outdir], { cwd: ROOT, env });
      expect(down.code, down.output).toBe(0);
      for (const port of ports) expect(await listening(port), `port ${port}`).toBe(false);
      const after = await platformStatus(suite.dataDir, env);
      expect(after.services).toEqual([]);
      expect(after.agent.running).toBe(false);
      if (before.agent.pid) expect(alive(before.agent.pid)).toBe(false);
    });
  });
});
