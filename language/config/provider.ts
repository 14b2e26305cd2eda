// provider blocks: alias and version, and for our providers the configuration converted and
// validated like a resource body, but only when something uses the configuration (Terraform prunes
// an unused one from its graph and neither decodes nor evaluates it).
import { quote, type Ctx } from "./context.js";
import { K_NUMBER, K_OBJECT } from "../syntax/json-parser.js";
import { childOf } from "./module-calls.js";
import { addressOf, type BlockDecl } from "./declarations.js";
import { providersUsedBy } from "./module-summary.js";
import { convertMember } from "../schema/convert.js";
import { duplicateArgument } from "./common-errors.js";
import { checkAttribute } from "./arguments.js";
import { isVersionConstraint } from "./versions.js";
import { isName } from "./block-shapes.js";
import { checkLooseMember, hasMember } from "./resource.js";
import { validateCanonical } from "../schema/canonical-issues.js";
import { type TypeSource, type ConvertState, resetState, newAccumulator } from "../schema/convert-state.js";

const PROVIDER_META = ["alias", "version"];
/** arguments Terraform keeps for itself in provider blocks */
const RESERVED = new Set(["count", "depends_on", "for_each", "source"]);

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
    if (name === "lifecycle" && ctx.files[decl.file]!.blockKeys?.has(doc.start(k))) {
      ctx.error("reserved-name", `Reserved block type name in provider block: The block type name "lifecycle" is reserved for use by Terraform in a future version.`, k, address, name);
      continue;
    }
    if (RESERVED.has(name)) {
      // Terraform's loader refuses these in any provider block, used or not
      ctx.error("reserved-name", `Reserved argument name in provider block: The provider argument name ${quote(name)} is reserved for use by Terraform in a future version.`, k, address, name);
      continue;
    }
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
        // still read as a constraint when the configuration is loaded, used or not
        if (doc.isString(k + 1) && !isVersionConstraint(doc.str(k + 1))) ctx.error("version-constraint", "Invalid version constraint: This string does not use correct version constraint syntax.", k + 1, address, "version");
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
