// `schemaform platform serve` for end-to-end tests: started on loopback as users start it, on a
// data directory or a PostgreSQL database, with credentials made by `schemaform platform
// credentials create`, and stopped with kill -9 (only the processes started here).
import { spawn, type ChildProcess } from "node:child_process";
import { CLI, ROOT, runProcess } from "./harness.js";

export interface Server {
  child: ChildProcess;
  url: string;
  port: number;
  /** its request log (stderr): one line per request */
  log(): string;
}

/**
 * Where a server keeps the platform: a data directory (SQLite), or a PostgreSQL database with the
 * secrets key file every replica shares.
 */
export type Storage = string | { database: string; secretsKeyFile: string };

function storageArgs(storage: Storage): string[] {
  return typeof storage === "string" ? ["--data-dir", storage] : ["--database", storage.database, "--secrets-key-file", storage.secretsKeyFile];
}

/** A configuration's terraform and provider blocks: both providers on `project`, served at `endpoint`. */
export function serverProviders(endpoint: string, project: string): Record<string, unknown> {
  return {
    terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" }, containerbackup: { source: "schemaform/containerbackup" } } },
    provider: { tsdb: { project_id: project, endpoint }, containerbackup: { project, endpoint } },
  };
}

export class PlatformServers {
  readonly #started: ChildProcess[] = [];

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** Starts a server on 127.0.0.1; `port` 0 picks a free one; `extra`: more flags (e.g. --tls-cert). */
  serve(storage: Storage, port: number, transitionSeconds: number, extra: string[] = []): Promise<Server> {
    const child = spawn(process.execPath, [CLI, "platform", "serve", "--host", "127.0.0.1", "--port", String(port), ...storageArgs(storage), ...extra], {
      env: { ...this.env, SCHEMAFORM_TRANSITION_SECONDS: String(transitionSeconds) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.#started.push(child);
    return new Promise((resolve, reject) => {
      let out = "";
      child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk;
        const url = /listening on (https?:\/\/\S+)/.exec(out)?.[1];
        if (url) resolve({ child, url, port: Number(new URL(url).port), log: () => out });
      });
      child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
      child.once("exit", (code) => reject(new Error(`platform serve exited (${code}): ${out}`)));
    });
  }

  /** An access token for `project`, stored in the server data at `storage`. */
  async token(storage: Storage, project: string): Promise<string> {
    return (await this.#createCredentials(storage, project, ["--token"])).access_token!;
  }

  /** An access key and secret key for `project` (exchanged for session tokens by the clients). */
  async keys(storage: Storage, project: string): Promise<{ accessKey: string; secretKey: string }> {
    const created = await this.#createCredentials(storage, project, []);
    return { accessKey: created.access_key!, secretKey: created.secret_key! };
  }

  async #createCredentials(storage: Storage, project: string, extra: string[]): Promise<{ access_token?: string; access_key?: string; secret_key?: string }> {
    const created = await runProcess(process.execPath, [CLI, "platform", "credentials", "create", "--project", project, ...extra, ...storageArgs(storage), "--json"], {
      cwd: ROOT,
      env: this.env,
    });
    if (created.code !== 0) throw new Error(created.output);
    return JSON.parse(created.stdout) as { access_token?: string; access_key?: string; secret_key?: string };
  }

  /** kill -9 every server started here that still runs. */
  stopAll(): Promise<void[]> {
    return Promise.all(this.#started.map(killHard));
  }
}

export function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}
