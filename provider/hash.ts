// Terraform's package hash ("h1:", golang.org/x/mod/sumdb/dirhash Hash1), which
// `.terraform.lock.hcl` records and every Terraform command re-checks. Computing it here lets
// `schemaform provider install` print the hash users will see in their lock files.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface PackageFile {
  /** Path relative to the package directory, with "/" separators. */
  path: string;
  content: Uint8Array;
}

/** base64(sha256 of the sorted lines "<sha256 hex>  <path>\n"), prefixed with "h1:". */
export function hash1(files: PackageFile[]): string {
  const lines = [...files]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((file) => {
      if (file.path.includes("\n")) throw new Error(`file name with a newline: ${JSON.stringify(file.path)}`);
      return `${createHash("sha256").update(file.content).digest("hex")}  ${file.path}\n`;
    })
    .join("");
  return `h1:${createHash("sha256").update(lines).digest("base64")}`;
}

/** Every file under a directory, as Terraform hashes an unpacked provider package. */
export function packageFiles(directory: string, prefix = ""): PackageFile[] {
  const files: PackageFile[] = [];
  for (const entry of readdirSync(join(directory, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...packageFiles(directory, path));
    else files.push({ path, content: readFileSync(join(directory, path)) });
  }
  return files;
}

export function hashDirectory(directory: string): string {
  return hash1(packageFiles(directory));
}
