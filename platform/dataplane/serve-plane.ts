// The data plane of `schemaform platform serve`. On SQLite the server is one more client of its
// data directory: the detached agent is started now, as any platform call would. On PostgreSQL
// (several replicas may share the database) each replica runs an agent in its own process over
// the server's storage, and the lease (lease.ts) lets exactly one of them reconcile; the others
// wait, ready to take over when the holder's lease expires. Its files live in the server's data
// directory (SCHEMAFORM_DATA_DIR, else the per-user one).

import type { EmbeddedPlatform } from "../embedded.js";
import { Agent } from "./agent.js";
import { createLocalComponents } from "./components.js";
import { openLocalDriver } from "./local-plane.js";

export interface ServedDataPlane {
  stop(): Promise<void>;
}

/** A hook for the platform's changes, set before the platform opens, bound to the agent later. */
export function changeRelay(): { notify: () => void; bind(agent: Agent): void } {
  let target: Agent | undefined;
  return { notify: () => target?.poke(), bind: (agent) => (target = agent) };
}

export async function serveDataPlane(platform: EmbeddedPlatform, relay: ReturnType<typeof changeRelay> | undefined, log: (line: string) => void): Promise<ServedDataPlane | undefined> {
  const core = await platform.core();
  if (!core.ctx.dataPlane.on) return undefined;
  if (!relay) {
    platform.prepareDataPlane(true);
    return undefined;
  }
  const driver = await openLocalDriver(platform.dataDir, log);
  const store = core.ctx.store;
  const components = createLocalComponents({ store, box: core.ctx.box, driver, dataDir: platform.dataDir, log });
  const agent = new Agent({ store, driver, components, log });
  relay.bind(agent);
  const running = agent.run();
  log(`${new Date().toISOString()} data-plane agent ${agent.holder} started (it reconciles while it holds the lease)`);
  return {
    async stop() {
      agent.stop();
      await running;
    },
  };
}
