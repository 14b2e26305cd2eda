// The terraform block's own rules: required_version against the release whose verdicts we give,
// experiments, and required_providers' local names and source addresses.
import { Ctx, quote } from "./context.js";
import { isVersionConstraint, prereleaseTerms, satisfiesAll } from "./versions.js";
import { forEachTypeKey } from "./block-shapes.js";
import { invalidLocalName } from "./common-errors.js";
import { K_OBJECT } from "../syntax/json-parser.js";

/** The Terraform release whose verdicts schemaform gives (required_version is checked against it). */
const TERRAFORM_VERSION = [1, 11, 4];

/**
 * required_version that 1.11.4 does not satisfy, and experiments (a release build refuses any,
 * even an empty list).
 */
export function checkCoreVersion(ctx: Ctx, seen: ReadonlyMap<string, number>): void {
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
export function checkRequiredProviderNames(ctx: Ctx, body: number): void {
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
