// Where better-sqlite3's native addon is when running as an installed provider. The bundle
// cannot contain a .node file, so scripts/bundle-provider.mjs and `schemaform provider
// install` put `better_sqlite3.node` beside the executable, and the platform passes this path
// as better-sqlite3's `nativeBinding` option. Outside a bundle it returns undefined and
// better-sqlite3 finds its addon in node_modules as usual.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";

export const NATIVE_ADDON = "better_sqlite3.node";

export function nativeBindingPath(): string | undefined {
  // process.argv[1] is the executable Terraform launched (or the bundle node runs).
  const script = process.argv[1];
  if (!script) return undefined;
  const candidate = join(dirname(script), NATIVE_ADDON);
  return existsSync(candidate) ? candidate : undefined;
}

/**
 * Loads the addon now, off the critical path (Node keeps a loaded addon, and better-sqlite3
 * requires it by the same resolved path when the platform opens its database): loading it
 * takes ~10 ms, which the first query of a plan would otherwise wait for. Failures are left
 * for that first query to report.
 */
export function preloadNativeAddon(path: string | undefined = nativeBindingPath()): void {
  if (!path) return;
  try {
    createRequire(import.meta.url)(resolve(path));
  } catch {
    // reported when the platform opens
  }
}
