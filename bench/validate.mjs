// `npm run bench:validate`: throughput of `schemaform validate` on generated 1 MB and 10 MB
// configurations of our resources, and its ratio to plain JSON.parse of the same text measured in
// the same run (median of several alternating rounds). Writes bench/results/validate.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";

import { fileURLToPath } from "node:url";
import { preloadTypes, validateHclJson, validateHclJsonSync } from "../dist/hcljson/index.js";

const KB = 1024;
const MB = 1024 * KB;

/**
 * A valid configuration of our resources of about `target` bytes.
 * style "cdktf": what `cdktf synth` writes (two-space indents, every resource carries its "//"
 * metadata comment); style "compact": hand-written (two-space indents, no comments); style
 * "minified": what a generator writes without indenting (no whitespace, no comments: the most
 * resources per megabyte).
 */
export function generateConfiguration(target, style = "cdktf") {
  const root = {
    "//": { metadata: { generator: "schemaform bench" } },
    terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" }, containerbackup: { source: "schemaform/containerbackup" } } },
    provider: { tsdb: { project_id: "bench-project" }, containerbackup: { project: "bench-project" } },
    resource: {},
  };
  const parts = [];
  let size = 0;
  let i = 0;
  const regions = ["us-east-1", "eu-west-1", "ap-southeast-2"];
  while (size < target) {
    const region = regions[i % regions.length];
    const r = {
      tsdb_vpcs: { [`net${i}`]: { name: `net-${i}`, cidr: `10.${i % 250}.0.0/16`, region_code: region } },
      tsdb_log_exporter: {
        [`logs${i}`]: { region, name: `logs-${i}`, cloudmon: { region, log_group_name: `/tsdb/${i}`, log_stream_name: "postgres", role_arn: "arn:aws:iam::123456789012:role/exporter" } },
      },
      tsdb_metric_exporter: { [`metrics${i}`]: { region, name: `metrics-${i}`, saasmon: { api_key: "<API_KEY>", site: "datadoghq.com" } } },
      tsdb_service: {
        [`db${i}`]: {
          name: `db-${i}`,
          milli_cpu: 1000,
          memory_gb: "4",
          region_code: region,
          ha_replicas: 1,
          connection_pooler_enabled: true,
          environment_tag: "PROD",
          vpc_id: `\${tsdb_vpcs.net${i}.vpcs_id}`,
          log_exporter_id: `\${tsdb_log_exporter.logs${i}.id}`,
          metric_exporter_id: `\${tsdb_metric_exporter.metrics${i}.id}`,
          timeouts: { create: "45m" },
          lifecycle: { prevent_destroy: false },
        },
      },
      tsdb_connector_src_db: {
        [`src${i}`]: {
          service_id: `\${tsdb_service.db${i}.id}`,
          display_name: `source ${i}`,
          connection_string: "postgres://replicator:<PASSWORD>@source.example.com:5432/app",
          table_sync_workers: 4,
          tables: [
            { schema_name: "public", table_name: `events_${i}`, table_mapping: { schema_name: "public", table_name: `events_${i}` } },
            { schema_name: "public", table_name: `users_${i}` },
          ],
        },
      },
      tsdb_peering_connection: {
        [`peer${i}`]: { platform_vpc_id: `\${tsdb_vpcs.net${i}.vpcs_id}`, peer_account_id: "123456789012", peer_region_code: region, peer_vpc_id: "vpc-0123456789abcdef0" },
      },
      containerbackup_restore_channel: {
        [`channel${i}`]: { destination_project: "projects/restore-target", location: "us-central1", description: `channel ${i}`, labels: { team: "data", index: String(i) } },
      },
    };
    if (style === "cdktf") {
      for (const [type, blocks] of Object.entries(r)) {
        for (const [name, body] of Object.entries(blocks)) {
          blocks[name] = { "//": { metadata: { path: `bench/${type}/${name}`, uniqueId: `${type}_${name}` } }, ...body };
        }
      }
    }
    parts.push(r);
    // minified, a part adds its blocks only (its type keys merge into the root's)
    size += style === "minified" ? Object.values(r).reduce((n, blocks) => n + JSON.stringify(blocks).length - 1, 0) : JSON.stringify(r, null, 2).length;
    i++;
  }
  // one object per resource type, as CDKTF and most generators emit it
  for (const part of parts) {
    for (const [type, blocks] of Object.entries(part)) Object.assign((root.resource[type] ??= {}), blocks);
  }
  return { text: style === "minified" ? JSON.stringify(root) : JSON.stringify(root, null, 2), groups: i };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function measure(label, target, rounds, style) {
  const { text, groups } = generateConfiguration(target, style);
  const bytes = Buffer.byteLength(text);
  // correctness first: the generated file must be valid
  const first = await validateHclJson(text, { filename: "bench.tf.json" });
  const errors = first.filter((d) => d.severity === "error");
  if (errors.length) throw new Error(`bench configuration is not valid: ${errors[0].message} (line ${errors[0].line})`);
  // warm-up: steady-state numbers, after the JIT has settled
  for (let k = 0; k < 5; k++) {
    JSON.parse(text);
    validateHclJsonSync(text, { filename: "bench.tf.json" });
  }
  const parse = [];
  const validate = [];
  const parseCpu = [];
  const validateCpu = [];
  for (let k = 0; k < rounds; k++) {
    let c = process.cpuUsage();
    let t = performance.now();
    JSON.parse(text);
    parse.push(performance.now() - t);
    c = process.cpuUsage(c);
    parseCpu.push((c.user + c.system) / 1000);
    c = process.cpuUsage();
    t = performance.now();
    validateHclJsonSync(text, { filename: "bench.tf.json" });
    validate.push(performance.now() - t);
    c = process.cpuUsage(c);
    validateCpu.push((c.user + c.system) / 1000);
  }
  const parseMs = median(parse);
  const validateMs = median(validate);
  // Each round's two timings are taken back to back, under the same machine conditions: the
  // median of the per-round ratios is the least sensitive to load from other work.
  const pairedRatio = median(validate.map((v, k) => v / parse[k]));
  const row = {
    label,
    style,
    bytes,
    resources: groups * 7,
    rounds,
    jsonParseMs: round(parseMs),
    validateMs: round(validateMs),
    ratioToJsonParse: round(validateMs / parseMs),
    medianOfRoundRatios: round(pairedRatio),
    ratioOfFastestRuns: round(Math.min(...validate) / Math.min(...parse)),
    validateMBps: round(bytes / MB / (validateMs / 1000)),
    jsonParseMBps: round(bytes / MB / (parseMs / 1000)),
    cpuRatioToJsonParse: round(median(validateCpu) / median(parseCpu)),
    validateMsAll: validate.map(round),
    jsonParseMsAll: parse.map(round),
  };
  console.log(
    `${label} (${style}): ${(bytes / MB).toFixed(2)} MB, ${row.resources} resources: validate ${row.validateMs} ms (${row.validateMBps} MB/s), JSON.parse ${row.jsonParseMs} ms, ratio ${row.ratioToJsonParse}× (per-round median ${row.medianOfRoundRatios}×, fastest runs ${row.ratioOfFastestRuns}×, CPU time ${row.cpuRatioToJsonParse}×)`,
  );
  return row;
}

function round(x) {
  return Math.round(x * 100) / 100;
}

async function main() {
  await preloadTypes();
  const results = [];
  for (const style of ["cdktf", "compact", "minified"]) {
    results.push(await measure("1MB", 1 * MB, 25, style));
    results.push(await measure("10MB", 10 * MB, 25, style));
  }
  const out = {
    benchmark:
      "schemaform validate vs JSON.parse (same text, same process, alternating rounds): ratioToJsonParse = median validate time / median JSON.parse time; medianOfRoundRatios = median over rounds of that round's validate/JSON.parse; ratioOfFastestRuns = fastest validate / fastest JSON.parse",
    styles: { cdktf: "as cdktf synth writes it: every resource carries a \"//\" metadata comment", compact: "hand-written: two-space indents, no comments", minified: "no whitespace, no comments" },
    node: process.version,
    cpu: cpus()[0]?.model ?? "unknown",
    date: new Date().toISOString(),
    // other work on the machine skews both sides of the ratio: recorded to read the numbers by
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
    bars: { max: 3, goal: 2 },
    results,
  };
  const dir = fileURLToPath(new URL("./results/", import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}validate.json`, `${JSON.stringify(out, null, 2)}\n`);
  for (const ten of results.filter((r) => r.label === "10MB")) {
    console.log(`10 MB ${ten.style}: ratio ${ten.ratioToJsonParse}×, per-round median ${ten.medianOfRoundRatios}× (bar ≤ 3×, goal ≤ 2×)`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
