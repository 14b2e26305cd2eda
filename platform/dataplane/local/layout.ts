// Where a local service's files live, and the small state the driver keeps beside them.
//
//   <clusters dir>/<service id>/         owned by the cluster user, 0700
//     state.json                         ports, the last plan's shape (no verifiers), the last failure
//     node-0/                            data directory of the main endpoint (primary, or a read replica's standby)
//     node-1/, node-2/                   HA standbys (node-1 serves ports.replica)
//     run/                               the private unix sockets (0700)
//     log/node-<n>.log                   server logs (pg_ctl -l)
//     pooler/                            pgbouncer.ini, userlist.txt, pid and log
//
// As root, the clusters run as an unprivileged user who must be able to reach this directory.
// A data directory only root can enter (root's home is 0700) cannot hold them, and nothing is made
// traversable beside the platform's key: the clusters then live in
// /var/lib/schemaform/clusters-<hash of the requested directory>/, with an `origin` file naming it.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, rmdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { ServicePlan } from "../driver.js";
import { giveTo, isRoot, type RunUser } from "./run-user.js";

export const ROOT_CLUSTERS_BASE = "/var/lib/schemaform";
/** sun_path is 104 bytes on macOS, 108 on Linux */
const MAX_SOCKET_PATH = 100;

export interface ServiceState {
  id: string;
  role: ServicePlan["role"];
  sourceId?: string;
  running: boolean;
  haReplicas: number;
  syncReplicas: number;
  pooler: boolean;
  milliCpu: number;
  memoryGb: number;
  /** node index -> port (node-0: ports.main, node-1: ports.replica, others chosen free) */
  ports: Record<string, number>;
  poolerPort?: number;
  /** the cause of the last failed apply, cleared by the next good one */
  lastError?: string;
  /** the last apply waits for something outside the service (a read replica's source): phase starting */
  lastErrorWaiting?: boolean;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export function checkServiceId(id: string): void {
  if (!ID.test(id) || id.includes("..")) throw new Error(`service id ${JSON.stringify(id)} cannot name a directory (letters, digits, _ . - only)`);
}

/** Whether `user` can traverse every directory from / down to `dir` (the existing part of it). */
function reachable(dir: string, user: RunUser): boolean {
  let current = resolve(dir);
  const chain: string[] = [];
  for (;;) {
    chain.push(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const path of chain) {
    if (!existsSync(path)) continue;
    const stat = statSync(path);
    const mode = stat.mode;
    const ok = stat.uid === user.uid ? (mode & 0o100) !== 0 : user.groups.includes(stat.gid) ? (mode & 0o010) !== 0 : (mode & 0o001) !== 0;
    if (!ok) return false;
  }
  return true;
}

/**
 * The directory clusters live in for the requested one: itself, unless this process is root and
 * the cluster user cannot reach it (then a folder of its own under /var/lib/schemaform).
 */
export function resolveClustersDir(requested: string, user: RunUser): { dir: string; relocated: boolean } {
  const wanted = resolve(requested);
  if (!isRoot() || user.uid === 0) return { dir: wanted, relocated: false };
  // keyed by the path as given (resolved, symlinks kept), so that the key never changes once made
  const relocated = join(ROOT_CLUSTERS_BASE, `clusters-${createHash("sha256").update(wanted).digest("hex").slice(0, 16)}`);
  // once relocated, always: a data directory opened up later must not lose its running clusters
  if (existsSync(join(relocated, "origin"))) return { dir: relocated, relocated: true };
  return reachable(wanted, user) ? { dir: wanted, relocated: false } : { dir: relocated, relocated: true };
}

/** Makes the clusters directory (0711: the cluster user passes through to its own service folders); a relocated one names its origin. */
export function prepareClustersDir(dir: string, origin: string | undefined): void {
  mkdirSync(dir, { recursive: true, mode: 0o711 });
  if (origin !== undefined && !existsSync(join(dir, "origin"))) writeFileSync(join(dir, "origin"), `${resolve(origin)}\n`, { mode: 0o644 });
}

/** Removes a relocated clusters directory that holds nothing but its origin file (rmdir: never a service that just appeared). */
export function removeEmptyClustersDir(dir: string): void {
  try {
    if (readdirSync(dir).some((name) => name !== "origin")) return;
    rmSync(join(dir, "origin"), { force: true });
    rmdirSync(dir);
  } catch {
    // a service appeared meanwhile, or it is gone already
  }
}

export class ServiceLayout {
  readonly dir: string;
  constructor(readonly clustersDir: string, readonly id: string) {
    checkServiceId(id);
    this.dir = join(clustersDir, id);
  }
  get stateFile(): string {
    return join(this.dir, "state.json");
  }
  nodeDir(index: number): string {
    return join(this.dir, `node-${index}`);
  }
  logFile(index: number): string {
    return join(this.dir, "log", `node-${index}.log`);
  }
  get poolerDir(): string {
    return join(this.dir, "pooler");
  }
  /**
   * The private socket directory: under the service, or a short one in the temp dir when that
   * path would be too long for a socket, or holds characters that libpq's host lists and
   * PostgreSQL's directory lists treat specially (spaces, commas, quotes).
   */
  get socketDir(): string {
    const own = join(this.dir, "run");
    if (`${own}/.s.PGSQL.65535`.length <= MAX_SOCKET_PATH && /^[A-Za-z0-9_./-]+$/.test(own)) return own;
    return join(tmpdir(), `schemaform-pg-${createHash("sha256").update(this.dir).digest("hex").slice(0, 16)}`);
  }

  /** Makes the service's directories, owned by the cluster user, 0700. */
  ensure(user: RunUser): void {
    for (const dir of [this.dir, join(this.dir, "log"), this.socketDir]) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      giveTo(user, dir);
    }
  }

  readState(): ServiceState | undefined {
    try {
      return JSON.parse(readFileSync(this.stateFile, "utf8")) as ServiceState;
    } catch {
      return undefined;
    }
  }

  writeState(state: ServiceState): void {
    const temp = `${this.stateFile}.tmp`;
    writeFileSync(temp, JSON.stringify(state, null, 2) + "\n", { mode: 0o600 });
    renameSync(temp, this.stateFile);
  }
}
