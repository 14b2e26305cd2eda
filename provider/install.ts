// Installs the provider executables where `terraform init` finds them offline: a filesystem
// mirror in the unpacked layout (reference §14.1, §14.3)
//
//   <mirror>/registry.terraform.io/schemaform/<name>/<version>/<os>_<arch>/ (Terraform), and the same
//   under <mirror>/registry.opentofu.org/ (OpenTofu's default registry for `schemaform/<name>`)
//       terraform-provider-<name>   the bundled plugin (one file, mode 0755: a `#!/bin/sh` launcher
//                                   that starts `node` from PATH on the same file, which is also
//                                   JavaScript; see LAUNCHER in scripts/bundle-provider.mjs)
//       package.json                {"type":"commonjs"}: the extensionless executable is CommonJS
//                                   even below a package.json that says "module"
//
// Lock files: Terraform records the package's h1: hash and re-checks it on every command, and a
// team shares one lock file, so a version's package holds the same bytes on every machine and
// every install route (a clone, a tarball in an app, any install path): nothing in it depends on
// the machine. The plugin is platform-independent JavaScript, so the same package is installed
// for the common platforms too, and a lock file made with `terraform providers lock -platform=…`
// for all of them works for a teammate on another OS. The one machine-specific part, the
// embedded platform's native addon, is installed outside the mirror (installNativeAddon, and
// provider/native.ts for where and why).
//
// The bundle is deterministic, so reinstalling the same build is a no-op. A different build
// under the same version is refused unless forced (it would break every working directory that
// locked the old bytes). Other versions are left in the mirror, so working directories locked to
// them keep working until `terraform init -upgrade` moves them to the new one.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { hash1, hashDirectory, type PackageFile } from "./hash.js";
import { PROVIDER_NAMES } from "./names.js";
import { NATIVE_ADDON, nativeAddonPath } from "./native.js";

export const HOSTNAME = "registry.terraform.io";
/** Where OpenTofu looks for a short source such as `schemaform/tsdb`. */
export const OPENTOFU_HOSTNAME = "registry.opentofu.org";
/**
 * The registry hostnames the mirror answers for: the same package (same bytes, same h1: hash)
 * under each, so `terraform init` and `tofu init` both find it.
 */
export const HOSTNAMES = [HOSTNAME, OPENTOFU_HOSTNAME] as const;
export const NAMESPACE = "schemaform";
export { PROVIDER_NAMES };

/** Platforms the package is installed for besides this machine's: what teams commonly mix. */
export const COMMON_PLATFORMS = ["darwin_amd64", "darwin_arm64", "linux_amd64", "linux_arm64"] as const;

export interface BuildArtifacts {
  /** The bundled plugin (dist/provider/provider.cjs). */
  bundle: string;
  version: string;
}

export interface InstallOptions extends BuildArtifacts {
  providers: readonly string[];
  /** The mirror's root directory. */
  mirror: string;
  /** Replace an installed package of the same version whose content differs. */
  force?: boolean;
  /** Terraform platforms, e.g. "linux_amd64"; default: COMMON_PLATFORMS and this machine's. */
  platforms?: readonly string[];
}

export interface InstalledPackage {
  name: string;
  /** "registry.terraform.io/schemaform/tsdb" */
  address: string;
  version: string;
  /** Every platform the package is installed for, sorted. */
  platforms: string[];
  /** The package directory for this machine's platform (the first platform when it is not among them). */
  directory: string;
  /** The h1: hash Terraform records in .terraform.lock.hcl: the same for every platform. */
  hash: string;
  /** "installed" when any platform's package was written, "replaced" when any was forced. */
  status: "installed" | "unchanged" | "replaced";
  /** Other versions of this provider already in the mirror (kept). */
  otherVersions: string[];
}

export class InstallConflictError extends Error {
  constructor(readonly packageDirectory: string, readonly installedHash: string, readonly newHash: string) {
    super(
      `${packageDirectory} already holds a different build of the same version (${installedHash}, new build ${newHash}). ` +
        `Replacing it would break every .terraform.lock.hcl that recorded the old hash. ` +
        `Bump the version, or rerun with --force and then run 'terraform init -upgrade' in each working directory that uses it.`,
    );
    this.name = "InstallConflictError";
  }
}

