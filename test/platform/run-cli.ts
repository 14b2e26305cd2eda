// `schemaform platform …` run in this process (cli/commands/platform.ts), with what it prints.
import { run as platformCommand } from "../../cli/commands/platform.js";
import { runCommand, type CommandOutput } from "../support/command-output.js";

export function runPlatformCli(argv: string[]): Promise<CommandOutput> {
  return runCommand(platformCommand, argv);
}

/**
 * A credential for every project made with `credentials create --json` on the SQLite platform in
 * `dataDir` (`extra`: e.g. --token), as it prints it: access_key and secret_key, or access_token.
 */
export async function createCredentials<T = { access_key: string; secret_key: string }>(dataDir: string, extra: string[] = []): Promise<T> {
  const created = await runPlatformCli(["credentials", "create", "--all-projects", ...extra, "--data-dir", dataDir, "--json"]);
  if (created.code !== 0) throw new Error(`credentials create exited ${created.code}: ${created.stderr}`);
  return JSON.parse(created.stdout) as T;
}
