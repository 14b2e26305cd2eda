// What the agent observed, as stored (dataplane_services, dataplane_components), and the honest
// status of a service derived from it: READY only when the agent saw the CURRENT plan (by hash)
// running, PAUSED only when it saw it stopped, ERROR when applying the current plan failed (with
// the driver's message), a transitional status otherwise.

import type { Tx } from "../storage.js";
import type { ObservedProcess, ServiceObserved, ServicePhase } from "./driver.js";
import type { PlanResult } from "./plan.js";

export interface ObservedRow {
  service_id: string;
  plan_hash: string;
  phase: ServicePhase;
  message: string | null;
  processes: string;
  disk_bytes: number | string;
  warnings: string;
  updated: string;
}

export interface Observation {
  planHash: string;
  phase: ServicePhase;
  message?: string;
  processes: ObservedProcess[];
  diskBytes: number;
  warnings: string[];
  updated: string;
}

export function toObservation(row: ObservedRow): Observation {
  return {
    planHash: row.plan_hash,
    phase: row.phase,
    ...(row.message ? { message: row.message } : {}),
    processes: JSON.parse(row.processes) as ObservedProcess[],
    diskBytes: Number(row.disk_bytes),
    warnings: JSON.parse(row.warnings) as string[],
    updated: row.updated,
  };
}

export async function readObservation(tx: Tx, serviceId: string): Promise<Observation | undefined> {
  const row = await tx.get<ObservedRow>("SELECT * FROM dataplane_services WHERE service_id = ?", serviceId);
  return row && toObservation(row);
}

export async function readObservations(tx: Tx): Promise<Map<string, Observation>> {
  const rows = await tx.all<ObservedRow>("SELECT * FROM dataplane_services");
  return new Map(rows.map((r) => [r.service_id, toObservation(r)]));
}

export async function writeObservation(tx: Tx, planHash: string, observed: ServiceObserved, at: string): Promise<void> {
  await tx.run(
    `INSERT INTO dataplane_services (service_id, plan_hash, phase, message, processes, disk_bytes, warnings, updated)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (service_id) DO UPDATE SET plan_hash = excluded.plan_hash, phase = excluded.phase, message = excluded.message,
       processes = excluded.processes, disk_bytes = excluded.disk_bytes, warnings = excluded.warnings, updated = excluded.updated`,
    observed.id,
    planHash,
    observed.phase,
    observed.message ?? null,
    JSON.stringify(observed.processes),
    observed.diskBytes,
    JSON.stringify(observed.warnings),
    at,
  );
}

export async function deleteObservation(tx: Tx, serviceId: string): Promise<void> {
  await tx.run("DELETE FROM dataplane_services WHERE service_id = ?", serviceId);
}

export interface ComponentStatus {
  id: string;
  kind: "src_db" | "obj_store" | "metric_exporter" | "log_exporter";
  serviceId?: string;
  status: string;
  message?: string;
  updated: string;
}

export async function writeComponent(tx: Tx, c: ComponentStatus): Promise<void> {
  await tx.run(
    `INSERT INTO dataplane_components (id, kind, service_id, status, message, updated) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, service_id = excluded.service_id, status = excluded.status, message = excluded.message, updated = excluded.updated`,
    c.id,
    c.kind,
    c.serviceId ?? null,
    c.status,
    c.message ?? null,
    c.updated,
  );
}

export async function readComponents(tx: Tx): Promise<ComponentStatus[]> {
  const rows = await tx.all<{ id: string; kind: ComponentStatus["kind"]; service_id: string | null; status: string; message: string | null; updated: string }>(
    "SELECT * FROM dataplane_components ORDER BY kind, id",
  );
  return rows.map((r) => ({ id: r.id, kind: r.kind, ...(r.service_id ? { serviceId: r.service_id } : {}), status: r.status, ...(r.message ? { message: r.message } : {}), updated: r.updated }));
}

export async function readComponent(tx: Tx, id: string): Promise<ComponentStatus | undefined> {
  return (await readComponents(tx)).find((c) => c.id === id);
}

export type DataPlaneStatus = "QUEUED" | "CONFIGURING" | "READY" | "PAUSING" | "PAUSED" | "RESUMING" | "ERROR";

/**
 * A settled control-plane status (READY or PAUSED) checked against what the agent observed.
 * Transitional control-plane statuses are kept as they are (SCHEMAFORM_TRANSITION_SECONDS).
 */
export function honestStatus(controlPlane: string, planned: PlanResult, observed: Observation | undefined): { status: DataPlaneStatus; message?: string } {
  if (controlPlane !== "READY" && controlPlane !== "PAUSED") return { status: controlPlane as DataPlaneStatus };
  if ("error" in planned) return { status: "ERROR", message: `the data plane cannot run this service: ${planned.error}` };
  const { plan, hash } = planned;
  if (!observed) return { status: plan.running ? "QUEUED" : "PAUSING" };
  if (observed.planHash === hash) {
    if (observed.phase === "failed") return { status: "ERROR", message: observed.message ?? "the data plane failed to run the service" };
    if (plan.running && observed.phase === "running") return { status: "READY" };
    if (!plan.running && (observed.phase === "stopped" || observed.phase === "absent")) return { status: "PAUSED" };
  }
  if (!plan.running) return { status: "PAUSING" };
  return { status: observed.phase === "stopped" ? "RESUMING" : "CONFIGURING" };
}
