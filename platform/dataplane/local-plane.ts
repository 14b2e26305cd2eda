// The local data plane of one data directory: the local driver (PostgreSQL processes on this
// machine) with its files under <data dir>/dataplane/, and the connectors and exporters it runs.

import { join } from "node:path";
import type { DataPlaneDriver } from "./driver.js";
import { rmSync } from "node:fs";
import { createLocalDriver, type LocalDriver } from "./local/driver.js";
import type { ComponentRunner } from "./agent.js";
import { createLocalComponents, type ComponentsOptions } from "./components.js";

export function dataPlaneDir(dataDir: string): string {
  return join(dataDir, "dataplane");
}

export async function openLocalDriver(dataDir: string, log: (line: string) => void): Promise<DataPlaneDriver> {
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
