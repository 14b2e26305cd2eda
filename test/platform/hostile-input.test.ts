// Hostile input to the platform server gets a 4xx with a message saying what is wrong, never a
// 5xx, never a side effect, and the server stays up: the cases a probe of the server found.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../../platform/json-input.js";
import { startServerHarness, type ServerHarness } from "./helpers.js";
import { rawExchange, rawRequest } from "./raw-http.js";

const P = "hostile-project";
const SERVICES = `/tsdb/v1/projects/${P}/services`;

describe("platform server: hostile input", () => {
  let h: ServerHarness;
  let token: string;
  const log: string[] = [];
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();

  beforeAll(async () => {
    h = await startServerHarness({ server: { log: (line) => log.push(line) } });
    token = (await (await h.platform.core()).credentials.createAccessToken(null, "hostile")).token;
  });
  afterAll(() => h.cleanup());

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    rawRequest(h.server.url, "POST", path, { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers }, body);
  const message = (text: string) => (JSON.parse(text) as { error: { code: string; message: string } }).error;

  it("refuses bodies that are not JSON objects, and creates nothing for them", async () => {
    for (const [body, shown] of [
      ["null", "null"],
      ["42", "a number"],
      ['"db"', "a string"],
      ["[]", "an array"],
      ["true", "a boolean"],
    ]) {
      const answer = await post(SERVICES, body!);
      expect(answer.status, body).toBe(400);
      expect(message(answer.text)).toEqual({ code: "invalid", message: `the request body must be a JSON object, not ${shown}` });
    }
    expect((await post(SERVICES, "")).status).toBe(400);
    expect(await h.client.services.list(P)).toEqual([]);
  });

  it("refuses __proto__, constructor and prototype keys, with object or string values, anywhere in a body", async () => {
    const bodies = [
      '{"__proto__": {"polluted": true}}',
      '{"__proto__": "x"}',
      '{"constructor": {"prototype": {"polluted": true}}}',
      '{"constructor": "x"}',
      '{"name": "db", "prototype": 1}',
      '{"name": "db", "timeouts": {"__proto__": {"create": "1m"}}}',
      '{"name": "db", "\\u005f_proto__": {"polluted": true}}',
    ];
    for (const body of bodies) {
      const answer = await post(SERVICES, body);
      expect(answer.status, body).toBe(400);
      expect(message(answer.text).message, body).toMatch(/^the request body uses the key "(__proto__|constructor|prototype)" \(at [a-z_.]+\), which the platform never accepts/);
    }
    const label = await post("/containerbackup/v1/restoreChannels", JSON.stringify({ restore_channel: { location: "us-central1", labels: { team: "a" } } }).replace('"team"', '"constructor"'));
    expect(label.status).toBe(400);
    expect(message(label.text).message).toContain("(at restore_channel.labels.constructor)");
    expect(await h.client.services.list(P)).toEqual([]);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels (200,000 deep too) without overflowing, and the server stays up`, async () => {
    const deepArray = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    const deepObject = `${'{"":'.repeat(200_000)}1${"}".repeat(200_000)}`;
    for (const body of [deepArray, deepObject, `{"name": ${deepArray}}`]) {
      const answer = await post(SERVICES, body);
      expect(answer.status).toBe(400);
      expect(message(answer.text).message).toBe(`the request body is nested more than ${MAX_JSON_DEPTH} levels deep (objects and arrays); the platform accepts at most ${MAX_JSON_DEPTH}`);
    }
    // at the limit the body is read, and refused for what it says instead
    const atLimit = await post(SERVICES, `{"name": ${"[".repeat(MAX_JSON_DEPTH - 1)}${"]".repeat(MAX_JSON_DEPTH - 1)}}`);
    expect(atLimit.status).toBe(400);
    expect(message(atLimit.text).message).not.toMatch(/nested/);
    // brackets inside strings are text, not nesting
    const service = (await h.client.services.create(P, { name: "brackets" })).body;
    const check = await post(`${SERVICES}/${service.id}/checkPassword`, JSON.stringify({ password: "[{".repeat(50_000) }));
    expect(check.status).toBe(200);
    expect(JSON.parse(check.text)).toBe(false);
    expect((await rawRequest(h.server.url, "GET", "/v1/health")).status).toBe(200);
  });

  it("refuses a malformed percent-encoding in the path: 401 without credentials, 400 with them", async () => {
    for (const path of [`/tsdb/v1/projects/p%zz/services`, `/tsdb/v1/projects/p%E0%A4%A/services`, `${SERVICES}/%`, "/containerbackup/v1/projects/x/locations/%ff/restoreChannels/y"]) {
      const anonymous = await rawRequest(h.server.url, "GET", path);
      expect(anonymous.status, path).toBe(401);
      const signedIn = await rawRequest(h.server.url, "GET", path, { authorization: `Bearer ${token}` });
      expect(signedIn.status, path).toBe(400);
      expect(message(signedIn.text).message).toMatch(/^the path parameter [a-z]+ is not valid percent-encoding/);
    }
    // a well-formed encoding still reaches the route
    expect((await rawRequest(h.server.url, "GET", `/tsdb/v1/projects/${P}/services/no%2Dsuch`, { authorization: `Bearer ${token}` })).status).toBe(404);
    const absolute = await rawExchange(h.server.url, "GET http://[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(absolute).toMatch(/^HTTP\/1\.1 400 /);
  });

  it("parses Authorization strictly: anything after the credential is a 401", async () => {
    const get = (authorization: string) => rawRequest(h.server.url, "GET", SERVICES, { authorization });
    const basic = Buffer.from(`${h.accessKey}:${h.secretKey}`).toString("base64");
    expect((await get(`Bearer ${token}`)).status).toBe(200);
    expect((await get(`bearer ${token}`)).status).toBe(200);
    expect((await get(`Basic ${basic}`)).status).toBe(200);
    for (const bad of [`Bearer ${token} junk`, `Bearer ${token},x`, `Bearer ${token}\tjunk`, `Basic ${basic} junk`, `Bearer`, `Bearer ${token} ${token}`, `Token ${token}`]) {
      const answer = await get(bad);
      expect(answer.status, bad.replace(token, "<token>")).toBe(401);
      expect(answer.headers["www-authenticate"]).toMatch(/Bearer/);
      expect(answer.text).not.toContain(token);
    }
  });

  it("logs a client that hangs up mid-request as aborted, not as an internal error", async () => {
    const partial = `POST ${SERVICES} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`;
    const { connect } = await import("node:net");
    const { port } = new URL(h.server.url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), "127.0.0.1", () => socket.write(partial, () => setTimeout(() => socket.destroy(), 100)));
      socket.on("close", () => resolve());
    });
    const deadline = Date.now() + 5_000;
    while (!log.some((line) => line.includes("aborted")) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(log.filter((line) => line.startsWith(`POST ${SERVICES} `))).toContainEqual(expect.stringMatching(new RegExp(`^POST ${SERVICES} aborted by the client \\d+ms$`)));
    expect(log.filter((line) => line.startsWith("internal error"))).toEqual([]);
    expect(log.join("\n")).not.toContain(token);
  });

  it("never answered any of the above with a 5xx", () => {
    expect(log.filter((line) => / 5\d\d \d+ms$/.test(line))).toEqual([]);
  });
});
