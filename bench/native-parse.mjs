// `npm run bench:native-parse`: throughput of the native syntax parser (language/syntax/native)
// on a generated 10 MB `.tf` file, the bench's "expressions" configuration written in native
// syntax by the project's HCL writer, against JSON.parse of the same configuration's JSON form
// (median of alternating rounds in one process). Writes bench/results/native-parse.json.
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { fromTemplate, renderHcl, attribute, block } from "../language/syntax/native/writer.ts";
import { parseNative } from "../language/syntax/native/parser.ts";
import { median, round, log } from "./stats.mjs";
import { generateConfiguration } from "./validate-configurations.mjs";

const MB = 1024 * 1024;
const ROUNDS = 7;

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/** A JSON value in native form: strings read as templates, objects and lists as written. */
function nativeValue(v) {
  if (typeof v === "string") return fromTemplate(v);
  if (Array.isArray(v)) return v.map(nativeValue);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, nativeValue(x)]));
  return v;
}

/** A JSON body in native form: an object value is a nested block (as Terraform's JSON reads one), the rest arguments. */
function nativeBody(object) {
  return Object.entries(object)
    .filter(([key]) => key !== "//")
    .map(([key, v]) => (isObject(v) ? block(key, [], nativeBody(v)) : attribute(key, nativeValue(v))));
}

/** The configuration's top-level blocks in native form, with the labels JSON spells as keys. */
function nativeConfiguration(root) {
  const items = [];
  for (const [type, content] of Object.entries(root)) {
    if (type === "//") continue;
    if (type === "resource" || type === "data") {
      for (const [kind, named] of Object.entries(content)) for (const [name, body] of Object.entries(named)) items.push(block(type, [kind, name], nativeBody(body)));
    } else if (type === "provider") {
      for (const [name, body] of Object.entries(content)) items.push(block(type, [name], nativeBody(body)));
    } else items.push(block(type, [], nativeBody(content)));
  }
  return renderHcl(items);
}

/** Wall-clock and CPU milliseconds of `fn` (CPU: the process's, GC threads included; steadier on a busy machine). */
function time(fn) {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  fn();
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

function main() {
  const json = generateConfiguration(10 * MB, "expressions").text;
  const native = nativeConfiguration(JSON.parse(json));
  if (process.env.NATIVE_BENCH_SAVE) writeFileSync(process.env.NATIVE_BENCH_SAVE, native);
  const check = parseNative(native, "bench.tf");
  if (check.problems.length > 0) throw new Error(`the generated file does not parse: ${check.problems[0].summary}`);
  const parseTimes = [];
  const jsonTimes = [];
  for (let round = 0; round < ROUNDS; round++) {
    jsonTimes.push(time(() => JSON.parse(json)));
    parseTimes.push(time(() => parseNative(native, "bench.tf")));
  }
  const parseMs = median(parseTimes.map((t) => t.wall));
  const jsonMs = median(jsonTimes.map((t) => t.wall));
  const parseCpu = median(parseTimes.map((t) => t.cpu));
  const jsonCpu = median(jsonTimes.map((t) => t.cpu));
  const out = {
    benchmark: "parseNative on a generated .tf file vs JSON.parse of the same configuration's .tf.json form (same process, alternating rounds, medians)",
    machine: { cpus: cpus().length, model: cpus()[0]?.model, loadavg: loadavg().map((l) => round(l, 2)) },
    node: process.version,
    rounds: ROUNDS,
    nativeBytes: Buffer.byteLength(native),
    jsonBytes: Buffer.byteLength(json),
    blocks: check.file.body.items.length,
    parseNativeMs: round(parseMs),
    jsonParseMs: round(jsonMs),
    nativeMBPerSecond: round(Buffer.byteLength(native) / MB / (parseMs / 1000)),
    ratioToJsonParse: round(parseMs / jsonMs, 2),
    parseNativeCpuMs: round(parseCpu),
    jsonParseCpuMs: round(jsonCpu),
    cpuRatioToJsonParse: round(parseCpu / jsonCpu, 2),
  };
  log(JSON.stringify(out, null, 2));
  writeFileSync(fileURLToPath(new URL("./results/native-parse.json", import.meta.url)), `${JSON.stringify(out, null, 2)}\n`);
}

main();
