// How the bundled plugin starts its data directory's data-plane agent: its own executable with
// `platform agent --data-dir DIR` (provider/main.ts runs the agent when asked), since an
// installed plugin has no schemaform package beside it. Outside the bundle the platform starts the
// schemaform CLI (platform/dataplane/launcher.ts).
import { resolve } from "node:path";
import type { AgentCommand } from "../../platform/dataplane/launcher.js";

/** Defined as `true` by scripts/bundle-provider.mjs; undeclared anywhere else. */
declare const __SCHEMAFORM_BUNDLE__: boolean | undefined;
const bundled = typeof __SCHEMAFORM_BUNDLE__ !== "undefined" && __SCHEMAFORM_BUNDLE__ === true;

/** The argv of the bundled executable that asks it to run the agent. */
export function isAgentInvocation(argv: string[]): boolean {
  return argv[2] === "platform" && argv[3] === "agent";
}

export function bundledAgentCommand(): ((dataDir: string) => AgentCommand) | undefined {
  if (!bundled) return undefined;
  const executable = process.argv[1]!;
  return (dataDir) => ({ command: process.execPath, args: [executable, "platform", "agent", "--data-dir", resolve(dataDir)] });
}
