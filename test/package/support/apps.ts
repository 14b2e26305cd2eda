// Scratch apps that install the packed tarball from the npm registry's packages, as users do:
// the package is judged from outside the repository, never through the repository's own
// node_modules or source files.
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, type Result, runProcess } from "../../e2e/support/harness.js";

/** The environment of an app's commands: no Terraform or provider settings from outside. */
export function appEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith("TF_") || key.startsWith("TSDB_") || key.startsWith("CONTAINERBACKUP_") || key.startsWith("npm_") || key === "NODE_OPTIONS" || key.startsWith("VITEST")) delete env[key];
  }
  return { ...env, CHECKPOINT_DISABLE: "1", ...extra };
}

/** Fails with the command's output when it did not exit 0. */
export async function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = appEnv()): Promise<Result> {
  const result = await runProcess(command, args, { cwd, env });
  if (result.code !== 0) throw new Error(`${command} ${args.join(" ")} exited ${result.code} in ${cwd}:\n${result.output}`);
  return result;
}

/**
 * Packs the package as `npm pack` would publish it, from the build `npm test` has just made
 * (the prepack build is skipped: rebuilding dist/ would pull it from under suites running
 * beside this one). Returns the tarball's path.
 */
export async function packTarball(into: string): Promise<string> {
  await run(process.execPath, [join(ROOT, "scripts", "copy-docs.mjs")], ROOT);
  const packed = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", into], ROOT);
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  return join(into, filename);
}

/** `npm install` in an app, offline from nothing but the registry; scripts run unless told not to. */
export function npmInstall(cwd: string, args: string[]): Promise<Result> {
  return run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...args], cwd);
}

/**
 * The project `cdktf init --template=typescript` writes, from the template in the installed
 * cdktf-cli (the same files; the init command itself would prompt and install the newest
 * TypeScript, which breaks ts-node, so its two installs are run here with TypeScript 5, as the
 * template's users pin it).
 */
export function cdktfTemplateApp(dir: string, name: string): void {
  const template = join(ROOT, "node_modules", "cdktf-cli", "bundle", "templates", "typescript");
  mkdirSync(dir, { recursive: true });
  for (const entry of readdirSync(template)) {
    if (entry === ".hooks.sscaff.js" || entry === "help") continue;
    const target = join(dir, entry === "{{}}.gitignore" ? ".gitignore" : entry);
    cpSync(join(template, entry), target, { recursive: true });
  }
  for (const file of ["package.json", "cdktf.json", "main.ts"]) {
    const path = join(dir, file);
    const text = readFileSync(path, "utf8")
      .replaceAll("{{ $base }}", name)
      .replaceAll("{{projectId}}", "00000000-0000-0000-0000-000000000000")
      .replaceAll("{{sendCrashReports}}", "false")
      .replaceAll("{{futureFlags}}", "");
    writeFileSync(path, text);
  }
}

/** The versions the template's post-install hook installs (majors fixed so the suite is repeatable). */
export const TEMPLATE_DEV_DEPENDENCIES = ["@types/node@20", "typescript@5", "jest@30", "@types/jest@30", "ts-jest@29", "ts-node@10"];
