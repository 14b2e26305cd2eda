// The data-plane agent: reconciles what the control plane stores (desired state) against what
// runs, through a DataPlaneDriver, and records what it observed (observed.ts) for honest statuses.
//
// Each tick (about every second, and at once after a poke):
// - holds the data plane's lease (lease.ts), or does nothing: exactly one agent reconciles;
// - builds every stored service's ServicePlan (plan.ts) and, per service, applies it when its
//   hash differs from the one observed, when the observation is not running-as-planned (a
//   postmaster killed with -9 is seen here and started again), or when a failed apply's backoff
//   is over; applies run concurrently (a few at a time), a read replica only once its source
//   runs;
// - removes services that are no longer stored (after their connectors let go of their sources);
// - runs the connectors and exporters (components.ts) against the services' admin connections.
//
// Failures are recorded with the driver's message (ERROR in the service's status, which fails the
// Terraform apply that waits for it) and retried with a growing backoff, so a port freed or a
// disk cleaned later heals without a Terraform command.

import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Storage } from "../storage.js";
import type { DataPlaneDriver, ServiceObserved } from "./driver.js";
import { holdLease, LEASE_TTL_MS, releaseLease } from "./lease.js";
import { deleteObservation, readObservations, writeObservation, type Observation } from "./observed.js";
import { storedPlans, type PlanResult } from "./plan.js";

export interface ComponentRunner {
  /** Runs every connector and exporter once; `running` are the services observed running as planned. */
  tick(running: ReadonlySet<string>): Promise<void>;
  /** What still needs the agent (a connector's source to let go of, an exporter's listener). */
  busy(): Promise<boolean>;
  /** Before a service is removed: let go of whatever its components hold elsewhere. */
  releaseService(serviceId: string): Promise<void>;
  stop(): Promise<void>;
}

export interface AgentOptions {
  store: Storage;
  driver: DataPlaneDriver;
  components?: ComponentRunner;
  /** default: host:pid:random */
  holder?: string;
  tickMs?: number;
  /** exit when nothing has needed the agent for this long; undefined: never (platform serve) */
  idleExitMs?: number;
  /** at most this many applies at once */
  concurrency?: number;
  log?: (line: string) => void;
}

const FIRST_RETRY_MS = 2000;
const MAX_RETRY_MS = 60_000;
/** How often a service that runs as planned is looked at (a crash is seen within this). */
const STEADY_LOOK_MS = 2000;
/** Disk and processes of a service that runs as planned are written again at most this often. */
const REFRESH_MS = 30_000;

export class Agent {
  readonly holder: string;
  readonly #o: AgentOptions;
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #retry = new Map<string, { at: number; delay: number; hash: string }>();
  #slots: number;
  readonly #queue: Array<() => void> = [];
  #wake: (() => void) | undefined;
  #poked = false;
  #stopped = false;
  #leaseUntil = 0;
  #idleSince: number | undefined;
  #exitIfIdle = false;
  #componentsRunning: Promise<void> | undefined;
  readonly #lookedAt = new Map<string, number>();

  constructor(options: AgentOptions) {
    this.#o = options;
    this.holder = options.holder ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
    this.#slots = options.concurrency ?? 3;
  }

