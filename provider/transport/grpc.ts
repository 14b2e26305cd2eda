// A unary-only gRPC server on node:http2. Terraform only makes unary calls to a provider (the
// go-plugin stdio and broker streams may be refused), so the whole of gRPC we need is: one
// length-prefixed message in, one out, and the status in trailers. This costs a fraction of
// @grpc/grpc-js's start-up time, which matters because Terraform starts several provider
// processes per command.
import http2 from "node:http2";
import type { TLSSocket } from "node:tls";
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
  /**
   * The only client certificate accepted (Terraform's, from PLUGIN_CLIENT_CERT), PEM; or where
   * it is known only later (a resident server's listener made ahead of its connection), a
   * function that returns it at each TLS connection: none yet means no client is accepted.
   */
  clientCert: string | (() => string | undefined);
}

export function createGrpcServer(router: Router, tls?: TlsIdentity): http2.Http2Server | http2.Http2SecureServer {
  let server: http2.Http2Server | http2.Http2SecureServer;
  if (tls) {
    const expected = expectedCertificate(tls.clientCert);
    const secure = http2.createSecureServer({
      key: tls.key,
      cert: tls.cert,
      // Mutual TLS as go-plugin does it: the client must present exactly the certificate
      // Terraform gave us (and, in the handshake, prove that it holds its key). The check is
      // ours, right after the handshake, instead of OpenSSL's chain validation with that
      // certificate as the only CA: naming any CA makes Node build a trust store from its ~140
      // bundled root certificates (20-30 ms at every start; the launcher keeps
      // NODE_EXTRA_CA_CERTS, which would make Node do it at start-up, away), and would also
      // accept certificates those roots issued.
      ca: [],
      requestCert: true,
      rejectUnauthorized: false,
      minVersion: "TLSv1.2",
    });
    // Registered after http2's own listener, in the same synchronous emit: the session has not
    // read anything from the socket yet when an impostor's connection is destroyed.
    secure.on("secureConnection", (socket: TLSSocket) => {
      const presented = socket.getPeerCertificate()?.raw;
      const wanted = expected();
      if (presented && wanted && presented.equals(wanted)) return;
      log("warn", "rejected a TLS client", { error: !wanted ? "no client is expected yet" : presented ? "not Terraform's client certificate" : "no client certificate" });
      socket.destroy();
    });
    secure.on("tlsClientError", (error) => log("warn", "rejected a TLS client", { error: error.message }));
    server = secure;
  } else {
    // Plaintext (TF_DISABLE_PLUGIN_TLS): gRPC over HTTP/2 with prior knowledge.
    server = http2.createServer();
  }
  server.on("stream", (stream, headers) => handleStream(stream, headers, router));
  server.on("sessionError", (error) => log("debug", "http2 session error", { error: error.message }));
  server.on("error", (error) => log("error", "gRPC server error", { error: error.message }));
  return server;
}

// Per-stream work is kept to what a unary call needs (Terraform makes thousands of calls per
// plan): plain callbacks instead of promise chains, no Date header, and shared header objects
// and listeners instead of fresh closures.
const RESPONSE_HEADERS = { ":status": 200, "content-type": "application/grpc+proto" };
const RESPONSE_OPTIONS = { waitForTrailers: true, sendDate: false };
const OK_TRAILERS = { "grpc-status": String(Status.OK) };

function sendOkTrailers(this: http2.ServerHttp2Stream): void {
  this.sendTrailers(OK_TRAILERS);
}

function onStreamError(error: Error): void {
  log("debug", "http2 stream error", { error: error.message });
}

