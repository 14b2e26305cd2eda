// Terraform's JSON configuration language, checked in our own code: the root, top-level block
// types and their labels, block shapes (object / array of objects / [] / null at every level),
// "//" comments, duplicate arguments, the core blocks (variable, output, locals, module,
// terraform, moved, removed, import, check), meta-arguments, reference-only positions and
// templates. Provider attributes of our types are handled by convert.ts.
import { addressOf, joinPath, newBlockDecl, quote, repetitionOf, type BlockDecl, type Ctx, type FoundReference } from "./context.js";
import { K_ARRAY, K_FALSE, K_NULL, K_NUMBER, K_OBJECT, K_STRING, K_TRUE } from "./parser.js";
import { suggest } from "./suggest.js";
import { typeKeys } from "../generated/registry.js";
import { isVersionConstraint, prereleaseTerms, satisfiesAll } from "./versions.js";
import { BUILTIN_PROVIDER, builtinType, isBuiltinKey } from "./builtin-types.js";
import { analyzeTemplate, formatTraversal, hasTemplate, keywordOf, parseTraversal, type Reference } from "./templates.js";
import { configurationAliases } from "./required-providers.js";
import { parseTemplate } from "./expressions.js";
import { conversionProblem, parseBoolString, parseNumberString, parseTypeExpression } from "./typeexpr.js";
import { evaluationError, templateKnownValue, UNKNOWN, type Known } from "./values.js";

// ---------------------------------------------------------------------------------------------
// Body specifications of the core blocks

type AttrKind =
  | "expr" // any expression
  | "string" // literal string (templates are not interpreted)
  | "constraint" // literal version constraint string, e.g. ">= 1.5, < 2.0"
  | "bool" // literal bool (with cty's string conversion)
  | "literal" // any literal JSON value
  | "type" // a type constraint
  | "ref" // one bare reference
  | "refs" // an array of bare references
  | "ref-index" // a bare resource address whose index may be an expression (import.to)
  | "provider-ref" // provider or provider.alias
  | "ignore_changes"
  | "replace_triggered_by"
  | "count"
  | "for_each"
  | "providers" // module providers map
  | "when"
  | "on_failure"
  | "ident"; // a bare identifier (dynamic.iterator)

interface AttrSpec {
  kind: AttrKind;
  required?: boolean;
}

interface BlockSpec {
  labels: number;
  body: BodySpec | "literal";
  /** at most one block */
  single?: boolean;
}

export interface BodySpec {
  attrs: Map<string, AttrSpec>;
  blocks: Map<string, BlockSpec>;
  /** what other properties are: module inputs are expressions; otherwise unknown names are errors */
  other?: "expr";
  /** a condition block (validation, precondition, postcondition, assert): see checkConditionRefers */
  isCondition?: boolean;
  /** a body where `self` means the resource: provisioners, connections and postconditions */
  allowsSelf?: boolean;
}

function spec(attrs: Record<string, AttrKind | AttrSpec>, blocks: Record<string, BlockSpec> = {}, other?: "expr"): BodySpec {
  const a = new Map<string, AttrSpec>();
  for (const [name, s] of Object.entries(attrs)) a.set(name, typeof s === "string" ? { kind: s } : s);
  return { attrs: a, blocks: new Map(Object.entries(blocks)), other };
}

const condition: BodySpec = { ...spec({ condition: { kind: "expr", required: true }, error_message: { kind: "expr", required: true } }), isCondition: true };
const postcondition: BodySpec = { ...condition, allowsSelf: true };
const connection: BodySpec = { ...spec({ type: "string" }, {}, "expr"), allowsSelf: true };
const provisioner: BodySpec = { ...spec({ when: "when", on_failure: "on_failure" }, { connection: { labels: 0, body: connection, single: true } }, "expr"), allowsSelf: true };
/**
 * A connection where a provisioner will use it: validate decodes it (merged with the resource's
 * own connection) with the superset of every communicator's arguments, so others are errors.
 * `host` is required of the merged body (see checkConnectionHost).
 */
const CONNECTION_ARGUMENTS = ["host", "user", "password", "port", "timeout", "script_path", "target_platform", "private_key", "certificate", "host_key", "agent", "agent_identity", "bastion_host", "bastion_host_key", "bastion_port", "bastion_user", "bastion_password", "bastion_private_key", "bastion_certificate", "https", "insecure", "cacert", "use_ntlm"];
export const CONNECTION_USED: BodySpec = { ...spec({ type: "string", ...Object.fromEntries(CONNECTION_ARGUMENTS.map((a) => [a, "expr" as const])) }), allowsSelf: true };

export const LIFECYCLE_RESOURCE = spec(
  { create_before_destroy: "bool", prevent_destroy: "bool", ignore_changes: "ignore_changes", replace_triggered_by: "replace_triggered_by" },
  { precondition: { labels: 0, body: condition }, postcondition: { labels: 0, body: postcondition }, action_trigger: { labels: 0, body: spec({}, {}, "expr") } },
);
export const LIFECYCLE_DATA = spec({}, { precondition: { labels: 0, body: condition }, postcondition: { labels: 0, body: postcondition } });
export const PROVISIONER = provisioner;

/**
 * The built-in provisioners' own arguments (Terraform 1.11's schemas of local-exec, remote-exec
 * and file), beside when, on_failure and connection: validate decodes the rest of the body with
 * them, so an unknown argument or a missing command/destination is an error there.
 */
const PROVISIONERS_BY_TYPE: ReadonlyMap<string, BodySpec> = new Map([
  ["local-exec", { ...spec({ when: "when", on_failure: "on_failure", command: { kind: "expr", required: true }, interpreter: "expr", working_dir: "expr", environment: "expr", quiet: "expr" }, { connection: { labels: 0, body: CONNECTION_USED, single: true } }), allowsSelf: true }],
  ["remote-exec", { ...spec({ when: "when", on_failure: "on_failure", inline: "expr", script: "expr", scripts: "expr" }, { connection: { labels: 0, body: CONNECTION_USED, single: true } }), allowsSelf: true }],
  ["file", { ...spec({ when: "when", on_failure: "on_failure", source: "expr", content: "expr", destination: { kind: "expr", required: true } }, { connection: { labels: 0, body: CONNECTION_USED, single: true } }), allowsSelf: true }],
]);

/** The body spec of a provisioner of this type (any argument for a type Terraform does not have: reported as such). */
export function provisionerSpec(type: string): BodySpec {
  return PROVISIONERS_BY_TYPE.get(type) ?? provisioner;
}

/**
 * The provisioners' own validation (ValidateProvisionerConfig), over the arguments set to
 * something other than null: file takes exactly one of source and content, remote-exec exactly
 * one of inline, script and scripts. Terraform gives these no position; we point at the body.
 */
export function checkProvisionerArguments(ctx: Ctx, type: string, seen: ReadonlyMap<string, number>, body: number, address: string, path: string): void {
  const set = (name: string) => seen.has(name) && ctx.doc.kinds[seen.get(name)! + 1] !== K_NULL;
  if (type === "file") {
    if (set("source") && set("content")) ctx.error("provisioner", "Cannot set both 'source' and 'content'", body, address, path);
    else if (!set("source") && !set("content")) ctx.error("provisioner", "Must provide one of 'source' or 'content'", body, address, path);
  } else if (type === "remote-exec") {
    if (["inline", "script", "scripts"].filter(set).length !== 1) ctx.error("provisioner", 'Invalid remote-exec provisioner configuration: Only one of "inline", "script", or "scripts" must be set', body, address, path);
  }
}
export const CONNECTION = connection;

const VARIABLE = spec(
  { description: "string", default: "literal", type: "type", sensitive: "bool", nullable: "bool", ephemeral: "bool" },
  { validation: { labels: 0, body: condition } },
);
const OUTPUT = spec(
  { value: { kind: "expr", required: true }, description: "string", sensitive: "bool", ephemeral: "bool", depends_on: "refs" },
  { precondition: { labels: 0, body: condition } },
);
const MODULE = spec({ source: { kind: "string", required: true }, version: "constraint", providers: "providers", count: "count", for_each: "for_each", depends_on: "refs" }, {}, "expr");
// in an override file a module call is merged into the primary one: it need not repeat the source
const MODULE_OVERRIDE = spec({ source: "string", version: "constraint", providers: "providers", count: "count", for_each: "for_each", depends_on: "refs" }, {}, "expr");
const TERRAFORM = spec(
  { required_version: "constraint", experiments: "literal", language: "literal" },
  {
    required_providers: { labels: 0, body: "literal" },
    backend: { labels: 1, body: "literal", single: true },
    cloud: { labels: 0, body: "literal", single: true },
    provider_meta: { labels: 1, body: "literal" },
  },
);
const MOVED = spec({ from: { kind: "ref", required: true }, to: { kind: "ref", required: true } });
const REMOVED = spec(
  { from: { kind: "ref", required: true } },
  { lifecycle: { labels: 0, body: spec({ destroy: "bool" }), single: true }, connection: { labels: 0, body: connection, single: true }, provisioner: { labels: 1, body: provisioner } },
);
const IMPORT = spec({ to: { kind: "ref-index", required: true }, id: "expr", identity: "expr", for_each: "for_each", provider: "provider-ref" });
const CHECK = spec({}, { assert: { labels: 0, body: condition } });
export const DYNAMIC = spec({ for_each: { kind: "expr", required: true }, iterator: "ident", labels: "expr" });

/** Top-level block types and their number of labels. */
export const TOP_LEVEL: ReadonlyMap<string, number> = new Map([
  ["terraform", 0],
  ["provider", 1],
  ["variable", 1],
  ["locals", 0],
  ["output", 1],
  ["module", 1],
  ["resource", 2],
  ["data", 2],
  ["ephemeral", 2],
  ["moved", 0],
  ["removed", 0],
  ["import", 0],
  ["check", 1],
]);


// ---------------------------------------------------------------------------------------------
// Block shapes

