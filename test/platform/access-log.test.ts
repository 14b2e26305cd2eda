// `schemaform platform serve --access-log FILE`: one JSON line per request, with what an operator
// needs to follow a request (time, method, path, status, duration, sizes, request id, project,
// credential id) and nothing that could be a secret (tokens, secret keys, bodies, query values).
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AccessLogEntry } from "../../platform/access-log.js";
import { startServerHarness, tempDir } from "./helpers.js";
import { createCredentials, runPlatformCli } from "./run-cli.js";
import { killHard, startServe, type ServeProcess } from "./serve-process.js";

const PROJECT = "logged-project";

describe("the JSON access log of platform serve", () => {
  const work = tempDir("schemaform-access-log-");
  let serve: ServeProcess | undefined;
  afterAll(async () => {
    await killHard(serve);
    rmSync(work, { recursive: true, force: true });
  });

  it("writes one parseable line per request, with ids and sizes, and never a token, a secret key, a password or a query value", async () => {
    const dataDir = join(work, "data");
    const logFile = join(work, "access.log");
    const { access_key, secret_key } = await createCredentials(dataDir);
    serve = await startServe(["--data-dir", dataDir, "--access-log", logFile]);
    const url = serve.url;
    const json = { "content-type": "application/json" };

    const requests: Array<{ method: string; path: string; status: number; credential?: string; project?: string; requestId?: string }> = [];
    const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
      const response = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      await response.arrayBuffer();
      return response;
    };

    let r = await call("GET", "/v1/health", {});
    requests.push({ method: "GET", path: "/v1/health", status: r.status });
    r = await call("POST", "/v1/auth/token", json, { access_key, secret_key });
    requests.push({ method: "POST", path: "/v1/auth/token", status: 200, credential: access_key });
    const session = ((await (await fetch(`${url}/v1/auth/token`, { method: "POST", headers: json, body: JSON.stringify({ access_key, secret_key }) })).json()) as { access_token: string }).access_token;
    requests.push({ method: "POST", path: "/v1/auth/token", status: 200, credential: access_key });
    const bearer = { ...json, authorization: `Bearer ${session}` };

    const services = `/tsdb/v1/projects/${PROJECT}/services`;
    r = await call("GET", `${services}?secret_query_value=query-secret-42`, { ...bearer, "x-request-id": "lb-request-7" });
    expect(r.headers.get("x-request-id")).toBe("lb-request-7");
    requests.push({ method: "GET", path: services, status: 200, credential: access_key, project: PROJECT, requestId: "lb-request-7" });
    const created = await fetch(`${url}${services}`, { method: "POST", headers: bearer, body: JSON.stringify({ name: "logged", password: "service-password-99" }) });
    const serviceId = ((await created.json()) as { body: { id: string } }).body.id;
    requests.push({ method: "POST", path: services, status: 201, credential: access_key, project: PROJECT });
    const connectors = `/tsdb/v1/projects/${PROJECT}/srcDbConnectors`;
    r = await call("POST", connectors, { ...bearer, "idempotency-key": "idem-1" }, { service_id: serviceId, display_name: "db", connection_string: "postgres://replicator:conn-password-xyz@db.internal/orders" });
    requests.push({ method: "POST", path: connectors, status: 201, credential: access_key, project: PROJECT });
    r = await call("GET", services, { authorization: "Bearer not-a-real-token-abcdef" });
    requests.push({ method: "GET", path: services, status: 401 });
    r = await call("GET", services, { authorization: `Basic ${Buffer.from(`${access_key}:${secret_key}`).toString("base64")}` });
    requests.push({ method: "GET", path: services, status: 200, credential: access_key, project: PROJECT });
    r = await call("GET", "/no/such/endpoint", {});
    requests.push({ method: "GET", path: "/no/such/endpoint", status: 404 });

    serve.child.kill("SIGTERM"); // the log is complete once the server has stopped
    expect(await serve.exited).toBe(0);

    const text = readFileSync(logFile, "utf8");
    for (const secret of [secret_key, session, "not-a-real-token-abcdef", "query-secret-42", "service-password-99", "conn-password-xyz", Buffer.from(`${access_key}:${secret_key}`).toString("base64")]) {
      expect(text).not.toContain(secret);
    }
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(requests.length);
    const entries = lines.map((line) => JSON.parse(line) as AccessLogEntry);
    entries.forEach((entry, i) => {
      const expected = requests[i]!;
      expect(entry).toMatchObject({ method: expected.method, path: expected.path, status: expected.status, remote: "127.0.0.1" });
      expect(entry.credential).toBe(expected.credential);
      expect(entry.project).toBe(expected.project);
      if (expected.requestId) expect(entry.request_id).toBe(expected.requestId);
      else expect(entry.request_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Number.isNaN(Date.parse(entry.time))).toBe(false);
      expect(entry.duration_ms).toBeGreaterThanOrEqual(0);
      expect(entry.bytes_out).toBeGreaterThan(0);
    });
    expect(new Set(entries.map((e) => e.request_id)).size).toBe(entries.length);
    // a create's body was counted, not logged
    expect(entries[4]!.bytes_in).toBe(Buffer.byteLength(JSON.stringify({ name: "logged", password: "service-password-99" })));
  }, 60_000);

  it("refuses to start when the log file cannot be opened, naming it", async () => {
    const where = join(work, "missing-dir", "access.log");
    const result = await runPlatformCli(["serve", "--port", "0", "--data-dir", join(work, "unused"), "--access-log", where]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`cannot open the access log ${where}: ENOENT`);
  });
});

describe("an internal error", () => {
  it("is noted without its message in the access log, and with it in the error log", async () => {
    const entries: AccessLogEntry[] = [];
    const errors: string[] = [];
    const harness = await startServerHarness({ server: { accessLog: (entry) => entries.push(entry), errorLog: (line) => errors.push(line) } });
    try {
      await harness.client.services.list("p");
      // The database gone under a running server: the next answer is the server's own failure.
      await harness.platform.close();
      await expect(harness.client.services.list("p")).rejects.toThrow(/HTTP 500/);
      const failed = entries.at(-1)!;
      expect([failed.status, failed.note]).toEqual([500, "internal error"]);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^internal error: .+/);
    } finally {
      await harness.cleanup();
    }
  });
});
