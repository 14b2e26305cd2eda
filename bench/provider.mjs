// Provider benchmark (`npm run bench:provider`, after `npm run build`):
//   1. handshake latency: process spawn -> handshake line, median over BENCH_LAUNCHES launches
//      of the installed executable (with mTLS, as Terraform launches it), after a first launch
//      that has no V8 code cache yet (reported on its own: it happens once per build);
//   2. `terraform plan` with nothing to change (refresh + plan) for N of our resources against N
//      `terraform_data` resources (Terraform core's own cost, no plugin), measured in the same
//      run and interleaved, reported as ratios.
// Results go to bench/results/provider.json.
//
// Parameters (environment):
//   BENCH_PROVIDER         provider name; "containerbackup" (default) / "tsdb" use the built
//                          dist/provider/provider.cjs, "fixture" bundles the test fixture provider
//   BENCH_RESOURCE         resource type (default containerbackup_restore_channel)
//   BENCH_CONFIG           JSON body of one resource; "${count.index}" may appear in strings
//   BENCH_PROVIDER_CONFIG  JSON provider configuration ("{work}" is replaced by the temp dir)
//   BENCH_ENV              JSON of extra environment for Terraform and the plugin ("{work}" replaced too)
//   BENCH_SIZES            e.g. "1,100,500" (empty: handshake only)   BENCH_RUNS  plans per size (default 5)
//   BENCH_LAUNCHES         handshake launches (default 15)
//   BENCH_FLOOR            "0" skips the largest size's plans against one long-lived, reattached
//                          provider process (the floor without process start-ups)
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PROVIDER_BUNDLE, ROOT, bundleProvider } from "../scripts/bundle-provider.mjs";

const { installNativeAddon, installProviders, terraformPlatform, writeCliConfig } = await import("../dist/provider/install.js");
const { createServerIdentity } = await import("../dist/provider/transport/cert.js");
const { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } = await import("../dist/provider/transport/serve.js");

const env = process.env;
const options = {
  provider: env.BENCH_PROVIDER ?? "containerbackup",
  resource: env.BENCH_RESOURCE ?? "containerbackup_restore_channel",
  config: JSON.parse(
    env.BENCH_CONFIG ?? '{"name":"bench-${count.index}","location":"us-central1","destination_project":"projects/restore-target","labels":{"bench":"yes"}}',
  ),
  providerConfig: env.BENCH_PROVIDER_CONFIG ?? '{"project":"bench-project"}',
  extraEnv:
    env.BENCH_ENV ?? '{"SCHEMAFORM_DATA_DIR":"{work}/platform","SCHEMAFORM_TRANSITION_SECONDS":"0","SCHEMAFORM_CACHE_DIR":"{work}/cache"}',
  sizes: (env.BENCH_SIZES ?? "1,100,500").split(",").filter((n) => n.trim() !== "").map(Number),
  runs: Number(env.BENCH_RUNS ?? 5),
  launches: Number(env.BENCH_LAUNCHES ?? 15),
  floor: env.BENCH_FLOOR !== "0",
};
const VERSION = "0.0.1";

const work = mkdtempSync(join(tmpdir(), "schemaform-bench-"));
options.extraEnv = JSON.parse(options.extraEnv.replaceAll("{work}", work));
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const round = (value) => Math.round(value * 10) / 10;
const log = (message) => process.stderr.write(`${message}\n`);

async function buildPlugin() {
  if (options.provider === "tsdb" || options.provider === "containerbackup") return PROVIDER_BUNDLE;
  return bundleProvider({ entryPoint: join(ROOT, "test", "provider", "fixture", "main.ts"), outfile: join(work, "build", "provider.cjs") });
}

/** Spawn -> first stdout line; the process is stopped `linger` ms later, and waited for. */
function firstLine(command, args, childEnv, linger = 0) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { env: childEnv, stdio: ["ignore", "pipe", "ignore"] });
    child.stdout.once("data", () => {
      const elapsed = performance.now() - started;
      setTimeout(() => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(elapsed);
        // Gone before the next launch, which it would otherwise compete with.
        child.once("exit", () => resolve(elapsed));
        child.kill();
      }, linger);
    });
    child.once("error", reject);
  });
}

/**
 * The installed executable (launcher line and all) as Terraform launches it, interleaved with
 * the baseline: `node` printing one line, i.e. Node's own start-up on this machine at this
 * moment, in this environment and without NODE_EXTRA_CA_CERTS (which Node reads at start-up
 * and the executable's launcher keeps out of it).
 */
