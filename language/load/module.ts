// Validation of a module: one or more *.tf.json files read together, as Terraform reads a
// directory. Parses every file and declares every block first, so that references resolve as
// they are found (none is kept for later); then checks the language rules, converts and
// validates the blocks of our types, and checks across blocks; returns diagnostics with lines
// and columns. A context-only file (the sibling of a file named alone) lends its declarations.
import { dirname, resolve } from "node:path";
import { isTypeKey, loadType, loadedType, validatePreparedBody } from "../schema/body.js";
import { BlockNames, nameHash } from "../config/block-names.js";
import { Ctx, unchecked, newSourceFile, quote, repetitionOf, type SourceFile } from "../config/context.js";
import { compareDiagnostics, sourceOf, type Diagnostic, type RawDiagnostic } from "../syntax/diagnostics.js";
import { mergeOverrides } from "./merge-overrides.js";
import { blockDone, checkReference, finishCrossReferences, startNamedReferences } from "../schema/cross-references.js";
import type { TypeModel } from "../schema/model-types.js";
import { K_ARRAY, K_NUMBER, K_OBJECT, type JsonDoc } from "../syntax/json-parser.js";
import { checkResource } from "../config/resource.js";
import { checkProvider } from "../config/provider.js";
import { checkModuleLevelRules } from "../config/module-rules.js";
import { declNode } from "../config/moved-import-removed.js";
import { checkCycles, DependencyGraph } from "../config/dependency-graph.js";
import { setLocalCalls } from "../config/module-calls.js";
import type { LocalCalls, ParsedFile } from "../config/module-summary.js";
import { parseSource } from "./parse-file.js";
import { checkTestFile, isTestFileName } from "./test-files.js";
import { setDeclaredProviders } from "../expr/functions.js";
import { forgetLastTemplate } from "../expr/templates.js";
import { forgetFastReferences } from "../schema/reference-fast-paths.js";
import { forgetPlainTemplates } from "../schema/plain-template.js";
import { forgetLastEvaluation } from "../config/known-values.js";
import { moduleFilesAt, type ModuleFiles } from "../expr/module-files.js";
import { requiredProviderNames } from "../config/required-providers.js";
import { addressOf, labelsOf, type BlockDecl } from "../config/declarations.js";
import { childModules } from "../config/module-summary.js";
import { loadLocalCalls } from "./local-modules.js";
import { checkRoot, checkDeclaredBodies } from "../config/root.js";
import { judgeRepetition } from "../config/scope.js";
import { deferUnexpandedContent } from "../config/dynamic-blocks.js";
import { where } from "../config/common-errors.js";
import { type TypeSource } from "../schema/convert-state.js";
import type { NativeSource } from "../syntax/native/lower.js";
import { LineMap } from "../syntax/positions.js";

export interface ModuleFile {
  /** shown in diagnostics */
  name: string;
  text: string;
  /** read only so that its declarations count; its own diagnostics are not reported */
  contextOnly?: boolean;
  /** offsets in `text` of U+FFFD characters that stand for bytes that were not valid UTF-8 (see utf8.ts) */
  replaced?: number[];
}

export interface ModuleResult {
  diagnostics: Diagnostic[];
  /** per file name: text and the ranges of sensitive values (for code frames) */
  sources: Map<string, { text: string; sensitive: [number, number][] }>;
}

/** Our types, from the generated models and validators (schema/body.ts). */
export const generatedTypes: TypeSource = {
  model(key: string): TypeModel | undefined {
    if (!isTypeKey(key)) return undefined;
    return loadedType(key).model; // throws when not loaded: callers load first
  },
  // canonical bodies never hold null or undefined property values: no need for prepareBody's copy
  validate: (key, body) => validatePreparedBody(key, body),
  check(key, body) {
    // blocks come in runs of one type: the type's validator is looked up once per run
    if (key !== lastChecked) {
      lastValidator = loadedType(key).validator;
      lastChecked = key;
    }
    return lastValidator!(body) === true;
  },
};

