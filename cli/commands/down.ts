// `schemaform down`: destroys what `schemaform up` applied, from the stack `up` synthesized (its
// state lives in the stack's directory under the output directory), with the same providers and
// the same platform data directory. Nothing is synthesized again: the destroy acts on the state.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { checkTerraform, exec, pickStack, say, shown, terraformEnvironment, UpError } from "./up.js";

const USAGE = `usage: schemaform down [--stack NAME] [--out DIR]

Destroys the resources 'schemaform up' applied: runs 'terraform destroy' in the stack's directory
under the output directory, against the same platform.

  --stack NAME   the stack to destroy when the app has several
  --out DIR      the output directory 'schemaform up' used (default: cdktf.out)

Environment: SCHEMAFORM_DATA_DIR and TERRAFORM, as for 'schemaform up'.
`;

export async function run(argv: string[]): Promise<number> {
  let values: { stack?: string; out?: string; help?: boolean };
  try {
    values = parseArgs({ args: argv, options: { stack: { type: "string" }, out: { type: "string" }, help: { type: "boolean", short: "h" } }, strict: true }).values;
  } catch (error) {
    process.stderr.write(`schemaform down: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  try {
    return await down(resolve(values.out ?? "cdktf.out"), values.stack);
  } catch (error) {
    if (error instanceof UpError) {
      process.stderr.write(`schemaform down: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

async function down(outdir: string, stackName: string | undefined): Promise<number> {
  const terraform = process.env.TERRAFORM || "terraform";
  await checkTerraform(terraform);
  const stack = pickStack(outdir, stackName);
  const { env } = await terraformEnvironment(outdir, stack.directory);
  const color = process.stdout.isTTY ? [] : ["-no-color"];
  say(`Stack ${stack.name} in ${shown(stack.directory)}`);
  // Terraform handles Ctrl-C itself (it stops gracefully); wait for it instead of dying first.
  const ignore = () => {};
  process.on("SIGINT", ignore);
  try {
    for (const args of [["init", "-input=false", ...color], ["destroy", "-auto-approve", "-input=false", ...color]]) {
      say(`\n$ terraform ${args.join(" ")}`);
      const { code } = await exec(terraform, args, { cwd: stack.directory, env });
      if (code !== 0) {
        process.stderr.write(`schemaform down: terraform ${args[0]} failed (exit code ${code})\n`);
        return code;
      }
    }
    return 0;
  } finally {
    process.off("SIGINT", ignore);
  }
}
