// Resource, data source and provider blocks: meta-arguments, and for our providers' types the
// conversion of the JSON body into the canonical body (ARCHITECTURE.md §1) that validateBody
// checks. The TypeModel decides what is an attribute and what is a nested block; block shapes are
// normalised (object / array / null → one object for `single`, an array for `list` and `set`),
// literal strings are converted to numbers and bools as go-cty does, and every problem found on
// the way is reported at its node. Issues from validateBody are mapped back to nodes by locate().
import { addressOf, joinPath, quote, type BlockDecl, type Ctx } from "./context.js";
import {
  CONNECTION,
  DYNAMIC,
  LIFECYCLE_DATA,
  LIFECYCLE_RESOURCE,
  provisionerSpec,
  checkProvisionerArguments,
  CONNECTION_USED,
  blockElementError,
  blockShapeError,
  checkAttribute,
  checkBody,
  checkExpression,
  checkLooseBody,
  checkProviderConfigured,
  checkString,
  duplicateArgument,
  forEachInstance,
  forEachLabel,
  isName,
  unknownName,
  where,
  withIterator,
} from "./language.js";
import { UNKNOWN_VALUE, type AttributeModel, type BlockModel, type CtyType, type Issue, type NestedBlockModel, type TypeModel } from "./model-types.js";
import { forObjects, K_ARRAY, K_FALSE, K_NULL, K_NUMBER, K_OBJECT, K_STRING, K_STRING_ESC, K_TRUE, setOwn, someString, type JsonDoc } from "./parser.js";
import { suggest } from "./suggest.js";
import { analyzeTemplate, hasTemplate, keywordOf, parseTraversal, type TraversalStep } from "./templates.js";
import { asString, templateKnownValue, UNKNOWN, type Known, type Value } from "./values.js";
import { fastReference } from "./crossref.js";
import { parseBoolString, parseNumberString } from "./typeexpr.js";
import { childOf, providersUsedBy } from "./module-calls.js";
import { builtinType, checkBuiltinArgument, checkBuiltinDynamic, finishBuiltinBody } from "./builtin-types.js";

/** Region of a tsdb_service that sets no region_code (the platform's DEFAULT_REGION; the schema describes it). */
const DEFAULT_SERVICE_REGION = "us-east-1";

/** Where models and validators of our types come from (hcljson/body.ts in production). */
export interface TypeSource {
  /** The loaded model of a type key such as "resource.tsdb_service", or undefined when not ours. */
  model(key: string): TypeModel | undefined;
  /** Full validation with messages (validateBody). */
  validate(key: string, body: Record<string, unknown>): Issue[];
  /** Optional fast check: true when the body is valid (then validate() is not called unless needed). */
  check?(key: string, body: Record<string, unknown>): boolean;
}

const RESOURCE_META = ["count", "for_each", "provider", "depends_on", "lifecycle", "provisioner", "connection", "dynamic", "_"];
const DATA_META = ["count", "for_each", "provider", "depends_on", "lifecycle", "dynamic"];
const PROVIDER_META = ["alias", "version"];
const NO_NAMES: readonly string[] = [];

// ---------------------------------------------------------------------------------------------
// Name lookup without slicing property names out of the text

interface Entry {
  name: string;
  /** char code of the first letter: most candidates of one length differ there */
  first: number;
  /** position in its table: a bit in an accumulator's "seen" mask */
  index: number;
  attr: AttributeModel | null;
  block: NestedBlockModel | null;
}
type BodyClass = new () => Record<string, unknown>;

/** What converting bodies of one block type needs, made once per type. */
interface Table {
  /** entries by name length */
  byLength: (Entry[] | undefined)[];
  /**
   * The constructor of the type's canonical bodies: V8 sizes the objects a constructor makes to
   * the properties they end up with, so a body of eleven arguments is built in place instead of
   * growing its property storage on the way (measured: validate 5-7% faster than with `{}`).
   */
  Body: BodyClass;
}
const tables = new WeakMap<BlockModel, Table>();

// blocks come in runs of one type, with nested blocks in between: two entries in front of the WeakMap
let lastBlock: BlockModel | null = null;
let lastTable: Table | null = null;
let previousBlock: BlockModel | null = null;
let previousTable: Table | null = null;

function tableOf(block: BlockModel): Table {
  if (block === lastBlock) return lastTable!;
  let table: Table | undefined;
  if (block === previousBlock) table = previousTable!;
  else {
    table = tables.get(block);
    if (table === undefined) {
      table = { byLength: [], Body: class {} as unknown as BodyClass };
      const byLength = table.byLength;
      let index = 0;
      const add = (e: Entry) => (byLength[e.name.length] ??= []).push(e);
      for (const name of Object.keys(block.attributes)) add({ name, first: name.charCodeAt(0), index: index++, attr: block.attributes[name]!, block: null });
      for (const name of Object.keys(block.blocks)) add({ name, first: name.charCodeAt(0), index: index++, attr: null, block: block.blocks[name]! });
      tables.set(block, table);
    }
  }
  previousBlock = lastBlock;
  previousTable = lastTable;
  lastBlock = block;
  lastTable = table;
  return table;
}

function lookup(doc: JsonDoc, k: number, table: Table): Entry | undefined {
  if (doc.kinds[k] === K_STRING) {
    const from = doc.starts[k]! + 1;
    const candidates = table.byLength[doc.ends[k]! - from - 1];
    if (candidates === undefined) return undefined;
    const text = doc.text;
    const first = text.charCodeAt(from);
    for (let i = 0; i < candidates.length; i++) {
      const e = candidates[i]!;
      if (e.first === first && text.startsWith(e.name, from)) return e;
    }
    return undefined;
  }
  const name = doc.str(k);
  return table.byLength[name.length]?.find((e) => e.name === name);
}

// ---------------------------------------------------------------------------------------------
// Resource / data / ephemeral blocks

interface ConvertState {
  decl: BlockDecl;
  /** paths (formatted) already reported here: validateBody issues at or under them are dropped */
  reported: string[] | null;
  /** paths of nested blocks generated by dynamic blocks: their item counts cannot be checked */
  dynamicBlocks: string[] | null;
  deprecated: boolean;
  /**
   * The attribute whose value is being converted (not a nested block: blocks are not values):
   * Terraform reports any problem inside a value at the value's start, naming this attribute.
   */
  attr: AttributeModel | null;
  attrPath: string;
  attrValue: number;
}

