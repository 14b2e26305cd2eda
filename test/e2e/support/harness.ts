// End-to-end harness: real Terraform (on PATH; a missing one fails the suite, never skips it),
// the BUILT providers (dist/, from `npm run build`) installed with `schemaform provider install
// --dir` into a temporary mirror, and a temporary data directory for the embedded platform.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openPlatform } from "../../../platform/client.js";
import type { PlatformClient } from "../../../platform/types.js";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const CLI = join(ROOT, "dist", "cli", "main.js");

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout + stderr */
  output: string;
  ms: number;
}

/** Fails (throws) when Terraform is not on PATH or too old: the suites need it. */
export function requireTerraform(): string {
  let text: string;
  try {
    text = execFileSync("terraform", ["version", "-json"], { encoding: "utf8", env: { ...process.env, CHECKPOINT_DISABLE: "1", TF_CLI_CONFIG_FILE: "" } });
  } catch {
    throw new Error("terraform is not on PATH: the end-to-end tests need Terraform 1.11 or later");
  }
  const version = (JSON.parse(text) as { terraform_version: string }).terraform_version;
  const [major, minor] = version.split(".").map(Number);
  if (major !== 1 || (minor ?? 0) < 11) throw new Error(`the end-to-end tests need Terraform 1.11 or later, found ${version}`);
  if (!existsSync(CLI) || !existsSync(join(ROOT, "dist", "provider", "provider.cjs"))) {
    throw new Error("the project is not built: run 'npm run build' before the end-to-end tests (npm test does)");
  }
  return version;
}

export function runProcess(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; input?: string }): Promise<Result> {
  const started = performance.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code: code ?? 1, stdout, stderr, output: stdout + stderr, ms: Math.round(performance.now() - started) }));
    child.stdin.end(options.input ?? "");
  });
}

/** One suite's temporary world: a provider mirror, a platform data directory, workspaces. */
export class Suite {
  readonly root: string;
  readonly mirror: string;
  readonly dataDir: string;
  readonly env: NodeJS.ProcessEnv;
  /** Every terraform command run, with its duration (for the timing summary). */
  readonly timings: Array<{ command: string; ms: number }> = [];
  #platform: PlatformClient | undefined;

  private constructor(name: string) {
    this.root = mkdtempSync(join(tmpdir(), `schemaform-e2e-${name}-`));
    this.mirror = join(this.root, "mirror");
    this.dataDir = join(this.root, "platform-data");
    mkdirSync(this.dataDir, { recursive: true });
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const key of Object.keys(env)) if (key.startsWith("TF_") || key.startsWith("TSDB_") || key.startsWith("CONTAINERBACKUP_")) delete env[key];
    this.env = {
      ...env,
      CHECKPOINT_DISABLE: "1",
      TF_IN_AUTOMATION: "1",
      TF_CLI_CONFIG_FILE: join(this.mirror, "terraform.rc"),
      SCHEMAFORM_DATA_DIR: this.dataDir,
      SCHEMAFORM_TRANSITION_SECONDS: "0",
    };
  }

  /** Creates the suite and installs the built providers into its mirror with the CLI. */
  static async create(name: string): Promise<Suite> {
    requireTerraform();
    const suite = new Suite(name);
    const installed = await runProcess(process.execPath, [CLI, "provider", "install", "--dir", suite.mirror], { cwd: ROOT, env: suite.env });
    if (installed.code !== 0) throw new Error(`schemaform provider install failed:\n${installed.output}`);
    return suite;
  }

  workspace(name: string): Workspace {
    const dir = join(this.root, name);
    mkdirSync(dir, { recursive: true });
    return new Workspace(this, dir);
  }

  /** A workspace in an existing directory, with extra environment (e.g. another CLI configuration). */
  workspaceAt(dir: string, env: NodeJS.ProcessEnv = {}): Workspace {
    return new Workspace(this, dir, env);
  }

  /** The platform the providers use, opened in this process (for out-of-band changes). */
  platform(): PlatformClient {
    this.#platform ??= openPlatform({ dataDir: this.dataDir });
    return this.#platform;
  }

  /** Every file of the platform's data directory, concatenated (to look for plaintext). */
  platformBytes(): Buffer {
    // Read by another process: closing any descriptor of the database file in this one would drop
    // the POSIX locks of this process's open connection (suite.platform()), and the provider that
    // closes the database last would then take itself for its only user and remove the WAL
    // under that connection's feet.
    // (files only: the data plane keeps its own directory here, whose databases hold no secret of ours)
    const files = readdirSync(this.dataDir, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(this.dataDir, e.name));
    return files.length === 0 ? Buffer.alloc(0) : execFileSync("cat", files, { maxBuffer: 1 << 30 });
  }

  async dispose(): Promise<void> {
    await this.#platform?.close();
    if (process.env.SCHEMAFORM_E2E_KEEP) {
      process.stderr.write(`kept ${this.root}\n`);
      return;
    }
    rmSync(this.root, { recursive: true, force: true });
  }

  summary(): string {
    const total = this.timings.reduce((sum, t) => sum + t.ms, 0);
    return `${this.timings.length} terraform commands, ${(total / 1000).toFixed(1)} s:\n${this.timings.map((t) => `  ${String(t.ms).padStart(6)} ms  ${t.command}`).join("\n")}`;
  }
}