/**
 * Calls `each` for every block body a nested-block value holds: an object (one block), an array
 * of objects or nulls (several; a null is an empty body), `null` or `[]` (none). Anything else is
 * an error.
 */
export function forEachInstance(ctx: Ctx, value: number, what: string, address: string | null, path: string | null, each: (body: number) => void): void {
  const doc = ctx.doc;
  const kind = doc.kinds[value];
  if (kind === K_OBJECT) each(value);
  else if (kind === K_ARRAY) {
    const end = doc.nexts[value]!;
    for (let c = value + 1; c < end; c = doc.nexts[c]!) {
      const element = doc.kinds[c];
      // a null element is a block with an empty body (a null in place of the whole value is none)
      if (element === K_OBJECT || element === K_NULL) each(c);
      else if (element === K_ARRAY) forEachInstance(ctx, c, what, address, path, each); // Terraform flattens nested arrays
      else blockElementError(ctx, c, address, path);
    }
  } else if (kind !== K_NULL) blockShapeError(ctx, value, what, address, path);
}

/** A block given as something other than an object or an array (Terraform's wording). */
export function blockShapeError(ctx: Ctx, node: number, what: string, address: string | null, path: string | null): void {
  ctx.error("block-shape", `Incorrect JSON value type: Either a JSON object or a JSON array is required, representing the contents of one or more "${what}" blocks.`, node, address, path);
}

/** An element of an array of blocks that is not an object (Terraform's wording). */
export function blockElementError(ctx: Ctx, node: number, address: string | null, path: string | null): void {
  ctx.error("block-shape", "Incorrect JSON value type: Either a JSON object or JSON array of objects is required here, to define arguments and child blocks.", node, address, path);
}

/**
 * Walks `remaining` levels of label objects, then the bodies. `each` gets the labels above the
 * last one (a shared array: copy it to keep it), the last label ("" when the block has none),
 * the node to report the block at, and the body.
 */
type LabelVisitor = (prefix: readonly string[], last: string, header: number, body: number) => void;

function walkLabels(ctx: Ctx, value: number, blockType: string, remaining: number, labels: string[], header: number, each: LabelVisitor): void {
  const doc = ctx.doc;
  if (remaining === 0) {
    // several bodies in an array: each is reported at its own opening brace
    const inArray = doc.kinds[value] === K_ARRAY;
    forEachInstance(ctx, value, blockType, null, null, (body) => each(labels, "", inArray ? body : header, body));
    return;
  }
  forEachLabel(ctx, value, blockType, labels.length, null, null, (k) => {
    const label = doc.str(k);
    if (remaining > 1) {
      labels.push(label);
      walkLabels(ctx, k + 1, blockType, remaining - 1, labels, k, each);
      labels.pop();
      return;
    }
    const v = k + 1;
    const vk = doc.kinds[v];
    if (vk === K_OBJECT) each(labels, label, k, v);
    // bodies in an array (arrays of arrays flattened, as Terraform does): each at its own brace
    else if (vk === K_ARRAY) forEachInstance(ctx, v, blockType, null, null, (body) => each(labels, label, body, body));
    else if (vk !== K_NULL) blockShapeError(ctx, v, blockType, null, null);
  });
}

/** The labels of each labelled block type, in the words of Terraform's messages: "the resource block's type", "Invalid data source name". */
const LABELS: Record<string, { noun: string; kinds: string[] }> = {
  resource: { noun: "resource", kinds: ["type", "name"] },
  data: { noun: "data source", kinds: ["type", "name"] },
  ephemeral: { noun: "ephemeral resource", kinds: ["type", "name"] },
  action: { noun: "action", kinds: ["type", "name"] },
  provider: { noun: "provider", kinds: ["name"] },
  variable: { noun: "variable", kinds: ["name"] },
  output: { noun: "output", kinds: ["name"] },
  module: { noun: "module", kinds: ["name"] },
  check: { noun: "check", kinds: ["name"] },
  provisioner: { noun: "provisioner", kinds: ["type"] },
  dynamic: { noun: "dynamic block", kinds: ["type"] },
  backend: { noun: "backend", kinds: ["type"] },
  provider_meta: { noun: "provider_meta", kinds: ["provider"] },
};

/**
 * One label level of a block: an object whose keys are labels, or an array of such objects, with
 * at least one label in all. Terraform's JSON decoder reports `null`, `{}` and `[]` here as a
 * missing label (at a body they mean "no block"), and reads "//" here as a label, not a comment.
 * Calls `each` with every label's property-name node.
 */
export function forEachLabel(ctx: Ctx, value: number, blockType: string, level: number, address: string | null, path: string | null, each: (key: number) => void): void {
  const doc = ctx.doc;
  const labelKind = LABELS[blockType]?.kinds[level] ?? "label";
  let labels = 0;
  const visit = (object: number) => {
    const end = doc.nexts[object]!;
    for (let k = object + 1; k < end; k = doc.nexts[k + 1]!) {
      labels++;
      each(k);
    }
  };
  const kind = doc.kinds[value];
  if (kind === K_OBJECT) visit(value);
  else if (kind === K_ARRAY) {
    const end = doc.nexts[value]!;
    for (let c = value + 1; c < end; c = doc.nexts[c]!) {
      if (doc.kinds[c] === K_OBJECT) visit(c);
      else ctx.error("block-shape", `Incorrect JSON value type: A JSON object is required here, to specify ${labelKind} labels for this block.`, c, address, path);
    }
  } else if (kind !== K_NULL) {
    ctx.error("block-shape", `Incorrect JSON value type: Either a JSON object or JSON array of objects is required here, to specify ${labelKind} labels for this block.`, value, address, path);
  }
  if (labels === 0) ctx.error("missing-label", `Missing block label: At least one object property is required, whose name represents the ${blockType} block's ${labelKind}.`, value, address, path);
}



// ---------------------------------------------------------------------------------------------
// The root

export interface BlockVisitor {
  /** resource, data and ephemeral blocks, and provider blocks */
  resource(decl: BlockDecl): void;
  provider(decl: BlockDecl): void;
}

export function checkRoot(ctx: Ctx, visitor: BlockVisitor): void {
  const doc = ctx.doc;
  const kind = doc.kinds[0];
  if (kind === K_OBJECT) checkTopLevel(ctx, 0, visitor);
  else if (kind === K_ARRAY) {
    for (const element of doc.elements(0)) {
      if (doc.kinds[element] === K_OBJECT) checkTopLevel(ctx, element, visitor);
      else ctx.error("root-shape", "Incorrect JSON value type: Each element of a root JSON array must be an object whose properties are top-level blocks.", element, null, null);
    }
  } else {
    ctx.error("root-shape", "Incorrect JSON value type: The root of a Terraform JSON configuration must be an object (or an array of objects) whose properties are top-level blocks.", 0, null, null);
  }
}

function checkTopLevel(ctx: Ctx, object: number, visitor: BlockVisitor): void {
  const doc = ctx.doc;
  let lastTypeChecked: string | null = null;
  for (const k of doc.members(object)) {
    const key = doc.str(k);
    if (key === "//") continue;
    const labels = TOP_LEVEL.get(key);
    if (labels === undefined) {
      if (key === "required_providers") {
        ctx.error("unknown-block-type", 'Invalid required_providers block: A "required_providers" block must be nested inside a "terraform" block.', k, null, null);
        continue;
      }
      const hint = suggest(key, TOP_LEVEL.keys());
      ctx.error("unknown-block-type", `Extraneous JSON object property: No argument or block type is named ${quote(key)}.${hint ? ` Did you mean "${hint}"?` : ""}`, k, null, null);
      continue;
    }
    if (key === "locals") {
      walkLabels(ctx, k + 1, key, 0, [], k, (_p, _l, _h, body) => declareLocals(ctx, body));
      continue;
    }
    if (key === "resource" || key === "data" || key === "ephemeral") forEachTypeKey(doc, k + 1, (t) => checkOurType(ctx, key, t));
    walkLabels(ctx, k + 1, key, labels, [], k, (prefix, last, header, body) => {
      const isResource = labels === 2 && key !== "action";
      // resources are many: their decl keeps type and name, and builds labels and address lazily
      const decl = isResource
        ? newBlockDecl(key, prefix[0]!, last, null, ctx.fileIndex, header, body, null)
        : newBlockDecl(key, labels === 0 ? "" : (prefix[0] ?? last), last, labels === 0 ? [] : [...prefix, last], ctx.fileIndex, header, body, null);
      if (labels > 0) {
        if (prefix.length > 0 && prefix[0] !== lastTypeChecked) {
          lastTypeChecked = prefix[0]!;
          checkLabel(ctx, decl, 0, prefix[0]!);
        }
        checkLabel(ctx, decl, labels - 1, last);
      }
      if (!isResource) ctx.blocks.push(decl);
      if (key === "ephemeral") {
        let declared = ephemeralDeclared.get(ctx);
        if (!declared) ephemeralDeclared.set(ctx, (declared = new Set()));
        declared.add(`${prefix[0]}.${last}`);
      }
      switch (key) {
        case "resource":
        case "data":
        case "ephemeral":
          visitor.resource(decl);
          break;
        case "provider":
          if (last !== last.toLowerCase()) invalidLocalName(ctx, last, header);
          visitor.provider(decl);
          break;
        case "check":
          // declares the data source scoped to it, which its own asserts refer to
          checkCheck(ctx, decl, visitor);
          break;
      }
    });
  }
}

/** The type-level keys of a resource or data value (an object, or an array of objects), without reporting its shape. */
function forEachTypeKey(doc: Ctx["doc"], value: number, each: (key: number) => void): void {
  const visit = (object: number) => {
    const end = doc.nexts[object]!;
    for (let k = object + 1; k < end; k = doc.nexts[k + 1]!) each(k);
  };
  const kind = doc.kinds[value];
  if (kind === K_OBJECT) visit(value);
  else if (kind === K_ARRAY) {
    const end = doc.nexts[value]!;
    for (let c = value + 1; c < end; c = doc.nexts[c]!) if (doc.kinds[c] === K_OBJECT) visit(c);
  }
}

