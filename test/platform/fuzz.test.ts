// Fuzzing the platform server's HTTP API: mutated bodies, paths and headers, sent as written. The
// server must answer every request below 500, stay up, and leave Object.prototype as it was.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTES } from "../../platform/routes.js";
import { startServerHarness, type ServerHarness } from "./helpers.js";
import { rawRequest } from "./raw-http.js";

const P = "fuzz-project";
const printable = (max: number) => fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: max });
// characters Node lets a request path carry (visible Latin-1), percent signs and slashes weighted up
const pathText = fc.string({
  unit: fc.oneof(fc.constantFrom("%", "/", "%2F", "%zz", "%E0%A4", "..", "?", "#", "{", "}"), fc.integer({ min: 0x21, max: 0xff }).map((c) => String.fromCharCode(c))),
  maxLength: 12,
});

/** A body the API would accept for some route, to start mutations from. */
const plausibleBody = fc.constantFrom<Record<string, unknown>>(
  { name: "db", milli_cpu: 1000, memory_gb: 4 },
  { cidr: "10.0.0.0/16", region_code: "us-east-1" },
  { password: "pw-123456789" },
  { restore_channel: { location: "us-central1", destination_project: "projects/restore-target", labels: { a: "b" } }, options: { defaultProject: P } },
  { patch: { description: "x" }, etag: "e" },
  { platform_vpc_id: 1001, peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_vpc_id: "vpc-0a1b2c3d", peer_cidr_blocks: ["10.0.0.0/16"] },
  { service_id: "x", name: "n", config: {} },
);

/** Puts `value` under `key` somewhere inside `body` (at the top or inside a nested object). */
function insert(body: Record<string, unknown>, path: number, key: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  let target: Record<string, unknown> = copy;
  for (let i = 0; i < path; i++) {
    const nested = Object.values(target).find((v): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v));
    if (!nested) break;
    target = nested;
  }
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

const bodyText: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? "null"),
  fc
    .tuple(plausibleBody, fc.nat(3), fc.oneof(fc.constantFrom(...Object.getOwnPropertyNames(Object.prototype), "prototype"), printable(10)), fc.jsonValue({ maxDepth: 3 }))
    .map(([body, depth, key, value]) => JSON.stringify(insert(body, depth, key, value))),
  fc.tuple(fc.integer({ min: 1, max: 5_000 }), fc.constantFrom("[", '{"a":', '{"__proto__":')).map(([depth, open]) => `${open.repeat(depth)}1${(open === "[" ? "]" : "}").repeat(depth)}`),
  fc.tuple(plausibleBody, fc.nat(40), fc.nat(40)).map(([body, from, to]) => {
    const text = JSON.stringify(body);
    return text.slice(0, from) + text.slice(Math.min(text.length, from + to)); // truncated or cut JSON
  }),
  printable(40),
);

const routePath = fc.tuple(fc.constantFrom(...ROUTES), fc.array(pathText, { minLength: 1, maxLength: 6 }), fc.option(printable(30))).map(([route, fills, query]) => {
  let i = 0;
  const path = route.path.replace(/\{[^}]+\}/g, () => fills[i++ % fills.length] || P);
  return query === null ? path : `${path}?${query.replace(/ /g, "+").replace(/#/g, "%23")}`;
});
const anyPath = fc.oneof(routePath, pathText.map((p) => `/${p}`), fc.constantFrom("/v1/health", "/v1/auth/token", "//v1/health", "/tsdb/v1/products"));

describe("platform server fuzzing", () => {
  let h: ServerHarness;
  let token: string;
  const log: string[] = [];
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
  /** path parameter -> the id of an object that exists, so that updates reach the code behind the look-up */
  const existing: Record<string, string> = { project: P };

  beforeAll(async () => {
    // rate limits out of the way: the point is to reach the handlers behind them
    const unlimited = { burst: 1e9, perSecond: 1e9 };
    h = await startServerHarness({ server: { log: (line) => log.push(line), rateLimits: { creates: unlimited, passwordChecks: unlimited } } });
    token = (await (await h.platform.core()).credentials.createAccessToken(null, "fuzz")).token;
    const channel = (await h.client.restoreChannels.create({ name: "c1", location: "us-central1", destination_project: "projects/restore-target" }, { defaultProject: P })).body;
    existing.name = channel.id;
    existing.services = (await h.client.services.create(P, { name: "fuzzed" })).body.id;
    existing.vpcs = String((await h.client.vpcs.create(P, { cidr: "10.9.0.0/16", region_code: "us-east-1" })).body.id);
  });
  const fill = (route: (typeof ROUTES)[number]) =>
    route.path.replace(/\{([a-z_]+)(?:=[^}]+)?\}/g, (_m, param: string) => existing[param] ?? existing[route.op.split(".")[0]!] ?? P);
  afterAll(() => h.cleanup());

  const authorization = () =>
    fc.oneof(
      fc.constant(`Bearer ${token}`),
      fc.constant(`Basic ${Buffer.from(`${h.accessKey}:${h.secretKey}`).toString("base64")}`),
      printable(8).map((junk) => `Bearer ${token}${junk}`),
      printable(60),
      fc.base64String({ maxLength: 40 }).map((b) => `Basic ${b}`),
    );
  const headers = () =>
    fc.record(
      {
        authorization: authorization(),
        "content-type": fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", "application/jsonx", ""),
        "idempotency-key": printable(20),
        accept: printable(20),
      },
      { requiredKeys: ["authorization", "content-type"] },
    );

  it("answers mutated requests with no 5xx and leaves Object.prototype alone", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("GET", "POST", "PATCH", "DELETE", "PUT"), anyPath, headers(), bodyText, async (method, path, sent, body) => {
        const answer = await rawRequest(h.server.url, method, path, sent, method === "GET" ? undefined : body);
        expect(answer.status, `${method} ${path}`).toBeGreaterThanOrEqual(200);
        expect(answer.status, `${method} ${path} ${body.slice(0, 200)} -> ${answer.text.slice(0, 300)}`).toBeLessThan(500);
        expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
      }),
      { numRuns: 600 },
    );
    expect((await rawRequest(h.server.url, "GET", "/v1/health")).status).toBe(200);
    expect(log.filter((line) => line.startsWith("internal error"))).toEqual([]);
    expect(log.join("\n")).not.toContain(token);
  });

  it("answers mutated bodies sent to every route that takes one, signed in, with no 5xx", async () => {
    const withBody = ROUTES.filter((r) => r.method === "POST" || r.method === "PATCH");
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...withBody), bodyText, async (route, body) => {
        const path = fill(route);
        const answer = await rawRequest(h.server.url, route.method, path, { authorization: `Bearer ${token}`, "content-type": "application/json" }, body);
        expect(answer.status, `${route.method} ${path} ${body.slice(0, 200)} -> ${answer.text.slice(0, 300)}`).toBeLessThan(500);
      }),
      { numRuns: 600 },
    );
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
    expect(({} as Record<string, unknown>).a).toBeUndefined();
    expect((await rawRequest(h.server.url, "GET", "/v1/health")).status).toBe(200);
  });
});