/** Terraform's name for this machine's platform, e.g. linux_amd64, darwin_arm64. */
export function terraformPlatform(platform: string = process.platform, arch: string = process.arch): string {
  const os = platform === "win32" ? "windows" : platform;
  const cpu = ({ x64: "amd64", ia32: "386", arm64: "arm64", arm: "arm" } as Record<string, string>)[arch] ?? arch;
  return `${os}_${cpu}`;
}

/** The platforms installed by default: the common ones and this machine's. */
export function defaultPlatforms(): string[] {
  return [...new Set<string>([...COMMON_PLATFORMS, terraformPlatform()])].sort();
}

/** Terraform's implied local mirror for this user (used when the CLI config has no provider_installation block). */
export function defaultMirror(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === "win32" && env.APPDATA) return join(env.APPDATA, "terraform.d", "plugins");
  return join(env.HOME ?? homedir(), ".terraform.d", "plugins");
}

/**
 * The CLI configuration file Terraform reads when it has a provider_installation block (which
 * turns the implied local mirror off), or undefined.
 */
export function explicitInstallationConfig(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = env.TF_CLI_CONFIG_FILE
    ? [env.TF_CLI_CONFIG_FILE]
    : process.platform === "win32"
      ? [join(env.APPDATA ?? "", "terraform.rc")]
      : [join(env.HOME ?? homedir(), ".terraformrc")];
  return candidates.find((path) => existsSync(path) && /^\s*provider_installation\s*\{/m.test(readFileSync(path, "utf8")));
}

/** The CLI configuration that makes Terraform use `mirror` for schemaform's providers and never ask a registry for them. */
export function cliConfig(mirror: string): string {
  const patterns = HOSTNAMES.map((host) => JSON.stringify(`${host}/${NAMESPACE}/*`)).join(", ");
  return [
    "# Written by `schemaform provider install`. Point TF_CLI_CONFIG_FILE here (Terraform and OpenTofu",
    "# both read it): schemaform's providers come from this mirror under either registry's hostname.",
    "provider_installation {",
    "  filesystem_mirror {",
    `    path    = ${JSON.stringify(resolve(mirror))}`,
    `    include = [${patterns}]`,
    "  }",
    "  direct {",
    `    exclude = [${patterns}]`,
    "  }",
    "}",
    "",
  ].join("\n");
}

/** The files of one provider package, exactly as they will be on disk: nothing but the build and the name. */
export function packageContents(name: string, bundle: string): (PackageFile & { mode: number })[] {
  return [
    { path: `terraform-provider-${name}`, content: readFileSync(bundle), mode: 0o755 },
    { path: "package.json", content: Buffer.from('{"type":"commonjs"}\n'), mode: 0o644 },
  ];
}

/** The h1: hash of each provider's package, by address: what a lock file records for this build. */
export function packageHashes(bundle: string, providers: readonly string[] = PROVIDER_NAMES): Record<string, string> {
  return Object.fromEntries(providers.map((name) => [`${HOSTNAME}/${NAMESPACE}/${name}`, hash1(packageContents(name, bundle))]));
}

export function installProviders(options: InstallOptions): InstalledPackage[] {
  const platforms = [...new Set(options.platforms ?? defaultPlatforms())].sort();
  // Every package is checked before anything is written, so a refusal leaves the mirror as it was.
  const plans = options.providers.map((name) => {
    const providerDirectory = join(resolve(options.mirror), HOSTNAME, NAMESPACE, name);
    const files = packageContents(name, options.bundle);
    const hash = hash1(files);
    // The same package under each registry hostname (Terraform's first: it names `directory`).
    const targets = HOSTNAMES.flatMap((host) =>
      platforms.map((platform) => {
        const directory = join(resolve(options.mirror), host, NAMESPACE, name, options.version, platform);
        const installed = existsSync(directory) ? hashDirectory(directory) : undefined;
        if (installed !== undefined && installed !== hash && !options.force) throw new InstallConflictError(directory, installed, hash);
        return { platform, directory, installed };
      }),
    );
    const otherVersions = existsSync(providerDirectory) ? readdirSync(providerDirectory).filter((v) => v !== options.version).sort() : [];
    return { name, files, hash, targets, otherVersions };
  });

  return plans.map(({ name, files, hash, targets, otherVersions }) => {
    let written = false;
    let replaced = false;
    for (const { directory, installed } of targets) {
      if (installed === hash) {
        // Same bytes: leave the file as it is, but give back an exec bit someone took.
        const executable = join(directory, `terraform-provider-${name}`);
        if ((statSync(executable).mode & 0o777) !== 0o755) chmodSync(executable, 0o755);
        continue;
      }
      writePackage(directory, files);
      written = true;
      replaced ||= installed !== undefined;
    }
    const here = targets.find((t) => t.platform === terraformPlatform()) ?? targets[0]!;
    return {
      name,
      address: `${HOSTNAME}/${NAMESPACE}/${name}`,
      version: options.version,
      platforms: [...new Set(targets.map((t) => t.platform))],
      directory: here.directory,
      hash,
      status: replaced ? ("replaced" as const) : written ? ("installed" as const) : ("unchanged" as const),
      otherVersions,
    };
  });
}

/**
 * Writes a complete package next to the target, then swaps it in, so Terraform never sees a
 * half-written package.
 */
function writePackage(directory: string, files: (PackageFile & { mode: number })[]): void {
  const staging = `${directory}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const file of files) {
    writeFileSync(join(staging, file.path), file.content);
    chmodSync(join(staging, file.path), file.mode);
  }
  if (existsSync(directory)) {
    const old = `${directory}.old-${process.pid}`;
    renameSync(directory, old);
    renameSync(staging, directory);
    rmSync(old, { recursive: true, force: true });
  } else {
    renameSync(staging, directory);
  }
}

/** Writes DIR/terraform.rc for a --dir mirror and returns its path. */
export function writeCliConfig(mirror: string): string {
  const path = join(resolve(mirror), "terraform.rc");
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, cliConfig(mirror));
  return path;
}

export type NativeAddonInstall =
  /** `path` holds a copy of better-sqlite3's build for this node. */
  | { status: "installed" | "unchanged"; path: string; source: string }
  /** better-sqlite3 has no build (installed with --ignore-scripts), or is not installed. */
  | { status: "not-built"; path: string; source?: string }
  /** better-sqlite3's build does not load in this node (built for another one). */
  | { status: "unloadable"; path: string; source: string; reason: string };

/** better-sqlite3's own build of its addon, where its install script puts it (it may be absent). */
export function betterSqlite3Build(): string | undefined {
  try {
    return join(dirname(createRequire(import.meta.url).resolve("better-sqlite3/package.json")), "build", "Release", NATIVE_ADDON);
  } catch {
    return undefined;
  }
}

/**
 * Copies better-sqlite3's build to where the plugin of this node looks (provider/native.ts),
 * after checking that this node loads it. Written to a temporary file and renamed, and skipped
 * when identical, so concurrent installs and running plugins only ever see a whole file.
 */
export function installNativeAddon(source: string | undefined = betterSqlite3Build(), target: string = nativeAddonPath()): NativeAddonInstall {
  if (!source || !existsSync(source)) return { status: "not-built", path: target, source };
  try {
    createRequire(import.meta.url)(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0]! : String(error);
    return { status: "unloadable", path: target, source, reason };
  }
  const bytes = readFileSync(source);
  if (existsSync(target) && readFileSync(target).equals(bytes)) return { status: "unchanged", path: target, source };
  mkdirSync(dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`;
  try {
    writeFileSync(temporary, bytes, { mode: 0o755 });
    renameSync(temporary, target);
  } finally {
    rmSync(temporary, { force: true });
  }
  return { status: "installed", path: target, source };
}

/**
 * Finds the built plugin and the package version, from the compiled module (dist/provider/) or
 * from the sources (provider/, with the build in dist/provider/).
 */
export function locateBuild(): BuildArtifacts {
  const here = dirname(fileURLToPath(import.meta.url));
  const bundle = [join(here, "provider.cjs"), join(here, "..", "dist", "provider", "provider.cjs")].find((path) => existsSync(path));
  if (!bundle) throw new Error("the provider plugin is not built: run 'npm run build' first");
  const packageJson = [join(here, "..", "..", "package.json"), join(here, "..", "package.json")].find(
    (path) => existsSync(path) && (JSON.parse(readFileSync(path, "utf8")) as { name?: string }).name === "schemaform",
  );
  if (!packageJson) throw new Error("cannot find schemaform's package.json");
  const version = (JSON.parse(readFileSync(packageJson, "utf8")) as { version: string }).version;
  return { bundle, version };
}
