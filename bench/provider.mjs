// Provider benchmark (`npm run bench:provider`, after `npm run build`). Three subjects, side by side:
//   ours      one of our resources (default tsdb_vpcs, the embedded platform, no transition wait);
//   anchor    bench/anchor-go, a minimal native Go plugin (go-plugin, tfplugin6) with a resource
//             of the same shape (anchor_vpcs), built here offline (skipped, with the reason, when
//             Go is not installed);
//   terraform_data  Terraform core's own resource: no plugin at all (the baseline).
// Measured:
//   1. handshake latency: process spawn -> handshake line, median over BENCH_LAUNCHES launches of
//      the installed executables (with mTLS, as Terraform launches them), against Node's start-up;
//   2. for each N: `terraform plan` with nothing to change (refresh + plan), and `terraform apply`
//      of N creates (a fresh state and a fresh platform / anchor directory each round); rounds
//      alternate between the subjects (rotating their order), so all see the same machine load;
//      reported as medians and as ratios ours/terraform_data, ours/anchor, anchor/terraform_data;
//   3. where the time goes at N=1: one `terraform plan` per subject under TF_LOG=trace (the third
//      in a row, so that ours is served by its resident server), from which the plugin launches,
//      each launch's client certificate (Terraform's), handshake (start -> "using plugin"), RPCs
//      and exit are read;
//   4. optionally, ours at BENCH_FLOOR_SIZE against one long-lived, reattached provider process.
// Results go to bench/results/provider.json.
//
// Parameters (environment):
//   BENCH_PROVIDER         our provider: "tsdb" (default) / "containerbackup" use the built
//                          dist/provider/provider.cjs, "fixture" bundles the test fixture provider
//   BENCH_RESOURCE         our resource type (default tsdb_vpcs)
//   BENCH_CONFIG           JSON body of one of our resources; "${count.index}" and "{round}" may appear
//   BENCH_PROVIDER_CONFIG  JSON provider configuration ("{work}" is replaced by the temp dir)
//   BENCH_ENV              JSON of extra environment for Terraform and our plugin ("{data}" is
//                          replaced by a fresh directory per project and round, "{work}" by the temp dir)
//   BENCH_SIZES            default "1,100,200,500,2000" (empty: handshake only)
//   BENCH_PLAN_RUNS        plans per size, e.g. "5" or "1:5,100:5,500:3,2000:3"
//   BENCH_APPLY_RUNS       applies per size, same form (default "1:5,100:3,500:2,2000:1")
//   BENCH_LAUNCHES         handshake launches (default 15)
//   BENCH_ANCHOR           "0" leaves the Go anchor out
//   BENCH_OUT              where to write the results (default bench/results/provider.json)
//   BENCH_FLOOR_SIZE       size of the reattached-process floor for ours ("" or "0": none; default 500)
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { PROVIDER_BUNDLE, ROOT, bundleProvider } from "../scripts/bundle-provider.mjs";
import { log, median, round } from "./stats.mjs";

const { installNativeAddon, installProviders, terraformPlatform, writeCliConfig } = await import("../dist/provider/install.js");
const { createServerIdentity } = await import("../dist/provider/transport/cert.js");
const { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } = await import("../dist/provider/transport/serve.js");

const env = process.env;
/** "5" -> every size 5; "1:5,2000:1" -> per size, the last entry at or below the size. */
function runsPerSize(text, fallback) {
  const spec = (text ?? fallback).trim();
  if (/^\d+$/.test(spec)) return () => Number(spec);
  const entries = spec.split(",").map((entry) => entry.split(":").map(Number)).sort((a, b) => a[0] - b[0]);
  return (n) => (entries.filter(([size]) => size <= n).at(-1) ?? entries[0])[1];
}
const options = {
  provider: env.BENCH_PROVIDER ?? "tsdb",
  resource: env.BENCH_RESOURCE ?? "tsdb_vpcs",
  config: env.BENCH_CONFIG ?? '{"name":"bench-{round}-${count.index}","cidr":"10.10.0.0/16","region_code":"us-east-1"}',
  providerConfig: env.BENCH_PROVIDER_CONFIG ?? '{"project_id":"bench-project"}',
  extraEnv: env.BENCH_ENV ?? '{"SCHEMAFORM_DATA_DIR":"{data}","SCHEMAFORM_TRANSITION_SECONDS":"0","SCHEMAFORM_CACHE_DIR":"{work}/cache"}',
  sizes: (env.BENCH_SIZES ?? "1,100,200,500,2000").split(",").filter((n) => n.trim() !== "").map(Number),
  planRuns: runsPerSize(env.BENCH_PLAN_RUNS, "1:5,500:3"),
  applyRuns: runsPerSize(env.BENCH_APPLY_RUNS, "1:5,100:3,500:2,2000:1"),
  launches: Number(env.BENCH_LAUNCHES ?? 15),
  anchor: env.BENCH_ANCHOR !== "0",
  floorSize: Number(env.BENCH_FLOOR_SIZE ?? 500),
};
const VERSION = "0.0.1";
const ANCHOR = { name: "anchor", resource: "anchor_vpcs" };

