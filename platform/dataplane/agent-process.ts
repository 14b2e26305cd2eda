// `schemaform platform agent [--data-dir DIR]`: the detached process that runs one data
// directory's data plane (agent.ts), started on demand by the embedded client (launcher.ts).
// One per data directory (agent-lock.ts); it leaves when nothing has needed it for a while, and
// on SIGTERM/SIGINT. The databases are detached processes of their own: an agent that dies (or is
// stopped) leaves them running, and the next agent adopts them (the driver finds them by their
// postmaster.pid); what no stored service wants any more it removes. So a crash of the agent
// never takes the databases down, and `schemaform down` / destroy, which delete every service,
// leave nothing running.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { DB_FILE, openStore } from "../store.js";
import { SecretBox, loadOrCreateKey } from "../secrets.js";
import type { Storage } from "../storage.js";
import { Agent, type ComponentRunner } from "./agent.js";
import { takeAgentLock } from "./agent-lock.js";
import type { DataPlaneDriver } from "./driver.js";
import { recordedMode } from "./mode.js";

export interface AgentProcessOptions {
  dataDir: string;
  loadNativeBinding?: () => object;
  openDriver: (dataDir: string, log: (line: string) => void) => Promise<DataPlaneDriver>;
  openComponents?: (options: { store: Storage; box: SecretBox; driver: DataPlaneDriver; dataDir: string; log: (line: string) => void }) => Promise<ComponentRunner | undefined>;
  /** default 10 s */
  idleExitMs?: number;
  /** the data directory is gone: remove what the driver keeps for it elsewhere (its clusters directory) */
  forgetDataDir?: (driver: DataPlaneDriver) => Promise<void>;
  log?: (line: string) => void;
}

export async function runAgentProcess(options: AgentProcessOptions): Promise<number> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  let agent: Agent | undefined;
  let pendingIdleExit = false;
  const release = await takeAgentLock(options.dataDir, (message) => {
    if (message === "poke") agent?.poke();
    else if (agent) agent.exitIfIdle();
    else pendingIdleExit = true;
  });
  if (!release) {
    log(`${new Date().toISOString()} an agent already runs for ${options.dataDir}`);
    return 0;
  }
  let store: Storage | undefined;
  try {
    store = await openStore({ dataDir: options.dataDir, loadNativeBinding: options.loadNativeBinding });
    const mode = await recordedMode(store);
    if (mode !== "on") {
      log(`${new Date().toISOString()} ${options.dataDir} keeps records only (SCHEMAFORM_DATA_PLANE=${mode ?? "unset"}): nothing to run`);
      return 0;
    }
    const box = new SecretBox(loadOrCreateKey(options.dataDir));
    const driver = await options.openDriver(options.dataDir, log);
    const components = await options.openComponents?.({ store, box, driver, dataDir: options.dataDir, log });
    agent = new Agent({ store, driver, components, idleExitMs: options.idleExitMs ?? 10_000, log });
    if (pendingIdleExit) agent.exitIfIdle();
    const stop = () => {
      agent?.stop();
      // work in flight (a connector waiting on an unreachable source) gets 10 s, then the process goes
      setTimeout(() => process.exit(0), 10_000).unref();
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
    // A data directory deleted under a running agent (a test's temporary directory, a user's
    // rm -rf) took the desired state with it: what ran for it is an orphan; remove it and leave.
    let orphaned = false;
    const watchdog = setInterval(() => {
      if (orphaned || existsSync(join(options.dataDir, DB_FILE))) return;
      orphaned = true;
      agent?.stop();
    }, 2000);
    watchdog.unref();
    log(`${new Date().toISOString()} agent ${agent.holder} runs the data plane of ${options.dataDir} (driver ${driver.name})`);
    const why = await agent.run();
    clearInterval(watchdog);
    if (orphaned) {
      log(`${new Date().toISOString()} ${options.dataDir} is gone: removing what ran for it`);
      for (const id of await driver.listServices()) await driver.removeService(id).catch(() => {});
      await options.forgetDataDir?.(driver);
    }
    log(`${new Date().toISOString()} agent leaves: ${why === "idle" ? "nothing needs it" : "stopped"}`);
    return 0;
  } finally {
    release();
    await store?.close();
  }
}
