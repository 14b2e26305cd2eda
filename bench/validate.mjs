// `npm run bench:validate`: throughput of `schemaform validate` on generated 1 MB and 10 MB
// configurations of our resources, and its ratio to plain JSON.parse of the same text measured in
// the same run (median of several alternating rounds); a one-line file of 10,000 resources with
// one error each against the same file without errors; a 100 MB file's time and peak memory
// against JSON.parse's, each in fresh child processes. Writes bench/results/validate.json.
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { preloadTypes, validateHclJson, validateHclJsonSync } from "../dist/language/index.js";

const KB = 1024;
const MB = 1024 * KB;

/**
 * A valid configuration of our resources of about `target` bytes.
 * style "cdktf": what `cdktf synth` writes (two-space indents, every resource carries its "//"
 * metadata comment); style "compact": hand-written (two-space indents, no comments); style
 * "minified": what a generator writes without indenting (no whitespace, no comments: the most
 * resources per megabyte); style "expressions": hand-written like "compact", but the values come
 * through local values and templates with functions and operators (which validate parses, and
 * evaluates where they are known: the services' sizes are local values the value rules check).
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
    if (style === "cdktf" || style === "expressions-heavy") {
      for (const [type, blocks] of Object.entries(r)) {
        for (const [name, body] of Object.entries(blocks)) {
          blocks[name] = { "//": { metadata: { path: `bench/${type}/${name}`, uniqueId: `${type}_${name}` } }, ...body };
        }
      }
    }
    if (style === "expressions-heavy") {
      // CDKTF-shaped, and most values reference another resource or an input variable as one
      // bare traversal ("${var.ha}", "${tsdb_service.db1.name}"), as a stack with variables writes them
      const service = r.tsdb_service[`db${i}`];
      Object.assign(service, { ha_replicas: "${var.ha}", environment_tag: "${var.environment}", connection_pooler_enabled: "${var.pooler}" });
      r.tsdb_vpcs[`net${i}`].name = "${var.network_name}";
      r.tsdb_log_exporter[`logs${i}`].cloudmon.role_arn = "${var.role_arn}";
      r.tsdb_metric_exporter[`metrics${i}`].saasmon.api_key = "${var.api_key}";
      r.tsdb_connector_src_db[`src${i}`].display_name = `\${tsdb_service.db${i}.name}`;
      r.tsdb_connector_src_db[`src${i}`].connection_string = "${var.source_url}";
      r.tsdb_peering_connection[`peer${i}`].peer_account_id = "${var.peer_account}";
      r.containerbackup_restore_channel[`channel${i}`].destination_project = "${var.project}";
    }
    if (style === "expressions") {
      const service = r.tsdb_service[`db${i}`];
      Object.assign(service, { name: `\${local.env}-db-${i}`, milli_cpu: "${local.cpu}", memory_gb: "${local.cpu / 250}", ha_replicas: "${local.ha ? 2 : 1}" });
      service.environment_tag = "${upper(local.env)}";
      r.tsdb_connector_src_db[`src${i}`].display_name = `\${format("source %d", ${i})} (\${local.env})`;
      r.containerbackup_restore_channel[`channel${i}`].labels.index = `\${tostring(${i} % 16)}`;
    }
    parts.push(r);
    // minified, a part adds its blocks only (its type keys merge into the root's)
    size += style === "minified" ? Object.values(r).reduce((n, blocks) => n + JSON.stringify(blocks).length - 1, 0) : JSON.stringify(r, null, 2).length;
    i++;
  }
  // one object per resource type, as CDKTF and most generators emit it
  if (style === "expressions") root.locals = { env: "prod", cpu: 1000, ha: false };
  if (style === "expressions-heavy") {
    root.variable = Object.fromEntries(
      ["environment", "network_name", "role_arn", "source_url", "peer_account", "project"].map((name) => [name, { type: "string" }]).concat([["ha", { type: "number", default: 1 }], ["pooler", { type: "bool", default: true }], ["api_key", { type: "string", sensitive: true }]]),
    );
  }
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

/**
 * One line (minified) of `count` services, each with one problem when `errors` is set: a misspelt
 * argument, a value of the wrong type, a value out of range, a value not among the allowed ones
 * or a reference to an undeclared resource, in turn. Without errors the same resources are valid.
 */
