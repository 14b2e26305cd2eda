// Proof by Terraform: resources made straight through the platform client (no Terraform state
// anywhere), then `schemaform import --discover` (the built CLI), then real Terraform 1.11 with
// the providers from `schemaform provider install --dir`: the plan must be exactly
// "N to import, 0 to add, 0 to change, 0 to destroy" with the secret variables given their real
// values, and after `apply` a second plan must be clean. The same for the CDKTF stack written by
// `--format cdktf`; native HCL (`--format hcl`) is planned as imports only. Missing Terraform or
// a missing build is a failure, never a skip.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT, createEstate, tempDir, type Estate } from "./fixture.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CLI = join(ROOT, "dist", "cli", "main.js");
const work = tempDir("sf-import-e2e-");
const mirror = join(work, "mirror");
/** Everything printed by the commands, to check that no secret ever shows. */
let transcript = "";

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function baseEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    // The providers' settings come only from the generated configuration and the data dir.
    if (/^(TSDB_|CONTAINERBACKUP_|TF_VAR_|TF_CLI_CONFIG_FILE$|TF_DATA_DIR$|TF_LOG)/.test(k)) continue;
    env[k] = v;
  }
  return {
    ...env,
    CHECKPOINT_DISABLE: "1",
    SCHEMAFORM_TRANSITION_SECONDS: "0",
    SCHEMAFORM_DATA_DIR: dataDir,
    TF_CLI_CONFIG_FILE: join(mirror, "terraform.rc"),
    TF_IN_AUTOMATION: "1",
  };
}

