// A unary-only gRPC server on node:http2. Terraform only makes unary calls to a provider (the
// go-plugin stdio and broker streams may be refused), so the whole of gRPC we need is: one
// length-prefixed message in, one out, and the status in trailers. This costs a fraction of
// @grpc/grpc-js's start-up time, which matters because Terraform starts several provider
// processes per command.
import http2 from "node:http2";
import { log } from "../log.js";

export const enum Status {
  OK = 0,
  UNKNOWN = 2,
  INVALID_ARGUMENT = 3,
  UNIMPLEMENTED = 12,
  INTERNAL = 13,
}

export interface UnaryRoute {
  call(request: Uint8Array): Promise<Uint8Array>;
  /** Runs once the response has been sent (used to exit after GRPCController.Shutdown). */
  after?(): void;
}

/** Finds the route of a method path; undefined answers UNIMPLEMENTED. */
export type Router = (path: string) => UnaryRoute | undefined | Promise<UnaryRoute | undefined>;

export interface TlsIdentity {
  key: string;
  cert: string;
  /** The only client certificate accepted (Terraform's, from PLUGIN_CLIENT_CERT). */
  clientCert: string;
}

export function createGrpcServer(router: Router, tls?: TlsIdentity): http2.Http2Server | http2.Http2SecureServer {
  let server: http2.Http2Server | http2.Http2SecureServer;
  if (tls) {
    const secure = http2.createSecureServer({
      key: tls.key,
      cert: tls.cert,
      // Mutual TLS as go-plugin does it: require a client certificate signed by (that is,
      // identical to) the one Terraform gave us.
      ca: [tls.clientCert],
      requestCert: true,
      rejectUnauthorized: true,
      minVersion: "TLSv1.2",
    });
    secure.on("tlsClientError", (error) => log("warn", "rejected a TLS client", { error: error.message }));
    server = secure;
  } else {
    // Plaintext (TF_DISABLE_PLUGIN_TLS): gRPC over HTTP/2 with prior knowledge.
    server = http2.createServer();
  }
  server.on("stream", (stream, headers) => {
    void handleStream(stream, headers, router);
  });
  server.on("sessionError", (error) => log("debug", "http2 session error", { error: error.message }));
  server.on("error", (error) => log("error", "gRPC server error", { error: error.message }));
  return server;
}

async function handleStream(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, router: Router): Promise<void> {
  stream.on("error", (error) => log("debug", "http2 stream error", { error: error.message }));
  const path = headers[":path"] ?? "";
  const contentType = String(headers["content-type"] ?? "");
  if (headers[":method"] !== "POST" || !contentType.startsWith("application/grpc")) {
    if (!stream.destroyed) stream.respond({ ":status": 415 }, { endStream: true });
    return;
  }
  // Read the request while the route is being resolved (the first call loads the handlers).
  const body = readAll(stream);
  // Refused calls never read their body: a later stream error must not become an unhandled rejection.
  body.catch(() => {});
  let route: UnaryRoute | undefined;
  try {
    route = await router(path);
  } catch (error) {
    fail(stream, Status.INTERNAL, `loading the provider failed: ${messageOf(error)}`);
    return;
  }
  if (!route) {
    // Refuse at once: streaming methods (go-plugin's stdio/broker) never half-close.
    fail(stream, Status.UNIMPLEMENTED, `${path} is not implemented`);
    return;
  }
  let request: Uint8Array;
  try {
    request = unframe(await body);
  } catch (error) {
    fail(stream, Status.INVALID_ARGUMENT, messageOf(error));
    return;
  }
  let response: Uint8Array;
  try {
    response = await route.call(request);
  } catch (error) {
    log("error", "RPC failed", { method: path, error: messageOf(error) });
    fail(stream, Status.INTERNAL, messageOf(error));
    return;
  }
  if (stream.destroyed || stream.closed) return;
  if (route.after) stream.once("close", route.after);
  stream.respond({ ":status": 200, "content-type": "application/grpc+proto" }, { waitForTrailers: true });
  stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": String(Status.OK) }));
  stream.end(frame(response));
}

function readAll(stream: http2.ServerHttp2Stream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.once("end", () => resolve(Buffer.concat(chunks)));
    stream.once("error", reject);
  });
}

/** The single message of a unary request: 1 byte compressed flag, 4 bytes length, payload. */
function unframe(data: Buffer): Uint8Array {
  if (data.length < 5) throw new Error("request has no message");
  if (data[0] !== 0) throw new Error("compressed messages are not supported");
  const length = data.readUInt32BE(1);
  if (data.length < 5 + length) throw new Error("request message is truncated");
  return data.subarray(5, 5 + length);
}

function frame(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(5 + message.length);
  out[0] = 0;
  out.writeUInt32BE(message.length, 1);
  out.set(message, 5);
  return out;
}

/** A "trailers-only" gRPC error response. */
function fail(stream: http2.ServerHttp2Stream, status: Status, message: string): void {
  if (stream.destroyed || stream.closed) return;
  stream.respond(
    {
      ":status": 200,
      "content-type": "application/grpc+proto",
      "grpc-status": String(status),
      // grpc-message is percent-encoded.
      "grpc-message": encodeURIComponent(message),
    },
    { endStream: true },
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
