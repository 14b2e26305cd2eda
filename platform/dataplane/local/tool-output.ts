// What a failed tool (initdb, pg_basebackup, pg_ctl) said, cut down to the cause for a failure
// message: the lines that say why, and whether the disk is full. Tools print no secrets of ours.

import { lastLines } from "./run-user.js";

/**
 * The lines of a tool's output that say why it failed (FATAL, ERROR, PANIC, "could not", "No space
 * left"), without their timestamp prefix; else its last lines.
 */
export function failureLines(text: string, count = 2): string {
  const causes = text
    .split("\n")
    .filter((line) => /\b(FATAL|ERROR|PANIC)\b|could not|No space left|error:/i.test(line))
    .map((line) => line.replace(/^\d{4}-\d\d-\d\d [\d:.]+ \w+ \[\d+\] (\S+@\S+ )?/, "").trim());
  return causes.length > 0 ? [...new Set(causes)].slice(0, count).join(" / ") : lastLines(text, 3);
}

/** "the disk is full: " when a tool's output says so, to lead its failure message. */
export function diskFull(output: string): string {
  // PostgreSQL says it either way: ENOSPC, or a short write with its hint to check free space
  return /No space left on device|Check free disk space/i.test(output) ? "the disk is full: " : "";
}