export function oneLineConfiguration(count, errors) {
  const services = {};
  for (let i = 0; i < count; i++) {
    const kind = errors ? i % 5 : -1;
    const body = { name: `db-${i}`, milli_cpu: 1000, memory_gb: "4", region_code: "us-east-1", ha_replicas: 1, environment_tag: "PROD", vpc_id: "${tsdb_vpcs.net.vpcs_id}" };
    if (kind === 0) {
      delete body.name;
      body.nmae = `db-${i}`;
    } else if (kind === 1) body.milli_cpu = { cpu: 1000 };
    else if (kind === 2) body.ha_replicas = 9;
    else if (kind === 3) body.environment_tag = "PRODUCTION";
    else if (kind === 4) body.vpc_id = "${tsdb_vpcs.nte.vpcs_id}";
    services[`db${i}`] = body;
  }
  return JSON.stringify({ resource: { tsdb_vpcs: { net: { name: "net", cidr: "10.0.0.0/16", region_code: "us-east-1" } }, tsdb_service: services } });
}

/** The 10,000-error row: validate the file with errors against the same file without, alternating. */
function measureErrors(rounds) {
  const count = 10_000;
  const valid = oneLineConfiguration(count, false);
  const invalid = oneLineConfiguration(count, true);
  const none = validateHclJsonSync(valid, { filename: "valid.tf.json" });
  if (none.length) throw new Error(`the valid one-line file is not valid: ${none[0].message}`);
  const reported = validateHclJsonSync(invalid, { filename: "invalid.tf.json" }).filter((d) => d.severity === "error");
  if (reported.length !== count) throw new Error(`expected ${count} errors, got ${reported.length}`);
  for (let k = 0; k < 5; k++) {
    validateHclJsonSync(valid);
    validateHclJsonSync(invalid);
  }
  const withErrors = [];
  const without = [];
  const parse = [];
  for (let k = 0; k < rounds; k++) {
    let t = performance.now();
    JSON.parse(invalid);
    parse.push(performance.now() - t);
    t = performance.now();
    validateHclJsonSync(valid);
    without.push(performance.now() - t);
    t = performance.now();
    validateHclJsonSync(invalid);
    withErrors.push(performance.now() - t);
  }
  const row = {
    label: "10k errors, one line",
    bytes: Buffer.byteLength(invalid),
    errorsReported: reported.length,
    rounds,
    validMs: round(median(without)),
    invalidMs: round(median(withErrors)),
    jsonParseMs: round(median(parse)),
    ratioToValid: round(median(withErrors) / median(without)),
    medianOfRoundRatios: round(median(withErrors.map((v, k) => v / without[k]))),
    ratioToJsonParse: round(median(withErrors) / median(parse)),
  };
  console.log(`10k errors on one line (${(row.bytes / MB).toFixed(2)} MB): ${row.errorsReported} errors in ${row.invalidMs} ms, the same file without errors ${row.validMs} ms: ratio ${row.ratioToValid}× (per-round median ${row.medianOfRoundRatios}×; bar ≤ 4×)`);
  return row;
}

/** Runs in a fresh child: reads the file, then JSON.parse or validate, and prints time and memory. */
const CHILD = `
const { readFileSync } = await import("node:fs");
const [mode, file, dist] = process.argv.slice(1);
const text = readFileSync(file, "utf8");
const before = process.resourceUsage().maxRSS;
let errors = 0;
let validate = null;
if (mode === "validate") {
  const api = await import(dist);
  await api.preloadTypes();
  validate = api.validateHclJsonSync;
}
const loaded = process.resourceUsage().maxRSS;
const t = performance.now();
if (mode === "parse") JSON.parse(text);
else errors = validate(text, { filename: "big.tf.json" }).filter((d) => d.severity === "error").length;
const ms = performance.now() - t;
console.log(JSON.stringify({ ms, errors, maxRssKb: process.resourceUsage().maxRSS, textRssKb: before, loadedRssKb: loaded }));
`;

/**
 * A 100 MB file: time and peak resident memory of validate and of JSON.parse, each in a fresh
 * process (alternating, medians), so that one's garbage does not count against the other.
 */
