// A connection worker of the resident server (resident.ts; provider/README.md "Resident
// server"): a worker thread that serves one Terraform connection at a time, so that two
// Terraform runs served at once each have a thread (a core) of their own. The server starts it
// ahead of need (a spare), and it loads the provider's runtime while it waits, so a launch
// never waits for a thread to start or for the runtime to compile.
//
// While idle, a worker also holds its next listener ready: a fresh TLS identity, its gRPC
// server and a unix socket in the key's directory, already listening. Making them takes 1.5-2 ms
// (key pair, certificate, TLS context, bind), which a launch would otherwise wait for before
// its handshake line; a listener serves one connection and closes with it.
//
// The server has already checked the launcher (its user, environment, working directory,
// client certificate) and hands over what is left: the reply FIFO and Terraform's client
// certificate. Here: accept that certificate alone on the ready listener, write the go-plugin
// handshake line into the reply FIFO, serve, and end the connection on Shutdown or when the
// launcher or its Terraform is gone, stopping its work and releasing its client (the embedded
// platform's database) before the FIFO closes and the launcher exits.
import { closeSync, constants, fstatSync, openSync, rmSync } from "node:fs";
import type http2 from "node:http2";
import { Socket } from "node:net";
import { join } from "node:path";
import { parentPort, threadId } from "node:worker_threads";
import { createServerIdentity } from "./cert.js";
import { createGrpcServer, type Router, type UnaryRoute } from "./grpc.js";
import { listening } from "./listen.js";
import { note, parentOf } from "./resident-proc.js";
import { handshakeLine, lazyRouter, type ProviderRouter, type ServeOptions } from "./serve.js";

/** How often the connection's launcher and Terraform are checked. */
const WATCH_MS = 500;

/** A connection, as the server hands it to a worker. */
export interface ConnectionJob {
  launcher: number;
  terraform: number;
  replyPath: string;
  clientCert: string;
}

/** From the server: serve this connection, or leave (the worker is not needed any more). */
export type ToWorker = { type: "serve"; job: ConnectionJob } | { type: "exit" };
/**
 * To the server: ready for a connection (after loading, and after each connection ends), with
 * the socket of its listener (the server removes it should the worker die).
 */
export type FromWorker = { type: "ready"; socketPath: string };

/** The longest socket name a worker makes: "s<pid>-<thread>-<n>.sock". */
export const SOCKET_NAME_MAX = "s4194304-4294967295-4294967295.sock".length;

/** A listener made ahead of its connection; `connection` is set when one is handed to it. */
interface Listener {
  server: http2.Http2SecureServer;
  socketPath: string;
  certBase64: string;
  sessions: Set<http2.ServerHttp2Session>;
  connection?: { clientCert: string; router: Router };
}

let listeners = 0;

/**
 * A fresh identity and gRPC server listening on a new socket in `directory`. Until a connection
 * is handed to it, every TLS client is refused (no client certificate is expected yet).
 */
