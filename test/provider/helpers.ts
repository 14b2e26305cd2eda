// Shared by the provider suites: bundling the fixture provider the way the real one is
// bundled, launching it as Terraform does, and a gRPC client (@grpc/grpc-js, an independent
// implementation) to talk to it.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { bundleProvider, ROOT } from "../../scripts/bundle-provider.mjs";
import { messageType } from "../../provider/protocol/messages.js";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../provider/transport/serve.js";
import { createServerIdentity, type ServerIdentity } from "../../provider/transport/cert.js";

export const FIXTURE_ENTRY = join(ROOT, "test", "provider", "fixture", "main.ts");

/** Bundles the fixture provider into `directory` (with the native addon beside it, like the real build). */
export function bundleFixture(directory: string): Promise<string> {
  return bundleProvider({ entryPoint: FIXTURE_ENTRY, outfile: join(directory, "fixture-provider.cjs") });
}

export interface Launched {
  child: ChildProcess;
  handshake: string;
  /** Everything the plugin wrote to stdout, for checking that nothing follows the handshake. */
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** Starts a plugin executable with Terraform's environment and waits for its handshake line. */
export function launch(bundle: string, env: NodeJS.ProcessEnv = {}): Promise<Launched> {
  const child = spawn(process.execPath, [bundle], {
    env: { ...process.env, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "5,6", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const newline = out.indexOf("\n");
      if (newline >= 0) resolve({ child, handshake: out.slice(0, newline), stdout: () => out, stderr: () => err, exited });
    });
    void exited.then((code) => reject(new Error(`plugin exited (${code}) before its handshake: ${err}`)));
  });
}

export interface Handshake {
  core: string;
  protocol: string;
  network: string;
  address: string;
  kind: string;
  cert: string;
}

export function parseHandshake(line: string): Handshake {
  const [core, protocol, network, address, kind, cert] = line.split("|");
  return { core: core!, protocol: protocol!, network: network!, address: address!, kind: kind!, cert: cert ?? "" };
}

export function certPem(base64: string): string {
  const lines = Buffer.from(base64, "base64").toString("base64").match(/.{1,64}/g)!;
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}

/** A client identity standing in for Terraform's (which is a self-signed P-521 cert). */
export function clientIdentity(): Promise<ServerIdentity> {
  return createServerIdentity();
}

/** A gRPC client for one plugin, speaking mTLS (or plaintext when `identity` is undefined). */
export class PluginClient {
  private readonly client: grpc.Client;

  constructor(handshake: Handshake, identity?: ServerIdentity) {
    const credentials = identity
      ? grpc.credentials.createSsl(Buffer.from(certPem(handshake.cert)), Buffer.from(identity.keyPem), Buffer.from(identity.certPem))
      : grpc.credentials.createInsecure();
    // Like go-plugin: trust exactly the handshake certificate, with ServerName "localhost".
    const target = handshake.network === "unix" ? `unix:${handshake.address}` : handshake.address;
    this.client = new grpc.Client(target, credentials, { "grpc.ssl_target_name_override": "localhost", "grpc.default_authority": "localhost" });
  }

  /** Calls a unary method, e.g. call("/tfplugin6.Provider/GetProviderSchema", "tfplugin6.GetProviderSchema.Request", ...). */
  call(path: string, requestType: string, responseType: string, request: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const req = messageType(requestType);
    const res = messageType(responseType);
    return new Promise((resolve, reject) => {
      this.client.makeUnaryRequest(
        path,
        (value: Record<string, unknown>) => Buffer.from(req.encode(value).finish()),
        (bytes: Buffer) => res.toObject(res.decode(bytes), { defaults: false, longs: Number }) as Record<string, any>,
        request,
        (error, value) => (error ? reject(error) : resolve(value!)),
      );
    });
  }

  provider(method: string, request: Record<string, unknown> = {}): Promise<Record<string, any>> {
    return this.call(`/tfplugin6.Provider/${method}`, `tfplugin6.${method}.Request`, `tfplugin6.${method}.Response`, request);
  }

  shutdown(): Promise<Record<string, any>> {
    return this.call("/plugin.GRPCController/Shutdown", "plugin.Empty", "plugin.Empty");
  }

  close(): void {
    this.client.close();
  }
}
