// The plugin process as Terraform sees it: environment checks, the handshake line, mTLS,
// gRPC calls, Shutdown. Runs the bundled fixture provider.
import { X509Certificate } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerIdentity, type ServerIdentity } from "../../provider/transport/cert.js";
import { createGrpcServer } from "../../provider/transport/grpc.js";
import { listening } from "../../provider/transport/listen.js";
import { MAGIC_COOKIE_KEY } from "../../provider/transport/serve.js";
import { PluginClient, bundleFixture, certPem, clientIdentity, launch, parseHandshake } from "./helpers.js";

const work = mkdtempSync(join(tmpdir(), "schemaform-transport-"));
/** Where the plugin listens on a unix socket (TCP elsewhere). */
const UNIX = process.platform !== "win32";
let bundle: string;
let identity: ServerIdentity;

beforeAll(async () => {
  bundle = await bundleFixture(work);
  identity = await clientIdentity();
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("without Terraform's magic cookie", () => {
  it("explains that it is a plugin, on stderr only, and exits 1", () => {
    const env = { ...process.env };
    delete env[MAGIC_COOKIE_KEY];
    const result = spawnSync(process.execPath, [bundle], { env, encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/is a Terraform provider plugin/);
  });
});

describe("with mTLS (Terraform's default)", () => {
  it("prints exactly one handshake line with an unpadded base64 DER certificate for localhost", async () => {
    const plugin = await launch(bundle, { PLUGIN_CLIENT_CERT: identity.certPem });
    try {
      const handshake = parseHandshake(plugin.handshake);
      expect(handshake).toMatchObject({ core: "1", protocol: "6", network: UNIX ? "unix" : "tcp", kind: "grpc" });
      if (!UNIX) expect(handshake.address).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(handshake.cert).toMatch(/^[A-Za-z0-9+/]+$/);
      const cert = new X509Certificate(Buffer.from(handshake.cert, "base64"));
      expect(cert.subjectAltName).toBe("DNS:localhost");
      expect(cert.ca).toBe(true);
      expect(cert.checkIssued(cert)).toBe(true);
      expect(cert.verify(cert.publicKey)).toBe(true);
      expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
      expect(Number.parseInt(cert.serialNumber.slice(0, 2), 16)).toBeLessThan(0x80);
      expect(cert.keyUsage).toEqual(expect.arrayContaining(["1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"]));

      const client = new PluginClient(handshake, identity);
      const schema = await client.provider("GetProviderSchema");
      expect(Object.keys(schema.resource_schemas)).toEqual(["fixture_thing"]);
      expect(schema.server_capabilities).toMatchObject({ plan_destroy: true, get_provider_schema_optional: true });
      const metadata = await client.provider("GetMetadata");
      expect(metadata.resources).toEqual([{ type_name: "fixture_thing" }]);
      client.close();
      // Nothing but the handshake line ever reaches stdout.
      expect(plugin.stdout()).toBe(`${plugin.handshake}\n`);
    } finally {
      plugin.child.kill();
    }
  });

  it("answers UNIMPLEMENTED for go-plugin's stdio stream and for RPCs we do not serve", async () => {
    const plugin = await launch(bundle, { PLUGIN_CLIENT_CERT: identity.certPem });
    const client = new PluginClient(parseHandshake(plugin.handshake), identity);
    try {
      await expect(client.provider("MoveResourceState")).rejects.toMatchObject({ code: 12 });
      await expect(client.call("/plugin.GRPCStdio/StreamStdio", "plugin.Empty", "plugin.Empty")).rejects.toMatchObject({ code: 12 });
    } finally {
      client.close();
      plugin.child.kill();
    }
  });

  it("rejects a client without Terraform's certificate", async () => {
    const plugin = await launch(bundle, { PLUGIN_CLIENT_CERT: identity.certPem });
    const stranger = await clientIdentity();
    const client = new PluginClient(parseHandshake(plugin.handshake), stranger);
    try {
      await expect(client.provider("GetProviderSchema")).rejects.toMatchObject({ code: 14 });
    } finally {
      client.close();
      plugin.child.kill();
    }
  });

  it("exits at once after replying to GRPCController.Shutdown", async () => {
    const plugin = await launch(bundle, { PLUGIN_CLIENT_CERT: identity.certPem });
    const client = new PluginClient(parseHandshake(plugin.handshake), identity);
    const started = Date.now();
    await expect(client.shutdown()).resolves.toEqual({});
    expect(await plugin.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(1500);
    client.close();
  });

  it("ignores SIGINT (Terraform stops providers through StopProvider and Shutdown)", async () => {
    const plugin = await launch(bundle, { PLUGIN_CLIENT_CERT: identity.certPem });
    const client = new PluginClient(parseHandshake(plugin.handshake), identity);
    try {
      plugin.child.kill("SIGINT");
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(plugin.child.exitCode).toBeNull();
      await expect(client.provider("StopProvider")).resolves.toBeDefined();
    } finally {
      client.close();
      plugin.child.kill();
    }
  });
});

describe("with TF_DISABLE_PLUGIN_TLS (no client certificate)", () => {
  it("serves plaintext gRPC and leaves the certificate field empty", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, TF_DISABLE_PLUGIN_TLS: "1" };
    delete env.PLUGIN_CLIENT_CERT;
    const plugin = await launch(bundle, env);
    const handshake = parseHandshake(plugin.handshake);
    expect(handshake.cert).toBe("");
    const client = new PluginClient(handshake);
    try {
      const schema = await client.provider("GetProviderSchema");
      expect(schema.provider.block.attributes.map((a: { name: string }) => a.name)).toEqual(["store", "token"]);
    } finally {
      client.close();
      plugin.child.kill();
    }
  });
});

describe.runIf(UNIX)("the unix socket", () => {
  it("is in a private directory (PLUGIN_UNIX_SOCKET_DIR when set) that goes when the process exits", async () => {
    const parent = mkdtempSync(join(work, "sockets-"));
    const plugin = await launch(bundle, { PLUGIN_CLIENT_CERT: identity.certPem, PLUGIN_UNIX_SOCKET_DIR: parent });
    const handshake = parseHandshake(plugin.handshake);
    expect(handshake.network).toBe("unix");
    expect(dirname(dirname(handshake.address))).toBe(parent);
    expect(statSync(dirname(handshake.address)).mode & 0o777).toBe(0o700);
    const client = new PluginClient(handshake, identity);
    await client.shutdown();
    expect(await plugin.exited).toBe(0);
    client.close();
    expect(readdirSync(parent)).toEqual([]);
  });

  it("goes too when the process is terminated (SIGTERM)", async () => {
    const parent = mkdtempSync(join(work, "sockets-"));
    const plugin = await launch(bundle, { PLUGIN_CLIENT_CERT: identity.certPem, PLUGIN_UNIX_SOCKET_DIR: parent });
    plugin.child.kill("SIGTERM");
    await plugin.exited;
    expect(readdirSync(parent)).toEqual([]);
  });

  it("falls back to TCP when the socket path would be too long for Terraform to dial", async () => {
    const parent = join(work, "d".repeat(120));
    mkdirSync(parent);
    const plugin = await launch(bundle, { PLUGIN_CLIENT_CERT: identity.certPem, PLUGIN_UNIX_SOCKET_DIR: parent });
    try {
      const handshake = parseHandshake(plugin.handshake);
      expect(handshake.network).toBe("tcp");
      const client = new PluginClient(handshake, identity);
      expect(Object.keys((await client.provider("GetProviderSchema")).resource_schemas)).toEqual(["fixture_thing"]);
      client.close();
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      plugin.child.kill();
    }
  });
});

describe("the V8 code cache (SCHEMAFORM_CACHE_DIR)", () => {
  const cacheDir = join(work, "cache");
  const entries = (prefix: string) => (existsSync(join(cacheDir, "v8")) ? readdirSync(join(cacheDir, "v8")).filter((name) => name.startsWith(prefix) && name.endsWith(".bin")) : []);
  const waitFor = async (check: () => boolean) => {
    for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    return check();
  };

  it("is written after the handshake (main code) and at exit (runtime), and a corrupt entry is only a miss", async () => {
    const env = { PLUGIN_CLIENT_CERT: identity.certPem, SCHEMAFORM_CACHE_DIR: cacheDir };
    const first = await launch(bundle, env);
    expect(await waitFor(() => entries("main-").length === 1)).toBe(true);
    const client = new PluginClient(parseHandshake(first.handshake), identity);
    await client.provider("ValidateResourceConfig", { type_name: "fixture_thing" });
    expect(entries("runtime-")).toEqual([]);
    await client.shutdown();
    expect(await first.exited).toBe(0);
    client.close();
    expect(entries("runtime-")).toHaveLength(1);

    const main = join(cacheDir, "v8", entries("main-")[0]!);
    writeFileSync(main, "garbage");
    const second = await launch(bundle, env);
    try {
      const again = new PluginClient(parseHandshake(second.handshake), identity);
      expect(Object.keys((await again.provider("GetProviderSchema")).resource_schemas)).toEqual(["fixture_thing"]);
      again.close();
      expect(await waitFor(() => readFileSync(main).length > 1000)).toBe(true);
    } finally {
      second.child.kill();
    }
  });
});

describe.runIf(UNIX)("a listener made before its connection (the resident server's workers)", () => {
  it("accepts no TLS client until Terraform's certificate is known, then that client alone", async () => {
    const own = await createServerIdentity();
    let expected: string | undefined;
    const server = createGrpcServer((path) => (path === "/plugin.GRPCController/Shutdown" ? { call: async () => new Uint8Array(0) } : undefined), {
      key: own.keyPem,
      cert: own.certPem,
      clientCert: () => expected,
    });
    const address = join(work, "ahead.sock");
    await listening(server, (done) => server.listen(address, done));
    const handshake = parseHandshake(`1|6|unix|${address}|grpc|${own.certBase64}`);
    const early = new PluginClient(handshake, identity);
    const stranger = new PluginClient(handshake, await clientIdentity());
    const terraform = new PluginClient(handshake, identity);
    try {
      await expect(early.shutdown()).rejects.toMatchObject({ code: 14 });
      expected = identity.certPem;
      await expect(stranger.shutdown()).rejects.toMatchObject({ code: 14 });
      await expect(terraform.shutdown()).resolves.toEqual({});
    } finally {
      for (const client of [early, stranger, terraform]) client.close();
      server.close();
    }
  });
});

it("certPem wraps base64 DER at 64 columns", () => {
  expect(certPem("QUJD")).toBe("-----BEGIN CERTIFICATE-----\nQUJD\n-----END CERTIFICATE-----\n");
});
