// The lock-file entries a synthesized CDKTF stack gets for our providers (constructs/runtime/
// lock-file.ts): the same text `terraform init` writes for the installed packages, so Terraform
// accepts them as they are, and cdktf finds the lock file complete; other providers' entries are
// never touched. The first `cdktf deploy` itself: cdktf-deploy.test.ts.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, TerraformProvider, TerraformStack } from "cdktf";
import type { Construct } from "constructs";
import { ContainerbackupProvider } from "schemaform/containerbackup";
import { TsdbProvider } from "schemaform/tsdb";
import { afterAll, describe, expect, it } from "vitest";
import { LOCK_FILE, lockProviderPackage, mergeLockEntry, registryHost } from "../../constructs/runtime/lock-file.js";
import { PROVIDER_NAMES, cliConfig as writeCliConfigText, installProviders, locateBuild, writeCliConfig } from "../../provider/install.js";
import { missingProviderWarning, terraformMirrors } from "../../constructs/runtime/mirror-check.js";
import { requireTerraform, runProcess } from "../e2e/support/harness.js";

const work = mkdtempSync(join(tmpdir(), "schemaform-lock-file-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const build = JSON.parse(readFileSync(join(locateBuild().bundle, "..", "lock.json"), "utf8")) as { version: string; hashes: Record<string, string> };
const TSDB = "registry.terraform.io/schemaform/tsdb";
const CONTAINERBACKUP = "registry.terraform.io/schemaform/containerbackup";

/** Synthesizes a stack with `define` into a fresh outdir; returns the stack's working directory. */
function synth(name: string, define: (stack: TerraformStack) => void): string {
  const outdir = join(work, name);
  const app = new App({ outdir });
  const stack = new TerraformStack(app, name);
  define(stack);
  app.synth();
  return join(outdir, "stacks", name);
}

describe("at synth", () => {
  it("writes the entries `terraform init` writes for the installed packages, which Terraform then leaves as they are", async () => {
    requireTerraform();
    const dir = synth("both", (stack) => {
      lockProviderPackage(new TsdbProvider(stack, "tsdb", { projectId: "demo-project" }));
      lockProviderPackage(new TsdbProvider(stack, "tsdb_other", { projectId: "other-project", alias: "other" }));
      lockProviderPackage(new ContainerbackupProvider(stack, "containerbackup", { project: "demo-project" }));
    });
    const written = readFileSync(join(dir, LOCK_FILE), "utf8");
    expect(written).toContain(build.hashes[TSDB]);
    expect(written).toContain(build.hashes[CONTAINERBACKUP]);

    const mirror = join(work, "mirror");
    installProviders({ ...locateBuild(), providers: PROVIDER_NAMES, mirror });
    const env: NodeJS.ProcessEnv = { ...process.env, CHECKPOINT_DISABLE: "1", TF_CLI_CONFIG_FILE: writeCliConfig(mirror) };
    for (const key of ["TF_LOG", "TF_PLUGIN_CACHE_DIR", "TF_DATA_DIR", "TF_CLI_ARGS", "TF_CLI_ARGS_init"]) delete env[key];

    // Terraform's own lock file for the same configuration, made from nothing.
    const fresh = join(work, "fresh");
    mkdirSync(fresh);
    cpSync(join(dir, "cdk.tf.json"), join(fresh, "cdk.tf.json"));
    const ownInit = await runProcess("terraform", ["init", "-input=false", "-no-color"], { cwd: fresh, env });
    expect(ownInit.code, ownInit.output).toBe(0);
    expect(written).toBe(readFileSync(join(fresh, LOCK_FILE), "utf8"));

    const init = await runProcess("terraform", ["init", "-input=false", "-no-color"], { cwd: dir, env });
    expect(init.code, init.output).toBe(0);
    expect(init.output).not.toContain("Terraform has made some changes to the provider dependency selections");
    expect(readFileSync(join(dir, LOCK_FILE), "utf8")).toBe(written);
  });

  it("for OpenTofu, writes the registry.opentofu.org entries that an init from the mirror writes", async () => {
    requireTerraform();
    const dir = synth("tofu", (stack) => {
      stack.node.setContext("schemaform:registryHost", "registry.opentofu.org");
      lockProviderPackage(new TsdbProvider(stack, "tsdb", { projectId: "demo-project" }));
    });
    const written = readFileSync(join(dir, LOCK_FILE), "utf8");
    expect(written).toContain('provider "registry.opentofu.org/schemaform/tsdb"');
    expect(written).toContain(build.hashes[TSDB]);

    // OpenTofu reads `schemaform/tsdb` as registry.opentofu.org/schemaform/tsdb. OpenTofu cannot run
    // here; Terraform, given that address in full, asks the mirror for the same package.
    const mirror = join(work, "mirror-tofu");
    installProviders({ ...locateBuild(), providers: ["tsdb"], mirror });
    const env: NodeJS.ProcessEnv = { ...process.env, CHECKPOINT_DISABLE: "1", TF_CLI_CONFIG_FILE: writeCliConfig(mirror) };
    for (const key of ["TF_LOG", "TF_PLUGIN_CACHE_DIR", "TF_DATA_DIR", "TF_CLI_ARGS", "TF_CLI_ARGS_init"]) delete env[key];
    const fresh = join(work, "fresh-tofu");
    mkdirSync(fresh);
    const config = readFileSync(join(dir, "cdk.tf.json"), "utf8").replace(/"schemaform\/tsdb"/g, '"registry.opentofu.org/schemaform/tsdb"');
    writeFileSync(join(fresh, "cdk.tf.json"), config);
    const init = await runProcess("terraform", ["init", "-input=false", "-no-color"], { cwd: fresh, env });
    expect(init.code, init.output).toBe(0);
    expect(readFileSync(join(fresh, LOCK_FILE), "utf8")).toBe(written);
  });

  it("picks OpenTofu's hostname when cdktf runs tofu (TERRAFORM_BINARY_NAME)", () => {
    const app = new App({ outdir: join(work, "binary") });
    const stack = new TerraformStack(app, "binary");
    expect(registryHost(stack, { TERRAFORM_BINARY_NAME: "/usr/local/bin/tofu" })).toBe("registry.opentofu.org");
    expect(registryHost(stack, { TERRAFORM_BINARY_NAME: "terraform" })).toBe("registry.terraform.io");
    expect(registryHost(stack, {})).toBe("registry.terraform.io");
  });

  it("leaves a complete lock file alone (not even rewritten)", () => {
    const define = (stack: TerraformStack) => lockProviderPackage(new TsdbProvider(stack, "tsdb", { projectId: "demo-project" }));
    const dir = synth("again", define);
    const before = statSync(join(dir, LOCK_FILE));
    synth("again", define);
    const after = statSync(join(dir, LOCK_FILE));
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
  });

  it("writes nothing for a provider of another version than this build's", () => {
    class Elsewhere extends TerraformProvider {
      constructor(scope: Construct, id: string) {
        super(scope, id, {
          terraformResourceType: "tsdb",
          terraformGeneratorMetadata: { providerName: "tsdb", providerVersion: "99.0.0" },
          terraformProviderSource: "schemaform/tsdb",
        });
      }
    }
    const dir = synth("elsewhere", (stack) => lockProviderPackage(new Elsewhere(stack, "tsdb")));
    expect(() => statSync(join(dir, LOCK_FILE))).toThrow(/ENOENT/);
  });
});

describe("merging into an existing lock file", () => {
  const entry = { address: TSDB, version: "0.1.0", constraints: "0.1.0", hashes: ["h1:new"] };
  const random = ['provider "registry.terraform.io/hashicorp/random" {', '  version     = "3.6.0"', '  constraints = "~> 3.6"', "  hashes = [", '    "h1:aaa=",', '    "zh:bbb",', "  ]", "}"].join("\n");
  const zeta = ['provider "registry.terraform.io/zeta/other" {', '  version = "1.0.0"', "  hashes = [", '    "h1:zzz=",', "  ]", "}"].join("\n");
  const header = '# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n';
  const ours = (version: string, hashes: string[]) =>
    [`provider "${TSDB}" {`, `  version     = "${version}"`, `  constraints = "${version}"`, "  hashes = [", ...hashes.map((h) => `    "${h}",`), "  ]", "}"].join("\n");

  it("adds our entry where Terraform sorts it, other providers' entries unchanged", () => {
    const text = `${header}\n${random}\n\n${zeta}\n`;
    expect(mergeLockEntry(text, entry)).toBe(`${header}\n${random}\n\n${ours("0.1.0", ["h1:new"])}\n\n${zeta}\n`);
    expect(mergeLockEntry(`${header}\n${random}\n`, entry)).toBe(`${header}\n${random}\n\n${ours("0.1.0", ["h1:new"])}\n`);
  });

  it("keeps the hashes recorded for the same version and adds this build's", () => {
    const text = `${header}\n${random}\n\n${ours("0.1.0", ["h1:old=", "zh:older"])}\n`;
    expect(mergeLockEntry(text, entry)).toBe(`${header}\n${random}\n\n${ours("0.1.0", ["h1:new", "h1:old=", "zh:older"])}\n`);
  });

  it("replaces an entry for another version (the constructs pin theirs)", () => {
    const text = `${header}\n${ours("0.0.9", ["h1:old="])}\n\n${zeta}\n`;
    expect(mergeLockEntry(text, entry)).toBe(`${header}\n${ours("0.1.0", ["h1:new"])}\n\n${zeta}\n`);
  });

  it("returns the same text when it already holds the entry", () => {
    const text = `${header}\n${random}\n\n${ours("0.1.0", ["h1:new", "h1:other="])}\n`;
    expect(mergeLockEntry(text, entry)).toBe(text);
  });
});

describe("before schemaform provider install", () => {
  it("says at synth that the provider is not where terraform init looks, and nothing once it is installed", () => {
    const home = join(work, "fresh-home");
    mkdirSync(home, { recursive: true });
    const env = { HOME: home, XDG_DATA_HOME: join(home, "data") };
    const address = "registry.terraform.io/schemaform/tsdb";
    expect(terraformMirrors(env)).toEqual([join(home, ".terraform.d", "plugins"), join(home, "data", "terraform", "plugins")]);
    const warning = missingProviderWarning(address, build.version, env);
    expect(warning).toContain(`${address} ${build.version} is not installed where terraform init looks`);
    expect(warning).toContain("npx schemaform provider install");

    installProviders({ ...locateBuild(), providers: ["tsdb"], mirror: join(home, ".terraform.d", "plugins") });
    expect(missingProviderWarning(address, build.version, env)).toBeUndefined();
    expect(missingProviderWarning("registry.opentofu.org/schemaform/tsdb", build.version, env)).toBeUndefined();
    expect(missingProviderWarning(address, "9.9.9", env)).toContain("9.9.9 is not installed");

    // A CLI configuration with a provider_installation block: only its filesystem mirrors count.
    const config = join(home, "cli.rc");
    writeFileSync(config, writeCliConfigText(join(home, "elsewhere")));
    expect(terraformMirrors({ ...env, TF_CLI_CONFIG_FILE: config })).toEqual([join(home, "elsewhere")]);
    expect(missingProviderWarning(address, build.version, { ...env, TF_CLI_CONFIG_FILE: config })).toBeDefined();
  });
});
