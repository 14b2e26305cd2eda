// The data-plane agent inside the bundled plugin (`terraform-provider-tsdb platform agent
// --data-dir DIR`): a code unit of its own (scripts/bundle-provider.mjs), compiled only when the
// executable is run as the agent, so the plugin's start-up never pays for it.
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { defaultDataDir } from "../../platform/config.js";
import { runAgentProcess } from "../../platform/dataplane/agent-process.js";
import { forgetLocalDataDir, openLocalComponents, openLocalDriver } from "../../platform/dataplane/local-plane.js";
import { nativeBindingLoader } from "../native.js";

export async function runAgent(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { "data-dir": { type: "string" } }, strict: true });
  return runAgentProcess({
    dataDir: resolve(values["data-dir"] ?? defaultDataDir()),
    loadNativeBinding: nativeBindingLoader(),
    openDriver: openLocalDriver,
    openComponents: openLocalComponents, forgetDataDir: forgetLocalDataDir,
  });
}
