// What the data plane costs (`npm run bench:data-plane`, after `npm run build`): `terraform apply`
// from nothing to READY of one service, of ten, and of a service with an HA standby plus a
// read-replica service, with real databases (SCHEMAFORM_DATA_PLANE=on) and with records only
// (off), in alternating rounds (median of BENCH_RUNS, default 3); the ratio on/off is the cost of
// the databases. Each "on" apply starts the data-plane agent too (it is asked to leave after each
// destroy), so the numbers include it. Then the memory of idle services: the PSS of every process
// of the ten services (postmasters and their children), per service.
// Results go to bench/results/data-plane.json. Bar: one service at most 4x records-only.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../scripts/bundle-provider.mjs";
import { log, median, round } from "./stats.mjs";

const { installNativeAddon, installProviders, locateBuild, terraformPlatform, writeCliConfig } = await import("../dist/provider/install.js");
const { stopIdleAgent } = await import("../dist/platform/dataplane/launcher.js");
const { findBinaries } = await import("../dist/platform/dataplane/binaries.js");

const runs = Number(process.env.BENCH_RUNS ?? 3);
const work = mkdtempSync(join(tmpdir(), "schemaform-data-plane-bench-"));
const CLI = join(ROOT, "dist", "cli", "main.js");

function terraform(cwd, env, args) {
  const started = performance.now();
  const result = spawnSync("terraform", args, { cwd, env, encoding: "utf8" });
  if (result.error) throw new Error(`cannot run terraform: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`terraform ${args.join(" ")} failed in ${cwd} (exit ${result.status}):\n${(result.stdout + result.stderr).slice(-3000)}`);
  return performance.now() - started;
}

function services(count, extra = {}) {
  const out = {};
  for (let i = 0; i < count; i++) out[`s${i}`] = { name: `bench-${i}`, ...extra };
  return out;
}

const SCENARIOS = {
  one: { tsdb_service: services(1) },
  ten: { tsdb_service: services(10) },
  ha_and_read_replica: { tsdb_service: { primary: { name: "bench-ha", ha_replicas: 1 }, replica: { name: "bench-ro", read_replica_source: "${tsdb_service.primary.id}" } } },
};

/** PSS in kB of a process (smaps_rollup), 0 when it is gone. */
function pssKb(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8").split("\n").find((l) => l.startsWith("Pss:"));
    return line ? Number(line.split(/\s+/)[1]) : 0;
  } catch {
    return 0;
  }
}

/** The pids of `roots` and all their descendants. */
function withDescendants(roots) {
  const children = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  const out = new Set();
  const visit = (pid) => {
    if (out.has(pid)) return;
    out.add(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  roots.forEach(visit);
  return [...out];
}

async function main() {
  if (!findBinaries().pgBin) throw new Error("PostgreSQL's binaries were not found: the data plane cannot be measured here");
  const mirror = join(work, "mirror");
  installProviders({ ...locateBuild(), providers: ["tsdb"], mirror, platforms: [terraformPlatform()] });
  installNativeAddon();
  const base = { ...process.env, CHECKPOINT_DISABLE: "1", TF_CLI_CONFIG_FILE: writeCliConfig(mirror), TF_IN_AUTOMATION: "1", TF_INPUT: "0", SCHEMAFORM_TRANSITION_SECONDS: "0" };
  delete base.TF_LOG;
  const modes = {
    off: { ...base, SCHEMAFORM_DATA_PLANE: "off", SCHEMAFORM_DATA_DIR: join(work, "data-off") },
    on: { ...base, SCHEMAFORM_DATA_PLANE: "on", SCHEMAFORM_DATA_DIR: join(work, "data-on") },
  };
  const samples = {};
  let memory;
  for (const [name, resources] of Object.entries(SCENARIOS)) {
    samples[name] = { off: [], on: [] };
    const dirs = {};
    for (const mode of ["off", "on"]) {
      const dir = join(work, `${name}-${mode}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, "main.tf.json"),
        `${JSON.stringify({ terraform: { required_providers: { tsdb: { source: "schemaform/tsdb", version: "0.1.0" } } }, provider: { tsdb: { project_id: "bench" } }, resource: resources }, null, 2)}\n`,
      );
      terraform(dir, modes[mode], ["init", "-input=false"]);
      dirs[mode] = dir;
    }
    for (let round_ = 0; round_ < runs; round_++) {
      for (const mode of round_ % 2 === 0 ? ["off", "on"] : ["on", "off"]) {
        const ms = terraform(dirs[mode], modes[mode], ["apply", "-auto-approve", "-input=false"]);
        samples[name][mode].push(ms);
        log(`${name} ${mode}: ${Math.round(ms)} ms`);
        if (mode === "on" && name === "ten" && round_ === runs - 1) {
          await new Promise((resolve) => setTimeout(resolve, 3000)); // idle
          const status = JSON.parse(spawnSync(process.execPath, [CLI, "platform", "status", "--json", "--data-dir", modes.on.SCHEMAFORM_DATA_DIR], { encoding: "utf8" }).stdout);
          const roots = status.services.flatMap((s) => s.processes.map((p) => p.pid));
          const pids = withDescendants(roots);
          const totalKb = pids.reduce((sum, pid) => sum + pssKb(pid), 0);
          memory = { services: status.services.length, processes: pids.length, pss_mb_total: round(totalKb / 1024), pss_mb_per_service: round(totalKb / 1024 / status.services.length) };
          log(`memory: ${JSON.stringify(memory)}`);
        }
        terraform(dirs[mode], modes[mode], ["destroy", "-auto-approve", "-input=false"]);
        if (mode === "on") await stopIdleAgent(modes.on.SCHEMAFORM_DATA_DIR);
      }
    }
  }
  const results = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, loadavg: loadavg().map((l) => round(l, 2)) },
    runs,
    what: "terraform apply from nothing to READY, milliseconds (median of alternating rounds); ratio = on / off",
    scenarios: Object.fromEntries(
      Object.entries(samples).map(([name, s]) => [
        name,
        { off_ms: Math.round(median(s.off)), on_ms: Math.round(median(s.on)), ratio: round(median(s.on) / median(s.off), 2), samples_off: s.off.map(Math.round), samples_on: s.on.map(Math.round) },
      ]),
    ),
    idle_memory: memory,
    bar: "one service: on at most 4x off",
  };
  results.bar_met = results.scenarios.one.ratio <= 4;
  mkdirSync(join(ROOT, "bench", "results"), { recursive: true });
  writeFileSync(join(ROOT, "bench", "results", "data-plane.json"), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