export function checkResource(ctx: Ctx, decl: BlockDecl, types: TypeSource): void {
  const doc = ctx.doc;
  const kind = decl.blockType;
  // set when the block was declared (module.ts); looked up here for callers that skip that
  const model = decl.model ?? types.model(`${kind}.${decl.type}`);
  if (model) decl.model = model;
  const isResource = kind === "resource";
  const table = model ? tableOf(model.block) : null;
  let metaSeen: Map<string, number> | null = null;
  let lifecycleSeen = -1;
  let escape = -1;
  let looseSeen: Map<string, number> | null = null;
  /** the resource's connection body, and each provisioner's own (-1: none) */
  let connectionBody = -1;
  let provisionerConnections: number[] | null = null;
  const st: ConvertState | null = model ? resetState(ctx, decl) : null;
  const out: Record<string, unknown> | null = table !== null ? new table.Body() : null;
  const acc: Accumulator | null = model ? topAccumulator(decl.body) : null;
  const metaNames = isResource ? RESOURCE_META : DATA_META;
  // Terraform's built-in provider's types: hand-written schemas (builtin-types.ts), not converted
  const builtin = model ? undefined : builtinType(kind, decl.type);

  const end = doc.nexts[decl.body]!;
  const text = doc.text;
  for (let k = decl.body + 1; k < end; k = doc.nexts[k + 1]!) {
    if (table !== null) {
      const entry = lookup(doc, k, table);
      if (entry !== undefined) {
        convertEntry(ctx, st!, k, entry, null, out!, acc!);
        continue;
      }
    }
    // "//" comments (on every resource cdktf writes) are skipped without slicing the name
    const from = doc.starts[k]!;
    if (doc.ends[k]! - from === 4 && text.charCodeAt(from + 1) === 47 && text.charCodeAt(from + 2) === 47) continue;
    const name = doc.str(k);
    switch (name) {
      case "//":
        continue;
      case "count":
      case "for_each":
      case "provider":
      case "depends_on": {
        metaSeen ??= new Map();
        const first = metaSeen.get(name);
        if (first !== undefined) {
          duplicateArgument(ctx, name, k, first, addressOf(decl), name);
          continue;
        }
        metaSeen.set(name, k);
        checkAttribute(ctx, k + 1, name === "provider" ? "provider-ref" : name === "depends_on" ? "refs" : name, name, addressOf(decl), name);
        if (name === "provider") checkProviderConfigured(ctx, k + 1, addressOf(decl), decl);

        continue;
      }
      case "lifecycle":
        forEachInstance(ctx, k + 1, "lifecycle", addressOf(decl), "lifecycle", (body) => {
          if (lifecycleSeen >= 0) {
            ctx.error("duplicate-block", `Duplicate lifecycle block: Only one "lifecycle" block is allowed per ${kind === "data" ? "data source" : "resource"}; another was defined at ${where(ctx, lifecycleSeen)}.`, body, addressOf(decl), "lifecycle");
            return;
          }
          lifecycleSeen = body;
          const seen = checkBody(ctx, body, isResource ? LIFECYCLE_RESOURCE : LIFECYCLE_DATA, addressOf(decl), "lifecycle", k);
          const ignored = seen.get("ignore_changes");
          const block = model?.block ?? builtin?.block;
          if (block && ignored !== undefined) checkIgnoredNames(ctx, ignored + 1, block, addressOf(decl));
        });
        continue;
      case "provisioner":
        if (!isResource) break;
        // {"local-exec": {…}}: one label (the provisioner type)
        forEachLabel(ctx, k + 1, "provisioner", 0, addressOf(decl), "provisioner", (p) => {
          const path = `provisioner.${doc.str(p)}`;
          checkProvisionerType(ctx, p, addressOf(decl));
          forEachInstance(ctx, p + 1, "provisioner", addressOf(decl), path, (body) => {
            const type = doc.str(p);
            const seen = checkBody(ctx, body, provisionerSpec(type), addressOf(decl), path, p);
            checkProvisionerArguments(ctx, type, seen, body, addressOf(decl), path);
            (provisionerConnections ??= []).push(connectionOf(doc, body));
            checkDestroyProvisionerRefs(ctx, body, addressOf(decl), path);
          });
        });
        continue;
      case "connection":
        if (!isResource) break;
        forEachInstance(ctx, k + 1, "connection", addressOf(decl), "connection", (body) => {
          connectionBody = body;
          // with a provisioner to use it, the connection is decoded against the communicators' arguments
          checkBody(ctx, body, hasMember(doc, decl.body, "provisioner") ? CONNECTION_USED : CONNECTION, addressOf(decl), "connection", k);
        });
        continue;
      case "locals":
        ctx.error("reserved-name", 'Reserved block type name in resource block: The block type name "locals" is reserved for use by Terraform in a future version.', k, addressOf(decl), null);
        continue;
      case "_":
        if (kind === "data" || isResource || kind === "ephemeral") {
          if (escape >= 0) {
            ctx.error("duplicate-block", `Duplicate escaping block: The special block type "_" can be used to force particular arguments to be interpreted as resource-type-specific rather than as meta-arguments, but each ${kind} block can have only one such block; another was defined at ${where(ctx, escape)}.`, k, addressOf(decl), "_");
            continue;
          }
          escape = k;
          if (acc) acc.escape = k + 1;
          if (doc.kinds[k + 1] !== K_OBJECT) {
            blockShapeError(ctx, k + 1, "_", addressOf(decl), "_");
            continue;
          }
          if (model) {
            const eend = doc.nexts[k + 1]!;
            for (let e = k + 2; e < eend; e = doc.nexts[e + 1]!) {
              if (doc.str(e) === "//") continue;
              convertMember(ctx, st!, e, model.block, null, out!, acc!, true);
            }
          } else if (builtin) {
            // the escape block holds arguments of the type, named as meta-arguments may be
            for (const e of doc.members(k + 1)) if (doc.str(e) !== "//" && checkBuiltinArgument(ctx, builtin, e, addressOf(decl))) checkLooseMember(ctx, e, addressOf(decl));
          } else checkLooseBody(ctx, k + 1, addressOf(decl), null);
          continue;
        }
        break;
      case "dynamic":
        if (model) convertMember(ctx, st!, k, model.block, null, out!, acc!);
        else if (builtin) checkBuiltinDynamic(ctx, k + 1, addressOf(decl));
        else checkLooseDynamic(ctx, k + 1, addressOf(decl));
        continue;
      default:
        break;
    }
    if (model) convertMember(ctx, st!, k, model.block, null, out!, acc!, false, metaNames);
    else if (builtin && !checkBuiltinArgument(ctx, builtin, k, addressOf(decl))) continue;
    else {
      // another provider's type: a string, number, bool or null can only be an argument, set once
      const vk = doc.kinds[k + 1];
      if (vk !== K_OBJECT && vk !== K_ARRAY) {
        looseSeen ??= new Map();
        const first = looseSeen.get(name);
        if (first !== undefined) duplicateArgument(ctx, name, k, first, addressOf(decl), name);
        else looseSeen.set(name, k);
      }
      checkLooseMember(ctx, k, addressOf(decl));
    }
  }
  if (provisionerConnections !== null) checkConnectionHost(ctx, decl, connectionBody, provisionerConnections);
  // what references to this block need to know (saves repetitionOf a scan of the body)
  if (decl.repetition === undefined) {
    const count = metaSeen?.get("count");
    const forEach = metaSeen?.get("for_each");
    decl.repetition = count !== undefined && doc.kinds[count + 1] !== K_NULL ? "count" : forEach !== undefined && doc.kinds[forEach + 1] !== K_NULL ? "for_each" : null;
  }
  if (metaSeen?.has("count") && metaSeen.has("for_each")) {
    ctx.error("count-and-for-each", 'Invalid combination of "count" and "for_each": The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.', metaSeen.get("for_each")!, addressOf(decl), "for_each");
  }
  if (builtin) finishBuiltinBody(ctx, builtin, decl.body, addressOf(decl));
  if (!model) return;
  decl.model = model;
  // cross-resource checks read literal regions only; the body itself can die young
  // A service that leaves region_code out is in the platform's default region, unless it is a
  // read replica (which inherits its source's).
  const serviceRegion = () => out!.region_code ?? (out!.read_replica_source === undefined ? DEFAULT_SERVICE_REGION : undefined);
  const region = model.key === "resource.tsdb_service" ? serviceRegion() : model.key === "resource.tsdb_log_exporter" || model.key === "resource.tsdb_metric_exporter" ? out!.region : undefined;
  decl.region = typeof region === "string" && !hasTemplate(region) ? region : null;
  validateCanonical(ctx, st!, model, out!, types);
}

export function checkProvider(ctx: Ctx, decl: BlockDecl, types: TypeSource): void {
  const doc = ctx.doc;
  const model = decl.model ?? types.model(`provider.${decl.type}`);
  if (model) decl.model = model;
  const address = addressOf(decl);
  const used = providerConfigUsed(ctx, decl);
  const st: ConvertState | null = model && used ? resetState(ctx, decl) : null;
  const out: Record<string, unknown> = {};
  const acc = newAccumulator(decl.body);
  let seen: Map<string, number> | null = null;
  for (const k of doc.members(decl.body)) {
    const name = doc.str(k);
    if (name === "//") continue;
    if (name === "alias" || name === "version") {
      seen ??= new Map();
      const first = seen.get(name);
      if (first !== undefined) {
        duplicateArgument(ctx, name, k, first, address, name);
        continue;
      }
      seen.set(name, k);
      checkAttribute(ctx, k + 1, "string", name, address, name);
      // the alias is converted to a string first (5 becomes "5"), then must be a name (Unicode letters too)
      // (a number's text never is; true and false are)
      if (name === "alias" && (doc.isString(k + 1) || doc.kinds[k + 1] === K_NUMBER)) {
        if (doc.kinds[k + 1] === K_NUMBER || !isName(doc.str(k + 1))) ctx.error("invalid-name", "Invalid provider configuration alias: An alias must be a valid name. A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.", k + 1, address, "alias");
      }
      if (name === "version") {
        ctx.warning("deprecated", 'Version constraints inside provider configuration blocks are deprecated: use "required_providers" in the "terraform" block instead.', k, address, "version");
      }
      continue;
    }
    if (model && used) convertMember(ctx, st!, k, model.block, null, out, acc, false, PROVIDER_META);
    else if (!used) {
      // an unused configuration is never evaluated (its expressions are not even parsed), but its
      // body is read once when the configuration is loaded: an argument set twice is an error
      seen ??= new Map();
      const first = seen.get(name);
      if (first !== undefined) duplicateArgument(ctx, name, k, first, address, name);
      else seen.set(name, k);
      // not judged, but a secret stays masked in every code frame
      if (model && Object.prototype.hasOwnProperty.call(model.block.attributes, name) && model.block.attributes[name]!.sensitive) ctx.markSensitive(k + 1);
    } else checkLooseMember(ctx, k, address);
  }
  if (!model || !used) return;
  decl.model = model;
  validateCanonical(ctx, st!, model, out, types);
}

