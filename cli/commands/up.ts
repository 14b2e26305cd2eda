// `schemaform up [APP_DIR]`: synthesize a CDKTF app, install the providers into a filesystem
// mirror in the output directory, and run `terraform init` and `terraform apply` in the stack's
// directory, streaming Terraform's progress (its apply prints the outputs); then how to connect to
// the databases the data plane runs (one psql line each, the password read from terraform output).
// Running it again applies only what changed (a second run reports no changes).
import { type SpawnOptions, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const USAGE = `usage: schemaform up [APP_DIR] [--stack NAME] [--out DIR]

Synthesizes a CDKTF app, installs the tsdb and
containerbackup Terraform providers into a filesystem mirror inside the output directory, and
runs 'terraform init' and 'terraform apply' for the stack, against the embedded platform
unless the configuration sets an endpoint. Terraform prints the stack's outputs (sensitive ones
hidden); then, for each database the local data plane runs, a one-line psql command that reads
the password from 'terraform output' (the password itself is never printed).

  APP_DIR        directory with the app's main.ts (or the path of the app file itself); without
                 it: the app of cdktf.json in the current directory (its "app" command), else
                 the example app that ships with schemaform (examples/stack)
  --stack NAME   the stack to apply when the app has several
  --out DIR      where to synthesize (default: cdktf.out in the current directory)

Environment:
  SCHEMAFORM_DATA_DIR            where the embedded platform keeps its data (default: per user)
  SCHEMAFORM_TRANSITION_SECONDS  how long status transitions take on the embedded platform
  SCHEMAFORM_DATA_PLANE          on|off: real PostgreSQL databases, or records only (default: on
                                 where PostgreSQL's binaries are found)
  TERRAFORM                      the terraform executable (default: terraform on PATH; 1.11+)

'npx cdktf deploy' works too: it runs Terraform itself, so install the providers first with
'schemaform provider install' (Terraform's implied local mirror).
`;

interface Arguments {
  app?: string;
  stack?: string;
  out?: string;
}

/** The arguments, or a message saying what is wrong with them. */
export function parse(argv: string[]): Arguments | string {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { stack: { type: "string" }, out: { type: "string" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 1) return `unexpected argument '${positionals[1]}'`;
    return { app: positionals[0], stack: values.stack, out: values.out };
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export class UpError extends Error {}

/** A path for messages: relative to the current directory when inside it. */
export function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === "" ? "." : rel.startsWith("..") ? path : rel;
}

export function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Runs a program with the output streamed; resolves with its exit code. */
export function exec(command: string, args: string[], options: SpawnOptions & { capture?: boolean } = {}): Promise<{ code: number; stdout: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["inherit", options.capture ? "pipe" : "inherit", "inherit"] });
    let stdout = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => resolvePromise({ code: code ?? (signal ? 130 : 1), stdout }));
  });
}

/** The app's entry file. */
function appEntry(app: string): string {
  const path = resolve(app);
  if (!existsSync(path)) throw new UpError(`${app} does not exist`);
  if (statSync(path).isFile()) return path;
  for (const name of ["main.ts", "main.js", "main.mjs"]) if (existsSync(join(path, name))) return join(path, name);
  throw new UpError(`${app} has no main.ts: pass the directory of a CDKTF app (or its main file)`);
}

/** The example app shipped in the package (examples/stack beside dist/). */
function exampleApp(): string {
  return fileURLToPath(new URL("../../../examples/stack", import.meta.url));
}

/** The `app` command of ./cdktf.json, when the current directory is a CDKTF project. */
function projectAppCommand(): string | undefined {
  const path = resolve("cdktf.json");
  if (!existsSync(path)) return undefined;
  const app = (JSON.parse(readFileSync(path, "utf8")) as { app?: unknown }).app;
  if (typeof app !== "string" || app.trim() === "") throw new UpError(`cdktf.json has no "app" command to synthesize`);
  return app;
}

