// `schemaform platform agent` and `schemaform platform status`: the data plane's agent (started on
// demand by the platform clients; run by hand only to watch it), and what it runs.
//
//   schemaform platform agent [--data-dir DIR]
//   schemaform platform status [--data-dir DIR] [--json]

import { resolve } from "node:path";
import { parseArgs } from "node:util";

export async function agentCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { "data-dir": { type: "string" } }, strict: true });
  const { defaultDataDir } = await import("../../platform/config.js");
  const dataDir = resolve(values["data-dir"] ?? defaultDataDir());
  const { runAgentProcess } = await import("../../platform/dataplane/agent-process.js");
  const { forgetLocalDataDir, openLocalDriver, openLocalComponents } = await import("../../platform/dataplane/local-plane.js");
  const code = await runAgentProcess({ dataDir, openDriver: openLocalDriver, openComponents: openLocalComponents, forgetDataDir: forgetLocalDataDir });
  // nothing of the agent may linger (a client's socket, a timer): it is done
  process.exit(code);
}

export async function statusCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { "data-dir": { type: "string" }, json: { type: "boolean" } }, strict: true });
  const { defaultDataDir } = await import("../../platform/config.js");
  const dataDir = resolve(values["data-dir"] ?? defaultDataDir());
  const { existsSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { DB_FILE, openStore } = await import("../../platform/store.js");
  if (!existsSync(join(dataDir, DB_FILE))) {
    process.stdout.write(`data directory ${dataDir}: no platform here yet (nothing has been applied to it)\n`);
    return 0;
  }
  const store = await openStore({ dataDir });
  try {
    const { statusReport, formatStatus } = await import("../../platform/dataplane/status-report.js");
    const report = await statusReport(store, dataDir);
    process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatStatus(report, `data directory ${dataDir}`));
    return 0;
  } finally {
    await store.close();
  }
}
