// Address rules of import, moved and removed blocks that `terraform validate` applies beyond
// their syntax (language.ts checks that): an import's instance key must match the target
// resource's count / for_each, its provider must be the target's, moved addresses must both be
// resources or both modules, and removed names a managed resource or a module, never one
// instance. Wording and positions follow Terraform 1.11.
import { quote, repetitionOf, type Ctx } from "./context.js";
import { forObjects, K_ARRAY, K_NULL, K_OBJECT, type JsonDoc } from "../syntax/json-parser.js";
import { analyzeTemplate, hasTemplate, keywordOf, parseTraversal, type TraversalStep, formatTraversal } from "../expr/templates.js";
import { templateKnownValue } from "./known-values.js";
import { addressOf, type BlockDecl } from "./declarations.js";
import { checkRepeatableBody } from "./bodies.js";
import { invalidExpression } from "./common-errors.js";
import { referencesIn } from "./dependency-graph.js";
import { IMPORT } from "./body-specs.js";

export function checkAddresses(ctx: Ctx): void {
  const imported = new Map<string, BlockDecl>();
  const judged = new Set<BlockDecl>();
  for (const decl of ctx.blocks) {
    if (ctx.files[decl.file]!.contextOnly) continue;
    if (decl.blockType === "import" && ctx.isChild) {
      ctx.use(decl.file);
      ctx.report("error", "import", `Invalid import configuration: An import block was detected in a called module (${ctx.files[decl.file]!.name}). Import blocks are only allowed in the root module.`, ...blockStart(ctx, decl), "import", null);
    } else if (decl.blockType === "import") {
      ctx.use(decl.file);
      checkImportTarget(ctx, decl, judged);
      checkImportRepeated(ctx, decl, imported);
    } else if (decl.blockType === "moved") {
      ctx.use(decl.file);
      checkMoved(ctx, decl);
    } else if (decl.blockType === "removed") {
      ctx.use(decl.file);
      checkRemoved(ctx, decl);
    }
  }
}

/** The property-name node of each argument of a body (the last one when repeated). */
export function argumentsOf(doc: JsonDoc, body: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const k of doc.members(body)) out.set(doc.str(k), k);
  return out;
}

interface Address {
  /** module.NAME[...] steps before the resource, or the whole address of a module */
  inModule: boolean;
  /** "resource", "data" or "module" (the address names a module call) */
  kind: "resource" | "data" | "module";
  type: string;
  name: string;
  /** the resource's (or last module's) instance key step, if any */
  key: TraversalStep | null;
}

/** A literal address of a resource or module ("module.a[0].tsdb_vpcs.x[1]"); null when it is not one (reported elsewhere). */
function parseAddress(text: string): Address | null {
  if (hasTemplate(text)) return null;
  const t = parseTraversal(text, true);
  if (!t) return null;
  const parts: TraversalStep[] = [{ kind: "attr", name: t.root }, ...t.steps];
  let i = 0;
  let inModule = false;
  let key: TraversalStep | null = null;
  while (i < parts.length && (parts[i] as { name?: string }).name === "module" && parts[i]!.kind === "attr" && parts[i + 1]?.kind === "attr") {
    key = null;
    i += 2;
    if (parts[i]?.kind === "index") key = parts[i++]!;
    if (i === parts.length) return { inModule, kind: "module", type: "", name: (parts[i - (key ? 2 : 1)] as { name: string }).name, key };
    inModule = true;
  }
  let kind: Address["kind"] = "resource";
  if (parts[i]?.kind === "attr" && (parts[i] as { name: string }).name === "data") {
    kind = "data";
    i++;
  }
  const type = parts[i];
  const name = parts[i + 1];
  if (type?.kind !== "attr" || name?.kind !== "attr") return null;
  key = parts[i + 2]?.kind === "index" ? parts[i + 2]! : null;
  return { inModule, kind, type: type.name, name: name.name, key };
}

/**
 * What is wrong with a literal traversal that is not an address of a resource or module: a
 * resource type without a name, or steps after the instance key (an attribute); null when it is
 * one (or not a traversal at all, reported elsewhere).
 */
