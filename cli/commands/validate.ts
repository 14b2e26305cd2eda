// `schemaform validate [PATH...]`: checks a module's *.tf and *.tf.json files against Terraform's
// language rules and our providers' schemas, without Terraform, and reports every problem at once.
import { readFileSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { configFilesIn, decodeUtf8, formatHuman, formatJson, formatSarif, groupModules, validateModule, type Diagnostic, type ModuleFile, type ModuleResult } from "../../language/index.js";
import { TOFU_JSON, forOpenTofu, isOpenTofuModule, type Engine } from "../../language/load/opentofu.js";

const HELP = `usage: schemaform validate [options] [PATH...]

Checks Terraform configuration, native (*.tf, *_override.tf) and JSON (*.tf.json), against the
Terraform language's rules and the schemas of the tsdb and containerbackup providers, without
Terraform and without network. Both syntaxes may be mixed in one module, as Terraform reads them.

  PATH                 a file, or a directory meaning its *.tf and *.tf.json files read together
                       as one module, and its test files (*.tftest.hcl there and in tests/)
                       (default: the current directory); "-" reads standard input
                       (as JSON, native when --stdin-filename ends in .tf, a test file
                       when it ends in .tftest.hcl)
  --format FORMAT      human (default), json (an array of diagnostics) or sarif (SARIF 2.1.0)
  --max-warnings N     fail when there are more than N warnings (default: warnings never fail)
  --stdin-filename F   the name to show for standard input (default: <stdin>)
  --color, --no-color  force or disable colours in human output (default: when a terminal)
  --engine ENGINE      terraform (default) or opentofu: read *.tofu.json files too (a
                       x.tofu.json takes the place of x.tf.json) and report OpenTofu-only
                       constructs (terraform.encryption, variables in module sources and
                       backends) as "OpenTofu: not checked" warnings instead of Terraform's
                       errors. A directory with a *.tofu.json file is OpenTofu's anyway.
  -h, --help           show this help

A file named alone is checked as part of its directory's module, as Terraform reads it: the
other *.tf and *.tf.json files there are read for their declarations only (so that references to their
blocks, variables and locals resolve, duplicate names are found and region rules see the other
side); their own contents are not checked and their problems are not reported.

Module calls with a local source ("./x", "../x") are followed as terraform validate follows
them: the called directory's *.tf and *.tf.json files are checked too (errors at their own
files), and the call's arguments and its outputs' references against the called module's
variables and outputs.

Test files (*.tftest.hcl in the directory and in its tests/ directory) are read as terraform
validate reads them: their syntax, and their blocks (run, variables, provider, mock_provider,
override_resource, override_data, override_module) and what each may hold. Assertions are not
evaluated and their references are not resolved (terraform test does that, at plan).

file() and templatefile() read the files they name, as terraform validate does: relative to
the module's directory (path.module is "." there), only inside it (at most 1 MiB each), and not
for standard input. A missing file is an error; a present one is a known value.

Bytes that are not valid UTF-8 are read as U+FFFD, as Terraform reads them (without an error),
and reported as a warning.

Each diagnostic says whose verdict it is: "source": "terraform" in JSON (properties.source and a
rule tag in SARIF) when terraform validate, with the tsdb and containerbackup providers installed,
reports it too; "source": "schemaform" for checks Terraform makes only at plan or apply, or never
(related resources in different regions, an id argument given another resource's id, invalid
UTF-8). Human output marks those, e.g. "(schemaform: Terraform reports this at apply)".

Exit status: 0 no errors, 1 errors (or too many warnings), 2 usage or I/O problem.
`;

interface Options {
  paths: string[];
  format: "human" | "json" | "sarif";
  maxWarnings: number | null;
  stdinName: string;
  color: boolean | null;
  engine: Engine;
}

class UsageError extends Error {}

function parseArgs(argv: string[]): Options | "help" {
  const options: Options = { paths: [], format: "human", maxWarnings: null, stdinName: "<stdin>", color: null, engine: "terraform" };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (name: string): string => {
      const eq = arg.indexOf("=");
      if (eq >= 0) return arg.slice(eq + 1);
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${name} needs a value`);
      return next;
    };
    if (arg === "-h" || arg === "--help") return "help";
    if (arg === "--format" || arg.startsWith("--format=")) {
      const f = value("--format");
      if (f !== "human" && f !== "json" && f !== "sarif") throw new UsageError(`unknown format '${f}' (expected human, json or sarif)`);
      options.format = f;
    } else if (arg === "--max-warnings" || arg.startsWith("--max-warnings=")) {
      const v = value("--max-warnings");
      if (!/^\d+$/.test(v)) throw new UsageError(`--max-warnings needs a whole number, got '${v}'`);
      options.maxWarnings = Number(v);
    } else if (arg === "--engine" || arg.startsWith("--engine=")) {
      const e = value("--engine");
      if (e !== "terraform" && e !== "opentofu") throw new UsageError(`unknown engine '${e}' (expected terraform or opentofu)`);
      options.engine = e;
    } else if (arg === "--stdin-filename" || arg.startsWith("--stdin-filename=")) {
      options.stdinName = value("--stdin-filename");
    } else if (arg === "--color") options.color = true;
    else if (arg === "--no-color") options.color = false;
    else if (arg === "--") {
      options.paths.push(...argv.slice(i + 1));
      break;
    } else if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown option '${arg}'`);
    else options.paths.push(arg);
  }
  if (options.paths.length === 0) options.paths.push(".");
  return options;
}

