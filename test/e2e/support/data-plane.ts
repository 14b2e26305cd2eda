// Helpers for the data-plane suites: real clients against the services Terraform applied.
import { execFileSync } from "node:child_process";
import { connect as netConnect } from "node:net";
import pg from "pg";
import { CLI, runProcess } from "./harness.js";

export interface Endpoint {
  host: string;
  port: number;
  password: string;
  user?: string;
  /** false: no TLS (pgbouncer serves plain connections on 127.0.0.1) */
  tls?: boolean;
}

/** A `pg` client with sslmode=require semantics (TLS, certificate not checked), as cloud strings do. */
export async function client(endpoint: Endpoint): Promise<pg.Client> {
  const c = new pg.Client({
    host: endpoint.host,
    port: endpoint.port,
    user: endpoint.user ?? "tsdbadmin",
    password: endpoint.password,
    database: "tsdb",
    ssl: endpoint.tls === false ? false : { rejectUnauthorized: false },
    connectionTimeoutMillis: 5000,
  });
  await c.connect();
  return c;
}

export async function query<T = Record<string, unknown>>(endpoint: Endpoint, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = await client(endpoint);
  try {
    return (await c.query(sql, params)).rows as T[];
  } finally {
    await c.end();
  }
}

/** Polls `probe` until it returns a value that is not undefined, or fails after `ms`. */
export async function within<T>(ms: number, what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s${last ? ` (last error: ${(last as Error).message})` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Whether anything accepts a TCP connection on 127.0.0.1:`port`. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** `psql` with a cloud-style connection string; its stdout. */
export function psql(endpoint: Endpoint, sql: string): string {
  return execFileSync("psql", [`host=${endpoint.host} port=${endpoint.port} user=${endpoint.user ?? "tsdbadmin"} dbname=tsdb sslmode=require`, "-XAtc", sql], {
    env: { ...process.env, PGPASSWORD: endpoint.password, PGCONNECT_TIMEOUT: "5" },
    encoding: "utf8",
  }).trim();
}

export interface StatusJson {
  agent: { running: boolean; pid?: number };
  services: Array<{ id: string; status: string; phase?: string; processes: Array<{ kind: string; pid: number; port: number; dataDir?: string }> }>;
  components: Array<{ id: string; kind: string; status: string; message?: string }>;
}

/** `schemaform platform status --json` of a data directory. */
export async function platformStatus(dataDir: string, env: NodeJS.ProcessEnv): Promise<StatusJson> {
  const result = await runProcess(process.execPath, [CLI, "platform", "status", "--data-dir", dataDir, "--json"], { cwd: dataDir, env });
  if (result.code !== 0) throw new Error(`platform status failed: ${result.output}`);
  return JSON.parse(result.stdout) as StatusJson;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILL to a process that may have exited meanwhile (a restarting standby or pooler): gone is what the caller wants. */
export function killIfRunning(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}