/** The last type checkOurType found fine, and its block kind. */
let lastTypeFine = "";
let lastKindFine = "";

/** Our providers' local names, and their types by block kind ("resource.tsdb_vpcs", …). */
const OUR_PROVIDERS = new Set(["tsdb", "containerbackup"]);
const OUR_TYPES: ReadonlySet<string> = new Set(typeKeys as readonly string[]);

/**
 * A resource or data type whose provider (the part before "_", as Terraform implies it, in lower
 * case) is one of ours, but that our provider does not have: Terraform's words, at the type.
 */
function checkOurType(ctx: Ctx, blockType: "resource" | "data" | "ephemeral", key: number): void {
  const type = ctx.doc.str(key);
  // types come in runs (a generated file repeats a handful thousands of times)
  if (type === lastTypeFine && blockType === lastKindFine) return;
  const underscore = type.indexOf("_");
  const provider = (underscore < 0 ? type : type.slice(0, underscore)).toLowerCase();
  // Terraform's built-in provider ("terraform_…", builtin-types.ts) is checked the same way
  const builtin = provider === "terraform" && underscore > 0;
  if (!(OUR_PROVIDERS.has(provider) || builtin) || OUR_TYPES.has(`${blockType}.${type}`) || isBuiltinKey(`${blockType}.${type}`)) {
    lastTypeFine = type;
    lastKindFine = blockType;
    return;
  }
  const source = builtin ? BUILTIN_PROVIDER : `schemaform/${provider}`;
  const has = (k: string) => OUR_TYPES.has(k) || isBuiltinKey(k);
  const other = blockType === "resource" ? "data" : "resource";
  if (blockType === "ephemeral") {
    // Terraform words it differently for a provider that offers ephemeral resources (tsdb) and one that offers none
    const offers = [...OUR_TYPES].some((k) => k.startsWith(`ephemeral.${provider}_`));
    ctx.error("unknown-type", `Invalid ephemeral resource: The provider ${source} does not support ephemeral resource ${offers ? "" : "type "}${quote(type)}.`, key, null, null);
  } else if (blockType === "resource") {
    const hint = has(`data.${type}`)
      ? ` Did you intend to use the data source ${quote(type)}? If so, declare this using a "data" block instead of a "resource" block.`
      : builtin ? "" : suggestedType(type, blockType);
    ctx.error("unknown-type", `Invalid resource type: The provider ${source} does not support resource type ${quote(type)}.${hint}`, key, null, null);
  } else {
    const hint = has(`${other}.${type}`)
      ? ` Did you intend to use the managed resource type ${quote(type)}? If so, declare this using a "resource" block instead of a "data" block.`
      : builtin ? "" : suggestedType(type, blockType);
    ctx.error("unknown-type", `Invalid data source: The provider ${source} does not support data source ${quote(type)}.${hint}`, key, null, null);
  }
}

/** The type label's key above a resource's name key (found by walking back: only when reporting). */
function typeKeyOf(ctx: Ctx, nameKey: number): number {
  const doc = ctx.doc;
  for (let n = nameKey - 1; n > 0; n--) {
    if (doc.kinds[n] === K_OBJECT && doc.nexts[n]! > nameKey) {
      // the object holding the names: the type key is just before it (or before the array holding it)
      if (doc.kinds[n - 1] === K_STRING || doc.isString(n - 1)) return n - 1;
      for (let m = n - 1; m > 0; m--) if (doc.kinds[m] === K_ARRAY && doc.nexts[m]! > nameKey) return m - 1;
      return nameKey;
    }
  }
  return nameKey;
}

function suggestedType(type: string, blockType: string): string {
  const candidates = [...OUR_TYPES].filter((k) => k.startsWith(`${blockType}.`)).map((k) => k.slice(blockType.length + 1));
  const lower = type.toLowerCase();
  const hint = candidates.includes(lower) ? lower : suggest(type, candidates);
  return hint ? ` Did you mean ${quote(hint)}?` : "";
}

/** A provider local name that is not in normal (lower-case) form, in a provider block or required_providers. */
function invalidLocalName(ctx: Ctx, name: string, node: number): void {
  ctx.error("invalid-name", `Invalid provider local name: Provider names must be normalized. Replace ${quote(name)} with ${quote(name.toLowerCase())} to fix this error.`, node, null, null);
}

/** The Terraform release whose verdicts schemaform gives (required_version is checked against it). */
const TERRAFORM_VERSION = [1, 11, 4];

/**
 * required_version that 1.11.4 does not satisfy, and experiments (a release build refuses any,
 * even an empty list).
 */
function checkCoreVersion(ctx: Ctx, seen: ReadonlyMap<string, number>): void {
  const doc = ctx.doc;
  const experiments = seen.get("experiments");
  if (experiments !== undefined && !doc.isNull(experiments + 1)) {
    ctx.error("terraform-version", "Module uses experimental features: Experimental features are intended only for gathering early feedback on new language designs, and so are available only in alpha releases of Terraform.", experiments, "terraform", "experiments");
  }
  const required = seen.get("required_version");
  if (required === undefined || !doc.isString(required + 1)) return;
  const text = doc.str(required + 1);
  if (!isVersionConstraint(text)) return;
  const prerelease = prereleaseTerms(text);
  if (prerelease.length > 0) {
    // Terraform refuses these before comparing, one error per term, at the attribute
    for (const term of prerelease) {
      ctx.error(
        "terraform-version",
        `Invalid required_version constraint: Prerelease version constraints are not supported: ${term}. Remove the prerelease information from the constraint. Prerelease versions of terraform will match constraints using their version core only.`,
        required,
        "terraform",
        "required_version",
      );
    }
    return;
  }
  if (satisfiesAll(text, TERRAFORM_VERSION)) return;
  ctx.error(
    "terraform-version",
    `Unsupported Terraform Core version: This configuration does not support Terraform version ${TERRAFORM_VERSION.join(".")}. To proceed, either choose another supported Terraform version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior.`,
    required,
    "terraform",
    "required_version",
  );
}

/** A provider source address: [hostname/][namespace/]type, each part letters, digits and dashes (a template is none). */
function checkProviderSource(ctx: Ctx, node: number): void {
  const source = ctx.doc.str(node);
  const parts = source.split("/");
  if (parts.length > 3) {
    ctx.error("provider-source", `Invalid provider source string: The "source" attribute must be in the format "[hostname/][namespace/]name" (got ${quote(source)}).`, node, "terraform", "required_providers");
    return;
  }
  const type = parts[parts.length - 1]!;
  if (!/^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u.test(type)) {
    ctx.error("provider-source", `Invalid provider type: Invalid provider type ${quote(type)} in source ${quote(source)}: a provider type is letters, digits and dashes.`, node, "terraform", "required_providers");
  }
}

/** The local names a terraform block's required_providers declare must be in normal form. */
function checkRequiredProviderNames(ctx: Ctx, body: number): void {
  const doc = ctx.doc;
  for (const k of doc.members(body)) {
    if (doc.str(k) !== "required_providers") continue;
    forEachTypeKey(doc, k + 1, (p) => {
      const name = doc.str(p);
      if (name !== "//" && name !== name.toLowerCase()) invalidLocalName(ctx, name, p);
      if (doc.kinds[p + 1] !== K_OBJECT) return;
      for (const r of doc.members(p + 1)) if (doc.str(r) === "source" && doc.isString(r + 1)) checkProviderSource(ctx, r + 1);
    });
  }
}

/**
 * The bodies of the other blocks checkRoot declared (variable, output, module, terraform, moved,
 * removed, import, action) and of the locals blocks, once every file's declarations are known:
 * then each reference in them is resolved as it is found, and none has to be kept until the end
 * (a file of two million templates kept that many references).
 */
export function checkDeclaredBodies(ctx: Ctx): void {
  for (const decl of ctx.blocks) {
    // a context-only file lends its declarations only
    if (ctx.files[decl.file]!.contextOnly) continue;
    ctx.use(decl.file);
    const body = decl.body;
    switch (decl.blockType) {
      case "variable":
        checkVariable(ctx, decl);
        break;
      case "output":
        checkBody(ctx, body, OUTPUT, addressOf(decl), null, decl.header);
        break;
      case "module":
        checkModuleSource(ctx, checkRepeatableBody(ctx, decl, ctx.files[decl.file]!.override ? MODULE_OVERRIDE : MODULE, addressOf(decl)), addressOf(decl));
        break;
      case "terraform": {
        const seen = checkBody(ctx, body, TERRAFORM, "terraform", null, decl.header);
        checkRequiredProviderNames(ctx, body);
        checkCoreVersion(ctx, seen);
        break;
      }
      case "moved":
        checkBody(ctx, body, MOVED, "moved", null, decl.header);
        break;
      case "removed":
        checkBody(ctx, body, REMOVED, "removed", null, decl.header);
        break;
      case "import":
        checkImport(ctx, decl);
        break;
      case "action":
        checkLooseBody(ctx, body, addressOf(decl), null);
        break;
    }
  }
  for (let i = 0; i < ctx.localsBodies.length; i += 2) {
    if (ctx.files[ctx.localsBodies[i]!]!.contextOnly) continue;
    ctx.use(ctx.localsBodies[i]!);
    checkLocalValues(ctx, ctx.localsBodies[i + 1]!);
  }
}

/**
 * HCL's identifiers: a Unicode letter or "_", then letters, digits, "_" and "-". JavaScript's
 * ID_Continue has the zero-width joiner and non-joiner, HCL's does not.
 */
const UNICODE_NAME = /^[\p{ID_Start}_](?:(?![\u200c\u200d])[\p{ID_Continue}-])*$/u;

export function isName(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  let c = s.charCodeAt(0);
  if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95)) return c > 127 && UNICODE_NAME.test(s);
  for (let i = 1; i < n; i++) {
    c = s.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45)) return c > 127 && UNICODE_NAME.test(s);
  }
  return true;
}

