// `schemaform platform serve --tls-cert FILE --tls-key FILE`: https with a certificate from a private
// CA, reached by a client that trusts the CA (the providers' way: SCHEMAFORM_EXTRA_CA_CERTS) and
// refused by one that does not; wrong files stop it at start-up with a message naming the file.
import { spawnSync } from "node:child_process";
import { get } from "node:https";
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { checkServerIdentity } from "node:tls";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFERRED_CA_ENV } from "../../platform/deferred-ca.js";
import { createHttpClient } from "../../platform/http-client.js";
import { tempDir } from "./helpers.js";
import { privatePki } from "./private-pki.js";
import { createCredentials, runPlatformCli as cli } from "./run-cli.js";
import { ROOT, killHard, startServe, type ServeProcess } from "./serve-process.js";

/** GET over https; the status and body, or the error of the handshake. */
function httpsGet(url: string, ca?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = get(url, { ca, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
  });
}

describe("platform serve over TLS", () => {
  const work = tempDir("schemaform-tls-");
  const dataDir = join(work, "data");
  const files = { ca: join(work, "ca.pem"), cert: join(work, "server.pem"), key: join(work, "server.key"), otherKey: join(work, "other.key"), garbage: join(work, "garbage.pem") };
  let pki: Awaited<ReturnType<typeof privatePki>>;
  let otherKeyPem: string;
  let serve: ServeProcess | undefined;

  beforeAll(async () => {
    pki = await privatePki();
    otherKeyPem = (await privatePki()).keyPem;
    writeFileSync(files.ca, pki.caPem);
    writeFileSync(files.cert, pki.certPem);
    writeFileSync(files.key, pki.keyPem, { mode: 0o600 });
    writeFileSync(files.otherKey, otherKeyPem, { mode: 0o600 });
    writeFileSync(files.garbage, "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5IGF0IGFsbA==\n-----END PRIVATE KEY-----\n");
    serve = await startServe(["--data-dir", dataDir, "--tls-cert", files.cert, "--tls-key", files.key]);
  }, 60_000);

  afterAll(async () => {
    await killHard(serve);
    rmSync(work, { recursive: true, force: true });
  });

  it("listens on https and answers /v1/health and /v1/ready to a client that trusts the CA", async () => {
    expect(serve!.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(await httpsGet(`${serve!.url}/v1/health`, pki.caPem)).toEqual({ status: 200, body: '{"ok":true}' });
    expect((await httpsGet(`${serve!.url}/v1/ready`, pki.caPem)).status).toBe(200);
  });

  it("is refused by a client that does not trust the CA, with a certificate error", async () => {
    const error = (await httpsGet(`${serve!.url}/v1/health`).catch((e: unknown) => e)) as NodeJS.ErrnoException;
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN/);
    const plain = (await fetch(`${serve!.url}/v1/health`).catch((e: unknown) => e)) as { cause?: { code?: string } };
    expect(plain.cause?.code).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN/);
  });

  it("serves the providers' HTTP client with the CA given as the provider launcher passes it", async () => {
    const { access_key, secret_key } = await createCredentials(dataDir);
    const previous = process.env[DEFERRED_CA_ENV];
    process.env[DEFERRED_CA_ENV] = files.ca;
    const client = createHttpClient({ endpoint: serve!.url, credentials: { accessKey: access_key, secretKey: secret_key } });
    try {
      const { body } = await client.services.create("tls-project", { name: "over-tls" });
      expect((await client.services.get("tls-project", body.id)).name).toBe("over-tls");
    } finally {
      await client.close();
      if (previous === undefined) delete process.env[DEFERRED_CA_ENV];
      else process.env[DEFERRED_CA_ENV] = previous;
    }
  });

  it("takes the two files from SCHEMAFORM_TLS_CERT and SCHEMAFORM_TLS_KEY as well", async () => {
    const fromEnv = await startServe(["--data-dir", join(work, "env-data")], { SCHEMAFORM_TLS_CERT: files.cert, SCHEMAFORM_TLS_KEY: files.key });
    try {
      expect(fromEnv.url).toMatch(/^https:/);
      expect((await httpsGet(`${fromEnv.url}/v1/health`, pki.caPem)).status).toBe(200);
      fromEnv.child.kill("SIGTERM");
      expect(await fromEnv.exited).toBe(0);
    } finally {
      await killHard(fromEnv);
    }
  });

  it("refuses to start with one of the two flags, naming the missing one", async () => {
    const onlyCert = await cli(["serve", "--port", "0", "--data-dir", dataDir, "--tls-cert", files.cert]);
    expect(onlyCert.code).toBe(2);
    expect(onlyCert.stderr).toContain("--tls-cert needs --tls-key");
    const onlyKey = await cli(["serve", "--port", "0", "--data-dir", dataDir, "--tls-key", files.key]);
    expect(onlyKey.code).toBe(2);
    expect(onlyKey.stderr).toContain("--tls-key needs --tls-cert");
  });

  it("refuses an unreadable, invalid or foreign key, naming the file and never printing the key", async () => {
    const missing = join(work, "missing.key");
    const cases: Array<[string, string, string]> = [
      [files.cert, missing, `cannot read the TLS private key file ${missing}: ENOENT`],
      [files.cert, files.garbage, `the TLS key file ${files.garbage} does not hold an unencrypted PEM private key`],
      [files.cert, files.otherKey, `the TLS key file ${files.otherKey} does not belong to the certificate in ${files.cert}`],
      [files.key, files.key, `the TLS certificate file ${files.key} does not hold a PEM certificate`],
    ];
    const keyBodies = [pki.keyPem, otherKeyPem].map((pem) => pem.split("\n")[1]!);
    for (const [cert, key, message] of cases) {
      const { code, stderr } = await cli(["serve", "--port", "0", "--data-dir", dataDir, "--tls-cert", cert, "--tls-key", key]);
      expect(code).toBe(2);
      expect(stderr).toContain(message);
      for (const body of keyBodies) expect(stderr).not.toContain(body);
    }
  });
});

