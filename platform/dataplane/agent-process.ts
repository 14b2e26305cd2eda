// `schemaform platform agent [--data-dir DIR]`: the detached process that runs one data
// directory's data plane (agent.ts), started on demand by the embedded client (launcher.ts).
// One per data directory (agent-lock.ts); it leaves when nothing has needed it for a while, and
// on SIGTERM/SIGINT. The databases are detached processes of their own: an agent that dies (or is
// stopped) leaves them running, and the next agent adopts them (the driver finds them by their
// postmaster.pid); what no stored service wants any more it removes. So a crash of the agent
// never takes the databases down, and `schemaform down` / destroy, which delete every service,
// leave nothing running.

import { openStore } from "../store.js";
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
    const stop = () => agent?.stop();
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
    log(`${new Date().toISOString()} agent ${agent.holder} runs the data plane of ${options.dataDir} (driver ${driver.name})`);
    const why = await agent.run();
    log(`${new Date().toISOString()} agent leaves: ${why === "idle" ? "nothing needs it" : "stopped"}`);
    return 0;
  } finally {
    release();
    await store?.close();
  }
}