function checkLabel(ctx: Ctx, decl: BlockDecl, index: number, label: string): void {
  if (isName(label)) return;
  const labels = LABELS[decl.blockType];
  const what = labels && labels.kinds[index] !== undefined ? `${labels.noun} ${labels.kinds[index]}` : "name";
  ctx.error("invalid-name", `Invalid ${what}: A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes (got ${quote(label)}).`, decl.header, addressOf(decl), null);
}

// ---------------------------------------------------------------------------------------------
// Generic bodies

/** "main.tf.json:9,13" for "was already set at …" */
export function where(ctx: Ctx, node: number): string {
  const file = ctx.files[ctx.fileIndex]!;
  const p = file.lines.position(ctx.doc.start(node));
  return `${file.name}:${p.line},${p.column}`;
}

export function duplicateArgument(ctx: Ctx, name: string, key: number, first: number, address: string | null, path: string | null): void {
  ctx.errorAtProperty("duplicate-argument", `Duplicate argument: The argument ${quote(name)} was already set at ${where(ctx, first)}. Each argument may be set only once.`, key, address, path);
}

export function unknownName(ctx: Ctx, name: string, key: number, candidates: Iterable<string>, address: string | null, path: string | null): void {
  const hint = suggest(name, candidates);
  ctx.error("unknown-argument", `Extraneous JSON object property: No argument or block type is named ${quote(name)}.${hint ? ` Did you mean "${hint}"?` : ""}`, key, address, path);
}

/** Checks a body against a spec; returns the property-name node of each attribute set. */
const NOTHING_SEEN: ReadonlyMap<string, number> = new Map();

export function checkBody(ctx: Ctx, body: number, s: BodySpec, address: string | null, base: string | null, header: number): ReadonlyMap<string, number> {
  if ((s.allowsSelf && !selfAllowed) || (s.isCondition && !inCondition)) {
    const outer = [selfAllowed, inCondition];
    selfAllowed ||= s.allowsSelf === true;
    inCondition ||= s.isCondition === true;
    try {
      return checkBody(ctx, body, s, address, base, header);
    } finally {
      [selfAllowed, inCondition] = outer as [boolean, boolean];
    }
  }
  const doc = ctx.doc;
  let seen: Map<string, number> | null = null;
  let singles: Map<string, number> | null = null;
  const end = doc.nexts[body]!;
  for (let k = body + 1; k < end; k = doc.nexts[k + 1]!) {
    const name = doc.str(k);
    if (name === "//") continue;
    const path = base === null ? name : joinPath(base, name);
    const attr = s.attrs.get(name);
    if (attr || (s.other === "expr" && !s.blocks.has(name))) {
      seen ??= new Map();
      const first = seen.get(name);
      if (first !== undefined) {
        duplicateArgument(ctx, name, k, first, address, path);
        continue;
      }
      seen.set(name, k);
      checkAttribute(ctx, k + 1, attr?.kind ?? "expr", name, address, path);
      continue;
    }
    const block = s.blocks.get(name);
    if (block) {
      const each = (instance: number) => {
        if (block.single) {
          singles ??= new Map();
          const first = singles.get(name);
          if (first !== undefined) {
            ctx.error("duplicate-block", `Duplicate ${name} block: Only one "${name}" block is allowed here; another was defined at ${where(ctx, first)}.`, instance, address, path);
            return;
          }
          singles.set(name, instance);
        }
        if (block.body === "literal") return;
        checkBody(ctx, instance, block.body, address, path, k);
      };
      if (block.labels > 0) walkNestedLabels(ctx, k + 1, name, block.labels, address, path, each);
      else forEachInstance(ctx, k + 1, name, address, path, each);
      continue;
    }
    unknownName(ctx, name, k, [...s.attrs.keys(), ...s.blocks.keys()], address, path);
  }
  for (const [name, attr] of s.attrs) {
    if (attr.required && (seen === null || !seen.has(name))) {
      // Terraform points at the closing brace of the body that lacks it
      const close = doc.end(body) - 1;
      ctx.report("error", "missing-argument", `Missing required argument: The argument ${quote(name)} is required, but no definition was found.`, close, close + 1, address, joinPath(base, name));
    }
  }
  if (s.isCondition && seen !== null) checkConditionRefers(ctx, seen, address, base);
  return seen ?? NOTHING_SEEN;
}

/**
 * Terraform refuses a condition that refers to nothing (its result could never change), and a
 * variable's validation condition that does not refer to the variable itself.
 */
function checkConditionRefers(ctx: Ctx, seen: ReadonlyMap<string, number>, address: string | null, base: string | null): void {
  const key = seen.get("condition");
  if (key === undefined) return;
  const roots = referencedRoots(ctx, key + 1);
  const blockName = base === null ? "condition" : base.slice(base.lastIndexOf(".") + 1);
  const path = joinPath(base, "condition");
  if (roots.length === 0) {
    ctx.error("condition-reference", `Invalid ${blockName} expression: The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.`, key + 1, address, path);
  }
  if (blockName === "validation" && address !== null && address.startsWith("var.")) {
    const variable = address.slice(4);
    if (!roots.some((r) => r.root === "var" && r.steps[0]?.kind === "attr" && r.steps[0].name === variable)) {
      ctx.error("condition-reference", `Invalid variable validation condition: The condition for variable ${quote(variable)} must refer to var.${variable} in order to test incoming values.`, key + 1, address, path);
    }
  }
}

/** Whether a condition (the value after its property name `key`) refers to anything. */
export function conditionRefers(ctx: Ctx, key: number): boolean {
  return referencedRoots(ctx, key + 1).length > 0;
}

const LITERAL_WORDS = new Set(["true", "false", "null"]);

/** The references in an expression's templates (a literal refers to nothing). */
function referencedRoots(ctx: Ctx, node: number): Reference[] {
  const doc = ctx.doc;
  const out: Reference[] = [];
  const visit = (n: number) => {
    const kind = doc.kinds[n];
    if (kind === K_OBJECT || kind === K_ARRAY) {
      const end = doc.nexts[n]!;
      for (let c = n + 1; c < end; c = doc.nexts[c]!) visit(c);
    } else if (doc.isString(n)) {
      const text = doc.str(n);
      if (!hasTemplate(text)) return;
      for (const r of analyzeTemplate(text).references) if (!LITERAL_WORDS.has(r.root)) out.push(r);
    }
  };
  visit(node);
  return out;
}

function walkNestedLabels(ctx: Ctx, value: number, what: string, labels: number, address: string | null, path: string | null, each: (body: number) => void, level = 0): void {
  if (labels === 0) {
    forEachInstance(ctx, value, what, address, path, each);
    return;
  }
  forEachLabel(ctx, value, what, level, address, path, (k) => walkNestedLabels(ctx, k + 1, what, labels - 1, address, path, each, level + 1));
}

/** A body we know nothing about (another provider's resource): check its values as expressions. */
export function checkLooseBody(ctx: Ctx, body: number, address: string | null, base: string | null): void {
  const doc = ctx.doc;
  let seenPrimitive: Map<string, number> | null = null;
  for (const k of doc.members(body)) {
    const name = doc.str(k);
    if (name === "//") continue;
    const value = k + 1;
    const kind = doc.kinds[value];
    const path = joinPath(base, name);
    if (kind === K_OBJECT || kind === K_ARRAY) {
      // an attribute holding an object or a list, or nested blocks: only the schema could tell
      checkExpression(ctx, value, address, path, true);
      continue;
    }
    // a string, number, bool or null can only be an argument, and an argument is set once
    seenPrimitive ??= new Map();
    const first = seenPrimitive.get(name);
    if (first !== undefined) duplicateArgument(ctx, name, k, first, address, path);
    else seenPrimitive.set(name, k);
    if (kind === K_STRING || doc.isString(value)) checkString(ctx, value, address, path);
  }
}

// ---------------------------------------------------------------------------------------------
// Expressions and attribute kinds

/**
 * Checks an expression: templates parse, expression objects have no duplicate keys. With
 * `maybeBlocks` the value might also be nested blocks (another provider's, whose schema we do not
 * have), where a repeated key can be a second block; but a key repeated with a string, number or
 * bool value is an error either way (a duplicate attribute, or a duplicate argument).
 */
export function checkExpression(ctx: Ctx, node: number, address: string | null, path: string | null, maybeBlocks = false): void {
  const doc = ctx.doc;
  const kind = doc.kinds[node];
  if (kind === K_OBJECT) {
    let keys: Map<string, number> | null = null;
    const end = doc.nexts[node]!;
    for (let k = node + 1; k < end; k = doc.nexts[k + 1]!) {
      const key = doc.str(k);
      if (!maybeBlocks || (key !== "//" && isPrimitive(doc.kinds[k + 1]!))) {
        keys ??= new Map();
        const first = keys.get(key);
        if (first !== undefined) {
          ctx.errorAtProperty("duplicate-object-attribute", `Duplicate object attribute: An attribute named ${quote(key)} was already defined at ${where(ctx, first)}.`, k, address, joinPath(path, key));
        } else keys.set(key, k);
      }
      if (!maybeBlocks && hasTemplate(key)) checkString(ctx, k, address, path);
      checkExpression(ctx, k + 1, address, joinPath(path, key), maybeBlocks && key !== "//");
    }
  } else if (kind === K_ARRAY) {
    let i = 0;
    const end = doc.nexts[node]!;
    for (let c = node + 1; c < end; c = doc.nexts[c]!) checkExpression(ctx, c, address, joinPath(path, i++), maybeBlocks);
  } else if (doc.isString(node)) {
    checkString(ctx, node, address, path);
  }
}

function isPrimitive(kind: number): boolean {
  return kind !== K_OBJECT && kind !== K_ARRAY && kind !== K_NULL;
}