function handleStream(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, router: Router): void {
  stream.on("error", onStreamError);
  const path = headers[":path"] ?? "";
  const contentType = headers["content-type"];
  if (headers[":method"] !== "POST" || typeof contentType !== "string" || !contentType.startsWith("application/grpc")) {
    if (!stream.destroyed) stream.respond({ ":status": 415 }, { endStream: true });
    return;
  }
  // Read the request while the route is being resolved (the first call loads the handlers).
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let ended = false;
  // undefined: not resolved yet; null: refused.
  let route: UnaryRoute | null | undefined;
  stream.on("data", (chunk: Buffer) => {
    if (first === undefined) first = chunk;
    else (more ??= [first]).push(chunk);
  });
  // `on`, not `once`: each fires at most once, and once-wrappers cost a listener removal per call.
  stream.on("end", () => {
    ended = true;
    if (route) dispatch(stream, path, route, more ? Buffer.concat(more) : (first ?? EMPTY));
  });
  const resolved = (found: UnaryRoute | undefined) => {
    if (!found) {
      route = null;
      // Refuse at once: streaming methods (go-plugin's stdio/broker) never half-close.
      fail(stream, Status.UNIMPLEMENTED, `${path} is not served by this provider`);
      return;
    }
    route = found;
    if (ended) dispatch(stream, path, found, more ? Buffer.concat(more) : (first ?? EMPTY));
  };
  const failed = (error: unknown) => {
    route = null;
    fail(stream, Status.INTERNAL, `loading the provider failed: ${messageOf(error)}`);
  };
  let found: ReturnType<Router>;
  try {
    found = router(path);
  } catch (error) {
    failed(error);
    return;
  }
  if (found && typeof (found as PromiseLike<unknown>).then === "function") (found as PromiseLike<UnaryRoute | undefined>).then(resolved, failed);
  else resolved(found as UnaryRoute | undefined);
}

const EMPTY = Buffer.alloc(0);

function dispatch(stream: http2.ServerHttp2Stream, path: string, route: UnaryRoute, data: Buffer): void {
  let request: Uint8Array;
  try {
    request = unframe(data);
  } catch (error) {
    fail(stream, Status.INVALID_ARGUMENT, messageOf(error));
    return;
  }
  let pending: Promise<Uint8Array>;
  try {
    pending = route.call(request);
  } catch (error) {
    failedCall(stream, path, error);
    return;
  }
  pending.then(
    (response) => {
      if (stream.destroyed || stream.closed) return;
      if (route.after) stream.once("close", route.after);
      stream.respond(RESPONSE_HEADERS, RESPONSE_OPTIONS);
      stream.on("wantTrailers", sendOkTrailers);
      stream.end(frame(response));
    },
    (error: unknown) => failedCall(stream, path, error),
  );
}

function failedCall(stream: http2.ServerHttp2Stream, path: string, error: unknown): void {
  log("error", "RPC failed", { method: path, error: messageOf(error) });
  fail(stream, Status.INTERNAL, messageOf(error));
}

/**
 * The expected client certificate's DER bytes at each connection, decoded once per PEM text. A
 * fixed PEM is decoded at once, so a bad PLUGIN_CLIENT_CERT fails the start, not a connection.
 */
function expectedCertificate(clientCert: TlsIdentity["clientCert"]): () => Buffer | undefined {
  if (typeof clientCert === "string") {
    const der = certificateDer(clientCert);
    return () => der;
  }
  let decoded: { pem: string; der: Buffer | undefined } | undefined;
  return () => {
    const pem = clientCert();
    if (pem === undefined) return undefined;
    if (decoded?.pem !== pem) {
      let der: Buffer | undefined;
      try {
        der = certificateDer(pem);
      } catch {
        // no certificate in it: nobody is accepted
      }
      decoded = { pem, der };
    }
    return decoded.der;
  };
}

/** The DER bytes of the (first) certificate of a PEM text. */
function certificateDer(pem: string): Buffer {
  const match = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----/.exec(pem);
  const der = match ? Buffer.from(match[1]!.replace(/\s+/g, ""), "base64") : Buffer.alloc(0);
  if (der.length === 0) throw new Error("PLUGIN_CLIENT_CERT holds no PEM certificate");
  return der;
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
