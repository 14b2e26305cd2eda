// The local driver's settings of a node: the size mapping the README documents, the plan's
// parameters on top, the driver's own wiring kept, and a standby never below its primary on the
// settings it must match. (The real servers read them back in local-driver.test.ts.)

import { describe, expect, it } from "vitest";
import type { ServicePlan } from "../../platform/dataplane/driver.js";
import { changedSettings, nodeSettings, readSettings, renderSettings, sizeSettings } from "../../platform/dataplane/local/settings.js";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../platform/helpers.js";

const plan: ServicePlan = {
  id: "svc",
  role: "primary",
  running: true,
  milliCpu: 2000,
  memoryGb: 8,
  haReplicas: 0,
  syncReplicas: 0,
  pooler: false,
  ports: { main: 30001, replica: 30002, pooler: 30003 },
  passwordVerifier: "SCRAM-SHA-256$4096:c2FsdA==$c3RvcmVk:c2VydmVy",
  parameters: {},
  ephemeralRoles: [],
};

describe("local driver settings", () => {
  it("maps memory and CPU onto PostgreSQL's settings, small and bounded", () => {
    expect(sizeSettings(2000, 8)).toEqual({
      shared_buffers: "128MB",
      effective_cache_size: "4096MB",
      work_mem: "16MB",
      maintenance_work_mem: "128MB",
      max_worker_processes: "14",
      max_parallel_workers: "2",
      max_parallel_workers_per_gather: "1",
      max_parallel_maintenance_workers: "1",
    });
    expect(sizeSettings(250, 0.5)).toMatchObject({ shared_buffers: "16MB", work_mem: "1MB", max_parallel_workers: "1", max_parallel_workers_per_gather: "0" });
    expect(sizeSettings(32000, 128)).toMatchObject({ shared_buffers: "256MB", work_mem: "64MB", maintenance_work_mem: "512MB", max_parallel_workers: "32" });
  });

  it("applies the plan's parameters last, but never over the driver's own wiring", () => {
    const settings = nodeSettings({ ...plan, parameters: { work_mem: "12MB", max_connections: "150", port: "5432", listen_addresses: "*", ssl: "off", wal_level: "minimal" } }, { port: 30001, socketDir: "/run/x" });
    expect(settings).toMatchObject({ work_mem: "12MB", max_connections: "150", port: "30001", listen_addresses: "127.0.0.1", ssl: "on", wal_level: "logical", password_encryption: "scram-sha-256", synchronous_standby_names: "" });
  });

  it("keeps a standby at or above its primary on the settings it must match, and points it at its upstream", () => {
    const settings = nodeSettings({ ...plan, parameters: { max_connections: "50" } }, { port: 30002, socketDir: "/run/x", standbyOf: { socketDir: "/run/x", port: 30001, applicationName: "node_1", slot: "node_1" } }, { max_connections: "200", max_worker_processes: "4" });
    expect(settings.max_connections).toBe("200");
    expect(settings.max_worker_processes).toBe("14");
    expect(settings.primary_conninfo).toBe("host=/run/x port=30001 user=postgres application_name=node_1");
    expect(settings.primary_slot_name).toBe("node_1");
    expect(settings.synchronous_standby_names).toBeUndefined();
    const spaced = nodeSettings(plan, { port: 30002, socketDir: "/data dir/it's", standbyOf: { socketDir: "/data dir/it's", port: 30001, applicationName: "node_1" } });
    expect(spaced.primary_conninfo).toBe("host='/data dir/it\\'s' port=30001 user=postgres application_name=node_1");
  });

  it("writes a file it reads back the same, quotes included, and names what changed", () => {
    const dir = tempDir("schemaform-settings-");
    const file = join(dir, "schemaform.conf");
    const settings = { search_path: `"$user", public`, application_name: "it's", log_line_prefix: "%m \\ %p" };
    writeFileSync(file, renderSettings(settings));
    expect(readSettings(file)).toEqual(settings);
    expect(changedSettings(settings, { ...settings, application_name: "other", work_mem: "4MB" }).sort()).toEqual(["application_name", "work_mem"]);
  });
});
