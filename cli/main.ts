#!/usr/bin/env node
// The `schemaform` command: a thin dispatcher; each sub-command lives in cli/commands/<name>.ts
// and is imported only when used, so `schemaform validate` never loads the provider or platform.

type Command = { summary: string; load: () => Promise<{ run(argv: string[]): Promise<number> }> };

const commands: Record<string, Command> = {
  validate: { summary: "check *.tf.json files against the schemas", load: () => import("./commands/validate.js") },
  import: { summary: "generate import blocks and configuration for existing resources", load: () => import("./commands/import.js") },
  provider: { summary: "install the Terraform providers (provider install [--dir DIR])", load: () => import("./commands/provider.js") },
  platform: { summary: "run the platform as an HTTP or https server (platform serve), migrate, export or import its database, and manage its credentials", load: () => import("./commands/platform.js") },
  up: { summary: "synthesize a CDKTF app and apply it against the platform", load: () => import("./commands/up.js") },
  down: { summary: "destroy what 'schemaform up' applied", load: () => import("./commands/down.js") },
};

function usage(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `usage: schemaform <command> [options]\n\ncommands:\n${lines.join("\n")}\n\nRun 'schemaform <command> --help' for a command's options.\n`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(usage());
    return name ? 0 : 2;
  }
  if (name === "--version") {
    const { createRequire } = await import("node:module");
    process.stdout.write(`${createRequire(import.meta.url)("../../package.json").version}\n`);
    return 0;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`schemaform: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  return (await command.load()).run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`schemaform: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
