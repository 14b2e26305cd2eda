// The server settings of one cluster node, from the plan: its size (milliCpu, memoryGb) mapped
// onto PostgreSQL's memory and worker settings, the fixed settings every local cluster needs
// (loopback only, SCRAM, TLS, logical WAL, capped WAL), then the plan's parameters. They are
// written to `schemaform.conf` in the data directory, which postgresql.conf includes last.

import { readFileSync } from "node:fs";
import type { ServicePlan } from "../driver.js";

export const SETTINGS_FILE = "schemaform.conf";

/** Settings a plan's parameters may not change: the driver's own wiring. */
const RESERVED = new Set([
  "port",
  "listen_addresses",
  "unix_socket_directories",
  "unix_socket_permissions",
  "ssl",
  "ssl_cert_file",
  "ssl_key_file",
  "ssl_ca_file",
  "hba_file",
  "ident_file",
  "data_directory",
  "config_file",
  "include",
  "include_if_exists",
  "include_dir",
  "primary_conninfo",
  "primary_slot_name",
  "synchronous_standby_names",
  "password_encryption",
  "wal_level",
  "logging_collector",
  "log_directory",
  "log_destination",
  "shared_preload_libraries",
]);

/** Settings a standby must have at least as high as its primary's, or it refuses to start. */
export const AT_LEAST_PRIMARY = ["max_connections", "max_worker_processes", "max_wal_senders", "max_prepared_transactions", "max_locks_per_transaction"];

export interface NodeRole {
  port: number;
  socketDir: string;
  /** undefined: a primary; else how the standby reaches its upstream */
  standbyOf?: { socketDir: string; port: number; applicationName: string; slot?: string };
  /** the primary's synchronous_standby_names ("" for none) */
  synchronousStandbyNames?: string;
}

const mb = (value: number) => `${Math.max(1, Math.round(value))}MB`;

/**
 * The size mapping (documented in the README):
 * - memory: shared_buffers = 16 MB per GB (16 MB–256 MB: small, many clusters share one
 *   machine), effective_cache_size = half the memory, work_mem = 2 MB per GB (1–64 MB),
 *   maintenance_work_mem = 16 MB per GB (16–512 MB);
 * - CPU: cores = ceil(milliCpu / 1000); max_parallel_workers = cores,
 *   max_parallel_workers_per_gather and max_parallel_maintenance_workers = cores / 2,
 *   max_worker_processes = cores + 12 (room for logical replication workers).
 */
export function sizeSettings(milliCpu: number, memoryGb: number): Record<string, string> {
  const memory = Math.max(0.25, memoryGb);
  const cores = Math.max(1, Math.ceil(milliCpu / 1000));
  const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
  return {
    shared_buffers: mb(clamp(memory * 16, 16, 256)),
    effective_cache_size: mb(memory * 512),
    work_mem: mb(clamp(memory * 2, 1, 64)),
    maintenance_work_mem: mb(clamp(memory * 16, 16, 512)),
    max_worker_processes: String(cores + 12),
    max_parallel_workers: String(cores),
    max_parallel_workers_per_gather: String(Math.floor(cores / 2)),
    max_parallel_maintenance_workers: String(Math.floor(cores / 2)),
  };
}

/** Every setting of one node, in file order (later wins). */
export function nodeSettings(plan: ServicePlan, node: NodeRole, floor: Record<string, string> = {}): Record<string, string> {
  const settings: Record<string, string> = {
    listen_addresses: "127.0.0.1",
    port: String(node.port),
    // a list: a directory with spaces or commas is double-quoted
    unix_socket_directories: /[\s,]/.test(node.socketDir) ? `"${node.socketDir}"` : node.socketDir,
    unix_socket_permissions: "0700",
    password_encryption: "scram-sha-256",
    ssl: "on",
    ssl_cert_file: "server.crt",
    ssl_key_file: "server.key",
    max_connections: "100",
    wal_level: "logical",
    max_wal_senders: "16",
    max_replication_slots: "16",
    max_logical_replication_workers: "8",
    // WAL stays small: a local cluster must not grow to a gigabyte of WAL under load
    min_wal_size: "32MB",
    max_wal_size: "256MB",
    wal_keep_size: "64MB",
    max_slot_wal_keep_size: "1GB",
    // after a crash or a pg_basebackup --no-sync, one syncfs() instead of an fsync per file (seconds)
    recovery_init_sync_method: process.platform === "linux" ? "syncfs" : "fsync",
    hot_standby: "on",
    huge_pages: "off",
    dynamic_shared_memory_type: "posix",
    log_line_prefix: "%m [%p] %q%u@%d ",
    log_timezone: "UTC",
    timezone: "UTC",
    ...sizeSettings(plan.milliCpu, plan.memoryGb),
  };
  for (const [name, value] of Object.entries(plan.parameters)) {
    if (!RESERVED.has(name.toLowerCase())) settings[name.toLowerCase()] = value;
  }
  // a standby below its primary on these refuses to start (it could not replay the primary's WAL)
  for (const name of AT_LEAST_PRIMARY) {
    const mine = Number(settings[name] ?? NaN);
    const theirs = Number(floor[name] ?? NaN);
    if (Number.isFinite(theirs) && (!Number.isFinite(mine) || mine < theirs)) settings[name] = floor[name]!;
  }
  if (node.standbyOf) {
    const { socketDir, port, applicationName } = node.standbyOf;
    settings.primary_conninfo = `host=${conninfoValue(socketDir)} port=${port} user=postgres application_name=${conninfoValue(applicationName)}`;
    if (node.standbyOf.slot) settings.primary_slot_name = node.standbyOf.slot;
  } else {
    settings.synchronous_standby_names = node.synchronousStandbyNames ?? "";
  }
  return settings;
}

/** A libpq connection-string value, quoted when it needs to be (a data directory may hold spaces). */
function conninfoValue(value: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(value) ? value : `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

function quote(value: string): string {
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

export function renderSettings(settings: Record<string, string>): string {
  const lines = ["# written by schemaform's local data-plane driver on every apply: edits here are replaced"];
  for (const [name, value] of Object.entries(settings)) lines.push(`${name} = ${quote(value)}`);
  return lines.join("\n") + "\n";
}

/** The settings a node's file holds now (empty when it has none). */
export function readSettings(file: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return {};
  }
  const settings: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^([a-z0-9_.]+) = '((?:[^']|'')*)'$/.exec(line);
    if (match) settings[match[1]!] = match[2]!.replace(/''/g, "'").replace(/\\\\/g, "\\");
  }
  return settings;
}

/** Names whose value differs between two settings maps (added and removed included). */
export function changedSettings(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name] !== after[name]);
}
