// `schemaform import`: generate import blocks and configuration for existing resources.
//   schemaform import TYPE ID [TYPE ID...] [--from FILE] [--discover] [--location LOCATION]...
//                     [--project PROJECT] [--endpoint URL] [-o FILE] [--format hcl-json|hcl|cdktf]
// The work is done by the library (cli/import/); this file parses arguments, opens the platform
// client and writes the result (atomically: nothing is written when anything fails).

import { readFile, rename, writeFile, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { PlatformClient, PlatformCredentials } from "../../platform/client.js";
import { IMPORT_TYPES, cdktfAppLines, ImportError, acceptedFormats, generateImport, type ImportRequest, type OutputFormat } from "../import/index.js";

const CREDENTIALS_HELP = `Credentials (only with an endpoint, as for the providers): TSDB_ACCESS_TOKEN, or
TSDB_ACCESS_KEY and TSDB_SECRET_KEY, for tsdb resources; CONTAINERBACKUP_ACCESS_TOKEN for restore
channels. Create them with 'schemaform platform credentials create --project ID'.`;

const USAGE = `usage: schemaform import TYPE ID [TYPE ID...] [options]
       schemaform import --from FILE [options]
       schemaform import --discover [--location LOCATION]... [options]

Reads existing resources from the platform and writes configuration that adopts them: one
import block and one resource block per resource, references between them, and sensitive
variables for secrets the platform never returns.

options:
  --from FILE          read TYPE ID pairs from FILE, one per line ('#' starts a comment; '-' is stdin)
  --discover           import everything in the configured project: services, VPCs and their
                       peering connections, exporters, connectors, and restore channels
  --location LOCATION  restore channel location to discover (repeatable; default: all locations)
  --project PROJECT    project of both providers (default: TSDB_PROJECT_ID, CONTAINERBACKUP_PROJECT)
  --endpoint URL       platform server of both providers (default: TSDB_ENDPOINT,
                       CONTAINERBACKUP_ENDPOINT; unset: the embedded platform)
  -o, --output FILE    write to FILE instead of standard output
  --format FORMAT      hcl-json (*.tf.json, the default), hcl (native HCL, *.tf; the default
                       when the output file ends in .tf) or cdktf (a TypeScript module exporting
                       the CDKTF stack class ImportedStack, for your app's main.ts to add; the
                       default when the output file ends in .ts)
  --stack-name NAME    cdktf: the stack's name in the line that adds it to the app (default: imported)
  --manage-secrets     manage secrets the platform never returns (passwords, keys, connection
                       strings) from the configuration at once: no lifecycle.ignore_changes for
                       them, so the first plan updates each one in place to its variable's value
  -h, --help           show this help

Settings that come from the environment are left out of the provider blocks.

${CREDENTIALS_HELP}

types and their import identifiers:
${IMPORT_TYPES.map((t) => `  ${t.padEnd(32)} ${acceptedFormats(t).join("  |  ")}`).join("\n")}
`;

interface Args {
  requests: ImportRequest[];
  from: string[];
  discover: boolean;
  locations: string[];
  project?: string;
  endpoint?: string;
  output?: string;
  format?: OutputFormat;
  stackName?: string;
  manageSecrets: boolean;
  help: boolean;
}

class UsageError extends Error {}

function parseArgs(argv: string[]): Args {
  const args: Args = { requests: [], from: [], discover: false, locations: [], manageSecrets: false, help: false };
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string => {
      if (eq > 0) return arg.slice(eq + 1);
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case "-h":
      case "--help":
        args.help = true;
        break;
      case "--discover":
        args.discover = true;
        break;
      case "--manage-secrets":
        args.manageSecrets = true;
        break;
      case "--from":
        args.from.push(value());
        break;
      case "--location":
        args.locations.push(value());
        break;
      case "--project":
        args.project = value();
        break;
      case "--endpoint":
        args.endpoint = value();
        break;
      case "-o":
      case "--output":
        args.output = value();
        break;
      case "--format": {
        const format = value();
        if (format !== "hcl-json" && format !== "hcl" && format !== "cdktf") throw new UsageError(`--format must be hcl-json, hcl or cdktf, got '${format}'`);
        args.format = format;
        break;
      }
      case "--stack-name":
        args.stackName = value();
        break;
      case "--":
        positional.push(...argv.slice(i + 1));
        i = argv.length;
        break;
      default:
        if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown option '${arg}'`);
        positional.push(arg);
    }
  }
  if (positional.length % 2 !== 0) {
    throw new UsageError(`arguments come in TYPE ID pairs; '${positional[positional.length - 1]}' has no ID`);
  }
  for (let i = 0; i < positional.length; i += 2) {
    args.requests.push({ type: positional[i]!, id: positional[i + 1]!, origin: `argument ${i + 1}` });
  }
  return args;
}

/** `TYPE ID` lines; blank lines and comments (`#` at the start or after a space) are skipped. */
export function parseImportList(text: string, name: string): { requests: ImportRequest[]; problems: string[] } {
  const requests: ImportRequest[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/(^|\s)#.*$/, "").trim();
    if (line === "") return;
    const fields = line.split(/\s+/);
    const origin = `${name}:${index + 1}`;
    if (fields.length !== 2) {
      problems.push(`${origin}: expected 'TYPE ID', got ${fields.length === 1 ? "only one field" : `${fields.length} fields`}`);
      return;
    }
    requests.push({ type: fields[0]!, id: fields[1]!, origin });
  });
  return { requests, problems };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Credentials of a provider from its environment variables (server mode only). */
function credentialsFromEnv(env: NodeJS.ProcessEnv, provider: "tsdb" | "containerbackup"): PlatformCredentials | undefined {
  const token = provider === "tsdb" ? env.TSDB_ACCESS_TOKEN : env.CONTAINERBACKUP_ACCESS_TOKEN;
  if (token) return { accessToken: token };
  if (provider === "tsdb" && env.TSDB_ACCESS_KEY && env.TSDB_SECRET_KEY) return { accessKey: env.TSDB_ACCESS_KEY, secretKey: env.TSDB_SECRET_KEY };
  return undefined;
}

/** Opens the platform the provider would use: `endpoint` (a server) or the embedded one. */
async function open(endpoint: string | undefined, env: NodeJS.ProcessEnv, provider: "tsdb" | "containerbackup"): Promise<PlatformClient> {
  // Loaded only when needed: `--help` and argument errors never load the platform.
  const { openPlatform } = await import("../../platform/client.js");
  return openPlatform(endpoint ? { endpoint, credentials: credentialsFromEnv(env, provider) } : {});
}

/** The format a file name asks for: `.ts` a CDKTF stack, `.tf` native HCL, anything else HCL-JSON. */
function formatOfFileName(name: string | undefined): OutputFormat {
  if (name?.endsWith(".ts")) return "cdktf";
  if (name?.endsWith(".tf")) return "hcl";
  return "hcl-json";
}

/** Writes next to the target, then renames: the file is either complete or untouched. */
async function writeAtomically(path: string, content: string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    await writeFile(temp, content, { mode: 0o644 });
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

export async function run(argv: string[]): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`schemaform import: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return 0;
  }

  const problems: string[] = [];
  const requests = [...args.requests];
  for (const file of args.from) {
    let text: string;
    try {
      text = file === "-" ? await readStdin() : await readFile(file, "utf8");
    } catch (error) {
      problems.push(`--from ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`);
      continue;
    }
    const parsed = parseImportList(text, file === "-" ? "<stdin>" : file);
    requests.push(...parsed.requests);
    problems.push(...parsed.problems);
  }
  if (problems.length > 0) {
    process.stderr.write(`schemaform import: ${new ImportError(problems).message}\n`);
    return 1;
  }
  if (requests.length === 0 && !args.discover) {
    process.stderr.write(`schemaform import: nothing to import: give TYPE ID pairs, --from FILE, or --discover\n\n${USAGE}`);
    return 2;
  }

  const format: OutputFormat = args.format ?? formatOfFileName(args.output);
  const env = process.env;
  const tsdbEndpoint = args.endpoint ?? (env.TSDB_ENDPOINT || undefined);
  const cbEndpoint = args.endpoint ?? (env.CONTAINERBACKUP_ENDPOINT || undefined);
  const client = await open(tsdbEndpoint, env, "tsdb");
  const containerbackupClient = cbEndpoint !== tsdbEndpoint ? await open(cbEndpoint, env, "containerbackup") : undefined;
  try {
    const result = await generateImport({
      client,
      containerbackupClient,
      requests,
      discover: args.discover,
      locations: args.locations,
      project: args.project,
      endpoint: args.endpoint,
      env,
      format,
      fileName: args.output,
      stackName: args.stackName,
      manageSecrets: args.manageSecrets,
    });
    if (args.discover && requests.length === 0 && result.resources.length === 0) {
      const project = args.project ?? ([env.TSDB_PROJECT_ID, env.CONTAINERBACKUP_PROJECT].filter(Boolean).join(" / ") || "the configured project");
      process.stderr.write(`schemaform import: --discover found nothing in project ${project}: check the project name (and --location for restore channels); nothing was written\n`);
      return 1;
    }
    const file = result.files[0]!;
    if (args.output) await writeAtomically(args.output, file.content);
    else process.stdout.write(file.content);

    const summary: string[] = [];
    summary.push(`${result.resources.length} resource${result.resources.length === 1 ? "" : "s"} to import${args.output ? ` written to ${args.output}` : ""}`);
    for (const r of result.resources) summary.push(`  ${r.address}  (id ${r.importId})`);
    if (result.variables.length > 0) {
      summary.push(`${result.variables.length} sensitive variable${result.variables.length === 1 ? "" : "s"} to set (TF_VAR_<name> or a .tfvars file):`);
      for (const v of result.variables) summary.push(`  ${v.name}: ${v.address} ${v.attribute}`);
      const ignored = result.resources.filter((r) => r.ignoreChanges.length > 0);
      if (ignored.length > 0) {
        summary.push(
          `secrets the platform never returns are in lifecycle.ignore_changes of ${ignored.map((r) => r.address).join(", ")}: importing changes nothing; remove an entry (or use --manage-secrets) to manage that secret from the configuration`,
        );
      }
    }
    for (const w of result.warnings) summary.push(`note: ${w}`);
    if (format === "cdktf") {
      summary.push("the file exports the stack class ImportedStack and makes no app; add it to your app's main.ts, before app.synth():");
      for (const line of cdktfAppLines(args.output, args.stackName)) summary.push(`  ${line}`);
    }
    process.stderr.write(`${summary.join("\n")}\n`);
    return 0;
  } catch (error) {
    if (error instanceof ImportError) {
      process.stderr.write(`schemaform import: ${error.message}\n`);
      return 1;
    }
    if (error instanceof Error && error.name === "PlatformError") {
      if ((error as { code?: string }).code === "unauthenticated") {
        // no credentials in the environment: nothing was refused, nothing was sent
        const missing = [
          tsdbEndpoint && !credentialsFromEnv(env, "tsdb") ? "TSDB_ACCESS_TOKEN (or TSDB_ACCESS_KEY and TSDB_SECRET_KEY)" : undefined,
          cbEndpoint && !credentialsFromEnv(env, "containerbackup") ? "CONTAINERBACKUP_ACCESS_TOKEN" : undefined,
        ].filter((name) => name !== undefined);
        process.stderr.write(
          missing.length === 0
            ? `schemaform import: the platform server refused the credentials.\n${CREDENTIALS_HELP}\n`
            : `schemaform import: the platform server needs credentials and none were given: ${missing.join(" and ")} ${missing.length === 1 ? "is" : "are"} not set.\n${CREDENTIALS_HELP}\n`,
        );
        return 1;
      }
      // Platform messages never contain secrets (ARCHITECTURE §4).
      process.stderr.write(`schemaform import: cannot read from the platform: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await client.close();
    if (containerbackupClient) await containerbackupClient.close();
  }
}