const work = mkdtempSync(join(tmpdir(), "schemaform-bench-"));
const ratio = (a, b) => (a === undefined || b === undefined ? null : Math.round((a / b) * 100) / 100);
let dataDirs = 0;
/** A fresh directory for one project's platform (ours) or store (anchor). */
const freshData = () => join(work, "data", String(++dataDirs));

async function buildPlugin() {
  if (options.provider === "tsdb" || options.provider === "containerbackup") return PROVIDER_BUNDLE;
  return bundleProvider({ entryPoint: join(ROOT, "test", "provider", "fixture", "main.ts"), outfile: join(work, "build", "provider.cjs") });
}

/**
 * Builds bench/anchor-go into the temp dir and puts it in the mirror as schemaform/anchor.
 * Returns the executable, or { skipped } with the reason (no Go toolchain, a failed build).
 */
function buildAnchor(mirror) {
  if (!options.anchor) return { skipped: "BENCH_ANCHOR=0" };
  const build = spawnSync("sh", [join(ROOT, "bench", "anchor-go", "build.sh"), join(work, "anchor-build")], { encoding: "utf8" });
  if (build.error || build.status !== 0) {
    const reason = build.error ? build.error.message : build.stderr.trim().split("\n").slice(-3).join(" ");
    return { skipped: build.status === 3 ? reason : `the build failed: ${reason}` };
  }
  const directory = join(mirror, "registry.terraform.io", "schemaform", ANCHOR.name, VERSION, terraformPlatform());
  mkdirSync(directory, { recursive: true });
  const executable = join(directory, `terraform-provider-${ANCHOR.name}`);
  copyFileSync(join(work, "anchor-build", "terraform-provider-anchor"), executable);
  chmodSync(executable, 0o755);
  return { executable };
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

const summary = (samples) => ({ launches: samples.length, median_ms: round(median(samples)), min_ms: round(Math.min(...samples)), max_ms: round(Math.max(...samples)) });

/**
 * The installed executables (launcher line and all) as Terraform launches them, interleaved with
 * `node` printing one line (Node's own start-up on this machine at this moment, with and without
 * NODE_EXTRA_CA_CERTS, which Node reads at start-up and our launcher keeps out of it), and the anchor.
 */
async function handshakeLatency(executable, anchor, clientCert) {
  const pluginEnv = (data) => ({ ...process.env, ...subjectEnv(data), [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "5,6", PLUGIN_CLIENT_CERT: clientCert });
  const oursEnv = pluginEnv(freshData());
  // Lives on after its handshake, as under Terraform, to write the code cache the others use.
  const cold = await firstLine(executable, [], oursEnv, 1000);
  const samples = [];
  const baseline = [];
  const bare = [];
  const anchorSamples = [];
  const bareEnv = { ...process.env };
  delete bareEnv.NODE_EXTRA_CA_CERTS;
  const anchorEnv = { ...pluginEnv(freshData()), ANCHOR_DATA_DIR: freshData() };
  for (let i = 0; i < options.launches; i++) {
    samples.push(await firstLine(executable, [], oursEnv));
    baseline.push(await firstLine(process.execPath, ["-e", "console.log(1)"], process.env));
    bare.push(await firstLine(process.execPath, ["-e", "console.log(1)"], bareEnv));
    if (anchor) anchorSamples.push(await firstLine(anchor, [], anchorEnv));
  }
  return {
    ...summary(samples),
    node_startup_median_ms: round(median(baseline)),
    ratio_to_node_startup: round(median(samples) / median(baseline)),
    node_startup_without_extra_ca_certs_median_ms: round(median(bare)),
    samples_ms: samples.map(round),
    first_launch_without_code_cache_ms: round(cold),
    anchor: anchor ? { ...summary(anchorSamples), samples_ms: anchorSamples.map(round) } : null,
  };
}

function subjectEnv(data) {
  return JSON.parse(options.extraEnv.replaceAll("{work}", work).replaceAll("{data}", data));
}

// GNU time, when there, adds the CPU time (user + system) of Terraform and of the plugin
// processes it started and waited for: less sensitive than wall time to a busy machine.
const GNU_TIME = ["/usr/bin/time", "/bin/time"].find((path) => spawnSync(path, ["-f", "%U", "true"]).status === 0);

function terraform(cwd, tfEnv, args) {
  const cpuFile = join(work, "cpu.txt");
  const [command, commandArgs] = GNU_TIME ? [GNU_TIME, ["-f", "%U %S", "-o", cpuFile, "terraform", ...args]] : ["terraform", args];
  const started = performance.now();
  const result = spawnSync(command, commandArgs, { cwd, env: tfEnv, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - started;
  if (result.error) throw new Error(`cannot run terraform: ${result.error.message}`);
  const cpu = GNU_TIME ? readFileSync(cpuFile, "utf8").trim().split("\n").at(-1).split(" ").map(Number) : undefined;
  return { status: result.status, ms, cpuMs: cpu && (cpu[0] + cpu[1]) * 1000, output: `${result.stdout}${result.stderr}` };
}

function must(run, what) {
  if (run.status !== 0) throw new Error(`${what} failed:\n${run.output.slice(-4000)}`);
  return run;
}

/**
 * One subject's working directory for size n: its configuration (names carry the round, so a
 * fresh platform never sees a name twice) and the environment it runs with.
 */
function subjects(n, anchorBuilt, tfEnv) {
  const oursBody = (roundName) => ({
    terraform: { required_providers: { [options.provider]: { source: `schemaform/${options.provider}`, version: VERSION } } },
    provider: { [options.provider]: JSON.parse(options.providerConfig.replaceAll("{work}", work)) },
    resource: { [options.resource]: { bench: { count: n, ...JSON.parse(options.config.replaceAll("{round}", roundName)) } } },
  });
  const list = [
    { key: "ours", body: oursBody, env: (data) => ({ ...tfEnv, ...subjectEnv(data) }) },
    {
      key: "terraform_data",
      body: (roundName) => ({ resource: { terraform_data: { bench: { count: n, input: { name: `bench-${roundName}-\${count.index}`, cidr: "10.10.0.0/16", region_code: "us-east-1" } } } } }),
      env: () => tfEnv,
    },
  ];
  if (anchorBuilt) {
    list.splice(1, 0, {
      key: "anchor",
      body: (roundName) => ({
        terraform: { required_providers: { [ANCHOR.name]: { source: `schemaform/${ANCHOR.name}`, version: VERSION } } },
        provider: { [ANCHOR.name]: { project_id: "bench-project" } },
        resource: { [ANCHOR.resource]: { bench: { count: n, name: `bench-${roundName}-\${count.index}`, cidr: "10.10.0.0/16", region_code: "us-east-1" } } },
      }),
      env: (data) => ({ ...tfEnv, ANCHOR_DATA_DIR: data }),
    });
  }
  return list;
}

/** A working directory with the subject's configuration, initialized. */
function workspace(name, body, tfEnv) {
  const directory = join(work, name);
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, "main.tf.json"), `${JSON.stringify(body, null, 2)}\n`);
  must(terraform(directory, tfEnv, ["init", "-input=false", "-no-color"]), `init (${directory})`);
  return directory;
}

/** Round r's order of the subjects: rotated, so none is always first after a pause. */
const rotated = (list, r) => list.map((_, i) => list[(i + r) % list.length]);

function medians(runs, cpuRuns) {
  const out = {};
  for (const [key, values] of Object.entries(runs)) out[`${key}_ms`] = round(median(values));
  out.ours_vs_terraform_data = ratio(median(runs.ours), median(runs.terraform_data));
  if (runs.anchor) {
    out.ours_vs_anchor = ratio(median(runs.ours), median(runs.anchor));
    out.anchor_vs_terraform_data = ratio(median(runs.anchor), median(runs.terraform_data));
  }
  out.runs_ms = Object.fromEntries(Object.entries(runs).map(([key, values]) => [key, values.map(round)]));
  if (cpuRuns && Object.values(cpuRuns).every((values) => values.every(Number.isFinite))) {
    const { runs_ms: _, ...cpu } = medians(cpuRuns);
    out.cpu = cpu;
  }
  return out;
}

/** One line of a size's results: the medians and the ratios, wall time and CPU time. */
function describe(list, entry) {
  const ratios = (e) => `ours/terraform_data ${e.ours_vs_terraform_data}, ours/anchor ${e.ours_vs_anchor ?? "-"}, anchor/terraform_data ${e.anchor_vs_terraform_data ?? "-"}`;
  const wall = `${list.map(({ key }) => `${key} ${entry[`${key}_ms`]} ms`).join(", ")}; ${ratios(entry)}`;
  return entry.cpu ? `${wall}\n         CPU: ${list.map(({ key }) => `${key} ${entry.cpu[`${key}_ms`]} ms`).join(", ")}; ${ratios(entry.cpu)}` : wall;
}

/** Plans with nothing to change: each subject applied once, then planned in alternating rounds. */
function planNoChanges(n, list) {
  const prepared = list.map((subject) => {
    const subjectEnvironment = subject.env(freshData());
    const directory = workspace(`plan-${subject.key}-${n}`, subject.body("plan"), subjectEnvironment);
    must(terraform(directory, subjectEnvironment, ["apply", "-auto-approve", "-no-color"]), `apply (${directory})`);
    return { ...subject, directory, environment: subjectEnvironment };
  });
  const runs = Object.fromEntries(list.map(({ key }) => [key, []]));
  const cpuRuns = Object.fromEntries(list.map(({ key }) => [key, []]));
  for (let r = 0; r < options.planRuns(n); r++) {
    for (const subject of rotated(prepared, r)) {
      const result = terraform(subject.directory, subject.environment, ["plan", "-detailed-exitcode", "-no-color"]);
      if (result.status !== 0) throw new Error(`${subject.key}: plan with ${n} resources was not clean (exit ${result.status}):\n${result.output.slice(-4000)}`);
      runs[subject.key].push(result.ms);
      cpuRuns[subject.key].push(result.cpuMs);
    }
  }
  return { entry: { n, rounds: options.planRuns(n), ...medians(runs, cpuRuns) }, prepared };
}

/** Applies of n creates: each round starts from no state and an empty platform / store. */
function applyCreates(n, list) {
  const prepared = list.map((subject) => ({ ...subject, directory: workspace(`apply-${subject.key}-${n}`, subject.body("r0"), subject.env(freshData())) }));
  const runs = Object.fromEntries(list.map(({ key }) => [key, []]));
  const cpuRuns = Object.fromEntries(list.map(({ key }) => [key, []]));
  for (let r = 0; r < options.applyRuns(n); r++) {
    for (const subject of rotated(prepared, r)) {
      const data = freshData();
      rmSync(join(subject.directory, "terraform.tfstate"), { force: true });
      rmSync(join(subject.directory, "terraform.tfstate.backup"), { force: true });
      writeFileSync(join(subject.directory, "main.tf.json"), `${JSON.stringify(subject.body(`r${r}`), null, 2)}\n`);
      const result = terraform(subject.directory, subject.env(data), ["apply", "-auto-approve", "-no-color"]);
      if (result.status !== 0) throw new Error(`${subject.key}: apply of ${n} creates failed (exit ${result.status}):\n${result.output.slice(-4000)}`);
      if (!result.output.includes(`Resources: ${n} added`)) throw new Error(`${subject.key}: apply did not create ${n} resources:\n${result.output.slice(-2000)}`);
      runs[subject.key].push(result.ms);
      cpuRuns[subject.key].push(result.cpuMs);
      rmSync(data, { recursive: true, force: true });
    }
  }
  return { n, rounds: options.applyRuns(n), ...medians(runs, cpuRuns) };
}

/**
 * Reads a TF_LOG=trace log of one plan: the plan's span, each plugin launch (Terraform's client
 * certificate for it; start -> "using plugin" = spawn, start-up and handshake; its RPCs, each
 * timed to the next line Terraform logs about that provider; Close -> exit), and the time no
 * plugin process was alive.
 */
function traceBreakdown(text) {
  const events = [];
  for (const line of text.split("\n")) {
    const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) \[\w+\]\s+(.*)$/.exec(line);
    if (match) events.push({ at: Date.parse(match[1]), text: match[2] });
  }
  if (events.length === 0) return null;
  const launches = [];
  let current;
  let certificateFrom;
  for (let i = 0; i < events.length; i++) {
    const { at, text: message } = events[i];
    if (message.startsWith("provider: configuring client automatic mTLS")) certificateFrom = at;
    else if (message.startsWith("provider: plugin started:")) {
      current = { started: at, client_certificate_ms: certificateFrom === undefined ? null : at - certificateFrom, rpcs: [] };
      certificateFrom = undefined;
      launches.push(current);
    } else if (current && message.startsWith("provider: using plugin:")) {
      current.handshake_ms = at - current.started;
      current.ready = at;
    }
    else if (current && /^GRPCProvider(\.v6)?: (\w+)$/.test(message)) {
      const name = /: (\w+)$/.exec(message)[1];
      if (name === "Close") current.closed = at;
      else {
        if (current.rpcs.length === 0 && current.ready !== undefined) current.ready_to_first_rpc_ms = at - current.ready;
        const next = events.slice(i + 1).find((event) => /^GRPCProvider(\.v6)?: \w+$|^provider: plugin process exited/.test(event.text));
        current.rpcs.push({ rpc: name, ms: (next?.at ?? at) - at });
      }
    } else if (current && message.startsWith("provider: plugin process exited:")) {
      current.exited = at;
      current.alive_ms = at - current.started;
      current.close_to_exit_ms = current.closed === undefined ? null : at - current.closed;
      delete current.closed;
      current = undefined;
    }
  }
  const total = events.at(-1).at - events[0].at;
  const alive = launches.reduce((sum, launch) => sum + (launch.alive_ms ?? 0), 0);
  return {
    logged_span_ms: total,
    plugin_launches: launches.length,
    launches: launches.map(({ started, exited, ready, ...launch }) => launch),
    ms_with_no_plugin_process: total - alive,
  };
}

/**
 * One plan per subject at the smallest size under TF_LOG=trace (logging slows each a little),
 * the third in a row: TF_LOG is part of the environment that keys our resident server, so the
 * first two start Node directly (the second also starts the server) and the third is served
 * as a user's plans are.
 */
async function whereTheTimeGoes(prepared) {
  const out = {};
  for (const subject of prepared) {
    const logFile = join(work, `trace-${subject.key}.log`);
    let result;
    for (let run = 0; run < 3; run++) {
      rmSync(logFile, { force: true });
      result = terraform(subject.directory, { ...subject.environment, TF_LOG: "trace", TF_LOG_PATH: logFile }, ["plan", "-detailed-exitcode", "-no-color"]);
      if (result.status !== 0) throw new Error(`${subject.key}: traced plan was not clean:\n${result.output.slice(-2000)}`);
      // The server the second plan started is up before the third.
      if (run === 1) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    out[subject.key] = { wall_ms: round(result.ms), ...traceBreakdown(readFileSync(logFile, "utf8")) };
  }
  return out;
}

/**
 * The floor under ours: the same plans with one provider process started beforehand and handed
 * to Terraform through TF_REATTACH_PROVIDERS (as provider developers debug), so no process
 * starts and no TLS. What remains is Terraform's own work per RPC and ours.
 */
async function reattachedPlans(executable, ours, baseline) {
  const child = spawn(executable, [], {
    env: { ...ours.environment, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "6" },
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
    const runs = { ours: [], terraform_data: [] };
    for (let run = 0; run < 3; run++) {
      const result = terraform(ours.directory, { ...ours.environment, TF_REATTACH_PROVIDERS: reattach }, ["plan", "-detailed-exitcode", "-no-color"]);
      if (result.status !== 0) throw new Error(`reattached plan was not clean (exit ${result.status}):\n${result.output.slice(-4000)}`);
      runs.ours.push(result.ms);
      runs.terraform_data.push(must(terraform(baseline.directory, baseline.environment, ["plan", "-detailed-exitcode", "-no-color"]), "baseline plan").ms);
    }
    return medians(runs);
  } finally {
    child.kill();
  }
}

async function main() {
  const terraformVersion = spawnSync("terraform", ["version", "-json"], { encoding: "utf8" });
  if (terraformVersion.error) throw new Error("terraform is not on PATH");
  const bundle = await buildPlugin();
  const mirror = join(work, "mirror");
  const [installed] = installProviders({ providers: [options.provider], bundle, version: VERSION, mirror, platforms: [terraformPlatform()] });
  installNativeAddon();
  const executable = join(installed.directory, `terraform-provider-${options.provider}`);
  log("building the Go anchor (bench/anchor-go/build.sh)");
  const anchor = buildAnchor(mirror);
  if (anchor.skipped) log(`  the Go anchor is left out: ${anchor.skipped}`);
  const tfEnv = { ...process.env, CHECKPOINT_DISABLE: "1", TF_CLI_CONFIG_FILE: writeCliConfig(mirror), TF_IN_AUTOMATION: "1", TF_INPUT: "0" };
  delete tfEnv.TF_LOG;
  delete tfEnv.TF_LOG_PATH;

  log(`handshake: ${options.launches} launches of terraform-provider-${options.provider}${anchor.executable ? " and of the anchor" : ""}`);
  const identity = await createServerIdentity();
  const handshake = await handshakeLatency(executable, anchor.executable, identity.certPem);
  log(
    `  ours: median ${handshake.median_ms} ms (node itself: ${handshake.node_startup_median_ms} ms, without NODE_EXTRA_CA_CERTS ${handshake.node_startup_without_extra_ca_certs_median_ms} ms; first launch, no code cache: ${handshake.first_launch_without_code_cache_ms} ms)` +
      (handshake.anchor ? `; anchor: median ${handshake.anchor.median_ms} ms` : ""),
  );

  const plans = [];
  const applies = [];
  let phases = null;
  const loads = [];
  for (const n of options.sizes) {
    const list = subjects(n, Boolean(anchor.executable), tfEnv);
    log(`N=${n}: ${options.planRuns(n)} rounds of plan (no changes), ${options.applyRuns(n)} of apply (${n} creates); load ${loadavg()[0].toFixed(2)}`);
    loads.push(round(loadavg()[0]));
    const { entry, prepared } = planNoChanges(n, list);
    log(`  plan:  ${describe(list, entry)}`);
    if (n === Math.min(...options.sizes)) phases = await whereTheTimeGoes(prepared);
    if (n === options.floorSize) {
      entry.ours_reattached = await reattachedPlans(executable, prepared[0], prepared.at(-1));
      log(`  the same with one long-lived provider process (no start-ups, no TLS): ours/terraform_data ${entry.ours_reattached.ours_vs_terraform_data}`);
    }
    plans.push(entry);
    const applied = applyCreates(n, list);
    log(`  apply: ${describe(list, applied)}`);
    applies.push(applied);
    for (const subject of prepared) rmSync(subject.directory, { recursive: true, force: true });
    rmSync(join(work, "data"), { recursive: true, force: true });
  }

  const results = {
    benchmark: "provider",
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, load_average_1m_per_size: loads, load_average_1m_at_end: round(loadavg()[0]) },
    node: process.version,
    terraform: JSON.parse(terraformVersion.stdout).terraform_version,
    ours: { provider: options.provider, resource: options.resource, env: JSON.parse(options.extraEnv.replaceAll("{work}", "<temp>").replaceAll("{data}", "<fresh per project and round>")) },
    anchor: anchor.executable ? { provider: `schemaform/${ANCHOR.name}`, resource: ANCHOR.resource, built_from: "bench/anchor-go" } : { skipped: anchor.skipped },
    handshake,
    plan_no_changes: plans,
    apply_creates: applies,
    where_the_time_goes_n1: phases,
    notes:
      "Subjects alternate within each round (order rotated per round). plan = `terraform plan -detailed-exitcode` (refresh, no changes) after one untimed apply; apply = `terraform apply -auto-approve` of N creates from no state, with a fresh platform (ours) / store (anchor) directory each round. Values are medians over `rounds`; ratios are ratios of medians; cpu = the same for CPU time (user + system, GNU time) of Terraform and the plugin processes it started and waited for (less sensitive to a busy machine; a provider process that outlives Terraform, detached, would not be counted). handshake = spawn of the installed executable to its handshake line (mTLS, fresh certificate), ours against `node -e console.log(1)` interleaved, after one launch that wrote the V8 code cache. where_the_time_goes_n1 = one plan per subject under TF_LOG=trace at the smallest size, the third in a row (ours served by its resident server; millisecond timestamps; logging itself adds time): launches per plan, per launch Terraform's client certificate ('configuring client automatic mTLS' -> 'plugin started'), the handshake (start -> 'using plugin'), 'using plugin' -> first RPC, each RPC up to Terraform's next log line about the provider, Close -> process exit. ours_reattached = ours planned against one provider process started beforehand (TF_REATTACH_PROVIDERS), the floor without start-ups.",
  };
  const out = env.BENCH_OUT ? resolve(env.BENCH_OUT) : join(ROOT, "bench", "results", "provider.json");
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  log(`wrote ${out}`);
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