let lastChecked = "";

let lastValidator: ((body: unknown) => boolean) | null = null;

/** The type keys of our providers that a parsed document uses. */
export function typeKeysOf(doc: JsonDoc): Set<string> {
  const keys = new Set<string>();
  const visitTop = (object: number) => {
    for (const k of doc.members(object)) {
      const block = doc.str(k);
      if (block === "resource" || block === "data" || block === "ephemeral") labelsOf(k + 1, (type) => keys.add(`${block}.${type}`));
      else if (block === "provider") labelsOf(k + 1, (name) => keys.add(`provider.${name}`));
      else if (block === "check") {
        labelsOf(k + 1, (_name, checkBody) => {
          forObjects(checkBody, (body) => {
            for (const m of doc.members(body)) if (doc.str(m) === "data") labelsOf(m + 1, (type) => keys.add(`data.${type}`));
          });
        });
      }
    }
  };
  const forObjects = (node: number, each: (object: number) => void) => {
    if (doc.kinds[node] === K_OBJECT) each(node);
    else if (doc.kinds[node] === K_ARRAY) for (const e of doc.elements(node)) if (doc.kinds[e] === K_OBJECT) each(e);
  };
  const labelsOf = (node: number, each: (label: string, value: number) => void) => {
    forObjects(node, (object) => {
      for (const k of doc.members(object)) each(doc.str(k), k + 1);
    });
  };
  forObjects(0, visitTop);
  for (const key of keys) if (!isTypeKey(key)) keys.delete(key);
  return keys;
}

export interface ModuleOptions {
  /**
   * Read the local modules ("./x", "../x") the files call, from the file system (relative to
   * each file's name): check the calls against them and validate their files too.
   */
  localModules?: boolean;
  /**
   * file() and templatefile() read the files they name, as Terraform does at validate: relative to
   * the directory of the first file (the root module's), the module being read from disk.
   */
  files?: boolean;
}

/** Loads the models and validators of every type the files use (lazily, once per type). */
export async function validateModule(allFiles: ModuleFile[], types?: TypeSource, options: ModuleOptions = {}): Promise<ModuleResult> {
  // test files are read apart: their own blocks, nothing they declare is the module's
  const tests = allFiles.filter((f) => isTestFileName(f.name));
  const files = tests.length > 0 ? allFiles.filter((f) => !isTestFileName(f.name)) : allFiles;
  const result = await validateConfiguration(files, types, options);
  if (tests.length === 0) return result;
  for (const test of tests) {
    // a run's local module source is a directory of the module (read from disk only when the module is)
    const root = options.localModules && files.length > 0 ? dirname(files[0]!.name) : null;
    if (!test.contextOnly) for (const d of checkTestFile(test, root)) result.diagnostics.push(d);
    result.sources.set(test.name, { text: test.text, sensitive: [] });
  }
  result.diagnostics.sort(compareDiagnostics);
  return result;
}

async function validateConfiguration(files: ModuleFile[], types: TypeSource | undefined, options: ModuleOptions): Promise<ModuleResult> {
  const parsed = files.map((f) => ({ file: f, ...parseSource(f.name, f.text) }));
  // the module's own directory is the first on the stack: a child calling it back is a loop
  const calls = options.localModules && files.length > 0 ? loadLocalCalls(parsed, [resolve(dirname(files[0]!.name))]) : null;
  const children = calls ? [...childModules(calls).values()] : [];
  if (!types) {
    const keys = new Set<string>();
    for (const p of parsed) if (p.result.ok) for (const k of typeKeysOf(p.result.doc)) keys.add(k);
    for (const child of children) for (const p of child.files) if (p.result.ok) for (const k of typeKeysOf(p.result.doc)) keys.add(k);
    await Promise.all([...keys].map((k) => loadType(k)));
  }
  const root = options.files && files.length > 0 ? resolve(dirname(files[0]!.name)) : null;
  try {
    const result = run(parsed, types ?? generatedTypes, calls, false, root === null ? null : moduleFilesAt(root, root));
    if (children.length === 0) return result;
    // terraform validate validates the modules a module calls, each problem at its own file
    for (const child of children) {
      const own = run(child.files, types ?? generatedTypes, child.calls, true, root === null ? null : moduleFilesAt(root, child.dir));
      for (const d of own.diagnostics) result.diagnostics.push(d);
      for (const [name, source] of own.sources) result.sources.set(name, source);
    }
    result.diagnostics.sort(compareDiagnostics);
    return result;
  } finally {
    release(parsed);
    for (const child of children) release(child.files);
  }
}

