// One spare cluster, made ahead: `initdb` is most of the time it takes to create a service (0.6-
// 2.5 s here, against 0.1-0.3 s to start the server), so after each initdb the driver makes the
// next one in the background, and a new primary takes the spare (a rename) instead of waiting
// for initdb. The spare is a plain data directory, never started; it lives at
// <clusters dir>/.spare/node (about 40 MB), made with the same initdb as any node (node.ts), and
// is used only by the same PostgreSQL (its bin directory is recorded beside it).

import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { giveTo, type RunUser } from "./run-user.js";

const SPARE_DIR = ".spare";

export function spareOf(clustersDir: string): { dir: string; node: string; made: string } {
  const dir = join(clustersDir, SPARE_DIR);
  return { dir, node: join(dir, "node"), made: join(dir, "pg-bin") };
}

/** Moves the spare to `dataDir` when there is one made by `pgBin`; true when it did. */
export function takeSpare(clustersDir: string, pgBin: string, dataDir: string): boolean {
  const spare = spareOf(clustersDir);
  try {
    if (!existsSync(join(spare.node, "PG_VERSION")) || readFileSync(spare.made, "utf8") !== pgBin) return false;
    renameSync(spare.node, dataDir); // atomic: of two takers, one gets it
    return true;
  } catch {
    return false;
  }
}

let making: Promise<void> | undefined;

/** Whether a spare is being made (the agent waits for it before it leaves). */
export function makingSpare(): boolean {
  return making !== undefined;
}

/**
 * Makes the next spare in the background, unless one exists or is being made. `init` runs initdb
 * into the directory it is given (node.ts), as the cluster user.
 */
export function replenishSpare(clustersDir: string, pgBin: string, user: RunUser, init: (dir: string) => Promise<void>): void {
  if (making) return;
  const spare = spareOf(clustersDir);
  if (existsSync(join(spare.node, "PG_VERSION"))) return;
  making = (async () => {
    mkdirSync(spare.dir, { recursive: true, mode: 0o700 });
    giveTo(user, spare.dir);
    rmSync(spare.node, { recursive: true, force: true });
    await init(spare.node);
    writeFileSync(spare.made, pgBin);
  })()
    .catch(() => {
      rmSync(spare.node, { recursive: true, force: true }); // a half-made spare is no spare
    })
    .finally(() => {
      making = undefined;
    });
}

/** The directory a node's data directory lives in: <clusters dir>/<service id>/node-N. */
export function clustersDirOf(dataDir: string): string {
  return dirname(dirname(dataDir));
}
