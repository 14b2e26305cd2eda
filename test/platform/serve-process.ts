// `schemaform platform serve` as a child process, as an operator runs it (the CLI from source via
// tsx), for the tests of what only a real process shows: TLS set-up, signals, its logs.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** everything it wrote to stderr so far */
  stderr(): string;
  /** resolves with the exit code once it has exited */
  exited: Promise<number | null>;
}

/** Starts `platform serve --port 0 ARGS…` and resolves once it prints where it listens. */
export function startServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "cli/main.ts", "platform", "serve", "--port", "0", ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, SCHEMAFORM_DATABASE_URL: "", SCHEMAFORM_TRANSITION_SECONDS: "0", ...env },
  });
  let out = "";
  let err = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      const m = /listening on (https?:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve({ child, url: m[1]!, stderr: () => err, exited });
    });
    void exited.then((code) => reject(new Error(`platform serve exited early with ${code}: ${err}`)));
  });
}

/** Resolves once `text` shows up on its stderr (or rejects when it exits first). */
export async function waitForStderr(serve: ServeProcess, text: string | RegExp): Promise<void> {
  const found = () => (typeof text === "string" ? serve.stderr().includes(text) : text.test(serve.stderr()));
  while (!found()) {
    if (serve.child.exitCode !== null || serve.child.signalCode !== null) throw new Error(`platform serve exited before printing ${text}: ${serve.stderr()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** SIGKILL, for the clean-up of a test that failed half-way (only this child). */
export function killHard(serve: ServeProcess | undefined): Promise<unknown> {
  if (!serve || serve.child.exitCode !== null || serve.child.signalCode !== null) return Promise.resolve();
  serve.child.kill("SIGKILL");
  return serve.exited;
}
