// Waiting for a status, with a timeout: what the provider does after create and update
// (`timeouts.create`). Polls with a growing interval (100 ms → 2 s); never waits past the deadline.

import { PlatformError } from "./errors.js";
import type { PeeringConnection, PlatformClient, Service, Vpc } from "./types.js";

export type WaitVerdict = "done" | "pending" | { failed: string };

export interface WaitOptions {
  /** total time allowed, in milliseconds */
  timeoutMs: number;
  /** what is being waited for, for messages: "service d1k5vk7hf2 to be READY" */
  what: string;
  /** first poll interval (default 100 ms); grows by half each time up to `maxIntervalMs` */
  intervalMs?: number;
  maxIntervalMs?: number;
  signal?: AbortSignal;
  /** injectable for tests */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Calls `probe` until `judge` says `done` (returns the last value), or `{ failed }` (throws a
 * `failed_precondition` PlatformError with that message), or the time is up (throws `timeout`).
 */
export async function waitFor<T>(probe: () => Promise<T>, judge: (value: T) => WaitVerdict, options: WaitOptions): Promise<T> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = now() + options.timeoutMs;
  let interval = options.intervalMs ?? 100;
  const maxInterval = options.maxIntervalMs ?? 2000;
  let last: T | undefined;
  for (;;) {
    if (options.signal?.aborted) throw new PlatformError("timeout", `stopped waiting for ${options.what}: cancelled`);
    last = await probe();
    const verdict = judge(last);
    if (verdict === "done") return last;
    if (verdict !== "pending") throw new PlatformError("failed_precondition", `${options.what} failed: ${verdict.failed}`);
    const left = deadline - now();
    if (left <= 0) {
      const status = (last as { status?: unknown } | undefined)?.status;
      throw new PlatformError("timeout", `timed out after ${formatMs(options.timeoutMs)} waiting for ${options.what}${typeof status === "string" ? ` (last status ${status})` : ""}`);
    }
    await sleep(Math.min(interval, left));
    interval = Math.min(Math.ceil(interval * 1.5), maxInterval);
  }
}

function formatMs(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

type Extra = Omit<WaitOptions, "timeoutMs" | "what">;

/** Waits until a service is READY or PAUSED (the reference provider's targets); fails on ERROR (the data plane's cause). */
export function waitForService(client: PlatformClient, project: string, id: string, timeoutMs: number, extra: Extra = {}): Promise<Service> {
  return waitFor(
    () => client.services.get(project, id),
    (s) => (s.status === "READY" || s.status === "PAUSED" ? "done" : s.status === "ERROR" ? { failed: s.status_message ?? "the data plane could not run the service" } : "pending"),
    { ...extra, timeoutMs, what: `service ${id} to be READY` },
  );
}

/** Waits until a VPC is CREATED (fails on ERROR). */
export function waitForVpc(client: PlatformClient, project: string, vpcsId: number, timeoutMs: number, extra: Extra = {}): Promise<Vpc> {
  return waitFor(
    () => client.vpcs.get(project, vpcsId),
    (v) => (v.status === "CREATED" ? "done" : v.status === "ERROR" ? { failed: v.error_message || "the VPC is in status ERROR" } : "pending"),
    { ...extra, timeoutMs, what: `VPC ${vpcsId} to be CREATED` },
  );
}

/** Waits until a peering connection reaches one of `targets` (default ACTIVE); fails on INVALID, TIMEOUT or DISABLED. */
export function waitForPeering(
  client: PlatformClient,
  project: string,
  platformVpcId: number,
  id: number,
  timeoutMs: number,
  targets: string[] = ["ACTIVE"],
  extra: Extra = {},
): Promise<PeeringConnection> {
  return waitFor(
    () => client.peering.get(project, platformVpcId, id),
    (p) =>
      targets.includes(p.status)
        ? "done"
        : ["INVALID", "TIMEOUT", "DISABLED"].includes(p.status)
          ? { failed: `status ${p.status}${p.error_message ? `: ${p.error_message}` : ""}` }
          : "pending",
    { ...extra, timeoutMs, what: `peering connection ${id} to be ${targets.join(" or ")}` },
  );
}
