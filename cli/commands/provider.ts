// `schemaform provider install [--dir DIR] [--force]`: puts terraform-provider-tsdb and
// terraform-provider-containerbackup where `terraform init` finds them offline.
import {
  PROVIDER_NAMES,
  defaultMirror,
  explicitInstallationConfig,
  installProviders,
  locateBuild,
  writeCliConfig,
  type InstalledPackage,
} from "../../provider/install.js";

const USAGE = `usage: schemaform provider install [--dir DIR] [--force]

Installs the tsdb and containerbackup Terraform providers.

  (no --dir)  into Terraform's implied local mirror (~/.terraform.d/plugins), used when your
              Terraform CLI configuration has no provider_installation block
  --dir DIR   into a filesystem mirror in DIR, and writes DIR/terraform.rc for
              TF_CLI_CONFIG_FILE (Terraform then never asks a registry for schemaform/*)
  --force     replace an installed build of the same version with different content
              (then run 'terraform init -upgrade' where it was locked)

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
  const lines = [`${installed.address} ${installed.version} (${installed.platform}): ${what}`, `  ${installed.directory}`, `  ${installed.hash}`];
  if (installed.otherVersions.length > 0) {
    lines.push(`  kept earlier versions ${installed.otherVersions.join(", ")}; run 'terraform init -upgrade' to move a working directory to ${installed.version}`);
  }
  return lines.join("\n");
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
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`schemaform provider install: ${message}\n`);
    return 1;
  }
}
