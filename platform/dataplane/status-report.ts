// What `schemaform platform status` shows: per service its phase, whether the current plan is the
// one running, its processes (pid, port), disk and warnings; per connector and exporter its
// status; and the agent. Read from the store (what the agent recorded) without starting anything.

import type { Storage } from "../storage.js";
import { agentPid, sendToAgent } from "./agent-lock.js";
import { currentLease } from "./lease.js";
import { recordedMode } from "./mode.js";
import { readComponents, readObservations, honestStatus } from "./observed.js";
import { storedPlans } from "./plan.js";

export interface StatusReport {
  mode: string;
  agent: { running: boolean; pid?: number; lease?: { holder: string; expires: string } };
  services: Array<{
    id: string;
    project: string;
    status: string;
    message?: string;
    phase?: string;
    current: boolean;
    /** the endpoints the service has (replica with HA standbys, pooler when enabled) */
    ports?: { main: number; replica?: number; pooler?: number };
    processes: Array<{ kind: string; pid: number; port: number; dataDir?: string }>;
    diskBytes?: number;
    warnings: string[];
    updated?: string;
  }>;
  components: Array<{ id: string; kind: string; serviceId?: string; status: string; message?: string; updated: string }>;
}

export async function statusReport(store: Storage, dataDir: string): Promise<StatusReport> {
  const [mode, plans, observations, components, lease] = await Promise.all([
    recordedMode(store),
    store.read((tx) => storedPlans(tx)),
    store.read((tx) => readObservations(tx)),
    store.read((tx) => readComponents(tx)),
    currentLease(store),
  ]);
  const running = await sendToAgent(dataDir, "ping", 500);
  const services: StatusReport["services"] = plans.map(({ id, project, result }) => {
    const seen = observations.get(id);
    let { status, message } = mode === "on" ? honestStatus("READY", result, seen) : { status: "RECORD ONLY", message: undefined };
    // what the agent last recorded, checked now: a process that is gone is not running
    const gone = seen?.processes.filter((p) => !alive(p.pid)) ?? [];
    if (gone.length > 0) {
      status = "NOT RUNNING";
      message = `${gone.map((p) => `${p.kind} pid ${p.pid}`).join(", ")} gone since the agent last looked; ${running ? "it is starting them again" : "the agent starts them on the next platform call"}`;
    }
    const plan = "error" in result ? undefined : result.plan;
    return {
      id,
      project,
      status,
      ...(message ? { message } : {}),
      ...(seen ? { phase: seen.phase, processes: seen.processes, diskBytes: seen.diskBytes, warnings: seen.warnings, updated: seen.updated } : { processes: [], warnings: [] }),
      current: !("error" in result) && seen?.planHash === result.hash,
      ...(plan && mode === "on"
        ? { ports: { main: plan.ports.main, ...(plan.haReplicas > 0 ? { replica: plan.ports.replica } : {}), ...(plan.pooler ? { pooler: plan.ports.pooler } : {}) } }
        : {}),
    };
  });
  for (const [id, seen] of observations) {
    if (plans.some((p) => p.id === id)) continue;
    services.push({ id, project: "", status: "DELETING", phase: seen.phase, current: false, processes: seen.processes, diskBytes: seen.diskBytes, warnings: seen.warnings, updated: seen.updated });
  }
  return {
    mode: mode ?? "not recorded yet",
    agent: { running, ...(agentPid(dataDir) ? { pid: agentPid(dataDir) } : {}), ...(lease ? { lease } : {}) },
    services,
    components,
  };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatStatus(report: StatusReport, where: string): string {
  const lines = [`${where}: data plane ${report.mode}; agent ${report.agent.running ? `running${report.agent.pid ? ` (pid ${report.agent.pid})` : ""}` : "not running (it starts on the next platform call that needs it)"}`];
  if (report.services.length === 0) lines.push("no services");
  for (const s of report.services) {
    const ports = s.ports
      ? ` ports ${[`${s.ports.main} (main)`, s.ports.replica !== undefined ? `${s.ports.replica} (HA replica)` : "", s.ports.pooler !== undefined ? `${s.ports.pooler} (pooler)` : ""].filter(Boolean).join(", ")}`
      : "";
    lines.push(`service ${s.id}${s.project ? ` (project ${s.project})` : ""}: ${s.status}${s.phase ? `, ${s.phase}${s.current ? "" : " (not yet the current configuration)"}` : ""}${s.diskBytes !== undefined ? `, ${megabytes(s.diskBytes)} on disk` : ""}`);
    if (ports) lines.push(`  ${ports.trim()}`);
    if (s.message) lines.push(`  cause: ${s.message}`);
    for (const p of s.processes) lines.push(`  ${p.kind} pid ${p.pid} on 127.0.0.1:${p.port}${p.dataDir ? ` (${p.dataDir})` : ""}`);
    for (const w of s.warnings) lines.push(`  warning: ${w}`);
  }
  for (const c of report.components) {
    lines.push(`${c.kind.replace("_", " ")} ${c.id}${c.serviceId ? ` (service ${c.serviceId})` : ""}: ${c.status}${c.message ? `: ${c.message}` : ""}`);
  }
  return `${lines.join("\n")}\n`;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