/** Template syntax and references of one string in an expression position. */
export function checkString(ctx: Ctx, node: number, address: string | null, path: string | null, from?: BlockDecl, attribute?: string, expects?: import("./model-types.js").CtyType): void {
  const s = ctx.doc.str(node);
  if (!hasTemplate(s)) return;
  const info = analyzeTemplate(s);
  // an operation on local values of the wrong type fails when validate evaluates it (values.ts)
  const evaluation = info.problem === null && s.includes("local.") ? evaluationError(ctx, info) : null;
  let problem = info.problem ?? (evaluation && { summary: evaluation.summary, detail: evaluation.detail, offset: 0 });
  // a check block's assertions are evaluated at plan (as warnings), not by validate: a failure
  // to evaluate one is no error here (a syntax error or an unknown function still is)
  if (problem && address !== null && address.startsWith("check.") && path !== null && path.startsWith("assert") && parseTemplate(s).ok) problem = null;
  if (problem) {
    const doc = ctx.doc;
    // positions inside strings with JSON escapes are approximate: point at the string then
    const exact = doc.kinds[node] === K_STRING;
    const start = exact ? doc.start(node) + 1 + problem.offset : doc.start(node);
    ctx.report("error", "template-syntax", `${problem.summary}: ${problem.detail}`, start, exact ? start + 1 : doc.end(node), address, path);
    return;
  }
  for (const ref of info.references) {
    if (ref.root === "self") {
      if (!selfAllowed) {
        const found = { file: ctx.fileIndex, node, ref, whole: info.whole === ref, address, path };
        ctx.errorAtReference(found, "invalid-reference", 'Invalid "self" reference: The "self" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.');
        // conditions are evaluated once more without self in scope: that pass adds its own error
        if (inCondition) ctx.errorAtReference(found, "invalid-reference", 'Unknown variable: There is no variable named "self".');
      } else {
        // self is the resource's own object: its attributes are the schema's
        const current = ctx.currentBlock;
        const block = current?.model?.block ?? (current ? builtinType(current.blockType, current.type)?.block : undefined);
        const first = ref.steps[0];
        if (block && first?.kind === "attr" && !Object.prototype.hasOwnProperty.call(block.attributes, first.name) && !Object.prototype.hasOwnProperty.call(block.blocks, first.name)) {
          const found = { file: ctx.fileIndex, node, ref, whole: info.whole === ref, address, path };
          ctx.errorAtReference(found, "unsupported-attribute", `Unsupported attribute: This object has no argument, nested block, or exported attribute named ${quote(first.name)}.`);
        }
      }
      continue;
    }
    const member = ref.steps[0]?.kind === "attr" ? ref.steps[0].name : null;
    if (member === null && Object.hasOwn(WHOLE_OBJECT_WORDING, ref.root)) {
      ctx.errorAtReference({ file: ctx.fileIndex, node, ref, whole: info.whole === ref, address, path }, "invalid-reference", WHOLE_OBJECT_WORDING[ref.root]!);
      continue;
    }
    if (iterators.includes(ref.root)) {
      // a dynamic block's iterator, in its content: an object of key and value only
      if (member !== null && member !== "key" && member !== "value") {
        ctx.errorAtReference({ file: ctx.fileIndex, node, ref, whole: info.whole === ref, address, path }, "unsupported-attribute", `Unsupported attribute: This object does not have an attribute named ${quote(member)}.`);
      }
      continue;
    }
    if (member !== null && Object.hasOwn(OBJECT_ATTRIBUTES, ref.root) && !OBJECT_ATTRIBUTES[ref.root]!.names.includes(member)) {
      // path, terraform, count and each have a fixed set of attributes
      ctx.errorAtReference({ file: ctx.fileIndex, node, ref, whole: info.whole === ref, address, path }, "invalid-reference", `Invalid ${quote(ref.root)} attribute: The ${quote(ref.root)} object does not have an attribute named ${quote(member)}.${OBJECT_ATTRIBUTES[ref.root]!.detail}`);
      continue;
    }
    if (ref.root === "each" || ref.root === "count") {
      const found = { file: ctx.fileIndex, node, ref, whole: info.whole === ref, address, path };
      if (ctx.repetitionRefs !== null) ctx.repetitionRefs.push(found);
      else ctx.errorAtReference(found, "repetition-reference", REPETITION_WORDING[ref.root]);
      continue;
    }
    if (ref.root === "var" || ref.root === "local" || ref.root === "module") {
      if (ref.steps[0]?.kind === "attr") ctx.addNamedReference({ file: ctx.fileIndex, node, ref, whole: info.whole === ref, address, path });
      continue;
    }
    if (ref.root === "path" || ref.root === "terraform") continue;
    if (ref.root === "resource") {
      // "resource.TYPE.NAME" is the long form of "TYPE.NAME"
      const type = ref.steps[0];
      if (type?.kind !== "attr") continue;
      ctx.addReference({ file: ctx.fileIndex, node, ref: { ...ref, root: type.name, steps: ref.steps.slice(1) }, whole: info.whole === ref, address, path, from, attribute, expects });
      continue;
    }
    if (ref.root === "ephemeral") {
      checkEphemeralReference(ctx, { file: ctx.fileIndex, node, ref, whole: info.whole === ref, address, path });
      continue;
    }
    // anything else names a resource (or a data source): resolved once every block is declared.
    // Our types always; other names only when they are plainly references (the template scan
    // does not keep a for expression's names in nested templates, nor tell object keys apart)
    if (!isOurs(ref.root, ref.steps) && (member === null || LITERAL_WORDS.has(ref.root) || hasForExpression(s))) continue;
    ctx.addReference({ file: ctx.fileIndex, node, ref, whole: info.whole === ref, address, path, from, attribute, expects });
  }
}

/** The attributes of Terraform's fixed objects, and what its message adds about them. */
const OBJECT_ATTRIBUTES: Record<string, { names: string[]; detail: string }> = {
  path: { names: ["module", "root", "cwd"], detail: "" },
  terraform: {
    names: ["workspace", "applying"],
    detail: " The only supported attributes are terraform.workspace, the name of the currently-selected workspace, and terraform.applying, a boolean which is true only during apply.",
  },
  count: { names: ["index"], detail: ' The only supported attribute is count.index, which is the index of each instance of a resource block that has the "count" argument set.' },
  each: { names: ["key", "value"], detail: ' The supported attributes are each.key and each.value, the current key and value pair of the "for_each" attribute set.' },
};

/** Whether the body being checked is one where `self` refers to its resource (see BodySpec.allowsSelf). */
let selfAllowed = false;
/** Whether the body being checked is a condition block (precondition, postcondition, validation, assert). */
let inCondition = false;

const REPETITION_WORDING = {
  each: 'Reference to "each" in context without for_each: The "each" object can be used only in "module" or "resource" blocks, and only when the "for_each" argument is set.',
  count: 'Reference to "count" in non-counted context: The "count" object can only be used in "module", "resource", and "data" blocks, and only when the "count" argument is set.',
};


/** Reports the `each` and `count` references a block made that what it sets does not allow. */
export function judgeRepetition(ctx: Ctx, refs: readonly FoundReference[], repetition: "count" | "for_each" | null): void {
  for (const found of refs) {
    const root = found.ref.root as keyof typeof REPETITION_WORDING;
    if ((root === "each" ? "for_each" : "count") !== repetition) ctx.errorAtReference(found, "repetition-reference", REPETITION_WORDING[root]);
  }
}

/** checkBody for a block that may set count or for_each (module, import): its `each` and `count` references are judged by what it sets. */
function checkRepeatableBody(ctx: Ctx, decl: BlockDecl, s: BodySpec, address: string): ReadonlyMap<string, number> {
  const refs: FoundReference[] = [];
  const outer = ctx.repetitionRefs;
  ctx.repetitionRefs = refs;
  let seen: ReadonlyMap<string, number>;
  try {
    seen = checkBody(ctx, decl.body, s, address, null, decl.header);
  } finally {
    ctx.repetitionRefs = outer;
  }
  const repetition = repetitionOf(ctx, decl);
  // a module call's arguments are evaluated by validate with unknown instance data: each and
  // count are refused there only against the wrong repetition, not for want of one
  if (repetition !== null || decl.blockType !== "module") judgeRepetition(ctx, refs, repetition);
  return seen;
}

function isOurs(root: string, steps: { kind: string; name?: string }[]): boolean {
  if (root.startsWith("tsdb_") || root.startsWith("containerbackup_")) return true;
  if (root === "data") {
    const first = steps[0];
    return first?.kind === "attr" && (first.name!.startsWith("tsdb_") || first.name!.startsWith("containerbackup_"));
  }
  return false;
}

function hasForExpression(s: string): boolean {
  return s.includes("for") && /\bfor\b/.test(s);
}

/** What Terraform says of an object used whole, without an attribute ("${var}", "${data}", "${tsdb_vpcs}"). */
const WHOLE_OBJECT_WORDING: Record<string, string> = Object.fromEntries([
  ...["var", "local", "module", "count", "each", "path", "terraform"].map((root) => [root, `Invalid reference: The ${quote(root)} object cannot be accessed directly. Instead, access one of its attributes.`]),
  ["data", 'Invalid reference: The "data" object must be followed by two attribute names: the data source type and the resource name.'],
  ["ephemeral", 'Invalid reference: The "ephemeral" object must be followed by two attribute names: the ephemeral resource type and the resource name.'],
]);

/** The iterator names of the dynamic blocks whose content is being checked (innermost last). */
const iterators: string[] = [];

/** Checks `check` with `name` usable as a dynamic block's iterator (in its content). */
export function withIterator<T>(name: string, check: () => T): T {
  iterators.push(name);
  try {
    return check();
  } finally {
    iterators.pop();
  }
}

/** The ephemeral resources a module declares ("type.name"), per run. */
const ephemeralDeclared = new WeakMap<Ctx, Set<string>>();

function checkEphemeralReference(ctx: Ctx, found: FoundReference): void {
  const [type, name] = found.ref.steps;
  if (type?.kind !== "attr" || name?.kind !== "attr") {
    ctx.errorAtReference(found, "invalid-reference", WHOLE_OBJECT_WORDING.ephemeral!);
    return;
  }
  if (ephemeralDeclared.get(ctx)?.has(`${type.name}.${name.name}`)) return;
  ctx.errorAtReference(found, "undeclared-reference", `Reference to undeclared resource: An ephemeral resource ${quote(type.name)} ${quote(name.name)} has not been declared in the root module.`);
}

