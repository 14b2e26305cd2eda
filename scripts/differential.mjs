#!/usr/bin/env node
// The differential suite against real Terraform (test/differential/).
//
//   node scripts/differential.mjs record [--category C] [--id TEXT] [--limit N] [--all] [--jobs N]
//     writes each case to a temporary directory, runs `terraform init -backend=false` and
//     `terraform validate -json` with our providers installed into a filesystem mirror (never a
//     registry), and records Terraform's verdict in test/differential/terraform-verdicts.json.
//     Only cases that are new or whose content changed are run, unless --all.
//   node scripts/differential.mjs report [--category C] [--id TEXT] [--limit N] [--write DIR] [--quiet]
//     runs schemaform's validator (dist/) on every case and prints the agreement per category and
//     every disagreement; a run over the whole corpus writes test/differential/agreement.json.
//     --write DIR also writes the files of each disagreeing case to DIR/<case>/.
//   node scripts/differential.mjs write --dir DIR [--category C] [--id TEXT] [--limit N]
//     writes the selected cases' files to DIR/<case>/ (to run terraform on them by hand).
//   node scripts/differential.mjs list [--category C] [--id TEXT]
//   node scripts/differential.mjs known
//   (report and known take --source to check with the language checker's TypeScript sources instead of dist/:
//   node --import tsx scripts/differential.mjs report --source ...)
//     rewrites test/differential/known-differences.json as today's disagreements (keeps reasons).
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { caseHash, DEFAULT_SEED, generateCorpus } from "../test/differential/corpus.mjs";
import { caseDirName, compare, disagreementKind, formatSummary, ourErrors, summarize, writeCase } from "../test/differential/compare.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const suite = join(root, "test", "differential");
const verdictsPath = join(suite, "terraform-verdicts.json");
const agreementPath = join(suite, "agreement.json");
const knownPath = join(suite, "known-differences.json");

function parseArgs(argv) {
  const [command, ...rest] = argv;
  const options = { command, category: null, id: null, limit: Infinity, all: false, jobs: 2, write: null, dir: null, quiet: false, source: false };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const value = () => {
      const v = rest[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === "--category") options.category = value();
    else if (arg === "--id") options.id = value();
    else if (arg === "--limit") options.limit = Number(value());
    else if (arg === "--all") options.all = true;
    else if (arg === "--jobs") options.jobs = Math.max(1, Math.min(2, Number(value())));
    else if (arg === "--write") options.write = value();
    else if (arg === "--dir") options.dir = value();
    else if (arg === "--quiet") options.quiet = true;
    else if (arg === "--source") options.source = true;
    else throw new Error(`unknown option ${arg}`);
  }
  return options;
}

function select(options) {
  let cases = generateCorpus(DEFAULT_SEED);
  if (options.category) cases = cases.filter((c) => c.category === options.category);
  if (options.id) cases = cases.filter((c) => c.id.includes(options.id));
  return cases.slice(0, options.limit);
}

function loadVerdicts() {
  if (!existsSync(verdictsPath)) return { terraform: null, seed: DEFAULT_SEED, cases: {} };
  return JSON.parse(readFileSync(verdictsPath, "utf8"));
}

function saveVerdicts(verdicts) {
  const cases = Object.fromEntries(Object.keys(verdicts.cases).sort().map((k) => [k, verdicts.cases[k]]));
  writeFileSync(verdictsPath, JSON.stringify({ ...verdicts, cases }, null, 1) + "\n");
}

// ---- record ----