export async function run(argv: string[]): Promise<number> {
  let options: Options | "help";
  try {
    options = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`schemaform validate: ${error.message}\n\n${HELP}`);
    return 2;
  }
  if (options === "help") {
    process.stdout.write(HELP);
    return 0;
  }

  // read everything first: an unreadable path is a usage/I-O problem, reported before any result
  const modules: ModuleFile[][] = [];
  const fromStdin = new Set<ModuleFile[]>();
  const paths = options.paths.filter((p) => p !== "-");
  if (options.paths.includes("-")) {
    let input: Buffer;
    try {
      input = readFileSync(0);
    } catch (error) {
      process.stderr.write(`schemaform validate: cannot read standard input: ${(error as Error).message}\n`);
      return 2;
    }
    const { text, replaced } = decodeUtf8(input);
    modules.push([replaced.length > 0 ? { name: options.stdinName, text, replaced } : { name: options.stdinName, text }]);
    fromStdin.add(modules[modules.length - 1]!);
  }
  for (const path of paths) {
    try {
      const info = await stat(path);
      if (info.isDirectory()) {
        if ((await configFilesIn(path)).length === 0 && !(await readdir(path)).some((n) => TOFU_JSON.test(n))) {
          process.stderr.write(`schemaform validate: no *.tf or *.tf.json files (nor *.tofu.json) in '${path}'\n`);
          return 2;
        }
        continue;
      }
      if (!info.isFile()) throw new Error("not a regular file");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      process.stderr.write(`schemaform validate: cannot read '${path}': ${code === "ENOENT" ? "no such file or directory" : (error as Error).message}\n`);
      return 2;
    }
  }
  try {
    const groups = await groupModules(paths, { engine: options.engine });
    for (const files of groups.values()) modules.push(files);
  } catch (error) {
    process.stderr.write(`schemaform validate: ${(error as Error).message}\n`);
    return 2;
  }
  const diagnostics: Diagnostic[] = [];
  const sources: ModuleResult["sources"] = new Map();
  for (const files of modules) {
    // file() reads relative to a module's directory: standard input has none
    const result = await validateModule(files, undefined, { localModules: true, files: !fromStdin.has(files) });
    const tofu = options.engine === "opentofu" || isOpenTofuModule(files.map((f) => f.name));
    // one by one: spreading 100,000+ diagnostics into push() overflows the stack
    for (const d of tofu ? forOpenTofu(result.diagnostics) : result.diagnostics) diagnostics.push(d);
    // the module's own files and those of the local modules it calls (context-only files lend declarations only)
    const contextOnly = new Set(files.filter((f) => f.contextOnly).map((f) => f.name));
    for (const [name, source] of result.sources) if (!contextOnly.has(name)) sources.set(name, source);
  }

  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  switch (options.format) {
    case "json":
      process.stdout.write(formatJson(diagnostics));
      break;
    case "sarif":
      process.stdout.write(formatSarif(diagnostics, packageVersion()));
      break;
    default: {
      const color = options.color ?? (process.stdout.isTTY === true && !process.env.NO_COLOR);
      process.stdout.write(formatHuman(diagnostics, sources, { color }));
    }
  }
  if (errors > 0) return 1;
  if (options.maxWarnings !== null && warnings > options.maxWarnings) {
    process.stderr.write(`schemaform validate: ${warnings} warnings (more than --max-warnings ${options.maxWarnings})\n`);
    return 1;
  }
  return 0;
}

function packageVersion(): string {
  try {
    const url = new URL("../../../package.json", import.meta.url);
    return (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
  } catch {
    return "0.0.0";
  }
}
