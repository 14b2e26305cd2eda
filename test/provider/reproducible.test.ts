// Reproducible provider packages, as users meet them: for one schemaform version, `schemaform
// provider install` writes the same bytes from every install route (the repository's build, a
// copy of the package at another path whose better-sqlite3 is unbuilt or built differently), so
// the printed h1: hashes agree and a lock file made against one mirror inits against another;
// the embedded platform's native addon is installed outside the packages, per user and node,
// and the plugin says what to do without it; and a missing `node` is reported by Terraform in
// the plugin's own words. Real Terraform and the built CLI (dist/, `npm run build`).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, ROOT, type Result, requireTerraform, runProcess } from "../e2e/support/harness.js";

const work = mkdtempSync(join(tmpdir(), "schemaform-reproducible-"));
const ADDRESSES = ["registry.terraform.io/schemaform/containerbackup", "registry.terraform.io/schemaform/tsdb"];

/** An environment without the user's Terraform settings, with its own home and per-user data directory. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith("TF_") || key.startsWith("TSDB_") || key.startsWith("CONTAINERBACKUP_") || key.startsWith("SCHEMAFORM_")) delete env[key];
  }
  // records only: this file is about packages, and a data plane's agent would outlive the test in its directories
  return { ...env, HOME: join(work, "home"), CHECKPOINT_DISABLE: "1", SCHEMAFORM_TRANSITION_SECONDS: "0", SCHEMAFORM_DATA_PLANE: "off", ...extra };
}

/** One way of getting schemaform: where its CLI is, and the per-user data directory it runs with. */
interface Route {
  cli: string;
  mirror: string;
  dataHome: string;
  install?: Result;
}

const routes: Record<"repository" | "unbuilt" | "otherAddon", Route> = {
  // The repository's own build, as `npm start` uses it.
  repository: { cli: CLI, mirror: join(work, "mirror-repository"), dataHome: join(work, "data-repository") },
  // The package installed elsewhere with `npm install --ignore-scripts`: better-sqlite3 unbuilt.
  unbuilt: { cli: "", mirror: join(work, "mirror unbuilt"), dataHome: join(work, "data-unbuilt") },
  // Another better-sqlite3 build (another patch release, another machine): different addon bytes.
  otherAddon: { cli: "", mirror: join(work, "mirror-other-addon"), dataHome: join(work, "data-other-addon") },
};

/** The package's files at another path, as an app's node_modules holds them, with a better-sqlite3 of our making. */
function installedCopy(app: string, addon: Buffer | undefined): string {
  const root = join(app, "node_modules", "schemaform");
  mkdirSync(root, { recursive: true });
  cpSync(join(ROOT, "package.json"), join(root, "package.json"));
  cpSync(join(ROOT, "dist"), join(root, "dist"), { recursive: true });
  const sqlite = join(app, "node_modules", "better-sqlite3");
  mkdirSync(sqlite, { recursive: true });
  writeFileSync(join(sqlite, "package.json"), JSON.stringify({ name: "better-sqlite3", version: "12.6.3", main: "lib/index.js" }));
  if (addon) {
    mkdirSync(join(sqlite, "build", "Release"), { recursive: true });
    writeFileSync(join(sqlite, "build", "Release", "better_sqlite3.node"), addon);
  }
  return join(root, "dist", "cli", "main.js");
}

async function providerInstall(route: Route): Promise<Result> {
  return runProcess(process.execPath, [route.cli, "provider", "install", "--dir", route.mirror], { cwd: work, env: cleanEnv({ XDG_DATA_HOME: route.dataHome }) });
}

/** The h1: hash printed after each provider address. */
function printedHashes(output: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  let address: string | undefined;
  for (const line of output.split("\n")) {
    address = /^(registry\.terraform\.io\/schemaform\/\w+) /.exec(line)?.[1] ?? address;
    const hash = /^\s+(h1:[A-Za-z0-9+/=]+)$/.exec(line)?.[1];
    if (address && hash) hashes[address] = hash;
  }
  return hashes;
}

/** Every file under a mirror's registry.terraform.io, by relative path, with its bytes and mode. */
function mirrorFiles(mirror: string): Map<string, { content: Buffer; mode: number }> {
  const files = new Map<string, { content: Buffer; mode: number }>();
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(mirror, path), { content: readFileSync(path), mode: statSync(path).mode & 0o777 });
    }
  };
  walk(join(mirror, "registry.terraform.io"));
  return files;
}

