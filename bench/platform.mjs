// Platform server benchmark (`npm run bench:platform`, after `npm run build`):
//   1. no stalls: `/v1/health` latency (p50/p90/p99/max) of `schemaform platform serve` while
//      10 clients create services as fast as they can for BENCH_LOAD_SECONDS (default 6), against
//      the same probe on the idle server in the same run. Two loads: ten clients with a credential
//      each (every create is hashed: the server's worst case), and ten clients sharing one (one
//      greedy tenant: most of its creates are answered 429). The clients do not wait out
//      Retry-After, as a hostile one would not. Bar: p90 under 100 ms under load.
//   2. the cost of refusing hostile JSON: parseJsonInput (depth scan, JSON.parse, prototype-key
//      walk) against JSON.parse alone, for a typical create body, 100 KB and 1 MiB, in
//      alternating rounds of one process.
// Results go to bench/results/platform.json. Loopback only: the server listens on 127.0.0.1.
//
// Parameters (environment): BENCH_LOAD_SECONDS, BENCH_CLIENTS (default 10),
// BENCH_PROBE_MS (pause between health probes, default 10), BENCH_PARSE_ROUNDS (default 15).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";

const env = process.env;
const LOAD_SECONDS = Number(env.BENCH_LOAD_SECONDS ?? 6);
const CLIENTS = Number(env.BENCH_CLIENTS ?? 10);
const PROBE_MS = Number(env.BENCH_PROBE_MS ?? 10);
const PARSE_ROUNDS = Number(env.BENCH_PARSE_ROUNDS ?? 15);
const PROJECT = "bench-project";
const ROOT = fileURLToPath(new URL("..", import.meta.url));

const round = (value) => Math.round(value * 100) / 100;
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const median = (values) => percentile(values, 50);
const log = (message) => process.stderr.write(`${message}\n`);

// --- the load: one worker thread, so the clients' own work does not delay the probe -----------

async function createLoop({ url, tokens, until }) {
  const counts = {};
  const createMs = [];
  await Promise.all(
    tokens.map(async (token) => {
      while (Date.now() < until) {
        const started = performance.now();
        const response = await fetch(`${url}/tsdb/v1/projects/${PROJECT}/services`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: "{}",
        });
        await response.arrayBuffer();
        counts[response.status] = (counts[response.status] ?? 0) + 1;
        if (response.status === 201) createMs.push(performance.now() - started);
      }
    }),
  );
  return { counts, createMs };
}

if (!isMainThread) {
  parentPort.postMessage(await createLoop(workerData));
}

// --- the probe ---------------------------------------------------------------------------------

async function probe(url, until) {
  const latencies = [];
  while (Date.now() < until) {
    const started = performance.now();
    const response = await fetch(`${url}/v1/health`);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`/v1/health answered ${response.status}`);
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, PROBE_MS));
  }
  return latencies;
}

function summary(latencies) {
  return {
    probes: latencies.length,
    p50Ms: round(median(latencies)),
    p90Ms: round(percentile(latencies, 90)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(Math.max(...latencies)),
  };
}

async function underLoad(url, tokens, label) {
  const until = Date.now() + LOAD_SECONDS * 1000;
  const worker = new Worker(new URL(import.meta.url), { workerData: { url, tokens, until } });
  const load = new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  const latencies = await probe(url, until);
  const { counts, createMs } = await load;
  await worker.terminate();
  const health = summary(latencies);
  const row = {
    label,
    clients: CLIENTS,
    credentials: new Set(tokens).size,
    seconds: LOAD_SECONDS,
    health,
    answers: counts,
    createsPerSecond: round((counts[201] ?? 0) / LOAD_SECONDS),
    createLatencyP50Ms: createMs.length ? round(median(createMs)) : null,
    createLatencyP90Ms: createMs.length ? round(percentile(createMs, 90)) : null,
  };
  log(`${label}: /v1/health p50 ${health.p50Ms} ms, p90 ${health.p90Ms} ms, max ${health.maxMs} ms; answers ${JSON.stringify(counts)}`);
  return row;
}

async function startServer(dataDir) {
  const child = spawn(process.execPath, [join(ROOT, "dist", "cli", "main.js"), "platform", "serve", "--port", "0", "--data-dir", dataDir, "--quiet"], {
    env: { ...env, SCHEMAFORM_TRANSITION_SECONDS: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (found) resolve(found[1]);
    });
    child.once("exit", (code) => reject(new Error(`platform serve exited with ${code}`)));
  });
  return { url, stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once("exit", resolve), child.kill("SIGTERM")))) };
}

