// Real Terraform (1.11, on PATH) against the bundled fixture provider, installed with
// `provider install --dir`'s code into a temporary filesystem mirror, fully offline. The
// lifecycle: init, validate, plan, apply, a clean second plan, update in place, replacement,
// drift, import, destroy. Missing Terraform is a failure, never a skip.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installProviders, writeCliConfig, type InstalledPackage } from "../../provider/install.js";
import { bundleFixture } from "./helpers.js";
import type { Things } from "./fixture/store.js";

const SECRET = "s3cret-value-xyz";
const PASSWORD = "pw-write-only-987";
const TOKEN = "tok-provider-555";

const work = mkdtempSync(join(tmpdir(), "schemaform-terraform-"));
const project = join(work, "project");
const mirror = join(work, "mirror");
const storePath = join(work, "store.json");
let env: NodeJS.ProcessEnv;
let installed: InstalledPackage;
/** Everything Terraform printed, to check that no sensitive value ever shows. */
let transcript = "";

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function terraform(...args: string[]): Run {
  const result = spawnSync("terraform", args, { cwd: project, env, encoding: "utf8", timeout: 120_000 });
  if (result.error) throw new Error(`cannot run terraform (Terraform 1.11 must be on PATH): ${result.error.message}`);
  transcript += `$ terraform ${args.join(" ")}\n${result.stdout}${result.stderr}`;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function ok(...args: string[]): Run {
  const run = terraform(...args);
  if (run.status !== 0) throw new Error(`terraform ${args.join(" ")} exited ${run.status}\n${run.stdout}\n${run.stderr}`);
  return run;
}

function things(): Things {
  return existsSync(storePath) ? (JSON.parse(readFileSync(storePath, "utf8")) as Things) : {};
}

function state(): { resources: { type: string; name: string; instances: { attributes: Record<string, unknown>; sensitive_attributes?: unknown }[] }[] } {
  return JSON.parse(readFileSync(join(project, "terraform.tfstate"), "utf8"));
}

function attributes(name: string): Record<string, unknown> {
  const resource = state().resources.find((r) => r.type === "fixture_thing" && r.name === name);
  if (!resource) throw new Error(`fixture_thing.${name} is not in state`);
  return resource.instances[0]!.attributes;
}

function thing(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "one",
    region: "eu",
    secret: SECRET,
    password_wo: PASSWORD,
    password_version: 1,
    tags: { team: "data" },
    labels: ["b", "a"],
    endpoints: [{ url: "https://one.example", weight: 2 }, { url: "https://two.example" }],
    settings: { enabled: true },
    rule: [{ key: "k1", value: "v1" }, { key: "k2" }],
    ...overrides,
  };
}

function writeConfig(resources: Record<string, Record<string, unknown>>, extra: Record<string, unknown> = {}): void {
  const config = {
    terraform: { required_providers: { fixture: { source: "schemaform/fixture", version: "0.0.1" } } },
    provider: { fixture: { store: storePath, token: TOKEN } },
    resource: { fixture_thing: resources },
    data: { fixture_things: { all: { name_prefix: "", depends_on: ["fixture_thing.one"] } } },
    output: { names: { value: "${data.fixture_things.all.names}" } },
    ...extra,
  };
  writeFileSync(join(project, "main.tf.json"), `${JSON.stringify(config, null, 2)}\n`);
}

