// Module calls with local sources ("./x", "../x"), as `terraform validate` checks them: the
// called directory is read (its *.tf.json files, and recursively its own local calls), the call's
// arguments are compared with the child's variables (missing required ones, unknown ones), a
// reference `module.NAME.OUTPUT` must name one of the child's outputs, and the child module's
// files are validated too (module.ts runs them, with their problems reported at their own files).
//
// What we cannot read we do not judge: a child directory holding native `.tf` files declares
// variables and outputs we do not parse, so its arguments, outputs and files are not checked.
// A directory that does not exist fails `terraform init` ("Unreadable module directory") and
// then `terraform validate` ("Module not installed"): that is an error here too.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, resolve } from "node:path";
import { quote, type BlockDecl, type Ctx, type FoundReference } from "./context.js";
import { forObjects, K_ARRAY, K_NULL, K_OBJECT, parseJson, someString, type JsonDoc } from "../syntax/json-parser.js";
import { suggest } from "../syntax/suggest.js";
import { LineMap } from "../syntax/positions.js";
import { analyzeTemplate, hasTemplate } from "../expr/templates.js";
import { conversionProblem, describeType, parseTypeExpression, type TypeExpr } from "../expr/type-expressions.js";
import { templateKnownValue, UNKNOWN, type Known } from "./known-values.js";
import { decodeUtf8 } from "../syntax/utf8.js";
import { configurationAliases as aliasesIn } from "./required-providers.js";
import { checkValidationRules, validationRules, type ValidationRule } from "./variable-validation.js";

/** A parsed file of a module (the shape module.ts works on). */
export interface ParsedFile {
  file: { name: string; text: string; replaced?: number[]; contextOnly?: boolean };
  result: ReturnType<typeof parseJson>;
}

/** What a local module call leads to. */
export interface ChildModule {
  /** resolved directory (identity) */
  dir: string;
  /** "json": only *.tf.json files, checked; "native": .tf files too (not read); "missing": no such directory; "loop": already being called */
  kind: "json" | "native" | "missing" | "loop";
  files: ParsedFile[];
  /** variable name → whether it is required (no default), its literal type expression, and where it is declared */
  variables: Map<string, ChildVariable>;
  outputs: Set<string>;
  /** the first provider block of the module ("tsdb" and where), which rules out count, for_each and depends_on on its calls */
  providerBlock: { name: string; at: string } | null;
  /** required_providers: local name → source */
  requiredProviders: Map<string, string>;
  /** configuration_aliases of required_providers ("tsdb.peer" → source): each call must pass them in its providers map */
  configurationAliases: Map<string, string>;
  /** this module's own local calls, by `callKey` */
  calls: Map<string, ChildModule>;
}

export interface ChildVariable {
  required: boolean;
  type: string | null;
  validations: ValidationRule[];
  /** "modules/net/main.tf.json:10,5" */
  at: string;
}

/** The local calls of one module: callKey(file, source) → child. */
export type LocalCalls = Map<string, ChildModule>;

export function callKey(fileName: string, source: string): string {
  return `${fileName}\u0000${source}`;
}

export function isLocalSource(source: string): boolean {
  return source.startsWith("./") || source.startsWith("../") || source.startsWith(".\\") || source.startsWith("..\\");
}

/**
 * Reads the local modules that `files` call, recursively. `stack` holds the directories being
 * read (a module that calls one of them is a loop: recorded, not read again); `cache` shares
 * the modules read once between calls of the same directory.
 */
