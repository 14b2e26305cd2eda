// Which Terraform commands count as a destroy (plan-time check failures are then warnings, so
// that a destroy is never blocked): read from Terraform's command line and TF_CLI_ARGS.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { isApplyCommand, isDestroyCommand, terraformIsDestroying } from "../../provider/framework/terraform-command.js";
import { spawnWithPid } from "../support/reused-pid.js";
import { until } from "../support/until.js";

const tf = (line: string, env: NodeJS.ProcessEnv = {}) => isDestroyCommand(line.split(" "), env);

describe("a destroy is recognised from Terraform's command line", () => {
  test("destroy, and plan or apply with -destroy, after global options too", () => {
    expect(tf("terraform destroy -auto-approve")).toBe(true);
    expect(tf("terraform -chdir=infra destroy")).toBe(true);
    expect(tf("terraform apply -destroy -auto-approve")).toBe(true);
    expect(tf("terraform plan --destroy -out=p")).toBe(true);
    expect(tf("terraform plan -destroy=true")).toBe(true);
  });

  test("ordinary plans and applies are not destroys, nor is -destroy=false", () => {
    expect(tf("terraform plan")).toBe(false);
    expect(tf("terraform apply -auto-approve")).toBe(false);
    expect(tf("terraform apply -destroy -destroy=false")).toBe(false);
    // A saved plan's name is no flag, whatever it is called.
    expect(tf("terraform apply destroy.tfplan")).toBe(false);
    expect(tf("terraform")).toBe(false);
  });

  test("flags from TF_CLI_ARGS and TF_CLI_ARGS_<command> count", () => {
    expect(tf("terraform plan", { TF_CLI_ARGS_plan: "-destroy -input=false" })).toBe(true);
    expect(tf("terraform apply", { TF_CLI_ARGS: "-destroy" })).toBe(true);
    expect(tf("terraform apply", { TF_CLI_ARGS_plan: "-destroy" })).toBe(false);
  });
});

describe.runIf(process.platform === "linux")("a destroy is remembered per Terraform process, not per pid", () => {
  const work = mkdtempSync(join(tmpdir(), "schemaform-terraform-command-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** A process whose command line is `terraform -f <command>` (tail follows a file of that name). */
  const terraformLike = (command: string, pid?: number) => {
    writeFileSync(join(work, command), "");
    const args = ["-c", `exec -a terraform tail -f ${command}`];
    return pid === undefined ? spawn("bash", args, { cwd: work, stdio: "ignore" }) : spawnWithPid(pid, "bash", args, { cwd: work, stdio: "ignore" });
  };
  const commandLine = (pid: number) => until(`process ${pid} to exec`, 5000, () => readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("terraform\0"));

  test("a plan whose pid a destroying Terraform had is no destroy", async () => {
    const destroying = terraformLike("destroy") as ChildProcess;
    const pid = destroying.pid!;
    await commandLine(pid);
    expect(terraformIsDestroying({}, pid)).toBe(true);
    destroying.kill("SIGKILL");
    await new Promise((resolve) => destroying.once("exit", resolve));

    const planning = await terraformLike("plan", pid);
    try {
      await commandLine(pid);
      expect(terraformIsDestroying({}, pid)).toBe(false);
    } finally {
      planning.kill("SIGKILL");
    }
  });
});

describe("an apply is recognised from Terraform's command line (a note shown once per apply)", () => {
  const applying = (line: string, env: NodeJS.ProcessEnv = {}) => isApplyCommand(line.split(" "), env);
  test("apply, with a saved plan or after global options; not plan, destroy or apply -destroy", () => {
    expect(applying("terraform apply -auto-approve")).toBe(true);
    expect(applying("terraform -chdir=infra apply attach.tfplan")).toBe(true);
    expect(applying("terraform plan -out=p")).toBe(false);
    expect(applying("terraform destroy")).toBe(false);
    expect(applying("terraform apply -destroy")).toBe(false);
    expect(applying("terraform apply", { TF_CLI_ARGS: "-destroy" })).toBe(false);
    expect(applying("terraform")).toBe(false);
  });
});