describe("the TLS certificates platform/README.md tells a team to make", () => {
  it("its openssl commands make a CA and a server certificate that serve verifies and a client trusting the CA accepts for each name", async () => {
    const readme = readFileSync(join(ROOT, "platform", "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("**TLS certificates for a team server.**"));
    const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
    // every line but the last one (serve, which the test runs itself), as a user pastes them
    const commands = block.split("\n").filter((line) => !/^\s*schemaform platform serve/.test(line)).join("\n");
    const dir = tempDir("schemaform-readme-tls-");
    const made = spawnSync("bash", ["-euc", commands.replace(/^ {2}/gm, "")], { cwd: dir, encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);
    expect(statSync(join(dir, "server.key")).mode & 0o077).toBe(0);
    const serve = await startServe(["--data-dir", join(dir, "data"), "--tls-cert", join(dir, "server.pem"), "--tls-key", join(dir, "server.key")]);
    try {
      const port = Number(new URL(serve.url).port);
      const ca = readFileSync(join(dir, "ca.pem"), "utf8");
      for (const servername of ["platform.internal", "replica-1.internal", "replica-2.internal"]) {
        expect(await httpsGetAs(port, servername, ca)).toBe(200);
      }
      // a name the certificate does not list is refused
      const other = (await httpsGetAs(port, "elsewhere.internal", ca).catch((e: unknown) => e)) as NodeJS.ErrnoException;
      expect(other.code).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
    } finally {
      await killHard(serve);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** GET /v1/health on 127.0.0.1 as if reached by `servername` (the name the certificate must list). */
function httpsGetAs(port: number, servername: string, ca: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = get({ host: "127.0.0.1", port, path: "/v1/health", servername, ca, agent: false, checkServerIdentity: (_host, cert) => checkServerIdentity(servername, cert) }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
  });
}
