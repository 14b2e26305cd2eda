// `npm run bench:validate`: throughput of `schemaform validate` on generated 1 MB and 10 MB
// configurations of our resources (validate-configurations.mjs) and on a 15 MB CDKTF-shaped stack
// whose resources mostly carry references and templates (cdktf-stack.mjs), and its ratio to plain
// JSON.parse of the same text measured in the same run (alternating rounds, medians of wall
// clock and of CPU time); the same stack written in native syntax (`.tf`) against JSON.parse of
// its JSON form; a one-line file of 10,000 resources with one error each against the same file
// without errors; a 100 MB file's time and peak memory against JSON.parse's, each in fresh
// child processes. Writes bench/results/validate.json.
//
// BENCH_BASELINE=DIR (another build's dist directory, e.g. one made from `git stash`) times that
// build's validate too, in the same rounds (their order swapped every round), so that a change
// is measured before and after under the same machine load: each row then has baseline* fields.
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { preloadTypes, validateHclJsonSync } from "../dist/language/index.js";
import { cdktfStack } from "./cdktf-stack.mjs";
import { generateConfiguration, oneLineConfiguration } from "./validate-configurations.mjs";

const KB = 1024;
const MB = 1024 * KB;

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function round(x) {
  return Math.round(x * 100) / 100;
}

/** Wall-clock and CPU milliseconds of one call (CPU: the whole process's, the GC's threads included). */
function timed(fn) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  fn();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

/** The baseline build's validate (BENCH_BASELINE), or null. */
async function baselineValidator() {
  const dir = process.env.BENCH_BASELINE;
  if (!dir) return null;
  const api = await import(pathToFileURL(resolve(dir, "language/index.js")).href);
  await api.preloadTypes();
  return api.validateHclJsonSync;
}

/**
 * One row: validate `text` (named `filename`, so `.tf` is read as native syntax) against
 * JSON.parse of `jsonText` (the same configuration's JSON form), alternating in `rounds` rounds
 * after a warm-up; with a baseline build, its validate too.
 */