/**
 * Whether anything uses a provider configuration: Terraform prunes an unused one from the graph,
 * so validate never decodes its body against the provider's schema nor asks the provider to
 * validate it (an unknown argument or a bad value there passes). A default configuration counts
 * as used when a resource or data source of its provider's types is declared, or a module call or
 * import block could use it; an aliased one when its address ("tsdb.east") is written anywhere in
 * the module's files as a whole string (a `provider` argument, a module's `providers` map, an
 * import's provider). Both err towards "used" (then its body is checked, as before).
 */
function providerConfigUsed(ctx: Ctx, decl: BlockDecl): boolean {
  const alias = decl.labelList?.[1];
  if (alias !== undefined) {
    const needle = JSON.stringify(`${decl.type}.${alias}`);
    return ctx.files.some((f) => f.text.includes(needle));
  }
  let defaults = defaultsUsed.get(ctx);
  if (defaults === undefined) {
    defaults = new Set();
    for (const b of ctx.blocks) {
      if (b.blockType === "module") moduleCallProviders(ctx, b, defaults);
      else if (b.blockType === "import") defaults.add(ANY_PROVIDER);
      else if (b.blockType === "ephemeral") defaults.add(providerOfType(b.type));
    }
    for (const byType of [ctx.declared.resource, ctx.declared.data]) for (const type of byType.keys()) defaults.add(providerOfType(type));
    defaultsUsed.set(ctx, defaults);
  }
  return defaults.has(ANY_PROVIDER) || defaults.has(decl.type);
}

/**
 * The default configurations a module call passes on: those of the providers the called module
 * (and its own local calls) has types of. Every one when that is not known (a module we did not
 * read) or when the call has a providers map (left to the rules of explicit passing).
 */
function moduleCallProviders(ctx: Ctx, call: BlockDecl, defaults: Set<string>): void {
  const doc = ctx.files[call.file]!.doc!;
  const child = childOf(ctx, call);
  if (child === undefined || doc.kinds[call.body] !== K_OBJECT || hasMember(doc, call.body, "providers")) {
    defaults.add(ANY_PROVIDER);
    return;
  }
  const used = new Set<string>();
  providersUsedBy(child, used);
  if (used.has("*")) defaults.add(ANY_PROVIDER);
  for (const p of used) defaults.add(p);
}

/** The provider a resource type implies: its prefix up to the first "_". */
function providerOfType(type: string): string {
  const underscore = type.indexOf("_");
  return underscore > 0 ? type.slice(0, underscore) : type;
}

/** Per module: the providers whose default configuration something may use. */
const defaultsUsed = new WeakMap<Ctx, Set<string>>();
/** In defaultsUsed: every default configuration is (a module call passes them on). */
const ANY_PROVIDER = " any";

function checkLooseMember(ctx: Ctx, k: number, address: string): void {
  // another provider's argument or nested block: only language rules apply
  const doc = ctx.doc;
  const name = doc.str(k);
  const kind = doc.kinds[k + 1];
  if (kind === K_OBJECT || kind === K_ARRAY) checkExpression(ctx, k + 1, address, name, true);
  else if (doc.isString(k + 1)) checkString(ctx, k + 1, address, name);
}

function checkLooseDynamic(ctx: Ctx, value: number, address: string): void {
  const doc = ctx.doc;
  forEachLabel(ctx, value, "dynamic", 0, address, "dynamic", (t) => {
    const target = doc.str(t);
    forEachInstance(ctx, t + 1, "dynamic", address, `dynamic.${target}`, (body) => {
      checkDynamicBody(ctx, body, target, address, t, (content) => checkLooseBody(ctx, content, address, `dynamic.${target}.content`));
    });
  });
}

/** Each name in lifecycle.ignore_changes is an argument or nested block of our type (Terraform checks it against the schema). */
function checkIgnoredNames(ctx: Ctx, value: number, block: BlockModel, address: string): void {
  const doc = ctx.doc;
  if (doc.kinds[value] !== K_ARRAY) return;
  for (const e of doc.elements(value)) {
    if (!doc.isString(e)) continue;
    const text = doc.str(e);
    if (hasTemplate(text)) continue; // reported as a template in a reference-only position
    const t = parseTraversal(text, false);
    if (!t) continue;
    const name = t.root;
    if (Object.prototype.hasOwnProperty.call(block.attributes, name)) {
      const problem = traversalProblem(block.attributes[name]!.type, t.steps);
      if (problem) ctx.error("unsupported-attribute", problem, e, address, "lifecycle.ignore_changes");
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(block.blocks, name)) continue;
    const hint = suggest(name, [...Object.keys(block.attributes), ...Object.keys(block.blocks)]);
    ctx.error("unsupported-attribute", `Unsupported attribute: This object has no argument, nested block, or exported attribute named ${quote(name)}.${hint ? ` Did you mean "${hint}"?` : ""}`, e, address, "lifecycle.ignore_changes");
  }
}

/** Why steps after an attribute of a type cannot be taken (Terraform's words), or null: a primitive has neither attributes nor indices. */
function traversalProblem(type: CtyType, steps: readonly TraversalStep[]): string | null {
  let t: CtyType | undefined = type;
  for (const step of steps) {
    if (t === undefined) return null;
    if (typeof t === "string") {
      return step.kind === "attr" ? `Unsupported attribute: Can't access attributes on a primitive-typed value (${t}).` : "Invalid index: This value does not have any indices.";
    }
    const [kind, inner]: [string, unknown] = t;
    if (kind === "object") {
      t = step.kind === "attr" || (step.kind === "index" && typeof step.key === "string") ? (inner as Record<string, CtyType>)[step.kind === "attr" ? step.name : (step.key as string)] : undefined;
    } else t = inner as CtyType;
  }
  return null;
}

function hasMember(doc: JsonDoc, body: number, name: string): boolean {
  for (const k of doc.members(body)) if (doc.str(k) === name) return true;
  return false;
}

/** A provisioner's own connection block (its first, when an object), or -1. */
function connectionOf(doc: JsonDoc, body: number): number {
  for (const k of doc.members(body)) if (doc.str(k) === "connection" && doc.kinds[k + 1] === K_OBJECT) return k + 1;
  return -1;
}

/** Whether a connection body sets host to something other than null. */
function setsHost(doc: JsonDoc, body: number): boolean {
  if (body < 0) return false;
  for (const k of doc.members(body)) if (doc.str(k) === "host" && doc.kinds[k + 1] !== K_NULL) return true;
  return false;
}

/**
 * A provisioner that has a connection (its own, the resource's, or both merged) needs its host:
 * validate decodes the merged connection with host required, and reports its absence at the
 * closing brace of the provisioner's own connection (else of the resource's).
 */
function checkConnectionHost(ctx: Ctx, decl: BlockDecl, resourceConnection: number, own: number[]): void {
  const doc = ctx.doc;
  const resourceHost = setsHost(doc, resourceConnection);
  for (const connection of own) {
    if (connection < 0 && resourceConnection < 0) continue;
    if (resourceHost || setsHost(doc, connection)) continue;
    const body = connection >= 0 ? connection : resourceConnection;
    const close = doc.end(body) - 1;
    ctx.report("error", "missing-argument", 'Missing required argument: The argument "host" is required, but no definition was found.', close, close + 1, addressOf(decl), "connection.host");
  }
}

/** Terraform's built-in provisioners; chef and the others of 0.x were removed (Terraform names them so). */
const PROVISIONERS = new Set(["local-exec", "remote-exec", "file"]);
const REMOVED_PROVISIONERS = new Set(["chef", "habitat", "puppet", "salt-masterless"]);