let workspaces = 0;
/** A Terraform working directory with one configuration file. */
function workspace(file: string, text: string): string {
  const dir = join(work, `ws-${++workspaces}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), text);
  return dir;
}

function terraform(dir: string, args: string[], env: NodeJS.ProcessEnv): Promise<Result> {
  return runProcess("terraform", args, { cwd: dir, env: cleanEnv(env) });
}

/** Terraform's output with its line wrapping undone. */
const unwrapped = (result: Result) => result.output.replace(/\s+/g, " ");

beforeAll(async () => {
  requireTerraform();
  routes.unbuilt.cli = installedCopy(join(work, "another install", "app"), undefined);
  routes.otherAddon.cli = installedCopy(join(work, "third", "app"), Buffer.from("an addon built elsewhere\n"));
  for (const route of Object.values(routes)) {
    route.install = await providerInstall(route);
    expect(route.install.code, route.install.output).toBe(0);
  }
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("one version, the same packages from every install route", () => {
  it("prints the same h1: hash per provider, which is the one the build recorded", () => {
    const hashes = printedHashes(routes.repository.install!.stdout);
    expect(Object.keys(hashes).sort()).toEqual(ADDRESSES);
    expect(printedHashes(routes.unbuilt.install!.stdout)).toEqual(hashes);
    expect(printedHashes(routes.otherAddon.install!.stdout)).toEqual(hashes);
    const built = JSON.parse(readFileSync(join(ROOT, "dist", "provider", "lock.json"), "utf8")) as { hashes: Record<string, string> };
    expect(built.hashes).toEqual(hashes);
  });

  it("writes byte-identical packages (bytes and modes) for the same platforms, with no native addon in them", () => {
    const reference = mirrorFiles(routes.repository.mirror);
    expect([...reference.keys()].some((path) => path.endsWith(".node"))).toBe(false);
    for (const platform of ["darwin_amd64", "darwin_arm64", "linux_amd64", "linux_arm64"]) {
      expect(reference.has(join("registry.terraform.io", "schemaform", "tsdb", "0.1.0", platform, "terraform-provider-tsdb"))).toBe(true);
    }
    for (const route of [routes.unbuilt, routes.otherAddon]) {
      const files = mirrorFiles(route.mirror);
      expect([...files.keys()].sort()).toEqual([...reference.keys()].sort());
      for (const [path, file] of reference) {
        expect(files.get(path)!.content.equals(file.content), path).toBe(true);
        expect(files.get(path)!.mode, path).toBe(file.mode);
      }
    }
  });

  it("installs the providers without a better-sqlite3 build, and says what the embedded platform needs", () => {
    const unbuilt = routes.unbuilt.install!;
    expect(unbuilt.stderr).toContain("better-sqlite3 is not built in this installation");
    expect(unbuilt.stderr).toContain("npm rebuild better-sqlite3");
    expect(unbuilt.stderr).toContain("A platform server works without it: providers that set 'endpoint'");
    expect(existsSync(join(routes.unbuilt.dataHome, "schemaform", "native"))).toBe(false);

    const other = routes.otherAddon.install!;
    expect(other.stderr).toContain(`better-sqlite3's build ${join(work, "third", "app", "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node")} does not load with Node.js ${process.version}`);
    expect(existsSync(join(routes.otherAddon.dataHome, "schemaform", "native"))).toBe(false);
  });
});

describe("lock files", () => {
  const both = JSON.stringify({
    terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" }, containerbackup: { source: "schemaform/containerbackup" } } },
  });

  it("a lock file made against one mirror, for several platforms, inits against another route's mirror unchanged", async () => {
    const dir = workspace("main.tf.json", both);
    const locked = await terraform(
      dir,
      ["providers", "lock", `-fs-mirror=${routes.repository.mirror}`, "-platform=linux_amd64", "-platform=darwin_arm64", "schemaform/tsdb", "schemaform/containerbackup"],
      { TF_CLI_CONFIG_FILE: join(routes.repository.mirror, "terraform.rc") },
    );
    expect(locked.code, locked.output).toBe(0);
    const lock = readFileSync(join(dir, ".terraform.lock.hcl"), "utf8");
    for (const hash of Object.values(printedHashes(routes.repository.install!.stdout))) expect(lock).toContain(hash);

    const init = await terraform(dir, ["init", "-input=false", "-no-color"], { TF_CLI_CONFIG_FILE: join(routes.unbuilt.mirror, "terraform.rc") });
    expect(init.code, init.output).toBe(0);
    expect(init.output).toContain("Terraform has been successfully initialized");
    expect(readFileSync(join(dir, ".terraform.lock.hcl"), "utf8")).toBe(lock);
  });

  it("the printed HCL snippet and lock command work as printed", async () => {
    const output = routes.unbuilt.install!.stdout;
    const hcl = /^In a configuration \(HCL\):\n((?: {2}.*\n)+)/m.exec(output)?.[1];
    const command = /^ {2}(terraform providers lock .*)$/m.exec(output)?.[1];
    expect(hcl).toBeDefined();
    expect(command).toBeDefined();
    const dir = workspace("main.tf", hcl!.replace(/^ {2}/gm, ""));
    const env = { TF_CLI_CONFIG_FILE: join(routes.unbuilt.mirror, "terraform.rc") };
    const locked = await runProcess("sh", ["-c", command!], { cwd: dir, env: cleanEnv(env) });
    expect(locked.code, locked.output).toBe(0);
    const lock = readFileSync(join(dir, ".terraform.lock.hcl"), "utf8");
    const init = await terraform(dir, ["init", "-input=false", "-no-color"], env);
    expect(init.code, init.output).toBe(0);
    expect(readFileSync(join(dir, ".terraform.lock.hcl"), "utf8")).toBe(lock);
  });
});

