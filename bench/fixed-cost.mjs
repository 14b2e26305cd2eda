// Fixed cost of our provider (`npm run bench:fixed-cost`, after `npm run build`): `terraform
// plan` (refresh, nothing to change) of ONE resource of ours, with the plugin served the
// default way on Linux (the resident server, provider/README.md "Resident server") and started
// directly (Node per launch, SCHEMAFORM_RESIDENT=0: macOS, or opted out), against one
// terraform_data resource and, when Go is installed, one resource of the Go anchor
// (bench/anchor-go, a native go-plugin provider); they alternate round by round, so each ratio
// compares plans made under the same machine load.
// Results go to bench/results/fixed-cost.json.
//
// Parameters (environment): BENCH_RUNS rounds (default 5); BENCH_BUNDLE another build of the
// plugin (default dist/provider/provider.cjs).
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PROVIDER_BUNDLE, ROOT } from "../scripts/bundle-provider.mjs";
import { log, median, round } from "./stats.mjs";

const { installNativeAddon, installProviders, terraformPlatform, writeCliConfig } = await import("../dist/provider/install.js");

const runs = Number(process.env.BENCH_RUNS ?? 5);
const work = mkdtempSync(join(tmpdir(), "schemaform-fixed-cost-"));

function terraform(cwd, env, args) {
  const started = performance.now();
  const result = spawnSync("terraform", args, { cwd, env, encoding: "utf8" });
  if (result.error) throw new Error(`cannot run terraform: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`terraform ${args.join(" ")} failed in ${cwd} (exit ${result.status}):\n${(result.stdout + result.stderr).slice(-3000)}`);
  return performance.now() - started;
}

function project(name, body) {
  const directory = join(work, name);
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, "main.tf.json"), `${JSON.stringify(body, null, 2)}\n`);
  return directory;
}

async function main() {
  const mirror = join(work, "mirror");
  installProviders({ providers: ["containerbackup"], bundle: process.env.BENCH_BUNDLE ?? PROVIDER_BUNDLE, version: "0.0.1", mirror, platforms: [terraformPlatform()] });
  installNativeAddon();
  const env = {
    ...process.env,
    CHECKPOINT_DISABLE: "1",
    TF_CLI_CONFIG_FILE: writeCliConfig(mirror),
    TF_IN_AUTOMATION: "1",
    TF_INPUT: "0",
    SCHEMAFORM_DATA_DIR: join(work, "platform"),
    SCHEMAFORM_TRANSITION_SECONDS: "0",
    SCHEMAFORM_CACHE_DIR: join(work, "cache"),
  };
  delete env.TF_LOG;
  delete env.SCHEMAFORM_RESIDENT;
  const directEnv = { ...env, SCHEMAFORM_RESIDENT: "0" };
  const ours = (name) =>
    project(name, {
      terraform: { required_providers: { containerbackup: { source: "schemaform/containerbackup", version: "0.0.1" } } },
      provider: { containerbackup: { project: `bench-${name}` } },
      resource: { containerbackup_restore_channel: { bench: { name: "bench-0", location: "us-central1", destination_project: "projects/restore-target", labels: { bench: "yes" } } } },
    });
  const cases = [
    { name: "direct", directory: ours("direct"), env: directEnv, samples: [] },
    { name: "resident", directory: ours("resident"), env, samples: [] },
    { name: "terraform_data", directory: project("terraform_data", { resource: { terraform_data: { bench: { input: { name: "bench-0", region: "eu" } } } } }), env, samples: [] },
  ];
  const anchor = spawnSync("sh", [join(ROOT, "bench", "anchor-go", "build.sh"), join(work, "anchor-build")], { encoding: "utf8" });
  if (!anchor.error && anchor.status === 0) {
    const directory = join(mirror, "registry.terraform.io", "schemaform", "anchor", "0.0.1", terraformPlatform());
    mkdirSync(directory, { recursive: true });
    copyFileSync(join(work, "anchor-build", "terraform-provider-anchor"), join(directory, "terraform-provider-anchor"));
    chmodSync(join(directory, "terraform-provider-anchor"), 0o755);
    cases.push({
      name: "go_anchor",
      directory: project("go_anchor", {
        terraform: { required_providers: { anchor: { source: "schemaform/anchor", version: "0.0.1" } } },
        provider: { anchor: { project_id: "bench-project" } },
        resource: { anchor_vpcs: { bench: { name: "bench-0", cidr: "10.10.0.0/16", region_code: "us-east-1" } } },
      }),
      env: { ...env, ANCHOR_DATA_DIR: join(work, "anchor-data") },
      samples: [],
    });
  } else {
    log(`no Go anchor: ${anchor.error ? anchor.error.message : anchor.stderr.trim().split("\n").slice(-2).join(" ")}`);
  }
  for (const { directory, env: caseEnv } of cases) {
    terraform(directory, caseEnv, ["init", "-input=false", "-no-color"]);
    terraform(directory, caseEnv, ["apply", "-auto-approve", "-no-color"]);
    // Two plans each to warm up: the V8 code cache, and (resident) a server for this directory,
    // which the launcher starts from the second command in a directory on.
    terraform(directory, caseEnv, ["plan", "-detailed-exitcode", "-no-color"]);
    terraform(directory, caseEnv, ["plan", "-detailed-exitcode", "-no-color"]);
  }
  for (let run = 0; run < runs; run++) {
    for (const entry of cases) entry.samples.push(terraform(entry.directory, entry.env, ["plan", "-detailed-exitcode", "-no-color"]));
  }
  const baseline = median(cases[2].samples);
  const results = {
    benchmark: "fixed-cost",
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, load_average_1m: round(loadavg()[0]) },
    node: process.version,
    rounds: runs,
    plan_one_resource_ms: Object.fromEntries(cases.map((entry) => [entry.name, { median: round(median(entry.samples)), runs: entry.samples.map(round) }])),
    ratio_to_terraform_data: Object.fromEntries(cases.filter((entry) => entry.name !== "terraform_data").map((entry) => [entry.name, round(median(entry.samples) / baseline)])),
    notes:
      "terraform plan (refresh, no changes) of one containerbackup_restore_channel: resident = the default on Linux (the launcher hands Terraform a connection to a warm per-user server, served on a worker thread of its own); direct = SCHEMAFORM_RESIDENT=0 (Node started at each of Terraform's plugin launches, as on macOS); against one terraform_data resource; go_anchor = bench/anchor-go (native Go plugin), when it could be built; rounds alternate them.",
  };
  for (const entry of cases) log(`${entry.name}: median ${round(median(entry.samples))} ms (${entry.samples.map(round).join(", ")})`);
  log(`ratio to terraform_data: ${Object.entries(results.ratio_to_terraform_data).map(([name, ratio]) => `${name} ${ratio}`).join(", ")}`);
  const out = join(ROOT, "bench", "results", "fixed-cost.json");
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  log("wrote bench/results/fixed-cost.json");
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
