// The root of a configuration file and its top-level blocks: what each block type is, its labels,
// our providers' type names; then, once every file's declarations are known, the bodies of the
// core blocks, each by the file of its kind.
import { Ctx, quote, joinPath, unchecked } from "./context.js";
import { type BlockVisitor, newBlockDecl, addressOf } from "./declarations.js";
import { K_OBJECT, K_ARRAY } from "../syntax/json-parser.js";
import { TOP_LEVEL, OUTPUT, MODULE_OVERRIDE, MODULE, TERRAFORM, MOVED } from "./body-specs.js";
import { suggest } from "../syntax/suggest.js";
import { walkLabels, forEachTypeKey, checkLabel } from "./block-shapes.js";
import { declareLocals, localDefinition } from "./local-names.js";
import { checkExpression } from "./expression-check.js";
import { invalidLocalName } from "./common-errors.js";
import { checkCheck } from "./check.js";
import { OUR_PROVIDERS } from "./provider-references.js";
import { isBuiltinKey, BUILTIN_PROVIDER } from "../schema/builtin-types.js";
import { checkVariable } from "./variable.js";
import { checkBody, checkRepeatableBody, checkLooseBody } from "./bodies.js";
import { checkModuleSource } from "./module-source.js";
import { checkRequiredProviderNames, checkCoreVersion } from "./terraform-block.js";
import { checkImport } from "./moved-import-removed.js";
import { typeKeys } from "../../generated/registry.js";
import { REMOVED } from "./body-specs.js";

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
    // the block type as the literal it equals: every later `decl.blockType === "resource"` compares
    // two internalized strings, by reference, instead of reading a string sliced from the text
    const blockType = BLOCK_TYPES.get(key) ?? key;
    // decided once per key, not per block
    const isResource = labels === 2 && key !== "action";
    const isEphemeral = key === "ephemeral";
    const visit = isResource ? VISIT_RESOURCE : key === "provider" ? VISIT_PROVIDER : key === "check" ? VISIT_CHECK : VISIT_NONE;
    walkLabels(ctx, k + 1, key, labels, [], k, (prefix, last, header, body) => {
      // resources are many: their decl keeps type and name, and builds labels and address lazily
      const decl = isResource
        ? newBlockDecl(blockType, prefix[0]!, last, null, ctx.fileIndex, header, body, null)
        : newBlockDecl(blockType, labels === 0 ? "" : (prefix[0] ?? last), last, labels === 0 ? [] : [...prefix, last], ctx.fileIndex, header, body, null);
      if (labels > 0) {
        if (prefix.length > 0 && prefix[0] !== lastTypeChecked) {
          lastTypeChecked = prefix[0]!;
          checkLabel(ctx, decl, 0, prefix[0]!);
        }
        checkLabel(ctx, decl, labels - 1, last);
      }
      if (!isResource) ctx.blocks.push(decl);
      if (isEphemeral && !ctx.ephemeralBlocks.has(`${prefix[0]}.${last}`)) ctx.ephemeralBlocks.set(`${prefix[0]}.${last}`, decl);
      switch (visit) {
        case VISIT_RESOURCE:
          visitor.resource(decl);
          break;
        case VISIT_PROVIDER:
          if (last !== last.toLowerCase()) invalidLocalName(ctx, last, header);
          visitor.provider(decl);
          break;
        case VISIT_CHECK:
          // declares the data source scoped to it, which its own asserts refer to
          checkCheck(ctx, decl, visitor);
          break;
      }
    });
  }
}

/** Each top-level block type to itself: the literal, for a string sliced from the text that equals it. */
const BLOCK_TYPES: ReadonlyMap<string, string> = new Map([...TOP_LEVEL.keys()].map((k) => [k, k]));

/** What checkTopLevel does with each block of a key: resource, data and ephemeral blocks and providers go to the visitor. */
const VISIT_NONE = 0;
const VISIT_RESOURCE = 1;
const VISIT_PROVIDER = 2;
const VISIT_CHECK = 3;

/** The last type checkOurType found fine, and its block kind. */
let lastTypeFine = "";

let lastKindFine = "";

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

function suggestedType(type: string, blockType: string): string {
  const candidates = [...OUR_TYPES].filter((k) => k.startsWith(`${blockType}.`)).map((k) => k.slice(blockType.length + 1));
  const lower = type.toLowerCase();
  const hint = candidates.includes(lower) ? lower : suggest(type, candidates);
  return hint ? ` Did you mean ${quote(hint)}?` : "";
}

/**
 * The bodies of the other blocks checkRoot declared (variable, output, module, terraform, moved,
 * removed, import, action) and of the locals blocks, once every file's declarations are known:
 * then each reference in them is resolved as it is found, and none has to be kept until the end
 * (a file of two million templates kept that many references).
 */
export function checkDeclaredBodies(ctx: Ctx): void {
  for (const decl of ctx.blocks) {
    // a context-only file lends its declarations only; an override merged into its base is checked there
    if (ctx.files[decl.file]!.contextOnly || unchecked(ctx, decl)) continue;
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

function checkLocalValues(ctx: Ctx, body: number): void {
  const doc = ctx.doc;
  const overrides = ctx.files.some((f) => f.override);
  for (const k of doc.members(body)) {
    const name = doc.str(k);
    if (name === "//") continue;
    // a value an override file replaced is never evaluated
    if (overrides && localDefinition(ctx, name)?.file !== ctx.fileIndex && !ctx.files[ctx.fileIndex]!.override) continue;
    checkExpression(ctx, k + 1, "locals", joinPath("local", name).replace(/^local\./, ""));
  }
}
