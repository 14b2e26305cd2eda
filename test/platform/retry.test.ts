// Requests that fail transiently are repeated, and a repeated create never makes a second object:
// the server honours Idempotency-Key (also after a restart on the same data), the HTTP client
// retries with backoff within its budget and sends one key for every attempt of a call.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { withCallBudget } from "../../platform/call-budget.js";
import { EmbeddedPlatform } from "../../platform/embedded.js";
import { createHttpClient } from "../../platform/http-client.js";
import { backoffDelay } from "../../platform/retry.js";
import { startServer, type RunningServer } from "../../platform/server.js";
import { rejection, tempDir } from "./helpers.js";

const P = "retry-project";

interface World {
  dataDir: string;
  platform: EmbeddedPlatform;
  server: RunningServer;
  auth: string;
}

const worlds: World[] = [];

async function start(dataDir = tempDir(), port = 0, auth?: string): Promise<World> {
  const platform = new EmbeddedPlatform({ dataDir, transitionSeconds: 0 });
  const server = await startServer({ platform, port });
  if (!auth) {
    const { accessKey, secretKey } = (await (await platform.core()).credentials.createKeyPair(null, "tests"));
    auth = `Basic ${Buffer.from(`${accessKey}:${secretKey}`).toString("base64")}`;
  }
  const world = { dataDir, platform, server, auth };
  worlds.push(world);
  return world;
}

async function stop(world: World): Promise<void> {
  await world.server.close();
  await world.platform.close();
}

afterEach(async () => {
  for (const world of worlds.splice(0)) {
    await stop(world).catch(() => undefined);
    rmSync(world.dataDir, { recursive: true, force: true });
  }
});

function createService(world: World, key: string | undefined, body: object = { name: "one" }, auth = world.auth): Promise<Response> {
  const headers: Record<string, string> = { authorization: auth, "content-type": "application/json" };
  if (key) headers["idempotency-key"] = key;
  return fetch(`${world.server.url}/tsdb/v1/projects/${P}/services`, { method: "POST", headers, body: JSON.stringify(body) });
}

async function serviceCount(world: World): Promise<number> {
  return (await world.platform.services.list(P)).length;
}

describe("Idempotency-Key on the platform server", () => {
  it("answers a repeated create with the first answer and makes one object", async () => {
    const world = await start();
    const first = await createService(world, "key-1");
    const again = await createService(world, "key-1");
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    const a = (await first.json()) as { body: { id: string; password: string } };
    const b = (await again.json()) as { body: { id: string; password: string } };
    expect(b.body.id).toBe(a.body.id);
    expect(b.body.password).toBe(a.body.password);
    expect(await serviceCount(world)).toBe(1);
    // Without a key, or with another key, it is a new create.
    expect((await createService(world, undefined)).status).toBe(201);
    expect((await createService(world, "key-2")).status).toBe(201);
    expect(await serviceCount(world)).toBe(3);
  });

  it("answers repeats that arrive while the first request is still being served with the same object", async () => {
    const world = await start();
    const answers = await Promise.all(Array.from({ length: 8 }, () => createService(world, "same-key").then((r) => r.json() as Promise<{ body: { id: string } }>)));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await serviceCount(world)).toBe(1);
  });

  it("remembers keys across a restart on the same data, and keeps the stored answer encrypted", async () => {
    const world = await start();
    const first = (await (await createService(world, "before-restart")).json()) as { body: { id: string; password: string } };
    await stop(world);
    const restarted = await start(world.dataDir, 0, world.auth);
    const again = await createService(restarted, "before-restart");
    expect(again.status).toBe(201);
    expect(((await again.json()) as { body: { id: string } }).body.id).toBe(first.body.id);
    expect(await serviceCount(restarted)).toBe(1);
    await stop(restarted);
    const bytes = Buffer.concat(readdirSync(world.dataDir).map((f) => readFileSync(join(world.dataDir, f))));
    expect(bytes.includes(Buffer.from(first.body.password))).toBe(false);
  });

  it("refuses a key reused for a different request (409) and keeps keys apart per credential", async () => {
    const world = await start();
    expect((await createService(world, "k", { name: "one" })).status).toBe(201);
    const reused = await createService(world, "k", { name: "two" });
    expect(reused.status).toBe(409);
    expect(((await reused.json()) as { error: { message: string } }).error.message).toMatch(/already used for a different request/);
    const other = (await (await world.platform.core()).credentials.createKeyPair(null, "another"));
    const otherAuth = `Basic ${Buffer.from(`${other.accessKey}:${other.secretKey}`).toString("base64")}`;
    expect((await createService(world, "k", { name: "one" }, otherAuth)).status).toBe(201);
    expect(await serviceCount(world)).toBe(2);
  });

  it("refuses a malformed key with 400", async () => {
    const world = await start();
    expect((await createService(world, "x".repeat(300))).status).toBe(400);
    expect(await serviceCount(world)).toBe(0);
  });
});

