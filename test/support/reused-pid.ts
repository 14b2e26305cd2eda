// Starting a process under a pid that another process had (Linux): the kernel hands out the pid
// after /proc/sys/kernel/ns_last_pid next, so writing one less than the wanted pid right before a
// spawn reuses it, unless another process of the machine forks in between (then it is tried again).
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";

const NS_LAST_PID = "/proc/sys/kernel/ns_last_pid";

/** Spawns `command` (as `spawn` would) until it runs as `pid`; throws after 50 tries. */
export async function spawnWithPid(pid: number, command: string, args: string[], options: Parameters<typeof spawn>[2] = {}): Promise<ChildProcess> {
  for (let attempt = 0; attempt < 50; attempt++) {
    writeFileSync(NS_LAST_PID, String(pid - 1));
    const child = spawn(command, args, options);
    if (child.pid === pid) return child;
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
  }
  throw new Error(`could not start a process as pid ${pid} (${NS_LAST_PID} must be writable: run as root)`);
}
