// The object-store connector's schedule: each `frequency` shortcut is a cron boundary in UTC, and a
// scan is due when one has passed since the last scan.
import { describe, expect, it } from "vitest";
import { FREQUENCIES, lastBoundary, scanDue } from "../../platform/dataplane/connectors/frequency.js";
import { patternMatcher } from "../../platform/dataplane/connectors/obj-store.js";

const at = (iso: string) => new Date(iso);

describe("object-store frequency", () => {
  it("names the cron boundary of each shortcut", () => {
    const now = at("2026-11-27T13:47:12Z"); // a Friday
    expect(lastBoundary("@5minutes", now)?.toISOString()).toBe("2026-11-27T13:45:00.000Z");
    expect(lastBoundary("@10minutes", now)?.toISOString()).toBe("2026-11-27T13:40:00.000Z");
    expect(lastBoundary("@15minutes", now)?.toISOString()).toBe("2026-11-27T13:45:00.000Z");
    expect(lastBoundary("@30minutes", now)?.toISOString()).toBe("2026-11-27T13:30:00.000Z");
    expect(lastBoundary("@hourly", now)?.toISOString()).toBe("2026-11-27T13:00:00.000Z");
    expect(lastBoundary("@daily", now)?.toISOString()).toBe("2026-11-27T00:00:00.000Z");
    expect(lastBoundary("@weekly", now)?.toISOString()).toBe("2026-11-22T00:00:00.000Z");
    expect(lastBoundary("@monthly", now)?.toISOString()).toBe("2026-11-01T00:00:00.000Z");
    expect(lastBoundary("@yearly", now)?.toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(lastBoundary("@annually", now)?.toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(lastBoundary("@always", now)).toBeUndefined();
    for (const f of FREQUENCIES) expect(() => lastBoundary(f, now)).not.toThrow();
    expect(() => lastBoundary("*/5 * * * *", now)).toThrow(/is not one of @always/);
  });

  it("is due on the first scan, after each boundary, and on every tick for @always", () => {
    expect(scanDue("@hourly", undefined, at("2026-11-27T13:47:00Z"))).toBe(true);
    expect(scanDue("@hourly", at("2026-11-27T13:00:05Z"), at("2026-11-27T13:59:59Z"))).toBe(false);
    expect(scanDue("@hourly", at("2026-11-27T13:00:05Z"), at("2026-11-27T14:00:00Z"))).toBe(true);
    expect(scanDue("@5minutes", at("2026-11-27T13:44:59Z"), at("2026-11-27T13:45:00Z"))).toBe(true);
    expect(scanDue("@daily", at("2026-11-27T00:00:00Z"), at("2026-11-27T23:59:59Z"))).toBe(false);
    expect(scanDue("@always", at("2026-11-27T13:47:00Z"), at("2026-11-27T13:47:00Z"))).toBe(true);
  });
});

describe("object-store pattern", () => {
  it("matches keys with * (any run, also across /) and ? (one character)", () => {
    const m = patternMatcher("exports/*.csv");
    expect(m.test("exports/a.csv")).toBe(true);
    expect(m.test("exports/2026/11/a.csv")).toBe(true);
    expect(m.test("exports/a.csv.tmp")).toBe(false);
    expect(m.test("other/a.csv")).toBe(false);
    expect(patternMatcher("day-?.parquet").test("day-1.parquet")).toBe(true);
    expect(patternMatcher("day-?.parquet").test("day-10.parquet")).toBe(false);
    expect(patternMatcher("a+b(1).csv").test("a+b(1).csv")).toBe(true);
  });
});
