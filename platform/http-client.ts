// The PlatformClient of a platform server (`schemaform platform serve`): every method becomes one
// HTTP request, encoded from the shared route table (routes.ts). Authentication: an access token
// as a Bearer token, or an access key + secret key exchanged for a short-lived session token
// (refreshed before it expires, and once more on a 401).
// Transient failures are retried with backoff (retry.ts) until the operation's budget
// (call-budget.ts) or `retryForMs` is spent; a create or update carries an Idempotency-Key, the
// same on every attempt, so a repeat never acts twice.

import { randomUUID } from "node:crypto";
import { currentCallBudget } from "./call-budget.js";
import { deferredCaFetch } from "./deferred-ca.js";
import { PlatformError, isPlatformErrorCode, type Issue } from "./errors.js";
import { RETRY_STATUSES, backoffDelay, isTransientTransportError, retryAfterMs, transportCode } from "./retry.js";
import { ROUTE_BY_OP, encodeRequest } from "./routes.js";
import type { PlatformClient } from "./types.js";

export type PlatformCredentials = { accessKey: string; secretKey: string } | { accessToken: string };

export interface HttpClientOptions {
  /** base URL of the server, e.g. `http://127.0.0.1:8790` */
  endpoint: string;
  credentials?: PlatformCredentials;
  /** per-request timeout; default 30 s */
  requestTimeoutMs?: number;
  /**
   * How long a request that failed transiently (connection refused or reset, 429, 502, 503, 504)
   * is retried when the caller set no budget (call-budget.ts); default 30 s
   */
  retryForMs?: number;
  /** injectable for tests */
  fetch?: typeof fetch;
}

interface Session {
  token: string;
  /** epoch ms after which the token is renewed */
  renewAt: number;
}

const FAMILIES: Record<string, string[]> = {
  restoreChannels: ["create", "get", "update", "delete", "list", "resolveProject"],
  services: ["create", "get", "update", "delete", "list", "checkPassword", "createCredentials", "renewCredentials", "revokeCredentials"],
  vpcs: ["create", "get", "getByName", "update", "delete", "list"],
  peering: ["create", "get", "update", "delete", "list"],
  logExporters: ["create", "get", "update", "delete", "list"],
  metricExporters: ["create", "get", "update", "delete", "list"],
  objStoreConnectors: ["create", "get", "update", "delete", "list"],
  srcDbConnectors: ["create", "get", "update", "delete", "list"],
  lookups: ["products", "vpcs", "service"],
  events: ["list"],
};