/** Runs the project's own app command (as `cdktf synth` does), with cdktf writing to `outdir`. */
async function synthesizeProject(command: string, outdir: string, extraEnv: NodeJS.ProcessEnv): Promise<void> {
  mkdirSync(outdir, { recursive: true });
  say(`Synthesizing with cdktf.json's app command: ${command}`);
  const { code } = await exec(command, [], { env: { ...process.env, ...extraEnv, CDKTF_OUTDIR: outdir }, cwd: process.cwd(), shell: true });
  if (code !== 0) throw new UpError(`synthesizing the app failed (exit code ${code}); see the messages above`);
}

/**
 * Node's arguments that run a TypeScript entry with the tsx found from here: as a loader of that
 * Node process (tsx 4, whose main export is its loader), else through tsx's CLI, which starts a
 * second Node (120 ms more here). Throws when there is no tsx.
 */
function tsxArguments(entry: string): string[] {
  const require = createRequire(import.meta.url);
  let major = 0;
  try {
    major = Number((require("tsx/package.json") as { version: string }).version.split(".")[0]);
  } catch {
    // a tsx that does not export its package.json: an older one, run through its CLI
  }
  if (major >= 4) return ["--import", pathToFileURL(require.resolve("tsx")).href, entry];
  return [require.resolve("tsx/cli"), entry];
}

/**
 * cdktf (or CDK Terrain's cdktn) and constructs are peer dependencies: an app whose directory
 * reaches neither would end in Node's raw "Cannot find package" error, so say what to install.
 */
function checkPeerDependencies(entry: string): void {
  const require = createRequire(resolve(entry));
  const found = (name: string) => {
    try {
      require.resolve(`${name}/package.json`);
      return true;
    } catch {
      return false;
    }
  };
  if (!found("cdktf") && !found("cdktn")) {
    throw new UpError(`${shown(entry)} needs cdktf (or cdktn) and constructs, schemaform's peer dependencies, and they are not installed there: run npm install cdktf constructs`);
  }
}

/** Runs the app with tsx (TypeScript) or node, with cdktf writing to `outdir`. */
async function synthesize(entry: string, outdir: string, extraEnv: NodeJS.ProcessEnv): Promise<void> {
  checkPeerDependencies(entry);
  mkdirSync(outdir, { recursive: true });
  const env = { ...process.env, ...extraEnv, CDKTF_OUTDIR: outdir };
  let command = process.execPath;
  let args = [entry];
  if (entry.endsWith(".ts")) {
    try {
      args = tsxArguments(entry);
    } catch {
      command = "npx";
      args = ["--yes", "tsx", entry];
    }
  }
  say(`Synthesizing ${shown(entry)} ...`);
  const { code } = await exec(command, args, { env, cwd: process.cwd() });
  if (code !== 0) throw new UpError(`synthesizing the app failed (exit code ${code}); see the messages above`);
}

interface Manifest {
  stacks: Record<string, { name: string; workingDirectory: string; synthesizedStackPath: string }>;
}

export function pickStack(outdir: string, wanted: string | undefined): { name: string; directory: string } {
  const manifestPath = join(outdir, "manifest.json");
  if (!existsSync(manifestPath)) throw new UpError(`the app wrote no ${shown(manifestPath)}: does it call app.synth()?`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
  const names = Object.keys(manifest.stacks ?? {});
  if (names.length === 0) throw new UpError("the app defines no stack");
  const name = wanted ?? (names.length === 1 ? names[0] : undefined);
  if (!name) throw new UpError(`the app has ${names.length} stacks (${names.join(", ")}): choose one with --stack`);
  const stack = manifest.stacks[name];
  if (!stack) throw new UpError(`the app has no stack '${name}'; its stacks: ${names.join(", ")}`);
  return { name, directory: join(outdir, stack.workingDirectory) };
}

/**
 * Removes the lock-file entries of providers whose installed package changed (a rebuild of the
 * same version), so `terraform init` records the new hash instead of failing on the old one.
 */
export function forgetLockedProviders(lockFile: string, addresses: string[]): boolean {
  if (addresses.length === 0 || !existsSync(lockFile)) return false;
  const lines = readFileSync(lockFile, "utf8").split("\n");
  const out: string[] = [];
  let skipping = false;
  let depth = 0;
  let changed = false;
  for (const line of lines) {
    if (!skipping) {
      const m = /^provider\s+"([^"]+)"\s*\{/.exec(line);
      if (m && addresses.includes(m[1]!)) {
        skipping = true;
        changed = true;
        depth = 0;
      }
    }
    if (skipping) {
      depth += (line.match(/\{/g) ?? []).length - (line.match(/\}/g) ?? []).length;
      if (depth <= 0) skipping = false;
      continue;
    }
    out.push(line);
  }
  if (changed) writeFileSync(lockFile, out.join("\n").replace(/\n{3,}/g, "\n\n"));
  return changed;
}

