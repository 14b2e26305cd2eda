// OpenTofu's reading of a module, where it differs from Terraform's: which files it reads, and the
// OpenTofu-only constructs that Terraform (whose verdicts schemaform gives) rejects. A module is
// OpenTofu's when the caller says so (`schemaform validate --engine opentofu`) or when it has a
// `*.tofu.json` file. Its OpenTofu-only constructs are not checked: the errors Terraform would
// report for them become warnings saying so.
import type { Diagnostic } from "../syntax/diagnostics.js";
import { CONFIG_FILE } from "./config-files.js";

export type Engine = "terraform" | "opentofu";

/** An OpenTofu-only JSON configuration file (hidden files ignored, as for `*.tf.json`). */
export const TOFU_JSON = /^[^.].*\.tofu\.json$/;

/**
 * The configuration files OpenTofu reads among a directory's `names`: `*.tf`, `*.tf.json` and
 * `*.tofu.json`, where `x.tofu.json` takes the place of `x.tf.json`.
 */
export function openTofuFiles(names: readonly string[]): string[] {
  const tofu = new Set(names.filter((n) => TOFU_JSON.test(n)).map((n) => n.slice(0, -".tofu.json".length)));
  return names.filter((n) => TOFU_JSON.test(n) || (CONFIG_FILE.test(n) && !(n.endsWith(".tf.json") && tofu.has(n.slice(0, -".tf.json".length))))).sort();
}

/** Whether a module of these file names is OpenTofu's by itself (it has a `*.tofu.json`). */
export function isOpenTofuModule(names: readonly string[]): boolean {
  return names.some((n) => TOFU_JSON.test(n.split(/[\\/]/).pop() ?? n));
}

const NOT_CHECKED = "OpenTofu: not checked";

/** What an OpenTofu-only construct is, for a diagnostic Terraform reports against it; undefined for any other. */
function openTofuConstruct(d: Diagnostic): string | undefined {
  const path = d.path ?? "";
  if (d.address === "terraform" && (path === "encryption" || path.startsWith("encryption."))) {
    return "terraform.encryption (state and plan encryption, OpenTofu 1.7+) is OpenTofu's; Terraform rejects it";
  }
  const early = /\$\{\s*(var|local)\./.test(d.message);
  if (early && d.address?.startsWith("module.") && path === "source") {
    return "a module source with variables or locals (early evaluation, OpenTofu 1.8+) is OpenTofu's; Terraform needs a literal";
  }
  if (early && d.address === "terraform" && path.startsWith("backend")) {
    return "backend settings with variables or locals (early evaluation, OpenTofu 1.8+) are OpenTofu's; Terraform needs literals";
  }
  return undefined;
}

/** The diagnostics of an OpenTofu module: Terraform's errors for OpenTofu-only constructs become "not checked" warnings. */
export function forOpenTofu(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d) => {
    const construct = d.severity === "error" ? openTofuConstruct(d) : undefined;
    return construct ? { ...d, severity: "warning", message: `${NOT_CHECKED}: ${construct}.`, code: "opentofu-not-checked" } : d;
  });
}
