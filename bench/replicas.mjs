// Two platform server replicas on one PostgreSQL database under load (`npm run bench:replicas`,
// after `npm run build`; needs the machine's PostgreSQL binaries, as the tests do): throughput,
// latency percentiles and lost updates, against one server on SQLite measured in the same run.
//
// The load, for BENCH_LOAD_SECONDS (default 6) per setup, BENCH_CLIENTS (default 8) clients
// alternating between the replicas: each client in turn adds a label of its own to one shared
// restore channel (a read-modify-write of the same row by everyone: the worst case for
// conflicts) and reads the channel back. At the end every label sent must be on the channel:
// `lost_updates` counts the ones that are not (the bar is 0). Loopback only.
// Results go to bench/results/replicas.json.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createHttpClient } from "../dist/platform/http-client.js";
import { startCluster } from "../test/platform/postgres-cluster.ts";

const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 6);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist", "cli", "main.js");

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const round = (value) => Math.round(value * 100) / 100;

function serve(args) {
  const child = spawn(process.execPath, [CLI, "platform", "serve", "--port", "0", "--quiet", ...args], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.on("exit", (code) => reject(new Error(`platform serve exited with ${code}`)));
  });
}

function stop({ child }) {
  return new Promise((resolve) => {
    child.once("exit", resolve);
    child.kill("SIGTERM");
  });
}

function credentials(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "platform", "credentials", "create", "--all-projects", "--json", ...args], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`credentials create exited with ${code}`))));
  });
}

async function load(urls, printed) {
  const clients = urls.map((endpoint) => createHttpClient({ endpoint, credentials: { accessKey: printed.access_key, secretKey: printed.secret_key } }));
  const { body } = await clients[0].restoreChannels.create({ destination_project: "projects/bench-dest", location: "us-central1", name: "contended" }, { defaultProject: "bench-team" });
  const updateMs = [];
  const readMs = [];
  let sent = 0;
  const until = Date.now() + LOAD_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, worker) => {
      const client = clients[worker % clients.length];
      for (let n = 0; Date.now() < until; n++) {
        let started = performance.now();
        await client.restoreChannels.update(body.id, { labels: { [`w${worker}-${n}`]: "1" } }, undefined);
        updateMs.push(performance.now() - started);
        sent++;
        started = performance.now();
        await client.restoreChannels.get(body.id);
        readMs.push(performance.now() - started);
      }
    }),
  );
  const final = await clients[clients.length - 1].restoreChannels.get(body.id);
  await Promise.all(clients.map((c) => c.close()));
  return {
    requests_per_second: round((updateMs.length + readMs.length) / LOAD_SECONDS),
    updates: updateMs.length,
    update_ms: { p50: round(percentile(updateMs, 50)), p99: round(percentile(updateMs, 99)) },
    read_ms: { p50: round(percentile(readMs, 50)), p99: round(percentile(readMs, 99)) },
    lost_updates: sent - Object.keys(final.effective_labels ?? {}).length,
  };
}

const work = mkdtempSync(join(tmpdir(), "schemaform-bench-replicas-"));
const cluster = await startCluster();
try {
  // baseline: one server on SQLite
  const dataDir = join(work, "sqlite");
  const single = await serve(["--data-dir", dataDir]);
  const sqlite = await load([single.url], await credentials(["--data-dir", dataDir]));
  await stop(single);

  // two replicas on one PostgreSQL database, started together
  const keyFile = join(work, "secrets.key");
  writeFileSync(keyFile, randomBytes(32).toString("base64"), { mode: 0o600 });
  const database = await cluster.createDatabase();
  const pgArgs = ["--database", database, "--secrets-key-file", keyFile];
  const replicas = await Promise.all([serve(pgArgs), serve(pgArgs)]);
  const postgres = await load(
    replicas.map((r) => r.url),
    await credentials(pgArgs),
  );
  await Promise.all(replicas.map(stop));

  const result = {
    what: `${CLIENTS} clients for ${LOAD_SECONDS} s, each adding its own labels to one shared restore channel and reading it back`,
    machine: { cpus: cpus().length, loadavg_1m: round(loadavg()[0]) },
    sqlite_one_server: sqlite,
    postgres_two_replicas: postgres,
    throughput_ratio_postgres_to_sqlite: round(postgres.requests_per_second / sqlite.requests_per_second),
  };
  mkdirSync(join(ROOT, "bench", "results"), { recursive: true });
  writeFileSync(join(ROOT, "bench", "results", "replicas.json"), `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (postgres.lost_updates !== 0 || sqlite.lost_updates !== 0) process.exitCode = 1;
} finally {
  cluster.stop();
  rmSync(work, { recursive: true, force: true });
}