describe("the HTTP client under transient failures", () => {
  it("waits for a server that is restarting, and its call succeeds", async () => {
    const world = await start();
    const port = world.server.port;
    const [accessKey, secretKey] = Buffer.from(world.auth.slice(6), "base64").toString().split(":") as [string, string];
    const client = createHttpClient({ endpoint: world.server.url, credentials: { accessKey, secretKey } });
    const { body } = await client.services.create(P, { name: "before" });
    await stop(world);
    const started = Date.now();
    const pending = client.services.get(P, body.id);
    await new Promise((r) => setTimeout(r, 1500));
    await start(world.dataDir, port, world.auth);
    expect((await pending).id).toBe(body.id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
  });

  it("repeats a create whose answer was lost with the same key: one object, and the caller gets it", async () => {
    const world = await start();
    const [accessKey, secretKey] = Buffer.from(world.auth.slice(6), "base64").toString().split(":") as [string, string];
    const keys: string[] = [];
    let dropped = 0;
    // The request reaches the real server and is served; the connection then dies before the
    // answer is read, as when the server is killed or a proxy resets it.
    const losingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === "POST" && String(input).endsWith("/services")) {
        keys.push(new Headers(init.headers).get("idempotency-key") ?? "");
        if (dropped++ === 0) {
          await response.body?.cancel();
          throw new TypeError("fetch failed", { cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }) });
        }
      }
      return response;
    };
    const client = createHttpClient({ endpoint: world.server.url, credentials: { accessKey, secretKey }, fetch: losingFetch });
    const { body } = await client.services.create(P, { name: "lost-answer" });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    const services = await world.platform.services.list(P);
    expect(services.map((s) => s.id)).toEqual([body.id]);
  });

  it("repeats 503 answers, honouring Retry-After, then reports the status when they persist", async () => {
    const world = await start();
    const [accessKey, secretKey] = Buffer.from(world.auth.slice(6), "base64").toString().split(":") as [string, string];
    let refusals = 2;
    const busyFetch: typeof fetch = async (input, init) => {
      if (String(input).includes("/services") && refusals-- > 0) return new Response(null, { status: 503, headers: { "retry-after": "1" } });
      return fetch(input, init);
    };
    const client = createHttpClient({ endpoint: world.server.url, credentials: { accessKey, secretKey }, fetch: busyFetch });
    const started = Date.now();
    expect(await client.services.list(P)).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);

    const alwaysBusy: typeof fetch = async () => new Response(JSON.stringify({ error: { code: "x", message: "overloaded" } }), { status: 503 });
    const hopeless = createHttpClient({ endpoint: world.server.url, credentials: { accessToken: "t" }, fetch: alwaysBusy, retryForMs: 700 });
    const e = await rejection(() => hopeless.services.list(P));
    expect(e.message).toMatch(/HTTP 503/);
  });

  it("gives up when the operation's budget is spent, saying how often it tried", async () => {
    const world = await start();
    const url = world.server.url;
    await stop(world);
    const client = createHttpClient({ endpoint: url, credentials: { accessToken: "t" } });
    const started = Date.now();
    const e = await rejection(() => withCallBudget({ deadline: Date.now() + 1000 }, () => client.services.list(P)));
    const spent = Date.now() - started;
    expect(e.message).toMatch(/cannot reach the platform at .*: ECONNREFUSED \(\d+ attempts over \d+\.\d s\)/);
    expect(spent).toBeGreaterThanOrEqual(700);
    expect(spent).toBeLessThan(10_000); // far below the client's own 30 s: the budget ruled
  });

  it("stops retrying at once when the operation is cancelled", async () => {
    const world = await start();
    const url = world.server.url;
    await stop(world);
    const client = createHttpClient({ endpoint: url, credentials: { accessToken: "t" } });
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 300);
    const started = Date.now();
    const e = await rejection(() => withCallBudget({ deadline: Date.now() + 60_000, signal: cancel.signal }, () => client.services.list(P)));
    expect(e.message).toMatch(/cancelled/);
    expect(Date.now() - started).toBeLessThan(10_000); // not the 60 s of the budget
  });

  it("backs off exponentially up to a cap, with jitter", () => {
    expect(backoffDelay(1, undefined, () => 0)).toBe(50);
    expect(backoffDelay(1, undefined, () => 1)).toBe(100);
    expect(backoffDelay(3, undefined, () => 1)).toBe(400);
    expect(backoffDelay(30, undefined, () => 1)).toBe(2000);
    expect(backoffDelay(30, undefined, () => 0)).toBe(1000);
  });
});
