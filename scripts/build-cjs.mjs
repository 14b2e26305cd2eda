#!/usr/bin/env node
// Compiles the library entry points (`schemaform`, `schemaform/tsdb`, `schemaform/containerbackup`)
// to CommonJS, twice: once against `cdktf` (dist/cjs/cdktf/) and once against CDK Terrain's
// `cdktn` (dist/cjs/cdktn/), which keeps cdktf's API under another package name.
//
// Why CommonJS only: cdktf and cdktn are CommonJS, and so is the project `cdktf init
// --template=typescript` creates (ts-node, ts-jest). Node loads a CommonJS module for both
// `require` and `import`, so every app gets one copy of each class whichever way it loads the
// package (no dual-package hazard for `instanceof` or token identity). ESM apps import it
// through Node's named-export detection, which the annotation esbuild writes at the end of each
// file feeds.
//
// Each source file is compiled on its own (no bundling), so the module layout, the lazy
// loading of validators and the relative paths stay what they are in the ESM build, and the
// declaration files tsc wrote for that build fit unchanged. The cdktn tree is the cdktf tree with
// the module specifier "cdktf" replaced, so both always come from the same generated code.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ENTRY_POINTS = ["constructs/index.ts", "constructs/tsdb.ts", "constructs/containerbackup.ts"];
const OUT = join(ROOT, "dist", "cjs");
/** The CDK libraries a tree is built against: the first is the one the sources name. */
export const CDK_LIBRARIES = ["cdktf", "cdktn"];

/** Every source file the entry points reach, found by letting esbuild resolve the graph. */
async function sourceGraph() {
  const result = await esbuild.build({
    entryPoints: ENTRY_POINTS,
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    outdir: "unused",
    logLevel: "warning",
    // Only the graph matters: packages and the generated CommonJS validators stay outside it.
    packages: "external",
    external: ["*.cjs"],
  });
  return Object.keys(result.metafile.inputs).filter((path) => path.endsWith(".ts")).sort();
}

/** The module specifier `from` in compiled JavaScript and declarations, replaced by `to`. */
export function renameCdkLibrary(text, from, to) {
  if (from === to) return text;
  const quoted = new RegExp(`(require\\(|from |import\\()(["'])${from}\\2`, "g");
  return text.replace(quoted, (_, before, quote) => `${before}${quote}${to}${quote}`);
}

/**
 * The declaration files tsc wrote for the ESM build (dist/) that the entry points' declarations
 * reach, type-only imports included (the JavaScript graph has none of those).
 */
function declarationGraph(entries) {
  const seen = new Set();
  const pending = [...entries];
  while (pending.length > 0) {
    const path = pending.pop();
    if (seen.has(path)) continue;
    const file = join(ROOT, "dist", path);
    if (!existsSync(file)) throw new Error(`dist/${path} is missing: run tsc first`);
    seen.add(path);
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(/(?:from |import\()["'](\.{1,2}\/[^"']+)["']/g)) {
      // Validators' declarations (.d.cts) are copied with the validators themselves.
      if (specifier.endsWith(".cjs")) continue;
      pending.push(join(dirname(path), specifier).replace(/\.js$/, ".d.ts"));
    }
  }
  return [...seen].sort();
}

function compile(path) {
  const source = readFileSync(join(ROOT, path), "utf8");
  const usesImportMeta = source.includes("import.meta");
  const result = esbuild.transformSync(source, {
    loader: "ts",
    format: "cjs",
    platform: "node",
    target: "node20",
    sourcefile: path,
    // A CommonJS module has no import.meta; its own file URL is what the ESM code asked for.
    define: usesImportMeta ? { "import.meta.url": "__schemaform_module_url" } : undefined,
    banner: usesImportMeta ? 'var __schemaform_module_url = require("node:url").pathToFileURL(__filename).href;' : undefined,
    // `import()` would make Node load the target as ESM beside the CommonJS copy (two copies),
    // and jest's module system cannot run it at all: require() keeps one module system.
    supported: { "dynamic-import": false },
  });
  return result.code;
}

function write(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

async function main() {
  const sources = await sourceGraph();
  // Built beside the old tree and swapped in, so tests and apps running while it builds never
  // find the tree half-written.
  const staging = `${OUT}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  write(join(staging, "package.json"), '{"type":"commonjs"}\n');
  const compiled = sources.map((path) => ({ path, code: compile(path) }));
  const declarations = declarationGraph(ENTRY_POINTS.map((path) => path.replace(/\.ts$/, ".d.ts")));
  const validators = join("generated", "validators");
  for (const library of CDK_LIBRARIES) {
    const tree = join(staging, library);
    for (const { path, code } of compiled) write(join(tree, path.replace(/\.ts$/, ".js")), renameCdkLibrary(code, CDK_LIBRARIES[0], library));
    for (const path of declarations) write(join(tree, path), renameCdkLibrary(readFileSync(join(ROOT, "dist", path), "utf8"), CDK_LIBRARIES[0], library));
    mkdirSync(join(tree, validators), { recursive: true });
    for (const file of readdirValidators()) copyFileSync(join(ROOT, validators, file), join(tree, validators, file));
  }
  const old = `${OUT}.old-${process.pid}`;
  if (existsSync(OUT)) renameSync(OUT, old);
  renameSync(staging, OUT);
  rmSync(old, { recursive: true, force: true });
  console.log(`compiled ${sources.length} modules to CommonJS for ${CDK_LIBRARIES.join(" and ")} in ${relative(ROOT, OUT)}/`);
}

function readdirValidators() {
  return readdirSync(join(ROOT, "generated", "validators")).filter((file) => file.endsWith(".cjs") || file.endsWith(".d.cts"));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
