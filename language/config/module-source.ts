// A module block's source and version: a literal address Terraform can install, `./` for local
// paths, and no version beside a local path.
import { Ctx, quote } from "./context.js";
import { hasTemplate } from "../expr/templates.js";
import { K_NULL } from "../syntax/json-parser.js";

/** A module's source is a literal address; `version` applies to registry modules only, never beside a local path. */
export function checkModuleSource(ctx: Ctx, seen: ReadonlyMap<string, number>, address: string): void {
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
    ctx.error("module-source", `Invalid module source address: ${bareRelativePathDetail(path)}`, source + 1, address, "source");
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
export function looksLikeBareRelativePath(path: string): boolean {
  if (path === "" || path.startsWith(".") || path.startsWith("/") || /[:@?]/.test(path)) return false;
  const parts = path.split("/");
  return parts.length <= 2 && !parts[0]!.includes(".") && parts.every((p) => /^[A-Za-z0-9_-]+$/.test(p));
}

/** Terraform's words for a source that looksLikeBareRelativePath. */
export function bareRelativePathDetail(path: string): string {
  return `Terraform failed to determine your intended installation method for remote module package ${quote(path)}. If you intended this as a path relative to the current module, use ${quote(`./${path}`)} instead. The "./" prefix indicates that the address is a relative filesystem path.`;
}