function exec(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Run {
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: 170_000 });
  if (result.error) {
    const hint = command === "terraform" ? " (Terraform 1.11 must be on PATH)" : "";
    throw new Error(`cannot run ${command}${hint}: ${result.error.message}`);
  }
  transcript += `$ ${command} ${args.join(" ")}\n${result.stdout}${result.stderr}\n`;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function ok(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Run {
  const run = exec(command, args, cwd, env);
  if (run.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${run.status}\n${run.stdout}\n${run.stderr}`);
  return run;
}

const terraform = (dir: string, env: NodeJS.ProcessEnv, ...args: string[]) => exec("terraform", [...args, "-no-color"], dir, env);
const schemaform = (dir: string, env: NodeJS.ProcessEnv, ...args: string[]) => ok(process.execPath, [CLI, ...args], dir, env);

/** "Plan: 13 to import, 0 to add, 0 to change, 0 to destroy." → the four numbers. */
function planCounts(output: string): { import: number; add: number; change: number; destroy: number } | null {
  const m = /Plan: (?:(\d+) to import, )?(\d+) to add, (\d+) to change, (\d+) to destroy\./.exec(output);
  if (!m) return null;
  return { import: Number(m[1] ?? 0), add: Number(m[2]), change: Number(m[3]), destroy: Number(m[4]) };
}

/**
 * The real values of the generated variables. Each variable is found where the configuration
 * uses it (`"${var.NAME}"` at an attribute of a resource), and its value in the estate's secrets
 * by that resource's import id and the attribute.
 */
function variableValues(estate: Estate, resources: Record<string, Record<string, unknown>>, imports: Array<{ to: string; id: string }>): Record<string, string> {
  const values: Record<string, string> = {};
  const visit = (value: unknown, path: string[], address: string) => {
    if (typeof value === "string") {
      const m = /^\$\{var\.([A-Za-z0-9_-]+)\}$/.exec(value);
      if (!m) return;
      const importId = imports.find((i) => i.to === address)?.id ?? "";
      const attribute = path.filter((p) => !/^\d+$/.test(p)).join(".");
      const secret = estate.secretValues.find((s) => s.attribute === attribute && (importId === s.id || importId.endsWith(`:${s.id}`)));
      if (!secret) throw new Error(`no known value for var.${m[1]} (${address} ${attribute})`);
      values[m[1]!] = secret.value;
    } else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) visit(v, [...path, k], address);
    }
  };
  for (const [type, byName] of Object.entries(resources)) for (const [name, body] of Object.entries(byName)) visit(body, [], `${type}.${name}`);
  return values;
}

function expectCleanImport(dir: string, env: NodeJS.ProcessEnv, varFile: string, expected: number): void {
  ok("terraform", ["init", "-input=false", "-no-color"], dir, env);
  ok("terraform", ["validate", "-no-color"], dir, env);

  const plan = terraform(dir, env, "plan", "-input=false", `-var-file=${varFile}`);
  expect(plan.status, `${plan.stdout}\n${plan.stderr}`).toBe(0);
  expect(planCounts(plan.stdout), plan.stdout).toEqual({ import: expected, add: 0, change: 0, destroy: 0 });

  const apply = terraform(dir, env, "apply", "-input=false", "-auto-approve", `-var-file=${varFile}`);
  expect(apply.status, `${apply.stdout}\n${apply.stderr}`).toBe(0);
  expect(apply.stdout).toContain(`Apply complete! Resources: ${expected} imported, 0 added, 0 changed, 0 destroyed.`);

  const again = terraform(dir, env, "plan", "-input=false", "-detailed-exitcode", `-var-file=${varFile}`);
  expect(again.status, `${again.stdout}\n${again.stderr}`).toBe(0);
  expect(again.stdout).toContain("No changes.");
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error("dist/cli/main.js is missing: run `npm run build` first");
  const version = exec("terraform", ["version", "-json"], work, baseEnv(work));
  expect(version.status, version.stderr).toBe(0);
  // The providers, into a filesystem mirror used through TF_CLI_CONFIG_FILE (offline).
  schemaform(work, baseEnv(work), "provider", "install", "--dir", mirror);
  expect(existsSync(join(mirror, "terraform.rc"))).toBe(true);
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe("import --discover, HCL-JSON, planned by Terraform", () => {
  let estate: Estate;
  const dataDir = join(work, "data-hcl");
  const dir = join(work, "hcl");

  beforeAll(async () => {
    mkdirSync(dataDir, { recursive: true });
    mkdirSync(dir, { recursive: true });
    estate = await createEstate(dataDir);
    // Terraform's providers open the same data directory; this process lets go of it first.
    await estate.client.close();
  });

  it("writes configuration that validates and imports with nothing to change", () => {
    const env = baseEnv(dataDir);
    const out = join(dir, "import.tf.json");
    schemaform(dir, env, "import", "--discover", "--project", PROJECT, "--location", "us-central1", "-o", out);
    const doc = JSON.parse(readFileSync(out, "utf8")) as { import: Array<{ to: string; id: string }>; resource: Record<string, Record<string, unknown>> };
    expect(doc.import).toHaveLength(15);

    // `schemaform validate` accepts it.
    const validate = exec(process.execPath, [CLI, "validate", out], dir, env);
    expect(validate.status, `${validate.stdout}\n${validate.stderr}`).toBe(0);

    const varFile = join(work, "hcl.tfvars.json");
    writeFileSync(varFile, JSON.stringify(variableValues(estate, doc.resource, doc.import)));
    expectCleanImport(dir, env, varFile, 15);
  });

  it("writes native HCL (-o imported.tf, --format hcl) that plans as imports only", () => {
    const env = baseEnv(dataDir);
    const native = join(work, "hcl-native");
    mkdirSync(native, { recursive: true });
    const out = join(native, "imported.tf");
    const discover = ["import", "--discover", "--project", PROJECT, "--location", "us-central1"];
    schemaform(native, env, ...discover, "-o", out);
    const text = readFileSync(out, "utf8");
    expect(text).toMatch(/^import \{$/m);
    expect(schemaform(native, env, ...discover, "--format", "hcl").stdout).toBe(text);
    for (const secret of estate.secrets) expect(text).not.toContain(secret);
    expect(exec(process.execPath, [CLI, "validate", out], native, env).status).toBe(0);

    // the variables are those of the HCL-JSON form of the same import
    const doc = JSON.parse(schemaform(native, env, ...discover).stdout) as { import: Array<{ to: string; id: string }>; resource: Record<string, Record<string, unknown>> };
    const varFile = join(work, "hcl-native.tfvars.json");
    writeFileSync(varFile, JSON.stringify(variableValues(estate, doc.resource, doc.import)));
    ok("terraform", ["init", "-input=false", "-no-color"], native, env);
    const plan = terraform(native, env, "plan", "-input=false", `-var-file=${varFile}`);
    expect(plan.status, `${plan.stdout}\n${plan.stderr}`).toBe(0);
    expect(planCounts(plan.stdout), plan.stdout).toEqual({ import: 15, add: 0, change: 0, destroy: 0 });
  });
});

describe("import --discover --format cdktf, synthesized and planned by Terraform", () => {
  let estate: Estate;
  const dataDir = join(work, "data-cdktf");
  const app = join(work, "cdktf-app");

  beforeAll(async () => {
    mkdirSync(dataDir, { recursive: true });
    mkdirSync(join(app, "node_modules"), { recursive: true });
    estate = await createEstate(dataDir);
    await estate.client.close();
    // The app resolves `schemaform/*`, `cdktf` and `constructs` as an installed project would.
    symlinkSync(ROOT, join(app, "node_modules", "schemaform"), "dir");
    symlinkSync(join(ROOT, "node_modules", "cdktf"), join(app, "node_modules", "cdktf"), "dir");
    symlinkSync(join(ROOT, "node_modules", "constructs"), join(app, "node_modules", "constructs"), "dir");
  });

  it("writes a stack that the user's app adds, which synthesizes and imports with nothing to change", () => {
    const env = baseEnv(dataDir);
    const imported = schemaform(app, env, "import", "--discover", "--project", PROJECT, "--location", "us-central1", "--format", "cdktf", "-o", join(app, "imported.ts"));
    // The app the user already has, with a stack of its own: the import's summary says which two
    // lines add the imported stack to it, and the imported file makes no second app.
    const addLines = imported.stderr.split("\n").slice(-3, -1).map((line) => line.trim());
    expect(addLines).toEqual(['import { ImportedStack } from "./imported";', 'new ImportedStack(app, "imported");']);
    writeFileSync(
      join(app, "main.ts"),
      ['import { App, TerraformStack } from "cdktf";', addLines[0], "", "const app = new App();", 'new TerraformStack(app, "existing");', addLines[1], "app.synth();", ""].join("\n"),
    );
    const tsx = join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
    ok(process.execPath, [tsx, "main.ts"], app, { ...env, CDKTF_OUTDIR: join(app, "cdktf.out") });
    const manifest = JSON.parse(readFileSync(join(app, "cdktf.out", "manifest.json"), "utf8")) as { stacks: Record<string, unknown> };
    expect(Object.keys(manifest.stacks).sort()).toEqual(["existing", "imported"]);
    const stack = join(app, "cdktf.out", "stacks", "imported");
    const synthesized = JSON.parse(readFileSync(join(stack, "cdk.tf.json"), "utf8")) as {
      import: Array<{ to: string; id: string }>;
      resource: Record<string, Record<string, unknown>>;
    };
    expect(synthesized.import).toHaveLength(15);
    for (const secret of estate.secrets) expect(JSON.stringify(synthesized)).not.toContain(secret);

    const varFile = join(work, "cdktf.tfvars.json");
    writeFileSync(varFile, JSON.stringify(variableValues(estate, synthesized.resource, synthesized.import)));
    expectCleanImport(stack, env, varFile, 15);
  });
});

describe("resources made by another Terraform configuration, state discarded", () => {
  const dataDir = join(work, "data-tf");
  const made = join(work, "tf-made");
  const adopt = join(work, "tf-adopt");
  const project = "tf-made-project";
  const apiKey = "fedcba9876543210fedcba9876543210";
  const connection = "postgres://etl:An0ther-s3cret@warehouse.internal:5432/dw";
  const woPassword = "Wr1te-only-password";

  it("imports them with a plan of N to import and nothing else", () => {
    mkdirSync(made, { recursive: true });
    mkdirSync(adopt, { recursive: true });
    const env = baseEnv(dataDir);
    // A configuration that is not the one generated: references, defaults left out, a generated
    // password, a write-only password, provider default labels, secrets in variables.
    const config = {
      terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" }, containerbackup: { source: "schemaform/containerbackup" } } },
      provider: { tsdb: { project_id: project }, containerbackup: { project, default_labels: { team: "platform" } } },
      variable: { api_key: { type: "string", sensitive: true }, connection: { type: "string", sensitive: true }, wo: { type: "string", sensitive: true } },
      resource: {
        tsdb_vpcs: { net: { name: "edge-net", cidr: "10.20.0.0/16", region_code: "us-east-1", timeouts: { create: "2m" } } },
        tsdb_peering_connection: {
          tgw: { platform_vpc_id: "${tsdb_vpcs.net.vpcs_id}", peer_account_id: "111122223333", peer_region_code: "us-east-1", peer_tgw_id: "tgw-0fedcba9876543210", peer_cidr_blocks: ["172.31.0.0/16"] },
        },
        tsdb_metric_exporter: { saas: { name: "edge-metrics", region: "us-east-1", saasmon: { api_key: "${var.api_key}", site: "datadoghq.eu" } } },
        tsdb_log_exporter: { logs: { region: "us-east-1", cloudmon: { region: "us-east-1", log_group_name: "edge", log_stream_name: "db", role_arn: "arn:aws:iam::111122223333:role/logs" } } },
        tsdb_service: {
          main: {
            name: "edge main",
            milli_cpu: 2000,
            memory_gb: 8,
            vpc_id: "${tsdb_vpcs.net.vpcs_id}",
            metric_exporter_id: "${tsdb_metric_exporter.saas.id}",
            log_exporter_id: "${tsdb_log_exporter.logs.id}",
            connection_pooler_enabled: true,
            password_wo: "${var.wo}",
            password_wo_version: 1,
          },
          plain: {},
          replica: { read_replica_source: "${tsdb_service.main.id}" },
        },
        tsdb_connector_obj_store: {
          lake: {
            service_id: "${tsdb_service.main.id}",
            bucket: "edge-lake",
            pattern: "*.parquet",
            credentials: { type: "Public" },
            definition: { type: "PARQUET", parquet: { column_mappings: [{ source: "ts", destination: "time" }] } },
            table_identifier: { table_name: "readings" },
          },
        },
        tsdb_connector_src_db: {
          dw: { service_id: "${tsdb_service.plain.id}", display_name: "Warehouse", connection_string: "${var.connection}", tables: [{ schema_name: "public", table_name: "facts" }] },
        },
        containerbackup_restore_channel: {
          eu: { location: "europe-west1", destination_project: "projects/123456789012", labels: { tier: "gold" }, description: "EU restores" },
        },
      },
    };
    writeFileSync(join(made, "main.tf.json"), JSON.stringify(config, null, 2));
    const madeVars = join(work, "made.tfvars.json");
    writeFileSync(madeVars, JSON.stringify({ api_key: apiKey, connection, wo: woPassword }));
    ok("terraform", ["init", "-input=false", "-no-color"], made, env);
    const apply = terraform(made, env, "apply", "-input=false", "-auto-approve", `-var-file=${madeVars}`);
    expect(apply.status, `${apply.stdout}\n${apply.stderr}`).toBe(0);

    // What the configuration made, by id, with the secrets it holds; then the state is discarded.
    const state = JSON.parse(readFileSync(join(made, "terraform.tfstate"), "utf8")) as {
      resources: Array<{ type: string; name: string; instances: Array<{ attributes: Record<string, unknown> }> }>;
    };
    const attrs = (type: string, name: string) => state.resources.find((r) => r.type === type && r.name === name)!.instances[0]!.attributes;
    const secretValues = [
      { id: String(attrs("tsdb_metric_exporter", "saas").id), attribute: "saasmon.api_key", value: apiKey },
      { id: String(attrs("tsdb_connector_src_db", "dw").id), attribute: "connection_string", value: connection },
      { id: String(attrs("tsdb_service", "main").id), attribute: "password_wo", value: woPassword },
      { id: String(attrs("tsdb_service", "plain").id), attribute: "password", value: String(attrs("tsdb_service", "plain").password) },
    ];
    rmSync(join(made, "terraform.tfstate"));

    const out = join(adopt, "import.tf.json");
    schemaform(adopt, env, "import", "--discover", "--project", project, "--location", "europe-west1", "-o", out);
    const doc = JSON.parse(readFileSync(out, "utf8")) as { import: Array<{ to: string; id: string }>; resource: Record<string, Record<string, unknown>> };
    expect(doc.import).toHaveLength(10);
    const text = readFileSync(out, "utf8");
    for (const s of secretValues) expect(text).not.toContain(s.value);
    const varFile = join(work, "adopt.tfvars.json");
    writeFileSync(varFile, JSON.stringify(variableValues({ secretValues } as unknown as Estate, doc.resource, doc.import)));
    expectCleanImport(adopt, env, varFile, 10);
  });
});

describe("transcript", () => {
  it("never shows a secret", () => {
    expect(transcript.length).toBeGreaterThan(0);
    for (const secret of ["wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY01", "scrape-secret-3xample", "s3cret-conn", "wo-password-Example-9", "An0ther-s3cret", "Wr1te-only-password", "fedcba9876543210fedcba"]) {
      expect(transcript).not.toContain(secret);
    }
  });
});
