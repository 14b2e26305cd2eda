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
import { quote, unchecked, writtenTogether, type Ctx, type FoundReference } from "./context.js";
import { K_NULL, K_OBJECT, someString } from "../syntax/json-parser.js";
import { suggest } from "../syntax/suggest.js";
import { analyzeTemplate, hasTemplate, type Reference } from "../expr/templates.js";
import { conversionProblem, describeType, parseTypeExpression, type TypeExpr } from "../expr/type-expressions.js";
import { templateKnownValue, UNKNOWN, type Known } from "./known-values.js";
import { checkValidationRules } from "./variable-validation.js";
import { type BlockDecl } from "./declarations.js";
import { type LocalCalls, type ChildVariable, type ChildModule, requiredProviders, literalSource, isLocalSource, callKey } from "./module-summary.js";

/** The local modules each module being checked calls (set by the loader, load/module.ts). */
const localCallsOf = new WeakMap<Ctx, LocalCalls>();

export function setLocalCalls(ctx: Ctx, calls: LocalCalls): void {
  localCallsOf.set(ctx, calls);
  ctx.readsLocalCalls = true;
}

/** Arguments of a module block that are Terraform's own, not the child's variables. */
const META_ARGUMENTS = new Set(["source", "version", "providers", "count", "for_each", "depends_on", "//"]);

/** Checks each module call of the module being validated against the child it calls. */
export function checkModuleCalls(ctx: Ctx): void {
  for (const decl of ctx.blocks) {
    // an override file's call is checked merged into the primary one (load/merge-overrides.ts)
    if (decl.blockType !== "module" || ctx.files[decl.file]!.contextOnly || unchecked(ctx, decl)) continue;
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
      if (variable?.nullRefused && isKnownNull(ctx, k + 1)) {
        ctx.error("module-argument", `Required variable not set: The given value is not suitable for ${address}.var.${name} defined at ${variable.at}: required variable may not be set to null.`, k + 1, address, name);
        continue;
      }
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

/** A null argument, written so or a template whose value validate knows to be null (`${local.none}`). */
function isKnownNull(ctx: Ctx, node: number): boolean {
  const doc = ctx.doc;
  if (doc.kinds[node] === K_NULL) return true;
  return doc.isString(node) && hasTemplate(doc.str(node)) && templateKnownValue(ctx, analyzeTemplate(doc.str(node))) === null;
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
    const info = analyzeTemplate(ctx.doc.str(node));
    const instance = info.whole !== null && isForEachInstanceReference(ctx, info.whole);
    const problem = "error" in parsed ? null : instance ? instanceProblem(parsed.type) : knownShapeProblem(templateKnownValue(ctx, info), parsed.type);
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
  let count = -1;
  let forEach = -1;
  for (const k of doc.members(decl.body)) {
    const name = doc.str(k);
    if (name === "count" && doc.kinds[k + 1] !== K_NULL) count = k;
    else if (name === "for_each" && doc.kinds[k + 1] !== K_NULL) forEach = k;
  }
  if (count >= 0 && forEach >= 0 && writtenTogether(ctx, count, forEach)) {
    ctx.error("count-and-for-each", 'Invalid combination of "count" and "for_each": The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.', forEach, `module.${decl.name}`, "for_each");
  }
}

function sourceOf(ctx: Ctx, decl: BlockDecl): string | null {
  return literalSource(ctx.files[decl.file]!.doc, decl.body);
}

export function childOf(ctx: Ctx, decl: BlockDecl): ChildModule | undefined {
  const source = sourceOf(ctx, decl);
  if (source === null || !isLocalSource(source)) return undefined;
  return localCallsOf.get(ctx)?.get(callKey(ctx.files[decl.file]!.name, source));
}

/**
 * `module.NAME.OUTPUT` where NAME is a call of one instance to a child we read: OUTPUT must be
 * one of its outputs (Terraform: "Unsupported attribute"). Calls with count or for_each are left
 * alone (their references go through an index first).
 */
export function checkModuleOutputReference(ctx: Ctx, found: FoundReference): void {
  if (!localCallsOf.has(ctx)) return;
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

/**
 * `module.NAME.OUTPUT` (nothing after) where NAME is a call with for_each and no instance key:
 * validate knows the call as a map of instances, and an attribute of a map is one of its
 * elements, an instance: an object, which Terraform refuses where a string, number, bool or list
 * goes ("number required").
 */
export function isForEachInstanceReference(ctx: Ctx, ref: Reference): boolean {
  if (ref.root !== "module" || ref.steps.length !== 2) return false;
  const [call, output] = ref.steps;
  if (call?.kind !== "attr" || output?.kind !== "attr") return false;
  const decl = moduleDecl(ctx, call.name);
  return decl !== undefined && repeated(ctx, decl) === "for_each";
}

/** Why an instance (an object) is not a value of a variable's type; null when it may convert. */
function instanceProblem(type: TypeExpr): string | null {
  switch (type.kind) {
    case "string":
    case "number":
    case "bool":
      return `${type.kind} required`;
    case "list":
    case "set":
    case "tuple":
      return `${describeType(type)} required`;
    default:
      return null;
  }
}

const callsByName = new WeakMap<Ctx, Map<string, BlockDecl>>();

export function moduleDecl(ctx: Ctx, name: string): BlockDecl | undefined {
  let byName = callsByName.get(ctx);
  if (!byName) {
    byName = new Map();
    // the first call of each name; the primary one (with the overrides merged in), not an override file's
    for (const b of ctx.blocks) if (b.blockType === "module" && (!byName.has(b.name) || unchecked(ctx, byName.get(b.name)!))) byName.set(b.name, b);
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