  #log(line: string): void {
    this.#o.log?.(`${new Date().toISOString()} ${line}`);
  }

  /** Reconcile now rather than at the next tick. */
  poke(): void {
    this.#poked = true;
    this.#wake?.();
  }

  /** Leave at once when nothing needs the agent (schemaform down). */
  exitIfIdle(): void {
    this.#exitIfIdle = true;
    this.poke();
  }

  stop(): void {
    this.#stopped = true;
    this.#wake?.();
  }

  /** Ticks until stopped, or idle for idleExitMs. Resolves with why it ended. */
  async run(): Promise<"stopped" | "idle"> {
    try {
      while (!this.#stopped) {
        this.#poked = false;
        try {
          if (await this.tick()) return "idle";
        } catch (error) {
          this.#log(`tick failed: ${error instanceof Error ? error.message : String(error)}`);
        }
        if (this.#stopped) break;
        if (!this.#poked) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, this.#o.tickMs ?? 1000);
            this.#wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          this.#wake = undefined;
        }
      }
      return "stopped";
    } finally {
      await Promise.allSettled([...this.#inFlight.values(), this.#componentsRunning]);
      await this.#o.components?.stop();
      await releaseLease(this.#o.store, this.holder).catch(() => {});
    }
  }

  /** One reconciliation pass. True when the agent is idle long enough to exit. */
  async tick(): Promise<boolean> {
    const now = Date.now();
    if (this.#leaseUntil - now < (LEASE_TTL_MS * 2) / 3) {
      if (!(await holdLease(this.#o.store, this.holder, now))) {
        this.#leaseUntil = 0;
        return false; // another agent runs the data plane
      }
      this.#leaseUntil = now + LEASE_TTL_MS;
    }
    const { store, driver } = this.#o;
    const [plans, observations] = await store.read(async (tx) => [await storedPlans(tx), await readObservations(tx)] as const);
    const wanted = new Set(plans.map((p) => p.id));
    const running = new Set<string>();
    for (const { id, result } of plans) {
      const seen = observations.get(id);
      if (!("error" in result) && seen?.planHash === result.hash && seen.phase === "running") running.add(id);
    }
    // primaries first: a read replica is started once its source runs
    const ordered = [...plans].sort((a, b) => rank(a.result) - rank(b.result));
    for (const { id, result } of ordered) {
      if ("error" in result || this.#inFlight.has(id)) continue;
      // a service that ran as planned when last looked at is looked at again every few seconds
      // (each look connects to each of its servers), a changed one at once
      const seen = observations.get(id);
      const steady = seen?.planHash === result.hash && seen.phase !== "failed" && seen.phase !== "starting";
      if (steady && now - (this.#lookedAt.get(id) ?? 0) < STEADY_LOOK_MS) continue;
      this.#lookedAt.set(id, now);
      if (result.plan.role === "read_replica" && result.plan.running && !running.has(result.plan.sourceId ?? "")) continue;
      this.#launch(id, () => this.#reconcile(result, observations.get(id)));
    }
    const present = new Set([...(await driver.listServices()), ...observations.keys()]);
    for (const id of present) {
      if (wanted.has(id) || this.#inFlight.has(id)) continue;
      this.#launch(id, () => this.#remove(id));
    }
    // connectors and exporters in a lane of their own: a long CSV load never delays a service
    if (this.#o.components && !this.#componentsRunning) {
      this.#componentsRunning = this.#o.components.tick(running).catch((error: unknown) => {
        this.#log(`connectors and exporters: ${error instanceof Error ? error.message : String(error)}`);
      }).finally(() => {
        this.#componentsRunning = undefined;
      });
    }

    const idle = wanted.size === 0 && present.size === 0 && this.#inFlight.size === 0 && !driver.busy?.() && !(await this.#o.components?.busy());
    if (!idle) {
      this.#idleSince = undefined;
      this.#exitIfIdle = false;
      return false;
    }
    if (this.#exitIfIdle) return true;
    this.#idleSince ??= now;
    return this.#o.idleExitMs !== undefined && now - this.#idleSince >= this.#o.idleExitMs;
  }

  #launch(id: string, work: () => Promise<void>): void {
    const job = (async () => {
      await this.#slot();
      try {
        await work();
      } catch (error) {
        this.#log(`service ${id}: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        this.#slots++;
        this.#queue.shift()?.();
      }
    })().finally(() => {
      this.#inFlight.delete(id);
      this.poke(); // what waited on this (a replica on its source) can go now
    });
    this.#inFlight.set(id, job);
  }

  #slot(): Promise<void> {
    if (this.#slots > 0) {
      this.#slots--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#queue.push(() => {
      this.#slots--;
      resolve();
    }));
  }

  async #reconcile(planned: Extract<PlanResult, { hash: string }>, seen: Observation | undefined): Promise<void> {
    const { plan, hash } = planned;
    const { store, driver } = this.#o;
    const live = await driver.observeService(plan.id);
    const asPlanned = plan.running ? live.phase === "running" : live.phase === "stopped" || live.phase === "absent";
    if (seen?.planHash === hash && seen.phase !== "failed" && asPlanned) {
      // unchanged: refresh what status shows now and then (disk grows, pids change after a heal)
      if (seen.phase !== live.phase || Date.now() - Date.parse(seen.updated) > REFRESH_MS || !samePids(seen, live)) {
        await store.write((tx) => writeObservation(tx, hash, live, new Date().toISOString()));
      }
      this.#retry.delete(plan.id);
      return;
    }
    const retry = this.#retry.get(plan.id);
    if (retry && retry.hash === hash && Date.now() < retry.at) return;
    if (!seen) {
      // recorded before the first apply, so a delete meanwhile waits for its removal
      await store.write((tx) => writeObservation(tx, "", { id: plan.id, phase: "starting", processes: [], diskBytes: 0, warnings: [] }, new Date().toISOString()));
    }
    const why = seen?.planHash !== hash ? (seen?.planHash ? "plan changed" : "new") : seen.phase === "failed" ? "retrying after a failure" : `observed ${live.phase}${live.message ? ` (${live.message})` : ""}`;
    this.#log(`service ${plan.id}: applying (${why}; ${plan.running ? "running" : "stopped"})`);
    let observed: ServiceObserved;
    try {
      observed = await driver.applyService(plan);
    } catch (error) {
      observed = { id: plan.id, phase: "failed", message: error instanceof Error ? error.message : String(error), processes: [], diskBytes: 0, warnings: [] };
    }
    // the service may have been deleted while it was applied: then record nothing (removal follows)
    await store.write(async (tx) => {
      if (!(await tx.get("SELECT 1 FROM services WHERE id = ?", plan.id))) return;
      await writeObservation(tx, hash, observed, new Date().toISOString());
    });
    if (observed.phase === "failed") {
      const delay = retry && retry.hash === hash ? Math.min(retry.delay * 2, MAX_RETRY_MS) : FIRST_RETRY_MS;
      this.#retry.set(plan.id, { at: Date.now() + delay, delay, hash });
      this.#log(`service ${plan.id}: failed: ${observed.message ?? "no message"} (retry in ${Math.round(delay / 1000)} s)`);
    } else {
      this.#retry.delete(plan.id);
      this.#log(`service ${plan.id}: ${observed.phase}${observed.warnings.length ? ` (${observed.warnings.join("; ")})` : ""}`);
    }
  }

  async #remove(id: string): Promise<void> {
    this.#log(`service ${id}: removing (no longer stored)`);
    await this.#o.components?.releaseService(id);
    await this.#o.driver.removeService(id);
    await this.#o.store.write((tx) => deleteObservation(tx, id));
    this.#retry.delete(id);
    this.#lookedAt.delete(id);
    this.#log(`service ${id}: removed`);
  }
}

function rank(result: PlanResult): number {
  return "error" in result ? 2 : result.plan.role === "primary" ? 0 : 1;
}

function samePids(seen: Observation, live: ServiceObserved): boolean {
  const key = (ps: Array<{ kind: string; pid: number }>) => ps.map((p) => `${p.kind}:${p.pid}`).sort().join(",");
  return key(seen.processes) === key(live.processes);
}
