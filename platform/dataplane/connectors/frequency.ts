// When an object-store connector scans its bucket. `frequency` is one of the schema's cron-like
// shortcuts; each names the boundaries of a cron schedule in UTC (`@hourly` = `0 * * * *`,
// `@weekly` = Sunday 00:00, `@monthly` = the 1st at 00:00, `@yearly` = 1 January 00:00). A scan is
// due when none has run yet or a boundary has passed since the last one; `@always` scans on every
// tick (the agent ticks about once a second).

const MINUTE_STEPS: Record<string, number> = { "@5minutes": 5, "@10minutes": 10, "@15minutes": 15, "@30minutes": 30, "@hourly": 60 };

export const FREQUENCIES = ["@always", "@5minutes", "@10minutes", "@15minutes", "@30minutes", "@hourly", "@daily", "@weekly", "@monthly", "@annually", "@yearly"] as const;

/** The latest schedule boundary at or before `now` (UTC); undefined for `@always`. */
export function lastBoundary(frequency: string, now: Date): Date | undefined {
  if (frequency === "@always") return undefined;
  const t = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), now.getUTCHours(), now.getUTCMinutes()));
  const step = MINUTE_STEPS[frequency];
  if (step !== undefined) {
    const minutes = t.getUTCHours() * 60 + t.getUTCMinutes();
    const floored = minutes - (minutes % step);
    return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), Math.floor(floored / 60), floored % 60));
  }
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  switch (frequency) {
    case "@daily":
      return new Date(midnight);
    case "@weekly":
      return new Date(midnight - now.getUTCDay() * 86_400_000);
    case "@monthly":
      return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    case "@annually":
    case "@yearly":
      return new Date(Date.UTC(now.getUTCFullYear(), 0, 1));
    default:
      throw new Error(`frequency ${JSON.stringify(frequency)} is not one of ${FREQUENCIES.join(", ")}`);
  }
}

/** Whether a scan is due at `now`, given when the last one completed. */
export function scanDue(frequency: string, lastScan: Date | undefined, now: Date): boolean {
  if (lastScan === undefined) return true;
  const boundary = lastBoundary(frequency, now);
  return boundary === undefined || lastScan.getTime() < boundary.getTime();
}