export function loadLocalCalls(files: ParsedFile[], stack: string[] = [], cache = new Map<string, ChildModule>()): LocalCalls {
  const calls: LocalCalls = new Map();
  for (const p of files) {
    // a context-only file lends declarations: the modules it calls are not read
    if (!p.result.ok || p.file.contextOnly) continue;
    forEachModuleCall(p.result.doc, (_name, body) => {
      const source = literalSource(p.result.ok ? p.result.doc : null, body);
      if (source === null || !isLocalSource(source)) return;
      const key = callKey(p.file.name, source);
      if (calls.has(key)) return;
      // Terraform reads a local path's backslashes as slashes
      const shown = normalize(join(dirname(p.file.name), source.replace(/\\/g, "/")));
      const dir = resolve(shown);
      if (stack.includes(dir)) {
        calls.set(key, emptyChild(dir, "loop"));
        return;
      }
      let child = cache.get(dir);
      if (!child) {
        child = readChild(dir, shown);
        cache.set(dir, child);
        if (child.kind === "json") {
          stack.push(dir);
          child.calls = loadLocalCalls(child.files, stack, cache);
          stack.pop();
        }
      }
      calls.set(key, child);
    });
  }
  return calls;
}

function emptyChild(dir: string, kind: ChildModule["kind"]): ChildModule {
  return { dir, kind, files: [], variables: new Map(), outputs: new Set(), providerBlock: null, requiredProviders: new Map(), configurationAliases: new Map(), calls: new Map() };
}

function readChild(dir: string, shown: string): ChildModule {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) return emptyChild(dir, "missing");
    names = readdirSync(dir).sort();
  } catch {
    return emptyChild(dir, "missing");
  }
  if (names.some((n) => n.endsWith(".tf"))) return emptyChild(dir, "native");
  const child = emptyChild(dir, "json");
  for (const n of names) {
    // Terraform ignores hidden files (a name starting with ".")
    if (!n.endsWith(".tf.json") || n.startsWith(".")) continue;
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(dir, n));
    } catch {
      continue;
    }
    const { text, replaced } = decodeUtf8(bytes);
    const name = join(shown, n);
    const file = replaced.length > 0 ? { name, text, replaced } : { name, text };
    const result = parseJson(text);
    child.files.push({ file, result });
    if (result.ok) declarationsOf(result.doc, child, name, new LineMap(text));
  }
  return child;
}

/**
 * The providers whose default configurations a called module (and the local modules it calls)
 * may inherit: the prefixes of its resource, data and ephemeral types. "*" when that cannot be
 * known (a module we did not read, a file that does not parse, a call of a non-local module).
 */
export function providersUsedBy(child: ChildModule, out: Set<string>, seen = new Set<ChildModule>()): void {
  if (seen.has(child)) return;
  seen.add(child);
  if (child.kind !== "json") {
    out.add("*");
    return;
  }
  for (const p of child.files) {
    if (!p.result.ok) {
      out.add("*");
      continue;
    }
    const doc = p.result.doc;
    forObjects(doc, 0, (top) => {
      for (const k of doc.members(top)) {
        const kind = doc.str(k);
        if (kind === "resource" || kind === "data" || kind === "ephemeral") {
          forObjects(doc, k + 1, (types) => {
            for (const t of doc.members(types)) {
              const type = doc.str(t);
              const underscore = type.indexOf("_");
              out.add(underscore > 0 ? type.slice(0, underscore) : type);
            }
          });
        } else if (kind === "module") {
          forObjects(doc, k + 1, (calls) => {
            for (const c of doc.members(calls)) {
              forObjects(doc, c + 1, (body) => {
                const source = literalSource(doc, body);
                if (source === null || !isLocalSource(source)) out.add("*");
              });
            }
          });
        }
      }
    });
  }
  for (const c of child.calls.values()) providersUsedBy(c, out, seen);
}

/** Every top-level `blockType` block with one label: its name and body. */
function forEachLabelled(doc: JsonDoc, blockType: string, each: (name: string, body: number) => void): void {
  forObjects(doc, 0, (top) => {
    for (const k of doc.members(top)) {
      if (doc.str(k) !== blockType) continue;
      forObjects(doc, k + 1, (labels) => {
        for (const l of doc.members(labels)) forObjects(doc, l + 1, (body) => each(doc.str(l), body));
      });
    }
  });
}

function forEachModuleCall(doc: JsonDoc, each: (name: string, body: number) => void): void {
  forEachLabelled(doc, "module", each);
}

