// The platform client behind an https endpoint signed by a private CA that is trusted only through
// NODE_EXTRA_CA_CERTS, which the provider's launcher defers to SCHEMAFORM_EXTRA_CA_CERTS.
import { rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer, type Server } from "node:https";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEFERRED_CA_ENV } from "../../platform/deferred-ca.js";
import { createHttpClient } from "../../platform/http-client.js";
import { rejection, startServerHarness, tempDir, type ServerHarness } from "./helpers.js";
import { privatePki } from "./private-pki.js";

/** An https server that passes every request on to `target` (the plain-HTTP platform server). */
function tlsProxy(pki: { keyPem: string; certPem: string }, target: string): Promise<Server> {
  const upstream = new URL(target);
  const server = createServer({ key: pki.keyPem, cert: pki.certPem }, (req, res) => {
    const forwarded = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on("error", () => res.destroy());
    req.pipe(forwarded);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

describe("an https platform endpoint signed by a private CA", () => {
  const work = tempDir("schemaform-deferred-ca-");
  const caFile = join(work, "private-ca.pem");
  let harness: ServerHarness;
  let proxy: Server;
  let endpoint: string;
  const previous = process.env[DEFERRED_CA_ENV];

  let pki: Awaited<ReturnType<typeof privatePki>>;

  beforeAll(async () => {
    pki = await privatePki();
    writeFileSync(caFile, pki.caPem);
    harness = await startServerHarness();
    proxy = await tlsProxy(pki, harness.server.url);
    endpoint = `https://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy.close(resolve));
    await harness.cleanup();
    rmSync(work, { recursive: true, force: true });
  });
  afterEach(() => {
    if (previous === undefined) delete process.env[DEFERRED_CA_ENV];
    else process.env[DEFERRED_CA_ENV] = previous;
  });

  const client = () => createHttpClient({ endpoint, credentials: { accessKey: harness.accessKey, secretKey: harness.secretKey } });

  it("is trusted when the CA is only in the deferred variable (token exchange, create, read, delete)", async () => {
    process.env[DEFERRED_CA_ENV] = caFile;
    const c = client();
    const { body } = await c.restoreChannels.create({ destination_project: "projects/dest-project", location: "us-central1", name: "over-tls" }, { defaultProject: "tls-project" });
    expect(await c.restoreChannels.get(body.id)).toMatchObject({ id: body.id, name: "over-tls" });
    await c.restoreChannels.delete(body.id, body.etag);
    expect((await rejection(() => c.restoreChannels.get(body.id))).code).toBe("not_found");
  });

  it("is refused without the variable, as before (Node's own trust, global fetch)", async () => {
    delete process.env[DEFERRED_CA_ENV];
    const error = await rejection(() => client().restoreChannels.list("tls-project"));
    expect(error.message).toMatch(/cannot reach the platform at https:\/\/127\.0\.0\.1:\d+: (SELF_SIGNED|UNABLE_TO_GET_ISSUER|UNABLE_TO_VERIFY)/);
  });

  it("keeps the client's timeout", async () => {
    process.env[DEFERRED_CA_ENV] = caFile;
    const silent = createNetServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    try {
      // A TCP server that never completes the TLS handshake: the request can only time out.
      const quiet = createHttpClient({ endpoint: `https://127.0.0.1:${(silent.address() as AddressInfo).port}`, requestTimeoutMs: 200 });
      expect((await rejection(() => quiet.restoreChannels.list("tls-project"))).code).toBe("timeout");
    } finally {
      silent.close();
    }
  });

  it("reads the file again when it changes: a rotated CA is trusted by the next client, a removed one by none", async () => {
    const rotated = await privatePki();
    const second = await tlsProxy(rotated, harness.server.url);
    const rotatedEndpoint = `https://127.0.0.1:${(second.address() as AddressInfo).port}`;
    const clientOf = (url: string) => createHttpClient({ endpoint: url, credentials: { accessKey: harness.accessKey, secretKey: harness.secretKey } });
    try {
      process.env[DEFERRED_CA_ENV] = caFile;
      expect(await clientOf(endpoint).restoreChannels.list("tls-project")).toEqual([]);
      // The CA rotates: the same file now holds the new CA, whose server is the second proxy.
      writeFileSync(caFile, rotated.caPem);
      expect(await clientOf(rotatedEndpoint).restoreChannels.list("tls-project")).toEqual([]);
      expect((await rejection(() => clientOf(endpoint).restoreChannels.list("tls-project"))).message).toMatch(/cannot reach the platform/);
      // Removed: nothing beyond Node's own roots is trusted.
      rmSync(caFile);
      expect((await rejection(() => clientOf(rotatedEndpoint).restoreChannels.list("tls-project"))).message).toMatch(/cannot reach the platform/);
    } finally {
      await new Promise((resolve) => second.close(resolve));
      writeFileSync(caFile, pki.caPem);
    }
  });

  it("leaves plain-http endpoints alone, even when the deferred file cannot be read", async () => {
    process.env[DEFERRED_CA_ENV] = join(work, "missing.pem");
    const plain = createHttpClient({ endpoint: harness.server.url, credentials: { accessKey: harness.accessKey, secretKey: harness.secretKey } });
    expect(await plain.restoreChannels.list("tls-project")).toEqual([]);
  });
});
