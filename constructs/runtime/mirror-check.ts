// A synth-time warning when this version of a schemaform provider is not where `terraform init`
// will look: without it, `cdktf deploy` before `schemaform provider install` ended with
// Terraform's registry error ("provider registry registry.terraform.io does not have a provider
// named schemaform/tsdb") and no hint. Terraform looks in the filesystem mirrors of the CLI
// configuration's provider_installation block when there is one (TF_CLI_CONFIG_FILE, else
// ~/.terraformrc), else in its implied local mirror directories.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
/** The mirror directories Terraform would search for providers, as far as a file check can tell. */
export function terraformMirrors(env: NodeJS.ProcessEnv = process.env): string[] {
  const home = env.HOME ?? homedir();
  const config = env.TF_CLI_CONFIG_FILE || (process.platform === "win32" ? join(env.APPDATA ?? "", "terraform.rc") : join(home, ".terraformrc"));
  const text = existsSync(config) ? readFileSync(config, "utf8") : "";
  if (/^\s*provider_installation\s*\{/m.test(text)) {
    return [...text.matchAll(/filesystem_mirror\s*\{[^}]*?path\s*=\s*"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
  }
  if (process.platform === "win32") return [join(env.APPDATA ?? "", "terraform.d", "plugins")];
  return [join(home, ".terraform.d", "plugins"), join(env.XDG_DATA_HOME || join(home, ".local", "share"), "terraform", "plugins")];
}

/**
 * The warning to give when no mirror Terraform searches holds `address` at `version`, else
 * undefined. Given on stderr (which `cdktf synth` and `deploy` show), not as an annotation: those
 * land in the synthesized manifest, and the message names directories of this machine.
 */
export function missingProviderWarning(address: string, version: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const mirrors = terraformMirrors(env);
  if (mirrors.some((mirror) => existsSync(join(mirror, ...address.split("/"), version)))) return undefined;
  return (
    `Warning: ${address} ${version} is not installed where terraform init looks (${mirrors.join(", ") || "no filesystem mirror"}): ` +
    "run `npx schemaform provider install` before `cdktf deploy`, or terraform init will ask the registry, which does not have it.\n"
  );
}