const STATIC_REF_DETAIL =
  "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.";

function invalidExpression(ctx: Ctx, node: number, address: string | null, path: string | null, detail = STATIC_REF_DETAIL): void {
  ctx.error("reference-only", `Invalid expression: ${detail}`, node, address, path);
}

/** Checks a bare reference string; returns the traversal when valid. */
function checkRef(ctx: Ctx, node: number, address: string | null, path: string | null, dynamicIndex = false) {
  const doc = ctx.doc;
  if (!doc.isString(node)) {
    invalidExpression(ctx, node, address, path, "A reference is required here, written as a JSON string such as \"aws_instance.example\" (without ${ }).");
    return null;
  }
  const s = doc.str(node);
  const t = hasTemplate(s) ? null : parseTraversal(s, dynamicIndex);
  if (!t) {
    invalidExpression(ctx, node, address, path, hasTemplate(s) ? `${STATIC_REF_DETAIL} Write the reference without "\${ }".` : STATIC_REF_DETAIL);
    return null;
  }
  return t;
}

export function checkAttribute(ctx: Ctx, value: number, kind: AttrKind, name: string, address: string | null, path: string | null): void {
  const doc = ctx.doc;
  const vk = doc.kinds[value];
  switch (kind) {
    case "expr":
      checkExpression(ctx, value, address, path);
      return;
    case "literal":
      return;
    case "string":
      // decoded into a Go string: numbers and bools convert, null and collections do not
      if (vk === K_NULL) ctx.error("value-type", "Unsuitable value type: Unsuitable value: null value is not allowed", value, address, path);
      else if (vk === K_OBJECT || vk === K_ARRAY) ctx.error("value-type", "Unsuitable value type: Unsuitable value: string required", value, address, path);
      return;
    case "constraint":
      if (vk === K_NULL) return;
      if (!doc.isString(value)) ctx.error("value-type", `Incorrect attribute value type: Inappropriate value for attribute ${quote(name)}: a string is required.`, value, address, path);
      else if (!isVersionConstraint(doc.str(value))) ctx.error("version-constraint", "Invalid version constraint: This string does not use correct version constraint syntax.", value, address, path);
      return;
    case "bool":
      if (vk === K_TRUE || vk === K_FALSE) return;
      // a literal is required: Terraform decodes these without evaluating, so null and templates are refused
      if (vk === K_NULL) {
        ctx.error("value-type", "Unsuitable value type: Unsuitable value: null value is not allowed", value, address, path);
        return;
      }
      if (doc.isString(value)) {
        const s = doc.str(value);
        if (hasTemplate(s)) {
          ctx.error("value-type", "Unsuitable value type: Unsuitable value: a bool is required", value, address, path);
          return;
        }
        if (parseBoolString(s) !== undefined) return;
        const hint = s.toLowerCase() === "true" || s.toLowerCase() === "false" ? `; to convert from string, use lowercase "${s.toLowerCase()}"` : "";
        ctx.error("value-type", `Unsuitable value type: Unsuitable value for ${quote(name)}: a bool is required${hint}.`, value, address, path);
        return;
      }
      ctx.error("value-type", `Unsuitable value type: Unsuitable value for ${quote(name)}: a bool is required.`, value, address, path);
      return;
    case "type": {
      if (!doc.isString(value)) {
        ctx.error("variable-type", "Invalid type specification: The type must be given as a string holding a type expression, such as \"list(string)\".", value, address, path);
        return;
      }
      const parsed = parseTypeExpression(doc.str(value));
      if ("error" in parsed) ctx.error("variable-type", `Invalid type specification: ${parsed.error}.`, value, address, path);
      return;
    }
    case "ref":
      checkRef(ctx, value, address, path);
      return;
    case "ref-index":
      checkRef(ctx, value, address, path, true);
      return;
    case "provider-ref": {
      const t = checkRef(ctx, value, address, path);
      if (t && (t.steps.length > 1 || t.steps.some((s) => s.kind !== "attr"))) {
        ctx.error("reference-only", 'Invalid provider reference: A provider reference is a provider name, optionally followed by a dot and an alias name, such as "tsdb.eu".', value, address, path);
      } else if (t && t.root !== t.root.toLowerCase()) invalidLocalName(ctx, t.root, value);
      return;
    }
    case "refs":
      if (vk === K_NULL) {
        invalidExpression(ctx, value, address, path, "A static list expression is required.");
        return;
      }
      if (vk !== K_ARRAY) {
        invalidExpression(ctx, value, address, path, `A JSON array of references is required for ${quote(name)}, e.g. ["aws_instance.example"].`);
        return;
      }
      for (const e of doc.elements(value)) {
        const t = checkRef(ctx, e, address, path);
        if (t && name === "depends_on") checkDependency(ctx, e, t, address, path);
        if (t) ctx.dependencies?.bare(ctx, t.root, t.steps, address); // an edge of the dependency graph (cycles.ts)
      }
      return;
    case "replace_triggered_by":
      checkReplaceTriggeredBy(ctx, value, address, path);
      return;
    case "ignore_changes":
      if (vk === K_NULL) {
        invalidExpression(ctx, value, address, path, "A static list expression is required.");
        return;
      }
      if (doc.isString(value)) {
        if (doc.str(value) !== "all") invalidExpression(ctx, value, address, path, 'The ignore_changes argument is either the keyword "all" or an array of attribute names.');
        return;
      }
      if (vk !== K_ARRAY) {
        invalidExpression(ctx, value, address, path, 'The ignore_changes argument is either the keyword "all" or an array of attribute names.');
        return;
      }
      for (const e of doc.elements(value)) {
        const t = checkRef(ctx, e, address, path);
        if (t && t.root === "all" && t.steps.length === 0) {
          ctx.error("reference-only", 'Invalid ignore_changes wildcard: The "all" keyword is not allowed inside the array: use "ignore_changes": "all".', e, address, path);
        }
      }
      return;
    case "count":
      checkCount(ctx, value, address, path);
      return;
    case "for_each":
      checkForEach(ctx, value, address, path);
      return;
    case "providers":
      if (vk !== K_OBJECT) {
        ctx.error("value-type", 'Invalid providers argument: The providers argument is an object mapping the module\'s provider names to provider references, e.g. {"aws": "aws.usw2"}.', value, address, path);
        return;
      }
      for (const k of doc.members(value)) {
        const t = checkRef(ctx, k + 1, address, joinPath(path, doc.str(k)));
        const alias = t ? undeclaredAlias(ctx, t) : null;
        // Terraform's whole message (it has no detail): the alias passed is configured by no provider block
        if (alias) ctx.error("provider-reference", `missing provider ${providerAddress(t!.root, alias)}`, k + 1, address, joinPath(path, doc.str(k)));
      }
      return;
    case "when":
    case "on_failure": {
      const allowed = kind === "when" ? ["create", "destroy"] : ["continue", "fail"];
      const s = doc.isString(value) ? doc.str(value) : null;
      const keyword = s === null ? null : keywordOf(s);
      if (keyword === null || !allowed.includes(keyword)) {
        ctx.error("keyword", `Invalid ${quote(name)} keyword: The ${quote(name)} argument must be one of ${allowed.map((a) => `"${a}"`).join(" or ")}${hasTemplate(s ?? "") ? " (a bare keyword, not a template)" : ""}.`, value, address, path);
      }
      return;
    }
    case "ident": {
      const s = doc.isString(value) ? doc.str(value) : "";
      if (!isName(s)) invalidExpression(ctx, value, address, path, "The iterator name must be a bare identifier, such as \"item\".");
      return;
    }
  }
}

/**
 * One depends_on entry naming a resource or data source: it must be the whole object (an
 * instance key at most), and declared.
 */
function checkDependency(ctx: Ctx, node: number, t: { root: string; steps: Reference["steps"] }, address: string | null, path: string | null): void {
  if (NON_RESOURCE_ROOTS.has(t.root) || t.root === "resource" || t.root === "ephemeral") return;
  const nameAt = t.root === "data" ? 1 : 0;
  if (t.steps.length <= nameAt || t.steps.slice(0, nameAt + 1).some((s) => s.kind !== "attr")) return;
  let rest = t.steps.slice(nameAt + 1);
  if (rest[0]?.kind === "index") rest = rest.slice(1);
  if (rest.length > 0) {
    ctx.error("reference-only", "Invalid depends_on reference: References in depends_on must be to a whole object (resource, etc), not to an attribute of an object.", node, address, path);
    return;
  }
  const text = ctx.doc.str(node);
  const start = text.length - text.trimStart().length;
  ctx.addReference({ file: ctx.fileIndex, node, ref: { root: t.root, steps: t.steps, start, end: text.trimEnd().length }, whole: false, address, path });
}

/** Roots of references that are not resources: what replace_triggered_by may not name (count.index and each.key aside). */
const NON_RESOURCE_ROOTS = new Set(["var", "local", "module", "path", "terraform", "self", "count", "each"]);

/**
 * replace_triggered_by: a static array of strings, each an expression (not a template) that refers
 * to at least one resource or data source, and otherwise only to count.index and each.key (an
 * index such as "tsdb_vpcs.a[count.index]" is allowed; Terraform's words).
 */
