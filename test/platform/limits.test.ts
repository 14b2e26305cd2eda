// What the platform server does for a greedy or slow client: per-credential rate limits (429 with
// Retry-After) on creates and password checks, a cap on connections, and timeouts for a client
// that never finishes its request. Functional only; how fast the server stays is in bench/.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../../platform/server.js";
import { startServerHarness, type ServerHarness } from "./helpers.js";
import { rawExchange, rawRequest } from "./raw-http.js";

const P = "limits-project";

describe("platform server: per-credential rate limits", () => {
  let h: ServerHarness;
  let tokens: string[];
  beforeAll(async () => {
    h = await startServerHarness({ server: { rateLimits: { creates: { burst: 3, perSecond: 0.2 }, passwordChecks: { burst: 2, perSecond: 0.1 } } } });
    const core = await h.platform.core();
    tokens = [(await core.credentials.createAccessToken(null, "one")).token, (await core.credentials.createAccessToken(null, "two")).token];
  });
  afterAll(() => h.cleanup());

  const call = (token: string, path: string, body: unknown) =>
    rawRequest(h.server.url, "POST", path, { authorization: `Bearer ${token}`, "content-type": "application/json" }, JSON.stringify(body));

  it("answers creates beyond the burst with 429 and Retry-After, for that credential only", async () => {
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 5; i++) {
      const answer = await call(tokens[0]!, `/tsdb/v1/projects/${P}/vpcs`, { name: `vpc-${i}`, cidr: `10.${i}.0.0/16`, region_code: "us-east-1" });
      statuses.push(answer.status);
      if (answer.status === 429) limited ??= answer;
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    expect(Number(limited!.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(limited!.text).error).toMatchObject({ code: "rate_limited", message: expect.stringMatching(/^too many creates with this credential \(at most 3 at once, then 0\.2 per second\); retry in \d+ s$/) });
    // another credential, another bucket; reads are never limited
    expect((await call(tokens[1]!, `/tsdb/v1/projects/${P}/services`, {})).status).toBe(201);
    expect((await rawRequest(h.server.url, "GET", `/tsdb/v1/projects/${P}/vpcs`, { authorization: `Bearer ${tokens[0]}` })).status).toBe(200);
  });

  it("limits password checks, and a session token counts against its access key", async () => {
    const { body: service } = await h.client.services.create(P, { password: "a-first-password" });
    const path = `/tsdb/v1/projects/${P}/services/${service.id}/checkPassword`;
    // the harness's client signs in with the key pair; the session below is another one of that pair
    expect(await h.client.services.checkPassword(P, service.id, "guess-1")).toBe(false);
    expect(await h.client.services.checkPassword(P, service.id, "guess-2")).toBe(false);
    const session = (await (
      await fetch(`${h.server.url}/v1/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ access_key: h.accessKey, secret_key: h.secretKey }) })
    ).json()) as { access_token: string };
    const third = await call(session.access_token, path, { password: "a-first-password" });
    expect(third.status).toBe(429);
    expect(JSON.parse(third.text).error.message).toMatch(/^too many password checks with this credential/);
    expect(Number(third.headers["retry-after"])).toBeGreaterThanOrEqual(1);
  });
});

describe("platform server: connections and timeouts", () => {
  it(`sets its timeouts and connection cap on purpose (defaults ${JSON.stringify(DEFAULT_LIMITS)})`, async () => {
    const h = await startServerHarness();
    try {
      const { server } = h.server;
      expect({
        headersTimeoutMs: server.headersTimeout,
        requestTimeoutMs: server.requestTimeout,
        keepAliveTimeoutMs: server.keepAliveTimeout,
        maxConnections: server.maxConnections,
      }).toEqual(DEFAULT_LIMITS);
    } finally {
      await h.cleanup();
    }
  });

  it("cuts off a client that never finishes its headers or its body", async () => {
    const h = await startServerHarness({ server: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    try {
      const slowHeaders = await rawExchange(h.server.url, "GET /v1/health HTTP/1.1\r\nHost: x\r\n", 10_000);
      expect(slowHeaders).toMatch(/^HTTP\/1\.1 408 /);
      const slowBody = await rawExchange(h.server.url, `POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"access_key":`, 10_000);
      expect(slowBody).toMatch(/^HTTP\/1\.1 408 /);
      expect((await rawRequest(h.server.url, "GET", "/v1/health")).status).toBe(200);
    } finally {
      await h.cleanup();
    }
  });

  it("closes connections beyond the cap as they arrive, and serves again once one is free", async () => {
    const h = await startServerHarness({ server: { maxConnections: 2 } });
    const { connect } = await import("node:net");
    const { port } = new URL(h.server.url);
    const held = await Promise.all(
      [0, 1].map(
        () =>
          new Promise<import("node:net").Socket>((resolve) => {
            const socket = connect(Number(port), "127.0.0.1", () => resolve(socket));
          }),
      ),
    );
    try {
      // wait until the server has counted both
      for (let i = 0; i < 100 && (await new Promise<number>((r) => h.server.server.getConnections((_e, n) => r(n)))) < 2; i++) await new Promise((r) => setTimeout(r, 10));
      const refused = await rawExchange(h.server.url, "GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 5_000);
      expect(refused).toBe("");
      for (const socket of held) socket.destroy();
      for (let i = 0; i < 100 && (await new Promise<number>((r) => h.server.server.getConnections((_e, n) => r(n)))) > 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect((await rawRequest(h.server.url, "GET", "/v1/health")).status).toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
      await h.cleanup();
    }
  });
});