function literalSource(doc: JsonDoc | null, body: number): string | null {
  if (!doc) return null;
  for (const k of doc.members(body)) {
    if (doc.str(k) === "source" && doc.isString(k + 1)) {
      const s = doc.str(k + 1);
      return hasTemplate(s) ? null : s;
    }
  }
  return null;
}

function declarationsOf(doc: JsonDoc, child: ChildModule, file: string, lines: LineMap): void {
  const at = (node: number) => {
    const p = lines.position(doc.start(node));
    return `${file}:${p.line},${p.column}`;
  };
  forEachLabelled(doc, "variable", (name, body) => {
    let required = true;
    let type: string | null = null;
    for (const k of doc.members(body)) {
      if (doc.str(k) === "default") required = false;
      else if (doc.str(k) === "type" && doc.isString(k + 1)) type = doc.str(k + 1);
    }
    // a variable declared twice is an error of the child; the first declaration counts
    if (!child.variables.has(name)) child.variables.set(name, { required, type, validations: validationRules(doc, body, at), at: at(body) });
  });
  forEachLabelled(doc, "output", (name) => child.outputs.add(name));
  forEachLabelled(doc, "provider", (name, body) => {
    child.providerBlock ??= { name, at: at(body) };
  });
  const aliases = new Map<string, string>();
  for (const [name, source] of requiredProviders(doc, aliases)) if (!child.requiredProviders.has(name)) child.requiredProviders.set(name, source);
  for (const [alias, source] of aliases) if (!child.configurationAliases.has(alias)) child.configurationAliases.set(alias, source);
}

/**
 * terraform.required_providers of a file: local name → source ("" when not given); each of an
 * entry's configuration_aliases ("tsdb.peer") is a name too, with the entry's source.
 */
export function requiredProviders(doc: JsonDoc, configurationAliases?: Map<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  forObjects(doc, 0, (top) => {
    for (const k of doc.members(top)) {
      if (doc.str(k) !== "terraform") continue;
      forObjects(doc, k + 1, (terraform) => {
        for (const t of doc.members(terraform)) {
          if (doc.str(t) !== "required_providers") continue;
          forObjects(doc, t + 1, (required) => {
            for (const r of doc.members(required)) {
              let source = "";
              const aliases: string[] = [];
              if (doc.isString(r + 1)) source = ""; // a bare version constraint
              else forObjects(doc, r + 1, (entry) => {
                for (const e of doc.members(entry)) {
                  if (doc.str(e) === "source" && doc.isString(e + 1)) source = doc.str(e + 1);
                  if (doc.str(e) === "configuration_aliases") aliases.push(...aliasesIn(doc, e + 1, doc.str(r)));
                }
              });
              out.set(doc.str(r), source);
              for (const alias of aliases) {
                if (!out.has(alias)) out.set(alias, source);
                if (configurationAliases && !configurationAliases.has(alias)) configurationAliases.set(alias, source);
              }
            }
          });
        }
      });
    }
  });
  return out;
}

/** Arguments of a module block that are Terraform's own, not the child's variables. */
const META_ARGUMENTS = new Set(["source", "version", "providers", "count", "for_each", "depends_on", "//"]);

