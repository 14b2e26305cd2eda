// From stored desired state to a ServicePlan (driver.ts), and the plan's hash: what the agent made
// real is recorded by that hash, and a service is READY only when the agent observed the plan
// with the CURRENT hash running (observed.ts). The core (for statuses) and the agent (to apply)
// build plans with these same functions, so they always agree on what "current" is.

import { createHash } from "node:crypto";
import type { Tx } from "../storage.js";
import { MIGRATIONS } from "../store.js";
import type { EphemeralRole, ServicePlan } from "./driver.js";

/** The columns of a `services` row a plan is made of. */
export interface PlanSource {
  id: string;
  source_id: string | null;
  spec: string;
  track: string;
  password_verifier: string | null;
}

interface StoredSpec {
  milli_cpu: number;
  memory_gb: number;
  ha_replicas: number;
  sync_replicas: number;
  connection_pooler_enabled: boolean;
  ports: { main: number; replica: number; pooler: number };
  parameters?: Record<string, string>;
}

export type PlanResult = { plan: ServicePlan; hash: string } | { error: string };

/**
 * The plan of a stored service. `source` is a read replica's source row (its verifier is the
 * replica's). A service stored before verifiers existed has none: no plan, and the reason.
 */
export function servicePlan(row: PlanSource, source: PlanSource | undefined, roles: EphemeralRole[]): PlanResult {
  const spec = JSON.parse(row.spec) as StoredSpec;
  const final = (JSON.parse(row.track) as { final: string }).final;
  const verifier = row.source_id ? source?.password_verifier : row.password_verifier;
  if (row.source_id && !source) return { error: `its source service ${row.source_id} is gone` };
  if (!verifier) {
    return { error: "it was created before the data plane kept password verifiers: set a new password (password_wo with a new password_wo_version) to run it" };
  }
  const plan: ServicePlan = {
    id: row.id,
    role: row.source_id ? "read_replica" : "primary",
    ...(row.source_id ? { sourceId: row.source_id } : {}),
    running: final !== "PAUSED",
    milliCpu: spec.milli_cpu,
    memoryGb: spec.memory_gb,
    haReplicas: spec.ha_replicas,
    syncReplicas: spec.sync_replicas,
    pooler: spec.connection_pooler_enabled,
    ports: { main: spec.ports.main, replica: spec.ports.replica, pooler: spec.ports.pooler },
    passwordVerifier: verifier,
    parameters: { ...(spec.parameters ?? {}) },
    ephemeralRoles: [...roles].sort((a, b) => (a.role < b.role ? -1 : a.role > b.role ? 1 : 0)),
  };
  return { plan, hash: planHash(plan) };
}

/** sha256 of the plan's canonical JSON (keys sorted at every level). */
export function planHash(plan: ServicePlan): string {
  return createHash("sha256").update(canonicalJson(plan)).digest("hex").slice(0, 32);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value as object).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Whether this build's schema has the table of tsdb_service_credentials (it came with that resource). */
const HAS_CREDENTIALS = MIGRATIONS.some((sql) => /CREATE TABLE service_credentials\b/.test(sql));

/**
 * The ephemeral roles of a service (tsdb_service_credentials): each unexpired row, a role that is
 * a member of tsdbadmin until it expires (an expired one leaves the plan, and the driver drops it).
 */
export async function ephemeralRoles(tx: Tx, serviceId: string, now = Date.now()): Promise<EphemeralRole[]> {
  if (!HAS_CREDENTIALS) return [];
  const rows = await tx.all<{ role: string; verifier: string; expires_at: string }>(
    "SELECT role, verifier, expires_at FROM service_credentials WHERE service_id = ? AND expires_at > ? ORDER BY role",
    serviceId,
    new Date(now).toISOString(),
  );
  return rows.map((r) => ({ role: r.role, verifier: r.verifier, validUntil: r.expires_at }));
}

/** The plans of every stored service, read in one snapshot (the agent's view of desired state). */
export async function storedPlans(tx: Tx): Promise<Array<{ id: string; project: string; result: PlanResult }>> {
  const rows = await tx.all<PlanSource & { project: string }>("SELECT id, project, source_id, spec, track, password_verifier FROM services ORDER BY created, id");
  const byId = new Map(rows.map((r) => [r.id, r]));
  const out: Array<{ id: string; project: string; result: PlanResult }> = [];
  for (const row of rows) {
    out.push({ id: row.id, project: row.project, result: servicePlan(row, row.source_id ? byId.get(row.source_id) : undefined, await ephemeralRoles(tx, row.id)) });
  }
  return out;
}
