// The one explanation of a missing or unloadable better-sqlite3 addon, which the embedded (SQLite)
// platform needs: the same words from `provider install`, the `platform` commands and `import`,
// instead of the `bindings` package's "Could not locate the bindings file. Tried: …" and its
// list of paths.

const REMEDY =
  "Run 'npm rebuild better-sqlite3' in the project that installed schemaform (then 'schemaform provider install' again, for the providers). " +
  "A platform server works without it: providers that set 'endpoint', and 'schemaform platform … --database postgres://…'.";

export class NativeAddonMissing extends Error {
  override readonly name = "NativeAddonMissing";
}

/** Why the embedded platform cannot run: `unloadable` when a build exists but does not load in this node. */
export function nativeAddonMessage(unloadable?: { build?: string; reason: string }): string {
  return unloadable === undefined
    ? `better-sqlite3 is not built in this installation (installed with --ignore-scripts?), so the embedded platform (SQLite) cannot run. ${REMEDY}`
    : `better-sqlite3's build${unloadable.build ? ` ${unloadable.build}` : ""} does not load with Node.js ${process.version} (${process.execPath}): ${unloadable.reason}. The embedded platform (SQLite) needs it. ${REMEDY}`;
}

/** The error of opening a SQLite database said as nativeAddonMessage when the addon is the cause; else undefined. */
export function describeNativeAddonError(error: unknown): NativeAddonMissing | undefined {
  if (!(error instanceof Error)) return undefined;
  const firstLine = error.message.split("\n")[0]!;
  if (firstLine.startsWith("Could not locate the bindings file")) return new NativeAddonMissing(nativeAddonMessage());
  const code = (error as { code?: unknown }).code;
  if (code === "ERR_DLOPEN_FAILED" || /NODE_MODULE_VERSION|compiled against a different Node\.js version|invalid ELF header/.test(firstLine)) {
    return new NativeAddonMissing(nativeAddonMessage({ reason: firstLine }));
  }
  return undefined;
}
