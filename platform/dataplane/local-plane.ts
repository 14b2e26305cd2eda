// The local data plane of one data directory: the local driver (PostgreSQL processes on this
// machine) with its files under <data dir>/dataplane/, and the connectors and exporters it runs.

import { join } from "node:path";
import type { DataPlaneDriver } from "./driver.js";
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { findBinaries } from "./binaries.js";
import { ROOT_CLUSTERS_BASE } from "./local/layout.js";
import { stopNode } from "./local/node.js";
import { stopPooler } from "./local/pooler.js";
import { resolveRunUser } from "./local/run-user.js";
import { createLocalDriver, type LocalDriver } from "./local/driver.js";
import type { ComponentRunner } from "./agent.js";
import { createLocalComponents, type ComponentsOptions } from "./components.js";

export function dataPlaneDir(dataDir: string): string {
  return join(dataDir, "dataplane");
}

export async function openLocalDriver(dataDir: string, log: (line: string) => void): Promise<DataPlaneDriver> {
  // in the background: removing a few hundred files must not delay the first apply
  void collectOrphans(log).catch(() => {});
  const dir = dataPlaneDir(dataDir);
  return createLocalDriver({ stateDir: join(dir, "clusters"), caDir: join(dir, "ca"), log });
}

export async function openLocalComponents(options: ComponentsOptions): Promise<ComponentRunner> {
  return createLocalComponents(options);
}

/** Removes the clusters directory of a data directory that is gone (the spare, the origin file). */
export async function forgetLocalDataDir(driver: DataPlaneDriver): Promise<void> {
  const clustersDir = (driver as Partial<LocalDriver>).clustersDir;
  if (clustersDir) rmSync(clustersDir, { recursive: true, force: true });
}

/**
 * Clusters kept outside their data directory (as root: /var/lib/schemaform/clusters-<hash>/, with
 * an `origin` file naming the directory they belong to) whose data directory is gone: nothing
 * will ever want them (the desired state went with it), so they are stopped and removed. Run when
 * an agent starts; a data directory deleted while its agent runs is handled by that agent.
 */
async function collectOrphans(log: (line: string) => void): Promise<void> {
  if (!existsSync(ROOT_CLUSTERS_BASE)) return;
  const pgBin = findBinaries().pgBin;
  const user = resolveRunUser(undefined).user;
  for (const name of readdirSync(ROOT_CLUSTERS_BASE)) {
    if (!name.startsWith("clusters-")) continue;
    const dir = join(ROOT_CLUSTERS_BASE, name);
    let origin: string;
    try {
      origin = readFileSync(join(dir, "origin"), "utf8").trim();
    } catch {
      continue;
    }
    // origin is <data dir>/dataplane/clusters: the data directory is what must still exist (a
    // server on PostgreSQL has no platform.db in it, so the directory itself is the test)
    if (!origin || existsSync(dirname(dirname(origin)))) continue;
    for (const service of readdirSync(dir, { withFileTypes: true })) {
      if (!service.isDirectory() || service.name.startsWith(".")) continue;
      const serviceDir = join(dir, service.name);
      await stopPooler(join(serviceDir, "pooler")).catch(() => {});
      for (const node of readdirSync(serviceDir).filter((n) => n.startsWith("node-"))) {
        if (pgBin && user) await stopNode({ pgBin, user, log }, join(serviceDir, node), "immediate").catch(() => {});
      }
    }
    rmSync(dir, { recursive: true, force: true });
    log(`${new Date().toISOString()} removed the clusters of ${dirname(dirname(origin))}, a data directory that is gone`);
  }
}