function addressShapeProblem(text: string): string | null {
  if (hasTemplate(text)) return null;
  const t = parseTraversal(text, true);
  if (!t) return null;
  const parts: TraversalStep[] = [{ kind: "attr", name: t.root }, ...t.steps];
  let i = 0;
  while (i < parts.length && (parts[i] as { name?: string }).name === "module" && parts[i]!.kind === "attr" && parts[i + 1]?.kind === "attr") {
    i += 2;
    if (parts[i]?.kind === "index") i++;
    if (i === parts.length) return null;
  }
  if (parts[i]?.kind === "attr" && (parts[i] as { name: string }).name === "data") i++;
  if (parts[i]?.kind !== "attr" || parts[i + 1]?.kind !== "attr") return "Resource specification must include a resource type and name.";
  i += 2;
  if (parts[i]?.kind === "index") i++;
  return i < parts.length ? "Unexpected extra operators after address." : null;
}

/** A moved or removed address that is not one: Terraform's "Invalid address", at the string. */
function checkAddressShape(ctx: Ctx, key: number | undefined, address: string, path: string): boolean {
  if (key === undefined || !ctx.doc.isString(key + 1)) return true;
  const problem = addressShapeProblem(ctx.doc.str(key + 1));
  if (problem === null) return true;
  ctx.error(address, `Invalid address: ${problem}`, key + 1, address, path);
  return false;
}

function checkImportTarget(ctx: Ctx, decl: BlockDecl, judged: Set<BlockDecl>): void {
  const doc = ctx.doc;
  const args = argumentsOf(doc, decl.body);
  const toKey = args.get("to");
  if (toKey === undefined || !doc.isString(toKey + 1)) return;
  const address = parseAddress(doc.str(toKey + 1));
  if (!address || address.kind !== "resource") return;
  const providerKey = args.get("provider");
  const provider = providerKey !== undefined && doc.isString(providerKey + 1) ? doc.str(providerKey + 1) : null;
  if (address.inModule) {
    // a module's resources take their providers from the module call
    if (provider !== null) ctx.errorAtProperty("import", "Invalid import provider argument: The provider argument can only be specified in import blocks that will generate configuration. Use the providers argument within the module block to configure providers for all resources within a module, including imported resources.", providerKey!, "import", "provider");
    return;
  }
  const target = ctx.declared.resource.get(address.type)?.get(address.name);
  if (!target) {
    if (provider !== null && !providerDeclared(ctx, provider)) {
      ctx.error("import", `Provider configuration not present: The import block names provider ${quote(provider)}, which is not configured in this module (no provider block with that alias).`, providerKey! + 1, "import", "provider");
    }
    return;
  }
  // Terraform takes the provider from the resource block: an import may only repeat the resource's own provider argument
  if (provider !== null && normalReference(provider) !== providerArgumentOf(ctx, target)) {
    ctx.use(decl.file);
    ctx.errorAtProperty("import", "Invalid import provider argument: The provider argument can only be specified in import blocks that will generate configuration. Use the provider argument in the target resource block to configure the provider for a resource with explicit provider configuration.", providerKey!, "import", "provider");
  }
  ctx.use(decl.file);
  // Terraform asks whether the target sets count or for_each at all: a null one counts here
  const repetition = repetitionOf(ctx, target) ?? nullRepetitionOf(ctx, target);
  const key = address.key as { kind: "index"; key: string | number | null } | null;
  let problem: string | null = null;
  if (key !== null && typeof key.key === "number" && repetition === null) problem = "The target resource does not use count.";
  // a string key without for_each; an expression key only when the target repeats not at all (with count, not checked)
  else if (key !== null && typeof key.key === "string" && repetition !== "for_each") problem = "The target resource does not use for_each.";
  else if (key !== null && key.key === null && repetition === null) problem = "The target resource does not use for_each.";
  // each.key of a literal map is a string: with count, validate knows that key cannot be an index
  else if (key !== null && key.key === null && repetition === "count" && /\[\s*each\.key\s*\]$/.test(doc.str(toKey + 1)) && literalMapForEach(doc, args.get("for_each"))) problem = "The target resource does not use for_each.";
  else if (key === null && repetition === "count") problem = "The target resource is using count.";
  else if (key === null && repetition === "for_each") problem = "The target resource is using for_each.";
  // Terraform reports the first of these per target resource
  if (problem && !judged.has(target)) ctx.error("import", `Invalid import 'to' expression: ${problem}`, toKey + 1, "import", "to");
  if (problem) judged.add(target);
}