function checkProvisionerType(ctx: Ctx, key: number, address: string): void {
  const type = ctx.doc.str(key);
  if (PROVISIONERS.has(type)) return;
  if (REMOVED_PROVISIONERS.has(type)) {
    ctx.error("unknown-provisioner", `The ${quote(type)} provisioner has been removed: The ${quote(type)} provisioner was deprecated in Terraform 0.13.4 has been removed from Terraform.`, key, address, `provisioner.${type}`);
  } else {
    // Terraform gives no position for it
    ctx.error("unknown-provisioner", `Missing required provisioner plugin: This configuration requires provisioner plugin ${quote(type)}, which isn't available.`, key, address, `provisioner.${type}`);
  }
}

/** The body of one `dynamic "<target>"` block: for_each, iterator, labels, content. `labels` only where the target block has labels (none of ours has). */
function checkDynamicBody(ctx: Ctx, body: number, target: string, address: string, header: number, content: (body: number) => void, labelled = true): void {
  // the content refers to the current element by the iterator's name (the block type by default)
  let iterator = target;
  for (const k of ctx.doc.members(body)) if (ctx.doc.str(k) === "iterator" && ctx.doc.isString(k + 1)) iterator = ctx.doc.str(k + 1);
  withIterator(iterator, () => checkDynamicMembers(ctx, body, target, address, header, content, labelled));
}

function checkDynamicMembers(ctx: Ctx, body: number, target: string, address: string, header: number, content: (body: number) => void, labelled: boolean): void {
  const doc = ctx.doc;
  let contents = 0;
  const path = `dynamic.${target}`;
  // checkBody would reject "content": handle it here and the rest with the spec
  const seen = new Map<string, number>();
  for (const k of doc.members(body)) {
    const name = doc.str(k);
    if (name === "//") continue;
    if (name === "content") {
      forEachInstance(ctx, k + 1, "content", address, `${path}.content`, (c) => {
        contents++;
        if (contents > 1) ctx.error("duplicate-block", `Duplicate content block: A dynamic block may have only one "content" block.`, c, address, `${path}.content`);
        else content(c);
      });
      continue;
    }
    const attr = name === "labels" && !labelled ? undefined : DYNAMIC.attrs.get(name);
    if (!attr) {
      unknownName(ctx, name, k, labelled ? ["for_each", "iterator", "labels", "content"] : ["for_each", "iterator", "content"], address, joinPath(path, name));
      continue;
    }
    const first = seen.get(name);
    if (first !== undefined) {
      duplicateArgument(ctx, name, k, first, address, joinPath(path, name));
      continue;
    }
    seen.set(name, k);
    checkAttribute(ctx, k + 1, attr.kind, name, address, joinPath(path, name));
  }
  // both at the closing brace of the dynamic block's body, as Terraform reports them
  const close = doc.end(body) - 1;
  if (!seen.has("for_each")) ctx.report("error", "missing-argument", 'Missing required argument: The argument "for_each" is required, but no definition was found.', close, close + 1, address, `${path}.for_each`);
  else if (doc.isNull(seen.get("for_each")! + 1)) ctx.error("for-each", "Invalid dynamic for_each value: Cannot use a null value in for_each.", seen.get("for_each")! + 1, address, `${path}.for_each`);
  else {
    // a literal string, number or bool is no collection to iterate
    const value = seen.get("for_each")! + 1;
    const kind = doc.kinds[value];
    const primitive = kind === K_NUMBER ? "number" : kind === K_TRUE || kind === K_FALSE ? "bool" : doc.isString(value) && !hasTemplate(doc.str(value)) ? "string" : null;
    if (primitive !== null) ctx.error("for-each", `Invalid dynamic for_each value: Cannot use a ${primitive} value in for_each. An iterable collection is required.`, value, address, `${path}.for_each`);
  }
  if (contents === 0) {
    ctx.report("error", "missing-argument", 'Missing dynamic content block: A dynamic block must have a nested block of type "content" to describe the body of each generated block.', close, close + 1, address, `${path}.content`);
  }
}

// ---------------------------------------------------------------------------------------------
// Conversion of our types' bodies

interface Accumulator {
  /** the body object (and a "_" escape body) the members come from */
  body: number;
  escape: number;
  /** attributes set so far, by Entry.index (two 32-bit masks, then a list) */
  seenLo: number;
  seenHi: number;
  seenMore: number[] | null;
}

/** The accumulator of a block's top level, reused from one block to the next (they never nest). */
const sharedTop: Accumulator = { body: 0, escape: -1, seenLo: 0, seenHi: 0, seenMore: null };
function topAccumulator(body: number): Accumulator {
  sharedTop.body = body;
  sharedTop.escape = -1;
  sharedTop.seenLo = 0;
  sharedTop.seenHi = 0;
  sharedTop.seenMore = null;
  return sharedTop;
}

function newAccumulator(body: number): Accumulator {
  return { body, escape: -1, seenLo: 0, seenHi: 0, seenMore: null };
}

const hasOwnProperty = Object.prototype.hasOwnProperty;
function hasOwn(o: object, k: string): boolean {
  return hasOwnProperty.call(o, k);
}

/** The conversion state, reused from one block to the next (conversions never nest). */
function resetState(ctx: Ctx, decl: BlockDecl): ConvertState {
  let st = ctx.convertState as ConvertState | null;
  if (st === null) {
    st = { decl, reported: null, dynamicBlocks: null, deprecated: false, attr: null, attrPath: "", attrValue: 0 };
    ctx.convertState = st;
    return st;
  }
  st.decl = decl;
  st.reported = null;
  st.dynamicBlocks = null;
  st.deprecated = false;
  return st;
}

function addReported(st: ConvertState, path: string): void {
  (st.reported ??= []).push(path);
}

function reportAt(ctx: Ctx, st: ConvertState, severity: "error", code: string, message: string, node: number, path: string | null): void {
  if (path !== null) addReported(st, path);
  ctx.error(code, message, node, addressOf(st.decl), path);
}

/** The first property named `name` in the bodies of an accumulator (for "already set at"). */
function firstKey(ctx: Ctx, acc: Accumulator, name: string): number {
  const doc = ctx.doc;
  for (const body of acc.escape >= 0 ? [acc.body, acc.escape] : [acc.body]) {
    for (const m of doc.members(body)) if (doc.str(m) === name) return m;
  }
  return acc.body;
}

/** Marks an entry as set; true when it already was (a duplicate). */
function markSeen(acc: Accumulator, index: number): boolean {
  if (index < 32) {
    const bit = 1 << index;
    if (acc.seenLo & bit) return true;
    acc.seenLo |= bit;
    return false;
  }
  if (index < 64) {
    const bit = 1 << (index - 32);
    if (acc.seenHi & bit) return true;
    acc.seenHi |= bit;
    return false;
  }
  const more = (acc.seenMore ??= []);
  if (more.includes(index)) return true;
  more.push(index);
  return false;
}


function convertMember(ctx: Ctx, st: ConvertState, k: number, block: BlockModel, base: string | null, out: Record<string, unknown>, acc: Accumulator, escaped = false, extraNames: readonly string[] = NO_NAMES): void {
  const doc = ctx.doc;
  const entry = lookup(doc, k, tableOf(block));
  if (entry) {
    convertEntry(ctx, st, k, entry, base, out, acc);
    return;
  }
  {
    const name = doc.str(k);
    if (name === "//") return;
    if (name === "dynamic" && !escaped) {
      collectDynamic(ctx, st, k, block, base, out);
      return;
    }
    const path = joinPath(base, name);
    addReported(st, path);
    unknownName(ctx, name, k, settableNames(block, extraNames), addressOf(st.decl), path);
  }
}

/** Per block and list of extra names: built once, not once per unknown name (a file may hold thousands). */
const settableNamesCache = new WeakMap<BlockModel, Map<readonly string[], string[]>>();

/** The names a body of `block` may set: its arguments (not the read-only ones), nested blocks and `extraNames`. */
function settableNames(block: BlockModel, extraNames: readonly string[]): string[] {
  let byExtra = settableNamesCache.get(block);
  if (byExtra === undefined) settableNamesCache.set(block, (byExtra = new Map()));
  let names = byExtra.get(extraNames);
  if (names === undefined) {
    names = [...Object.keys(block.attributes).filter((a) => !block.attributes[a]!.computed || block.attributes[a]!.optional), ...Object.keys(block.blocks), ...extraNames];
    byExtra.set(extraNames, names);
  }
  return names;
}