describe("the embedded platform's native addon, outside the package", () => {
  const vpc = (provider: Record<string, string>) =>
    JSON.stringify({
      terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" } } },
      provider: { tsdb: { project_id: "demo-project", ...provider } },
      resource: { tsdb_vpcs: { main: { name: "main", cidr: "10.10.0.0/16", region_code: "us-east-1" } } },
    });

  it("is found in the per-user directory `provider install` put it in", async () => {
    const dir = workspace("main.tf.json", vpc({}));
    const env = { TF_CLI_CONFIG_FILE: join(routes.repository.mirror, "terraform.rc"), XDG_DATA_HOME: routes.repository.dataHome, SCHEMAFORM_DATA_DIR: join(work, "platform-a") };
    expect((await terraform(dir, ["init", "-input=false", "-no-color"], env)).code).toBe(0);
    const apply = await terraform(dir, ["apply", "-auto-approve", "-input=false", "-no-color"], env);
    expect(apply.code, apply.output).toBe(0);
    expect(apply.output).toContain("Apply complete! Resources: 1 added");
  });

  it("when absent, the error names the path and the node, and says to run `schemaform provider install`", async () => {
    const dir = workspace("main.tf.json", vpc({}));
    const env = { TF_CLI_CONFIG_FILE: join(routes.unbuilt.mirror, "terraform.rc"), XDG_DATA_HOME: routes.unbuilt.dataHome, SCHEMAFORM_DATA_DIR: join(work, "platform-b") };
    expect((await terraform(dir, ["init", "-input=false", "-no-color"], env)).code).toBe(0);
    // Planning a new resource asks the platform nothing; creating it does.
    const apply = await terraform(dir, ["apply", "-auto-approve", "-input=false", "-no-color"], env);
    expect(apply.code).not.toBe(0);
    const path = join(routes.unbuilt.dataHome, "schemaform", "native", `${process.platform}-${process.arch}-node${process.versions.modules}`, "better_sqlite3.node");
    expect(unwrapped(apply)).toContain(`The embedded platform needs better-sqlite3's native addon for Node.js ${process.version}`);
    expect(unwrapped(apply)).toContain(`at ${path}, and there is none. Run 'schemaform provider install' with this node`);
  });

  it("is not needed with an endpoint (a platform server)", async () => {
    const serverData = join(work, "server-data");
    const created = await runProcess(process.execPath, [CLI, "platform", "credentials", "create", "--project", "demo-project", "--token", "--data-dir", serverData, "--json"], {
      cwd: work,
      env: cleanEnv(),
    });
    expect(created.code, created.output).toBe(0);
    const token = (JSON.parse(created.stdout) as { access_token: string }).access_token;
    const server = await startServer(serverData);
    try {
      const dir = workspace("main.tf.json", vpc({ endpoint: server.url }));
      // The route without an addon anywhere in its per-user directory.
      const env = { TF_CLI_CONFIG_FILE: join(routes.unbuilt.mirror, "terraform.rc"), XDG_DATA_HOME: routes.unbuilt.dataHome, TSDB_ACCESS_TOKEN: token };
      expect((await terraform(dir, ["init", "-input=false", "-no-color"], env)).code).toBe(0);
      const apply = await terraform(dir, ["apply", "-auto-approve", "-input=false", "-no-color"], env);
      expect(apply.code, apply.output).toBe(0);
      expect(apply.output).toContain("Apply complete! Resources: 1 added");
    } finally {
      const exited = new Promise((resolve) => server.child.once("exit", resolve));
      server.child.kill();
      await exited;
    }
  });
});

describe("without node on PATH", () => {
  it("Terraform shows the plugin's own message instead of guessing at the architecture", async () => {
    const dir = workspace("main.tf.json", JSON.stringify({ terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" } } }, provider: { tsdb: { project_id: "p" } } }));
    const env = { TF_CLI_CONFIG_FILE: join(routes.repository.mirror, "terraform.rc") };
    expect((await terraform(dir, ["init", "-input=false", "-no-color"], env)).code).toBe(0);
    // A PATH with Terraform and nothing else.
    const bin = join(work, "bin-terraform-only");
    mkdirSync(bin, { recursive: true });
    const found = spawnSync("sh", ["-c", "command -v terraform"], { encoding: "utf8" }).stdout.trim();
    symlinkSync(realpathSync(found), join(bin, "terraform"));
    const validate = await runProcess(join(bin, "terraform"), ["validate", "-no-color"], { cwd: dir, env: { ...cleanEnv(env), PATH: bin } });
    expect(validate.code).not.toBe(0);
    expect(unwrapped(validate)).toContain(
      "Unrecognized remote plugin message: node (Node.js 20.19 or later) was not found on PATH: terraform-provider-tsdb is a Node.js program; install Node.js or add its directory to the PATH Terraform runs with",
    );
  });
});

/** `schemaform platform serve` on a free port; resolves once it listens. */
function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, "platform", "serve", "--port", "0", "--data-dir", dataDir], { env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ child, url });
    });
    child.once("exit", (code) => reject(new Error(`platform serve exited (${code}): ${out}`)));
  });
}
