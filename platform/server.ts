// `schemaform platform serve`: the platform's core over HTTP (node:http, JSON), or over https with a
// certificate and key (node:https; tls.ts checks the files), bound to 127.0.0.1 unless told
// otherwise. Routes: routes.ts. Each request can be logged as one JSON line (access-log.ts), with
// an X-Request-Id echoed back. close(graceMs) drains: no new connections, idle ones closed,
// /v1/ready 503, requests in flight finish (within graceMs) before the connections are cut.
//
// Authentication (every route but `GET /v1/health`, `GET /v1/ready` and `POST /v1/auth/token`):
//   Authorization: Bearer <access token>            a long-lived token (`credentials create --token`)
//                                                   or a session token from POST /v1/auth/token
//   Authorization: Basic base64(<access key>:<secret key>)
// `POST /v1/auth/token` with `{"access_key", "secret_key"}` returns
// `{"access_token", "token_type": "Bearer", "expires_in"}` (one hour).
// A credential belongs to one project (or all); a call on another project is refused with 403.
// Missing or wrong credentials get 401 with `WWW-Authenticate` and a message saying what to send;
// no secret is ever echoed or logged.
// A POST or PATCH with `Idempotency-Key: <key>` is performed once per credential, project and key;
// a repeat gets the first answer (idempotency.ts).
// Hostile input gets a 4xx, never a 5xx: bodies must be JSON objects without prototype keys and at
// most MAX_JSON_DEPTH deep (json-input.ts); creates and password checks are rate-limited per
// credential (429 + Retry-After, rate-limit.ts; password checks shared by all replicas); the
// timeouts and the connection cap below bound what a slow or greedy client can hold.

import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { accessLogEntry, loggedPath, requestIdFrom, type AccessLogEntry } from "./access-log.js";
import { databaseFault } from "./database-faults.js";
import { HTTP_STATUS, PlatformError } from "./errors.js";
import type { EmbeddedPlatform } from "./embedded.js";
import type { Principal } from "./core/credentials.js";
import { IdempotencyKeys } from "./idempotency.js";
import { DEFAULT_MAX_BODY_BYTES, InputRejected, readJsonObject } from "./json-input.js";
import { DEFAULT_RATE_LIMITS, RateLimiter, StoredRateLimiter, limitedAction, type RateLimits } from "./rate-limit.js";
import { BadRequest, decodeArgs, matchRoute } from "./routes.js";

export interface ServerOptions {
  platform: EmbeddedPlatform;
  /** default 127.0.0.1 */
  host?: string;
  /** default 8790; 0 picks a free port */
  port?: number;
  /** one line per request (method, path, status, duration); default: nothing */
  log?: (line: string) => void;
  /** one structured entry per request, for the JSON access log (access-log.ts); default: nothing */
  accessLog?: (entry: AccessLogEntry) => void;
  /** the server's own failures (an internal error's message); default: `log` */
  errorLog?: (line: string) => void;
  /** serve https with this certificate and key (PEM, checked by tls.ts loadTlsFiles); default: plain http */
  tls?: { cert: Buffer | string; key: Buffer | string };
  /** default 1 MiB */
  maxBodyBytes?: number;
  /** simultaneous connections; more are closed as they arrive (default DEFAULT_LIMITS) */
  maxConnections?: number;
  /** how long a client may take to send a request's headers, and the whole request (default DEFAULT_LIMITS) */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** how long an idle keep-alive connection stays open (default DEFAULT_LIMITS) */
  keepAliveTimeoutMs?: number;
  /** per-credential limits (default DEFAULT_RATE_LIMITS) */
  rateLimits?: Partial<RateLimits>;
}

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  /**
   * Stops accepting connections and closes idle ones at once; requests in flight get `graceMs`
   * to finish (default 0: cut at once), then their connections are closed. While it drains,
   * `/v1/ready` answers 503 and every answer closes its connection.
   */
  close(graceMs?: number): Promise<void>;
  /** requests being served now (from their headers to their answer) */
  inFlight(): number;
}

/** How long `platform serve` lets requests in flight finish after SIGTERM (--shutdown-timeout). */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

export const DEFAULT_PORT = 8790;

