// The server's structured access log: one JSON object per request, one line each, for a team's log
// pipeline (`platform serve` writes them to stderr, or to `--access-log FILE`).
//
// What a line may hold is fixed here, and none of it can carry a secret: the path without its
// query string, the credential's id (an access key or token id, never a token, a secret key or an
// Authorization header), and no body of a request or an answer.

import { createWriteStream, openSync, type WriteStream } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";

export interface AccessLogEntry {
  /** when the request arrived (ISO 8601, UTC) */
  time: string;
  /** the client's X-Request-Id when it is a plain token, else one made up; also sent back as X-Request-Id */
  request_id: string;
  method: string;
  /** the request path without the query string (query values may carry anything) */
  path: string;
  /** null when the client hung up before its answer was sent */
  status: number | null;
  duration_ms: number;
  /** the request body's declared size and the answer body's size */
  bytes_in: number;
  bytes_out: number;
  /** the client's address as this server sees it (a load balancer's, behind one) */
  remote: string;
  /** the project the call acts on, when the route names one */
  project?: string;
  /** the access key or token id that authenticated the call */
  credential?: string;
  /** what happened, beyond the status: `aborted by the client`, `cut off by the shutdown` or `internal error` (never its message) */
  note?: string;
}

/** Longest path logged: the rest is cut (a path is at most Node's 16 KiB of headers). */
const MAX_LOGGED_PATH = 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request id a load balancer or client sent, when it is a plain token; undefined otherwise. */
export function requestIdFrom(req: IncomingMessage): string | undefined {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && REQUEST_ID.test(given) ? given : undefined;
}

/** The part of a request target that is logged: the path, never the query string. */
export function loggedPath(target: string | undefined): string {
  const path = (target ?? "").split("?")[0]!;
  return path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path;
}

function declaredLength(value: string | number | string[] | undefined): number {
  const n = Number(Array.isArray(value) ? value[0] : value);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

/** The entry of one request, from what the server saw of it. */
export function accessLogEntry(seen: {
  req: IncomingMessage;
  res: ServerResponse;
  started: number;
  requestId: string;
  status: number | null;
  note?: string;
  project?: string;
  credential?: string;
}): AccessLogEntry {
  const entry: AccessLogEntry = {
    time: new Date(seen.started).toISOString(),
    request_id: seen.requestId,
    method: seen.req.method ?? "",
    path: loggedPath(seen.req.url),
    status: seen.status,
    duration_ms: Date.now() - seen.started,
    bytes_in: declaredLength(seen.req.headers["content-length"]),
    bytes_out: seen.status === null ? 0 : declaredLength(seen.res.getHeader("content-length")),
    remote: seen.req.socket.remoteAddress ?? "",
  };
  if (seen.project !== undefined) entry.project = seen.project;
  if (seen.credential !== undefined) entry.credential = seen.credential;
  if (seen.note !== undefined) entry.note = seen.note;
  return entry;
}

export interface AccessLogSink {
  write(entry: AccessLogEntry): void;
  /** Resolves when every line written so far is on disk (a file) or handed to stderr. */
  close(): Promise<void>;
}

/**
 * Where `platform serve` writes its access log: `-` for stderr, else a file it appends to (created
 * 0640 if missing, so a log shipper in the same group can read it).
 */
export function openAccessLog(destination: string): AccessLogSink {
  if (destination === "-") {
    return {
      write: (entry) => process.stderr.write(`${JSON.stringify(entry)}\n`),
      close: async () => {},
    };
  }
  let fd: number;
  try {
    // opened now, so that a path that cannot be written stops the server at start-up
    fd = openSync(destination, "a", 0o640);
  } catch (error) {
    throw new Error(`cannot open the access log ${destination}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const stream: WriteStream = createWriteStream(destination, { fd });
  let failure: Error | undefined;
  stream.on("error", (error) => {
    // a full disk or a removed directory must not stop the server; say so once on stderr
    if (!failure) process.stderr.write(`schemaform platform: cannot write the access log ${destination}: ${error.message}\n`);
    failure = error;
  });
  return {
    write: (entry) => {
      if (!failure) stream.write(`${JSON.stringify(entry)}\n`);
    },
    close: () => new Promise<void>((resolve) => (failure ? resolve() : stream.end(resolve))),
  };
}