export function createHttpClient(options: HttpClientOptions): PlatformClient {
  let base: URL;
  try {
    base = new URL(options.endpoint);
  } catch {
    throw new PlatformError("invalid", `endpoint '${options.endpoint}' is not a URL (expected e.g. http://127.0.0.1:8790)`);
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") throw new PlatformError("invalid", `endpoint '${options.endpoint}' must be an http:// or https:// URL`);
  const root = base.href.replace(/\/+$/, "");
  // An https endpoint may be signed by a private CA that the provider's launcher kept out of
  // Node's start-up (deferred-ca.ts); its file is read on the first request.
  let chosenFetch = options.fetch ?? (base.protocol === "https:" ? undefined : fetch);
  const doFetch: typeof fetch = (input, init) => (chosenFetch ??= deferredCaFetch() ?? fetch)(input, init);
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const retryForMs = options.retryForMs ?? 30_000;
  const credentials = options.credentials;
  let session: Session | undefined;
  let sessionPending: Promise<Session> | undefined;

  async function send(method: string, url: string, body: unknown, authorization: string | undefined, idempotencyKey?: string): Promise<Response> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (authorization) headers.authorization = authorization;
    if (body !== undefined) headers["content-type"] = "application/json";
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const budget = currentCallBudget();
    const started = Date.now();
    const deadline = budget?.deadline ?? started + retryForMs;
    const what = `${method} ${url.split("?")[0]}`;
    // Every request sent here may be repeated: reads, deletes and checks are idempotent, and
    // call() gives every create and update an idempotency key.
    for (let attempt = 1; ; attempt++) {
      let retryAfter: number | undefined;
      let failure: unknown;
      try {
        const attemptSignal = AbortSignal.timeout(timeoutMs);
        const response = await doFetch(`${root}${url}`, {
          method,
          headers,
          body: payload,
          signal: budget?.signal ? AbortSignal.any([budget.signal, attemptSignal]) : attemptSignal,
        });
        if (!RETRY_STATUSES.has(response.status)) return response;
        retryAfter = retryAfterMs(response.headers.get("retry-after"));
        const left = deadline - Date.now();
        // the caller reports the status when the server asks for more time than is left
        if (left <= 0 || (retryAfter ?? 0) > left || budget?.signal?.aborted) return response;
        await response.body?.cancel();
        await pause(Math.min(Math.max(backoffDelay(attempt), retryAfter ?? 0), left), budget?.signal);
        continue;
      } catch (error) {
        failure = error;
      }
      if (budget?.signal?.aborted) throw new PlatformError("timeout", `stopped ${what} on the platform at ${root}: the operation was cancelled`);
      const timedOut = failure instanceof Error && failure.name === "TimeoutError";
      const left = deadline - Date.now();
      // A request with no answer is not repeated: the server is up but stuck, and each attempt
      // would hold the caller for the whole request timeout again.
      if (!timedOut && isTransientTransportError(failure) && left > 0) {
        await pause(Math.min(backoffDelay(attempt), left), budget?.signal);
        continue;
      }
      const tried = attempt > 1 ? ` (${attempt} attempts over ${((Date.now() - started) / 1000).toFixed(1)} s)` : "";
      if (timedOut) throw new PlatformError("timeout", `the platform at ${root} did not answer ${what} within ${timeoutMs} ms${tried}`);
      const cause = transportCode(failure) ?? (failure instanceof Error ? failure.message : String(failure));
      throw new Error(`cannot reach the platform at ${root}: ${cause}${tried}`, { cause: failure });
    }
  }

  async function errorFrom(response: Response): Promise<PlatformError | Error> {
    let payload: { error?: { code?: unknown; message?: unknown; issues?: unknown } } | undefined;
    try {
      payload = (await response.json()) as typeof payload;
    } catch {
      payload = undefined;
    }
    const e = payload?.error;
    const message = typeof e?.message === "string" ? e.message : `the platform answered HTTP ${response.status}`;
    if (e && isPlatformErrorCode(e.code)) return new PlatformError(e.code, message, Array.isArray(e.issues) ? (e.issues as Issue[]) : undefined);
    return new Error(`platform error (HTTP ${response.status}): ${message}`);
  }

  async function newSession(c: { accessKey: string; secretKey: string }): Promise<Session> {
    const started = Date.now();
    const response = await send("POST", "/v1/auth/token", { access_key: c.accessKey, secret_key: c.secretKey }, undefined);
    if (!response.ok) throw await errorFrom(response);
    const result = (await response.json()) as { access_token: string; expires_in: number };
    // renew at 80% of the lifetime, so a long apply never sends an expired token
    return { token: result.access_token, renewAt: started + result.expires_in * 800 };
  }

  async function authorization(forceRenew: boolean): Promise<string | undefined> {
    if (!credentials) return undefined;
    if ("accessToken" in credentials) return `Bearer ${credentials.accessToken}`;
    if (forceRenew || !session || Date.now() >= session.renewAt) {
      session = undefined;
      sessionPending ??= newSession(credentials).finally(() => {
        sessionPending = undefined;
      });
      session = await sessionPending;
    }
    return `Bearer ${session.token}`;
  }

  async function call(op: string, args: unknown[]): Promise<unknown> {
    const route = ROUTE_BY_OP.get(op);
    if (!route) throw new Error(`no route for ${op}`);
    const request = encodeRequest(route, args);
    // One key for every attempt of this call (the 401 re-send included): the server acts once.
    // Creates (201) and updates need one; a POST that only checks something does not.
    const key = route.status === 201 || request.method === "PATCH" ? randomUUID() : undefined;
    let response = await send(request.method, request.url, request.body, await authorization(false), key);
    if (response.status === 401 && credentials && "accessKey" in credentials) {
      await response.body?.cancel();
      response = await send(request.method, request.url, request.body, await authorization(true), key);
    }
    if (!response.ok) throw await errorFrom(response);
    if (response.status === 204) {
      await response.body?.cancel();
      return undefined;
    }
    return response.json();
  }

  const client: Record<string, unknown> = {
    mode: "http",
    close: async () => {
      session = undefined;
    },
  };
  for (const [family, methods] of Object.entries(FAMILIES)) {
    client[family] = Object.fromEntries(methods.map((method) => [method, (...args: unknown[]) => call(`${family}.${method}`, args)]));
  }
  return client as unknown as PlatformClient;
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
