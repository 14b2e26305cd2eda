// An installation whose better-sqlite3 has no native addon (installed with --ignore-scripts): the
// `platform` commands and `schemaform import` explain it in the words `provider install` uses,
// instead of the `bindings` package's "Could not locate the bindings file" and its list of paths.
// The built CLI (dist/, `npm run build`) copied as an app's node_modules holds it, next to a copy
// of better-sqlite3 without its build and the repository's other packages.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nativeAddonMessage } from "../../platform/native-addon.js";
import { ROOT, runProcess } from "../e2e/support/harness.js";

const work = mkdtempSync(join(tmpdir(), "schemaform-no-addon-"));
let cli: string;

beforeAll(() => {
  const modules = join(work, "app", "node_modules");
  const root = join(modules, "schemaform");
  mkdirSync(root, { recursive: true });
  cpSync(join(ROOT, "package.json"), join(root, "package.json"));
  cpSync(join(ROOT, "dist"), join(root, "dist"), { recursive: true });
  for (const entry of readdirSync(join(ROOT, "node_modules"))) {
    if (entry === "better-sqlite3" || entry.startsWith(".")) continue;
    symlinkSync(join(ROOT, "node_modules", entry), join(modules, entry));
  }
  // better-sqlite3 as `npm install --ignore-scripts` leaves it: its code, no build
  const sqlite = join(modules, "better-sqlite3");
  cpSync(join(ROOT, "node_modules", "better-sqlite3", "package.json"), join(sqlite, "package.json"));
  cpSync(join(ROOT, "node_modules", "better-sqlite3", "lib"), join(sqlite, "lib"), { recursive: true });
  cli = join(root, "dist", "cli", "main.js");
  if (!existsSync(cli)) throw new Error("the CLI is not built: run npm run build");
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

const env = () => {
  const clean: NodeJS.ProcessEnv = { ...process.env, HOME: join(work, "home"), XDG_DATA_HOME: join(work, "data") };
  for (const key of Object.keys(clean)) if (key.startsWith("SCHEMAFORM_") || key.startsWith("TSDB_") || key.startsWith("CONTAINERBACKUP_")) delete clean[key];
  return clean;
};

describe("without better-sqlite3's native addon", () => {
  it("the platform commands and import say what is missing and what to do, in one message", async () => {
    const dataDir = join(work, "platform-data");
    const runs = [
      ["platform", "credentials", "list", "--data-dir", dataDir],
      ["platform", "serve", "--port", "0", "--data-dir", dataDir],
      ["import", "--discover", "--project", "some-project"],
    ];
    for (const args of runs) {
      const result = await runProcess(process.execPath, [cli, ...args], { cwd: work, env: env() });
      expect(result.code, `${args.join(" ")}: ${result.output}`).not.toBe(0);
      expect(result.stderr, args.join(" ")).toContain(nativeAddonMessage());
      expect(result.stderr).not.toContain("Could not locate the bindings file");
      expect(result.stderr.trim().split("\n").length, result.stderr).toBeLessThanOrEqual(2);
    }
    // an export of a data directory that has a database file needs the addon too
    mkdirSync(dataDir, { recursive: true });
    cpSync(join(ROOT, "package.json"), join(dataDir, "platform.db"));
    const exported = await runProcess(process.execPath, [cli, "platform", "export", "--data-dir", dataDir], { cwd: work, env: env() });
    expect(exported.code).toBe(1);
    expect(exported.stderr).toContain(nativeAddonMessage());
  });
});
