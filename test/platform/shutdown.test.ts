// Graceful shutdown of `schemaform platform serve` on SIGTERM, as a load balancer or an orchestrator
// sends it: no new connections, idle ones closed, /v1/ready 503, the requests in flight answered,
// then exit 0 with the data stored; a request that does not finish within --shutdown-timeout is cut.
import { connect, type Socket } from "node:net";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { EmbeddedPlatform } from "../../platform/embedded.js";
import { until } from "../support/until.js";
import { tempDir } from "./helpers.js";
import { createCredentials } from "./run-cli.js";
import { killHard, startServe, waitForStderr, type ServeProcess } from "./serve-process.js";

const PROJECT = "drain-project";

/** A raw connection that collects what the server sends, and tells when the server closed it. */
function open(url: string): Promise<{ socket: Socket; received(): string; closed: Promise<void> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = "";
    socket.setEncoding("utf8").on("data", (d: string) => (data += d));
    const closed = new Promise<void>((r) => socket.once("close", () => r()));
    socket.once("error", reject);
    socket.once("connect", () => resolve({ socket, received: () => data, closed }));
  });
}

/** The head of a create of a service, sent with Expect: 100-continue so that the server says when it has the request. */
function createHead(accessToken: string, body: string): string {
  return (
    `POST /tsdb/v1/projects/${PROJECT}/services HTTP/1.1\r\nHost: platform\r\nAuthorization: Bearer ${accessToken}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`
  );
}

describe("platform serve shuts down gracefully on SIGTERM", () => {
  const work = tempDir("schemaform-shutdown-");
  let serve: ServeProcess | undefined;
  let accessToken: string;

  beforeAll(async () => {
    accessToken = (await createCredentials<{ access_token: string }>(join(work, "data"), ["--token"])).access_token;
  });
  afterEach(() => killHard(serve));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("answers the request in flight, refuses new connections, closes idle ones, reports not ready, then exits 0", async () => {
    serve = await startServe(["--data-dir", join(work, "data"), "--shutdown-timeout", "30"]);
    // an idle keep-alive connection, as a client's pool keeps one
    const idle = await open(serve.url);
    idle.socket.write("GET /v1/health HTTP/1.1\r\nHost: platform\r\n\r\n");
    await until("the health answer", 20_000, () => idle.received().includes('{"ok":true}'));
    // a readiness check whose headers are still arriving
    const ready = await open(serve.url);
    ready.socket.write("GET /v1/ready HTTP/1.1\r\nHost: platform\r\n");
    // a create whose body is still arriving (a slow client): the server has it once it says 100 Continue
    const body = JSON.stringify({ name: "finished-while-draining" });
    const slow = await open(serve.url);
    slow.socket.write(createHead(accessToken, body) + body.slice(0, 10));
    await until("100 Continue", 20_000, () => slow.received().startsWith("HTTP/1.1 100 Continue"));

    serve.child.kill("SIGTERM");
    await waitForStderr(serve, "stopping: finishing 1 request(s) in flight");
    await idle.closed;
    const refused = await open(serve.url).then(
      (c) => (c.socket.destroy(), "connected"),
      (e: NodeJS.ErrnoException) => e.code,
    );
    expect(refused).toBe("ECONNREFUSED");

    ready.socket.write("\r\n");
    await ready.closed;
    expect(ready.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(ready.received()).toContain('"ready":false');

    slow.socket.write(body.slice(10));
    await slow.closed;
    const answer = slow.received().replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, "");
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
    expect(answer.toLowerCase()).toContain("connection: close");
    const created = (JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as { body: { id: string; name: string } }).body;
    expect(created.name).toBe("finished-while-draining");

    expect(await serve.exited).toBe(0);
    expect(serve.stderr()).toContain("schemaform platform stopped");
    const platform = new EmbeddedPlatform({ dataDir: join(work, "data"), transitionSeconds: 0 });
    try {
      expect((await platform.services.get(PROJECT, created.id)).name).toBe("finished-while-draining");
    } finally {
      await platform.close();
    }
  }, 60_000);

  it("cuts a request that does not finish within --shutdown-timeout, logs it as cut off, and still exits 0", async () => {
    const log = join(work, "access.log");
    serve = await startServe(["--data-dir", join(work, "data"), "--shutdown-timeout", "0.5", "--access-log", log]);
    const body = JSON.stringify({ name: "never-finished" });
    const stuck = await open(serve.url);
    stuck.socket.write(createHead(accessToken, body) + body.slice(0, 5));
    await until("100 Continue", 20_000, () => stuck.received().startsWith("HTTP/1.1 100 Continue"));
    serve.child.kill("SIGTERM");
    await stuck.closed;
    expect(stuck.received()).toBe("HTTP/1.1 100 Continue\r\n\r\n");
    expect(await serve.exited).toBe(0);
    const entries = readFileSync(log, "utf8").trim().split("\n").map((line) => JSON.parse(line) as { path: string; status: number | null; note?: string });
    expect(entries).toEqual([expect.objectContaining({ path: `/tsdb/v1/projects/${PROJECT}/services`, status: null, note: "cut off by the shutdown" })]);
  }, 60_000);

  it("cuts the requests in flight at once on a second SIGTERM", async () => {
    serve = await startServe(["--data-dir", join(work, "data"), "--shutdown-timeout", "300"]);
    const body = JSON.stringify({ name: "interrupted" });
    const stuck = await open(serve.url);
    stuck.socket.write(createHead(accessToken, body) + body.slice(0, 5));
    await until("100 Continue", 20_000, () => stuck.received().startsWith("HTTP/1.1 100 Continue"));
    serve.child.kill("SIGTERM");
    await waitForStderr(serve, "signal again to cut them");
    expect(stuck.socket.destroyed).toBe(false);
    serve.child.kill("SIGTERM");
    await stuck.closed;
    expect(await serve.exited).toBe(0);
  }, 60_000);
});