export class Workspace {
  constructor(
    readonly suite: Suite,
    readonly dir: string,
    readonly env: NodeJS.ProcessEnv = {},
  ) {}

  /** Runs terraform in this workspace (no colour, no prompts). */
  async tf(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Result> {
    const result = await runProcess("terraform", [...args.slice(0, 1), ...(needsNoColor(args[0]!) ? ["-no-color"] : []), ...args.slice(1)], {
      cwd: this.dir,
      env: { ...this.suite.env, ...this.env, ...env },
    });
    this.suite.timings.push({ command: `terraform ${args.join(" ")}`, ms: result.ms });
    return result;
  }

  /**
   * Starts `terraform apply -auto-approve` in the background (the caller waits for what it needs
   * in `output()`, kills `child`, or awaits `done`).
   */
  applyInBackground(env: NodeJS.ProcessEnv = {}): { child: ChildProcess; output(): string; done: Promise<Result> } {
    const child = spawn("terraform", ["apply", "-auto-approve", "-input=false", "-no-color"], { cwd: this.dir, env: { ...this.suite.env, ...this.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    const done = new Promise<Result>((resolve) =>
      child.once("close", (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr, output: stdout + stderr, ms: 0 })),
    );
    return { child, output: () => stdout + stderr, done };
  }

  /** Like tf(), but throws with Terraform's output unless the exit code is one of `codes`. */
  async ok(args: string[], codes: number[] = [0], env: NodeJS.ProcessEnv = {}): Promise<Result> {
    const result = await this.tf(args, env);
    if (!codes.includes(result.code)) throw new Error(`terraform ${args.join(" ")} exited ${result.code}:\n${result.output}`);
    return result;
  }

  path(file: string): string {
    return join(this.dir, file);
  }

  read(file: string): string {
    return readFileSync(this.path(file), "utf8");
  }

  write(file: string, text: string): void {
    writeFileSync(this.path(file), text);
  }

  readJson<T = Record<string, any>>(file: string): T {
    return JSON.parse(this.read(file)) as T;
  }

  writeJson(file: string, value: unknown): void {
    this.write(file, `${JSON.stringify(value, null, 2)}\n`);
  }

  /** Changes a JSON configuration file in place. */
  editJson(file: string, edit: (config: Record<string, any>) => void): void {
    const config = this.readJson(file);
    edit(config);
    this.writeJson(file, config);
  }

  copyFrom(source: string, file: string): void {
    cpSync(source, this.path(file));
  }

  /** The resources in terraform.tfstate (or another local state file), by address. */
  state(file = "terraform.tfstate"): Map<string, Record<string, any>> {
    const state = this.readJson<{ resources: Array<{ mode: string; type: string; name: string; instances: Array<{ attributes: Record<string, any> }> }> }>(file);
    const out = new Map<string, Record<string, any>>();
    for (const r of state.resources) {
      if (r.mode !== "managed") continue;
      out.set(`${r.type}.${r.name}`, r.instances[0]!.attributes);
    }
    return out;
  }
}

function needsNoColor(command: string): boolean {
  return ["init", "validate", "plan", "apply", "destroy", "output", "import", "refresh"].includes(command);
}

/** Addresses Terraform's plan output lists with a given action, e.g. "will be created". */
export function planned(output: string, action: "will be created" | "will be updated in-place" | "must be replaced" | "will be destroyed" | "will be imported" | "will be read during apply"): string[] {
  const re = new RegExp(`^\\s*# (\\S+) ${action.replace(/[-]/g, "\\-")}`, "gm");
  const out: string[] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(output)) !== null) out.push(m[1]!);
  return out.sort();
}

/** "Plan: 1 to add, 2 to change, 0 to destroy." → [1, 2, 0] (imports counted separately). */
export function planCounts(output: string): { import: number; add: number; change: number; destroy: number } {
  const m = /Plan: (?:(\d+) to import, )?(\d+) to add, (\d+) to change, (\d+) to destroy/.exec(output);
  if (!m) throw new Error(`no plan summary in:\n${output}`);
  return { import: Number(m[1] ?? 0), add: Number(m[2]), change: Number(m[3]), destroy: Number(m[4]) };
}

export interface ResourceChange {
  actions: string[];
  before: Record<string, any> | null;
  after: Record<string, any> | null;
  /** true (or a nested structure of trues) where a value is known only after apply */
  after_unknown: Record<string, any>;
  /** attribute paths that force the replacement */
  replace_paths?: Array<Array<string | number>>;
  importing?: { id: string };
}

/** `terraform show -json PLANFILE`: the resource changes by address. */
export async function planJson(ws: Workspace, planFile: string): Promise<Map<string, ResourceChange>> {
  const shown = await ws.ok(["show", "-json", planFile]);
  const plan = JSON.parse(shown.stdout) as { resource_changes?: Array<{ address: string; mode: string; change: ResourceChange }> };
  return new Map((plan.resource_changes ?? []).filter((r) => r.mode === "managed").map((r) => [r.address, r.change]));
}