/** Like validateModule, when the types are already loaded (see preloadTypes) or supplied. */
export function validateModuleSync(files: ModuleFile[], types: TypeSource = generatedTypes): ModuleResult {
  const parsed = files.map((f) => ({ file: f, ...parseSource(f.name, f.text) }));
  try {
    return run(parsed, types);
  } finally {
    release(parsed);
  }
}

/** The parsed files' trees, once validation is done with them: nothing in a ModuleResult refers to them, and the next parse reuses their arrays. */
function release(parsed: ParsedFile[]): void {
  for (const p of parsed) p.result.doc?.release();
}

function run(parsed: ParsedFile[], types: TypeSource, calls: LocalCalls | null = null, isChild = false, files: ModuleFiles | null = null): ModuleResult {
  const originals: SourceFile[] = parsed.map((p) => newSourceFile(p.file.name, p.native ? p.result.doc!.text : p.file.text, p.result.ok ? p.result.doc : null, p.file.contextOnly === true, p.native));
  // the rules read overridden blocks as Terraform decodes them: merged (merge-overrides.ts)
  const mergeProblems: RawDiagnostic[] = [];
  const sources = mergeOverrides(originals, mergeProblems);
  const ctx = new Ctx(sources);
  ctx.moduleFiles = files;
  for (const problem of mergeProblems) ctx.diagnostics.push(problem);
  // provider functions name providers of this module's required_providers (functions.ts)
  setDeclaredProviders(requiredProviderNames(parsed.map((p) => (p.result.ok ? p.result.doc : null))));
  forgetLastTemplate();
  ctx.dependencies = new DependencyGraph();
  if (calls) setLocalCalls(ctx, calls);
  ctx.isChild = isChild;
  parsed.forEach((p, i) => {
    if (!p.result.ok) {
      reportInvalidUtf8(ctx, p.file, i);
      // a native file's syntax errors, every one of them (HCL reads on after some)
      for (const problem of p.nativeProblems ?? [p.result.problem]) ctx.report("error", p.nativeProblems ? "syntax" : "json-syntax", `${problem.summary}: ${problem.detail}`, problem.offset, problem.endOffset, null, null, i);
      return;
    }
    // a native file's offsets in the diagnostics are of its lowered JSON: its invalid bytes are found by the native reader's positions only
    if (!p.native) reportInvalidUtf8(ctx, p.file, i);
    ctx.use(i);
    const syntax = p.jsonProblem;
    if (syntax) ctx.report("error", "json-syntax", `${syntax.summary}: ${syntax.detail}`, syntax.offset, syntax.endOffset, null, null, i);
    // the parser reads past a byte order mark so that the rest is checked too; Terraform refuses it
    if (!p.native && p.file.text.charCodeAt(0) === 0xfeff) {
      ctx.report("error", "json-syntax", "Invalid start of value: A JSON value must start with a brace, a bracket, a number, a string, or a keyword (this file starts with a byte order mark, which Terraform does not accept; save it as UTF-8 without BOM).", 0, 1, null, null, i);
    }
    checkRoot(ctx, { resource: (decl) => register(ctx, decl, types), provider: (decl) => registerProvider(ctx, decl, types) });
  });
  checkDuplicates(ctx);
  // every block is declared now: references resolve as they are found
  ctx.referenceSink = (found) => checkReference(ctx, found);
  for (const found of ctx.references) checkReference(ctx, found);
  ctx.references.length = 0;
  startNamedReferences(ctx);
  checkDeclaredBodies(ctx);
  checkModuleLevelRules(ctx);
  // each and count references are collected per block and judged once its count / for_each is known
  const repetitionRefs = ctx.blockRepetitionRefs;
  for (const decl of ctx.pending) {
    // a context-only file lends its declarations; its bodies are converted only when needed (below)
    if (sources[decl.file]!.contextOnly) continue;
    // a resource or data block of an override file is merged into another, not checked alone (overrides.ts, merge-overrides.ts)
    if ((sources[decl.file]!.override && decl.blockType !== "provider") || unchecked(ctx, decl)) continue;
    ctx.use(decl.file);
    ctx.currentBlock = decl;
    if (decl.blockType === "provider") checkProvider(ctx, decl, types);
    else {
      ctx.repetitionRefs = repetitionRefs;
      checkResource(ctx, decl, types);
      ctx.repetitionRefs = null;
      if (repetitionRefs.length > 0) {
        judgeRepetition(ctx, repetitionRefs, repetitionOf(ctx, decl));
        repetitionRefs.length = 0;
      }
    }
    ctx.currentBlock = null;
    blockDone(ctx, decl);
  }
  // a region rule compares with a block of a context-only file: that block's region needs its body
  for (const { check } of ctx.pendingRegions) {
    // an override file's block is merged, never checked alone: its region stays unknown
    if (check.target.done || sources[check.target.file]!.override) continue;
    ctx.use(check.target.file);
    checkResource(ctx, check.target, types);
    check.target.done = true;
  }
  finishCrossReferences(ctx);
  // every body has been read: the dependency graph is complete
  checkCycles(ctx);
  deferUnexpandedContent(ctx);
  const diagnostics: Diagnostic[] = [];
  for (const merged of sources) if (merged.origin) keepSensitive(merged, originals);
  for (const found of ctx.diagnostics) {
    // Terraform reads a merged body's arguments by the names it knows and ignores the others (module_merge_body.go)
    if (sources[found.file]!.mergedKeys?.has(found.start) && (found.code === "unknown-argument" || found.code === "module-argument")) continue;
    const raw = sources[found.file]!.origin ? fromOrigin(found, sources[found.file]!.origin!) : found;
    const source = originals[raw.file]!;
    if (source.contextOnly) continue;
    const start = source.lines.position(raw.start);
    const end = source.lines.position(Math.max(raw.end, raw.start));
    const d: Diagnostic = {
      severity: raw.severity,
      message: source.native ? nativeWording(raw.message, source.native.blockKeys.has(raw.start)) : raw.message,
      file: source.name,
      line: start.line + (raw.within?.lines ?? 0),
      column: raw.within?.column ?? start.column,
      endLine: raw.within ? start.line + raw.within.lines : end.line,
      endColumn: raw.within ? raw.within.column + Math.max(raw.end - raw.start, 1) : end.column,
      address: raw.address,
      path: raw.path,
      code: raw.code,
      source: sourceOf(raw.code),
    };
    diagnostics.push(d);
  }
  for (const source of sources) if (source.native && !source.contextOnly) for (const d of structureDiagnostics(source.name, source.native)) diagnostics.push(d);
  setDeclaredProviders(null);
  forgetLastTemplate();
  forgetFastReferences();
  forgetPlainTemplates();
  forgetLastEvaluation();
  diagnostics.sort(compareDiagnostics);
  return { diagnostics: dedupe(diagnostics), sources: new Map(originals.map((s) => [s.name, shownSource(s)])) };
}

