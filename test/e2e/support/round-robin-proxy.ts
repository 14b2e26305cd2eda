// A load balancer for end-to-end tests, as small as one can be: a TCP proxy on loopback that
// hands each new client connection to the next backend in turn (round robin) and copies bytes
// both ways. It knows nothing of HTTP, so a keep-alive connection stays on the backend it was
// given, as behind a layer-4 balancer. It keeps what each connection's client sent, so a test can
// tell which traffic reached which backend.
import { connect, createServer, type Socket } from "node:net";

export interface Backend {
  host: string;
  port: number;
}

export interface Connection {
  /** index of the backend in `backends` */
  backend: number;
  /** every byte the client sent on it (latin1), in order */
  sent: string;
}

export interface RoundRobinProxy {
  url: string;
  port: number;
  /** connections handed to each backend so far, in the order of `backends` */
  connections(): number[];
  /** every connection so far, with what its client sent */
  traffic(): Connection[];
  /** Stops listening and cuts every open connection. */
  close(): Promise<void>;
}

export function startRoundRobinProxy(backends: Backend[]): Promise<RoundRobinProxy> {
  if (backends.length === 0) throw new Error("a round-robin proxy needs at least one backend");
  const seen: Connection[] = [];
  const open = new Set<Socket>();
  let next = 0;

  const track = (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  };

  const server = createServer((client) => {
    const index = next;
    next = (next + 1) % backends.length;
    const connection: Connection = { backend: index, sent: "" };
    seen.push(connection);
    client.on("data", (chunk: Buffer) => (connection.sent += chunk.toString("latin1")));
    const upstream = connect(backends[index]!);
    track(client);
    track(upstream);
    // a reset or a close on either side ends the other: the client sees what it would see from
    // the backend itself (and retries, as it would behind a real balancer)
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.once("close", () => upstream.destroy());
    upstream.once("close", () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        connections: () => backends.map((_, i) => seen.filter((c) => c.backend === i).length),
        traffic: () => seen.map((c) => ({ ...c })),
        close: () =>
          new Promise<void>((done) => {
            for (const socket of open) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
