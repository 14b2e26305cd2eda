// One PostgreSQL instance (a primary or a standby) of a local cluster: created with initdb or
// pg_basebackup into a temporary directory that is renamed into place only when complete, started
// detached with `pg_ctl start` (which daemonizes the postmaster in a session of its own, so it
// outlives the process that called the driver), found by its own postmaster.pid and never by
// process name, and checked by connecting over its private unix socket.

import { existsSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { diskFull, failureLines } from "./tool-output.js";
import { join } from "node:path";
import type { Client as PgClient } from "pg";
import { giveTo, lastLines, runAs, type RunUser } from "./run-user.js";
import { clustersDirOf, replenishSpare, takeSpare } from "./spare.js";
import { SETTINGS_FILE, renderSettings } from "./settings.js";

/** the superuser initdb creates; it logs in only over the private socket (trust) */
export const SUPERUSER = "postgres";

export interface NodeTools {
  pgBin: string;
  user: RunUser;
  log: (line: string) => void;
}

export interface NodePaths {
  dataDir: string;
  logFile: string;
  socketDir: string;
  port: number;
}

export class NodeError extends Error {}

function pidInFile(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, "utf8").split("\n")[0]!.trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a live pid is still the process its pid file was written by. After a reboot the number
 * may belong to any other program: on Linux the postmaster's working directory is its data
 * directory (pgbouncer's command line names its ini file), which no other process shares.
 */
function sameProcess(pid: number, check: { cwd?: string; cmdlineIncludes?: string }): boolean {
  if (!existsSync("/proc/self")) return true;
  try {
    if (check.cwd !== undefined) return realpathSync(`/proc/${pid}/cwd`) === realpathSync(check.cwd);
    if (check.cmdlineIncludes !== undefined) return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(check.cmdlineIncludes);
  } catch {
    return false;
  }
  return true;
}

/** The pid in a pid file when it names a live process that is still the one that wrote it. */
export function livePidOf(file: string, check: { cwd?: string; cmdlineIncludes?: string }): number | undefined {
  const pid = pidInFile(file);
  return pid !== undefined && isAlive(pid) && sameProcess(pid, check) ? pid : undefined;
}

/** The postmaster's pid when its postmaster.pid names a live postmaster of this data directory. */
export function livePostmasterPid(dataDir: string): number | undefined {
  return livePidOf(join(dataDir, "postmaster.pid"), { cwd: dataDir });
}

/**
 * Removes a postmaster.pid whose pid is alive but another program (reused after a reboot):
 * PostgreSQL would refuse to start, taking it for another postmaster. A pid file of a dead
 * postmaster stays: PostgreSQL uses it to see whether the dead one's children still hold its memory.
 */
function clearForeignPidFile(dataDir: string): void {
  const file = join(dataDir, "postmaster.pid");
  const pid = pidInFile(file);
  if (pid !== undefined && isAlive(pid) && !sameProcess(pid, { cwd: dataDir })) rmSync(file, { force: true });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  // a zombie (killed, not yet reaped by its parent) is no server
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

export function hasData(dataDir: string): boolean {
  return existsSync(join(dataDir, "PG_VERSION"));
}

const HBA = [
  "# written by schemaform's local data-plane driver",
  "# the private socket (0700, the cluster user's): the driver's superuser, replication of standbys",
  "local all all trust",
  "local replication all trust",
  "# loopback TCP: SCRAM passwords only",
  "hostssl all all 127.0.0.1/32 scram-sha-256",
  "host all all 127.0.0.1/32 scram-sha-256",
  "hostssl replication all 127.0.0.1/32 scram-sha-256",
  "host replication all 127.0.0.1/32 scram-sha-256",
  "",
].join("\n");

function writeOwned(tools: NodeTools, file: string, content: string, mode = 0o600): void {
  writeFileSync(file, content, { mode });
  giveTo(tools.user, file);
}

/** writeOwned unless the file already holds exactly that (an apply that changes nothing touches nothing). */
function writeIfChanged(tools: NodeTools, file: string, content: string): void {
  try {
    if (readFileSync(file, "utf8") === content) return;
  } catch {
    // missing: written below
  }
  writeOwned(tools, file, content);
}

/**
 * Writes the node's settings file (postgresql.conf includes it last) and pg_hba.conf. A settings
 * file PostgreSQL would reject (an invalid value) is put back as it was, and the error names the
 * setting: a running server would silently keep its old value on reload, and a stopped one
 * would not start.
 */
export async function writeNodeConfig(tools: NodeTools, dataDir: string, settings: Record<string, string>): Promise<void> {
  const file = join(dataDir, SETTINGS_FILE);
  const previous = existsSync(file) ? readFileSync(file, "utf8") : undefined;
  const next = renderSettings(settings);
  if (previous !== next) {
    writeOwned(tools, file, next);
    // `postgres -C` parses every configuration file and fails on an invalid value, running server or not
    const check = await runAs(tools.user, join(tools.pgBin, "postgres"), ["-D", dataDir, "-C", "port"], { timeoutMs: 30_000 });
    if (check.code !== 0) {
      if (previous === undefined) rmSync(file, { force: true });
      else writeOwned(tools, file, previous);
      const reasons = check.stderr
        .split("\n")
        .map((line) => line.replace(/^.*?(LOG|FATAL|ERROR|DETAIL|HINT):\s+/, ""))
        .filter((line) => line.trim() && !/contains errors/.test(line));
      throw new NodeError(`the settings are not valid: ${reasons.slice(0, 3).join("; ") || lastLines(check.stderr)}`);
    }
  }
  writeIfChanged(tools, join(dataDir, "pg_hba.conf"), HBA);
  const main = join(dataDir, "postgresql.conf");
  const text = readFileSync(main, "utf8");
  const include = `include_if_exists = '${SETTINGS_FILE}'`;
  if (!text.includes(include)) writeOwned(tools, main, `${text.trimEnd()}\n\n# schemaform's settings win over the defaults above\n${include}\n`);
}

/** The server's TLS files, owned by the cluster user and 0600 (PostgreSQL refuses a readable key). */
export function writeCertificate(tools: NodeTools, dataDir: string, certPem: string, keyPem: string): void {
  writeOwned(tools, join(dataDir, "server.key"), keyPem, 0o600);
  writeOwned(tools, join(dataDir, "server.crt"), certPem, 0o644);
}

/** initdb into `<dataDir>.new`, renamed into place when complete (a half-made cluster is never taken for one). */
export async function initCluster(tools: NodeTools, dataDir: string): Promise<void> {
  // a spare made ahead (spare.ts) saves the initdb; the next spare is made in the background
  const clustersDir = clustersDirOf(dataDir);
  const next = () => replenishSpare(clustersDir, tools.pgBin, tools.user, (dir) => runInitdb(tools, dir));
  if (takeSpare(clustersDir, tools.pgBin, dataDir)) {
    tools.log(`initdb ${dataDir}: took the spare cluster`);
    next();
    return;
  }
  await runInitdb(tools, dataDir);
  next();
}

async function runInitdb(tools: NodeTools, dataDir: string): Promise<void> {
  const building = `${dataDir}.new`;
  rmSync(building, { recursive: true, force: true });
  const started = Date.now();
  const result = await runAs(tools.user, join(tools.pgBin, "initdb"), [
    "-D", building,
    "-U", SUPERUSER,
    "--auth-local=trust",
    "--auth-host=scram-sha-256",
    "-E", "UTF8",
    "--locale=C",
    "--no-sync",
    "--wal-segsize=4",
  ]);
  if (result.code !== 0) {
    rmSync(building, { recursive: true, force: true });
    throw new NodeError(`${diskFull(result.stderr)}initdb failed: ${failureLines(result.stderr || result.stdout)}`);
  }
  renameSync(building, dataDir);
  tools.log(`initdb ${dataDir}: ${Date.now() - started} ms`);
}

/** pg_basebackup of the upstream (over its private socket, as the superuser) into `<dataDir>.new`, then a standby.signal. */
export async function cloneStandby(tools: NodeTools, dataDir: string, upstream: { socketDir: string; port: number }): Promise<void> {
  const building = `${dataDir}.new`;
  rmSync(building, { recursive: true, force: true });
  const started = Date.now();
  const result = await runAs(tools.user, join(tools.pgBin, "pg_basebackup"), [
    "-D", building,
    "-h", upstream.socketDir,
    "-p", String(upstream.port),
    "-U", SUPERUSER,
    "-X", "stream",
    "-c", "fast",
    "--no-sync",
    "--no-password",
  ]);
  if (result.code !== 0) {
    rmSync(building, { recursive: true, force: true });
    throw new NodeError(`${diskFull(result.stderr)}pg_basebackup from port ${upstream.port} failed: ${failureLines(result.stderr || result.stdout)}`);
  }
  // the primary's own files that must not follow it: its pid file is excluded by pg_basebackup
  writeOwned(tools, join(building, "standby.signal"), "");
  renameSync(building, dataDir);
  tools.log(`pg_basebackup ${dataDir}: ${Date.now() - started} ms`);
}

/** `pg_ctl start -w`: the postmaster daemonizes; a stale postmaster.pid (kill -9) is handled by PostgreSQL. */
export async function startNode(tools: NodeTools, paths: NodePaths): Promise<void> {
  const started = Date.now();
  // after a kill -9 the old postmaster's children may hold its shared memory for a few seconds
  const patience = Date.now() + 20_000;
  clearForeignPidFile(paths.dataDir);
  for (;;) {
    const logStart = fileSize(paths.logFile);
    const result = await runAs(tools.user, join(tools.pgBin, "pg_ctl"), ["start", "-D", paths.dataDir, "-l", paths.logFile, "-w", "-t", "60", "-s"], { timeoutMs: 90_000 });
    if (result.code === 0) break;
    // what this attempt logged (the log also holds every earlier run's lines)
    const logged = logSince(paths.logFile, logStart);
    if (/still in use|already running|lock file .* already exists/i.test(logged) && Date.now() < patience) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    const output = `${logged}\n${result.stderr}`;
    throw new NodeError(`${diskFull(output)}PostgreSQL on port ${paths.port} did not start: ${failureLines(logged || result.stderr || result.stdout)}`);
  }
  tools.log(`start ${paths.dataDir}: ${Date.now() - started} ms`);
}

/** `pg_ctl stop` when the postmaster is alive (fast: sessions ended, a clean shutdown). */
export async function stopNode(tools: NodeTools, dataDir: string, mode: "fast" | "immediate" = "fast"): Promise<void> {
  if (livePostmasterPid(dataDir) === undefined) return;
  const started = Date.now();
  const result = await runAs(tools.user, join(tools.pgBin, "pg_ctl"), ["stop", "-D", dataDir, "-m", mode, "-w", "-t", "60", "-s"], { timeoutMs: 90_000 });
  tools.log(`stop (${mode}) ${dataDir}: ${Date.now() - started} ms`);
  if (result.code !== 0 && livePostmasterPid(dataDir) !== undefined) {
    throw new NodeError(`pg_ctl stop of ${dataDir} failed: ${lastLines(result.stderr || result.stdout)}`);
  }
}

export async function restartNode(tools: NodeTools, paths: NodePaths): Promise<void> {
  await stopNode(tools, paths.dataDir);
  await startNode(tools, paths);
}

/** `pg_ctl reload`: settings whose context allows it take effect without a restart. */
export async function reloadNode(tools: NodeTools, dataDir: string): Promise<void> {
  await runAs(tools.user, join(tools.pgBin, "pg_ctl"), ["reload", "-D", dataDir, "-s"]);
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** A node's server log from a byte offset on (at most its last 16 KB). PostgreSQL logs no passwords of ours: verifiers are sent as literals, never logged. */
function logSince(logFile: string, offset: number): string {
  try {
    const text = readFileSync(logFile);
    return text.subarray(Math.max(offset, text.length - 16_384)).toString("utf8");
  } catch {
    return "";
  }
}

/** A superuser session over the node's private socket; short connect timeout. */
export async function connect(paths: { socketDir: string; port: number }, database = "postgres"): Promise<PgClient> {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ host: paths.socketDir, port: paths.port, user: SUPERUSER, database, connectionTimeoutMillis: 3000 });
  client.on("error", () => {});
  await client.connect();
  // the driver's own writes never wait for a synchronous standby that may be down
  await client.query("SET synchronous_commit = local");
  return client;
}

/** Whether the node accepts connections now, and whether it is a standby. */
export async function probe(paths: { socketDir: string; port: number }): Promise<{ ready: boolean; inRecovery?: boolean; reason?: string }> {
  let client: PgClient | undefined;
  try {
    client = await connect(paths);
    const result = await client.query<{ r: boolean }>("SELECT pg_is_in_recovery() AS r");
    return { ready: true, inRecovery: result.rows[0]?.r };
  } catch (error) {
    const message = (error as Error).message;
    return { ready: false, reason: /starting up|not yet accepting|consistent recovery state/i.test(message) ? "starting" : message };
  } finally {
    await client?.end().catch(() => {});
  }
}

/** A physical replication slot on the primary, made (reserving WAL now) when missing. */
export async function ensurePhysicalSlot(primary: { socketDir: string; port: number }, slot: string): Promise<void> {
  const client = await connect(primary);
  try {
    await client.query("SELECT pg_create_physical_replication_slot($1, true) WHERE NOT EXISTS (SELECT 1 FROM pg_replication_slots WHERE slot_name = $1)", [slot]);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Drops the HA standbys' slots (node_<n>) beyond the planned count, so no WAL is kept for a standby that is gone. */
export async function dropSlotsAbove(primary: { socketDir: string; port: number }, keep: number): Promise<void> {
  const client = await connect(primary);
  try {
    await client.query(
      "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_type = 'physical' AND NOT active AND slot_name ~ '^node_[0-9]+$' AND substr(slot_name, 6)::int > $1",
      [keep],
    );
  } finally {
    await client.end().catch(() => {});
  }
}