/** Checks each module call of the module being validated against the child it calls. */
export function checkModuleCalls(ctx: Ctx): void {
  for (const decl of ctx.blocks) {
    if (decl.blockType !== "module" || ctx.files[decl.file]!.contextOnly) continue;
    checkCountAndForEach(ctx, decl);
    const child = childOf(ctx, decl);
    if (!child) continue;
    ctx.use(decl.file);
    const doc = ctx.doc;
    if (child.kind === "missing") {
      ctx.error("module-not-installed", `Module not installed: The directory of module ${quote(decl.name)} (${quote(sourceOf(ctx, decl)!)}) does not exist, so terraform init cannot install it and terraform validate reports it as not installed.`, decl.body, `module.${decl.name}`, "source");
      continue;
    }
    if (child.kind === "loop") {
      // terraform init recurses until a path is too long; it then reports the call that closes the loop
      ctx.error("module-not-installed", `Module not installed: Module ${quote(decl.name)} calls ${quote(sourceOf(ctx, decl)!)}, a module that is already calling it (a loop), which terraform init cannot install.`, decl.body, `module.${decl.name}`, "source");
      continue;
    }
    if (child.kind !== "json") continue;
    const set = new Set<string>();
    const address = `module.${decl.name}`;
    const passed = new Set<string>();
    for (const k of doc.members(decl.body)) {
      const name = doc.str(k);
      if (name === "providers") {
        checkProvidersMap(ctx, child, k + 1, address);
        if (doc.kinds[k + 1] === K_OBJECT) for (const p of doc.members(k + 1)) passed.add(doc.str(p));
      }
      if ((name === "count" || name === "for_each" || name === "depends_on") && child.providerBlock && doc.kinds[k + 1] !== K_NULL) {
        ctx.error(
          "module-argument",
          `Module is incompatible with count, for_each, and depends_on: The module at module.${decl.name} is a legacy module which contains its own local provider configurations (${quote(child.providerBlock.name)} at ${child.providerBlock.at}), and so calls to it may not use the count, for_each, or depends_on arguments.`,
          k,
          address,
          name,
        );
      }
      if (META_ARGUMENTS.has(name)) continue;
      set.add(name);
      const variable = child.variables.get(name);
      if (variable) {
        if (checkArgumentValue(ctx, variable, k + 1, `${address}.var.${name}`)) checkValidationRules(ctx, name, variable.type, variable.validations, k + 1, address);
        continue;
      }
      const hint = suggest(name, child.variables.keys());
      ctx.error("module-argument", `Extraneous JSON object property: No argument or block type is named ${quote(name)}.${hint ? ` Did you mean "${hint}"?` : ""}`, k, address, name);
    }
    // an aliased configuration is never passed implicitly (terraform init reports it at the call)
    for (const [alias, source] of child.configurationAliases) {
      if (passed.has(alias)) continue;
      ctx.error(
        "module-providers",
        `Missing required provider configuration: The child module requires an additional configuration for provider ${normalizeSource(source || `hashicorp/${alias.slice(0, alias.indexOf("."))}`)}, with the local name ${quote(alias)}.\n\nRefer to the module's documentation to understand the intended purpose of this additional provider configuration, and then add an entry for ${alias} in the "providers" meta-argument in the module block to choose which provider configuration the module should use for that purpose.`,
        decl.body,
        address,
        "providers",
      );
    }
    // Terraform points at the end of the block: there is no line of the argument to point at
    const close = doc.end(decl.body) - 1;
    for (const [name, { required }] of child.variables) {
      if (!required || set.has(name)) continue;
      ctx.report("error", "module-argument", `Missing required argument: The argument ${quote(name)} is required, but no definition was found.`, close, close + 1, `module.${decl.name}`, name);
    }
  }
}

/** A known value whose shape can never convert to the type (a list for a string, a map for a list, …); null when it may. */
function knownShapeProblem(v: Known, type: TypeExpr): string | null {
  if (v === UNKNOWN || v === null || type.kind === "any") return null;
  const structural = typeof v === "object";
  switch (type.kind) {
    case "string":
      return structural ? "string required" : null;
    case "number":
      return structural ? "a number is required" : null;
    case "bool":
      return structural ? "a bool is required" : null;
    case "list":
    case "set":
    case "tuple":
      return Array.isArray(v) ? null : `${describeType(type)} required`;
    case "map":
    case "object":
      return structural && !Array.isArray(v) ? null : `${describeType(type)} required`;
    default:
      return null;
  }
}

/**
 * A literal argument (no template anywhere in it) must convert to the variable's type. True when
 * the argument is such a literal and converts (its value is known: validation rules can see it).
 */