/**
 * A client that is slow to send its headers (10 s) or its request (30 s; a body is at most 1 MiB)
 * is cut off, so it cannot hold a connection forever. Idle keep-alive connections close after 5 s,
 * longer than the 4 s after which Node's fetch stops reusing one (a client never sends on a
 * connection the server is closing). 512 connections is far beyond what a team's Terraform runs
 * open (one or a few per plugin) and still small enough for the process's file descriptors.
 */
export const DEFAULT_LIMITS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 512,
};
// Node checks the two timeouts above only this often (30 s by default).
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;
// RFC 7235 credentials: a scheme, one or more spaces, a token68, and nothing after it.
const AUTHORIZATION_SHAPE = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*) +([A-Za-z0-9._~+/-]+=*)$/;
const AUTH_HELP =
  "send 'Authorization: Bearer <access token>' (an access token, or a session token from POST /v1/auth/token with your access key and secret key), or 'Authorization: Basic <base64 of access_key:secret_key>'";

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const platform = options.platform;
  const core = await platform.core(); // open the database now, so a bad data directory fails at start
  const idempotency = new IdempotencyKeys(core.ctx);
  const rateLimits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
  // creates per replica, password checks shared by the replicas through the database (rate-limit.ts)
  const limiters = { creates: new RateLimiter(rateLimits.creates), passwordChecks: new StoredRateLimiter(core.ctx.store, "password_checks", rateLimits.passwordChecks) };

  async function authenticate(req: IncomingMessage): Promise<Principal> {
    const header = req.headers.authorization;
    if (!header) throw new HttpFailure(401, "unauthenticated", `authentication required: ${AUTH_HELP}`);
    const parsed = AUTHORIZATION_SHAPE.exec(header);
    if (!parsed) throw new HttpFailure(401, "unauthenticated", `the Authorization header is malformed (a scheme, a space and one credential, nothing after it): ${AUTH_HELP}`);
    const [, scheme, value] = parsed as unknown as [string, string, string];
    if (/^bearer$/i.test(scheme)) {
      const principal = await core.credentials.verifyToken(value);
      if (!principal) throw new HttpFailure(401, "unauthenticated", "the access token is invalid, expired or revoked; get a new one");
      return principal;
    }
    if (/^basic$/i.test(scheme)) {
      const decoded = Buffer.from(value, "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      const principal = colon > 0 ? await core.credentials.verifyKeyPair(decoded.slice(0, colon), decoded.slice(colon + 1)) : undefined;
      if (!principal) throw new HttpFailure(401, "unauthenticated", "the access key or secret key is wrong, or the key was revoked");
      return principal;
    }
    throw new HttpFailure(401, "unauthenticated", `unsupported authorization scheme '${scheme}': ${AUTH_HELP}`);
  }

  async function authorize(principal: Principal, project: string | undefined): Promise<void> {
    if (principal.project === null || project === undefined) return;
    if (!(await core.ctx.read((tx) => core.projects.same(tx, principal.project!, project)))) {
      throw new HttpFailure(403, "unauthenticated", `the credentials belong to project ${principal.project} and cannot act on project ${project}`);
    }
  }

  async function rateLimit(principal: Principal, op: string, body: Record<string, unknown> | undefined, res: ServerResponse): Promise<void> {
    const action = limitedAction(op, body);
    if (!action) return;
    const retryAfter = await limiters[action].take(principal.credential);
    if (retryAfter === undefined) return;
    const { burst, perSecond } = rateLimits[action];
    res.setHeader("retry-after", String(retryAfter));
    const what = action === "creates" ? "creates" : "password checks";
    throw new HttpFailure(429, "rate_limited", `too many ${what} with this credential (at most ${burst} at once, then ${perSecond} per second); retry in ${retryAfter} s`);
  }

  let draining = false;
  /** the shutdown's grace ran out: what is still in flight is cut, not aborted by its client */
  let cutting = false;

  async function handle(req: IncomingMessage, res: ServerResponse, seen: { project?: string; credential?: string }): Promise<number> {
    let url: URL;
    try {
      // a target of "//x/y" is a path here, not a host x (which new URL(target, base) would make it)
      const target = req.url ?? "/";
      url = target.startsWith("/") ? new URL(`http://platform.invalid${target}`) : new URL(target, "http://platform.invalid");
    } catch {
      throw new HttpFailure(400, "invalid", "the request target is not a valid path");
    }
    const method = (req.method ?? "GET").toUpperCase();

    if (url.pathname === "/v1/health" && method === "GET") return send(res, 200, { ok: true });
    // for load balancers: this process is up (health) and its database answers (ready)
    if (url.pathname === "/v1/ready" && method === "GET") {
      if (draining) return send(res, 503, { ready: false, message: "the server is shutting down" });
      try {
        await core.ctx.store.ping();
      } catch {
        return send(res, 503, { ready: false, message: `the platform database (${core.ctx.store.kind}) does not answer` });
      }
      return send(res, 200, { ready: true });
    }
    if (url.pathname === "/v1/auth/token") {
      if (method !== "POST") throw new HttpFailure(405, "invalid", "use POST /v1/auth/token");
      const body = await readJsonObject(req, maxBody);
      if (typeof body.access_key !== "string" || typeof body.secret_key !== "string") {
        throw new HttpFailure(400, "invalid", 'send {"access_key": "...", "secret_key": "..."}');
      }
      const principal = await core.credentials.verifyKeyPair(body.access_key, body.secret_key);
      if (!principal) throw new HttpFailure(401, "unauthenticated", "the access key or secret key is wrong, or the key was revoked");
      seen.credential = principal.credential;
      return send(res, 200, core.credentials.issueSession(principal));
    }

    const { match, allowed } = matchRoute(method, url.pathname);
    if (!match) {
      if (allowed.length > 0) {
        res.setHeader("allow", [...new Set(allowed)].join(", "));
        throw new HttpFailure(405, "invalid", `${method} is not allowed on ${url.pathname}; allowed: ${[...new Set(allowed)].join(", ")}`);
      }
      throw new HttpFailure(404, "not_found", `no such endpoint: ${method} ${url.pathname}`);
    }
    const principal = await authenticate(req);
    seen.credential = principal.credential;
    const body = method === "GET" || method === "DELETE" ? undefined : await readJsonObject(req, maxBody);
    let args: unknown[];
    try {
      args = decodeArgs(match, url.searchParams, body);
    } catch (error) {
      if (error instanceof BadRequest) throw new HttpFailure(400, "invalid", error.message);
      throw error;
    }
    seen.project = match.route.project?.(args);
    await authorize(principal, seen.project);
    await rateLimit(principal, match.route.op, body, res);
    const [family, name] = match.route.op.split(".") as [string, string];
    const target = (platform as unknown as Record<string, Record<string, (...a: unknown[]) => Promise<unknown>>>)[family]![name]!;
    const perform = async () => ({ status: match.route.status, body: await target(...args) });
    const key = req.headers["idempotency-key"];
    const answer =
      typeof key === "string" && (method === "POST" || method === "PATCH")
        ? await idempotency.run({ credential: principal.credential, project: match.route.project?.(args) ?? "", key, request: `${method} ${req.url}\n${JSON.stringify(body)}` }, perform)
        : await perform();
    if (answer.status === 204) return send(res, 204, undefined);
    return send(res, answer.status, answer.body);
  }

  const limits = {
    headersTimeout: options.headersTimeoutMs ?? DEFAULT_LIMITS.headersTimeoutMs,
    requestTimeout: options.requestTimeoutMs ?? DEFAULT_LIMITS.requestTimeoutMs,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? DEFAULT_LIMITS.keepAliveTimeoutMs,
  };
  const inFlightAnswers = new Set<ServerResponse>();
  /** called once no request is in flight any more (after close: every answer is logged) */
  const whenIdle: Array<() => void> = [];
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const started = Date.now();
    const requestId = requestIdFrom(req) ?? randomUUID();
    res.setHeader("x-request-id", requestId);
    // while draining, every answer closes its connection: the client reconnects to another replica
    if (draining) res.setHeader("connection", "close");
    inFlightAnswers.add(res);
    const seen: { project?: string; credential?: string } = {};
    let note: string | undefined;
    let logged = false;
    const line = (outcome: string | number) => {
      if (logged) return;
      logged = true;
      options.log?.(`${req.method} ${loggedPath(req.url)} ${outcome} ${Date.now() - started}ms`);
      options.accessLog?.(
        accessLogEntry({ req, res, started, requestId, status: typeof outcome === "number" ? outcome : null, note: typeof outcome === "number" ? note : outcome, ...seen }),
      );
    };
    // A client that hangs up before its answer is sent is logged as such, whatever the handler
    // was doing (reading the body, waiting for a hash).
    res.once("close", () => {
      if (!res.writableFinished) line(cutting ? `cut off by the shutdown` : "aborted by the client");
      inFlightAnswers.delete(res);
      if (draining && inFlightAnswers.size === 0) {
        server.closeAllConnections(); // only idle ones are left
        for (const settle of whenIdle.splice(0)) settle();
      }
    });
    handle(req, res, seen)
      .catch((error: unknown) => {
        if (error instanceof PlatformError) return send(res, HTTP_STATUS[error.code], { error: error.toJSON() });
        if (error instanceof InputRejected) {
          // the rest of an oversized body is not read: the connection cannot carry another request
          if (error.status === 413) res.setHeader("connection", "close");
          return send(res, error.status, { error: { code: "invalid", message: error.message } });
        }
        if (error instanceof HttpFailure) {
          if (error.status === 401) res.setHeader("www-authenticate", 'Bearer realm="schemaform", Basic realm="schemaform"');
          return send(res, error.status, { error: { code: error.code, message: error.message } });
        }
        // reading the body failed because the client went away mid-request: not our error
        if (req.destroyed && !req.complete) return undefined;
        // the database restarting or full: nothing was committed without its answer (idempotency.ts),
        // so the client may send the same request again
        const fault = databaseFault(error);
        if (fault) {
          note = "database unavailable";
          (options.errorLog ?? options.log)?.(`database unavailable: ${fault.cause} (${(error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error))})`);
          res.setHeader("retry-after", String(fault.retryAfterSeconds));
          return send(res, 503, { error: { code: "unavailable", message: `${fault.cause}; retry in ${fault.retryAfterSeconds} s` } });
        }
        // a database error can quote the values it was given: its message goes only to the
        // human-readable log, never to the access log, whose fields must carry no secret
        note = "internal error";
        (options.errorLog ?? options.log)?.(`internal error: ${error instanceof Error ? error.message : String(error)}`);
        return send(res, 500, { error: { code: "internal", message: "internal error in the platform server; see its log" } });
      })
      .then((status) => {
        if (status !== undefined && res.writableEnded) line(status);
      });
  };
  const serverOptions = { ...limits, connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS };
  const server: Server = options.tls ? createTlsServer({ ...serverOptions, cert: options.tls.cert, key: options.tls.key }, onRequest) : createServer(serverOptions, onRequest);
  server.maxConnections = options.maxConnections ?? DEFAULT_LIMITS.maxConnections;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? DEFAULT_PORT, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  const cut = () => {
    cutting = true;
    server.closeAllConnections();
  };
  return {
    url: `${options.tls ? "https" : "http"}://${shownHost}:${port}`,
    port,
    server,
    inFlight: () => inFlightAnswers.size,
    close: (graceMs = 0) => {
      // a second close (a second signal) with less grace cuts what the first one was waiting for
      if (closing) {
        if (graceMs <= 0) cut();
        return closing;
      }
      closing = new Promise<void>((resolve, reject) => {
        draining = true;
        for (const res of inFlightAnswers) if (!res.headersSent) res.setHeader("connection", "close");
        // stops listening and closes the idle keep-alive connections; calls back once every connection is gone
        server.close((error) => {
          clearTimeout(deadline);
          if (error) reject(error);
          else if (inFlightAnswers.size === 0) resolve();
          else whenIdle.push(resolve); // the last answers' close events are still on their way
        });
        const deadline = setTimeout(cut, graceMs);
        if (graceMs <= 0 || inFlightAnswers.size === 0) cut();
      });
      return closing;
    },
  };
}

function send(res: ServerResponse, status: number, payload: unknown): number {
  if (res.headersSent) return status;
  if (status === 204 || payload === undefined) {
    res.writeHead(status);
    res.end();
    return status;
  }
  const text = JSON.stringify(payload);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), "cache-control": "no-store" });
  res.end(text);
  return status;
}