function measure({ label, style, text, jsonText = text, filename = "bench.tf.json", resources, rounds, baseline }) {
  const bytes = Buffer.byteLength(text);
  // correctness first: the generated file must be valid, for both builds
  for (const validate of baseline ? [validateHclJsonSync, baseline] : [validateHclJsonSync]) {
    const errors = validate(text, { filename }).filter((d) => d.severity === "error");
    if (errors.length) throw new Error(`bench configuration ${label} ${style} is not valid: ${errors[0].message} (line ${errors[0].line})`);
  }
  // warm-up: steady-state numbers, after the JIT has settled
  for (let k = 0; k < 5; k++) {
    JSON.parse(jsonText);
    validateHclJsonSync(text, { filename });
    baseline?.(text, { filename });
  }
  const parse = [];
  const validate = [];
  const before = [];
  for (let k = 0; k < rounds; k++) {
    parse.push(timed(() => JSON.parse(jsonText)));
    const current = () => validate.push(timed(() => validateHclJsonSync(text, { filename })));
    if (!baseline) current();
    else if (k % 2 === 0) {
      current();
      before.push(timed(() => baseline(text, { filename })));
    } else {
      before.push(timed(() => baseline(text, { filename })));
      current();
    }
  }
  const wall = (xs) => xs.map((x) => x.wall);
  const cpu = (xs) => xs.map((x) => x.cpu);
  const parseMs = median(wall(parse));
  const validateMs = median(wall(validate));
  const row = {
    label,
    style,
    syntax: filename.endsWith(".tf") ? "native" : "json",
    bytes,
    jsonBytes: Buffer.byteLength(jsonText),
    resources,
    rounds,
    jsonParseMs: round(parseMs),
    validateMs: round(validateMs),
    ratioToJsonParse: round(validateMs / parseMs),
    // Each round's timings are taken back to back, under the same machine conditions: the
    // median of the per-round ratios is the least sensitive to load from other work.
    medianOfRoundRatios: round(median(validate.map((v, k) => v.wall / parse[k].wall))),
    ratioOfFastestRuns: round(Math.min(...wall(validate)) / Math.min(...wall(parse))),
    validateMBps: round(bytes / MB / (validateMs / 1000)),
    jsonParseMBps: round(Buffer.byteLength(jsonText) / MB / (parseMs / 1000)),
    jsonParseCpuMs: round(median(cpu(parse))),
    validateCpuMs: round(median(cpu(validate))),
    cpuRatioToJsonParse: round(median(cpu(validate)) / median(cpu(parse))),
    medianOfRoundCpuRatios: round(median(validate.map((v, k) => v.cpu / parse[k].cpu))),
    validateMsAll: wall(validate).map(round),
    jsonParseMsAll: wall(parse).map(round),
  };
  let versus = "";
  if (baseline) {
    Object.assign(row, {
      baselineValidateMs: round(median(wall(before))),
      baselineRatioToJsonParse: round(median(wall(before)) / parseMs),
      baselineMedianOfRoundRatios: round(median(before.map((v, k) => v.wall / parse[k].wall))),
      baselineCpuRatioToJsonParse: round(median(cpu(before)) / median(cpu(parse))),
      // this build against the baseline, round by round
      medianOfRoundRatiosToBaseline: round(median(validate.map((v, k) => v.wall / before[k].wall))),
      cpuRatioToBaseline: round(median(cpu(validate)) / median(cpu(before))),
    });
    versus = `; baseline build ${row.baselineValidateMs} ms, per-round median ${row.baselineMedianOfRoundRatios}×, CPU ${row.baselineCpuRatioToJsonParse}× (this build / baseline: per round ${row.medianOfRoundRatiosToBaseline}, CPU ${row.cpuRatioToBaseline})`;
  }
  console.log(
    `${label} ${style}${row.syntax === "native" ? " (.tf)" : ""}: ${(bytes / MB).toFixed(2)} MB, ${resources} resources: validate ${row.validateMs} ms (${row.validateMBps} MB/s), JSON.parse ${row.jsonParseMs} ms, ratio ${row.ratioToJsonParse}× (per-round median ${row.medianOfRoundRatios}×, fastest runs ${row.ratioOfFastestRuns}×, CPU time ${row.cpuRatioToJsonParse}×)${versus}`,
  );
  return row;
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

/** The rows by style: 1 MB and 10 MB generated files; the CDKTF stack at 1 MB and 15 MB, as JSON and as native syntax. */
function* rows(style, rounds, baseline) {
  if (style === "cdktf-stack" || style === "cdktf-stack-native") {
    for (const [label, size] of [["1MB", 1 * MB], ["15MB", 15 * MB]]) {
      const stack = cdktfStack(size);
      const common = { label, style: "cdktf-stack", resources: stack.resources, rounds: label === "1MB" ? rounds : Math.max(5, Math.round(rounds / 2)), baseline };
      if (style === "cdktf-stack") yield () => measure({ ...common, text: stack.text });
      else yield () => measure({ ...common, text: stack.native, jsonText: stack.text, filename: "bench.tf" });
    }
    return;
  }
  for (const [label, size] of [["1MB", 1 * MB], ["10MB", 10 * MB]]) {
    const { text, groups } = generateConfiguration(size, style);
    yield () => measure({ label, style, text, resources: groups * 7, rounds, baseline });
  }
}

const STYLES = "cdktf,compact,minified,expressions,expressions-heavy,cdktf-stack,cdktf-stack-native";

async function main() {
  await preloadTypes();
  const baseline = await baselineValidator();
  const rounds = Number(process.env.BENCH_ROUNDS ?? 25);
  const loadBefore = loadavg();
  const results = [];
  for (const style of (process.env.BENCH_STYLES ?? STYLES).split(",")) for (const row of rows(style, rounds, baseline)) results.push(row());
  // BENCH_LARGE=0: the rows above only (a quick before/after run)
  if (process.env.BENCH_LARGE !== "0") {
    results.push(measureErrors(15));
    for (const style of ["cdktf", "minified"]) results.push(measureLarge(style, 3));
  }
  const out = {
    benchmark:
      "schemaform validate vs JSON.parse (same text, or for native syntax the same configuration's JSON form; same process, alternating rounds): ratioToJsonParse = median validate time / median JSON.parse time; medianOfRoundRatios = median over rounds of that round's validate/JSON.parse; ratioOfFastestRuns = fastest validate / fastest JSON.parse; cpuRatioToJsonParse = median validate CPU time / median JSON.parse CPU time (process CPU, GC threads included)",
    styles: {
      cdktf: 'as cdktf synth writes it: every resource carries a "//" metadata comment',
      compact: "hand-written: two-space indents, no comments",
      minified: "no whitespace, no comments",
      expressions: "as compact, with values through local values and templates (functions, operators) that validate parses and evaluates",
      "expressions-heavy": 'as cdktf, with most values one reference to another resource or an input variable ("${var.ha}", "${tsdb_service.db1.name}")',
      "cdktf-stack":
        'as cdktf synth writes a stack with variables and locals (cdktf-stack.mjs): "//" metadata, most arguments one reference ("${tsdb_vpcs.net1.vpcs_id}", "${var.ha}") or a template with one ("${local.prefix}-db-1"), some templates with functions; services on VPCs and exporters, peerings, connectors, restore channels, outputs. Syntax "native": the same configuration as a .tf file, against JSON.parse of its JSON form',
    },
    node: process.version,
    cpu: cpus()[0]?.model ?? "unknown",
    cpus: cpus().length,
    date: new Date().toISOString(),
    // other work on the machine skews both sides of the ratio: recorded to read the numbers by
    loadAverage: { before: loadBefore.map(round), after: loadavg().map(round) },
    baseline: process.env.BENCH_BASELINE ? "BENCH_BASELINE: another build of validate timed in the same rounds (baseline* fields)" : undefined,
    bars: { max: 3, goal: 2, errorsRatioToValid: 4 },
    results,
  };
  const dir = fileURLToPath(new URL("./results/", import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}validate.json`, `${JSON.stringify(out, null, 2)}\n`);
  for (const row of results.filter((r) => r.label === "10MB" || r.label === "15MB")) {
    // the expressions row measures what parsing and evaluating its templates costs beyond the rest
    const bar = row.syntax === "native" ? "native syntax: reported, no bar" : row.style === "expressions" ? "the cost of its templates' checks; the bar is the other styles'" : "bar ≤ 3×, goal ≤ 2×";
    console.log(`${row.label} ${row.style}${row.syntax === "native" ? " (.tf)" : ""}: ratio ${row.ratioToJsonParse}×, per-round median ${row.medianOfRoundRatios}×, CPU ${row.cpuRatioToJsonParse}× (${bar})`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
