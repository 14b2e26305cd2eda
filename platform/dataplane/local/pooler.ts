// The connection pooler of a service: pgbouncer in transaction mode at 127.0.0.1:ports.pooler,
// run as the cluster user (pgbouncer refuses root too), detached with `-d` and found by its pid
// file. Clients log in with SCRAM against userlist.txt, which holds the same verifiers as the
// server (tsdbadmin's and the ephemeral roles'; no plaintext). pgbouncer then logs in to the
// primary over 127.0.0.1 with SCRAM pass-through (the client's proof, valid because the verifiers
// are identical), so the server still checks VALID UNTIL and every role attribute. Clients may
// use TLS (client_tls_sslmode = prefer, the primary's certificate from the platform CA), so a
// `sslmode=require` connection string works through the pooler as it does directly.

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EphemeralRole } from "../driver.js";
import { isAlive, livePidOf } from "./node.js";
import { ADMIN_ROLE } from "./roles.js";
import { giveTo, lastLines, runAs, type RunUser } from "./run-user.js";

export interface PoolerSpec {
  dir: string;
  port: number;
  /** the primary's port on 127.0.0.1 */
  serverPort: number;
  adminVerifier: string;
  ephemeralRoles: EphemeralRole[];
  /** the primary's server.crt and server.key (PEM), offered to clients */
  tls: { certPem: string; keyPem: string };
}

const pidFile = (dir: string) => join(dir, "pgbouncer.pid");
export const poolerLogFile = (dir: string) => join(dir, "pgbouncer.log");

/** pgbouncer's pid when its pid file names a live pgbouncer of this directory. */
export function livePoolerPid(dir: string): number | undefined {
  return livePidOf(pidFile(dir), { cmdlineIncludes: join(dir, "pgbouncer.ini") });
}

function ini(spec: PoolerSpec): string {
  return [
    "; written by schemaform's local data-plane driver",
    "[databases]",
    `* = host=127.0.0.1 port=${spec.serverPort}`,
    "",
    "[pgbouncer]",
    "listen_addr = 127.0.0.1",
    `listen_port = ${spec.port}`,
    "unix_socket_dir =",
    "pool_mode = transaction",
    "auth_type = scram-sha-256",
    `auth_file = ${join(spec.dir, "userlist.txt")}`,
    `pidfile = ${pidFile(spec.dir)}`,
    `logfile = ${poolerLogFile(spec.dir)}`,
    "max_client_conn = 200",
    "default_pool_size = 20",
    "server_tls_sslmode = prefer",
    "client_tls_sslmode = prefer",
    `client_tls_cert_file = ${join(spec.dir, "server.crt")}`,
    `client_tls_key_file = ${join(spec.dir, "server.key")}`,
    "ignore_startup_parameters = extra_float_digits",
    "",
  ].join("\n");
}

function userlist(spec: PoolerSpec): string {
  const now = Date.now();
  const lines = [`"${ADMIN_ROLE}" "${spec.adminVerifier}"`];
  for (const role of spec.ephemeralRoles) {
    if (Date.parse(role.validUntil) > now) lines.push(`"${role.role.replace(/"/g, '""')}" "${role.verifier}"`);
  }
  return lines.join("\n") + "\n";
}

/** Writes the configuration; starts pgbouncer, or reloads it when its files changed. */
export async function applyPooler(user: RunUser, executable: string, spec: PoolerSpec): Promise<void> {
  mkdirSync(spec.dir, { recursive: true, mode: 0o700 });
  giveTo(user, spec.dir);
  let changed = false;
  for (const [file, content] of [
    [join(spec.dir, "pgbouncer.ini"), ini(spec)],
    [join(spec.dir, "userlist.txt"), userlist(spec)],
    [join(spec.dir, "server.crt"), spec.tls.certPem],
    [join(spec.dir, "server.key"), spec.tls.keyPem],
  ] as const) {
    const before = existsSync(file) ? readFileSync(file, "utf8") : undefined;
    if (before === content) continue;
    writeFileSync(file, content, { mode: 0o600 });
    giveTo(user, file);
    changed = true;
  }
  const pid = livePoolerPid(spec.dir);
  if (pid !== undefined) {
    // SIGHUP: pgbouncer re-reads its ini and auth_file
    if (changed) process.kill(pid, "SIGHUP");
    return;
  }
  rmSync(pidFile(spec.dir), { force: true });
  const result = await runAs(user, executable, ["-d", "-q", join(spec.dir, "pgbouncer.ini")], { timeoutMs: 30_000 });
  // the daemonized child writes the pid file just after the parent returns
  for (let waited = 0; result.code === 0 && waited < 3000 && livePoolerPid(spec.dir) === undefined; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (result.code !== 0 || livePoolerPid(spec.dir) === undefined) {
    let log = "";
    try {
      log = readFileSync(poolerLogFile(spec.dir), "utf8").slice(-4096);
    } catch {
      // no log yet
    }
    throw new Error(`pgbouncer on port ${spec.port} did not start: ${lastLines(log || result.stderr || result.stdout, 2)}`);
  }
}

/** Stops pgbouncer (SIGTERM: its immediate shutdown; the pool holds no data) and waits for it. */
export async function stopPooler(dir: string): Promise<void> {
  const pid = livePoolerPid(dir);
  if (pid === undefined) return;
  process.kill(pid, "SIGTERM");
  for (let waited = 0; waited < 5000 && isAlive(pid); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  if (isAlive(pid)) process.kill(pid, "SIGKILL");
}