/** A diagnostic of a merged file at the file and offsets its range came from. */
function fromOrigin(raw: RawDiagnostic, origin: (offset: number) => { file: number; offset: number }): RawDiagnostic {
  const start = origin(raw.start);
  const last = raw.end > raw.start ? origin(raw.end - 1) : start;
  const end = last.file === start.file && last.offset >= start.offset ? last.offset + (raw.end > raw.start ? 1 : 0) : start.offset + 1;
  return { ...raw, file: start.file, start: start.offset, end };
}

/** Sensitive ranges found in a merged file, given to the files they came from (for their code frames). */
function keepSensitive(merged: SourceFile, originals: SourceFile[]): void {
  const origin = merged.origin!;
  for (let i = 0; i + 1 < merged.sensitive.length; i += 2) {
    const range = fromOrigin({ severity: "error", code: "", message: "", file: 0, start: merged.sensitive[i]!, end: merged.sensitive[i + 1]!, address: null, path: null }, origin);
    originals[range.file]!.sensitive.push(range.start, range.end);
  }
}

/** A native file's block-structure problems (load/parse-file.ts), at their places in its own text. */
function structureDiagnostics(name: string, native: NativeSource): Diagnostic[] {
  if (native.problems.length === 0) return [];
  const lines = new LineMap(native.text);
  return native.problems.map((p) => {
    const start = lines.position(p.offset);
    const end = lines.position(Math.max(p.endOffset, p.offset));
    return { severity: "error", message: `${p.summary}: ${p.detail}`, file: name, line: start.line, column: start.column, endLine: end.line, endColumn: end.column, address: null, path: null, code: "syntax", source: sourceOf("syntax") };
  });
}

