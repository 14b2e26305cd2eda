// The plugin process: the go-plugin handshake and its rules (reference §3-§5).
//
// Order matters for start-up time: Terraform waits for the handshake line, and it starts 2-5
// provider processes per command. Before that line we only make the certificate and listen;
// the protocol descriptor, the handlers and the provider schema load on the first RPC (and we
// start loading them right after the handshake, while Terraform connects).
import { writeSync } from "node:fs";
import { bundleCodeCache } from "../code-cache.js";
import { log } from "../log.js";
import { createServerIdentity } from "./cert.js";
import { createGrpcServer, type Router, type UnaryRoute } from "./grpc.js";
import { listen } from "./listen.js";
import { exitWithParent } from "./parent-watch.js";

/** go-plugin's magic cookie for Terraform providers: proves Terraform launched us. */
export const MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";
export const MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";
const CORE_PROTOCOL_VERSION = 1;
const APP_PROTOCOL_VERSION = 6;

/** go-plugin's handshake line: protocol versions, address ("unix|<path>" or "tcp|<host:port>"), gRPC, our certificate. */
export function handshakeLine(address: string, certBase64: string): string {
  return `${CORE_PROTOCOL_VERSION}|${APP_PROTOCOL_VERSION}|${address}|grpc|${certBase64}\n`;
}

/** A provider's RPC router; `close` (when there is one) ends its connection's work. */
export type ProviderRouter = ((path: string) => ((request: Uint8Array) => Promise<Uint8Array>) | undefined) & { close?(): Promise<void> };

export interface ServeOptions {
  /** The executable's name, for messages ("terraform-provider-tsdb"). */
  name: string;
  /**
   * Loads the provider's RPC router (its definition and the framework) on the first RPC, never
   * before the handshake.
   */
  router(connection?: { terraformPid?: number }): Promise<ProviderRouter>;
  /**
   * Answers known at build time (base64 protobuf bytes by gRPC path), served without loading
   * the router. When given, nothing is loaded before an RPC needs it.
   */
  staticResponses?: Record<string, string>;
}

export async function serve(options: ServeOptions): Promise<void> {
  const writeHandshake = claimStdout();
  const env = process.env;
  if (env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    process.stderr.write(
      `${options.name} is a Terraform provider plugin, not a program to run directly.\n` +
        `Terraform starts it when a configuration uses the provider; run 'schemaform provider install' to make it available to Terraform.\n`,
    );
    process.exit(1);
  }
  const offered = (env.PLUGIN_PROTOCOL_VERSIONS ?? String(APP_PROTOCOL_VERSION)).split(",").map((v) => v.trim());
  if (!offered.includes(String(APP_PROTOCOL_VERSION))) {
    process.stderr.write(`${options.name} speaks plugin protocol ${APP_PROTOCOL_VERSION}; Terraform offered ${offered.join(", ")}. Use Terraform 1.0 or later.\n`);
    process.exit(1);
  }
  // Ctrl-C reaches the whole process group; Terraform then asks us to stop via StopProvider
  // and Shutdown. Dying on SIGINT would cut an apply short behind Terraform's back.
  process.on("SIGINT", () => {});
  // A Terraform killed outright never calls Shutdown: go when it goes.
  exitWithParent();

  const clientCert = env.PLUGIN_CLIENT_CERT;
  const useTls = Boolean(clientCert) && !env.TF_DISABLE_PLUGIN_TLS;
  const identity = useTls ? await createServerIdentity() : undefined;
  const router = lazyRouter(() => options.router(), options.staticResponses, shutdownRoute);
  const server = createGrpcServer(router, identity && { key: identity.keyPem, cert: identity.certPem, clientCert: clientCert! });

  const address = await listen(server, env);
  writeHandshake(handshakeLine(address, identity?.certBase64 ?? ""));
  // The next process starts from what this one compiled up to here (when it had no cache).
  setImmediate(() => bundleCodeCache()?.save("main"));
  // Without precomputed answers, warm up while Terraform connects. With them, load nothing
  // eagerly: Terraform starts one process per command only to read the schema, and the event
  // loop is single-threaded, so a warm-up would only hold back the TLS handshake.
  if (!options.staticResponses) setImmediate(() => void Promise.resolve(router("/tfplugin6.Provider/GetProviderSchema")).catch(() => {}));
}

/**
 * Takes stdout for the handshake alone: console.log and process.stdout.write from here on go to
 * stderr, because any stray output on stdout breaks Terraform's handshake parsing.
 */
function claimStdout(): (line: string) => void {
  const toStderr = process.stderr.write.bind(process.stderr);
  process.stdout.write = toStderr as typeof process.stdout.write;
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  return (line) => writeSync(1, line);
}

/**
 * Routes gRPC paths; the provider's handlers load on the first call that needs them. Once they
 * are loaded, a path resolves synchronously to the same route object every time. `shutdown`
 * answers GRPCController.Shutdown.
 */
export function lazyRouter(load: () => Promise<ProviderRouter>, staticResponses: Record<string, string> = {}, shutdown: UnaryRoute): Router {
  let provider: ReturnType<ServeOptions["router"]> | undefined;
  let route: ((path: string) => ((request: Uint8Array) => Promise<Uint8Array>) | undefined) | undefined;
  const routes = new Map<string, UnaryRoute | undefined>();
  for (const [path, base64] of Object.entries(staticResponses)) {
    let bytes: Uint8Array | undefined;
    routes.set(path, { call: async () => (bytes ??= Buffer.from(base64, "base64")) });
  }
  const resolve = (path: string): UnaryRoute | undefined => {
    let found = routes.get(path);
    if (found === undefined && !routes.has(path)) {
      const call = route!(path);
      found = call && { call };
      routes.set(path, found);
    }
    return found;
  };
  return (path) => {
    if (path === "/plugin.GRPCController/Shutdown") return shutdown;
    // Everything else outside the provider service (go-plugin's stdio and broker streams) is
    // refused without loading anything.
    if (!path.startsWith("/tfplugin6.Provider/")) return undefined;
    if (route || routes.has(path)) return resolve(path);
    provider ??= load().then((loaded) => (route = loaded));
    return provider.then(() => resolve(path));
  };
}

/** GRPCController.Shutdown: reply (an empty message), then exit at once. Terraform otherwise waits 2 s and kills us. */
const shutdownRoute: UnaryRoute = {
  call: async () => new Uint8Array(0),
  after: () => {
    log("debug", "shutdown requested by Terraform");
    process.exit(0);
  },
};