/**
 * Checks that Terraform runs and is recent enough, and says which it is. `up` runs it beside
 * the synthesis (a Node process of its own) and waits for it after.
 */
export async function checkTerraform(terraform: string): Promise<void> {
  try {
    // Without the user's CLI configuration: the version is all we want to know here.
    const env: NodeJS.ProcessEnv = { ...process.env, CHECKPOINT_DISABLE: "1" };
    delete env.TF_CLI_CONFIG_FILE;
    const { code, stdout } = await exec(terraform, ["version", "-json"], { capture: true, env });
    if (code !== 0) throw new Error(`exit code ${code}`);
    const version = (JSON.parse(stdout) as { terraform_version?: string }).terraform_version ?? "";
    const [major, minor] = version.split(".").map(Number);
    if (major === 1 && (minor ?? 0) < 11) throw new UpError(`Terraform ${version} is too old: the providers need Terraform 1.11 or later`);
    say(`Terraform ${version}`);
  } catch (error) {
    if (error instanceof UpError) throw error;
    throw new UpError(`cannot run '${terraform}': install Terraform 1.11 or later and put it on PATH (or set TERRAFORM)`);
  }
}

/**
 * The providers installed into a mirror beside the stacks (only schemaform's providers come from
 * it), and the environment Terraform runs with: that mirror, and the embedded platform's data.
 */
export async function terraformEnvironment(outdir: string, stackDirectory: string, mirror?: Mirror): Promise<{ env: NodeJS.ProcessEnv; cliConfig: string; dataDir: string }> {
  const { cliConfig, rebuilt } = mirror ?? (await installMirror(outdir));
  if (forgetLockedProviders(join(stackDirectory, ".terraform.lock.hcl"), rebuilt)) say("Provider build changed: its lock-file entry will be recorded again");

  const { defaultDataDir } = await import("../../platform/config.js");
  const dataDir = resolve(defaultDataDir());
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CHECKPOINT_DISABLE: "1",
    TF_CLI_CONFIG_FILE: cliConfig,
    TF_IN_AUTOMATION: "1",
    SCHEMAFORM_DATA_DIR: dataDir,
  };
  return { env, cliConfig, dataDir };
}

interface Mirror {
  /** the Terraform CLI configuration that installs our providers from the mirror */
  cliConfig: string;
  /** the providers whose installed package changed */
  rebuilt: string[];
}

/** Installs the providers into the mirror beside the stacks, and the native addon the embedded platform needs. */
async function installMirror(outdir: string): Promise<Mirror> {
  const { PROVIDER_NAMES, installNativeAddon, installProviders, locateBuild, writeCliConfig } = await import("../../provider/install.js");
  const mirror = join(outdir, "providers");
  const installed = installProviders({ ...locateBuild(), providers: PROVIDER_NAMES, mirror, force: true });
  for (const p of installed) say(`Provider ${p.address} ${p.version}: ${p.status === "unchanged" ? "up to date" : p.status}`);
  // The embedded platform's addon lives outside the mirror, per user and node (provider/native.ts).
  const addon = installNativeAddon();
  if (addon.status === "not-built" || addon.status === "unloadable") {
    say(`Note: better-sqlite3's native build ${addon.status === "not-built" ? "is missing" : `does not load with this node (${addon.reason})`}; the embedded platform needs it: run 'npm rebuild better-sqlite3'`);
  }
  return { cliConfig: writeCliConfig(mirror), rebuilt: installed.filter((p) => p.status === "replaced").map((p) => p.address) };
}

