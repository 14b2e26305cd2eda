// Processes seen through /proc (Linux): what the tests about plugin lifetimes look at.
import { readFileSync, readdirSync } from "node:fs";

export { until } from "../../support/until.js";

/** State letter and parent of a process, or undefined once it is gone. */
export function processStat(pid: number): { state: string; ppid: number } | undefined {
  try {
    // The command name (in parentheses) may hold spaces: the fields after its closing ')'.
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state, ppid] = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: state!, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/** A process that is gone or a zombie (exited, not yet reaped) has exited. */
export function alive(pid: number): boolean {
  const stat = processStat(pid);
  return stat !== undefined && stat.state !== "Z";
}

/** Pids of the live (not zombie) processes whose parent is `parent` and whose command line names a provider. */
export function pluginChildren(parent: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const stat = processStat(pid);
    if (!stat || stat.ppid !== parent || stat.state === "Z") continue;
    let cmdline = "";
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch {
      continue;
    }
    if (cmdline.includes("terraform-provider-")) out.push(pid);
  }
  return out;
}
