// Codec benchmark (`npm run bench:codec`, after `npm run build`): the cost of turning Terraform's
// msgpack DynamicValues into bodies and back, which every resource of every plan pays several
// times (UpgradeResourceState encodes its JSON state; ReadResource decodes and encodes the state;
// PlanResourceChange decodes prior state, proposed state and config and encodes the plan).
//
// Subjects, measured in one process with rounds alternating between them (order rotated):
//   codec            provider/codec.ts of this build (dist/): the one schema-compiled codec;
//   before           the codec of BENCH_CODEC_BASELINE (a git revision; default the last one with
//                    two decode paths): its exported functions, i.e. the compiled fast path of
//                    provider/codec-fast.ts, falling back to the general path;
//   before-general   that revision's general path alone: @msgpack/msgpack's Decoder/Encoder plus
//                    the schema walk over the generic values it produces;
//   msgpack-only     @msgpack/msgpack's decode (or encode of the ready wire form) alone, with no
//                    schema walk at all: the floor of any codec built on that library.
// The baseline is rebuilt from git (git show + esbuild) into a temporary directory; without git
// history the two "before" subjects are left out, with the reason.
//
// Values: a tsdb_vpcs state; a tsdb_service planned state with unknowns; a containerbackup restore
// channel with label maps; a value of a schema with nested attributes, sets, maps and nested
// blocks; each alone (repeated) and as 200 and 2,000 distinct values as in a plan. Input bytes
// are written the way Terraform writes them (object keys sorted, as cty does).
//
// Also a cold measurement: each subject decodes and encodes 200 values once in a fresh Node
// process (the plugin is a fresh process at each of Terraform's launches, so its codec mostly
// runs before V8 has optimized it).
//
// Results: bench/results/codec.json (per-value µs, medians of BENCH_ROUNDS rounds, and ratios:
// the median of the per-round ratios).
//
// Parameters (environment): BENCH_ROUNDS (default 15), BENCH_COLD_ROUNDS (default 7; 0: none),
// BENCH_CODEC_BASELINE (a git revision), BENCH_ONLY (e.g. "encode,encodeJsonState"),
// BENCH_SAMPLES (a part of a sample's name, e.g. "tsdb_service"). BENCH_ROUNDS=0: cold only.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { log, median, round } from "./stats.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BASELINE = process.env.BENCH_CODEC_BASELINE ?? "e547fc929bded0b9b0f2229531fe0c63bd8ae989";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const COLD_ROUNDS = Number(process.env.BENCH_COLD_ROUNDS ?? 7);
/** Only these operations (comma-separated: decode, encode, encodeJsonState); all by default. */
const ONLY = process.env.BENCH_ONLY?.split(",");
const UNKNOWN = Symbol.for("schemaform.unknown");

// ---------------------------------------------------------------------------------------------
// schemas and values

function providerSchema(name) {
  const document = JSON.parse(readFileSync(join(ROOT, "generated", "terraform", `${name}.json`), "utf8"));
  return Object.values(document.provider_schemas)[0];
}

/** A schema with every shape the codec compiles: nested attributes, sets, maps, list and single blocks. */
const nestedBlock = {
  attributes: {
    id: { type: "string", computed: true },
    name: { type: "string", required: true },
    size: { type: "number", optional: true },
    ratio: { type: "number", optional: true },
    enabled: { type: "bool", optional: true },
    tags: { type: ["map", "string"], optional: true },
    labels: { type: ["set", "string"], optional: true },
    ports: { type: ["list", "number"], optional: true },
    owner: { type: ["object", { name: "string", email: "string" }], optional: true },
    endpoints: { optional: true, nested_type: { nesting_mode: "list", attributes: { url: { type: "string", required: true }, weight: { type: "number", optional: true } } } },
  },
  block_types: {
    settings: { nesting_mode: "single", block: { attributes: { mode: { type: "string", optional: true }, retries: { type: "number", optional: true } } } },
    rule: {
      nesting_mode: "list",
      block: {
        attributes: { key: { type: "string", required: true }, values: { type: ["set", "string"], optional: true } },
        block_types: { match: { nesting_mode: "single", block: { attributes: { prefix: { type: "string", optional: true } } } } },
      },
    },
  },
};

