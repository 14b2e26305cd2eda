// `npm start` with nothing changed (`npm run bench:start`): the second `npm start` (build check,
// synth of examples/stack, provider install, terraform init and apply with no changes, outputs)
// against a plain `terraform plan` of the same stack, with the environment `schemaform up` gives
// Terraform; alternating rounds, ratio of medians (bar: at most 6x). Then the parts of the second
// start timed on their own, to say where its time goes. Into bench/results/start.json.
//
// The stack is synthesized into a temp directory (`npm start -- --out DIR`) against a temp
// embedded platform (SCHEMAFORM_DATA_DIR), so the repository's cdktf.out and the user's platform
// are left alone. Parameters: BENCH_RUNS (default 5).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { log, median, round } from "./stats.mjs";

const ROOT = resolve(fileURLToPath(import.meta.url), "..", "..");
const runs = Number(process.env.BENCH_RUNS ?? 5);
const work = mkdtempSync(join(tmpdir(), "schemaform-bench-start-"));
const out = join(work, "out");
const env = { ...process.env, CHECKPOINT_DISABLE: "1", SCHEMAFORM_DATA_DIR: join(work, "platform"), SCHEMAFORM_TRANSITION_SECONDS: "0" };
delete env.TF_LOG;
// What `schemaform up` adds for Terraform (cli/commands/up.ts terraformEnvironment).
const stackDirectory = join(out, "stacks", "example");
const terraformEnv = { ...env, TF_CLI_CONFIG_FILE: join(out, "providers", "terraform.rc"), TF_IN_AUTOMATION: "1" };

// GNU time, when there, adds the CPU time (user + system) of the command and the processes it
// waited for: less sensitive than wall time to a busy machine.
const GNU_TIME = ["/usr/bin/time", "/bin/time"].find((path) => spawnSync(path, ["-f", "%U", "true"]).status === 0);

function timed(command, args, options) {
  const cpuFile = join(work, "cpu.txt");
  const [program, programArgs] = GNU_TIME ? [GNU_TIME, ["-f", "%U %S", "-o", cpuFile, command, ...args]] : [command, args];
  const started = performance.now();
  const result = spawnSync(program, programArgs, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...options });
  const ms = performance.now() - started;
  if (result.error) throw new Error(`cannot run ${command}: ${result.error.message}`);
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (exit ${result.status}):\n${output.slice(-3000)}`);
  const cpu = GNU_TIME ? readFileSync(cpuFile, "utf8").trim().split("\n").at(-1).split(" ").map(Number) : undefined;
  return { ms, cpuMs: cpu && (cpu[0] + cpu[1]) * 1000, output };
}

const npmStart = () => timed("npm", ["start", "--silent", "--", "--out", out], { cwd: ROOT, env });
const plainPlan = () => timed("terraform", ["plan", "-detailed-exitcode", "-no-color", "-input=false"], { cwd: stackDirectory, env: terraformEnv });

function main() {
  log("first npm start (builds if needed, creates the example stack)");
  npmStart();
  const starts = [];
  const plans = [];
  const startsCpu = [];
  const plansCpu = [];
  const rebuilt = [];
  for (let r = 0; r < runs; r++) {
    const start = npmStart();
    if (/^build: /m.test(start.output)) rebuilt.push(start.output.match(/^build: .*$/m)[0]);
    if (!/No changes\./.test(start.output)) throw new Error(`the second npm start changed something:\n${start.output.slice(-3000)}`);
    starts.push(start.ms);
    startsCpu.push(start.cpuMs);
    const plan = plainPlan();
    plans.push(plan.ms);
    plansCpu.push(plan.cpuMs);
  }
  log(`  npm start: ${round(median(starts))} ms, terraform plan: ${round(median(plans))} ms, ratio ${round(median(starts) / median(plans))}`);
  const cpu = GNU_TIME
    ? { second_npm_start_ms: round(median(startsCpu)), terraform_plan_ms: round(median(plansCpu)), ratio: round(median(startsCpu) / median(plansCpu)) }
    : null;
  if (cpu) log(`  CPU time: npm start ${cpu.second_npm_start_ms} ms, terraform plan ${cpu.terraform_plan_ms} ms, ratio ${cpu.ratio}`);

  // The parts, one at a time, in the order `npm start` runs them (each median of `runs`).
  const synthOut = join(work, "synth");
  const parts = {
    npm_run_overhead: () => timed("npm", ["run", "--silent", "env"], { cwd: ROOT, env }),
    build_check: () => timed(process.execPath, [join(ROOT, "scripts", "build.mjs")], { cwd: ROOT, env }),
    node_cli_start: () => timed(process.execPath, [join(ROOT, "dist", "cli", "main.js"), "--help"], { cwd: ROOT, env }),
    terraform_version: () => timed("terraform", ["version", "-json"], { cwd: ROOT, env }),
    synth: () => timed(process.execPath, ["--import", "tsx", join(ROOT, "examples", "stack", "main.ts")], { cwd: ROOT, env: { ...env, CDKTF_OUTDIR: synthOut } }),
    terraform_init: () => timed("terraform", ["init", "-input=false", "-no-color"], { cwd: stackDirectory, env: terraformEnv }),
    terraform_apply_no_changes: () => timed("terraform", ["apply", "-auto-approve", "-input=false", "-no-color"], { cwd: stackDirectory, env: terraformEnv }),
    terraform_output: () => timed("terraform", ["output", "-json"], { cwd: stackDirectory, env: terraformEnv }),
  };
  const partRuns = Object.fromEntries(Object.keys(parts).map((name) => [name, []]));
  for (let r = 0; r < runs; r++) for (const [name, run] of Object.entries(parts)) partRuns[name].push(run().ms);
  const partMedians = Object.fromEntries(Object.entries(partRuns).map(([name, values]) => [`${name}_ms`, round(median(values))]));
  log(`  parts: ${Object.entries(partMedians).map(([name, ms]) => `${name} ${ms}`).join(", ")}`);

  const results = {
    benchmark: "start",
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, load_average_1m: round(loadavg()[0]) },
    node: process.version,
    second_npm_start_ms: round(median(starts)),
    terraform_plan_ms: round(median(plans)),
    ratio: round(median(starts) / median(plans)),
    bar: 6,
    cpu,
    rebuilt_during_second_starts: rebuilt,
    runs_ms: { npm_start: starts.map(round), terraform_plan: plans.map(round) },
    parts_of_second_start: partMedians,
    notes:
      "npm start = `npm start --silent -- --out <temp>` with nothing changed since the previous one (alternating with the plan); terraform plan = `terraform plan -detailed-exitcode` in the synthesized stack's directory with the environment `schemaform up` gives Terraform (mirror CLI config, TF_IN_AUTOMATION, SCHEMAFORM_DATA_DIR). parts = each step of the second start run on its own (synth = node --import tsx examples/stack/main.ts, as up runs it, concurrently with terraform version; npm_run_overhead = `npm run env`), medians. cpu = user + system time of each command and the processes it waited for (GNU time).",
  };
  const file = join(ROOT, "bench", "results", "start.json");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  log("wrote bench/results/start.json");
}

try {
  main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
