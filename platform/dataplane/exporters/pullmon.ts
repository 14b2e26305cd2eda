// The pullmon metric exporters: one HTTP server per exporter, on 127.0.0.1 only, at the port the
// control plane chose for it (its `endpoint`). `GET /metrics` answers with the Prometheus text of
// every service that attaches the exporter, behind Basic authentication with the exporter's
// username and password; every other path is 404.
//
// The agent calls `sync` with what should be served (every reconcile): servers start, take new
// credentials and services in place, and stop when their exporter is gone. A port another process
// holds is that exporter's failure, reported in the result, and tried again on the next sync.

import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AdminConnection } from "../driver.js";
import { PROMETHEUS_CONTENT_TYPE, collectServiceMetrics, renderPrometheus } from "./metrics.js";

export const PULLMON_HOST = "127.0.0.1";
export const METRICS_PATH = "/metrics";

export interface PullmonService {
  id: string;
  name: string;
  target: AdminConnection;
}

/** One pullmon exporter as it should be served. */
export interface PullmonExporter {
  exporterId: string;
  port: number;
  username: string;
  password: string;
  /** the services that attach the exporter (none: the endpoint answers with no samples) */
  services: PullmonService[];
}

export interface ExporterRunStatus {
  status: "serving" | "failed";
  /** why it failed, e.g. "port 40123 is taken by another process" (never a secret) */
  message?: string;
}

/** The URL a pullmon exporter is scraped at (its `endpoint` attribute). */
export function pullmonEndpoint(port: number): string {
  return `http://${PULLMON_HOST}:${port}${METRICS_PATH}`;
}

interface Running {
  port: number;
  server: Server;
  /** read by each request, so a sync changes credentials and services without a restart */
  current: PullmonExporter;
}

export class PullmonServers {
  private readonly running = new Map<string, Running>();
  /** syncs run one after another, whoever calls them */
  private queue: Promise<unknown> = Promise.resolve();

  /** Serves exactly `desired`; the status of each desired exporter by id. */
  sync(desired: PullmonExporter[]): Promise<Map<string, ExporterRunStatus>> {
    const next = this.queue.then(() => this.apply(desired));
    this.queue = next.catch(() => {});
    return next;
  }

  private async apply(desired: PullmonExporter[]): Promise<Map<string, ExporterRunStatus>> {
    const wanted = new Map(desired.map((e) => [e.exporterId, e]));
    for (const [id, running] of this.running) {
      const next = wanted.get(id);
      if (!next || next.port !== running.port) await this.stop(id);
    }
    const statuses = new Map<string, ExporterRunStatus>();
    await Promise.all(
      [...wanted.values()].map(async (exporter) => {
        const running = this.running.get(exporter.exporterId);
        if (running) {
          running.current = exporter;
          statuses.set(exporter.exporterId, { status: "serving" });
          return;
        }
        statuses.set(exporter.exporterId, await this.start(exporter));
      }),
    );
    return statuses;
  }

  /** Ports being served, by exporter id. */
  serving(): Map<string, number> {
    return new Map([...this.running].map(([id, r]) => [id, r.port]));
  }

  /** Stops every server (after a sync under way). */
  async close(): Promise<void> {
    await this.sync([]);
  }

  private start(exporter: PullmonExporter): Promise<ExporterRunStatus> {
    const entry: Running = { port: exporter.port, server: createServer(), current: exporter };
    entry.server.on("request", (request, response) => {
      answer(entry.current, request, response).catch(() => {
        if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        response.end("metrics collection failed\n");
      });
    });
    return new Promise((resolve) => {
      const failed = (error: NodeJS.ErrnoException) => {
        const message =
          error.code === "EADDRINUSE"
            ? `port ${exporter.port} is taken by another process`
            : error.code === "EACCES"
              ? `port ${exporter.port} cannot be opened by this user`
              : `cannot listen on ${PULLMON_HOST}:${exporter.port}: ${error.code ?? error.message}`;
        resolve({ status: "failed", message });
      };
      entry.server.once("error", failed);
      entry.server.listen({ port: exporter.port, host: PULLMON_HOST, exclusive: true }, () => {
        entry.server.off("error", failed);
        // a later socket error must not bring the agent down
        entry.server.on("error", () => {});
        this.running.set(exporter.exporterId, entry);
        resolve({ status: "serving" });
      });
    });
  }

  private async stop(id: string): Promise<void> {
    const running = this.running.get(id);
    if (!running) return;
    this.running.delete(id);
    await new Promise<void>((resolve) => {
      running.server.close(() => resolve());
      // keep-alive connections of a scraper would otherwise hold the port open
      running.server.closeAllConnections();
    });
  }
}

async function answer(exporter: PullmonExporter, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = (request.url ?? "/").split("?")[0];
  if (path !== METRICS_PATH) {
    response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
    response.end(`not found: metrics are served at ${METRICS_PATH}\n`);
    return;
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" });
    response.end("only GET is supported\n");
    return;
  }
  if (!authorized(request.headers.authorization, exporter)) {
    response.writeHead(401, {
      "www-authenticate": `Basic realm="tsdb metric exporter ${exporter.exporterId}", charset="UTF-8"`,
      "content-type": "text/plain; charset=utf-8",
    });
    response.end("authentication required: use the exporter's pullmon username and password\n");
    return;
  }
  const samples = (await Promise.all(exporter.services.map((s) => collectServiceMetrics(s.target, s)))).flat();
  const body = renderPrometheus(samples);
  response.writeHead(200, { "content-type": PROMETHEUS_CONTENT_TYPE, "cache-control": "no-store" });
  response.end(request.method === "HEAD" ? undefined : body);
}

/** Basic credentials checked in constant time (for any length of what was sent). */
function authorized(header: string | undefined, exporter: PullmonExporter): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  const decoded = match ? Buffer.from(match[1]!, "base64").toString("utf8") : "";
  const colon = decoded.indexOf(":");
  const user = colon < 0 ? "" : decoded.slice(0, colon);
  const password = colon < 0 ? "" : decoded.slice(colon + 1);
  // both compared every time, so the time taken says nothing about which one was wrong
  const userOk = sameSecret(user, exporter.username);
  const passwordOk = sameSecret(password, exporter.password);
  return match !== null && colon >= 0 && userOk && passwordOk;
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(given), digest(expected));
}
