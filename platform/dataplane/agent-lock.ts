// One agent per data directory, and how others reach it.
//
// The lock is a listening unix socket: on Linux in the abstract namespace (`\0schemaform-agent-
// <hash of the data directory>`), which the kernel releases when the process dies however it
// dies, so a crashed agent never leaves a stale lock and a reused pid can never pass for it;
// elsewhere a socket file in the data directory, taken over when nothing answers on it. The same
// socket is how a platform client asks "are you there?" (a connect: well under a millisecond)
// and says "desired state changed" (a line `poke`), and how `schemaform down` asks an idle agent
// to leave now (`exit-if-idle`).
//
// `agent.pid` beside it is for people and `platform status`: the pid is believed only when that
// process's command line names the agent and this data directory (/proc/<pid>/cmdline).

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { dirname, join, resolve } from "node:path";

/** The agent's own files (pid, log): private, beside the data plane's other files (<data dir>/dataplane/). */
export const AGENT_DIR = join("dataplane", "agent");
export const AGENT_PID_FILE = "agent.pid";
export const AGENT_LOG_FILE = "agent.log";
/** The argument that names the agent on its command line (CLI and bundled provider alike). */
export const AGENT_MARK = "agent";

function canonicalDir(dataDir: string): string {
  const wanted = resolve(dataDir);
  try {
    return realpathSync(wanted);
  } catch {
    return wanted;
  }
}

export function agentDir(dataDir: string): string {
  return join(resolve(dataDir), AGENT_DIR);
}

/** Makes the agent's directory: dataplane/ traversable (the clusters' user may need to pass), agent/ private. */
export function ensureAgentDir(dataDir: string): string {
  const dir = agentDir(dataDir);
  mkdirSync(dirname(dir), { recursive: true, mode: 0o711 });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** The agent's socket address for a data directory. */
export function agentSocket(dataDir: string): string {
  if (process.platform === "linux") return `\0schemaform-agent-${createHash("sha256").update(canonicalDir(dataDir)).digest("hex").slice(0, 32)}`;
  return join(agentDir(dataDir), "agent.sock");
}

export type AgentMessage = "poke" | "exit-if-idle";

/** Sends one line to the data directory's agent. False when no agent answers. */
export function sendToAgent(dataDir: string, message: AgentMessage | "ping", timeoutMs = 1000): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(agentSocket(dataDir));
    const timer = setTimeout(() => finish(false), timeoutMs);
    timer.unref();
    let settled = false;
    const finish = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      done(ok);
    };
    socket.once("connect", () => socket.end(`${message}\n`, () => finish(true)));
    socket.once("error", () => finish(false));
  });
}

/**
 * Takes the data directory's agent lock, serving `onMessage`; undefined when another agent holds
 * it. The returned release closes the socket and removes the pid file.
 */
export async function takeAgentLock(dataDir: string, onMessage: (message: AgentMessage) => void): Promise<(() => void) | undefined> {
  const dir = ensureAgentDir(dataDir);
  const address = agentSocket(dataDir);
  const server = createServer((socket) => {
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
      if (text.length > 256) socket.destroy();
    });
    socket.on("end", () => {
      for (const line of text.split("\n")) if (line === "poke" || line === "exit-if-idle") onMessage(line);
    });
    socket.on("error", () => {});
  });
  const listen = () =>
    new Promise<boolean>((done) => {
      server.once("error", () => done(false));
      server.listen(address, () => done(true));
    });
  let ok = await listen();
  if (!ok && !address.startsWith("\0") && !(await sendToAgent(dataDir, "ping", 500))) {
    // a socket file left by a dead agent
    rmSync(address, { force: true });
    ok = await listen();
  }
  if (!ok) return undefined;
  server.unref();
  const pidFile = join(dir, AGENT_PID_FILE);
  writeFileSync(pidFile, `${process.pid}\n`, { mode: 0o644 });
  // the pid file goes with the process (its last act), so that "pid file, live pid" means running
  process.once("exit", () => {
    try {
      if (readFileSync(pidFile, "utf8").trim() === String(process.pid)) rmSync(pidFile, { force: true });
    } catch {
      // already gone
    }
  });
  return () => {
    server.close();
  };
}

/** The running agent's pid, believed only when its command line names the agent and this directory. */
export function agentPid(dataDir: string): number | undefined {
  const pidFile = join(agentDir(dataDir), AGENT_PID_FILE);
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, "utf8").trim());
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    const dirs = new Set([resolve(dataDir), canonicalDir(dataDir)]);
    return args.includes(AGENT_MARK) && args.some((a) => dirs.has(a)) ? pid : undefined;
  } catch {
    // no /proc (macOS) or no such process: a live socket is the proof instead
    return undefined;
  }
}