/** Only the samples whose name contains BENCH_SAMPLES (all by default). */
function samples() {
  return allSamples().filter((sample) => !process.env.BENCH_SAMPLES || sample.name.includes(process.env.BENCH_SAMPLES));
}

function allSamples() {
  const tsdb = providerSchema("tsdb");
  const containerbackup = providerSchema("containerbackup");
  const stamp = "2026-11-24T10:00:00Z";
  return [
    {
      name: "tsdb_vpcs state",
      block: tsdb.resource_schemas.tsdb_vpcs.block,
      value: (i) => ({
        id: `vpc-${100000 + i}`,
        cidr: `10.${i % 250}.0.0/16`,
        region_code: "us-east-1",
        name: `net-${i}`,
        vpcs_id: 100000 + i,
        created: stamp,
        updated: stamp,
        error_message: "",
        project_id: "bench-project",
        provisioned_id: `prov-${i}`,
        status: "CREATED",
        timeouts: null,
      }),
    },
    {
      name: "tsdb_service planned (unknowns)",
      block: tsdb.resource_schemas.tsdb_service.block,
      value: (i) => ({
        id: UNKNOWN,
        name: `db-${i}`,
        milli_cpu: 1000,
        memory_gb: 4,
        region_code: "us-east-1",
        storage_gb: null,
        enable_ha_replica: null,
        ha_replicas: 2,
        sync_replicas: 1,
        connection_pooler_enabled: true,
        environment_tag: "PROD",
        paused: false,
        vpc_id: 100000 + i,
        log_exporter_id: null,
        metric_exporter_id: null,
        read_replica_source: null,
        read_replica_nodes: UNKNOWN,
        password: UNKNOWN,
        password_wo: null,
        password_wo_version: null,
        hostname: UNKNOWN,
        port: UNKNOWN,
        username: UNKNOWN,
        pooler_hostname: UNKNOWN,
        pooler_port: UNKNOWN,
        replica_hostname: UNKNOWN,
        replica_port: UNKNOWN,
        timeouts: { create: "45m", update: null, delete: "30m" },
      }),
    },
    {
      name: "containerbackup_restore_channel state",
      block: containerbackup.resource_schemas.containerbackup_restore_channel.block,
      value: (i) => ({
        id: `projects/bench-project/locations/us-central1/restoreChannels/channel-${i}`,
        destination_project: "projects/restore-target",
        location: "us-central1",
        labels: { team: "platform", env: "prod", index: String(i) },
        name: `channel-${i}`,
        project: "bench-project",
        destination_project_id: "restore-target-4711",
        effective_labels: { team: "platform", env: "prod", index: String(i), "goog-managed": "true" },
        etag: `W/"etag-${i}-0123456789abcdef"`,
        tool_labels: {},
        uid: `0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f${i % 10}`,
        timeouts: null,
      }),
    },
    {
      name: "nested attributes, sets, maps, blocks",
      block: nestedBlock,
      value: (i) => ({
        id: `thing-${i}`,
        name: `thing number ${i} with a name longer than thirty-one bytes`,
        size: i,
        ratio: 0.25 + i,
        enabled: i % 2 === 0,
        tags: { owner: "team-a", cost_center: "cc-42", "région": "ouest" },
        labels: ["blue", "green", `l${i}`],
        ports: [80, 443, 8080 + (i % 100)],
        owner: { name: "Ada", email: "ada@example.com" },
        endpoints: [
          { url: `https://a.example.com/${i}`, weight: 2.5 },
          { url: "https://b.example.com", weight: null },
        ],
        settings: { mode: "fast", retries: 3 },
        rule: [
          { key: "k1", values: ["a", "b"], match: { prefix: "/api" } },
          { key: "k2", values: [], match: null },
        ],
      }),
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// subjects

/** The pre-fold codec (both paths) rebuilt from git, or the reason it could not be. */
async function loadBaseline(work) {
  try {
    const dir = join(work, "baseline", "provider");
    mkdirSync(dir, { recursive: true });
    const show = (path) => execFileSync("git", ["-C", ROOT, "show", `${BASELINE}:${path}`], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    for (const name of ["codec-fast.ts", "schema.ts"]) writeFileSync(join(dir, name), show(`provider/${name}`));
    // The general path's internals are module-private: expose them to the bench only.
    writeFileSync(join(dir, "codec.ts"), `${show("provider/codec.ts")}\nexport { decoder as generalDecoder, encoder as generalEncoder, fromWireBlock, toWireBlock };\n`);
    const { build } = await import("esbuild");
    const outfile = join(work, "baseline.mjs");
    await build({ entryPoints: [join(dir, "codec.ts")], bundle: true, format: "esm", platform: "node", outfile, nodePaths: [join(ROOT, "node_modules")], logLevel: "silent" });
    return { module: await import(pathToFileURL(outfile).href), file: outfile };
  } catch (error) {
    return { reason: `baseline ${BASELINE} could not be rebuilt from git: ${String(error.message ?? error).split("\n")[0]}` };
  }
}

function subjects(codec, baseline, msgpack) {
  const wireDecoder = baseline?.generalDecoder ?? new msgpack.Decoder({ extensionCodec: anyExtension(), useBigInt64: true });
  const wireEncoder = baseline?.generalEncoder ?? new msgpack.Encoder({ ignoreUndefined: false });
  const list = [
    {
      name: "codec",
      decode: (bytes, block) => codec.decodeMsgpack(bytes, block),
      encode: (body, block) => codec.encodeMsgpack(body, block),
      encodeJsonState: (state, block) => codec.encodeJsonState(state, block),
    },
  ];
  if (baseline) {
    list.push(
      {
        name: "before",
        decode: (bytes, block) => baseline.decodeMsgpack(bytes, block),
        encode: (body, block) => baseline.encodeMsgpack(body, block),
        encodeJsonState: (state, block) => baseline.encodeJsonState(state, block),
      },
      {
        name: "before-general",
        decode: (bytes, block) => baseline.fromWireBlock(wireDecoder.decode(bytes), block, [], "msgpack"),
        encode: (body, block) => wireEncoder.encode(baseline.toWireBlock(body, block, [])),
        encodeJsonState: (state, block) => wireEncoder.encode(baseline.toWireBlock(baseline.fromJsonState(state, block), block, [])),
      },
    );
  }
  list.push({
    name: "msgpack-only",
    decode: (bytes) => wireDecoder.decode(bytes),
    // Encodes the wire form prepared beforehand (see `prepare`): the library's share alone.
    encode: (wire) => wireEncoder.encode(wire),
    encodeWire: true,
    encodeJsonState: null,
  });
  return list;
}

/** Every extension type as the unknown marker (what the codec needs from the library). */
function anyExtension() {
  return { __brand: undefined, tryToEncode: () => null, decode: () => UNKNOWN };
}

/** Bodies, their Terraform-shaped bytes, JSON states and wire forms for `n` distinct values. */
function prepare(sample, n, codec, msgpack) {
  const bodies = [];
  const bytes = [];
  const states = [];
  const wires = [];
  const unknownAsExt = new msgpack.ExtData(0, new Uint8Array([0]));
  const toWire = (value) => {
    if (value === UNKNOWN) return unknownAsExt;
    if (Array.isArray(value)) return value.map(toWire);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toWire(v)]));
    return value;
  };
  for (let i = 0; i < n; i++) {
    const body = sample.value(i);
    // Terraform's form: every attribute present, keys sorted (cty sorts an object's attributes).
    const complete = codec.decodeMsgpack(codec.encodeMsgpack(body, sample.block), sample.block);
    const wire = toWire(complete);
    bodies.push(complete);
    wires.push(wire);
    // The protocol decoder hands the codec subarrays of the message buffer.
    const encoded = msgpack.encode(wire, { sortKeys: true });
    const frame = Buffer.alloc(encoded.length + 8);
    frame.set(encoded, 4);
    bytes.push(frame.subarray(4, 4 + encoded.length));
    states.push(JSON.parse(JSON.stringify(complete, (_k, v) => (v === UNKNOWN ? null : v))));
  }
  return { bodies, bytes, states, wires };
}

// ---------------------------------------------------------------------------------------------
// timing

let sink = 0;

/** Nanoseconds per value for one pass of `work` over `inputs`, repeated until at least `minMs`. */
function time(work, inputs, block, minMs = 25) {
  let reps = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  do {
    for (let i = 0; i < inputs.length; i++) {
      const out = work(inputs[i], block);
      sink += out === null ? 0 : 1;
    }
    reps++;
    elapsed = process.hrtime.bigint() - start;
  } while (elapsed < BigInt(minMs * 1e6));
  return Number(elapsed) / (reps * inputs.length);
}

const OPERATIONS = [
  { name: "decode", input: (data) => data.bytes, run: (s) => s.decode },
  { name: "encode", input: (data, s) => (s.encodeWire ? data.wires : data.bodies), run: (s) => s.encode },
  { name: "encodeJsonState", input: (data) => data.states, run: (s) => s.encodeJsonState },
];

async function warm(codec, baseline, msgpack) {
  const results = [];
  const list = subjects(codec, baseline, msgpack);
  for (const sample of samples()) {
    for (const n of [1, 200, 2000]) {
      const data = prepare(sample, n, codec, msgpack);
      for (const operation of OPERATIONS) {
        const runs = new Map();
        if (ONLY && !ONLY.includes(operation.name)) continue;
        const active = list.filter((s) => operation.run(s));
        for (const s of active) {
          runs.set(s.name, []);
          time(operation.run(s), operation.input(data, s), sample.block, 50); // warm-up
        }
        for (let round = 0; round < ROUNDS; round++) {
          const order = active.map((_, i) => active[(i + round) % active.length]);
          for (const s of order) runs.get(s.name).push(time(operation.run(s), operation.input(data, s), sample.block));
        }
        const us = Object.fromEntries([...runs].map(([name, ns]) => [name, round(median(ns) / 1000, 3)]));
        // Median of the per-round ratios: each round's subjects ran back to back, under the same load.
        const ratios = {};
        const mine = runs.get("codec");
        for (const [name, ns] of runs) if (name !== "codec") ratios[`codec/${name}`] = round(median(ns.map((other, i) => mine[i] / other)), 2);
        results.push({ sample: sample.name, n, operation: operation.name, us_per_value: us, ratios });
        log(`${operation.name.padEnd(16)} ${sample.name.padEnd(40)} n=${String(n).padEnd(5)} ${Object.entries(us).map(([k, v]) => `${k} ${v} µs`).join(", ")}  ${Object.entries(ratios).map(([k, v]) => `${k} ${v}`).join(", ")}`);
      }
    }
  }
  return results;
}

function lengthPrefix(length) {
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(length);
  return prefix;
}

/** One fresh process per measurement: decode + encode of 200 values once, the first time. */
function cold(baselineFile, codec, msgpack, work) {
  const results = [];
  const names = ["codec", ...(baselineFile ? ["before", "before-general"] : [])];
  for (const { name: sample, ...rest } of samples()) {
    const { bytes } = prepare({ name: sample, ...rest }, 200, codec, msgpack);
    const inputFile = join(work, "cold-input.bin");
    writeFileSync(inputFile, Buffer.concat(bytes.flatMap((b) => [lengthPrefix(b.length), b])));
    const runs = Object.fromEntries(names.map((name) => [name, []]));
    for (let round = 0; round < COLD_ROUNDS; round++) {
      const order = names.map((_, i) => names[(i + round) % names.length]);
      for (const name of order) {
        const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--cold", name, sample, baselineFile ?? "", inputFile], { encoding: "utf8" });
        if (child.status !== 0) throw new Error(`cold run of ${name} failed: ${child.stderr}`);
        runs[name].push(Number(child.stdout.trim()));
      }
    }
    const ms = Object.fromEntries(names.map((name) => [name, round(median(runs[name]), 2)]));
    const ratios = Object.fromEntries(names.filter((n) => n !== "codec").map((name) => [`codec/${name}`, round(median(runs[name].map((other, i) => runs.codec[i] / other)), 2)]));
    results.push({ sample, n: 200, what: "decode + encode of 200 values, first time in a fresh process", ms, ratios });
    log(`cold ${sample.padEnd(40)} ${Object.entries(ms).map(([k, v]) => `${k} ${v} ms`).join(", ")}  ${Object.entries(ratios).map(([k, v]) => `${k} ${v}`).join(", ")}`);
  }
  return results;
}

async function coldChild(name, sampleName, baselineFile, inputFile) {
  const codec = await import(pathToFileURL(join(ROOT, "dist", "provider", "codec.js")).href);
  const baseline = baselineFile ? await import(pathToFileURL(baselineFile).href) : null;
  const msgpack = await import("@msgpack/msgpack");
  const subject = subjects(codec, baseline, msgpack).find((s) => s.name === name);
  const sample = samples().find((s) => s.name === sampleName);
  // Inputs from the parent (length-prefixed frames), so no codec code has run before the clock starts.
  const file = readFileSync(inputFile);
  const inputs = [];
  for (let at = 0; at < file.length; ) {
    const length = file.readUInt32BE(at);
    inputs.push(file.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  const start = process.hrtime.bigint();
  for (let i = 0; i < inputs.length; i++) {
    const body = subject.decode(inputs[i], sample.block);
    sink += subject.encode(body, sample.block).length;
  }
  process.stdout.write(`${Number(process.hrtime.bigint() - start) / 1e6}\n`);
}

// ---------------------------------------------------------------------------------------------

async function main() {
  if (process.argv[2] === "--cold") return coldChild(process.argv[3], process.argv[4], process.argv[5] || null, process.argv[6]);
  const work = mkdtempSync(join(tmpdir(), "schemaform-bench-codec-"));
  try {
    const msgpack = await import("@msgpack/msgpack");
    const codec = await import(pathToFileURL(join(ROOT, "dist", "provider", "codec.js")).href);
    const loaded = await loadBaseline(work);
    if (loaded.reason) log(loaded.reason);
    const warmResults = ROUNDS > 0 ? await warm(codec, loaded.module ?? null, msgpack) : [];
    const coldResults = COLD_ROUNDS > 0 ? cold(loaded.file ?? null, codec, msgpack, work) : [];
    const results = {
      benchmark: "codec",
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      loadavg: loadavg().map((l) => round(l, 2)),
      rounds: ROUNDS,
      cold_rounds: COLD_ROUNDS,
      baseline: loaded.reason ? { revision: BASELINE, skipped: loaded.reason } : { revision: BASELINE },
      subjects: {
        codec: "provider/codec.ts of this build",
        before: "the baseline's exported codec (compiled fast path, general path on anything unusual)",
        "before-general": "the baseline's general path: @msgpack/msgpack Decoder/Encoder + schema walk",
        "msgpack-only": "@msgpack/msgpack decode (or encode of the prepared wire form) alone, no schema walk",
      },
      warm: warmResults,
      cold: coldResults,
    };
    writeFileSync(join(ROOT, "bench", "results", "codec.json"), `${JSON.stringify(results, null, 2)}\n`);
    log("wrote bench/results/codec.json");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