export async function up(args: Arguments): Promise<number> {
  const terraform = process.env.TERRAFORM || "terraform";
  const projectApp = args.app === undefined ? projectAppCommand() : undefined;
  const entry = projectApp === undefined ? appEntry(args.app ?? (existsSync(join("examples", "stack")) ? join("examples", "stack") : exampleApp())) : undefined;
  const outdir = resolve(args.out ?? "cdktf.out");
  const checked = checkTerraform(terraform);
  // Its version line may come amid the synthesis's output; its failure is reported after the
  // synthesis, which is not worth stopping halfway.
  checked.catch(() => {});
  // The providers first: the app's synth checks that Terraform will find them (in this mirror).
  const mirror = await installMirror(outdir);
  const synthEnv = { TF_CLI_CONFIG_FILE: mirror.cliConfig };
  if (projectApp !== undefined) await synthesizeProject(projectApp, outdir, synthEnv);
  else await synthesize(entry!, outdir, synthEnv);
  await checked;
  const stack = pickStack(outdir, args.stack);

  const { env, cliConfig, dataDir } = await terraformEnvironment(outdir, stack.directory, mirror);
  say(`Stack ${stack.name} in ${shown(stack.directory)}; embedded platform data (unless the configuration sets an endpoint) in ${dataDir}`);

  // Terraform handles Ctrl-C itself (it stops gracefully); wait for it instead of dying first.
  const ignore = () => {};
  process.on("SIGINT", ignore);
  try {
    // Colours only for a terminal (piped output stays readable).
    const color = process.stdout.isTTY ? [] : ["-no-color"];
    const steps: Array<[string, string[]]> = [
      ["init", ["init", "-input=false", ...color]],
      ["apply", ["apply", "-auto-approve", "-input=false", ...color]],
    ];
    for (const [step, stepArgs] of steps) {
      say(`\n$ terraform ${stepArgs.join(" ")}`);
      const { code } = await exec(terraform, stepArgs, { cwd: stack.directory, env });
      if (code !== 0) {
        process.stderr.write(`schemaform up: terraform ${step} failed (exit code ${code})\n`);
        if (step === "apply") {
          // The commonest surprise: the platform's data lives per user, the state per stack.
          process.stderr.write(
            `If Terraform reported that resources already exist: the embedded platform in ${dataDir} outlives this stack's state, so another copy of the app, or this one before its state was removed, created them. ` +
              `Destroy them from that copy, or start from an empty platform with SCHEMAFORM_DATA_DIR set to another directory.\n`,
          );
        }
        return code;
      }
    }
    // Terraform's apply has printed the outputs (sensitive ones as <sensitive>): not again here.
    const output = await exec(terraform, ["output", "-json"], { cwd: stack.directory, env, capture: true });
    if (output.code === 0) {
      const { connectLines, dataPlaneNotes } = await import("./connect-hint.js");
      const lines = connectLines(stack.directory, shown(stack.directory), output.stdout);
      if (lines.length > 0) say(`\nConnect to the databases (the password comes from terraform output; add -c 'select 1' to try it):\n${lines.map((l) => `  ${l}`).join("\n")}`);
      for (const note of await dataPlaneNotes(dataDir)) say(`Note: ${note}`);
    }
    say(
      `\nDone. Inspect or change it with terraform in ${shown(stack.directory)} (with TF_CLI_CONFIG_FILE=${shown(cliConfig)}); ` +
        `a sensitive output is shown by 'terraform output -raw NAME' there. Destroy it with '${downCommand(args)}'.`,
    );
    return output.code;
  } finally {
    process.off("SIGINT", ignore);
  }
}

/** The `schemaform down` that undoes this `up` (npx: a clone has no schemaform on PATH). */
function downCommand(args: Arguments): string {
  const words = ["npx", "schemaform", "down"];
  if (args.app !== undefined) words.push(args.app);
  if (args.stack !== undefined) words.push("--stack", args.stack);
  if (args.out !== undefined) words.push("--out", args.out);
  return words.map((w) => (/^[A-Za-z0-9_./:=@%+-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(" ");
}

export async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(USAGE);
    return 0;
  }
  const args = parse(argv);
  if (typeof args === "string") {
    process.stderr.write(`schemaform up: ${args}\n\n${USAGE}`);
    return 2;
  }
  try {
    return await up(args);
  } catch (error) {
    if (error instanceof UpError) {
      process.stderr.write(`schemaform up: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
