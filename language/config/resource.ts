// resource, data and ephemeral blocks: meta-arguments (count, for_each, provider, depends_on,
// lifecycle, provisioners, connections, the "_" escape block, dynamic blocks); the rest of the body
// goes to our types' conversion (schema/convert.ts), to the built-in provider's schemas
// (schema/builtin-types.ts), or, for another provider's type, is read as expressions.
import { quote, writtenTogether, type Ctx } from "./context.js";
import { type BlockModel, type CtyType, type TypeModel } from "../schema/model-types.js";
import { attributeTraversalProblem, nestedBlockTraversalProblem } from "../schema/schema-traversal.js";
import { forObjects, K_ARRAY, K_NULL, K_OBJECT, someString, type JsonDoc } from "../syntax/json-parser.js";
import { suggest } from "../syntax/suggest.js";
import { analyzeTemplate, hasTemplate, keywordOf, parseTraversal, type TraversalStep } from "../expr/templates.js";
import { builtinType, checkBuiltinArgument, checkBuiltinDynamic, finishBuiltinBody } from "../schema/builtin-types.js";
import { addressOf, type BlockDecl } from "./declarations.js";
import { convertEntry, convertMember } from "../schema/convert.js";
import { duplicateArgument, where } from "./common-errors.js";
import { checkAttribute } from "./arguments.js";
import { checkProviderConfigured } from "./provider-references.js";
import { forEachInstance, forEachLabel, blockShapeError } from "./block-shapes.js";
import { checkBody, checkLooseBody } from "./bodies.js";
import { LIFECYCLE_RESOURCE, LIFECYCLE_DATA, provisionerSpec, checkProvisionerArguments, CONNECTION_USED, CONNECTION } from "./body-specs.js";
import { validateCanonical } from "../schema/canonical-issues.js";
import { checkExpression, checkString } from "./expression-check.js";
import { checkDynamicBody } from "./dynamic-blocks.js";
import { regionOf } from "../schema/region-rules.js";
import { type TypeSource, tableOf, type ConvertState, resetState, type Accumulator, topAccumulator, lookup } from "../schema/convert-state.js";

const RESOURCE_META = ["count", "for_each", "provider", "depends_on", "lifecycle", "provisioner", "connection", "dynamic", "_"];

const DATA_META = ["count", "for_each", "provider", "depends_on", "lifecycle", "dynamic"];

/**
 * What a block's members other than its type's arguments and nested blocks need: the meta-arguments
 * seen so far and the bodies found for the checks at the end. Made when the first such member is
 * met (a generated body may have none); the closures that read them live in checkMetaMember, not in
 * checkResource's loop, where V8 would allocate a context for them on every block and member.
 */
class MemberState {
  metaSeen: Map<string, number> | null = null;
  lifecycleSeen = -1;
  escape = -1;
  looseSeen: Map<string, number> | null = null;
  /** the resource's connection body, and each provisioner's own (-1: none) */
  connectionBody = -1;
  provisionerConnections: number[] | null = null;
  constructor(
    readonly decl: BlockDecl,
    readonly model: TypeModel | undefined,
    readonly builtin: ReturnType<typeof builtinType>,
    readonly st: ConvertState | null,
    readonly out: Record<string, unknown> | null,
    readonly acc: Accumulator | null,
  ) {}
}

export function checkResource(ctx: Ctx, decl: BlockDecl, types: TypeSource): void {
  const doc = ctx.doc;
  const kind = decl.blockType;
  // set when the block was declared (module.ts); looked up here for callers that skip that
  const model = decl.model ?? types.model(`${kind}.${decl.type}`);
  if (model) decl.model = model;
  const table = model ? tableOf(model.block) : null;
  const st: ConvertState | null = model ? resetState(ctx, decl) : null;
  const out: Record<string, unknown> | null = table !== null ? new table.Body() : null;
  const acc: Accumulator | null = model ? topAccumulator(decl.body) : null;
  // Terraform's built-in provider's types: hand-written schemas (builtin-types.ts), not converted
  const builtin = model ? undefined : builtinType(kind, decl.type);
  let members: MemberState | null = null;
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
    members ??= new MemberState(decl, model, builtin, st, out, acc);
    checkMetaMember(ctx, members, k);
  }
  const metaSeen = members?.metaSeen ?? null;
  if (members !== null && members.provisionerConnections !== null) checkConnectionHost(ctx, decl, members.connectionBody, members.provisionerConnections);
  // what references to this block need to know (saves repetitionOf a scan of the body)
  if (decl.repetition === undefined) {
    const count = metaSeen?.get("count");
    const forEach = metaSeen?.get("for_each");
    decl.repetition = count !== undefined && doc.kinds[count + 1] !== K_NULL ? "count" : forEach !== undefined && doc.kinds[forEach + 1] !== K_NULL ? "for_each" : null;
  }
  if (metaSeen?.has("count") && metaSeen.has("for_each") && writtenTogether(ctx, metaSeen.get("count")!, metaSeen.get("for_each")!)) {
    ctx.error("count-and-for-each", 'Invalid combination of "count" and "for_each": The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.', metaSeen.get("for_each")!, addressOf(decl), "for_each");
  }
  if (builtin) finishBuiltinBody(ctx, builtin, decl.body, addressOf(decl));
  if (!model) return;
  decl.model = model;
  // cross-resource checks read literal regions only; the body itself can die young
  const region = model.kind === "resource" ? regionOf(model.type, out!) : undefined;
  decl.region = typeof region === "string" && !hasTemplate(region) ? region : null;
  validateCanonical(ctx, st!, model, out!, types);
}

