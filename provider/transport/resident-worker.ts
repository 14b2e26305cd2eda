// A connection worker of the resident server (resident.ts; provider/README.md "Resident
// server"): a worker thread that serves one Terraform connection at a time, so that two
// Terraform runs served at once each have a thread (a core) of their own. The server starts it
// ahead of need (a spare), and it loads the provider's runtime while it waits, so a launch
// never waits for a thread to start or for the runtime to compile.
//
// The server has already checked the launcher (its user, environment, working directory,
// client certificate) and hands over everything the connection needs: the reply FIFO, a TLS
// identity and the socket path. Here: listen on that socket for that client certificate alone,
// write the go-plugin handshake line into the reply FIFO, serve, and end the connection on
// Shutdown or when the launcher or its Terraform is gone, stopping its work and releasing its
// client (the embedded platform's database) before the FIFO closes and the launcher exits.
import { closeSync, constants, fstatSync, openSync, rmSync } from "node:fs";
import type http2 from "node:http2";
import { Socket } from "node:net";
import { parentPort, threadId } from "node:worker_threads";
import { createGrpcServer, type UnaryRoute } from "./grpc.js";
import { listening } from "./listen.js";
import { note, parentOf } from "./resident-proc.js";
import { lazyRouter, type ProviderRouter, type ServeOptions } from "./serve.js";

/** How often the connection's launcher and Terraform are checked. */
const WATCH_MS = 500;

/** A connection, as the server hands it to a worker. */
export interface ConnectionJob {
  launcher: number;
  terraform: number;
  replyPath: string;
  clientCert: string;
  socketPath: string;
  identity: { keyPem: string; certPem: string; certBase64: string };
}

/** From the server: serve this connection, or leave (the worker is not needed any more). */
export type ToWorker = { type: "serve"; job: ConnectionJob } | { type: "exit" };
/** To the server: ready for a connection (after loading, and after each connection ends). */
export type FromWorker = { type: "ready" };

export function serveConnections(options: ServeOptions): void {
  const port = parentPort!;
  // The provider's log lines go to the current connection's launcher, which relays them to its
  // stderr (Terraform's log).
  let current: Socket | undefined;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    if (current && !current.destroyed && !current.writableEnded) current.write(typeof chunk === "string" ? chunk : Buffer.from(chunk));
    return true;
  }) as typeof process.stderr.write;

  const ready = () => port.postMessage({ type: "ready" } satisfies FromWorker);
  port.on("message", (message: ToWorker) => {
    if (message.type === "exit") process.exit(0);
    void serveOne(options, message.job, (reply) => (current = reply)).finally(() => {
      current = undefined;
      ready();
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
    .finally(ready);
}

/** Serves one connection; settles once it has ended and released everything. */
function serveOne(options: ServeOptions, job: ConnectionJob, setCurrent: (reply: Socket) => void): Promise<void> {
  const { launcher, terraform, replyPath, socketPath } = job;
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
        return finished();
      }
      reply = new Socket({ fd, readable: false, writable: true });
    } catch (error) {
      note(`request of launcher ${launcher} failed: ${error instanceof Error ? error.message : String(error)}`);
      return finished();
    }
    reply.on("error", () => {});

    let loaded: Promise<ProviderRouter> | undefined;
    const load = () => (loaded ??= options.router({ terraformPid: terraform }));
    let ended = false;
    const sessions = new Set<http2.ServerHttp2Session>();
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
    const server = createGrpcServer(lazyRouter(load, options.staticResponses, shutdown), { key: job.identity.keyPem, cert: job.identity.certPem, clientCert: job.clientCert });
    server.on("session", (session: http2.ServerHttp2Session) => {
      sessions.add(session);
      session.once("close", () => sessions.delete(session));
    });
    // Terraform killed outright calls no Shutdown; a launcher killed (Terraform's kill after
    // Shutdown's grace time) neither. Either way this connection is over.
    const watch = setInterval(() => {
      if (parentOf(launcher) !== terraform) end("the launcher or its Terraform is gone");
    }, WATCH_MS);
    listening(server, (done) => server.listen(socketPath, done)).then(
      () => {
        if (ended) return;
        reply.write(`1|6|unix|${socketPath}|grpc|${job.identity.certBase64}\n`);
        // Only now: the launcher takes its first line for the handshake, so nothing (a log
        // line, one of Node's warnings) may come before it.
        setCurrent(reply);
        note(`connection for launcher ${launcher} of Terraform ${terraform} on thread ${threadId}`);
      },
      (error: unknown) => {
        note(`request of launcher ${launcher} failed: ${error instanceof Error ? error.message : String(error)}`);
        end("failed before its handshake");
      },
    );
  });
}