/** A second import block (without for_each) for the same literal target. */
function checkImportRepeated(ctx: Ctx, decl: BlockDecl, imported: Map<string, BlockDecl>): void {
  const doc = ctx.doc;
  const args = argumentsOf(doc, decl.body);
  const toKey = args.get("to");
  const forEach = args.get("for_each");
  if (toKey === undefined || !doc.isString(toKey + 1) || (forEach !== undefined && doc.kinds[forEach + 1] !== K_NULL)) return;
  // an import block that is itself invalid (no id, or id and identity) stops Terraform before this check
  const id = args.get("id");
  const identity = args.get("identity");
  if ((id !== undefined && doc.kinds[id + 1] !== K_NULL) === (identity !== undefined && doc.kinds[identity + 1] !== K_NULL)) return;
  const to = doc.str(toKey + 1);
  if (hasTemplate(to) || !parseAddress(to)) return;
  const instance = to.replace(/\s+/g, "");
  const earlier = imported.get(instance);
  if (!earlier) {
    imported.set(instance, decl);
    return;
  }
  // the same instance twice; Terraform names the resource (without its key)
  const address = parseAddress(to)!;
  const target = address.kind === "resource" && !address.inModule ? `${address.type}.${address.name}` : instance;
  ctx.use(earlier.file);
  const [start] = blockStart(ctx, earlier);
  const file = ctx.files[earlier.file]!;
  const p = file.lines.position(start);
  ctx.use(decl.file);
  ctx.error("import", `Duplicate import configuration for ${quote(target)}: An import block for the resource ${quote(target)} was already declared at ${file.name}:${p.line},${p.column}. A resource can have only one import block.`, toKey + 1, "import", "to");
}

/** Whether an import's for_each (its key node) is a literal JSON object: a map, whose keys are strings. */
function literalMapForEach(doc: JsonDoc, key: number | undefined): boolean {
  return key !== undefined && doc.kinds[key + 1] === K_OBJECT;
}

/** A resource's own `provider` argument ("tsdb.east"), or null without one (the implied default does not count). */
function providerArgumentOf(ctx: Ctx, target: BlockDecl): string | null {
  const doc = ctx.files[target.file]!.doc!;
  for (const k of doc.members(target.body)) if (doc.str(k) === "provider" && doc.isString(k + 1)) return normalReference(doc.str(k + 1));
  return null;
}

/** A provider reference without the spaces a traversal may have around its dot ("tsdb .west"). */
function normalReference(reference: string): string {
  return reference.replace(/\s+/g, "");
}

/** "tsdb" (a default configuration is implied) or "tsdb.ALIAS" with a provider block of that alias. */
function providerDeclared(ctx: Ctx, reference: string): boolean {
  const dot = reference.indexOf(".");
  if (dot < 0) return true;
  const name = reference.slice(0, dot);
  const alias = reference.slice(dot + 1);
  return ctx.blocks.some((b) => b.blockType === "provider" && b.type === name && b.labelList?.[1] === alias);
}

function checkMoved(ctx: Ctx, decl: BlockDecl): void {
  const doc = ctx.doc;
  const args = argumentsOf(doc, decl.body);
  const fromKey = args.get("from");
  const toKey = args.get("to");
  const fromShape = checkAddressShape(ctx, fromKey, "moved", "from");
  const toShape = checkAddressShape(ctx, toKey, "moved", "to");
  if (!fromShape || !toShape) return;
  if (fromKey === undefined || toKey === undefined || !doc.isString(fromKey + 1) || !doc.isString(toKey + 1)) return;
  const from = parseAddress(doc.str(fromKey + 1));
  const to = parseAddress(doc.str(toKey + 1));
  if (!from || !to) return;
  if ((from.kind === "module") !== (to.kind === "module")) {
    ctx.report("error", "moved", 'Invalid "moved" addresses: The "from" and "to" addresses must either both refer to resources or both refer to modules.', ...blockStart(ctx, decl), addressOf(decl), null);
  }
}

