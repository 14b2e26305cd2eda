// What the resident server (resident.ts) and its connection workers (resident-worker.ts) both
// need: their log, and what /proc says about a launcher. Nothing a launcher says is taken on
// trust but its pid; its environment, working directory and parent are read here.
import { appendFileSync, readFileSync } from "node:fs";
import { startTime } from "../proc-stat.js";

export { parentOf, startTime } from "../proc-stat.js";

/**
 * The server's own messages (connections, refusals, a crash), one line each with its pid, in
 * the file SCHEMAFORM_RESIDENT_LOG names (nowhere without it: the server has no terminal).
 * Workers write here too, under the same pid: they are threads of the same process.
 */
export function note(message: string): void {
  const file = process.env.SCHEMAFORM_RESIDENT_LOG;
  if (!file) return;
  try {
    appendFileSync(file, `${new Date().toISOString()} resident ${process.pid}: ${message}\n`);
  } catch {
    // a log that cannot be written is no reason to stop serving
  }
}

/**
 * A process as the launcher names a server: "<pid> <start time>", which is what `pid` files hold
 * (the launcher reads field 22 of /proc/<pid>/stat with the shell's `read`, so a server's
 * command name must hold no space: it is `node`). Undefined once the process is gone.
 */
export function processIdentity(pid: number): string | undefined {
  const start = startTime(pid);
  return start === undefined ? undefined : `${pid} ${start}`;
}

export function processEnvironment(pid: number): Map<string, string> {
  const env = new Map<string, string>();
  for (const entry of readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")) {
    const at = entry.indexOf("=");
    if (at > 0) env.set(entry.slice(0, at), entry.slice(at + 1));
  }
  return env;
}