beforeAll(async () => {
  mkdirSync(project, { recursive: true });
  const build = join(work, "build");
  const bundle = await bundleFixture(build);
  [installed] = installProviders({ providers: ["fixture"], bundle, version: "0.0.1", mirror });
  env = { ...process.env, CHECKPOINT_DISABLE: "1", TF_CLI_CONFIG_FILE: writeCliConfig(mirror), TF_IN_AUTOMATION: "1", TF_INPUT: "0" };
  for (const name of ["TF_LOG", "TF_PLUGIN_CACHE_DIR", "TF_DATA_DIR", "TF_WORKSPACE", "TF_CLI_ARGS"]) delete env[name];
  writeConfig({ one: thing() });
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("terraform with the fixture provider", () => {
  it("init installs from the mirror and locks the package hash we computed", () => {
    const run = ok("init", "-input=false", "-no-color");
    expect(run.stdout).toMatch(/Installed schemaform\/fixture v0\.0\.1/);
    const lock = readFileSync(join(project, ".terraform.lock.hcl"), "utf8");
    expect(lock).toContain(installed.hash);
  });

  it("validate passes, and reports a validator error at the attribute", () => {
    ok("validate", "-no-color");
    writeConfig({ one: thing({ name: "Bad Name", rule: [{ key: "" }] }) });
    const run = terraform("validate", "-json");
    expect(run.status).toBe(1);
    const diagnostics = (JSON.parse(run.stdout) as { diagnostics: { summary: string; address?: string; range?: { start: { line: number } }; snippet?: { context: string } }[] })
      .diagnostics;
    expect(diagnostics.map((d) => d.summary)).toEqual(expect.arrayContaining([expect.stringMatching(/name must start/), "rule key must not be empty"]));
    // The attribute path lets Terraform point at the exact line of the JSON file.
    expect(diagnostics.find((d) => d.summary.startsWith("name must start"))?.snippet?.context).toMatch(/resource\.fixture_thing\.one/);
    expect(diagnostics.every((d) => d.range?.start.line !== undefined)).toBe(true);
    writeConfig({ one: thing() });
  });

  it("plans a create and applies it", () => {
    const planned = terraform("plan", "-out=tfplan", "-detailed-exitcode", "-no-color");
    expect(planned.status).toBe(2);
    expect(planned.stdout).toMatch(/\+ id\s+= \(known after apply\)/);
    expect(planned.stdout).toMatch(/password_wo\s+= \(write-only attribute\)/);
    expect(planned.stdout).toMatch(/size\s+= 1/);
    const applied = ok("apply", "-no-color", "tfplan");
    expect(applied.stdout).toMatch(/1 added, 0 changed, 0 destroyed/);
    const attrs = attributes("one");
    expect(attrs.password_wo).toBeNull();
    expect(attrs.password_set).toBe(true);
    expect(attrs.secret).toBe(SECRET);
    expect(attrs.zone).toBe("eu-a");
    expect(Object.keys(things())).toEqual([attrs.id]);
  });

  it("a second plan shows no changes", () => {
    expect(terraform("plan", "-detailed-exitcode", "-no-color").status).toBe(0);
  });

  it("updates in place, keeping the id", () => {
    const before = attributes("one");
    writeConfig({ one: thing({ name: "one-renamed", labels: ["c"], endpoints: [{ url: "https://one.example", weight: 3 }] }) });
    const run = ok("apply", "-auto-approve", "-no-color");
    expect(run.stdout).toMatch(/0 added, 1 changed, 0 destroyed/);
    const after = attributes("one");
    expect(after.id).toBe(before.id);
    expect(after.name).toBe("one-renamed");
    expect(after.updated_at).not.toBe(before.updated_at);
    expect(terraform("plan", "-detailed-exitcode", "-no-color").status).toBe(0);
  });

  it("replaces when a force-new attribute changes", () => {
    const before = attributes("one");
    writeConfig({ one: thing({ name: "one-renamed", labels: ["c"], endpoints: [{ url: "https://one.example", weight: 3 }], region: "us" }) });
    const planned = terraform("plan", "-detailed-exitcode", "-no-color");
    expect(planned.status).toBe(2);
    expect(planned.stdout).toMatch(/must be replaced/);
    expect(planned.stdout).toMatch(/region\s+= "eu" -> "us" # forces replacement/);
    const run = ok("apply", "-auto-approve", "-no-color");
    expect(run.stdout).toMatch(/1 added, 0 changed, 1 destroyed/);
    const after = attributes("one");
    expect(after.id).not.toBe(before.id);
    expect(after.zone).toBe("us-a");
    expect(Object.keys(things())).toEqual([after.id]);
    expect(terraform("plan", "-detailed-exitcode", "-no-color").status).toBe(0);
  });

  it("notices an object deleted outside Terraform and plans to create it again", () => {
    writeFileSync(storePath, "{}\n");
    const planned = terraform("plan", "-detailed-exitcode", "-no-color");
    expect(planned.status).toBe(2);
    expect(planned.stdout).toMatch(/fixture_thing\.one will be created/);
    ok("apply", "-auto-approve", "-no-color");
    expect(terraform("plan", "-detailed-exitcode", "-no-color").status).toBe(0);
  });

  it("imports an existing object with an import block", () => {
    const current = writeThingBehindTerraform();
    writeConfig(
      { one: thing({ name: "one-renamed", labels: ["c"], endpoints: [{ url: "https://one.example", weight: 3 }], region: "us" }), two: { name: "adopted", region: "eu" } },
      { import: [{ to: "fixture_thing.two", id: current }] },
    );
    const planned = terraform("plan", "-detailed-exitcode", "-no-color");
    expect(planned.stdout).toMatch(/1 to import, 0 to add, 0 to change, 0 to destroy/);
    const run = ok("apply", "-auto-approve", "-no-color");
    expect(run.stdout).toMatch(/1 imported, 0 added, 0 changed, 0 destroyed/);
    expect(attributes("two").id).toBe(current);
    expect(terraform("plan", "-detailed-exitcode", "-no-color").status).toBe(0);
  });

  it("destroys everything", () => {
    const run = ok("destroy", "-auto-approve", "-no-color");
    expect(run.stdout).toMatch(/Destroy complete! Resources: 2 destroyed/);
    expect(things()).toEqual({});
  });

  it("never shows a sensitive value", () => {
    expect(transcript).not.toContain(SECRET);
    expect(transcript).not.toContain(PASSWORD);
    expect(transcript).not.toContain(TOKEN);
  });
});

/** Adds a thing to the store directly, as if someone had made it by hand; returns its id. */
function writeThingBehindTerraform(): string {
  const id = "feedc0ffee01";
  const now = new Date().toISOString();
  const all = things();
  all[id] = {
    id,
    name: "adopted",
    region: "eu",
    zone: "eu-b",
    size: 1,
    settings: null,
    rule: [],
    created_at: now,
    updated_at: now,
    password_set: false,
  };
  writeFileSync(storePath, JSON.stringify(all));
  return id;
}
