// `schemaform down`: destroys what `schemaform up` applied, from the stack `up` synthesized (its
// state lives in the stack's directory under the output directory), with the same providers and
// the same platform data directory. Nothing is synthesized again: the destroy acts on the state.
import { resolve } from "node:path";
import { checkTerraform, exec, parse, pickStack, say, shown, terraformEnvironment, UpError } from "./up.js";

const USAGE = `usage: schemaform down [APP_DIR] [--stack NAME] [--out DIR]

Destroys the resources 'schemaform up' applied: runs 'terraform destroy' in the stack's directory
under the output directory, against the same platform. The databases the data plane ran are
stopped and their files removed; nothing is left running.

  APP_DIR        accepted as 'schemaform up' takes it, so that 'down' repeats 'up''s command
                 line; the stack is the one synthesized in the output directory
  --stack NAME   the stack to destroy when the app has several
  --out DIR      the output directory 'schemaform up' used (default: cdktf.out)

Environment: SCHEMAFORM_DATA_DIR and TERRAFORM, as for 'schemaform up'.
`;

export async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(USAGE);
    return 0;
  }
  const args = parse(argv);
  if (typeof args === "string") {
    process.stderr.write(`schemaform down: ${args}\n\n${USAGE}`);
    return 2;
  }
  try {
    return await down(resolve(args.out ?? "cdktf.out"), args.stack);
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
  const { env, dataDir } = await terraformEnvironment(outdir, stack.directory);
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
    // Every service is gone (each delete waited for its processes to stop): the data plane's
    // agent has nothing left to do, so it leaves now rather than after its idle time.
    const { stopIdleAgent } = await import("../../platform/dataplane/launcher.js");
    await stopIdleAgent(dataDir);
    return 0;
  } finally {
    process.off("SIGINT", ignore);
  }
}
