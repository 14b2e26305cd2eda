// The client side of the agent: a platform call with the data plane on makes sure the data
// directory's agent runs (a connect to its socket, at most once every few seconds per process),
// starts it detached when it does not, and pokes it after a change so that it reconciles at once
// rather than at its next tick.
//
// How the agent is started depends on what runs us: the schemaform CLI and library start
// `node <package>/dist/cli/main.js platform agent --data-dir DIR`; the bundled provider plugin,
// which has no package beside it, passes `agentCommand` to start its own executable with the same
// arguments (provider/main.ts runs the agent when asked).

import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { AGENT_LOG_FILE, AGENT_MARK, agentPid, ensureAgentDir, sendToAgent } from "./agent-lock.js";

export interface AgentCommand {
  command: string;
  args: string[];
}

/** The schemaform CLI's entry, beside this module in dist/ (or built from the sources' checkout). */
function cliEntry(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, "..", "..", "cli", "main.js"), join(here, "..", "..", "dist", "cli", "main.js"), join(here, "..", "..", "..", "cli", "main.js")];
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new Error(`cannot start the data-plane agent: the schemaform CLI was not found (looked for ${candidates.join(", ")}); run 'npm run build'`);
  return found;
}

/** The command that runs the agent of `dataDir` with the schemaform CLI. */
export function cliAgentCommand(dataDir: string): AgentCommand {
  return { command: process.execPath, args: [cliEntry(), "platform", AGENT_MARK, "--data-dir", resolve(dataDir)] };
}

/** Variables of the plugin protocol that must not reach a process Terraform did not start. */
const PLUGIN_VARIABLES = /^(PLUGIN_|TF_PLUGIN_MAGIC_COOKIE|TF_REATTACH_PROVIDERS)/;

/** A start claimed by another process this long ago is still under way (the agent takes its lock). */
const START_CLAIM_MS = 5000;

/**
 * Claims the start of the agent for this process: several plugin processes of one Terraform
 * command notice a missing agent at once, and one start is enough.
 */
function claimStart(dir: string): boolean {
  const claim = join(dir, "starting");
  try {
    if (Date.now() - statSync(claim).mtimeMs < START_CLAIM_MS) return false;
    rmSync(claim, { force: true });
  } catch {
    // no claim yet
  }
  try {
    closeSync(openSync(claim, "wx", 0o600));
    return true;
  } catch {
    return false; // another process claimed it just now
  }
}

/** Starts the agent detached (its own session, output to `dataplane/agent/agent.log`); returns its pid. */
export function startAgent(dataDir: string, command: AgentCommand): number | undefined {
  const dir = ensureAgentDir(dataDir);
  if (!claimStart(dir)) return undefined;
  const log = openSync(join(dir, AGENT_LOG_FILE), "a", 0o600);
  try {
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!PLUGIN_VARIABLES.test(key)) env[key] = value;
    const child = spawn(command.command, command.args, { detached: true, stdio: ["ignore", log, log], env, cwd: dir });
    child.on("error", () => {});
    child.unref();
    return child.pid;
  } finally {
    closeSync(log);
  }
}

const CHECK_EVERY_MS = 3000;

/** Keeps one data directory's agent running, for one client. */
export class AgentLink {
  #checkedAt = 0;
  #startedAt = 0;
  #checking: Promise<void> | undefined;

  constructor(
    readonly dataDir: string,
    readonly command: (dataDir: string) => AgentCommand = cliAgentCommand,
  ) {}

  /** Cheap when checked recently; otherwise a connect, and a start when nothing answers. */
  ensure(): Promise<void> {
    if (Date.now() - this.#checkedAt < CHECK_EVERY_MS) return Promise.resolve();
    this.#checking ??= (async () => {
      try {
        if (!(await sendToAgent(this.dataDir, "ping")) && Date.now() - this.#startedAt > CHECK_EVERY_MS) {
          // (one start per few seconds: a new agent needs a moment to take its lock)
          startAgent(this.dataDir, this.command(this.dataDir));
          this.#startedAt = Date.now();
        }
        this.#checkedAt = Date.now();
      } finally {
        this.#checking = undefined;
      }
    })();
    return this.#checking;
  }

  /** Desired state changed: reconcile now (starting the agent if it is not there). */
  poke(): void {
    void sendToAgent(this.dataDir, "poke").then((answered) => {
      if (!answered) {
        this.#checkedAt = 0;
        return this.ensure();
      }
    }).catch(() => {});
  }
}

/**
 * Asks the data directory's agent to leave if nothing needs it, and waits (a few seconds at most)
 * until it has: `schemaform down` leaves no process behind.
 */
export async function stopIdleAgent(dataDir: string, waitMs = 10_000): Promise<void> {
  const pid = agentPid(dataDir);
  if (!(await sendToAgent(dataDir, "exit-if-idle"))) return;
  const deadline = Date.now() + waitMs;
  const gone = async () => !(await sendToAgent(dataDir, "ping", 300)) && (pid === undefined || !isAlive(pid));
  while (Date.now() < deadline && !(await gone())) await new Promise((resolve) => setTimeout(resolve, 100));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