async function handshakeLatency(executable, clientCert) {
  const pluginEnv = { ...process.env, ...options.extraEnv, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "5,6", PLUGIN_CLIENT_CERT: clientCert };
  // Lives on after its handshake, as under Terraform, to write the code cache the others use.
  const cold = await firstLine(executable, [], pluginEnv, 1000);
  const samples = [];
  const baseline = [];
  const bare = [];
  const bareEnv = { ...process.env };
  delete bareEnv.NODE_EXTRA_CA_CERTS;
  for (let i = 0; i < options.launches; i++) {
    samples.push(await firstLine(executable, [], pluginEnv));
    baseline.push(await firstLine(process.execPath, ["-e", "console.log(1)"], process.env));
    bare.push(await firstLine(process.execPath, ["-e", "console.log(1)"], bareEnv));
  }
  return {
    launches: samples.length,
    median_ms: round(median(samples)),
    min_ms: round(Math.min(...samples)),
    max_ms: round(Math.max(...samples)),
    node_startup_median_ms: round(median(baseline)),
    ratio_to_node_startup: round(median(samples) / median(baseline)),
    node_startup_without_extra_ca_certs_median_ms: round(median(bare)),
    samples_ms: samples.map(round),
    first_launch_without_code_cache_ms: round(cold),
  };
}

/**
 * The floor under the plan ratio: the same plans with one provider process started beforehand
 * and handed to Terraform through TF_REATTACH_PROVIDERS (as provider developers debug), so no
 * process starts and no TLS (reattaching has no certificate exchange). What remains is
 * Terraform's own work per RPC and ours.
 */
async function reattachedPlans(executable, ours, baseline, tfEnv) {
  const child = spawn(executable, [], {
    env: { ...process.env, ...options.extraEnv, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "6" },
    stdio: ["ignore", "pipe", "ignore"],
  });
  try {
    const line = await new Promise((resolve, reject) => {
      child.stdout.once("data", (chunk) => resolve(String(chunk).trim()));
      child.once("error", reject);
      child.once("exit", (code) => reject(new Error(`the provider exited (${code}) before its handshake`)));
    });
    const [, , network, address] = line.split("|");
    const reattach = JSON.stringify({
      [`registry.terraform.io/schemaform/${options.provider}`]: { Protocol: "grpc", ProtocolVersion: 6, Pid: child.pid, Test: true, Addr: { Network: network, String: address } },
    });
    const oursRuns = [];
    const baselineRuns = [];
    for (let run = 0; run < options.runs; run++) {
      const result = terraform(ours, { ...tfEnv, TF_REATTACH_PROVIDERS: reattach }, ["plan", "-detailed-exitcode", "-no-color"]);
      if (result.status !== 0) throw new Error(`reattached plan was not clean (exit ${result.status}):\n${result.output.slice(-4000)}`);
      oursRuns.push(result.ms);
      baselineRuns.push(must(terraform(baseline, tfEnv, ["plan", "-detailed-exitcode", "-no-color"]), "baseline plan").ms);
    }
    return {
      provider_ms: round(median(oursRuns)),
      terraform_data_ms: round(median(baselineRuns)),
      ratio: round(median(oursRuns) / median(baselineRuns)),
      provider_runs_ms: oursRuns.map(round),
      terraform_data_runs_ms: baselineRuns.map(round),
    };
  } finally {
    child.kill();
  }
}

function terraform(cwd, tfEnv, args) {
  const started = performance.now();
  const result = spawnSync("terraform", args, { cwd, env: tfEnv, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new Error(`cannot run terraform: ${result.error.message}`);
  return { status: result.status, ms: performance.now() - started, output: `${result.stdout}${result.stderr}` };
}

function must(run, what) {
  if (run.status !== 0) throw new Error(`${what} failed:\n${run.output.slice(-4000)}`);
  return run;
}

function project(name, body) {
  const directory = join(work, name);
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, "main.tf.json"), `${JSON.stringify(body, null, 2)}\n`);
  return directory;
}

