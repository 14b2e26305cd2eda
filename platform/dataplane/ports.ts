// Loopback ports for a data-plane service, chosen by the control plane at create and kept for the
// service's life (the driver listens on them; outputs name them). A port is free when nothing
// listens on 127.0.0.1:<port> now and no stored service holds it (a paused service listens on
// nothing, yet keeps its ports).

import { randomInt } from "node:crypto";
import { createServer } from "node:net";

const LOW = 30000;
const HIGH = 40000;

/** Whether 127.0.0.1:`port` can be listened on right now. */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** `count` distinct free loopback ports, none of them in `taken`. */
export async function choosePorts(count: number, taken: ReadonlySet<number>): Promise<number[]> {
  const chosen: number[] = [];
  for (let attempt = 0; chosen.length < count; attempt++) {
    if (attempt > 500) throw new Error(`no free loopback port found between ${LOW} and ${HIGH}`);
    const port = randomInt(LOW, HIGH);
    if (taken.has(port) || chosen.includes(port)) continue;
    if (await isPortFree(port)) chosen.push(port);
  }
  return chosen;
}

/** Every port held by a stored service (from the `spec` JSON of its row). */
export function portsHeld(specs: Array<{ spec: string }>): Set<number> {
  const out = new Set<number>();
  for (const { spec } of specs) {
    const ports = (JSON.parse(spec) as { ports?: Record<string, number> }).ports ?? {};
    for (const port of Object.values(ports)) out.add(port);
  }
  return out;
}