function run(cmd, args, cwd, env) {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

function diagnosticsOf(list) {
  return list
    .filter((d) => d.severity === "error")
    .map((d) => ({ summary: d.summary, file: d.range?.filename ?? null, line: d.range?.start?.line ?? null }));
}

async function record(options) {
  const work = join(tmpdir(), `schemaform-differential-${process.pid}`);
  const mirror = join(work, "mirror");
  const install = await run(process.execPath, [join(root, "dist", "cli", "main.js"), "provider", "install", "--dir", mirror], root, process.env);
  if (install.code !== 0) throw new Error(`provider install failed:\n${install.stderr}`);
  // only the mirror: a case that names any other provider fails to install instead of reaching a registry
  const rc = join(work, "terraform.rc");
  writeFileSync(rc, `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ["registry.terraform.io/schemaform/*"]\n  }\n}\n`);
  const env = { ...process.env, TF_CLI_CONFIG_FILE: rc, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" };
  // Terraform's plugin cache is not safe for parallel inits; each init links from the mirror instead
  delete env.TF_PLUGIN_CACHE_DIR;
  delete env.TF_DATA_DIR;
  const version = JSON.parse((await run("terraform", ["version", "-json"], work, env)).stdout).terraform_version;
  // one init first: fails early, with a clear message, when the providers cannot be installed
  const warm = join(work, "warm");
  writeCase(warm, { files: { "main.tf.json": JSON.stringify({ terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" }, containerbackup: { source: "schemaform/containerbackup" } } } }) } });
  const warmed = await run("terraform", ["init", "-backend=false", "-input=false", "-no-color"], warm, env);
  if (warmed.code !== 0) throw new Error(`terraform init failed on an empty configuration:\n${warmed.stdout}${warmed.stderr}`);

  const verdicts = loadVerdicts();
  if (verdicts.terraform && verdicts.terraform !== version) console.log(`recorded with Terraform ${verdicts.terraform}, now ${version}: re-recording everything`);
  const all = verdicts.terraform !== version || options.all;
  verdicts.terraform = version;
  verdicts.seed = DEFAULT_SEED;
  const cases = select(options);
  if (!options.category && !options.id && options.limit === Infinity) {
    const ids = new Set(cases.map((c) => c.id));
    for (const id of Object.keys(verdicts.cases)) if (!ids.has(id)) delete verdicts.cases[id];
  }
  const infrastructureFailure = (v) => v.errors.some((e) => e.file === null && INFRASTRUCTURE.test(e.summary));
  const pending = cases.filter((c) => all || verdicts.cases[c.id]?.hash !== caseHash(c) || infrastructureFailure(verdicts.cases[c.id]));
  console.log(`${cases.length} cases, ${pending.length} to record with Terraform ${version}`);
  let done = 0;
  const started = Date.now();
  const worker = async () => {
    for (;;) {
      const c = pending.shift();
      if (!c) return;
      const dir = join(work, "cases", caseDirName(c.id));
      for (let attempt = 0; ; attempt++) {
        writeCase(dir, c);
        const init = await run("terraform", ["init", "-backend=false", "-input=false", "-no-color", "-json"], dir, env);
        const validate = await run("terraform", ["validate", "-json", "-no-color"], dir, env);
        const verdict = verdictOf(c, init, validate);
        verdicts.cases[c.id] = verdict;
        // a provider that failed to start is the machine's problem, not the case's: try again
        if (attempt >= 2 || !verdict.errors.some((e) => e.file === null && INFRASTRUCTURE.test(e.summary))) break;
      }
      rmSync(dir, { recursive: true, force: true });
      if (++done % 50 === 0) {
        saveVerdicts(verdicts);
        console.log(`${done}/${done + pending.length} (${Math.round((Date.now() - started) / 1000)} s)`);
      }
    }
  };
  await Promise.all(Array.from({ length: options.jobs }, worker));
  saveVerdicts(verdicts);
  rmSync(work, { recursive: true, force: true });
  const valid = Object.values(verdicts.cases).filter((v) => v.valid).length;
  console.log(`recorded ${done} cases in ${Math.round((Date.now() - started) / 1000)} s; ${valid} of ${Object.keys(verdicts.cases).length} valid`);
}

const INIT_PREAMBLE = /^Terraform encountered problems during initiali[sz]ation/;
const INFRASTRUCTURE = /no such file or directory|Failed to load plugin schemas|no package for|could not read package|plugin exited|timeout/i;

/**
 * Terraform's verdict on a case: validate's diagnostics, unless init failed (a user never gets to
 * validate then): init's. The first error is the first one Terraform prints.
 */
function verdictOf(c, init, validate) {
  let errors = [];
  let stage = "validate";
  if (init.code !== 0) {
    stage = "init";
    for (const line of init.stdout.split("\n")) {
      if (!line.startsWith("{")) continue;
      try {
        const event = JSON.parse(line);
        if (event.type === "diagnostic" && event.diagnostic) errors.push(...diagnosticsOf([event.diagnostic]));
      } catch {
        // not a JSON event
      }
    }
    // init adds a summary of its own ("Terraform encountered problems during initialisation...") after the configuration's errors
    const own = errors.filter((e) => e.file === null && INIT_PREAMBLE.test(e.summary));
    if (own.length < errors.length) errors = errors.filter((e) => !own.includes(e));
    if (errors.length === 0) errors.push({ summary: (init.stderr || init.stdout).trim().split("\n")[0] || "terraform init failed", file: null, line: null });
  } else {
    try {
      const result = JSON.parse(validate.stdout);
      errors = diagnosticsOf(result.diagnostics ?? []);
      if (!result.valid && errors.length === 0) errors.push({ summary: "invalid (no error diagnostic)", file: null, line: null });
    } catch {
      errors.push({ summary: `terraform validate printed no JSON: ${(validate.stderr || validate.stdout).trim().split("\n")[0]}`, file: null, line: null });
    }
  }
  const first = errors[0] && errors[0].file !== null ? { file: errors[0].file, line: errors[0].line } : null;
  return { hash: caseHash(c), category: c.category, valid: errors.length === 0, stage, first, errors };
}

// ---- report ----

/** Runs our validator on the selected recorded cases; returns outcomes and disagreements. */
async function evaluate(options) {
  // --source: the TypeScript sources instead of the build (run with node --import tsx)
  const { validateFiles } = await import(options.source ? join(root, "language", "index.ts") : join(root, "dist", "language", "index.js"));
  const verdicts = loadVerdicts();
  const cases = select(options);
  const work = join(tmpdir(), `schemaform-differential-report-${process.pid}`);
  const results = [];
  const disagreements = [];
  let stale = 0;
  for (const c of cases) {
    const recorded = verdicts.cases[c.id];
    if (!recorded || recorded.hash !== caseHash(c)) {
      stale++;
      continue;
    }
    const dir = join(work, caseDirName(c.id));
    writeCase(dir, c);
    const ours = await ourErrors(validateFiles, dir);
    const outcome = compare(recorded, ours);
    results.push({ id: c.id, category: c.category, round: c.round, ...outcome });
    const kind = disagreementKind(recorded, outcome);
    if (kind) {
      disagreements.push({ c, recorded, ours, kind });
      if (options.write) writeCase(join(options.write, caseDirName(c.id)), c);
    }
  }
  rmSync(work, { recursive: true, force: true });
  return { verdicts, results, disagreements, stale };
}

const KIND_TEXT = { crash: "CRASH (no verdict)", missed: "MISSED (Terraform rejects)", "false-positive": "FALSE POSITIVE (Terraform accepts)", line: "LINE (first error elsewhere)" };

async function report(options) {
  const { verdicts, results, disagreements, stale } = await evaluate(options);
  if (!options.quiet) {
    for (const { c, recorded, ours, kind } of disagreements) {
      console.log(`\n${c.id}  [${c.category}]  ${KIND_TEXT[kind]}${options.write ? `  -> ${join(options.write, caseDirName(c.id))}` : ""}`);
      for (const e of recorded.errors.slice(0, 4)) console.log(`  terraform: ${e.file ?? "-"}:${e.line ?? "-"} ${e.summary}`);
      for (const e of ours.slice(0, 4)) console.log(`  ours:      ${e.file}:${e.line} ${e.source === "schemaform" ? "(schemaform, not counted) " : ""}${e.message.split("\n")[0].slice(0, 160)}`);
    }
  }
  const summary = summarize(results);
  console.log(`\n${formatSummary(summary)}`);
  const rounds = roundsOf(results);
  for (const [round, now] of Object.entries(rounds)) console.log(`round ${round}: ${formatSummary({ categories: {}, overall: now.overall }).replace(/^overall\s*/, "")}`);
  if (stale > 0) console.log(`\n${stale} cases not recorded or changed since recording: run npm run differential:record`);
  if (!options.category && !options.id && options.limit === Infinity && stale === 0) {
    // a round's first full report is its honest number (measured before any fix): kept as "before"
    const previous = existsSync(agreementPath) ? JSON.parse(readFileSync(agreementPath, "utf8")).rounds ?? {} : {};
    const kept = Object.fromEntries(
      Object.entries(rounds).map(([round, now]) => [round, { before: previous[round]?.before ?? now.overall, now: now.overall, categories: now.categories }]),
    );
    writeFileSync(agreementPath, JSON.stringify({ terraform: verdicts.terraform, seed: verdicts.seed, ...summary, rounds: { ...previous, ...kept } }, null, 2) + "\n");
    console.log(`wrote ${agreementPath}`);
  }
}

/** The agreement of each round measured on its own (cases that carry `round`). */
function roundsOf(results) {
  const byRound = new Map();
  for (const r of results) if (r.round) (byRound.get(r.round) ?? byRound.set(r.round, []).get(r.round)).push(r);
  return Object.fromEntries([...byRound].map(([round, list]) => [round, summarize(list)]));
}

/**
 * Rewrites known-differences.json as today's disagreements (over the whole corpus), keeping the
 * reason already written for a case that is still listed.
 */
async function known(options) {
  if (options.category || options.id || options.limit !== Infinity) throw new Error("known works on the whole corpus only");
  const { disagreements, stale } = await evaluate(options);
  if (stale > 0) throw new Error(`${stale} cases are not recorded or changed: run record first`);
  const previous = existsSync(knownPath) ? new Map(JSON.parse(readFileSync(knownPath, "utf8")).cases.map((k) => [k.id, k])) : new Map();
  const cases = disagreements.map(({ c, recorded, kind }) => {
    const first = recorded.errors[0];
    const terraform = first ? `${first.file ?? "-"}:${first.line ?? "-"} ${first.summary}` : "valid";
    const old = previous.get(c.id);
    const why = old && old.kind === kind ? old.why : WHY[kind];
    return { id: c.id, category: c.category, kind, terraform, why };
  });
  writeFileSync(knownPath, JSON.stringify({ about: KNOWN_ABOUT, cases }, null, 1) + "\n");
  console.log(`wrote ${cases.length} known differences to ${knownPath}`);
}

const KNOWN_ABOUT = "Cases of the differential corpus where schemaform does not (yet) give Terraform's verdict or first error line. differential.test.ts fails on any other disagreement and on a listed case that now agrees. Regenerate with node scripts/differential.mjs known (keeps existing reasons).";
const WHY = {
  missed: "not checked yet: Terraform rejects this at validate, schemaform accepts it",
  "false-positive": "schemaform rejects a configuration Terraform accepts",
  line: "both reject, but no schemaform error is on Terraform's first error line",
  crash: "schemaform throws instead of giving a verdict",
};

// ---- write / list ----

function writeSelected(options) {
  if (!options.dir) throw new Error("write needs --dir DIR");
  for (const c of select(options)) {
    writeCase(join(options.dir, caseDirName(c.id)), c);
    console.log(join(options.dir, caseDirName(c.id)));
  }
}

function list(options) {
  const verdicts = loadVerdicts();
  for (const c of select(options)) {
    const v = verdicts.cases[c.id];
    const state = !v ? "unrecorded" : v.hash !== caseHash(c) ? "changed" : v.valid ? "valid" : `invalid ${v.first ? `${v.first.file}:${v.first.line}` : "-"} ${v.errors[0].summary}`;
    console.log(`${c.id}  ${state}`);
  }
}

const options = parseArgs(process.argv.slice(2));
const commands = { record, report, known, write: writeSelected, list };
if (!commands[options.command]) {
  console.error("usage: node scripts/differential.mjs record|report|known|write|list [--category C] [--id TEXT] [--limit N] ...");
  process.exit(2);
}
await commands[options.command](options);
