#!/usr/bin/env node
// `npm run build`: the build steps (tsc, copy-assets.mjs, build-cjs.mjs, bundle-provider.mjs),
// skipped when nothing they read has changed since the last complete build, so that `npm start`,
// `npm test` and the benches do not rebuild silently every time.
//
// "Nothing changed" is decided from contents, never from timestamps alone: a fingerprint (sha256)
// of every file under the directories tsc compiles (tsconfig.build.json's "include"), of the
// build steps' scripts, of the TypeScript configurations, package.json, package-lock.json and the installed
// dependency tree (node_modules/.package-lock.json, which npm rewrites on every install), and of
// the Node version. The build is skipped only when that fingerprint equals the one recorded by
// the last complete build AND every output that build wrote is still there unchanged (same size
// and modification time): an output deleted or written by anything else (a step run by hand)
// means a full build. The record is written last, after every step succeeded; a failed or
// interrupted build leaves no record, so the next run builds.
//
// When it builds, one line on stderr says why, and tsc runs with --incremental (its build info
// is deleted before a full build: tsc trusts it even when the outputs it lists are gone).
//
//   node scripts/build.mjs            build if needed
//   node scripts/build.mjs --force    build in any case
//   node scripts/build.mjs --check    exit 0 when up to date, 1 when a build is needed (no build)
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(import.meta.url), "..", "..");
const BUILD_SCRIPTS = ["build.mjs", "copy-assets.mjs", "build-cjs.mjs", "bundle-provider.mjs"].map((name) => join("scripts", name));
const INPUT_FILES = [...BUILD_SCRIPTS, "tsconfig.json", "tsconfig.build.json", "package.json", "package-lock.json", join("node_modules", ".package-lock.json")];

/**
 * Where the record of the last complete build and tsc's incremental build info live: beside the
 * build, not in dist/ (which ships in the package).
 */
export function cacheDirectory(root = ROOT) {
  return join(root, "node_modules", ".cache", "schemaform-build");
}

/** Every file under `directory` (relative to root), sorted; none when it does not exist. */
function filesUnder(root, directory) {
  const out = [];
  const walk = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) out.push(relative(root, child));
    }
  };
  if (existsSync(join(root, directory))) walk(join(root, directory));
  return out.sort();
}

/** The directories tsc compiles, from tsconfig.build.json (plain JSON, no comments). */
function sourceDirectories(root) {
  return JSON.parse(readFileSync(join(root, "tsconfig.build.json"), "utf8")).include ?? [];
}

/** sha256 over the paths and contents of every input, and the Node version and platform. */
export function inputFingerprint(root = ROOT) {
  const hash = createHash("sha256");
  hash.update(`${process.version} ${process.platform} ${process.arch}\n`);
  const files = [...sourceDirectories(root).flatMap((directory) => filesUnder(root, directory)), ...INPUT_FILES.filter((file) => existsSync(join(root, file)))];
  for (const file of files) {
    hash.update(`${file}\n`);
    hash.update(createHash("sha256").update(readFileSync(join(root, file))).digest());
  }
  return { fingerprint: hash.digest("hex"), files: files.length };
}

/** A build step's work directory (build-cjs.mjs's `cjs.staging-PID`, `cjs.old-PID`): not an output. */
const TRANSIENT = /(^|[/\\])[^/\\]+\.(staging|old)-\d+([/\\]|$)/;

/** size:mtime of every file in dist/. */
export function outputSignatures(root = ROOT) {
  const out = {};
  for (const file of filesUnder(root, "dist")) {
    if (TRANSIENT.test(file)) continue;
    const stat = statSync(join(root, file));
    out[file] = `${stat.size}:${stat.mtimeMs}`;
  }
  return out;
}

/** The record of the last complete build, or undefined. */
export function readRecord(root = ROOT) {
  try {
    return JSON.parse(readFileSync(join(cacheDirectory(root), "stamp.json"), "utf8"));
  } catch {
    return undefined;
  }
}

/** Records a complete build: the inputs' fingerprint it was made from and the outputs as they are now. */
export function writeRecord(root, fingerprint, extra = {}) {
  mkdirSync(cacheDirectory(root), { recursive: true });
  const path = join(cacheDirectory(root), "stamp.json");
  const temporary = `${path}.${process.pid}`;
  writeFileSync(temporary, `${JSON.stringify({ fingerprint, ...extra, outputs: outputSignatures(root) })}\n`);
  renameSync(temporary, path);
}

/** Why the recorded build's outputs cannot be trusted (a short phrase), or undefined when they can. */
function outputsChanged(root, record) {
  const recorded = Object.entries(record?.outputs ?? {});
  if (recorded.length === 0) return "no complete build recorded";
  const current = outputSignatures(root);
  for (const [file, signature] of recorded) {
    if (current[file] === undefined) return `${file} is missing`;
    if (current[file] !== signature) return `${file} was rewritten since the last build`;
  }
  return undefined;
}

/**
 * Whether a build is needed: { reason } says why (and `outputsIntact` whether tsc may build
 * incrementally), or { reason: undefined } when the recorded build is current.
 */
export function buildNeeded(root = ROOT) {
  const { fingerprint, files } = inputFingerprint(root);
  const record = readRecord(root);
  const damaged = outputsChanged(root, record);
  const reason = damaged ?? (record.fingerprint !== fingerprint ? "sources changed" : undefined);
  return { reason, outputsIntact: damaged === undefined, fingerprint, files };
}

function build(root, reason, outputsIntact) {
  const started = performance.now();
  const buildInfo = join(cacheDirectory(root), "tsconfig.build.tsbuildinfo");
  const steps = [
    ["tsc", [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json", "--incremental", "--tsBuildInfoFile", buildInfo]],
    ["assets", [join(root, "scripts", "copy-assets.mjs")]],
    ["CommonJS", [join(root, "scripts", "build-cjs.mjs")]],
    ["provider bundle", [join(root, "scripts", "bundle-provider.mjs")]],
  ];
  process.stderr.write(`build: ${reason}; building (${steps.map(([name]) => name).join(", ")}) ...\n`);
  rmSync(join(cacheDirectory(root), "stamp.json"), { force: true });
  if (!outputsIntact) rmSync(buildInfo, { force: true });
  for (const [name, args] of steps) {
    const result = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" });
    if (result.status !== 0) {
      process.stderr.write(`build: ${name} failed${result.signal ? ` (${result.signal})` : ""}\n`);
      process.exit(result.status ?? 1);
    }
  }
  makeBinsExecutable(root);
  return performance.now() - started;
}

/**
 * npm makes a package's bin files executable when it installs the package, but not in the
 * package's own checkout, where `npx schemaform` (the README's commands) runs dist/cli/main.js itself.
 */
function makeBinsExecutable(root) {
  const bins = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).bin ?? {};
  for (const file of Object.values(bins)) chmodSync(join(root, file), 0o755);
}

function main() {
  const force = process.argv.includes("--force");
  const needed = buildNeeded(ROOT);
  if (process.argv.includes("--check")) {
    process.stderr.write(needed.reason === undefined ? "build: up to date\n" : `build: needed (${needed.reason})\n`);
    process.exit(needed.reason === undefined ? 0 : 1);
  }
  if (needed.reason === undefined && !force) return;
  const ms = build(ROOT, force ? "--force" : needed.reason, needed.outputsIntact && !force);
  // The fingerprint taken before building: a source edited during the build makes the next run build.
  writeRecord(ROOT, needed.fingerprint, { inputs: needed.files, built_ms: Math.round(ms) });
  process.stderr.write(`build: done in ${(ms / 1000).toFixed(1)} s\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
