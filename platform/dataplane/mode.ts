// Whether a data directory runs real databases (the data plane) or keeps records only, and the
// rule that it never switches silently.
//
// SCHEMAFORM_DATA_PLANE=on|off; unset: on where PostgreSQL's binaries are found. The mode is
// recorded in the store (meta `data_plane_mode`) by the first call (a directory that already holds
// services from before the data plane keeps records only unless SCHEMAFORM_DATA_PLANE=on), and:
// - unset afterwards: the recorded mode is kept (binaries that appear or disappear later do not
//   flip a directory; an "on" directory without binaries reports the failure on its services);
// - set to the other mode: refused while services are stored (the error names the setting and
//   what to do); a directory without services simply takes the new mode.

import { PlatformError } from "../errors.js";
import type { Storage } from "../storage.js";

export type DataPlaneMode = "on" | "off";
export const DATA_PLANE_ENV = "SCHEMAFORM_DATA_PLANE";
const META_KEY = "data_plane_mode";

export interface RequestedMode {
  mode: DataPlaneMode;
  /** set by SCHEMAFORM_DATA_PLANE (else the default) */
  explicit: boolean;
  /** the default is off because no binaries were found: why, and how to get them */
  missing?: string;
}

/** The mode this process asks for. `findBinaries` says why not when PostgreSQL is not found. */
export function requestedMode(env: NodeJS.ProcessEnv, findBinaries: () => { ok: boolean; reason?: string }): RequestedMode {
  const raw = env[DATA_PLANE_ENV]?.trim().toLowerCase();
  if (raw === "on" || raw === "off") return { mode: raw, explicit: true };
  if (raw !== undefined && raw !== "") throw new Error(`${DATA_PLANE_ENV} must be on or off, got '${env[DATA_PLANE_ENV]}'`);
  const found = findBinaries();
  return found.ok ? { mode: "on", explicit: false } : { mode: "off", explicit: false, missing: found.reason };
}

/**
 * The mode the store runs in, recording it at first use; refuses a silent switch. `requested` is
 * called only when the recorded mode does not settle it (finding binaries can run pg_config).
 */
export async function settleMode(store: Storage, env: NodeJS.ProcessEnv, findBinaries: () => { ok: boolean; reason?: string }, where: string): Promise<RequestedMode> {
  // the common case (already recorded, nothing asked) without taking the write lock
  const seen = await recordedMode(store);
  const raw = env[DATA_PLANE_ENV]?.trim();
  if (seen && (raw === undefined || raw === "")) return { mode: seen, explicit: false };
  const requested = requestedMode(env, findBinaries);
  if (seen === requested.mode) return requested;
  return store.write(async (tx) => {
    const recorded = (await tx.get<{ value: string }>("SELECT value FROM meta WHERE key = ?", META_KEY))?.value as DataPlaneMode | undefined;
    if (recorded === requested.mode) return requested;
    if (recorded && !requested.explicit) return { mode: recorded, explicit: false };
    const services = (await tx.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM services"))?.n ?? 0;
    if (!recorded && !requested.explicit && requested.mode === "on" && Number(services) > 0) {
      // a directory used before the data plane existed: its services were records; they stay so
      await tx.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", META_KEY, "off");
      return { mode: "off", explicit: false };
    }
    if (recorded) {
      if (Number(services) > 0) {
        throw new PlatformError(
          "failed_precondition",
          `${where} runs with ${DATA_PLANE_ENV}=${recorded} (recorded when it was first used) and holds ${services} service(s); ${DATA_PLANE_ENV}=${requested.mode} would switch it silently. ` +
            `Unset ${DATA_PLANE_ENV} or set it to ${recorded}, or destroy the services first (schemaform down / terraform destroy), or use another data directory (SCHEMAFORM_DATA_DIR).`,
        );
      }
    }
    await tx.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", META_KEY, requested.mode);
    return requested;
  });
}

/** The recorded mode without recording anything (platform status). */
export async function recordedMode(store: Storage): Promise<DataPlaneMode | undefined> {
  return store.read(async (tx) => (await tx.get<{ value: string }>("SELECT value FROM meta WHERE key = ?", META_KEY))?.value as DataPlaneMode | undefined);
}
