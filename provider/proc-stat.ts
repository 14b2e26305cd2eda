// What /proc/<pid>/stat says about a process (Linux): whether it lives, its parent, and when it
// started. The resident server (transport/) and the destroy detection (framework/) both judge
// other processes by it.
import { readFileSync } from "node:fs";

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces): state first. */
function statFields(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** The parent of a live process, or undefined once it is gone (or a zombie). */
export function parentOf(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields && fields[0] !== "Z" ? Number(fields[1]) : undefined;
}

/**
 * When a live process started (clock ticks since boot, field 22 of /proc/<pid>/stat), or
 * undefined once it is gone. A pid is reused; a pid and its start time name one process for the
 * machine's uptime, so what was learnt about a process is keyed by both.
 */
export function startTime(pid: number): string | undefined {
  const fields = statFields(pid);
  return fields && fields[0] !== "Z" ? fields[19] : undefined;
}