function checkReplaceTriggeredBy(ctx: Ctx, value: number, address: string | null, path: string | null): void {
  const doc = ctx.doc;
  if (doc.kinds[value] !== K_ARRAY) {
    invalidExpression(ctx, value, address, path, "A static list expression is required.");
    return;
  }
  for (const e of doc.elements(value)) {
    if (!doc.isString(e)) {
      ctx.error("reference-only", "Invalid reference expression: A single reference string is required.", e, address, path);
      continue;
    }
    const text = doc.str(e);
    if (hasTemplate(text)) {
      // read as an expression, "${" is no token at all
      ctx.error("template-syntax", "Invalid character: This character is not used within the language.", e, address, path);
      invalidExpression(ctx, e, address, path, "Expected the start of an expression, but found an invalid expression token.");
      continue;
    }
    const info = analyzeTemplate(`\${${text}}`);
    if (info.problem) {
      invalidExpression(ctx, e, address, path, "Expected the start of an expression, but found an invalid expression token.");
      continue;
    }
    let resources = 0;
    for (const r of info.references) {
      if (LITERAL_WORDS.has(r.root)) continue;
      const first = r.steps[0];
      const name = first?.kind === "attr" ? first.name : null;
      if (r.root === "each" && name !== "key") {
        ctx.error("replace-triggered-by", "Invalid each reference in replace_triggered_by expression: Only each.key may be used in replace_triggered_by.", e, address, path);
      } else if (r.root === "count" && name === "index") {
        // allowed
      } else if (r.root === "each") {
        // each.key: allowed
      } else if (NON_RESOURCE_ROOTS.has(r.root)) {
        ctx.error("replace-triggered-by", "Invalid reference in replace_triggered_by expression: Only resources, count.index, and each.key may be used in replace_triggered_by.", e, address, path);
      } else if (r.root !== "data" && (r.steps.length === 0 || r.steps[0]!.kind !== "attr")) {
        // a bare word is a resource type without its name
        ctx.error("invalid-reference", "Invalid reference: A reference to a resource type must be followed by at least one attribute access, specifying the resource name.", e, address, path);
        resources++;
      } else {
        resources++;
        ctx.dependencies?.bare(ctx, r.root, r.steps, address); // an edge of the dependency graph (cycles.ts)
      }
    }
    if (resources === 0) ctx.error("replace-triggered-by", "Invalid replace_triggered_by expression: Missing resource reference in replace_triggered_by expression.", e, address, path);
  }
}

/** The alias a provider reference ("tsdb.east") names when no provider block declares it; null when it is declared or names none. */
function undeclaredAlias(ctx: Ctx, t: { root: string; steps: readonly { kind: string; name?: string }[] }): string | null {
  const step = t.steps[0];
  if (t.steps.length !== 1 || step?.kind !== "attr") return null;
  let aliases = declaredAliases.get(ctx);
  if (!aliases) {
    aliases = new Set();
    for (const b of ctx.blocks) {
      if (b.blockType === "provider" && b.labelList?.[1] !== undefined) aliases.add(`${b.type}.${b.labelList[1]}`);
      else if (b.blockType === "terraform") addConfigurationAliases(ctx, b, aliases);
    }
    declaredAliases.set(ctx, aliases);
  }
  return aliases.has(`${t.root}.${step.name}`) ? null : step.name!;
}

const declaredAliases = new WeakMap<Ctx, Set<string>>();

/** The aliases a terraform block's required_providers declare with configuration_aliases (["tsdb.eu"]). */
function addConfigurationAliases(ctx: Ctx, decl: BlockDecl, aliases: Set<string>): void {
  const doc = ctx.files[decl.file]!.doc;
  if (!doc) return;
  const objects = (node: number) => (doc.kinds[node] === K_OBJECT ? [node] : doc.kinds[node] === K_ARRAY ? doc.elements(node).filter((e) => doc.kinds[e] === K_OBJECT) : []);
  for (const k of doc.members(decl.body)) {
    if (doc.str(k) !== "required_providers") continue;
    for (const body of objects(k + 1)) {
      for (const p of doc.members(body)) {
        for (const requirement of objects(p + 1)) {
          for (const r of doc.members(requirement)) if (doc.str(r) === "configuration_aliases") for (const alias of configurationAliases(doc, r + 1, doc.str(p))) aliases.add(alias);
        }
      }
    }
  }
}

/** Terraform's absolute address of a provider configuration, e.g. provider["registry.terraform.io/schemaform/tsdb"].east. */
function providerAddress(name: string, alias: string): string {
  const namespace = name === "tsdb" || name === "containerbackup" ? "schemaform" : "hashicorp";
  return `provider["registry.terraform.io/${namespace}/${name}"].${alias}`;
}

/**
 * A resource's or data source's `provider` naming an alias no provider block declares: Terraform
 * reports it (without a position) as a configuration that "has been removed".
 */
export function checkProviderConfigured(ctx: Ctx, value: number, address: string, decl?: BlockDecl): void {
  const doc = ctx.doc;
  if (!doc.isString(value)) return;
  const t = parseTraversal(doc.str(value));
  if (t && decl && OUR_PROVIDERS.has(t.root) && !decl.type.startsWith(`${t.root}_`) && (decl.blockType === "resource" || decl.blockType === "data")) {
    // another of our providers than the type's own: Terraform asks it for the type, at the type's label
    const noun = decl.blockType === "resource" ? "Invalid resource type" : "Invalid data source";
    const what = decl.blockType === "resource" ? "resource type" : "data source";
    ctx.error("unknown-type", `${noun}: The provider schemaform/${t.root} does not support ${what} ${quote(decl.type)}.`, typeKeyOf(ctx, decl.header), null, null);
  }
  const alias = t ? undeclaredAlias(ctx, t) : null;
  if (!alias) return;
  ctx.error(
    "provider-reference",
    `Provider configuration not present: To work with ${address} its original provider configuration at ${providerAddress(t!.root, alias)} is required, but it has been removed. This occurs when a provider configuration is removed while objects created by that provider still exist in the state. Re-add the provider configuration to destroy ${address}, after which you can remove the provider configuration again.`,
    value,
    address,
    "provider",
  );
}

export function checkCount(ctx: Ctx, value: number, address: string | null, path: string | null): void {
  const doc = ctx.doc;
  const kind = doc.kinds[value];
  let n: number | undefined;
  if (kind === K_NULL) {
    ctx.error("count", 'Invalid count argument: The given "count" argument value is null. An integer is required.', value, address, path);
    return;
  }
  if (kind === K_NUMBER) n = doc.num(value);
  else if (doc.isString(value)) {
    const s = doc.str(value);
    if (hasTemplate(s)) {
      const before = ctx.diagnostics.length;
      checkString(ctx, value, address, path);
      if (ctx.diagnostics.length === before) checkKnownCount(ctx, value, templateKnownValue(ctx, analyzeTemplate(s)), address, path);
      return;
    }
    n = parseNumberString(s);
    if (n === undefined) {
      ctx.error("count", 'Incorrect value type: Invalid expression value: a number is required for "count".', value, address, path);
      return;
    }
  } else {
    ctx.error("count", 'Incorrect value type: Invalid expression value: a number is required for "count".', value, address, path);
    return;
  }
  const digits = kind === K_NUMBER ? doc.raw(value) : doc.str(value).trim();
  if (!Number.isInteger(n)) ctx.error("count", 'Invalid count argument: The given "count" argument value is unsuitable: must be a whole number.', value, address, path);
  else if (!fitsInt64(digits, n)) ctx.error("count", 'Invalid count argument: The given "count" argument value is unsuitable: value must be a whole number, between -9223372036854775808 and 9223372036854775807.', value, address, path);
  else if (n < 0) ctx.error("count", 'Invalid count argument: The given "count" argument value is unsuitable: must be greater than or equal to zero.', value, address, path);
}

/** A count given by a template whose value validate knows (literals, local values), in Terraform's words for it. */
function checkKnownCount(ctx: Ctx, value: number, known: Known, address: string | null, path: string | null): void {
  if (known === UNKNOWN) return;
  if (known === null) {
    ctx.error("count", 'Invalid count argument: The given "count" argument value is null. An integer is required.', value, address, path);
    return;
  }
  const n = typeof known === "number" ? known : typeof known === "string" ? parseNumberString(known) : undefined;
  if (n === undefined) ctx.error("count", "Incorrect value type: Invalid expression value: a number is required.", value, address, path);
  else if (!Number.isSafeInteger(n)) ctx.error("count", 'Invalid count argument: The given "count" argument value is unsuitable: value must be a whole number, between -9223372036854775808 and 9223372036854775807.', value, address, path);
  else if (n < 0) ctx.error("count", 'Invalid count argument: The given "count" argument value is unsuitable: must be greater than or equal to zero.', value, address, path);
}

/** Whether a whole number (its text, and its value as a double) is within int64, Terraform's range for count. */
function fitsInt64(text: string, n: number): boolean {
  if (Math.abs(n) < 2 ** 62) return true;
  // doubles cannot tell 2^63 - 1 from 2^63: decide on the digits when they are plain
  if (/^-?[0-9]+$/.test(text)) {
    const big = BigInt(text);
    return big >= -(2n ** 63n) && big < 2n ** 63n;
  }
  return n >= -(2 ** 63) && n < 2 ** 63;
}

export function checkForEach(ctx: Ctx, value: number, address: string | null, path: string | null): void {
  const doc = ctx.doc;
  const kind = doc.kinds[value];
  // an import block's for_each may also be a list (its elements are each.value, the index each.key)
  if (kind === K_OBJECT || (kind === K_ARRAY && address === "import")) {
    checkExpression(ctx, value, address, path);
    return;
  }
  if (doc.isString(value)) {
    const s = doc.str(value);
    if (hasTemplate(s)) {
      checkString(ctx, value, address, path);
      // validate evaluates it (an import's for_each may also be a list: not judged here)
      if (address !== "import") checkForEachValue(ctx, s, value, address, path);
      return;
    }
    ctx.error("for-each", 'Invalid for_each argument: The given "for_each" argument value is unsuitable: the "for_each" argument must be a map, or set of strings, and you have provided a value of type string.', value, address, path);
    return;
  }
  unsuitableForEach(ctx, kind === K_NULL ? null : kind === K_ARRAY ? "tuple" : kind === K_NUMBER ? "number" : "bool", value, address, path);
}

