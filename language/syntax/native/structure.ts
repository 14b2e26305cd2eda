// What Terraform's configuration loader refuses in a native file's block structure before any
// rule reads a value, where the JSON syntax has no such mistake to make: a block with too few or
// too many labels, an argument given for what must be a block (`lifecycle = {…}`), a block where
// only arguments go (`locals { x {…} }`), and a quoted string where a type or a static address is
// required (`type = "string"`, `from = "a.b"`). Each problem carries Terraform 1.11's summary,
// detail and range; the items Terraform drops are returned in `skip` so that lowering leaves them
// out (the rules then see the module as Terraform's loader keeps it).
import { nonConstantProblems } from "./constant-values.js";
import type { NativeAttribute, NativeBlock, NativeBody, NativeFile, NativeItem, NativeSyntaxProblem, Range } from "./parser.js";

export interface NativeStructure {
  problems: NativeSyntaxProblem[];
  /** attributes and blocks Terraform's loader drops */
  skip: Set<NativeItem>;
  override?: boolean;
}

/** A block type as Terraform's own schemas decode it. */
interface BlockRule {
  labels: string[];
  /** nested block types the language decodes (the provider's own are checked by the schema rules) */
  blocks?: Record<string, BlockRule>;
  /** decoded by Terraform's own schema, whose "Unsupported argument" suggests the block */
  suggests?: boolean;
  /** a body of arguments only (locals, required_providers) */
  attributesOnly?: boolean;
  /** arguments that take a type, a static address or a static list (or keyword), not a quoted string */
  statics?: Record<string, "type" | "address" | "list">;
  /** arguments evaluated without variables or functions (constant-values.ts) */
  constants?: string[];
}

const CONDITION: BlockRule = { labels: [] };
const CONNECTION: BlockRule = { labels: [] };
// a quoted "all" is a keyword only in the JSON syntax: native ignore_changes takes `all` or a list
const LIFECYCLE: BlockRule = { labels: [], blocks: { precondition: CONDITION, postcondition: CONDITION }, statics: { ignore_changes: "list" } };
const PROVISIONER: BlockRule = { labels: ["type"], blocks: { connection: CONNECTION } };
const DYNAMIC: BlockRule = { labels: ["type"] };
/** the escape block: in native syntax `_ {…}`, never `_ = {…}` */
const ESCAPE: BlockRule = { labels: [] };
const RESOURCE: BlockRule = { labels: ["type", "name"], blocks: { lifecycle: LIFECYCLE, provisioner: PROVISIONER, connection: CONNECTION, dynamic: DYNAMIC, _: ESCAPE } };
const DATA: BlockRule = { labels: ["type", "name"], blocks: { lifecycle: LIFECYCLE, dynamic: DYNAMIC, _: ESCAPE } };

const ROOT: BlockRule = {
  labels: [],
  suggests: true,
  blocks: {
    resource: RESOURCE,
    data: DATA,
    ephemeral: { labels: ["type", "name"], blocks: { lifecycle: LIFECYCLE, dynamic: DYNAMIC } },
    provider: { labels: ["name"] },
    variable: { labels: ["name"], suggests: true, blocks: { validation: CONDITION }, statics: { type: "type" }, constants: ["default", "description"] },
    output: { labels: ["name"], suggests: true, blocks: { precondition: CONDITION }, constants: ["description"] },
    module: { labels: ["name"] },
    check: { labels: ["name"], suggests: true, blocks: { data: DATA, assert: CONDITION } },
    locals: { labels: [], attributesOnly: true },
    terraform: {
      labels: [],
      suggests: true,
      blocks: {
        required_providers: { labels: [], attributesOnly: true },
        backend: { labels: ["type"] },
        cloud: { labels: [] },
        provider_meta: { labels: ["provider"] },
      },
    },
    moved: { labels: [], suggests: true, statics: { from: "address", to: "address" } },
    import: { labels: [], suggests: true, statics: { to: "address" } },
    removed: { labels: [], suggests: true, blocks: { lifecycle: LIFECYCLE, provisioner: PROVISIONER, connection: CONNECTION }, statics: { from: "address" } },
  },
};

const STATIC_ADDRESS =
  "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.";

/**
 * `override`: the file is an override file, whose resource bodies Terraform merges without
 * reading their unknown arguments (an argument named like a block there is dropped silently).
 */
export function checkNativeStructure(file: NativeFile, override = false): NativeStructure {
  const out: NativeStructure = { problems: [], skip: new Set(), override };
  // nesting is bounded by the rules' own depth (root, block, lifecycle, condition): no deep recursion
  checkBody(file.text, file.body, ROOT, out);
  return out;
}