function measureLarge(style, rounds) {
  const { text, groups } = generateConfiguration(100 * MB, style);
  const dir = mkdtempSync(join(tmpdir(), "schemaform-bench-"));
  const file = join(dir, "big.tf.json");
  writeFileSync(file, text);
  const bytes = Buffer.byteLength(text);
  const dist = new URL("../dist/language/index.js", import.meta.url).href;
  const run = (mode) => JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", CHILD, mode, file, dist], { encoding: "utf8", maxBuffer: 1 << 20 }));
  const parse = [];
  const validate = [];
  try {
    for (let k = 0; k < rounds; k++) {
      parse.push(run("parse"));
      validate.push(run("validate"));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (validate.some((v) => v.errors > 0)) throw new Error("the 100 MB configuration is not valid");
  const ms = (xs) => median(xs.map((x) => x.ms));
  const peak = (xs) => median(xs.map((x) => x.maxRssKb)) / 1024;
  // what the operation itself added beyond the process holding the text (and, for validate, the loaded types)
  const added = (xs, base) => median(xs.map((x) => (x.maxRssKb - x[base]) / 1024));
  const row = {
    label: "100MB",
    style,
    bytes,
    resources: groups * 7,
    rounds,
    jsonParseMs: round(ms(parse)),
    validateMs: round(ms(validate)),
    ratioToJsonParse: round(ms(validate) / ms(parse)),
    jsonParsePeakMB: round(peak(parse)),
    validatePeakMB: round(peak(validate)),
    peakMemoryRatioToJsonParse: round(peak(validate) / peak(parse)),
    jsonParseAddedMB: round(added(parse, "textRssKb")),
    validateAddedMB: round(added(validate, "loadedRssKb")),
    addedMemoryRatioToJsonParse: round(added(validate, "loadedRssKb") / added(parse, "textRssKb")),
  };
  console.log(
    `100MB (${style}): ${(bytes / MB).toFixed(1)} MB, ${row.resources} resources: validate ${row.validateMs} ms, JSON.parse ${row.jsonParseMs} ms, ratio ${row.ratioToJsonParse}×; peak memory ${row.validatePeakMB} MB vs ${row.jsonParsePeakMB} MB (${row.peakMemoryRatioToJsonParse}×), added beyond the text ${row.validateAddedMB} MB vs ${row.jsonParseAddedMB} MB (${row.addedMemoryRatioToJsonParse}×)`,
  );
  return row;
}

async function main() {
  await preloadTypes();
  const results = [];
  for (const style of (process.env.BENCH_STYLES ?? "cdktf,compact,minified,expressions,expressions-heavy").split(",")) {
    results.push(await measure("1MB", 1 * MB, 25, style));
    results.push(await measure("10MB", 10 * MB, 25, style));
  }
  results.push(measureErrors(15));
  for (const style of ["cdktf", "minified"]) results.push(measureLarge(style, 3));
  const out = {
    benchmark:
      "schemaform validate vs JSON.parse (same text, same process, alternating rounds): ratioToJsonParse = median validate time / median JSON.parse time; medianOfRoundRatios = median over rounds of that round's validate/JSON.parse; ratioOfFastestRuns = fastest validate / fastest JSON.parse",
    styles: { cdktf: "as cdktf synth writes it: every resource carries a \"//\" metadata comment", compact: "hand-written: two-space indents, no comments", minified: "no whitespace, no comments", expressions: "as compact, with values through local values and templates (functions, operators) that validate parses and evaluates", "expressions-heavy": "as cdktf, with most values one reference to another resource or an input variable (\"${var.ha}\", \"${tsdb_service.db1.name}\")" },
    node: process.version,
    cpu: cpus()[0]?.model ?? "unknown",
    date: new Date().toISOString(),
    // other work on the machine skews both sides of the ratio: recorded to read the numbers by
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
    bars: { max: 3, goal: 2, errorsRatioToValid: 4 },
    results,
  };
  const dir = fileURLToPath(new URL("./results/", import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}validate.json`, `${JSON.stringify(out, null, 2)}\n`);
  for (const ten of results.filter((r) => r.label === "10MB")) {
    // the expressions row measures what parsing and evaluating its templates costs beyond the rest
    const bar = ten.style === "expressions" ? "the cost of its templates' checks; the bar is the other styles'" : "bar ≤ 3×, goal ≤ 2×";
    console.log(`10 MB ${ten.style}: ratio ${ten.ratioToJsonParse}×, per-round median ${ten.medianOfRoundRatios}× (${bar})`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
