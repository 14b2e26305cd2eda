// The platform server: authentication, project scoping, errors on the wire, and the CLI around it.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { run as platformCommand } from "../../cli/commands/platform.js";
import { EmbeddedPlatform } from "../../platform/embedded.js";
import { createHttpClient } from "../../platform/http-client.js";
import { startServer } from "../../platform/server.js";
import { manualClock, rejection, startServerHarness, tempDir, type ServerHarness } from "./helpers.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("platform server authentication", () => {
  let h: ServerHarness;
  beforeAll(async () => {
    h = await startServerHarness();
  });
  afterAll(() => h.cleanup());

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${h.server.url}${path}`, { headers });
  const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString("base64")}`;

  it("answers 401 with a clear message and WWW-Authenticate when no credentials are sent", async () => {
    const response = await get("/tsdb/v1/projects/p1/services");
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/Bearer/);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("unauthenticated");
    expect(body.error.message).toMatch(/authentication required: send 'Authorization: Bearer/);
    const client = createHttpClient({ endpoint: h.server.url });
    const e = await rejection(() => client.services.list("p1"));
    expect(e.code).toBe("unauthenticated");
  });

  it("refuses a wrong secret key without echoing it, and accepts the right one (Basic)", async () => {
    const wrong = await get("/tsdb/v1/projects/p1/services", { authorization: basic(h.accessKey, "not-the-secret-xyz") });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain("not-the-secret-xyz");
    const right = await get("/tsdb/v1/projects/p1/services", { authorization: basic(h.accessKey, h.secretKey) });
    expect(right.status).toBe(200);
    expect(await right.json()).toEqual([]);
  });

  it("exchanges an access key and secret key for a bearer token; a tampered token is refused", async () => {
    const response = await fetch(`${h.server.url}/v1/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ access_key: h.accessKey, secret_key: h.secretKey }),
    });
    expect(response.status).toBe(200);
    const token = (await response.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(token.token_type).toBe("Bearer");
    expect(token.expires_in).toBe(3600);
    expect((await get("/tsdb/v1/products", { authorization: `Bearer ${token.access_token}` })).status).toBe(200);
    const tampered = `${token.access_token.slice(0, -2)}xx`;
    expect((await get("/tsdb/v1/products", { authorization: `Bearer ${tampered}` })).status).toBe(401);
  });

  it("limits a credential to its project (403) and ends its sessions when it is revoked", async () => {
    const core = await h.platform.core();
    const scoped = (await core.credentials.createKeyPair("team-a1", "scoped"));
    const client = createHttpClient({ endpoint: h.server.url, credentials: scoped });
    await client.services.create("team-a1", {});
    const e = await rejection(() => client.services.list("team-b1"));
    expect(e.code).toBe("unauthenticated");
    expect(e.message).toMatch(/belong to project team-a1 and cannot act on project team-b1/);
    (await core.credentials.revoke(scoped.accessKey));
    expect((await rejection(() => client.services.list("team-a1"))).code).toBe("unauthenticated");
  });

  it("accepts a long-lived access token (as the containerbackup provider sends)", async () => {
    const core = await h.platform.core();
    const { token } = (await core.credentials.createAccessToken("cb-project", "cb"));
    const client = createHttpClient({ endpoint: h.server.url, credentials: { accessToken: token } });
    const { body } = await client.restoreChannels.create({ destination_project: "projects/dest-project", location: "us-central1" }, { defaultProject: "cb-project" });
    expect(body.id).toMatch(/^projects\/cb-project\//);
    expect((await rejection(() => client.restoreChannels.create({ destination_project: "projects/dest-project", location: "us-central1", project: "other-project" }))).code).toBe(
      "unauthenticated",
    );
  });

  it("answers unknown paths with 404 and wrong methods with 405, as JSON", async () => {
    const missing = await get("/tsdb/v1/nothing-here", { authorization: basic(h.accessKey, h.secretKey) });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not_found");
    const wrong = await fetch(`${h.server.url}/tsdb/v1/products`, { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect((await get("/v1/health")).status).toBe(200);
  });

  it("offers every PlatformClient method over HTTP", async () => {
    const names = (client: object) =>
      Object.entries(client)
        .filter(([, v]) => v && typeof v === "object")
        .flatMap(([family, v]) => Object.keys(v as object).map((m) => `${family}.${m}`))
        .sort();
    expect(names(h.client)).toEqual(names(h.platform));
  });
});

describe("session tokens expire and the HTTP client renews them", () => {
  it("renews after a 401 on an expired session", async () => {
    const clock = manualClock(Date.now());
    const dataDir = tempDir();
    const platform = new EmbeddedPlatform({ dataDir, clock: clock.now, transitionSeconds: 0 });
    const server = await startServer({ platform, port: 0 });
    try {
      const creds = (await (await platform.core()).credentials.createKeyPair(null));
      const client = createHttpClient({ endpoint: server.url, credentials: creds });
      await client.services.list("p1");
      clock.advance(2 * 3600 * 1000); // the server now considers the session expired
      expect(await client.services.list("p1")).toEqual([]);
    } finally {
      await server.close();
      await platform.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("schemaform platform (CLI)", () => {
  it("credentials create prints the secret once and stores only a hash", async () => {
    const dataDir = tempDir();
    const out: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });
    try {
      expect(await platformCommand(["credentials", "create", "--project", "cli-project", "--data-dir", dataDir, "--json"])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    const printed = JSON.parse(out.join("")) as { access_key: string; secret_key: string; project: string };
    expect(printed.project).toBe("cli-project");
    expect(printed.access_key).toMatch(/^SFAK[A-Z0-9]{16}$/);
    for (const file of readdirSync(dataDir)) expect(readFileSync(join(dataDir, file)).includes(Buffer.from(printed.secret_key))).toBe(false);
    const platform = new EmbeddedPlatform({ dataDir });
    try {
      const core = await platform.core();
      expect(await core.credentials.verifyKeyPair(printed.access_key, printed.secret_key)).toMatchObject({ project: "cli-project" });
      expect(await core.credentials.verifyKeyPair(printed.access_key, "wrong")).toBeUndefined();
    } finally {
      await platform.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("credentials --help and credentials create --help print the usage and exit 0", async () => {
    for (const argv of [["credentials", "--help"], ["credentials", "create", "--help"]]) {
      let out = "";
      const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
        out += String(chunk);
        return true;
      });
      try {
        expect(await platformCommand(argv)).toBe(0);
      } finally {
        spy.mockRestore();
      }
      expect(out).toContain("schemaform platform credentials create --project ID");
    }
  });

  it("refuses credentials create without a project", async () => {
    const dataDir = tempDir();
    const spy = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(await platformCommand(["credentials", "create", "--data-dir", dataDir])).toBe(2);
    } finally {
      spy.mockRestore();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("refuses storage flags that do not go together, and a database without the shared secrets key", async () => {
    const cases: Array<[string[], string]> = [
      [["serve", "--data-dir", "x", "--database", "postgres://db.invalid/p"], "not both"],
      [["serve", "--secrets-key-file", "k"], "--secrets-key-file goes with --database"],
      [["serve", "--database", "mysql://db.invalid/p"], "must be a PostgreSQL URL"],
      [["credentials", "list", "--database", "postgres://db.invalid/p"], "openssl rand -base64 32"],
    ];
    for (const [argv, message] of cases) {
      let err = "";
      const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
        err += String(chunk);
        return true;
      });
      const saved = { url: process.env.SCHEMAFORM_DATABASE_URL, file: process.env.SCHEMAFORM_SECRETS_KEY_FILE, key: process.env.SCHEMAFORM_SECRETS_KEY };
      delete process.env.SCHEMAFORM_DATABASE_URL;
      delete process.env.SCHEMAFORM_SECRETS_KEY_FILE;
      delete process.env.SCHEMAFORM_SECRETS_KEY;
      try {
        expect(await platformCommand(argv)).toBe(2);
      } finally {
        spy.mockRestore();
        for (const [name, value] of [["SCHEMAFORM_DATABASE_URL", saved.url], ["SCHEMAFORM_SECRETS_KEY_FILE", saved.file], ["SCHEMAFORM_SECRETS_KEY", saved.key]] as const) {
          if (value !== undefined) process.env[name] = value;
        }
      }
      expect(err).toContain(message);
    }
  });

  it("serve listens on 127.0.0.1, answers, and stops on SIGTERM", async () => {
    const dataDir = tempDir();
    const child = spawn(process.execPath, ["--import", "tsx", "cli/main.ts", "platform", "serve", "--port", "0", "--data-dir", dataDir, "--quiet"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let text = "";
        child.stdout.on("data", (d) => {
          text += d;
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
          if (m) resolve(m[1]!);
        });
        child.on("exit", (code) => reject(new Error(`serve exited early with ${code}`)));
      });
      expect((await fetch(`${url}/v1/health`)).status).toBe(200);
      expect((await fetch(`${url}/tsdb/v1/products`)).status).toBe(401);
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
