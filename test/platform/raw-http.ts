// Requests to the platform server exactly as written: fetch would normalise the path (resolve
// `..`, drop a fragment, re-encode) and refuse some header values, which is what hostile-input
// tests must not do.

import { request } from "node:http";
import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request with the path and headers as given; `body` is sent as is. */
export function rawRequest(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Writes `bytes` on a fresh connection and returns what the server sent before the connection
 * ended (closed or reset by the server), or undefined when it was still open after `timeoutMs`.
 */
export function rawExchange(base: string, bytes: string, timeoutMs = 10_000): Promise<string | undefined> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let received = "";
    let timedOut = false;
    socket.setEncoding("utf8");
    socket.setTimeout(timeoutMs, () => {
      timedOut = true;
      socket.destroy();
    });
    socket.on("data", (chunk: string) => (received += chunk));
    socket.on("error", () => {
      // a reset is an end like any other here; 'close' follows
    });
    socket.on("close", () => resolve(timedOut ? undefined : received));
  });
}
