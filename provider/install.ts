// Installs the provider executables where `terraform init` finds them offline: a filesystem
// mirror in the unpacked layout (reference §14.1, §14.3)
//
//   <mirror>/registry.terraform.io/schemaform/<name>/<version>/<os>_<arch>/
//       terraform-provider-<name>   the bundled plugin (one file, mode 0755: a `#!/bin/sh` launcher
//                                   that starts `node` from PATH on the same file, which is also
//                                   JavaScript; see LAUNCHER in scripts/bundle-provider.mjs)
//       better_sqlite3.node         the embedded platform's native addon (provider/native.ts)
//       package.json                {"type":"commonjs"}: the extensionless executable is CommonJS
//                                   even below a package.json that says "module"
//
// Lock files: Terraform records the package's h1: hash and re-checks it on every command, so
// the installed bytes of a version must never change. The bundle is deterministic, so
// reinstalling the same build is a no-op. A different build under the same version is refused
// unless forced (it would break every working directory that locked the old bytes). Other
// versions are left in the mirror, so working directories locked to them keep working until
// `terraform init -upgrade` moves them to the new one.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { hash1, hashDirectory, type PackageFile } from "./hash.js";
import { PROVIDER_NAMES } from "./names.js";
import { NATIVE_ADDON } from "./native.js";

export const HOSTNAME = "registry.terraform.io";
export const NAMESPACE = "schemaform";
export { PROVIDER_NAMES };

export interface BuildArtifacts {
  /** The bundled plugin (dist/provider/provider.cjs). */
  bundle: string;
  /** better-sqlite3's addon beside the bundle, when present. */
  nativeAddon?: string;
  version: string;
}

export interface InstallOptions extends BuildArtifacts {
  providers: readonly string[];
  /** The mirror's root directory. */
  mirror: string;
  /** Replace an installed package of the same version whose content differs. */
  force?: boolean;
  /** Terraform platform, e.g. "linux_amd64"; defaults to this machine's. */
  platform?: string;
}

export interface InstalledPackage {
  name: string;
  /** "registry.terraform.io/schemaform/tsdb" */
  address: string;
  version: string;
  platform: string;
  directory: string;
  /** The h1: hash Terraform records in .terraform.lock.hcl. */
  hash: string;
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
  const pattern = `${HOSTNAME}/${NAMESPACE}/*`;
  return [
    "# Written by `schemaform provider install`. Point TF_CLI_CONFIG_FILE here.",
    "provider_installation {",
    "  filesystem_mirror {",
    `    path    = ${JSON.stringify(resolve(mirror))}`,
    `    include = [${JSON.stringify(pattern)}]`,
    "  }",
    "  direct {",
    `    exclude = [${JSON.stringify(pattern)}]`,
    "  }",
    "}",
    "",
  ].join("\n");
}

/** The files of one provider package, exactly as they will be on disk. */
export function packageContents(name: string, artifacts: BuildArtifacts): (PackageFile & { mode: number })[] {
  const files = [
    { path: `terraform-provider-${name}`, content: readFileSync(artifacts.bundle), mode: 0o755 },
    { path: "package.json", content: Buffer.from('{"type":"commonjs"}\n'), mode: 0o644 },
  ];
  if (artifacts.nativeAddon) files.push({ path: NATIVE_ADDON, content: readFileSync(artifacts.nativeAddon), mode: 0o644 });
  return files;
}

export function installProviders(options: InstallOptions): InstalledPackage[] {
  const platform = options.platform ?? terraformPlatform();
  return options.providers.map((name) => {
    const address = `${HOSTNAME}/${NAMESPACE}/${name}`;
    const providerDirectory = join(resolve(options.mirror), HOSTNAME, NAMESPACE, name);
    const directory = join(providerDirectory, options.version, platform);
    const files = packageContents(name, options);
    const hash = hash1(files);
    const otherVersions = existsSync(providerDirectory) ? readdirSync(providerDirectory).filter((v) => v !== options.version).sort() : [];
    const result = { name, address, version: options.version, platform, directory, hash, otherVersions };

    if (existsSync(directory)) {
      const installed = hashDirectory(directory);
      if (installed === hash) {
        // Same bytes: nothing to do (keep the exec bit right in case someone changed it).
        chmodSync(join(directory, `terraform-provider-${name}`), 0o755);
        return { ...result, status: "unchanged" as const };
      }
      if (!options.force) throw new InstallConflictError(directory, installed, hash);
    }
    // Write a complete package next to the target, then swap it in, so Terraform never sees
    // a half-written package.
    const staging = `${directory}.staging-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    for (const file of files) {
      writeFileSync(join(staging, file.path), file.content);
      chmodSync(join(staging, file.path), file.mode);
    }
    const replacing = existsSync(directory);
    if (replacing) {
      const old = `${directory}.old-${process.pid}`;
      renameSync(directory, old);
      renameSync(staging, directory);
      rmSync(old, { recursive: true, force: true });
    } else {
      renameSync(staging, directory);
    }
    return { ...result, status: replacing ? ("replaced" as const) : ("installed" as const) };
  });
}

/** Writes DIR/terraform.rc for a --dir mirror and returns its path. */
export function writeCliConfig(mirror: string): string {
  const path = join(resolve(mirror), "terraform.rc");
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, cliConfig(mirror));
  return path;
}

/** better-sqlite3's own build of its addon: the package ships no second copy of it. */
export function installedNativeAddon(): string | undefined {
  const path = join(dirname(createRequire(import.meta.url).resolve("better-sqlite3/package.json")), "build", "Release", NATIVE_ADDON);
  return existsSync(path) ? path : undefined;
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
  return { bundle, version, nativeAddon: installedNativeAddon() };
}
