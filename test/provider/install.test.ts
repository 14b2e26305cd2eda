// `schemaform provider install`: mirror layout, determinism (lock files never break on a
// reinstall), upgrades, the CLI config for --dir, Terraform's implied local mirror, and the
// executable's launcher lines. Identical packages across install routes and machines:
// reproducible.test.ts.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../cli/commands/provider.js";
import { hash1, hashDirectory } from "../../provider/hash.js";
import { COMMON_PLATFORMS, InstallConflictError, cliConfig, installProviders, terraformPlatform } from "../../provider/install.js";
import { DEFERRED_CA_ENV } from "../../platform/deferred-ca.js";
import { LAUNCHER, PROVIDER_BUNDLE, ROOT, bundleProvider, writeLockData } from "../../scripts/bundle-provider.mjs";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../provider/transport/serve.js";
import { bundleFixture } from "./helpers.js";

const work = mkdtempSync(join(tmpdir(), "schemaform-install-"));
let bundle: string;

beforeAll(async () => {
  bundle = await bundleFixture(join(work, "build"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("hash1 (Terraform's h1: lock hash)", () => {
  it("hashes the '<sha256>  <path>' lines sorted by path (the terraform suite checks it against a real lock file)", () => {
    const sha = (text: string) => createHash("sha256").update(text).digest("hex");
    const files = [
      { path: "b.txt", content: Buffer.from("b\n") },
      { path: "a.txt", content: Buffer.from("a\n") },
    ];
    const summary = `${sha("a\n")}  a.txt\n${sha("b\n")}  b.txt\n`;
    expect(hash1(files)).toBe(`h1:${createHash("sha256").update(summary).digest("base64")}`);
  });
});

describe("installProviders", () => {
  const mirror = () => join(work, "mirror");
  const install = (version: string, options: { force?: boolean; file?: string } = {}) =>
    installProviders({ providers: ["fixture"], bundle: options.file ?? bundle, version, mirror: mirror(), force: options.force })[0]!;

  it("writes the unpacked mirror layout with an executable", () => {
    const installed = install("1.0.0");
    expect(installed.status).toBe("installed");
    expect(installed.directory).toBe(join(mirror(), "registry.terraform.io", "schemaform", "fixture", "1.0.0", terraformPlatform()));
    const executable = join(installed.directory, "terraform-provider-fixture");
    expect(statSync(executable).mode & 0o111).toBe(0o111);
    expect(readFileSync(executable, "utf8").startsWith(LAUNCHER)).toBe(true);
    expect(JSON.parse(readFileSync(join(installed.directory, "package.json"), "utf8"))).toEqual({ type: "commonjs" });
    expect(hashDirectory(installed.directory)).toBe(installed.hash);
  });

  it("holds nothing but the executable and package.json, the same bytes for every common platform", () => {
    const installed = install("1.0.0");
    expect(installed.platforms).toEqual([...new Set([...COMMON_PLATFORMS, terraformPlatform()])].sort());
    const version = join(mirror(), "registry.terraform.io", "schemaform", "fixture", "1.0.0");
    expect(readdirSync(version).sort()).toEqual(installed.platforms);
    for (const platform of installed.platforms) {
      expect(readdirSync(join(version, platform)).sort()).toEqual(["package.json", "terraform-provider-fixture"]);
      expect(hashDirectory(join(version, platform))).toBe(installed.hash);
    }
  });

  it("is a no-op for the same build (the lock-file hash stays valid)", () => {
    const again = install("1.0.0");
    expect(again.status).toBe("unchanged");
    expect(again.hash).toBe(install("1.0.0").hash);
  });

  it("leaves the same build's executable untouched, inode and change time alike (a resident server keeps serving it)", () => {
    const executable = join(install("1.0.0").directory, "terraform-provider-fixture");
    const before = statSync(executable, { bigint: true });
    install("1.0.0");
    const after = statSync(executable, { bigint: true });
    expect([after.ino, after.ctimeNs, after.mode]).toEqual([before.ino, before.ctimeNs, before.mode]);
  });

  it("gives a same-build executable that lost its exec bit the bit back", () => {
    const executable = join(install("1.0.0").directory, "terraform-provider-fixture");
    chmodSync(executable, 0o644);
    expect(install("1.0.0").status).toBe("unchanged");
    expect(statSync(executable).mode & 0o777).toBe(0o755);
  });

  it("refuses a different build under the same version unless forced", () => {
    const changed = join(work, "changed.cjs");
    writeFileSync(changed, `${readFileSync(bundle, "utf8")}\n// changed\n`);
    expect(() => install("1.0.0", { file: changed })).toThrow(InstallConflictError);
    // Refused before anything was written: every platform still holds the old build.
    const version = join(mirror(), "registry.terraform.io", "schemaform", "fixture", "1.0.0");
    expect(new Set(readdirSync(version).map((platform) => hashDirectory(join(version, platform))))).toEqual(new Set([install("1.0.0").hash]));
    const forced = install("1.0.0", { file: changed, force: true });
    expect(forced.status).toBe("replaced");
    expect(hashDirectory(forced.directory)).toBe(forced.hash);
  });

  it("keeps earlier versions when a new one is installed", () => {
    const upgraded = install("1.1.0");
    expect(upgraded.status).toBe("installed");
    expect(upgraded.otherVersions).toEqual(["1.0.0"]);
    expect(statSync(join(mirror(), "registry.terraform.io", "schemaform", "fixture", "1.0.0")).isDirectory()).toBe(true);
  });

  it("writes a CLI config that uses the mirror and never a registry for schemaform/*", () => {
    const text = cliConfig(mirror());
    expect(text).toContain(`path    = ${JSON.stringify(mirror())}`);
    // Terraform asks for registry.terraform.io/schemaform/*, OpenTofu for registry.opentofu.org/schemaform/*.
    expect(text).toContain('include = ["registry.terraform.io/schemaform/*", "registry.opentofu.org/schemaform/*"]');
    expect(text).toMatch(/direct \{\n\s+exclude = \["registry\.terraform\.io\/schemaform\/\*", "registry\.opentofu\.org\/schemaform\/\*"\]/);
  });
});

describe("the executable's launcher lines (sh and JavaScript at once)", () => {
  // What Node sees, printed by the JavaScript after the launcher.
  const probe = `${LAUNCHER}const seen = { argv: process.argv.slice(1), extra: process.env.NODE_EXTRA_CA_CERTS ?? null, deferred: process.env.${DEFERRED_CA_ENV} ?? null };\nconsole.log(JSON.stringify(seen));\n`;
  const directory = join(work, "dir with spaces");
  const script = join(directory, "terraform-provider-probe");
  beforeAll(() => {
    mkdirSync(directory, { recursive: true });
    writeFileSync(script, probe, { mode: 0o755 });
  });
  const shells = ["sh", "dash", "bash"].filter((shell) => spawnSync(shell, ["-c", "exit 0"]).status === 0);

  for (const shell of shells) {
    for (const extra of [undefined, "/etc/ssl/certs/ca-certificates.crt", "/path with spaces/$HOME/*.pem"]) {
      it(`${shell}: runs node on the same file with NODE_EXTRA_CA_CERTS ${extra ? `(${extra}) deferred` : "unset"}`, () => {
        const env: NodeJS.ProcessEnv = { ...process.env };
        delete env.NODE_EXTRA_CA_CERTS;
        delete env[DEFERRED_CA_ENV];
        if (extra) env.NODE_EXTRA_CA_CERTS = extra;
        const result = spawnSync(shell, [script, "one arg", "*", "$HOME"], { env, encoding: "utf8" });
        expect(result.stderr).toBe("");
        expect(JSON.parse(result.stdout)).toEqual({ argv: [script, "one arg", "*", "$HOME"], extra: null, deferred: extra ?? null });
      });
    }
  }

  it("without node on PATH, says so in its first stdout line (the one Terraform quotes) and exits non-zero", () => {
    const noNode = join(work, "bin-without-node");
    mkdirSync(noNode, { recursive: true });
    for (const shell of shells) {
      const absolute = spawnSync(shell, ["-c", `command -v ${shell}`], { encoding: "utf8" }).stdout.trim();
      const result = spawnSync(absolute, [script], { env: { PATH: noNode }, encoding: "utf8" });
      expect(result.status).toBe(127);
      expect(result.stdout.split("\n")[0]).toBe(
        "node (Node.js 20.19 or later) was not found on PATH: terraform-provider-probe is a Node.js program; install Node.js or add its directory to the PATH Terraform runs with",
      );
      expect(result.stderr).toBe(`terraform-provider-probe: node was not found on PATH (${noNode})\n`);
    }
  });

  it("starts the installed provider through its #! line, with NODE_EXTRA_CA_CERTS set", async () => {
    const [installed] = installProviders({ providers: ["fixture"], bundle, version: "3.0.0", mirror: join(work, "launch-mirror") });
    const executable = join(installed!.directory, "terraform-provider-fixture");
    const child = spawn(executable, [], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: "/etc/ssl/certs/ca-certificates.crt", [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, TF_DISABLE_PLUGIN_TLS: "1", PLUGIN_CLIENT_CERT: "" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString()));
        child.once("exit", (code) => reject(new Error(`exited with ${code} before the handshake`)));
      });
      expect(line).toMatch(/^1\|6\|(unix|tcp)\|[^|]+\|grpc\|\n$/);
    } finally {
      child.kill();
    }
  });
});

describe("the bundle", () => {
  it("is deterministic (same sources, same bytes)", async () => {
    const first = readFileSync(bundle);
    const second = readFileSync(await bundleProvider({ entryPoint: join(ROOT, "test", "provider", "fixture", "main.ts"), outfile: join(work, "again", "p.cjs") }));
    expect(second.equals(first)).toBe(true);
  });
});

describe("schemaform provider install", () => {
  beforeAll(async () => {
    // What `npm run build` produces; the command installs it.
    await bundleProvider({ entryPoint: join(ROOT, "provider", "main.ts"), outfile: PROVIDER_BUNDLE });
    await writeLockData();
  });

  it("--dir installs both providers, the addon outside the mirror, writes terraform.rc, and prints the snippet and the lock step", async () => {
    const dir = join(work, "cli mirror");
    const dataHome = join(work, "data-home");
    const code = await withEnv({ XDG_DATA_HOME: dataHome }, () => capture(() => run(["install", "--dir", dir])));
    expect(code.status).toBe(0);
    expect(code.stdout).toMatch(/registry\.terraform\.io\/schemaform\/tsdb 0\.1\.0: installed\n.*\(darwin_amd64, darwin_arm64, linux_amd64, linux_arm64/);
    expect(code.stdout).toMatch(/registry\.terraform\.io\/schemaform\/containerbackup .*: installed/);
    expect(code.stdout).toMatch(/h1:[A-Za-z0-9+/]{43}=/);
    expect(readFileSync(join(dir, "terraform.rc"), "utf8")).toContain("filesystem_mirror");

    const addon = join(dataHome, "schemaform", "native", `${process.platform}-${process.arch}-node${process.versions.modules}`, "better_sqlite3.node");
    expect(code.stdout).toContain(`Embedded platform addon for Node.js ${process.version} (${process.execPath}): ${addon} (installed)`);
    expect(statSync(addon).isFile()).toBe(true);

    expect(code.stdout).toContain('tsdb            = { source = "schemaform/tsdb" }');
    expect(code.stdout).toContain('{ "terraform": { "required_providers": { "tsdb": { "source": "schemaform/tsdb" }, "containerbackup": { "source": "schemaform/containerbackup" } } } }');
    expect(code.stdout).toContain(
      `  terraform providers lock '-fs-mirror=${dir}' -platform=darwin_amd64 -platform=darwin_arm64 -platform=linux_amd64 -platform=linux_arm64 schemaform/tsdb schemaform/containerbackup\n`,
    );
    expect(code.stdout).toContain("commit .terraform.lock.hcl");

    const again = await withEnv({ XDG_DATA_HOME: dataHome }, () => capture(() => run(["install", "--dir", dir])));
    expect(again.stdout).toMatch(/already installed \(identical\)/);
    expect(again.stdout).toContain(`${addon} (up to date)`);
  });

  it("rejects unknown options with usage", async () => {
    const result = await capture(() => run(["install", "--nope"]));
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/unknown option '--nope'/);
  });

  it("without --dir installs into Terraform's implied local mirror, which terraform init uses offline", async () => {
    const home = join(work, "home");
    const previous = process.env.HOME;
    process.env.HOME = home;
    try {
      expect((await capture(() => run(["install"]))).status).toBe(0);
    } finally {
      process.env.HOME = previous;
    }
    // Install the fixture the same way, then let Terraform find it with no CLI config at all.
    installProviders({ providers: ["fixture"], bundle, version: "0.0.1", mirror: join(home, ".terraform.d", "plugins") });
    const project = join(work, "implied");
    mkdirSync(project, { recursive: true });
    writeFileSync(
      join(project, "main.tf.json"),
      JSON.stringify({ terraform: { required_providers: { fixture: { source: "schemaform/fixture" }, tsdb: { source: "schemaform/tsdb" } } } }),
    );
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, CHECKPOINT_DISABLE: "1" };
    for (const name of ["TF_CLI_CONFIG_FILE", "TERRAFORM_CONFIG", "TF_PLUGIN_CACHE_DIR", "XDG_DATA_HOME", "TF_LOG"]) delete env[name];
    const result = spawnSync("terraform", ["init", "-input=false", "-no-color"], { cwd: project, env, encoding: "utf8" });
    if (result.error) throw new Error(`cannot run terraform: ${result.error.message}`);
    expect(`${result.stdout}${result.stderr}`).toMatch(/Installed schemaform\/tsdb v\d+\.\d+\.\d+/);
    expect(result.status).toBe(0);
  });
});

/** Runs `action` with some environment variables set, then restores them. */
async function withEnv<T>(values: Record<string, string>, action: () => Promise<T>): Promise<T> {
  const previous = Object.fromEntries(Object.keys(values).map((key) => [key, process.env[key]]));
  Object.assign(process.env, values);
  try {
    return await action();
  } finally {
    for (const [key, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

async function capture(action: () => Promise<number>): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((chunk: string) => ((stdout += chunk), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => ((stderr += chunk), true)) as typeof process.stderr.write;
  try {
    return { status: await action(), stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}
