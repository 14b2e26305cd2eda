// `schemaform platform serve`: the platform's core over HTTP (node:http, JSON), bound to 127.0.0.1
// unless told otherwise. Routes: routes.ts.
//
// Authentication (every route but `GET /v1/health` and `POST /v1/auth/token`):
//   Authorization: Bearer <access token>            a long-lived token (`credentials create --token`)
//                                                   or a session token from POST /v1/auth/token
//   Authorization: Basic base64(<access key>:<secret key>)
// `POST /v1/auth/token` with `{"access_key", "secret_key"}` returns
// `{"access_token", "token_type": "Bearer", "expires_in"}` (one hour).
// A credential belongs to one project (or all); a call on another project is refused with 403.
// Missing or wrong credentials get 401 with `WWW-Authenticate` and a message saying what to send;
// no secret is ever echoed or logged.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { HTTP_STATUS, PlatformError } from "./errors.js";
import type { EmbeddedPlatform } from "./embedded.js";
import type { Principal } from "./core/credentials.js";
import { BadRequest, decodeArgs, matchRoute } from "./routes.js";

export interface ServerOptions {
  platform: EmbeddedPlatform;
  /** default 127.0.0.1 */
  host?: string;
  /** default 8790; 0 picks a free port */
  port?: number;
  /** one line per request (method, path, status, duration); default: nothing */
  log?: (line: string) => void;
  /** default 1 MiB */
  maxBodyBytes?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

export const DEFAULT_PORT = 8790;
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
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const platform = options.platform;
  const core = await platform.core(); // open the database now, so a bad data directory fails at start

  async function readJson(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > maxBody) throw new HttpFailure(413, "invalid", `the request body is larger than ${maxBody} bytes`);
      chunks.push(chunk as Buffer);
    }
    if (size === 0) return undefined;
    const type = req.headers["content-type"] ?? "";
    if (!/^application\/json\b/i.test(type)) throw new HttpFailure(415, "invalid", "the request body must be JSON (Content-Type: application/json)");
    try {
      return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
    } catch {
      throw new HttpFailure(400, "invalid", "the request body is not valid JSON");
    }
  }

  function authenticate(req: IncomingMessage): Principal {
    const header = req.headers.authorization;
    if (!header) throw new HttpFailure(401, "unauthenticated", `authentication required: ${AUTH_HELP}`);
    const [scheme, value = ""] = header.split(/\s+/, 2) as [string, string?];
    if (/^bearer$/i.test(scheme)) {
      const principal = value ? core.credentials.verifyToken(value) : undefined;
      if (!principal) throw new HttpFailure(401, "unauthenticated", "the access token is invalid, expired or revoked; get a new one");
      return principal;
    }
    if (/^basic$/i.test(scheme)) {
      const decoded = Buffer.from(value, "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      const principal = colon > 0 ? core.credentials.verifyKeyPair(decoded.slice(0, colon), decoded.slice(colon + 1)) : undefined;
      if (!principal) throw new HttpFailure(401, "unauthenticated", "the access key or secret key is wrong, or the key was revoked");
      return principal;
    }
    throw new HttpFailure(401, "unauthenticated", `unsupported authorization scheme '${scheme}': ${AUTH_HELP}`);
  }

  function authorize(principal: Principal, project: string | undefined): void {
    if (principal.project === null || project === undefined) return;
    if (!core.projects.same(principal.project, project)) {
      throw new HttpFailure(403, "unauthenticated", `the credentials belong to project ${principal.project} and cannot act on project ${project}`);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const url = new URL(req.url ?? "/", "http://platform.invalid");
    const method = (req.method ?? "GET").toUpperCase();

    if (url.pathname === "/v1/health" && method === "GET") return send(res, 200, { ok: true });
    if (url.pathname === "/v1/auth/token") {
      if (method !== "POST") throw new HttpFailure(405, "invalid", "use POST /v1/auth/token");
      const body = (await readJson(req)) as { access_key?: unknown; secret_key?: unknown } | undefined;
      if (!body || typeof body.access_key !== "string" || typeof body.secret_key !== "string") {
        throw new HttpFailure(400, "invalid", 'send {"access_key": "...", "secret_key": "..."}');
      }
      const principal = core.credentials.verifyKeyPair(body.access_key, body.secret_key);
      if (!principal) throw new HttpFailure(401, "unauthenticated", "the access key or secret key is wrong, or the key was revoked");
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
    const principal = authenticate(req);
    const body = method === "GET" || method === "DELETE" ? undefined : await readJson(req);
    let args: unknown[];
    try {
      args = decodeArgs(match, url.searchParams, body);
    } catch (error) {
      if (error instanceof BadRequest) throw new HttpFailure(400, "invalid", error.message);
      throw error;
    }
    authorize(principal, match.route.project?.(args));
    const [family, name] = match.route.op.split(".") as [string, string];
    const target = (platform as unknown as Record<string, Record<string, (...a: unknown[]) => Promise<unknown>>>)[family]![name]!;
    const result = await target(...args);
    if (match.route.status === 204) return send(res, 204, undefined);
    return send(res, match.route.status, result);
  }

  const server = createServer((req, res) => {
    const started = Date.now();
    handle(req, res)
      .catch((error: unknown) => {
        if (error instanceof PlatformError) return send(res, HTTP_STATUS[error.code], { error: error.toJSON() });
        if (error instanceof HttpFailure) {
          if (error.status === 401) res.setHeader("www-authenticate", 'Bearer realm="schemaform", Basic realm="schemaform"');
          return send(res, error.status, { error: { code: error.code, message: error.message } });
        }
        options.log?.(`internal error: ${error instanceof Error ? error.message : String(error)}`);
        return send(res, 500, { error: { code: "internal", message: "internal error in the platform server; see its log" } });
      })
      .then((status) => {
        options.log?.(`${req.method} ${(req.url ?? "").split("?")[0]} ${status} ${Date.now() - started}ms`);
      });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? DEFAULT_PORT, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
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
