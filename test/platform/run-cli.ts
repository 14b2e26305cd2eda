// `schemaform platform …` run in this process (cli/commands/platform.ts), with what it prints.
import { run as platformCommand } from "../../cli/commands/platform.js";
import { runCommand, type CommandOutput } from "../support/command-output.js";

export function runPlatformCli(argv: string[]): Promise<CommandOutput> {
  return runCommand(platformCommand, argv);
}
