// What a local service looks like from outside, without changing anything: which of its
// processes are alive (by their own pid files), which accept connections, how much disk it uses,
// and the phase that follows. `running` only when every planned process serves.

import { existsSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { ObservedProcess, ServiceObserved } from "../driver.js";
import type { ServiceLayout, ServiceState } from "./layout.js";
import { livePostmasterPid, probe } from "./node.js";
import { livePoolerPid } from "./pooler.js";

/** Bytes of every file under dir (links not followed). */
export function directoryBytes(dir: string): number {
  let total = 0;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry);
    try {
      const stat = lstatSync(path);
      total += stat.isDirectory() ? directoryBytes(path) : stat.size;
    } catch {
      // removed while walking (WAL recycled): not counted
    }
  }
  return total;
}

// the agent observes every service about once a second: a walk of a cluster's ~1,000 files is
// cheap, but not worth doing that often for a number that changes slowly
const DISK_CACHE_MS = 10_000;
const diskCache = new Map<string, { at: number; bytes: number }>();

function serviceBytes(dir: string): number {
  const cached = diskCache.get(dir);
  if (cached && Date.now() - cached.at < DISK_CACHE_MS) return cached.bytes;
  const bytes = directoryBytes(dir);
  diskCache.set(dir, { at: Date.now(), bytes });
  return bytes;
}

/** The node indexes a state plans (0 and its HA standbys). */
export function plannedNodes(state: ServiceState): number[] {
  return Array.from({ length: 1 + (state.role === "primary" ? state.haReplicas : 0) }, (_, index) => index);
}

export async function observeLayout(layout: ServiceLayout, poolerAvailable: boolean): Promise<ServiceObserved> {
  const observed: ServiceObserved = { id: layout.id, phase: "absent", processes: [], diskBytes: 0, warnings: [] };
  if (!existsSync(layout.dir)) {
    diskCache.delete(layout.dir);
    return observed;
  }
  observed.diskBytes = serviceBytes(layout.dir);
  const state = layout.readState();
  if (!state) {
    observed.phase = "stopped";
    return observed;
  }
  const down: string[] = [];
  let starting = false;
  const nodes = Object.keys(state.ports).map(Number).sort((a, b) => a - b);
  for (const index of nodes) {
    const port = state.ports[String(index)]!;
    const dataDir = layout.nodeDir(index);
    const name = index === 0 ? (state.role === "primary" ? "the primary" : "the read replica") : `standby ${index}`;
    const pid = livePostmasterPid(dataDir);
    if (pid === undefined) {
      down.push(`${name} (port ${port}) is not running`);
      continue;
    }
    const kind: ObservedProcess["kind"] = index === 0 && state.role === "primary" ? "postgres" : "standby";
    observed.processes.push({ kind, pid, port, dataDir });
    const seen = await probe({ socketDir: layout.socketDir, port });
    if (!seen.ready) {
      if (seen.reason === "starting") starting = true;
      else down.push(`${name} (port ${port}) does not accept connections`);
    }
  }
  const poolerDir = layout.poolerDir;
  const poolerPid = livePoolerPid(poolerDir);
  if (poolerPid !== undefined && state.poolerPort !== undefined) observed.processes.push({ kind: "pgbouncer", pid: poolerPid, port: state.poolerPort });
  else if (state.pooler && poolerAvailable && state.running) down.push(`the pooler (port ${state.poolerPort}) is not running`);

  if (!state.running) {
    observed.phase = observed.processes.length === 0 ? "stopped" : "failed";
    if (observed.processes.length > 0) observed.message = "paused, but some of its processes still run";
    return observed;
  }
  if (state.lastError) {
    observed.phase = state.lastErrorWaiting ? "starting" : "failed";
    observed.message = state.lastError;
    return observed;
  }
  const planned = plannedNodes(state);
  const missing = planned.filter((index) => !(String(index) in state.ports));
  for (const index of missing) down.push(`node ${index} has no port`);
  if (down.length > 0) {
    observed.phase = "failed";
    observed.message = down.join("; ");
  } else if (starting) {
    observed.phase = "starting";
  } else {
    observed.phase = "running";
  }
  return observed;
}
