// The log exporter's `cloudmon` destination, delivered locally: the PostgreSQL server log of each
// service that attaches a log exporter is appended, line by line, to
// `<data dir>/sinks/logs/<log_group_name>/<log_stream_name>.log` (sinks.ts), each line prefixed
// with the service id and a space (several services can attach one exporter).
//
// Attaching a log exporter to a running service needs a restart to complete (the platform's rule,
// and its warning): lines are shipped from the service's first start after the attachment, never
// from before it. The shipper compares the postmaster's start time with the attachment time; once
// it has seen such a start it ships from that start's "starting PostgreSQL" line and keeps
// shipping (through later restarts and while the database is down).
//
// The read position is persisted per service (`<data dir>/sinks/.offsets/<service id>.json`,
// replaced atomically after each append), so a restarted agent ships no line twice. A log file
// replaced (another inode) or truncated (shorter, or its first bytes changed) is read again from
// its start.

import { createHash } from "node:crypto";
import { appendFile, mkdir, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { AdminConnection } from "../driver.js";
import { logSinkFile, sinkSegment } from "./sinks.js";

/** One service's log shipping as it should be. */
export interface LogShipment {
  serviceId: string;
  exporterId: string;
  logGroupName: string;
  logStreamName: string;
  /** the primary's server log (driver.serverLogFile); undefined while it has none */
  logFile: string | undefined;
  /** when the exporter was attached to the service (RFC 3339, from the control plane) */
  attachedAt: string;
  /** when the running postmaster started, when the agent knows it (RFC 3339) */
  postmasterStartedAt?: string;
  /** else it is read from the database (pg_postmaster_start_time()) */
  target?: AdminConnection;
}

export interface LogShipmentStatus {
  status: "shipping" | "waiting_for_restart" | "failed";
  message?: string;
}

/** How many bytes one pass reads at most (the rest follows on the next pass). */
const MAX_PASS_BYTES = 4 * 1024 * 1024;
/** How much of the log file's beginning identifies it (to notice a truncate-and-rewrite). */
const HEAD_BYTES = 1024;
const START_LINE = /^.*LOG:\s+starting PostgreSQL /gm;

interface ShipState {
  exporterId: string;
  attachedAt: string;
  /** where the next line starts */
  offset: number;
  /** the log file's identity when last read */
  dev: number;
  ino: number;
  headLength: number;
  headHash: string;
}

export class LogShippers {
  constructor(private readonly options: { dataDir: string }) {}

  /** One shipping pass for each desired service; the status of each, by service id. */
  async sync(desired: LogShipment[]): Promise<Map<string, LogShipmentStatus>> {
    const statuses = new Map<string, LogShipmentStatus>();
    // one at a time: several services may append to the same stream file
    for (const shipment of desired) {
      try {
        statuses.set(shipment.serviceId, await this.ship(shipment));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        statuses.set(shipment.serviceId, { status: "failed", message: `log shipping failed: ${code ?? (error as Error).message}` });
      }
    }
    return statuses;
  }

  /** Drops a service's read position (its service is gone or its exporter detached). */
  async forget(serviceId: string): Promise<void> {
    await rm(this.stateFile(serviceId), { force: true });
  }

  private stateFile(serviceId: string): string {
    return join(this.options.dataDir, "sinks", ".offsets", `${sinkSegment(serviceId)}.json`);
  }

  private async ship(shipment: LogShipment): Promise<LogShipmentStatus> {
    let state = await this.readState(shipment);
    if (!shipment.logFile) return state ? { status: "shipping" } : { status: "waiting_for_restart", message: "the service has no server log yet" };
    if (!state) {
      const started = shipment.postmasterStartedAt ?? (await postmasterStart(shipment.target));
      if (!started || Date.parse(started) <= Date.parse(shipment.attachedAt)) {
        return { status: "waiting_for_restart", message: "logs flow from the service's first start after the log exporter was attached: pause and resume the service" };
      }
      state = await this.firstState(shipment, shipment.logFile);
      if (!state) return { status: "waiting_for_restart", message: "the service has no server log yet" };
    }
    await this.shipNewLines(shipment, shipment.logFile, state);
    return { status: "shipping" };
  }

  private async readState(shipment: LogShipment): Promise<ShipState | undefined> {
    let state: ShipState;
    try {
      state = JSON.parse(await readFile(this.stateFile(shipment.serviceId), "utf8")) as ShipState;
    } catch {
      return undefined;
    }
    // another exporter, or the same one attached again: a new attachment, which waits for its restart
    return state.exporterId === shipment.exporterId && state.attachedAt === shipment.attachedAt ? state : undefined;
  }

  /** The position of the current postmaster's start line (the file's start when there is none). */
  private async firstState(shipment: LogShipment, logFile: string): Promise<ShipState | undefined> {
    const file = await open(logFile, "r").catch(() => undefined);
    if (!file) return undefined;
    try {
      const info = await file.stat();
      const from = Math.max(0, info.size - MAX_PASS_BYTES);
      const tail = await readRange(file, from, info.size - from);
      const text = tail.toString("latin1"); // one char per byte: indexes are byte offsets
      // Without a start line in the window, everything in it came after the start (a file that
      // began after it, or a start further back than the window): from its first whole line.
      let offset = from === 0 ? 0 : from + text.indexOf("\n") + 1;
      for (const match of text.matchAll(START_LINE)) offset = from + match.index!;
      const head = await readRange(file, 0, Math.min(HEAD_BYTES, info.size));
      const state: ShipState = { exporterId: shipment.exporterId, attachedAt: shipment.attachedAt, offset, dev: info.dev, ino: info.ino, headLength: head.length, headHash: hash(head) };
      await this.writeState(shipment.serviceId, state);
      return state;
    } finally {
      await file.close();
    }
  }

  private async shipNewLines(shipment: LogShipment, logFile: string, state: ShipState): Promise<void> {
    const file = await open(logFile, "r").catch(() => undefined);
    if (!file) return; // rotated away this instant, or not written yet: the next pass
    try {
      const info = await file.stat();
      const head = await readRange(file, 0, Math.min(HEAD_BYTES, info.size));
      const replaced = info.dev !== state.dev || info.ino !== state.ino;
      const truncated = info.size < state.offset || head.length < state.headLength || hash(head.subarray(0, state.headLength)) !== state.headHash;
      const from = replaced || truncated ? 0 : state.offset;
      const chunk = await readRange(file, from, Math.min(info.size - from, MAX_PASS_BYTES));
      const end = chunk.lastIndexOf(0x0a) + 1; // whole lines only: a partial line waits for its newline
      const next: ShipState = { ...state, offset: from + end, dev: info.dev, ino: info.ino, headLength: head.length, headHash: hash(head) };
      if (end > 0) {
        const lines = chunk.subarray(0, end).toString("utf8").split("\n").slice(0, -1);
        const sink = logSinkFile(this.options.dataDir, shipment.logGroupName, shipment.logStreamName);
        await mkdir(dirname(sink), { recursive: true });
        await appendFile(sink, lines.map((line) => `${shipment.serviceId} ${line}\n`).join(""));
      }
      if (JSON.stringify(next) !== JSON.stringify(state)) await this.writeState(shipment.serviceId, next);
    } finally {
      await file.close();
    }
  }

  private async writeState(serviceId: string, state: ShipState): Promise<void> {
    const path = this.stateFile(serviceId);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(state));
    await rename(temporary, path);
  }
}

async function readRange(file: Awaited<ReturnType<typeof open>>, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(Math.max(0, length));
  let read = 0;
  while (read < buffer.length) {
    const { bytesRead } = await file.read(buffer, read, buffer.length - read, position + read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  return buffer.subarray(0, read);
}

function hash(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** pg_postmaster_start_time() of the service, or undefined when it does not answer. */
async function postmasterStart(target: AdminConnection | undefined): Promise<string | undefined> {
  if (!target) return undefined;
  const pg = (await import("pg")).default;
  const client = new pg.Client({ ...target, application_name: "schemaform-logs", connectionTimeoutMillis: 3000, query_timeout: 5000 });
  client.on("error", () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ started: Date }>("SELECT pg_postmaster_start_time() AS started");
    return rows[0]?.started.toISOString();
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}

