// Where the bundled plugin finds better-sqlite3's native addon, which its embedded platform needs.
//
// The plugin's package in the Terraform mirror must hold the same bytes on every machine (the
// lock file's h1: hash is checked on every command, and a lock file is shared by a team), and a
// native addon is built per machine and per Node ABI. So the addon lives outside the package, in
// a place the plugin computes from nothing but its own process: schemaform's per-user data
// directory (platform/config.ts, never SCHEMAFORM_DATA_DIR, which moves the platform's data, not
// the user's software), in a folder keyed by what the addon must match:
//
//   <user data dir>/native/<platform>-<arch>-node<ABI>/better_sqlite3.node
//
// `schemaform provider install` copies better-sqlite3's own build there. A node upgrade (another
// ABI) finds an empty folder and says which node needs an install, instead of crashing on an
// addon built for another node. Outside the bundle (the CLI, tests) better-sqlite3 finds its
// addon in node_modules as usual, and these functions give the platform nothing to load.
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { userDataDir } from "../platform/config.js";

export const NATIVE_ADDON = "better_sqlite3.node";

/** Defined as `true` by scripts/bundle-provider.mjs; undeclared anywhere else. */
declare const __SCHEMAFORM_BUNDLE__: boolean | undefined;
const bundled = typeof __SCHEMAFORM_BUNDLE__ !== "undefined" && __SCHEMAFORM_BUNDLE__ === true;

/** What an addon must have been built for: the OS, the CPU and the Node ABI (`process.versions.modules`). */
export function nativeAddonKey(platform: string = process.platform, arch: string = process.arch, modules: string = process.versions.modules): string {
  return `${platform}-${arch}-node${modules}`;
}

/** The machine-local addon for the node running this process. */
export function nativeAddonPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(userDataDir(env), "native", nativeAddonKey(), NATIVE_ADDON);
}

export class NativeAddonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NativeAddonError";
  }
}

const thisNode = () => `Node.js ${process.version} (${process.platform}-${process.arch}, ABI ${process.versions.modules}, ${process.execPath})`;

/** Loads the addon at `path`, or throws a NativeAddonError that says what to do. */
export function loadNativeAddon(path: string = nativeAddonPath()): object {
  const remedy =
    `Run 'schemaform provider install' with this node (it puts better-sqlite3's build there), ` +
    `or set the provider's endpoint to use a platform server, which needs no addon.`;
  if (!existsSync(path)) {
    throw new NativeAddonError(`The embedded platform needs better-sqlite3's native addon for ${thisNode()} at ${path}, and there is none. ${remedy}`);
  }
  try {
    return createRequire(import.meta.url)(path) as object;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new NativeAddonError(`The embedded platform cannot load ${path} with ${thisNode()}: ${reason}. ${remedy}`);
  }
}

/**
 * The embedded platform's `loadNativeBinding` option: in the bundled plugin, the machine-local
 * addon; elsewhere undefined (better-sqlite3 finds its own).
 */
export function nativeBindingLoader(): (() => object) | undefined {
  return bundled ? () => loadNativeAddon() : undefined;
}

/**
 * Loads the addon now, off the critical path (Node keeps a loaded addon, and the platform
 * requires it by the same path when it opens its database): loading it takes ~10 ms, which the
 * first query of a plan would otherwise wait for. Failures are left for that first query to
 * report.
 */
export function preloadNativeAddon(): void {
  if (!bundled) return;
  try {
    loadNativeAddon();
  } catch {
    // reported when the platform opens
  }
}