/**
 * Terraform's words for a native file where they differ from the JSON syntax's: a name that is
 * neither argument nor block is an "Unsupported argument" or "Unsupported block type" there.
 */
function nativeWording(message: string, block: boolean): string {
  const unknown = /^Extraneous JSON object property: No argument or block type is named ("(?:[^"\\]|\\.)*")\.(.*)$/s.exec(message);
  if (unknown === null) return message;
  return block ? `Unsupported block type: Blocks of type ${unknown[1]} are not expected here.${unknown[2]}` : `Unsupported argument: An argument named ${unknown[1]} is not expected here.${unknown[2]}`;
}

/** A file's text as the user wrote it (a native file's own, not its lowered JSON) and its sensitive ranges there. */
function shownSource(s: SourceFile): { text: string; sensitive: [number, number][] } {
  if (!s.native) return { text: s.text, sensitive: pairs(s.sensitive) };
  const toNative = s.native.toNative;
  return { text: s.native.text, sensitive: pairs(s.sensitive).map(([a, b]) => [toNative(a), toNative(b)] as [number, number]) };
}

/** Terraform raises no error for bytes that are not UTF-8 (it reads each as U+FFFD): a warning says where. */
function reportInvalidUtf8(ctx: Ctx, file: ModuleFile, index: number): void {
  const replaced = file.replaced;
  if (!replaced || replaced.length === 0) return;
  const count = replaced.length === 1 ? "A byte" : `${replaced.length} bytes`;
  ctx.report(
    "warning",
    "invalid-utf8",
    `Invalid UTF-8: ${count} of this file ${replaced.length === 1 ? "is" : "are"} not valid UTF-8 (the first here). Terraform reads each such byte as the replacement character "\ufffd" without an error, so a name or value holding one is not what the file says; save the file as UTF-8.`,
    replaced[0]!,
    replaced[0]! + 1,
    null,
    null,
    index,
  );
}

function pairs(flat: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
  return out;
}

/**
 * Drops a diagnostic that repeats an earlier one (same file, position and message). The list is
 * sorted, so repeats share a run of one position: messages are compared within runs only, not
 * hashed for every diagnostic of the file.
 */