async function measureLoad() {
  const { EmbeddedPlatform } = await import("../dist/platform/embedded.js");
  const { DEFAULT_RATE_LIMITS } = await import("../dist/platform/rate-limit.js");
  const { DEFAULT_LIMITS } = await import("../dist/platform/server.js");
  const work = mkdtempSync(join(tmpdir(), "schemaform-bench-platform-"));
  try {
    const dataDir = join(work, "data");
    const setup = new EmbeddedPlatform({ dataDir, transitionSeconds: 0 });
    const core = await setup.core();
    const tokens = [];
    for (let i = 0; i < CLIENTS; i++) tokens.push((await core.credentials.createAccessToken(PROJECT, `bench client ${i}`)).token);
    await setup.close();
    const server = await startServer(dataDir);
    try {
      const idle = summary(await probe(server.url, Date.now() + 2000));
      log(`idle: /v1/health p50 ${idle.p50Ms} ms, p90 ${idle.p90Ms} ms`);
      const separate = await underLoad(server.url, tokens, "10 clients, a credential each");
      const shared = await underLoad(server.url, tokens.map(() => tokens[0]), "10 clients, one credential");
      for (const row of [separate, shared]) row.health.p90RatioToIdle = round(row.health.p90Ms / idle.p90Ms);
      return { idle, loads: [separate, shared], rateLimits: DEFAULT_RATE_LIMITS, serverLimits: DEFAULT_LIMITS };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// --- the cost of the hostile-input checks ------------------------------------------------------

function bodies() {
  const service = JSON.stringify({ name: "orders-db", milli_cpu: 2000, memory_gb: 8, region_code: "us-east-1", ha_replicas: 2, sync_replicas: 1, connection_pooler_enabled: true, environment_tag: "PROD", timeouts: { create: "45m" } });
  const labels = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`label-${i}`, `value-${i}-${"x".repeat(20)}`]));
  const channel = (n) => JSON.stringify({ restore_channel: { location: "us-central1", destination_project: "projects/restore-target", description: "[{}] brackets in text", labels: labels(n) }, options: { defaultProject: PROJECT } });
  return [
    { label: "typical create body", text: service },
    { label: "about 100 KB", text: channel(2_000) },
    { label: "about 1 MB (the body limit is 1 MiB)", text: channel(20_000) },
  ];
}

function timeLoop(fn, text, minMs) {
  let runs = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    fn(text);
    runs++;
    elapsed = performance.now() - started;
  }
  return (elapsed * 1000) / runs; // microseconds per call
}

async function measureParsing() {
  const { parseJsonInput } = await import("../dist/platform/json-input.js");
  const checked = (text) => parseJsonInput(text, "the request body");
  const rows = [];
  for (const { label, text } of bodies()) {
    const plain = [];
    const guarded = [];
    checked(text); // the first call compiles; it is not a request's cost
    for (let r = 0; r < PARSE_ROUNDS; r++) {
      plain.push(timeLoop(JSON.parse, text, 40));
      guarded.push(timeLoop(checked, text, 40));
    }
    const row = { label, bytes: Buffer.byteLength(text), jsonParseUs: round(median(plain)), parseJsonInputUs: round(median(guarded)), ratioToJsonParse: round(median(guarded) / median(plain)) };
    log(`${label} (${row.bytes} bytes): JSON.parse ${row.jsonParseUs} µs, with the checks ${row.parseJsonInputUs} µs (${row.ratioToJsonParse}×)`);
    rows.push(row);
  }
  return rows;
}

async function main() {
  const load = await measureLoad();
  const parsing = await measureParsing();
  const out = {
    benchmark:
      "platform serve: /v1/health latency while clients create services (a child process on 127.0.0.1, probed every BENCH_PROBE_MS from the bench's main thread, the load from a worker thread), against the idle server in the same run; and parseJsonInput against JSON.parse (alternating rounds, medians)",
    node: process.version,
    cpu: cpus()[0]?.model ?? "unknown",
    cpus: cpus().length,
    date: new Date().toISOString(),
    // other work on the machine skews the latencies: recorded to read the numbers by
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
    bars: { healthP90MsUnderLoad: 100 },
    ...load,
    parsing,
  };
  const dir = fileURLToPath(new URL("./results/", import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}platform.json`, `${JSON.stringify(out, null, 2)}\n`);
  for (const row of load.loads) console.log(`${row.label}: /v1/health p90 ${row.health.p90Ms} ms (bar < 100 ms), ${row.createsPerSecond} creates/s`);
}

if (isMainThread && process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
