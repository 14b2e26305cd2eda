// Entry point of the terraform-provider-tsdb and terraform-provider-containerbackup
// executables (one program; the executable's name says which provider it is). Only the
// transport loads before the handshake; the provider's runtime (provider/runtimes/<name>.ts)
// loads on the first RPC that needs it (GetProviderSchema is answered from
// provider/static-responses.ts, precomputed at build time).
import { basename } from "node:path";
import { PROVIDER_NAMES, isProviderName, type ProviderName } from "./names.js";
import { staticResponses } from "./static-responses.js";
import { RESIDENT_FLAG } from "./transport/resident-flag.js";
import { isAgentInvocation } from "./agent/command.js";
import { serve, type ProviderRouter, type ServeOptions } from "./transport/serve.js";

/** Each provider's post-handshake code, loaded on first use (a separately compiled unit in the bundle). */
const RUNTIMES: Record<ProviderName, () => Promise<{ createRouter(connection?: { terraformPid?: number }): ProviderRouter }>> = {
  tsdb: () => import("./runtimes/tsdb.js"),
  containerbackup: () => import("./runtimes/containerbackup.js"),
};

/** Environment override, for running the bundle under another name (tests, debugging). */
export const PROVIDER_ENV = "SCHEMAFORM_PROVIDER";

function selectProvider(): ProviderName | undefined {
  const fromEnv = process.env[PROVIDER_ENV];
  if (fromEnv) return isProviderName(fromEnv) ? fromEnv : undefined;
  const executable = basename(process.argv[1] ?? "");
  return PROVIDER_NAMES.find((name) => executable.includes(`terraform-provider-${name}`));
}

function serveProvider(): void {
  const name = selectProvider();
  if (!name) {
    process.stderr.write(
      `schemaform provider: cannot tell which provider to serve. Run it as terraform-provider-<name> or set ${PROVIDER_ENV} to one of: ${PROVIDER_NAMES.join(", ")}.\n`,
    );
    process.exit(1);
  }
  const options: ServeOptions = {
    name: `terraform-provider-${name}`,
    router: (connection) => RUNTIMES[name]().then((runtime) => runtime.createRouter(connection)),
    staticResponses: staticResponses?.[name],
  };
  // The launcher starts the resident server (transport/resident.ts) with its directory.
  const resident = process.argv[2] === RESIDENT_FLAG ? process.argv[3] : undefined;
  (resident ? import("./transport/resident.js").then(({ serveResident }) => serveResident(options, resident)) : serve(options)).catch((error: unknown) => {
    process.stderr.write(`terraform-provider-${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

// The embedded platform starts its data-plane agent as this same executable (provider/agent/).
if (isAgentInvocation(process.argv)) {
  import("./agent/runtime.js")
    .then(({ runAgent }) => runAgent(process.argv.slice(4)))
    .then(
      (code) => process.exit(code),
      (error: unknown) => {
        process.stderr.write(`schemaform agent: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
} else {
  serveProvider();
}