async function prepareListener(directory: string): Promise<Listener> {
  const identity = await createServerIdentity();
  const socketPath = join(directory, `s${process.pid}-${threadId}-${++listeners}.sock`);
  const sessions = new Set<http2.ServerHttp2Session>();
  const server = createGrpcServer((path) => listener.connection?.router(path), {
    key: identity.keyPem,
    cert: identity.certPem,
    clientCert: () => listener.connection?.clientCert,
  }) as http2.Http2SecureServer;
  const listener: Listener = { server, socketPath, certBase64: identity.certBase64, sessions };
  server.on("session", (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  await listening(server, (done) => server.listen(socketPath, done));
  return listener;
}

export function serveConnections(options: ServeOptions, directory: string): void {
  const port = parentPort!;
  // The provider's log lines go to the current connection's launcher, which relays them to its
  // stderr (Terraform's log).
  let current: Socket | undefined;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    if (current && !current.destroyed && !current.writableEnded) current.write(typeof chunk === "string" ? chunk : Buffer.from(chunk));
    return true;
  }) as typeof process.stderr.write;

  let next: Listener | undefined;
  // Ready once the next listener is: a worker that cannot listen serves nothing and leaves
  // (the server starts no more after a few such failures).
  const ready = () =>
    prepareListener(directory).then(
      (listener) => {
        next = listener;
        port.postMessage({ type: "ready", socketPath: listener.socketPath } satisfies FromWorker);
      },
      (error: unknown) => {
        note(`a worker cannot listen: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(70);
      },
    );
  port.on("message", (message: ToWorker) => {
    if (message.type === "exit") {
      if (next) rmSync(next.socketPath, { force: true });
      process.exit(0);
    }
    const listener = next!;
    next = undefined;
    void serveOne(options, message.job, listener, (reply) => (current = reply)).finally(() => {
      current = undefined;
      void ready();
    });
  });
  // Compile the runtime now, while nobody waits: a router made and closed at once opens nothing
  // (the client is made by ConfigureProvider).
  options
    .router()
    .then((router) => router.close?.())
    .catch(() => {
      // the connection that needs it will report the error
    })
    .finally(() => void ready());
}

/** Serves one connection on its listener; settles once it has ended and released everything. */
function serveOne(options: ServeOptions, job: ConnectionJob, listener: Listener, setCurrent: (reply: Socket) => void): Promise<void> {
  const { launcher, terraform, replyPath } = job;
  const { server, socketPath, sessions } = listener;
  return new Promise((finished) => {
    let reply: Socket;
    try {
      // A FIFO the launcher made in our directory for this request (the server checked its
      // name), and nothing else.
      const fd = openSync(replyPath, constants.O_RDWR | constants.O_NONBLOCK | constants.O_NOFOLLOW);
      const info = fstatSync(fd);
      if (!info.isFIFO() || info.uid !== process.getuid?.()) {
        closeSync(fd);
        note(`refused launcher ${launcher}: its reply is not a FIFO of ours`);
        server.close();
        return finished();
      }
      reply = new Socket({ fd, readable: false, writable: true });
    } catch (error) {
      note(`request of launcher ${launcher} failed: ${error instanceof Error ? error.message : String(error)}`);
      server.close();
      return finished();
    }
    reply.on("error", () => {});

    let loaded: Promise<ProviderRouter> | undefined;
    const load = () => (loaded ??= options.router({ terraformPid: terraform }));
    let ended = false;
    const end = (reason: string) => {
      if (ended) return;
      ended = true;
      clearInterval(watch);
      note(`connection of launcher ${launcher} ended: ${reason}`);
      server.close();
      for (const session of sessions) session.destroy();
      rmSync(socketPath, { force: true });
      // Stop its work and release its client; then the launcher may go (end of the FIFO).
      const closing = loaded ? loaded.then((router) => router.close?.()) : Promise.resolve();
      closing
        .catch(() => {})
        .finally(() => {
          reply.end(() => finished());
          // Removed with the connection: by then the launcher has opened it, or is gone.
          rmSync(replyPath, { force: true });
          // A reply that cannot drain (its launcher stopped reading) must not hold the worker.
          setTimeout(() => {
            reply.destroy();
            finished();
          }, 1000).unref();
        });
    };
    const shutdown: UnaryRoute = { call: async () => new Uint8Array(0), after: () => end("Shutdown") };
    listener.connection = { clientCert: job.clientCert, router: lazyRouter(load, options.staticResponses, shutdown) };
    // Terraform killed outright calls no Shutdown; a launcher killed (Terraform's kill after
    // Shutdown's grace time) neither. Either way this connection is over.
    const watch = setInterval(() => {
      if (parentOf(launcher) !== terraform) end("the launcher or its Terraform is gone");
    }, WATCH_MS);
    reply.write(handshakeLine(`unix|${socketPath}`, listener.certBase64));
    // Only now: the launcher takes its first line for the handshake, so nothing (a log line,
    // one of Node's warnings) may come before it.
    setCurrent(reply);
    note(`connection for launcher ${launcher} of Terraform ${terraform} on thread ${threadId}`);
  });
}