function convertEntry(ctx: Ctx, st: ConvertState, k: number, entry: Entry, base: string | null, out: Record<string, unknown>, acc: Accumulator): void {
  const doc = ctx.doc;
  const name = entry.name;
  if (entry.attr) {
    const path = base === null ? name : `${base}.${name}`; // model names are identifiers
    if (markSeen(acc, entry.index)) {
      addReported(st, path);
      duplicateArgument(ctx, name, k, firstKey(ctx, acc, name), addressOf(st.decl), path);
      return;
    }
    const attr = entry.attr;
    if (attr.sensitive) ctx.markSensitive(k + 1);
    if (attr.deprecated) st.deprecated = true;
    st.attr = attr;
    st.attrPath = path;
    st.attrValue = k + 1;
    const v = attr.nested ? convertNested(ctx, st, k + 1, attr, path) : convertValue(ctx, st, k + 1, attr.type, path, base === null ? attr : null);
    if (v !== undefined) out[name] = v;
    return;
  }
  // a nested block: each instance is converted where it appears (static and dynamic ones in
  // source order, as locate() finds them)
  const nested = entry.block!;
  const path = base === null ? name : joinPath(base, name);
  const kind = doc.kinds[k + 1];
  if (kind === K_OBJECT) addInstance(ctx, st, k + 1, nested, path, out, false, k + 1);
  else if (kind === K_ARRAY) {
    const end = doc.nexts[k + 1]!;
    for (let c = k + 2; c < end; c = doc.nexts[c]!) {
      // Terraform gives the blocks of an array the array's position; a null there is an empty block
      if (doc.kinds[c] === K_OBJECT || doc.kinds[c] === K_NULL) addInstance(ctx, st, c, nested, path, out, false, k + 1);
      else if (doc.kinds[c] === K_ARRAY) {
        // an array of arrays: Terraform reads each inner array's objects as one block
        forEachInstance(ctx, c, name, addressOf(st.decl), path, (body) => addInstance(ctx, st, body, nested, path, out, false, k + 1));
      } else {
        addReported(st, path);
        blockElementError(ctx, c, addressOf(st.decl), path);
      }
    }
  } else if (kind !== K_NULL) {
    addReported(st, path);
    if (doc.isString(k + 1) && hasTemplate(doc.str(k + 1))) {
      ctx.error("block-shape", `Unsupported argument: ${quote(name)} is a nested block, not an argument, so it cannot be set from an expression; use a "dynamic" block to generate it.`, k + 1, addressOf(st.decl), path);
    } else blockShapeError(ctx, k + 1, name, addressOf(st.decl), path);
  }
}

/**
 * Converts one block instance into the canonical body: an object (`single`) or an array element.
 * `at` is where the block is defined, for messages (its body, the array holding it, or the
 * `dynamic` block generating it). A dynamic block generates `generated` blocks: as many as its
 * literal for_each has elements, one when for_each is unknown at validate (Terraform still counts
 * it), none for an empty one.
 */
function addInstance(ctx: Ctx, st: ConvertState, body: number, nested: NestedBlockModel, path: string, out: Record<string, unknown>, dynamic: boolean, at = body, generated = 1): void {
  const name = nested.name;
  const existing = out[name];
  if (nested.nesting === "single") {
    if (existing !== undefined || generated > 1) {
      addReported(st, path);
      // found again only now (rare): nothing is kept per block for it
      const first = existing === undefined ? at : path === name ? firstDefinition(ctx, st.decl.body, name) : -1;
      const previous = first < 0 ? "" : ` Previous definition was at ${where(ctx, first)}.`;
      ctx.error("too-many-blocks", `Duplicate ${name} block: Only one block of type ${quote(name)} is allowed.${previous}`, at, addressOf(st.decl), path);
      if (existing !== undefined) {
        // not converted, but its references are still Terraform's first errors (a dynamic block's content is evaluated before its blocks are counted)
        if (dynamic) checkLooseBody(ctx, body, addressOf(st.decl), path);
        return;
      }
    }
    out[name] = convertBlockBody(ctx, st, body, nested.block, path);
    return;
  }
  const list = existing === undefined ? (out[name] = []) : existing;
  (list as unknown[]).push(convertBlockBody(ctx, st, body, nested.block, joinPath(path, (list as unknown[]).length)));
}

/** The length of a template that is one literal tuple, e.g. "${[\"1h\", \"2h\"]}" (null for anything else: unknown at validate). */
function literalTupleLength(text: string): number | null {
  const m = /^\$\{\s*\[([\s\S]*)\]\s*\}$/.exec(text);
  if (!m || analyzeTemplate(text).references.length > 0) return null;
  const inner = m[1]!;
  let depth = 0;
  let quoted = false;
  let elements = inner.trim() === "" ? 0 : 1;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === "[" || c === "{" || c === "(") depth++;
    else if (c === "]" || c === "}" || c === ")") depth--;
    else if (c === "," && depth === 0 && inner.slice(i + 1).trim() !== "") elements++;
  }
  return elements;
}

/** Where the first `name` block of a body is defined: a static one's object (or array), or a dynamic one's; -1 when none. */
function firstDefinition(ctx: Ctx, body: number, name: string): number {
  const doc = ctx.doc;
  for (const k of doc.members(body)) {
    const key = doc.str(k);
    if (key === name && (doc.kinds[k + 1] === K_OBJECT || doc.kinds[k + 1] === K_ARRAY)) return k + 1;
    if (key === "dynamic" && doc.kinds[k + 1] === K_OBJECT) for (const t of doc.members(k + 1)) if (doc.str(t) === name) return t + 1;
  }
  return -1;
}

/** How many blocks a dynamic block generates at validate: its literal for_each's elements, else 1 (unknown). */
function generatedCount(ctx: Ctx, dynamicBody: number): number {
  const doc = ctx.doc;
  for (const k of doc.members(dynamicBody)) {
    if (doc.str(k) !== "for_each") continue;
    const kind = doc.kinds[k + 1];
    if (kind === K_ARRAY) return doc.elements(k + 1).length;
    if (kind === K_OBJECT) return doc.members(k + 1).length;
    if (doc.isString(k + 1)) return literalTupleLength(doc.str(k + 1)) ?? 1;
    return kind === K_NULL ? 0 : 1;
  }
  return 1;
}

function collectDynamic(ctx: Ctx, st: ConvertState, k: number, block: BlockModel, base: string | null, out: Record<string, unknown>): void {
  const address = addressOf(st.decl);
  forEachLabel(ctx, k + 1, "dynamic", 0, address, joinPath(base, "dynamic"), (t) => collectDynamicTarget(ctx, st, t, block, base, out));
}

/** One `dynamic "<target>"` of our types: the target must be a nested block; its contents are converted as instances of it. */
function collectDynamicTarget(ctx: Ctx, st: ConvertState, t: number, block: BlockModel, base: string | null, out: Record<string, unknown>): void {
  const doc = ctx.doc;
  const address = addressOf(st.decl);
  const target = doc.str(t);
  const nested = Object.prototype.hasOwnProperty.call(block.blocks, target) ? block.blocks[target]! : undefined;
  const path = joinPath(base, target);
  if (!nested) {
    const hint = suggest(target, Object.keys(block.blocks));
    const isAttr = Object.prototype.hasOwnProperty.call(block.attributes, target);
    ctx.error(
      "unknown-argument",
      isAttr
        ? `Unsupported block type: ${quote(target)} is an argument, not a nested block, so it cannot be generated with a dynamic block.`
        : `Unsupported block type: Blocks of type ${quote(target)} are not expected here.${hint ? ` Did you mean "${hint}"?` : ""}`,
      t,
      address,
      path,
    );
    addReported(st, path);
    return;
  }
  (st.dynamicBlocks ??= []).push(path);
  forEachInstance(ctx, t + 1, "dynamic", address, `${joinPath(base, "dynamic")}.${target}`, (body) => {
    const generated = generatedCount(ctx, body);
    // none generated: the content is still checked, into a body of its own
    checkDynamicBody(ctx, body, target, address, t, (content) => addInstance(ctx, st, content, nested, path, generated === 0 ? {} : out, true, t + 1, generated), false);
  });
}

function convertBlockBody(ctx: Ctx, st: ConvertState, body: number, block: BlockModel, base: string): Record<string, unknown> {
  const doc = ctx.doc;
  const table = tableOf(block);
  const out = new table.Body();
  const acc = newAccumulator(body);
  const end = doc.nexts[body]!;
  for (let k = body + 1; k < end; k = doc.nexts[k + 1]!) {
    const entry = lookup(doc, k, table);
    if (entry !== undefined) convertEntry(ctx, st, k, entry, base, out, acc);
    else convertMember(ctx, st, k, block, base, out, acc);
  }
  return out;
}