function checkBody(text: string, body: NativeBody, rule: BlockRule, out: NativeStructure): void {
  const blocks = rule.blocks ?? {};
  for (const item of body.items) {
    if (item.kind === "attribute") {
      checkAttribute(text, item, rule, out);
      continue;
    }
    if (rule.attributesOnly) {
      out.problems.push({ summary: `Unexpected ${JSON.stringify(item.type)} block`, detail: "Blocks are not allowed here.", range: item.typeRange });
      out.skip.add(item);
      continue;
    }
    const nested = Object.hasOwn(blocks, item.type) ? blocks[item.type]! : null;
    if (nested === null) continue;
    if (!labelsFit(item, nested, out)) {
      out.skip.add(item);
      continue;
    }
    checkBody(text, item.body, nested, out);
  }
}

function checkAttribute(text: string, attr: NativeAttribute, rule: BlockRule, out: NativeStructure): void {
  if (rule.blocks && Object.hasOwn(rule.blocks, attr.name)) {
    out.skip.add(attr);
    // a resource body's arguments are the provider schema's, which an override's merge does not ask
    if (out.override && !rule.suggests) return;
    const hint = rule.suggests ? ` Did you mean to define a block of type ${JSON.stringify(attr.name)}?` : "";
    out.problems.push({ summary: "Unsupported argument", detail: `An argument named ${JSON.stringify(attr.name)} is not expected here.${hint}`, range: attr.nameRange });
    return;
  }
  if (rule.constants?.includes(attr.name)) {
    for (const p of nonConstantProblems(text, attr)) out.problems.push(p);
    return;
  }
  const kind = rule.statics && Object.hasOwn(rule.statics, attr.name) ? rule.statics[attr.name] : undefined;
  if (kind === undefined || !isQuoted(attr)) return;
  if (kind === "address") {
    out.problems.push({ summary: "Invalid expression", detail: STATIC_ADDRESS, range: attr.exprRange });
    return;
  }
  if (kind === "list") {
    // dropped, so the JSON syntax's reading of a string does not judge it a second time
    out.skip.add(attr);
    out.problems.push({ summary: "Invalid expression", detail: "A static list expression is required.", range: attr.exprRange });
    return;
  }
  const value = attr.expr.t === "lit" && typeof attr.expr.v === "string" ? attr.expr.v : null;
  // a template that is more than a string (`"${string}"`) is read as a type expression: the type rules say what is wrong
  if (value === null && attr.source.startsWith('"')) return;
  out.problems.push(quotedType(value, attr.exprRange));
}

/** Terraform 0.11's quoted type names get their own words; any other quoted type is a legacy hint. */
function quotedType(value: string | null, range: Range): NativeSyntaxProblem {
  const removed = "Terraform 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of Terraform.";
  if (value === "string") return { summary: "Invalid quoted type constraints", detail: `${removed} Remove the quotes around "string".`, range };
  if (value === "list" || value === "map") {
    return {
      summary: "Invalid quoted type constraints",
      detail: `${removed} Remove the quotes around "${value}" and write ${value}(string) instead to explicitly indicate that the ${value} elements are strings.`,
      range,
    };
  }
  return { summary: "Invalid legacy variable type hint", detail: "To provide a full type expression, remove the surrounding quotes and give the type expression directly.", range };
}

/** A quoted string (a template), where the JSON syntax's strings are the only way to write a static value. */
function isQuoted(attr: NativeAttribute): boolean {
  return attr.source.startsWith('"') || attr.source.startsWith("<<");
}

/** Whether a block has its rule's labels; reports the missing or extraneous one as HCL does. */
function labelsFit(block: NativeBlock, rule: BlockRule, out: NativeStructure): boolean {
  const want = rule.labels;
  const got = block.labels.length;
  if (got > want.length) {
    const detail = want.length === 0 ? `No labels are expected for ${block.type} blocks.` : `Only ${want.length} labels (${want.join(", ")}) are expected for ${block.type} blocks.`;
    out.problems.push({ summary: `Extraneous label for ${block.type}`, detail, range: block.labelRanges[want.length]! });
    return false;
  }
  if (got < want.length) {
    out.problems.push({
      summary: `Missing ${want[got]} for ${block.type}`,
      detail: `All ${block.type} blocks must have ${want.length} labels (${want.join(", ")}).`,
      range: block.openBraceRange,
    });
    return false;
  }
  return true;
}