function dedupe(list: Diagnostic[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  let runStart = 0;
  let seen: Set<string> | null = null;
  for (const d of list) {
    const first = out[runStart];
    if (first === undefined || first.file !== d.file || first.line !== d.line || first.column !== d.column) {
      runStart = out.length;
      seen = null;
    } else {
      seen ??= new Set(out.slice(runStart).map((e) => e.message));
      if (seen.has(d.message)) continue;
      seen.add(d.message);
    }
    out.push(d);
  }
  return out;
}

/** Summary and detail of a second block of a kind, given its labels; `%s` is where the first is. */
const DUPLICATE_WORDING: Record<string, (labels: string[]) => [string, string]> = {
  resource: ([type, name]) => [`Duplicate resource ${quote(type!)} configuration`, `A ${type} resource named ${quote(name!)} was already declared at %s. Resource names must be unique per type in each module.`],
  data: ([type, name]) => [`Duplicate data ${quote(type!)} configuration`, `A ${type} data resource named ${quote(name!)} was already declared at %s. Resource names must be unique per type in each module.`],
  ephemeral: ([type, name]) => [`Duplicate ephemeral ${quote(type!)} configuration`, `A ${type} ephemeral resource named ${quote(name!)} was already declared at %s.`],
  variable: ([name]) => ["Duplicate variable declaration", `A variable named ${quote(name!)} was already declared at %s. Variable names must be unique within a module.`],
  output: ([name]) => ["Duplicate output definition", `An output named ${quote(name!)} was already defined at %s. Output names must be unique within a module.`],
  module: ([name]) => ["Duplicate module call", `A module call named ${quote(name!)} was already defined at %s. Module calls must have unique names within a module.`],
  check: ([name]) => ["Duplicate check block", `A check block named ${quote(name!)} was already defined at %s.`],
  provider: ([name, alias]) =>
    alias
      ? ["Duplicate provider configuration", `A provider configuration for ${quote(name!)} with alias ${quote(alias)} was already given at %s. Each configuration for the same provider must have a distinct alias.`]
      : ["Duplicate provider configuration", `A default (non-aliased) provider configuration for ${quote(name!)} was already given at %s. If multiple configurations are required, set the "alias" argument for alternative configurations.`],
};

/** The model of a block type, looked up once per type and run (most blocks share a few types). */
function modelOf(ctx: Ctx, types: TypeSource, blockType: string, type: string): TypeModel | undefined {
  let byType = ctx.models.get(blockType);
  if (!byType) ctx.models.set(blockType, (byType = new Map()));
  let model = byType.get(type);
  if (model === undefined) {
    model = types.model(`${blockType}.${type}`) ?? null;
    byType.set(type, model);
  }
  return model ?? undefined;
}

function registerProvider(ctx: Ctx, decl: BlockDecl, types: TypeSource): void {
  ctx.pending.push(decl);
  const model = modelOf(ctx, types, "provider", decl.type);
  if (model) decl.model = model;
  const doc = ctx.doc;
  for (const k of doc.members(decl.body)) {
    // a number is an alias too (converted to a string), if an invalid one
    if (doc.str(k) === "alias" && (doc.isString(k + 1) || doc.kinds[k + 1] === K_NUMBER)) decl.labelList = [decl.type, doc.isString(k + 1) ? doc.str(k + 1) : doc.raw(k + 1)];
  }
}

/**
 * How many blocks the object holding the first block of a type declares (the names of a type's
 * blocks are one object's keys): 0 when that object is not just before it.
 */
function namesAhead(doc: JsonDoc, header: number): number {
  const object = header - 1;
  return object >= 0 && doc.kinds[object] === K_OBJECT && doc.nexts[object]! > header ? doc.count(object) : 0;
}

/** Declares a resource or data block (duplicates are reported here) and queues its check. */
function register(ctx: Ctx, decl: BlockDecl, types: TypeSource): void {
  ctx.pending.push(decl);
  // blocks come in runs of one type (the same label string): look the type up once per run
  let last = ctx.lastType;
  if (last === null || last.type !== decl.type || last.blockType !== decl.blockType) {
    let names: BlockNames | null = null;
    if (decl.blockType === "resource" || decl.blockType === "data") {
      const byType = ctx.declared[decl.blockType];
      names = byType.get(decl.type) ?? null;
      if (!names) {
        byType.set(decl.type, (names = new BlockNames(namesAhead(ctx.doc, decl.header))));
        const hashedTypes = ctx.hashedTypes[decl.blockType];
        const h = nameHash(decl.type, 0, decl.type.length);
        hashedTypes.set(h, hashedTypes.has(h) ? null : { kind: decl.blockType, type: decl.type, names, verdict: null });
      }
    }
    last = ctx.lastType = { blockType: decl.blockType, type: decl.type, model: modelOf(ctx, types, decl.blockType, decl.type) ?? null, names };
  }
  // known before any body is checked: references to this block are resolved against it
  if (last.model) decl.model = last.model;
  // a check block's scoped data source is registered too: its assertions refer to it
  const names = last.names;
  if (names === null) return;
  const earlier = names.add(decl);
  if (earlier === undefined) return;
  if (ctx.files[decl.file]!.override || ctx.files[earlier.file]!.override) return;
  reportDuplicate(ctx, earlier, decl, DUPLICATE_WORDING[decl.blockType]!);
}

/**
 * Reports `later`, a second declaration of `earlier`, at `later` as Terraform does. When `later`
 * is in a context-only file (a sibling of the file the user named) and `earlier` is not, the
 * module is still invalid for Terraform: the error is given at `earlier`, naming the other.
 */
function reportDuplicate(ctx: Ctx, earlier: BlockDecl, later: BlockDecl, wording: (labels: string[]) => [string, string]): void {
  const current = ctx.fileIndex;
  let [first, second] = [earlier, later];
  if (ctx.files[later.file]!.contextOnly && !ctx.files[earlier.file]!.contextOnly) [first, second] = [later, earlier];
  ctx.use(first.file);
  const at = where(ctx, declNode(ctx, first));
  ctx.use(second.file);
  const [summary, detail] = wording(labelsOf(second));
  const node = declNode(ctx, second);
  const message = `${summary}: ${detail.replace("%s", at).replace("already ", first === later ? "also " : "already ")}`;
  // a whole body when it is the header, else the header's (or array's) first character
  ctx.report("error", "duplicate-block", message, ctx.doc.start(node), node === second.header && node !== second.body ? ctx.doc.end(node) : ctx.doc.start(node) + 1, addressOf(second), null);
  // register() reports while its file is being read: that file stays current
  ctx.use(current);
}

function checkDuplicates(ctx: Ctx): void {
  // per block type (aliased provider configurations apart), by the labels that make its address
  // (resources and data sources are declared apart): no address string is built per block
  const first = new Map<string, Map<string, BlockDecl>>();
  for (const decl of ctx.blocks) {
    const wording = DUPLICATE_WORDING[decl.blockType];
    if (!wording || ctx.files[decl.file]!.override || decl.blockType === "resource" || decl.blockType === "data") continue;
    const labels = labelsOf(decl);
    const aliased = decl.blockType === "provider" && labels[1] !== undefined;
    const kind = aliased ? "provider alias" : decl.blockType;
    // the parts of the address ("ephemeral.T.N", "var.N") or, aliased, the name and alias
    const id = labels.length === 1 ? labels[0]! : labels.join(aliased ? "\u0000" : ".");
    let byId = first.get(kind);
    if (byId === undefined) first.set(kind, (byId = new Map()));
    const earlier = byId.get(id);
    if (!earlier) {
      byId.set(id, decl);
      continue;
    }
    reportDuplicate(ctx, earlier, decl, wording);
  }
}
