// References to provider configurations (`provider = tsdb.east`, a module's providers map): the
// alias must be declared by a provider block or configuration_aliases, and one of our providers
// must have the type it is given for.
import { Ctx, quote } from "./context.js";
import { type BlockDecl } from "./declarations.js";
import { K_OBJECT, K_ARRAY } from "../syntax/json-parser.js";
import { configurationAliases } from "./required-providers.js";
import { parseTraversal } from "../expr/templates.js";
import { typeKeyOf } from "./block-shapes.js";

/** Our providers' local names, and their types by block kind ("resource.tsdb_vpcs", …). */
export const OUR_PROVIDERS = new Set(["tsdb", "containerbackup"]);

/** The alias a provider reference ("tsdb.east") names when no provider block declares it; null when it is declared or names none. */
export function undeclaredAlias(ctx: Ctx, t: { root: string; steps: readonly { kind: string; name?: string }[] }): string | null {
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
export function providerAddress(name: string, alias: string): string {
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
