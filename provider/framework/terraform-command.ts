// Which command the Terraform that started this plugin runs. Whether it is destroying: a destroy
// begins with an ordinary plan of the whole configuration (Terraform's "pre-destroy refresh"), and any error
// in it aborts the destroy: a plan-time check of a resource that is about to be destroyed, or
// that was never created, would make destroying impossible. The plugin protocol does not say
// which command runs, but the plugin's parent is Terraform itself (the launcher execs node), so
// its command line does, together with the TF_CLI_ARGS variables Terraform adds to it and the
// plugin inherits. Looked up once per Terraform process, and only when asked. A
// resident provider server (transport/resident.ts) serves several Terraforms: it names the
// Terraform of each connection. It lives for many Terraform runs, during which pids are reused,
// so the answer is kept per process, named by its pid and its start time (a later process with
// the same pid has another start time and is asked again).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { startTime } from "../proc-stat.js";

// Keyed by pid and start time: a later process with a reused pid is asked again.
const cached = new Map<string, string[]>();

function terraformArguments(terraform: number): string[] {
  // Without /proc (macOS) there is no start time; there, only a plugin started directly asks,
  // and only about its own parent, which no other process can take the place of while it runs.
  const key = `${terraform} ${startTime(terraform) ?? ""}`;
  let args = cached.get(key);
  if (args === undefined) {
    args = processArguments(terraform);
    cached.set(key, args);
  }
  return args;
}

/** `terraform`: the process id of the Terraform to ask about (default: our parent). */
export function terraformIsDestroying(env: NodeJS.ProcessEnv = process.env, terraform: number = process.ppid): boolean {
  return isDestroyCommand(terraformArguments(terraform), env);
}

/**
 * Whether the Terraform is `terraform apply` (not a destroy). Its apply walk plans each changed
 * resource again before applying it, and shows that plan's warnings too: a note given at plan
 * time would appear twice, so under `apply` a handler gives it once, when it applies.
 */
export function terraformIsApplying(env: NodeJS.ProcessEnv = process.env, terraform: number = process.ppid): boolean {
  return isApplyCommand(terraformArguments(terraform), env);
}

/** `terraform apply …` with or without a saved plan, but not `apply -destroy`. */
export function isApplyCommand(args: string[], env: NodeJS.ProcessEnv): boolean {
  return subcommandOf(args) === "apply" && !isDestroyCommand(args, env);
}

/** The subcommand: the first argument that is not a global option (-chdir=DIR). */
function subcommandOf(args: string[]): string | undefined {
  return args.slice(1).find((arg) => !arg.startsWith("-"));
}

/** `terraform destroy …`, or `terraform plan|apply -destroy …` (Terraform's flags take one or two dashes). */
export function isDestroyCommand(args: string[], env: NodeJS.ProcessEnv): boolean {
  // Global options (-chdir=DIR) come before the subcommand.
  const rest = args.slice(1);
  const index = rest.findIndex((arg) => !arg.startsWith("-"));
  if (index < 0) return false;
  const command = rest[index]!;
  if (command === "destroy") return true;
  if (command !== "plan" && command !== "apply") return false;
  // Terraform puts the TF_CLI_ARGS flags right after the subcommand, before the typed ones.
  const flags = [...splitArgs(env.TF_CLI_ARGS), ...splitArgs(env[`TF_CLI_ARGS_${command}`]), ...rest.slice(index + 1)];
  let destroying = false;
  for (const flag of flags) {
    const m = /^--?destroy(?:=(.*))?$/.exec(flag);
    // The last one wins, as in Terraform's flag parsing.
    if (m) destroying = m[1] === undefined || m[1] === "true" || m[1] === "1";
  }
  return destroying;
}

function splitArgs(text: string | undefined): string[] {
  return text ? text.trim().split(/\s+/) : [];
}

/** A process's argv; empty when it cannot be read (then nothing is treated as a destroy). */
function processArguments(parent: number): string[] {
  try {
    return readFileSync(`/proc/${parent}/cmdline`, "utf8").split("\0").filter((arg) => arg !== "");
  } catch {
    // No /proc (macOS, BSD): ps prints the arguments space-separated, which is enough to see flags.
  }
  try {
    return splitArgs(execFileSync("ps", ["-o", "args=", "-p", String(parent)], { encoding: "utf8", timeout: 2000, stdio: ["ignore", "pipe", "ignore"] }));
  } catch {
    return [];
  }
}