/** A type as Terraform names it in conversion errors: "string", "list of object", "map of string". */
function typeName(t: CtyType): string {
  if (typeof t === "string") return t;
  if (t[0] === "object") return "object";
  return `${t[0]} of ${typeName(t[1] as CtyType)}`;
}

/** "element 0: attribute "x": " — where inside the attribute's value `path` is, as Terraform says it. */
function insideValue(st: ConvertState, path: string): string {
  let rest = path.startsWith(st.attrPath) ? path.slice(st.attrPath.length) : "";
  const segments: (string | number)[] = [];
  const step = /^(?:\.([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\])/;
  for (let m = step.exec(rest); m !== null && rest !== ""; m = step.exec(rest)) {
    rest = rest.slice(m[0].length);
    segments.push(m[2] !== undefined ? Number(m[2]) : (m[1] ?? (JSON.parse(m[3]!) as string)));
  }
  return describeInside(st.attr?.type, segments);
}

/** Terraform's description of a place inside a value of type `type`: "element 0: attribute "x": ". */
function describeInside(type: CtyType | undefined, segments: (string | number)[]): string {
  let out = "";
  for (const segment of segments) {
    const isObject = type !== undefined && typeof type !== "string" && type[0] === "object";
    out += typeof segment === "number" ? `element ${segment}: ` : isObject ? `attribute ${quote(segment)}: ` : `element ${quote(segment)}: `;
    type = type === undefined || typeof type === "string" ? undefined : isObject ? (type[1] as Record<string, CtyType>)[String(segment)] : (type[1] as CtyType);
  }
  return out;
}

/** A value that cannot be converted to its type: reported at the attribute's value, as Terraform does. */
function typeError(ctx: Ctx, st: ConvertState, t: CtyType, path: string, detail = `${typeName(t)} required`): undefined {
  reportAt(ctx, st, "error", "value-type", `Incorrect attribute value type: Inappropriate value for attribute ${quote(st.attr?.name ?? "")}: ${insideValue(st, path)}${detail}.`, st.attrValue, path);
  return undefined;
}

function numberText(doc: JsonDoc, node: number): string {
  const n = doc.num(node);
  return Number.isSafeInteger(n) || !Number.isInteger(n) ? String(n) : doc.raw(node);
}

/** A template string: checked, references recorded; the validator sees its value where validate knows it, else the unknown value it is. */
function templateValue(ctx: Ctx, st: ConvertState, node: number, s: string, path: string, attr: AttributeModel | null, t: CtyType): unknown {
  if (ctx.referenceSink !== null && fastReference(ctx, st.decl, node, s, attr ? attr.name : undefined, t)) return UNKNOWN_VALUE;
  checkString(ctx, node, addressOf(st.decl), path, st.decl, attr ? attr.name : undefined, t);
  // a template Terraform evaluates at validate time (local values of literals, operators,
  // functions): the value rules see its value. A lone reference to anything but a local value is
  // unknown at once; checkString analyzed the template just before (analyzeTemplate remembers it).
  const info = analyzeTemplate(s);
  if (info.whole === null || info.whole.root === "local") {
    const v = templateKnownValue(ctx, info);
    // a known null is no value at all, as a literal null is
    if (v === null) return undefined;
    if (v !== UNKNOWN) {
      const converted = typeof t === "string" ? knownAs(ctx, st, v, t, path) : structuralAs(v, t);
      return converted === MISMATCH ? typeError(ctx, st, t, path) : converted;
    }
  }
  return UNKNOWN_VALUE;
}

/** A known value whose shape can never convert to the type (a list for a string, a map, or an object; an attribute the object type lacks). */
const MISMATCH: unique symbol = Symbol("mismatch");

/**
 * A known list, set, map or object value as the canonical value of type `t` (a local holding
 * `{ type = "Private" }` for an object attribute); whatever does not convert plainly stays unknown.
 */
function structuralAs(v: Known, t: CtyType): unknown {
  if (v === UNKNOWN || v === null) return UNKNOWN_VALUE;
  if (typeof t === "string") {
    if (typeof v === "object") return MISMATCH;
    if (t === "string") return asString(v) === UNKNOWN ? UNKNOWN_VALUE : asString(v);
    if (t === "number") return typeof v === "number" ? v : typeof v === "string" ? (parseNumberString(v) ?? UNKNOWN_VALUE) : UNKNOWN_VALUE;
    return typeof v === "boolean" ? v : typeof v === "string" ? (parseBoolString(v) ?? UNKNOWN_VALUE) : UNKNOWN_VALUE;
  }
  const [shape, inner] = t;
  if (shape === "list" || shape === "set") {
    if (typeof v !== "object") return MISMATCH;
    if (!Array.isArray(v)) return MISMATCH;
    const items = v.map((e) => (e === null ? null : structuralAs(e, inner as CtyType)));
    return items.includes(MISMATCH) ? MISMATCH : items;
  }
  if (typeof v !== "object" || Array.isArray(v)) return MISMATCH;
  const out: Record<string, unknown> = {};
  if (shape === "map") {
    for (const [k, e] of Object.entries(v)) {
      const item = e === null ? null : structuralAs(e, inner as CtyType);
      if (item === MISMATCH) return MISMATCH;
      setOwn(out, k, item);
    }
    return out;
  }
  const attrs = inner as { [n: string]: CtyType };
  for (const [k, e] of Object.entries(v)) {
    if (!Object.prototype.hasOwnProperty.call(attrs, k)) return MISMATCH;
    if (e === null) continue;
    const item = structuralAs(e, attrs[k]!);
    if (item === MISMATCH) return MISMATCH;
    setOwn(out, k, item);
  }
  return out;
}

/** A known value converted to a primitive attribute type as Terraform converts it, or its conversion error. */
function knownAs(ctx: Ctx, st: ConvertState, v: Value, t: "string" | "number" | "bool", path: string): unknown {
  if (v === null) return UNKNOWN_VALUE;
  if (typeof v === "object") return MISMATCH;
  if (t === "string") return asString(v) === UNKNOWN ? UNKNOWN_VALUE : asString(v);
  if (t === "number") {
    if (typeof v === "number") return v;
    const n = typeof v === "string" ? parseNumberString(v) : undefined;
    return n === undefined ? typeError(ctx, st, t, path, "a number is required") : n;
  }
  if (typeof v === "boolean") return v;
  const b = typeof v === "string" ? parseBoolString(v) : undefined;
  return b === undefined ? typeError(ctx, st, t, path, "a bool is required") : b;
}

function convertValue(ctx: Ctx, st: ConvertState, node: number, t: CtyType, path: string, attr: AttributeModel | null): unknown {
  const doc = ctx.doc;
  const kind = doc.kinds[node];
  if (kind === K_NULL) return undefined;
  if (typeof t === "string") {
    if (kind === K_STRING || kind === K_STRING_ESC) {
      const s = kind === K_STRING ? doc.text.slice(doc.starts[node]! + 1, doc.ends[node]! - 1) : doc.str(node);
      if (hasTemplate(s)) return templateValue(ctx, st, node, s, path, attr, t);
      if (t === "string") return s;
      if (t === "number") {
        const n = parseNumberString(s);
        return n === undefined ? typeError(ctx, st, t, path) : n;
      }
      const b = parseBoolString(s);
      if (b === undefined) {
        const lower = s.toLowerCase();
        if (lower === "true" || lower === "false") {
          return typeError(ctx, st, t, path, `bool required; to convert from string, use lowercase "${lower}"`);
        }
        return typeError(ctx, st, t, path);
      }
      return b;
    }
    if (kind === K_NUMBER) {
      if (t === "number") return doc.num(node);
      if (t === "string") return numberText(doc, node);
      return typeError(ctx, st, t, path);
    }
    if (kind === K_TRUE || kind === K_FALSE) {
      if (t === "bool") return kind === K_TRUE;
      if (t === "string") return kind === K_TRUE ? "true" : "false";
      return typeError(ctx, st, t, path);
    }
    return typeError(ctx, st, t, path);
  }
  if (doc.isString(node)) {
    const s = doc.str(node);
    if (hasTemplate(s)) return templateValue(ctx, st, node, s, path, attr, t);
    return typeError(ctx, st, t, path);
  }
  const [shape, inner] = t;
  if (shape === "list" || shape === "set") {
    if (kind !== K_ARRAY) return typeError(ctx, st, t, path);
    const out: unknown[] = [];
    let i = 0;
    const end = doc.nexts[node]!;
    for (let c = node + 1; c < end; c = doc.nexts[c]!) {
      const v = doc.kinds[c] === K_NULL ? null : convertValue(ctx, st, c, inner as CtyType, joinPath(path, i), null);
      out.push(v === undefined ? null : v);
      i++;
    }
    // a tuple converted to a set loses its duplicate elements (Terraform does not complain);
    // unknown elements stay: they may or may not turn out equal
    if (shape === "set" && typeof inner === "string" && out.length > 1) return out.filter((v, j) => v === UNKNOWN_VALUE || out.indexOf(v) === j);
    return out;
  }
  if (kind !== K_OBJECT) return typeError(ctx, st, t, path);
  const out: Record<string, unknown> = {};
  let valueless: string[] | null = null;
  const end = doc.nexts[node]!;
  for (let k = node + 1; k < end; k = doc.nexts[k + 1]!) {
    const key = doc.str(k);
    if (hasOwn(out, key) || (valueless !== null && valueless.includes(key))) {
      const keyPath = joinPath(path, key);
      reportAt(ctx, st, "error", "duplicate-object-attribute", `Duplicate object attribute: An attribute named ${quote(key)} was already defined at ${where(ctx, firstKey(ctx, newAccumulator(node), key))}.`, k, keyPath);
      continue;
    }
    if (hasTemplate(key)) checkString(ctx, k, addressOf(st.decl), path);
    let elementType: CtyType | undefined;
    if (shape === "map") elementType = inner as CtyType;
    else {
      const attrs = inner as { [n: string]: CtyType };
      elementType = Object.prototype.hasOwnProperty.call(attrs, key) ? attrs[key] : undefined;
    }
    if (elementType === undefined) {
      setOwn(out, key, doc.toValue(k + 1)); // not part of the object type: the validator reports it
      continue;
    }
    const v = convertValue(ctx, st, k + 1, elementType, joinPath(path, key), null);
    if (v !== undefined) setOwn(out, key, v);
    else (valueless ??= []).push(key);
  }
  return out;
}

/** A nested attribute (protocol 6): an expression holding an object, or a list/set of objects. */
function convertNested(ctx: Ctx, st: ConvertState, node: number, attr: AttributeModel, path: string): unknown {
  const doc = ctx.doc;
  const nested = attr.nested!;
  const kind = doc.kinds[node];
  if (kind === K_NULL) return undefined;
  if (doc.isString(node)) {
    const s = doc.str(node);
    if (hasTemplate(s)) return templateValue(ctx, st, node, s, path, attr, attr.type);
  }
  if (nested.nesting === "single") {
    if (kind !== K_OBJECT) return typeError(ctx, st, attr.type, path);
    return convertNestedObject(ctx, st, node, nested.block, path, attr.sensitive === true);
  }
  if (kind !== K_ARRAY) return typeError(ctx, st, attr.type, path);
  const out: unknown[] = [];
  let i = 0;
  const end = doc.nexts[node]!;
  for (let c = node + 1; c < end; c = doc.nexts[c]!) {
    const itemPath = joinPath(path, i++);
    if (doc.kinds[c] === K_OBJECT) out.push(convertNestedObject(ctx, st, c, nested.block, itemPath, attr.sensitive === true));
    else if (doc.isString(c) && hasTemplate(doc.str(c))) out.push(templateValue(ctx, st, c, doc.str(c), itemPath, null, attr.type));
    else {
      // a null element converts (the provider's validator refuses it); anything else does not
      if (doc.kinds[c] !== K_NULL) typeError(ctx, st, ["object", {}], itemPath);
      out.push(null);
    }
  }
  return out;
}

function convertNestedObject(ctx: Ctx, st: ConvertState, node: number, block: BlockModel, base: string, sensitive: boolean): Record<string, unknown> {
  const doc = ctx.doc;
  const table = tableOf(block);
  const out = new table.Body();
  const acc = newAccumulator(node);
  const end = doc.nexts[node]!;
  for (let k = node + 1; k < end; k = doc.nexts[k + 1]!) {
    const entry = lookup(doc, k, table);
    if (!entry || !entry.attr) {
      const key = doc.str(k);
      const path = joinPath(base, key);
      const hint = suggest(key, Object.keys(block.attributes));
      // Terraform drops an object's extra attributes when it converts the value: a warning, not an error
      ctx.warning("unknown-argument", `Unsupported attribute: An attribute named ${quote(key)} is not expected here, and Terraform ignores it.${hint ? ` Did you mean "${hint}"?` : ""}`, k, addressOf(st.decl), path);
      continue;
    }
    const name = entry.name;
    const path = `${base}.${name}`; // model names are identifiers
    if (markSeen(acc, entry.index)) {
      reportAt(ctx, st, "error", "duplicate-object-attribute", `Duplicate object attribute: An attribute named ${quote(name)} was already defined at ${where(ctx, firstKey(ctx, acc, name))}.`, k, path);
      continue;
    }
    const attr = entry.attr;
    if (sensitive || attr.sensitive) ctx.markSensitive(k + 1);
    if (attr.deprecated) st.deprecated = true;
    const v = attr.nested ? convertNested(ctx, st, k + 1, attr, path) : convertValue(ctx, st, k + 1, attr.type, path, null);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Validation and mapping issues back to the source

function formatIssuePath(path: (string | number)[]): string {
  let out: string | null = null;
  for (const segment of path) out = joinPath(out, segment);
  return out ?? "";
}

function validateCanonical(ctx: Ctx, st: ConvertState, model: TypeModel, body: Record<string, unknown>, types: TypeSource): void {
  const key = model.key;
  if (types.check && !st.deprecated && types.check(key, body)) return;
  let issues: Issue[];
  try {
    issues = types.validate(key, body);
  } catch (error) {
    ctx.error("internal", `Internal error while validating ${model.key}: ${(error as Error).message}`, st.decl.header, addressOf(st.decl), null);
    return;
  }
  for (const issue of issues) {
    const path = formatIssuePath(issue.path);
    if (isCovered(st, path)) continue;
    let loc: { start: number; end: number };
    let message = issue.message;
    const within = issue.missing ? attributeHolding(model.block, issue.path) : null;
    const nullValue = issue.missing ? presentNull(ctx, st.decl, model.block, issue.path) : -1;
    if (st.dynamicBlocks !== null && !issue.missing && st.dynamicBlocks.some((d) => path.startsWith(`${d}.`) || path.startsWith(`${d}[`))) {
      // inside a block a dynamic block generated: Terraform cannot point into the generated
      // content and reports the provider's finding at the end of the resource's body
      const close = ctx.doc.end(st.decl.body) - 1;
      loc = { start: close, end: close + 1 };
    } else if (nullValue >= 0) {
      // set, but to null: core accepts it and our provider's validator reports it, at the null
      loc = { start: ctx.doc.start(nullValue), end: ctx.doc.end(nullValue) };
    } else if (within !== null) {
      // inside an attribute's value: Terraform reports it at the value, as a conversion error
      const attributePath = issue.path.slice(0, within.depth + 1);
      const found = locate(ctx, st.decl, model.block, attributePath);
      loc = found.node >= 0 ? { start: ctx.doc.start(found.node + 1), end: ctx.doc.end(found.node + 1) } : found;
      const inner = issue.path.slice(within.depth + 1);
      message = `Incorrect attribute value type: Inappropriate value for attribute ${quote(String(issue.path[within.depth]))}: ${describeInside(within.type, inner.slice(0, -1))}attribute ${quote(String(inner[inner.length - 1]))} is required.`;
    } else if (issue.missing) {
      loc = locateMissing(ctx, st.decl, model.block, issue.path);
      message = missingMessage(issue.path);
    } else loc = insideTemplate(ctx, st.decl, model.block, issue.path) ?? closingBraceIfAbsent(ctx, st.decl, model.block, issue.path) ?? locate(ctx, st.decl, model.block, issue.path);
    const code = issue.severity === "warning" ? "deprecated" : "schema";
    ctx.report(issue.severity, code, message, loc.start, loc.end, addressOf(st.decl), path === "" ? null : path);
  }
}

function isCovered(st: ConvertState, path: string): boolean {
  if (st.dynamicBlocks !== null && st.dynamicBlocks.includes(path)) return true;
  if (st.reported === null) return false;
  for (const reported of st.reported) {
    if (path === reported || path.startsWith(`${reported}.`) || path.startsWith(`${reported}[`)) return true;
  }
  return false;
}

/**
 * Where an absent required argument is reported: the closing brace of the body that lacks it, as
 * Terraform reports it (on a pretty-printed file, a different line from the block's name).
 */
function locateMissing(ctx: Ctx, decl: BlockDecl, block: BlockModel, path: (string | number)[]): { start: number; end: number } {
  const holder = path.length > 1 ? locate(ctx, decl, block, path.slice(0, -1)) : { start: ctx.doc.start(decl.body), end: ctx.doc.end(decl.body) };
  // a block given as null (an element of an array of blocks) has no brace: Terraform points at the null
  if (ctx.files[ctx.fileIndex]!.text.charCodeAt(holder.end - 1) !== 125) return { start: holder.start, end: holder.end };
  return { start: holder.end - 1, end: holder.end };
}

/** The null value an issue path names when it is set to null in the source (-1 when it is absent or not null). */
function presentNull(ctx: Ctx, decl: BlockDecl, block: BlockModel, path: (string | number)[]): number {
  const found = locate(ctx, decl, block, path);
  if (found.node < 0 || found.node === locate(ctx, decl, block, path.slice(0, -1)).node) return -1;
  const value = found.node + 1;
  if (ctx.doc.kinds[value] === K_NULL) return value;
  // a template whose known value is null (a local value set to null) is set to null too
  if (ctx.doc.isString(value)) {
    const s = ctx.doc.str(value);
    if (hasTemplate(s) && templateKnownValue(ctx, analyzeTemplate(s)) === null) return value;
  }
  return -1;
}

/**
 * A rule over a field that is absent (a cross-field rule naming what is missing): Terraform
 * points at the closing brace of the object that lacks it. Null when the field is there.
 */
function closingBraceIfAbsent(ctx: Ctx, decl: BlockDecl, block: BlockModel, path: (string | number)[]): { start: number; end: number } | null {
  if (path.length === 0 || typeof path[path.length - 1] === "number") return null;
  const doc = ctx.doc;
  const parentPath = path.slice(0, -1);
  const parent = parentPath.length === 0 ? null : locate(ctx, decl, block, parentPath);
  if (parent !== null && parent.node < 0) return null;
  if (locate(ctx, decl, block, path).node !== (parent?.node ?? -1)) return null; // present
  const object = parent === null ? decl.body : parent.node + 1;
  if (doc.kinds[object] !== K_OBJECT) return null;
  const end = doc.end(object);
  return { start: end - 1, end };
}

/**
 * A path into the value of an attribute set by a template (credentials.type of
 * "credentials": "${local.creds}"): Terraform cannot point inside an expression and reports the
 * closing brace of the body holding the attribute.
 */
function insideTemplate(ctx: Ctx, decl: BlockDecl, block: BlockModel, path: (string | number)[]): { start: number; end: number } | null {
  const within = attributeHolding(block, path);
  if (within === null) return null;
  const attribute = path.slice(0, within.depth + 1);
  const found = locate(ctx, decl, block, attribute);
  if (found.node < 0 || !ctx.doc.isString(found.node + 1) || !hasTemplate(ctx.doc.str(found.node + 1))) return null;
  return locateMissing(ctx, decl, block, attribute);
}

/** The attribute (not a nested block) a path goes into before its last segment: its index in the path and its type. */
function attributeHolding(block: BlockModel, path: (string | number)[]): { depth: number; type: CtyType } | null {
  let at: BlockModel | undefined = block;
  for (let i = 0; i < path.length - 1 && at !== undefined; i++) {
    const segment = path[i]!;
    if (typeof segment === "number") continue;
    const attribute = Object.prototype.hasOwnProperty.call(at.attributes, segment) ? at.attributes[segment] : undefined;
    if (attribute !== undefined) return { depth: i, type: attribute.type };
    at = at.blocks[segment]?.block;
  }
  return null;
}

/** Terraform's words for an absent required argument (our schemas require no nested block). */
function missingMessage(path: (string | number)[]): string {
  return `Missing required argument: The argument ${quote(String(path[path.length - 1]))} is required, but no definition was found.`;
}

/**
 * The source range of an issue path inside a block: the property (name to value) it names, the
 * element it indexes, or the nearest enclosing one that exists (e.g. for a missing argument, the
 * block that lacks it).
 */
export function locate(ctx: Ctx, decl: BlockDecl, _block: BlockModel, path: (string | number)[]): { start: number; end: number; node: number } {
  const doc = ctx.doc;
  let best = { start: doc.start(decl.header), end: doc.end(decl.header), node: -1 };
  // the objects a name is looked up in (several: duplicate blocks, "_" escapes)
  let objects: number[] = [decl.body];
  for (const m of doc.members(decl.body)) if (doc.str(m) === "_" && doc.kinds[m + 1] === K_OBJECT) objects.push(m + 1);
  let candidates: number[] = [];
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    if (typeof segment === "number") {
      const target = candidates[segment];
      if (target === undefined) return best;
      best = { start: doc.start(target), end: doc.end(target), node: -1 };
      objects = doc.kinds[target] === K_OBJECT ? [target] : [];
      candidates = doc.kinds[target] === K_ARRAY ? doc.elements(target) : [];
      continue;
    }
    // instances in source order: static blocks and dynamic blocks' contents as they appear
    let found = -1;
    const instances: number[] = [];
    for (const object of objects) {
      for (const m of doc.members(object)) {
        const name = doc.str(m);
        if (name === segment) {
          if (found < 0) found = m;
          const v = m + 1;
          // not spread into push(): an array of 100,000+ elements overflows the stack
          if (doc.kinds[v] === K_ARRAY) for (const e of doc.elements(v)) instances.push(e);
          else instances.push(v);
        } else if (name === "dynamic" && doc.kinds[m + 1] === K_OBJECT) {
          for (const t of doc.members(m + 1)) {
            if (doc.str(t) !== segment) continue;
            const bodies = doc.kinds[t + 1] === K_ARRAY ? doc.elements(t + 1) : [t + 1];
            for (const b of bodies) {
              if (doc.kinds[b] !== K_OBJECT) continue;
              for (const c of doc.members(b)) if (doc.str(c) === "content" && doc.kinds[c + 1] === K_OBJECT) instances.push(c + 1);
              if (found < 0) found = t;
            }
          }
        }
      }
    }
    if (found < 0) return best;
    best = { start: doc.start(found), end: doc.end(found + 1), node: found };
    // a null element of an attribute's list is reported at the attribute, as Terraform does
    candidates = instances.filter((n) => doc.kinds[n] !== K_NULL);
    if (candidates.length === 1 && doc.kinds[candidates[0]!] === K_ARRAY) candidates = doc.elements(candidates[0]!);
    objects = candidates.filter((n) => doc.kinds[n] === K_OBJECT);
  }
  return best;
}

/**
 * A destroy-time provisioner (and its connection) may refer only to its own resource: self,
 * count.index, each.key (path and terraform too). terraform init refuses anything else, at the value.
 */
function checkDestroyProvisionerRefs(ctx: Ctx, body: number, address: string, path: string): void {
  const doc = ctx.doc;
  let destroy = false;
  for (const k of doc.members(body)) if (doc.str(k) === "when" && doc.isString(k + 1) && keywordOf(doc.str(k + 1)) === "destroy") destroy = true;
  if (!destroy) return;
  const checkAttributes = (object: number) => {
    for (const k of doc.members(object)) {
      const name = doc.str(k);
      if (name === "when" || name === "on_failure" || name === "//") continue;
      if (name === "connection") {
        if (object === body) forObjects(doc, k + 1, checkAttributes);
        continue;
      }
      if (someString(doc, k + 1, refersBeyondSelf)) {
        ctx.error(
          "invalid-reference",
          "Invalid reference from destroy provisioner: Destroy-time provisioners and their connection configurations may only reference attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\nReferences to other resources during the destroy phase can cause dependency cycles and interact poorly with create_before_destroy.",
          k + 1,
          address,
          `${path}.${name}`,
        );
      }
    }
  };
  checkAttributes(body);
}

/** Whether a string refers to anything but self, count.index, each.key, path and terraform. */
function refersBeyondSelf(s: string): boolean {
  if (!hasTemplate(s)) return false;
  for (const ref of analyzeTemplate(s).references) {
    if (ref.root === "self" || ref.root === "path" || ref.root === "terraform") continue;
    const first = ref.steps.length === 1 && ref.steps[0]!.kind === "attr" ? ref.steps[0]!.name : null;
    if (ref.root === "count" && first === "index") continue;
    if (ref.root === "each" && first === "key") continue;
    return true;
  }
  return false;
}