function checkRemoved(ctx: Ctx, decl: BlockDecl): void {
  const doc = ctx.doc;
  checkRemovedProvisioners(ctx, decl);
  const fromKey = argumentsOf(doc, decl.body).get("from");
  if (!checkAddressShape(ctx, fromKey, "removed", "from")) return;
  if (fromKey === undefined || !doc.isString(fromKey + 1)) return;
  const from = parseAddress(doc.str(fromKey + 1));
  if (!from) return;
  if (from.kind === "data") {
    ctx.error("removed", "Data source address not allowed: Data sources are never destroyed, so they are not valid targets of removed blocks. To remove the data source from state, remove the data source block from configuration.", fromKey + 1, "removed", "from");
  } else if (from.key !== null && from.kind === "resource") {
    ctx.error("removed", 'Resource instance keys not allowed: Resource address must be a resource (e.g. "test_instance.foo"), not a resource instance (e.g. "test_instance.foo[1]").', fromKey + 1, "removed", "from");
  } else if (from.key !== null && from.kind === "module") {
    ctx.error("removed", 'Module instance keys not allowed: Module address must be a module (e.g. "module.foo"), not a module instance (e.g. "module.foo[1]").', fromKey + 1, "removed", "from");
  }
  if (from.kind === "module") {
    // a module has no provisioners to run: each provisioner block is refused at its type
    for (const k of doc.members(decl.body)) {
      if (doc.str(k) !== "provisioner") continue;
      forObjects(doc, k + 1, (group) => {
        for (const type of doc.members(group)) ctx.error("removed", "Invalid provisioner block: Provisioners are valid only when a removed block targets a managed resource.", type, "removed", "provisioner");
      });
    }
  }
}

/** A removed block runs only destroy-time provisioners: each other one is refused at its type label. */
function checkRemovedProvisioners(ctx: Ctx, decl: BlockDecl): void {
  const doc = ctx.doc;
  for (const k of doc.members(decl.body)) {
    if (doc.str(k) !== "provisioner") continue;
    forObjects(doc, k + 1, (labels) => {
      for (const label of doc.members(labels)) {
        forObjects(doc, label + 1, (body) => {
          const when = argumentsOf(doc, body).get("when");
          if (when !== undefined && doc.isString(when + 1) && keywordOf(doc.str(when + 1)) === "destroy") return;
          ctx.error("removed", 'Invalid provisioner block: Only destroy-time provisioners are valid in "removed" blocks. To declare a destroy-time provisioner, use:\n    when = destroy', label, "removed", `provisioner.${doc.str(label)}`);
        });
      }
    });
  }
}

/**
 * The node Terraform reports a block at: for a block given as an element of an array of bodies,
 * the array's `[` (Terraform's range of such a block); otherwise its header (the name).
 */
export function declNode(ctx: Ctx, decl: BlockDecl): number {
  if (decl.header !== decl.body) return decl.header;
  const array = enclosingArray(ctx.files[decl.file]!.doc!, decl.body);
  return array < 0 ? decl.header : array;
}

/**
 * Where Terraform reports a block without labels: the start of the value of its block-type
 * property (`{` of `"moved": {…}`, or `[` of `"moved": [{…}, …]` for each block of the array).
 */
function blockStart(ctx: Ctx, decl: BlockDecl): [number, number] {
  const doc = ctx.doc;
  let node = decl.header === decl.body ? enclosingArray(doc, decl.body) : decl.header + 1;
  if (node < 0) node = decl.body;
  const start = doc.start(node);
  return [start, start + 1];
}

/** The array a block body is an element of: the nearest earlier array node whose subtree holds it. */
function enclosingArray(doc: JsonDoc, body: number): number {
  for (let i = body - 1; i >= 0; i--) if (doc.kinds[i] === K_ARRAY && doc.nexts[i]! > body) return i;
  return -1;
}

/** "count" or "for_each" when the block sets one of them to null (repetitionOf skips those). */
function nullRepetitionOf(ctx: Ctx, decl: BlockDecl): "count" | "for_each" | null {
  const doc = ctx.files[decl.file]!.doc!;
  for (const k of doc.members(decl.body)) {
    const name = doc.str(k);
    if ((name === "count" || name === "for_each") && doc.isNull(k + 1)) return name;
  }
  return null;
}

