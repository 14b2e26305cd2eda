// `schemaform provider install [--dir DIR] [--force]`: puts terraform-provider-tsdb and
// terraform-provider-containerbackup where `terraform init` finds them offline.
import { dirname, resolve } from "node:path";
import { nativeAddonMessage } from "../../platform/native-addon.js";
import {
  NAMESPACE,
  PROVIDER_NAMES,
  defaultMirror,
  explicitInstallationConfig,
  installNativeAddon,
  installProviders,
  locateBuild,
  writeCliConfig,
  type InstalledPackage,
  type NativeAddonInstall,
} from "../../provider/install.js";

const USAGE = `usage: schemaform provider install [--dir DIR] [--force]

Installs the tsdb and containerbackup Terraform providers.

  (no --dir)  into Terraform's implied local mirror (~/.terraform.d/plugins), used when your
              Terraform CLI configuration has no provider_installation block
  --dir DIR   into a filesystem mirror in DIR, and writes DIR/terraform.rc for
              TF_CLI_CONFIG_FILE (Terraform then never asks a registry for schemaform/*)
  --force     replace an installed build of the same version with different content
              (then run 'terraform init -upgrade' where it was locked)

The packages are the same bytes on every machine (one h1: hash per provider and version) and are
installed for linux and darwin on amd64 and arm64, so one lock file serves a whole team. The
embedded platform's native addon (better-sqlite3, built for this node) goes to a per-user
directory outside the mirror.

Configurations then just say: "required_providers": { "tsdb": { "source": "schemaform/tsdb" } }
`;

interface Arguments {
  dir?: string;
  force: boolean;
}

function parse(argv: string[]): Arguments | string {
  const [action, ...rest] = argv;
  if (action !== "install") return action ? `unknown action '${action}'` : "missing action";
  const args: Arguments = { force: false };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === "--force") args.force = true;
    else if (arg === "--dir") {
      const value = rest[++i];
      if (!value) return "--dir needs a directory";
      args.dir = value;
    } else if (arg.startsWith("--dir=")) args.dir = arg.slice("--dir=".length);
    else return `unknown option '${arg}'`;
  }
  return args;
}

function describe(installed: InstalledPackage): string {
  const what = { installed: "installed", unchanged: "already installed (identical)", replaced: "replaced (forced)" }[installed.status];
  const lines = [
    `${installed.address} ${installed.version}: ${what}`,
    `  ${dirname(installed.directory)} (${installed.platforms.join(", ")})`,
    `  ${installed.hash}`,
  ];
  if (installed.otherVersions.length > 0) {
    lines.push(`  kept earlier versions ${installed.otherVersions.join(", ")}; run 'terraform init -upgrade' to move a working directory to ${installed.version}`);
  }
  return lines.join("\n");
}

/** What the embedded platform's addon install did, and what to do when it could not be done. */
function describeNativeAddon(addon: NativeAddonInstall): { out: string; err: string } {
  const node = `Node.js ${process.version} (${process.execPath})`;
  switch (addon.status) {
    case "installed":
    case "unchanged":
      return { out: `Embedded platform addon for ${node}: ${addon.path} (${addon.status === "installed" ? "installed" : "up to date"})\n`, err: "" };
    case "not-built":
      return { out: "", err: `Note: ${nativeAddonMessage()}\n` };
    case "unloadable":
      return { out: "", err: `Note: ${nativeAddonMessage({ build: addon.source, reason: addon.reason })}\n` };
  }
}

/** The configuration snippet and the lock-file step, for the providers just installed. */
function usageNotes(installed: InstalledPackage[], mirror: string): string {
  const names = installed.map((p) => p.name);
  const width = Math.max(...names.map((n) => n.length));
  const platforms = installed[0]!.platforms;
  const quote = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`);
  const lockWith = (binary: string) =>
    [`${binary} providers lock`, quote(`-fs-mirror=${resolve(mirror)}`), ...platforms.map((p) => `-platform=${p}`), ...names.map((n) => `${NAMESPACE}/${n}`)].join(" ");
  const lock = lockWith("terraform");
  return [
    "",
    "In a configuration (HCL):",
    "  terraform {",
    "    required_providers {",
    ...names.map((n) => `      ${n.padEnd(width)} = { source = "${NAMESPACE}/${n}" }`),
    "    }",
    "  }",
    "or HCL-JSON (*.tf.json):",
    `  { "terraform": { "required_providers": { ${names.map((n) => `"${n}": { "source": "${NAMESPACE}/${n}" }`).join(", ")} } } }`,
    "(The CDKTF constructs add this themselves, pinned to this version.)",
    "",
    "Lock file: in each working directory, once (name only the providers it uses), then commit .terraform.lock.hcl:",
    `  ${lock}`,
    "With OpenTofu (which locks them as registry.opentofu.org/schemaform/…, from the same mirror):",
    `  ${lockWith("tofu")}`,
    "The hashes are the same on every machine and platform, so the lock file works for the whole team and CI.",
    "",
  ].join("\n");
}

export async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(USAGE);
    return 0;
  }
  const args = parse(argv);
  if (typeof args === "string") {
    process.stderr.write(`schemaform provider: ${args}\n\n${USAGE}`);
    return 2;
  }
  try {
    const build = locateBuild();
    const mirror = args.dir ?? defaultMirror();
    const installed = installProviders({ ...build, providers: PROVIDER_NAMES, mirror, force: args.force });
    process.stdout.write(`${installed.map(describe).join("\n")}\n`);
    process.stdout.write("The h1: hash is what .terraform.lock.hcl records for these packages.\n");
    const addon = describeNativeAddon(installNativeAddon());
    process.stdout.write(addon.out);
    process.stderr.write(addon.err);
    if (args.dir) {
      const config = writeCliConfig(args.dir);
      process.stdout.write(`Wrote ${config}\nUse it with: export TF_CLI_CONFIG_FILE=${JSON.stringify(config)}\n`);
    } else {
      const explicit = explicitInstallationConfig();
      process.stdout.write(
        explicit
          ? `Note: ${explicit} has a provider_installation block, so Terraform ignores this directory; add a filesystem_mirror for it there, or use --dir.\n`
          : "Terraform finds this directory by itself (no provider_installation block in your CLI configuration).\n",
      );
    }
    process.stdout.write(usageNotes(installed, mirror));
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`schemaform provider install: ${message}\n`);
    return 1;
  }
}