/** A member of a block that is not one of its type's arguments or nested blocks: a meta-argument, or another provider's argument. */
function checkMetaMember(ctx: Ctx, m: MemberState, k: number): void {
  const doc = ctx.doc;
  const { decl, model, builtin, st, out, acc } = m;
  const kind = decl.blockType;
  const isResource = kind === "resource";
  const name = doc.str(k);
  switch (name) {
    case "//":
      return;
    case "count":
    case "for_each":
    case "provider":
    case "depends_on": {
      m.metaSeen ??= new Map();
      const first = m.metaSeen.get(name);
      if (first !== undefined) {
        duplicateArgument(ctx, name, k, first, addressOf(decl), name);
        return;
      }
      m.metaSeen.set(name, k);
      checkAttribute(ctx, k + 1, name === "provider" ? "provider-ref" : name === "depends_on" ? "refs" : name, name, addressOf(decl), name);
      if (name === "provider") checkProviderConfigured(ctx, k + 1, addressOf(decl), decl);
      return;
    }
    case "lifecycle":
      forEachInstance(ctx, k + 1, "lifecycle", addressOf(decl), "lifecycle", (body) => {
        // Terraform names a block by its key: for blocks in one JSON array, the array's key
        if (m.lifecycleSeen >= 0) {
          ctx.error("duplicate-block", `Duplicate lifecycle block: Only one "lifecycle" block is allowed per ${kind === "data" ? "data source" : "resource"}; another was defined at ${where(ctx, m.lifecycleSeen)}.`, k, addressOf(decl), "lifecycle");
          return;
        }
        m.lifecycleSeen = body;
        const seen = checkBody(ctx, body, isResource ? LIFECYCLE_RESOURCE : LIFECYCLE_DATA, addressOf(decl), "lifecycle", k);
        const ignored = seen.get("ignore_changes");
        const block = model?.block ?? builtin?.block;
        if (block && ignored !== undefined) checkIgnoredNames(ctx, ignored + 1, block, addressOf(decl));
      });
      return;
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
          (m.provisionerConnections ??= []).push(connectionOf(doc, body));
          checkDestroyProvisionerRefs(ctx, body, addressOf(decl), path);
        });
      });
      return;
    case "connection":
      if (!isResource) break;
      forEachInstance(ctx, k + 1, "connection", addressOf(decl), "connection", (body) => {
        m.connectionBody = body;
        // with a provisioner to use it, the connection is decoded against the communicators' arguments
        checkBody(ctx, body, hasMember(doc, decl.body, "provisioner") ? CONNECTION_USED : CONNECTION, addressOf(decl), "connection", k);
      });
      return;
    case "locals":
      ctx.error("reserved-name", 'Reserved block type name in resource block: The block type name "locals" is reserved for use by Terraform in a future version.', k, addressOf(decl), null);
      return;
    case "_":
      if (kind === "data" || isResource || kind === "ephemeral") {
        if (m.escape >= 0) {
          ctx.error("duplicate-block", `Duplicate escaping block: The special block type "_" can be used to force particular arguments to be interpreted as resource-type-specific rather than as meta-arguments, but each ${kind} block can have only one such block; another was defined at ${where(ctx, m.escape)}.`, k, addressOf(decl), "_");
          return;
        }
        m.escape = k;
        if (acc) acc.escape = k + 1;
        if (doc.kinds[k + 1] !== K_OBJECT) {
          blockShapeError(ctx, k + 1, "_", addressOf(decl), "_");
          return;
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
        return;
      }
      break;
    case "dynamic":
      if (model) convertMember(ctx, st!, k, model.block, null, out!, acc!);
      else if (builtin) checkBuiltinDynamic(ctx, k + 1, addressOf(decl));
      else checkLooseDynamic(ctx, k + 1, addressOf(decl));
      return;
    default:
      break;
  }
  if (model) convertMember(ctx, st!, k, model.block, null, out!, acc!, false, isResource ? RESOURCE_META : DATA_META);
  else if (builtin && !checkBuiltinArgument(ctx, builtin, k, addressOf(decl))) return;
  else {
    // another provider's type: a string, number, bool or null can only be an argument, set once
    const vk = doc.kinds[k + 1];
    if (vk !== K_OBJECT && vk !== K_ARRAY) {
      m.looseSeen ??= new Map();
      const first = m.looseSeen.get(name);
      if (first !== undefined) duplicateArgument(ctx, name, k, first, addressOf(decl), name);
      else m.looseSeen.set(name, k);
    }
    checkLooseMember(ctx, k, addressOf(decl));
  }
}

export function checkLooseMember(ctx: Ctx, k: number, address: string): void {
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
      const problem = attributeTraversalProblem(block.attributes[name]!.type, t.steps);
      if (problem) ctx.error("unsupported-attribute", problem, e, address, "lifecycle.ignore_changes");
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(block.blocks, name)) {
      const problem = nestedBlockTraversalProblem(block.blocks[name]!, t.steps);
      if (problem) ctx.error("unsupported-attribute", problem, e, address, "lifecycle.ignore_changes");
      continue;
    }
    const hint = suggest(name, [...Object.keys(block.attributes), ...Object.keys(block.blocks)]);
    ctx.error("unsupported-attribute", `Unsupported attribute: This object has no argument, nested block, or exported attribute named ${quote(name)}.${hint ? ` Did you mean "${hint}"?` : ""}`, e, address, "lifecycle.ignore_changes");
  }
}

export function hasMember(doc: JsonDoc, body: number, name: string): boolean {
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