export function checkImport(ctx: Ctx, decl: BlockDecl): void {
  const file = ctx.files[ctx.fileIndex]!;
  if (file.override) ctx.error("import", "Invalid import block: Import blocks are not allowed in override files.", decl.header, "import", null);
  const seen = checkRepeatableBody(ctx, decl, IMPORT, "import");
  const doc = ctx.doc;
  const hasId = seen.has("id") && !doc.isNull(seen.get("id")! + 1);
  const hasIdentity = seen.has("identity") && !doc.isNull(seen.get("identity")! + 1);
  if (hasId && hasIdentity) {
    ctx.error("import", 'Invalid import block: Only one of "id" and "identity" may be set.', seen.get("identity")!, "import", "identity");
  } else if (!hasId && !hasIdentity && seen.has("id")) {
    // "id": null is a value Terraform evaluates, and refuses, at the null
    ctx.error("import", "Invalid import id argument: The import ID cannot be null.", seen.get("id")! + 1, "import", "id");
  } else if (!hasId && !hasIdentity) {
    // Terraform points at the end of the block (its closing brace)
    const close = ctx.doc.end(decl.body) - 1;
    ctx.report("error", "import", 'Missing required argument: The argument "id" is required, but no definition was found (or use "identity" on Terraform 1.12 and later).', close, close + 1, "import", "id");
  }
  if (hasId) {
    // an expression whose value converts to a string: numbers and bools do, objects and lists do not
    const idNode = seen.get("id")! + 1;
    const idKind = doc.kinds[idNode];
    if (idKind === K_OBJECT || idKind === K_ARRAY) ctx.error("import", 'Incorrect attribute value type: The import "id" must be a string.', idNode, "import", "id");
    else if (doc.isString(idNode) && doc.str(idNode) === "") ctx.error("import", "Invalid import id argument: The import ID cannot be an empty string.", idNode, "import", "id");
    else if (doc.isString(idNode) && hasTemplate(doc.str(idNode))) {
      // a template whose known value (local values) is a list or an object: not a string
      const value = templateKnownValue(ctx, analyzeTemplate(doc.str(idNode)));
      if (value !== null && typeof value === "object") ctx.error("import", "Incorrect value type: Invalid expression value: string required.", idNode, "import", "id");
    }
  }
  const toKey = seen.get("to");
  if (toKey === undefined || !doc.isString(toKey + 1)) return;
  const s = doc.str(toKey + 1);
  const t = hasTemplate(s) ? null : parseTraversal(s, true);
  if (!t) return; // already reported
  // without for_each the address is read statically: an index computed by an expression (count.index, each.key, var.x) is refused
  const forEach = seen.get("for_each");
  if ((forEach === undefined || doc.isNull(forEach + 1)) && t.steps.some((x) => x.kind === "index" && x.key === null)) {
    invalidExpression(ctx, toKey + 1, "import", "to");
    return;
  }
  let steps = [...t.steps];
  let root = t.root;
  let module: string | null = null;
  // module.NAME[...] prefixes
  while (root === "module") {
    const name = steps[0];
    if (!name || name.kind !== "attr") break;
    module ??= name.name;
    steps = steps.slice(1);
    while (steps[0]?.kind === "index") steps = steps.slice(1);
    const next = steps[0];
    if (!next || next.kind !== "attr") {
      ctx.error("import", `Invalid import address: The "to" argument must be the address of a managed resource, not a module (got ${quote(formatTraversal(t))}).`, toKey + 1, "import", "to");
      return;
    }
    root = next.name;
    steps = steps.slice(1);
  }
  if (root === "data") {
    ctx.error("import", `Invalid import address: Only managed resources can be imported; ${quote(s)} is a data source.`, toKey + 1, "import", "to");
    return;
  }
  if (["var", "local", "each", "count", "path", "terraform", "self"].includes(root) || steps.length === 0 || steps[0]!.kind !== "attr" || steps.slice(1).some((x) => x.kind === "attr")) {
    ctx.error("import", `Invalid import address: The "to" argument must be the address of a managed resource, such as "tsdb_service.example" (got ${quote(s)}).`, toKey + 1, "import", "to");
    return;
  }
  ctx.imports.push({ file: ctx.fileIndex, node: toKey + 1, type: root, name: (steps[0] as { name: string }).name, to: s, module });
  if (module === null) importDependencies(ctx, seen, ctx.declared.resource.get(root)?.get((steps[0] as { name: string }).name));
}

/** The resource an import targets waits for what its id, identity and for_each refer to (a ring through them is a cycle). */
function importDependencies(ctx: Ctx, seen: ReadonlyMap<string, number>, target: BlockDecl | undefined): void {
  const graph = ctx.dependencies;
  if (!graph || !target) return;
  const outer = ctx.currentBlock;
  ctx.currentBlock = target;
  for (const name of ["id", "identity", "for_each"]) {
    const key = seen.get(name);
    if (key !== undefined) for (const { ref } of referencesIn(ctx.doc, key + 1)) graph.bare(ctx, ref.root, ref.steps, null);
  }
  ctx.currentBlock = outer;
}
