// The lease that lets exactly one agent run a data plane: a row in the platform's own database
// (dataplane_lease), held by one holder until it expires, renewed by its holder on every tick.
// With PostgreSQL storage and several `platform serve` replicas, each replica's agent tries to
// take it and only the holder reconciles; a holder that dies loses it at expiry. The write is a
// serializable transaction (SQLite: IMMEDIATE), so two agents never both win.

import type { Storage } from "../storage.js";

export const LEASE_NAME = "data-plane";
/** How long a lease lasts without renewal. */
export const LEASE_TTL_MS = 15_000;

export interface LeaseHolder {
  holder: string;
  expires: string;
}

/** Takes the lease when free or expired, or renews it when `holder` has it. True: `holder` holds it now. */
export async function holdLease(store: Storage, holder: string, now: number, ttlMs = LEASE_TTL_MS): Promise<boolean> {
  return store.write(async (tx) => {
    const row = await tx.get<LeaseHolder>("SELECT holder, expires FROM dataplane_lease WHERE name = ?", LEASE_NAME);
    if (row && row.holder !== holder && Date.parse(row.expires) > now) return false;
    const expires = new Date(now + ttlMs).toISOString();
    await tx.run(
      "INSERT INTO dataplane_lease (name, holder, expires) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires = excluded.expires",
      LEASE_NAME,
      holder,
      expires,
    );
    return true;
  });
}

/** Gives the lease up (an agent that exits), so another takes it at once instead of at expiry. */
export async function releaseLease(store: Storage, holder: string): Promise<void> {
  await store.write(async (tx) => {
    await tx.run("DELETE FROM dataplane_lease WHERE name = ? AND holder = ?", LEASE_NAME, holder);
  });
}

export async function currentLease(store: Storage): Promise<LeaseHolder | undefined> {
  return store.read((tx) => tx.get<LeaseHolder>("SELECT holder, expires FROM dataplane_lease WHERE name = ?", LEASE_NAME));
}
