// Which files of a directory make a module: Terraform's `*.tf` and `*.tf.json`, and OpenTofu's
// `*.tofu.json` where the module is OpenTofu's (load/opentofu.ts).
import { readdir } from "node:fs/promises";

/** A file of a module, by its name in a directory listing: Terraform ignores names starting with "." (editors' and tools' hidden files). */
export const TF_JSON = /^[^.].*\.tf\.json$/;

/** A configuration file of a module in either syntax: `*.tf` (native) or `*.tf.json`, not hidden. */
export const CONFIG_FILE = /^[^.].*\.tf(?:\.json)?$/;

/** The names of a directory's entries that are not directories (a directory named `x.tf.json/` is no file), sorted. */
export async function fileNamesIn(dir: string): Promise<string[]> {
  return (await readdir(dir, { withFileTypes: true })).filter((e) => !e.isDirectory()).map((e) => e.name).sort();
}

/** The configuration files of a directory, sorted. */
export async function configFilesIn(dir: string): Promise<string[]> {
  return (await fileNamesIn(dir)).filter((n) => CONFIG_FILE.test(n));
}