function checkArgumentValue(ctx: Ctx, variable: ChildVariable, node: number, address: string): boolean {
  if (ctx.doc.isString(node) && variable.type !== null && hasTemplate(ctx.doc.str(node))) {
    // a template validate knows the value of (a local value of literals): its shape must fit too
    const parsed = parseTypeExpression(variable.type);
    const problem = "error" in parsed ? null : knownShapeProblem(templateKnownValue(ctx, analyzeTemplate(ctx.doc.str(node))), parsed.type);
    if (problem) ctx.error("module-argument", `Invalid value for input variable: The given value is not suitable for ${address} declared at ${variable.at}: ${problem}.`, node, address, null);
    return false;
  }
  if (someString(ctx.doc, node, hasTemplate)) return false;
  if (variable.type === null) return true;
  const parsed = parseTypeExpression(variable.type);
  if ("error" in parsed) return false;
  const problem = conversionProblem(ctx.doc, node, parsed.type, []);
  if (problem) ctx.error("module-argument", `Invalid value for input variable: The given value is not suitable for ${address} declared at ${variable.at}: ${problem}.`, node, address, null);
  return problem === null;
}

/**
 * `providers = { CHILD_NAME = "NAME" or "NAME.ALIAS" }`: the child's local name must stand for the
 * same provider as the caller's.
 */
function checkProvidersMap(ctx: Ctx, child: ChildModule, node: number, address: string): void {
  const doc = ctx.doc;
  if (doc.kinds[node] !== K_OBJECT) return;
  const ours = callerProviders(ctx);
  for (const k of doc.members(node)) {
    const key = doc.str(k);
    if (key === "//" || !doc.isString(k + 1)) continue;
    // "tsdb.peer" passes an aliased configuration the child expects (configuration_aliases)
    const childName = key.includes(".") ? key.slice(0, key.indexOf(".")) : key;
    const value = doc.str(k + 1);
    if (hasTemplate(value)) continue;
    const dot = value.indexOf(".");
    const name = dot < 0 ? value : value.slice(0, dot);
    if (key.includes(".") && child.kind === "json" && !child.requiredProviders.has(key)) {
      const source = ours.required.get(name) || `hashicorp/${name}`;
      ctx.error(
        "module-providers",
        `Reference to undefined provider: The child module does not declare any provider requirement with the local name ${quote(key)}.\n\nIf you also control the child module, you can add a required_providers entry named ${quote(key)} with the source address ${quote(source)} to accept this provider configuration.`,
        k,
        address,
        "providers",
      );
      continue;
    }
    const childSource = normalizeSource(child.requiredProviders.get(childName) || `hashicorp/${childName}`);
    const ourSource = normalizeSource(ours.required.get(name) || `hashicorp/${name}`);
    if (childSource !== ourSource) {
      ctx.error("module-providers", `Provider type mismatch: The assigned configuration is for provider ${quote(ourSource)}, but local name ${quote(childName)} in ${address} represents ${quote(childSource)}.`, k, address, "providers");
    }
    // an alias that is not configured here is reported with the other provider references (language.ts)
  }
}

export function normalizeSource(source: string): string {
  const s = source.toLowerCase();
  return s.startsWith("registry.terraform.io/") ? s.slice("registry.terraform.io/".length) : s;
}

const callerProvidersCache = new WeakMap<Ctx, { required: Map<string, string> }>();

/** The calling module's required_providers (local name → source). */
export function callerProviders(ctx: Ctx): { required: Map<string, string> } {
  let known = callerProvidersCache.get(ctx);
  if (known) return known;
  known = { required: new Map() };
  for (const file of ctx.files) if (file.doc) for (const [n, src] of requiredProviders(file.doc)) if (!known.required.has(n)) known.required.set(n, src);
  callerProvidersCache.set(ctx, known);
  return known;
}