async function main() {
  const terraformVersion = spawnSync("terraform", ["version", "-json"], { encoding: "utf8" });
  if (terraformVersion.error) throw new Error("terraform is not on PATH");
  const bundle = await buildPlugin();
  const mirror = join(work, "mirror");
  const [installed] = installProviders({ providers: [options.provider], bundle, version: VERSION, mirror, platforms: [terraformPlatform()] });
  installNativeAddon();
  const executable = join(installed.directory, `terraform-provider-${options.provider}`);
  const tfEnv = { ...process.env, ...options.extraEnv, CHECKPOINT_DISABLE: "1", TF_CLI_CONFIG_FILE: writeCliConfig(mirror), TF_IN_AUTOMATION: "1", TF_INPUT: "0" };
  delete tfEnv.TF_LOG;

  log(`handshake: ${options.launches} launches of terraform-provider-${options.provider}`);
  const identity = await createServerIdentity();
  const handshake = await handshakeLatency(executable, identity.certPem);
  log(
    `  median ${handshake.median_ms} ms (node itself: ${handshake.node_startup_median_ms} ms, without NODE_EXTRA_CA_CERTS ${handshake.node_startup_without_extra_ca_certs_median_ms} ms; first launch, no code cache: ${handshake.first_launch_without_code_cache_ms} ms)`,
  );

  const providerConfig = JSON.parse(options.providerConfig.replaceAll("{work}", work));
  const plans = [];
  for (const n of options.sizes) {
    log(`plan with ${n} resources: setting up`);
    const ours = project(`ours-${n}`, {
      terraform: { required_providers: { [options.provider]: { source: `schemaform/${options.provider}`, version: VERSION } } },
      provider: { [options.provider]: providerConfig },
      resource: { [options.resource]: { bench: { count: n, ...options.config } } },
    });
    const baseline = project(`baseline-${n}`, { resource: { terraform_data: { bench: { count: n, input: { name: "bench-${count.index}", region: "eu" } } } } });
    for (const directory of [ours, baseline]) {
      must(terraform(directory, tfEnv, ["init", "-input=false", "-no-color"]), `init (${directory})`);
      must(terraform(directory, tfEnv, ["apply", "-auto-approve", "-no-color", "-parallelism=10"]), `apply (${directory})`);
    }
    const oursRuns = [];
    const baselineRuns = [];
    for (let run = 0; run < options.runs; run++) {
      // Interleaved, so both see the same machine load.
      for (const [directory, into] of [[ours, oursRuns], [baseline, baselineRuns]]) {
        const result = terraform(directory, tfEnv, ["plan", "-detailed-exitcode", "-no-color"]);
        if (result.status !== 0) throw new Error(`plan with ${n} resources was not clean (exit ${result.status}):\n${result.output.slice(-4000)}`);
        into.push(result.ms);
      }
    }
    const entry = {
      n,
      provider_ms: round(median(oursRuns)),
      terraform_data_ms: round(median(baselineRuns)),
      ratio: round(median(oursRuns) / median(baselineRuns)),
      provider_min_ms: round(Math.min(...oursRuns)),
      terraform_data_min_ms: round(Math.min(...baselineRuns)),
      provider_runs_ms: oursRuns.map(round),
      terraform_data_runs_ms: baselineRuns.map(round),
    };
    log(`  ${options.resource}: ${entry.provider_ms} ms, terraform_data: ${entry.terraform_data_ms} ms, ratio ${entry.ratio}`);
    if (n === Math.max(...options.sizes) && options.floor) {
      entry.without_process_starts = await reattachedPlans(executable, ours, baseline, tfEnv);
      log(`  the same with one long-lived provider process (no start-ups, no TLS): ratio ${entry.without_process_starts.ratio}`);
    }
    plans.push(entry);
    for (const directory of [ours, baseline]) terraform(directory, tfEnv, ["destroy", "-auto-approve", "-no-color", "-parallelism=10"]);
  }

  const perResource =
    plans.length >= 2
      ? round((plans.at(-1).provider_ms - plans[0].provider_ms - (plans.at(-1).terraform_data_ms - plans[0].terraform_data_ms)) / (plans.at(-1).n - plans[0].n))
      : null;
  // The provider's fixed cost per plan (its processes' start-up, mostly), net of Terraform's own:
  // the smallest size's difference minus its per-resource part.
  const fixed = perResource === null ? null : round(plans[0].provider_ms - plans[0].terraform_data_ms - perResource * plans[0].n);
  const results = {
    benchmark: "provider",
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, load_average_1m: round(loadavg()[0]) },
    node: process.version,
    terraform: JSON.parse(terraformVersion.stdout).terraform_version,
    provider: options.provider,
    resource: options.resource,
    handshake,
    plan_no_changes: plans,
    added_ms_per_resource_vs_terraform_data: perResource,
    added_fixed_ms_vs_terraform_data: fixed,
    notes:
      "handshake = spawn of the installed executable to its handshake line (mTLS, fresh certificate), against `node -e console.log(1)` interleaved, after one launch that wrote the V8 code cache (first_launch_without_code_cache_ms). plan = `terraform plan` (refresh, no changes), median of runs interleaved with the terraform_data baseline; ratio = provider / terraform_data. without_process_starts = the same plans against one provider process started beforehand and reattached (TF_REATTACH_PROVIDERS: no start-ups, no TLS), the floor that start-up work cannot go below.",
  };
  const out = join(ROOT, "bench", "results", "provider.json");
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  log(`wrote ${join("bench", "results", "provider.json")}`);
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
