// An expression in a body: its templates parse and evaluate, object keys are not repeated, and
// each reference is sorted by what it names (self, each/count, var/local/module, fixed objects,
// ephemeral resources, resources and data sources) and handed on to be resolved.
import { nfc } from "../expr/known.js";
import { Ctx, quote, joinPath, repetitionOf, type FoundReference } from "./context.js";
import { K_OBJECT, K_ARRAY, K_NULL, K_STRING, rawOffset } from "../syntax/json-parser.js";
import { where } from "./common-errors.js";
import { hasTemplate, analyzeTemplate } from "../expr/templates.js";
import { type BlockDecl } from "./declarations.js";
import { evaluationError } from "./known-values.js";
import { parseTemplate } from "../expr/template-parser.js";
import { scope, REPETITION_WORDING } from "./scope.js";
import { builtinType } from "../schema/builtin-types.js";
import { suggest } from "../syntax/suggest.js";
import { fastOutsideReference } from "../schema/reference-fast-paths.js";

export const LITERAL_WORDS = new Set(["true", "false", "null"]);

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
        const first = keys.get(nfc(key));
        if (first !== undefined) {
          ctx.errorAtProperty("duplicate-object-attribute", `Duplicate object attribute: An attribute named ${quote(key)} was already defined at ${where(ctx, first)}.`, k, address, joinPath(path, key));
        } else keys.set(nfc(key), k);
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
export function checkString(ctx: Ctx, node: number, address: string | null, path: string | null, from?: BlockDecl, attribute?: string, expects?: import("../schema/model-types.js").CtyType): void {
  const s = ctx.doc.str(node);
  if (!hasTemplate(s)) return;
  // "${TYPE.NAME.ATTR}" of our types where no argument's rule applies (an output, a local value): judged from the text
  if (from === undefined && scope.iterators.length === 0 && fastOutsideReference(ctx, node, s, address, path)) return;
  const info = analyzeTemplate(s);
  // an operation on local values of the wrong type, or a file that is not there, fails when validate
  // evaluates it with the module's values and files (known-values.ts)
  const evaluation = info.problem === null && (s.includes("local.") || (ctx.moduleFiles !== null && s.includes("file("))) ? evaluationError(ctx, info) : null;
  let problem = info.problem ?? (evaluation && { summary: evaluation.summary, detail: evaluation.detail, offset: 0 });
  // a check block's assertions are evaluated at plan (as warnings), not by validate: a failure
  // to evaluate one is no error here (a syntax error or an unknown function still is)
  if (problem && address !== null && address.startsWith("check.") && path !== null && path.startsWith("assert") && parseTemplate(s).ok) problem = null;
  if (problem) {
    const doc = ctx.doc;
    // Terraform's columns in a JSON string count the decoded value's characters; a native
    // expression lowered into one maps through its escapes back to the .tf text
    const body = doc.start(node) + 1;
    const start = doc.kinds[node] === K_STRING || ctx.files[ctx.fileIndex]!.native === undefined ? body + problem.offset : rawOffset(doc.text, body, problem.offset);
    ctx.report("error", "template-syntax", `${problem.summary}: ${problem.detail}`, start, start + 1, address, path);
    return;
  }
  for (const ref of info.references) {
    if (ref.root === "self") {
      if (!scope.selfAllowed) {
        const found = { file: ctx.fileIndex, node, ref, whole: info.whole === ref, address, path };
        ctx.errorAtReference(found, "invalid-reference", 'Invalid "self" reference: The "self" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.');
        // conditions are evaluated once more without self in scope: that pass adds its own error
        if (scope.inCondition) ctx.errorAtReference(found, "invalid-reference", 'Unknown variable: There is no variable named "self".');
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
    if (scope.iterators.includes(ref.root)) {
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
    // anything else names a resource (or a data source): resolved once every block is declared;
    // a bare name ("${upper(bar)}") is a resource type without a name, which Terraform refuses
    if (!isOurs(ref.root, ref.steps) && LITERAL_WORDS.has(ref.root)) continue;
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

function isOurs(root: string, steps: { kind: string; name?: string }[]): boolean {
  if (root.startsWith("tsdb_") || root.startsWith("containerbackup_")) return true;
  if (root === "data") {
    const first = steps[0];
    return first?.kind === "attr" && (first.name!.startsWith("tsdb_") || first.name!.startsWith("containerbackup_"));
  }
  return false;
}

/** What Terraform says of an object used whole, without an attribute ("${var}", "${data}", "${tsdb_vpcs}"). */
const WHOLE_OBJECT_WORDING: Record<string, string> = Object.fromEntries([
  ...["var", "local", "module", "count", "each", "path", "terraform"].map((root) => [root, `Invalid reference: The ${quote(root)} object cannot be accessed directly. Instead, access one of its attributes.`]),
  ["data", 'Invalid reference: The "data" object must be followed by two attribute names: the data source type and the resource name.'],
  ["ephemeral", 'Invalid reference: The "ephemeral" object must be followed by two attribute names: the ephemeral resource type and the resource name.'],
]);

/** A reference to an ephemeral resource: declared, and (for our types) naming one of its attributes; an edge of the dependency graph. */
function checkEphemeralReference(ctx: Ctx, found: FoundReference): void {
  const [type, name, ...rest] = found.ref.steps;
  if (type?.kind !== "attr" || name?.kind !== "attr") {
    ctx.errorAtReference(found, "invalid-reference", WHOLE_OBJECT_WORDING.ephemeral!);
    return;
  }
  const decl = ctx.ephemeralBlocks.get(`${type.name}.${name.name}`);
  if (!decl) {
    ctx.errorAtReference(found, "undeclared-reference", `Reference to undeclared resource: An ephemeral resource ${quote(type.name)} ${quote(name.name)} has not been declared in the root module.`);
    return;
  }
  ctx.dependencies?.add(ctx, found);
  // an instance key comes before the attribute exactly when the block sets count or for_each
  const shown = `ephemeral.${type.name}.${name.name}`;
  const repetition = repetitionOf(ctx, decl);
  if (repetition !== null && rest[0]?.kind === "attr") {
    ctx.errorAtReference(found, "instance-key", `Missing resource instance key: Because ${shown} has ${quote(repetition)} set, its attributes must be accessed on specific instances, e.g. ${shown}[${repetition === "count" ? "count.index" : "each.key"}].`);
    return;
  }
  if (repetition === null && rest[0]?.kind === "index" && rest[0].key !== null) {
    ctx.errorAtReference(found, "instance-key", `Unexpected resource instance key: Because ${shown} does not have "count" or "for_each" set, references to it must not include an index key.`);
    return;
  }
  const attribute = rest[0]?.kind === "attr" ? rest[0] : rest[0]?.kind === "index" && rest[1]?.kind === "attr" ? rest[1] : undefined;
  const model = decl.model?.block;
  if (attribute && model && !Object.prototype.hasOwnProperty.call(model.attributes, attribute.name) && !Object.prototype.hasOwnProperty.call(model.blocks, attribute.name)) {
    const hint = suggest(attribute.name, [...Object.keys(model.attributes), ...Object.keys(model.blocks)]);
    ctx.errorAtReference(found, "unsupported-attribute", `Unsupported attribute: This object has no argument, nested block, or exported attribute named ${quote(attribute.name)}.${hint ? ` Did you mean "${hint}"?` : ""}`);
  }
}