/** Any module call (local or not): count and for_each together are refused, at for_each. */
function checkCountAndForEach(ctx: Ctx, decl: BlockDecl): void {
  ctx.use(decl.file);
  const doc = ctx.doc;
  let count = false;
  let forEach = -1;
  for (const k of doc.members(decl.body)) {
    const name = doc.str(k);
    if (name === "count" && doc.kinds[k + 1] !== K_NULL) count = true;
    else if (name === "for_each" && doc.kinds[k + 1] !== K_NULL) forEach = k;
  }
  if (count && forEach >= 0) {
    ctx.error("count-and-for-each", 'Invalid combination of "count" and "for_each": The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.', forEach, `module.${decl.name}`, "for_each");
  }
}

function sourceOf(ctx: Ctx, decl: BlockDecl): string | null {
  return literalSource(ctx.files[decl.file]!.doc, decl.body);
}

export function childOf(ctx: Ctx, decl: BlockDecl): ChildModule | undefined {
  const source = sourceOf(ctx, decl);
  if (source === null || !isLocalSource(source)) return undefined;
  return ctx.localCalls?.get(callKey(ctx.files[decl.file]!.name, source));
}

/**
 * `module.NAME.OUTPUT` where NAME is a call of one instance to a child we read: OUTPUT must be
 * one of its outputs (Terraform: "Unsupported attribute"). Calls with count or for_each are left
 * alone (their references go through an index first).
 */
export function checkModuleOutputReference(ctx: Ctx, found: FoundReference): void {
  if (!ctx.localCalls) return;
  const steps = found.ref.steps;
  const call = steps[0];
  const output = steps[1];
  if (call?.kind === "attr" && output?.kind === "index" && typeof output.key === "string" && !/^\s*-?[0-9]+(\.[0-9]*)?\s*$/.test(output.key)) {
    // validate knows a call with count as a list (of unknown length): a key that is not a number cannot index it
    const decl = moduleDecl(ctx, call.name);
    if (decl && repeated(ctx, decl) === "count") {
      const current = ctx.fileIndex;
      ctx.errorAtReference(found, "module-output", "Invalid index: The given key does not identify an element in this collection value: a number is required.");
      ctx.use(current);
    }
    return;
  }
  if (call?.kind !== "attr" || output?.kind !== "attr") return;
  const decl = moduleDecl(ctx, call.name);
  if (!decl) return;
  const current = ctx.fileIndex;
  const child = childOf(ctx, decl);
  const repetition = repeated(ctx, decl);
  if (child?.kind === "json" && repetition === null && !child.outputs.has(output.name)) {
    ctx.errorAtReference(found, "module-output", `Unsupported attribute: This object does not have an attribute named ${quote(output.name)}.`);
  } else if (child?.kind === "json" && repetition === "count") {
    // a call with count is a list of instances: an output is reached through an index
    ctx.errorAtReference(found, "module-output", `Unsupported attribute: Can't access attributes on a list of objects. Did you mean to access attribute ${quote(output.name)} for a specific element of the list, or across all elements of the list?`);
  }
  ctx.use(current);
}

const callsByName = new WeakMap<Ctx, Map<string, BlockDecl>>();

export function moduleDecl(ctx: Ctx, name: string): BlockDecl | undefined {
  let byName = callsByName.get(ctx);
  if (!byName) {
    byName = new Map();
    for (const b of ctx.blocks) if (b.blockType === "module" && !byName.has(b.name)) byName.set(b.name, b);
    callsByName.set(ctx, byName);
  }
  return byName.get(name);
}

function repeated(ctx: Ctx, decl: BlockDecl): "count" | "for_each" | null {
  const doc = ctx.files[decl.file]!.doc!;
  let found: "count" | "for_each" | null = null;
  for (const k of doc.members(decl.body)) {
    const name = doc.str(k);
    if ((name === "count" || name === "for_each") && doc.kinds[k + 1] !== K_NULL) found ??= name;
  }
  return found;
}

/** Every child module reachable from `calls`, each once (in the order they are first called). */
export function childModules(calls: LocalCalls, out = new Map<string, ChildModule>()): Map<string, ChildModule> {
  for (const child of calls.values()) {
    if (child.kind !== "json" || out.has(child.dir)) continue;
    out.set(child.dir, child);
    childModules(child.calls, out);
  }
  return out;
}