/** Terraform's error for a for_each value of `type` (null: the value is null). */
function unsuitableForEach(ctx: Ctx, type: string | null, value: number, address: string | null, path: string | null): void {
  if (type === null) {
    ctx.error("for-each", 'Invalid for_each argument: The given "for_each" argument value is null. A map, or set of strings is allowed.', value, address, path);
    return;
  }
  ctx.error(
    "for-each",
    `Invalid for_each argument: The given "for_each" argument value is unsuitable: the "for_each" argument must be a map, or set of strings, and you have provided a value of type ${type}.${type === "tuple" ? ' Convert a list with "${toset(…)}".' : ""}`,
    value,
    address,
    path,
  );
}

/**
 * A for_each template whose value validate knows: a tuple, a primitive or null is refused as the
 * literal is; `toset([…])` of numbers or bools only is a set of numbers or bools, which
 * for_each refuses too (a set must hold strings).
 */
function checkForEachValue(ctx: Ctx, text: string, value: number, address: string | null, path: string | null): void {
  const info = analyzeTemplate(text);
  if (info.problem !== null) return;
  const e = info.expr;
  if (e !== null && e.t === "call" && (e.name === "toset" || e.name === "core::toset") && e.args.length === 1 && !e.expand && e.args[0]!.t === "tuple") {
    const items = e.args[0]!.items;
    const kinds = new Set(items.map((item) => (item.t === "lit" ? (item.v === null ? "null" : typeof item.v) : "other")));
    const only = kinds.size === 1 ? [...kinds][0] : null;
    if (items.length > 0 && (only === "number" || only === "boolean")) {
      ctx.error("for-each", `Invalid for_each set argument: The given "for_each" argument value is unsuitable: "for_each" supports maps and sets of strings, but you have provided a set containing type ${only === "boolean" ? "bool" : "number"}.`, value, address, path);
    }
    return;
  }
  const known = templateKnownValue(ctx, info);
  if (known === UNKNOWN || (known !== null && typeof known === "object" && !Array.isArray(known))) return;
  unsuitableForEach(ctx, known === null ? null : Array.isArray(known) ? "tuple" : typeof known === "boolean" ? "bool" : typeof known, value, address, path);
}

// ---------------------------------------------------------------------------------------------
// Core blocks with extra rules

/** A module's source is a literal address; `version` applies to registry modules only, never beside a local path. */
function checkModuleSource(ctx: Ctx, seen: ReadonlyMap<string, number>, address: string): void {
  const doc = ctx.doc;
  const source = seen.get("source");
  if (source === undefined || !doc.isString(source + 1)) return;
  const path = doc.str(source + 1);
  if (hasTemplate(path)) {
    // a literal string here: Terraform reads "${…}" as a (meaningless) remote address
    ctx.error("module-source", `Invalid module source address: Terraform failed to determine your intended installation method for remote module package ${quote(path)}; the source address must be a literal string, not a template.`, source + 1, address, "source");
    return;
  }
  if (looksLikeBareRelativePath(path)) {
    ctx.error("module-source", `Invalid module source address: Terraform failed to determine your intended installation method for remote module package ${quote(path)}. If you intended this as a path relative to the current module, use ${quote(`./${path}`)} instead. The "./" prefix indicates that the address is a relative filesystem path.`, source + 1, address, "source");
    return;
  }
  const version = seen.get("version");
  if (version === undefined || doc.kinds[version + 1] === K_NULL) return;
  if (!path.startsWith("./") && !path.startsWith("../")) return;
  ctx.error(
    "module-source",
    `Invalid registry module source address: Failed to parse module registry address: can't use local directory ${quote(path)} as a module registry address. Terraform assumed that you intended a module registry source address because you also set the argument "version", which applies only to registry modules.`,
    source + 1,
    address,
    "source",
  );
}

/**
 * "modules/net": not local (no "./"), not a registry address (namespace/name/provider, with an
 * optional host), and no remote form (a scheme, a "::" forced getter, user@host, a host name
 * with a dot): nothing Terraform can install it with.
 */
function looksLikeBareRelativePath(path: string): boolean {
  if (path === "" || path.startsWith(".") || path.startsWith("/") || /[:@?]/.test(path)) return false;
  const parts = path.split("/");
  return parts.length <= 2 && !parts[0]!.includes(".") && parts.every((p) => /^[A-Za-z0-9_-]+$/.test(p));
}

/** Names a variable cannot have: they mean something else as arguments of a module block. */
const RESERVED_VARIABLE_NAMES = new Set(["count", "depends_on", "for_each", "lifecycle", "locals", "providers", "provider", "source", "version"]);

function checkVariable(ctx: Ctx, decl: BlockDecl): void {
  if (RESERVED_VARIABLE_NAMES.has(decl.name)) {
    ctx.error("invalid-name", `Invalid variable name: The variable name ${quote(decl.name)} is reserved due to its special meaning inside module blocks.`, decl.header, addressOf(decl), null);
  }
  const seen = checkBody(ctx, decl.body, VARIABLE, addressOf(decl), null, decl.header);
  const doc = ctx.doc;
  const typeKey = seen.get("type");
  const defaultKey = seen.get("default");
  const sensitiveKey = seen.get("sensitive");
  if (defaultKey !== undefined && sensitiveKey !== undefined && doc.kinds[sensitiveKey + 1] === K_TRUE) ctx.markSensitive(defaultKey + 1);
  if (typeKey === undefined || defaultKey === undefined || !doc.isString(typeKey + 1)) return;
  const parsed = parseTypeExpression(doc.str(typeKey + 1));
  if ("error" in parsed) return;
  const where: (string | number)[] = [];
  const problem = conversionProblem(doc, defaultKey + 1, parsed.type, where);
  if (problem) {
    const inside = where.length ? ` (at ${where.map((w) => (typeof w === "number" ? `[${w}]` : `.${w}`)).join("").replace(/^\./, "")})` : "";
    ctx.error("variable-default", `Invalid default value for variable: This default value is not compatible with the variable's type constraint: ${problem}${inside}.`, defaultKey + 1, addressOf(decl), "default");
  }
}

const localsSeen = new WeakMap<Ctx, Map<string, { file: number; key: number }>>();

/** The local values a module declares, by name. */
export function declaredLocals(ctx: Ctx): ReadonlyMap<string, unknown> {
  return localsSeen.get(ctx) ?? new Map();
}

/** The names of a locals block; its values are checked later (checkDeclaredBodies). */
function declareLocals(ctx: Ctx, body: number): void {
  const doc = ctx.doc;
  let seen = localsSeen.get(ctx);
  if (!seen) localsSeen.set(ctx, (seen = new Map()));
  for (const k of doc.members(body)) {
    const name = doc.str(k);
    if (name === "//") continue;
    const first = seen.get(name);
    // an override file's local value replaces the primary one (overrides.ts checks there is one)
    if (first && !ctx.files[first.file]!.override && !ctx.files[ctx.fileIndex]!.override) {
      const file = ctx.files[first.file]!;
      const p = file.lines.position(file.doc!.start(first.key));
      ctx.error("duplicate-local", `Duplicate local value definition: A local value named ${quote(name)} was already defined at ${file.name}:${p.line},${p.column}. Local value names must be unique within a module.`, k, "locals", name);
    } else seen.set(name, { file: ctx.fileIndex, key: k });
    if (!isName(name)) ctx.error("invalid-name", `Invalid local value name: ${quote(name)} is not a valid name; a name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.`, k, "locals", null);
  }
  ctx.localsBodies.push(ctx.fileIndex, body);
}

function checkLocalValues(ctx: Ctx, body: number): void {
  const doc = ctx.doc;
  for (const k of doc.members(body)) {
    const name = doc.str(k);
    if (name === "//") continue;
    checkExpression(ctx, k + 1, "locals", joinPath("local", name).replace(/^local\./, ""));
  }
}

function checkImport(ctx: Ctx, decl: BlockDecl): void {
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
  }
  const toKey = seen.get("to");
  if (toKey === undefined || !doc.isString(toKey + 1)) return;
  const s = doc.str(toKey + 1);
  const t = hasTemplate(s) ? null : parseTraversal(s, true);
  if (!t) return; // already reported
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
}

function checkCheck(ctx: Ctx, decl: BlockDecl, visitor: BlockVisitor): void {
  const doc = ctx.doc;
  let asserts = 0;
  let datas = 0;
  for (const k of doc.members(decl.body)) {
    const name = doc.str(k);
    if (name === "//") continue;
    if (name === "assert") {
      forEachInstance(ctx, k + 1, "assert", addressOf(decl), "assert", (body) => {
        // an assert whose condition refers to nothing is dropped (and reported by checkBody)
        const conditionKey = checkBody(ctx, body, condition, addressOf(decl), "assert", k).get("condition");
        if (conditionKey === undefined || conditionRefers(ctx, conditionKey)) asserts++;
      });
    } else if (name === "data") {
      walkLabels(ctx, k + 1, "data", 2, [], k, (prefix, last, header, body) => {
        datas++;
        if (datas > 1) {
          ctx.error("duplicate-block", "Multiple data resource blocks: A check block may contain at most one nested data block.", header, addressOf(decl), null);
          return;
        }
        const scoped = newBlockDecl("data", prefix[0]!, last, null, ctx.fileIndex, header, body, `${addressOf(decl)}.data.${prefix[0]}.${last}`, true);
        checkLabel(ctx, scoped, 0, prefix[0]!);
        checkLabel(ctx, scoped, 1, last);
        // one data source, one instance: a scoped data source cannot repeat
        if (ctx.doc.kinds[body] === K_OBJECT) {
          for (const m of ctx.doc.members(body)) {
            const meta = ctx.doc.str(m);
            if (meta === "count" || meta === "for_each") ctx.error("check-data", `Invalid ${quote(meta)} attribute: The "count" and "for_each" meta-arguments are not supported within nested data blocks.`, m, addressOf(scoped), meta);
          }
        }
        visitor.resource(scoped);
      });
    } else {
      unknownName(ctx, name, k, ["assert", "data"], addressOf(decl), name);
    }
  }
  if (asserts === 0) ctx.error("missing-argument", "Zero assert blocks: Check blocks must have at least one assert block.", decl.header, addressOf(decl), null);
}
