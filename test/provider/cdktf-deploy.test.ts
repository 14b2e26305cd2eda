// The first `cdktf deploy` after `schemaform provider install`, with no extra environment: a
// scratch CDKTF app using the repository's build as a dependency, the providers in Terraform's
// implied local mirror, cdktf-cli from the repository's devDependencies. cdktf runs
// `terraform providers lock` (which asks a registry, and no registry has our providers) unless
// the stack's lock file already covers every provider, which the constructs see to at synth.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, ROOT, type Result, requireTerraform, runProcess } from "../e2e/support/harness.js";

const work = mkdtempSync(join(tmpdir(), "schemaform-cdktf-deploy-"));
const app = join(work, "app");

const MAIN = `const { App, TerraformOutput, TerraformStack } = require("cdktf");
const { ContainerbackupProvider, RestoreChannel } = require("schemaform/containerbackup");
const { TsdbProvider, Vpcs } = require("schemaform/tsdb");

const app = new App();
const stack = new TerraformStack(app, "first");
new TsdbProvider(stack, "tsdb", { projectId: "demo-project" });
new ContainerbackupProvider(stack, "containerbackup", { project: "demo-project" });
const vpc = new Vpcs(stack, "main", { name: "main", cidr: "10.10.0.0/16", regionCode: "us-east-1" });
new RestoreChannel(stack, "restores", { name: "restores", location: "us-central1", destinationProject: "projects/restore-target" });
new TerraformOutput(stack, "vpc_id", { value: vpc.vpcsId });
app.synth();
`;

/** What a user's shell has: a home, Terraform on PATH, no Terraform or schemaform settings but the data directory for this test. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith("TF_") || key.startsWith("TSDB_") || key.startsWith("CONTAINERBACKUP_") || key.startsWith("SCHEMAFORM_") || key.startsWith("CDKTF_") || key === "XDG_DATA_HOME") delete env[key];
  }
  return { ...env, HOME: join(work, "home"), CHECKPOINT_DISABLE: "1", SCHEMAFORM_DATA_DIR: join(work, "platform"), SCHEMAFORM_TRANSITION_SECONDS: "0" };
}

const cdktf = (args: string[]): Promise<Result> => runProcess(join(ROOT, "node_modules", ".bin", "cdktf"), args, { cwd: app, env: userEnv() });

beforeAll(async () => {
  requireTerraform();
  mkdirSync(join(app, "node_modules"), { recursive: true });
  mkdirSync(join(work, "home"), { recursive: true });
  // The repository as the app's dependency, with the one cdktf and constructs it is built against.
  symlinkSync(ROOT, join(app, "node_modules", "schemaform"));
  for (const name of ["cdktf", "constructs"]) symlinkSync(join(ROOT, "node_modules", name), join(app, "node_modules", name));
  writeFileSync(join(app, "package.json"), `${JSON.stringify({ name: "first-deploy", version: "1.0.0", private: true }, null, 2)}\n`);
  writeFileSync(
    join(app, "cdktf.json"),
    `${JSON.stringify({ language: "typescript", app: "node main.js", projectId: "00000000-0000-0000-0000-000000000000", sendCrashReports: "false", terraformProviders: [], terraformModules: [], context: {} }, null, 2)}\n`,
  );
  writeFileSync(join(app, "main.js"), MAIN);
  const installed = await runProcess(process.execPath, [CLI, "provider", "install"], { cwd: app, env: userEnv() });
  expect(installed.code, installed.output).toBe(0);
}, 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("cdktf deploy right after `schemaform provider install`", () => {
  it("deploys the first time, with no lock file and no extra environment, and changes nothing the second time", async () => {
    const first = await cdktf(["deploy", "--auto-approve"]);
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain("Apply complete! Resources: 2 added, 0 changed, 0 destroyed.");
    const build = JSON.parse(readFileSync(join(ROOT, "dist", "provider", "lock.json"), "utf8")) as { hashes: Record<string, string> };
    const lock = readFileSync(join(app, "cdktf.out", "stacks", "first", ".terraform.lock.hcl"), "utf8");
    for (const hash of Object.values(build.hashes)) expect(lock).toContain(hash);

    const second = await cdktf(["deploy", "--auto-approve"]);
    expect(second.code, second.output).toBe(0);
    expect(second.output).toContain("No changes.");
  }, 240_000);
});
