// Where the embedded platform keeps its data, and how long status transitions take.

import { homedir } from "node:os";
import { join } from "node:path";

/**
 * The data directory: `SCHEMAFORM_DATA_DIR`, else the per-user data directory (userDataDir).
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.SCHEMAFORM_DATA_DIR;
  if (explicit && explicit.trim() !== "") return explicit;
  return userDataDir(env);
}

/**
 * schemaform's per-user data directory, whatever SCHEMAFORM_DATA_DIR says:
 * `$XDG_DATA_HOME/schemaform`, `~/Library/Application Support/schemaform` on macOS,
 * `%LOCALAPPDATA%\schemaform` on Windows, `~/.local/share/schemaform` otherwise.
 */
export function userDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.XDG_DATA_HOME && env.XDG_DATA_HOME.trim() !== "") return join(env.XDG_DATA_HOME, "schemaform");
  if (process.platform === "win32" && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, "schemaform");
  if (process.platform === "darwin") return join(homedir(), "Library", "Application Support", "schemaform");
  return join(homedir(), ".local", "share", "schemaform");
}

export const DEFAULT_TRANSITION_SECONDS = 3;

/** `SCHEMAFORM_TRANSITION_SECONDS` (a non-negative number), default 3. */
export function transitionSecondsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SCHEMAFORM_TRANSITION_SECONDS;
  if (raw === undefined || raw.trim() === "") return DEFAULT_TRANSITION_SECONDS;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    throw new Error(`SCHEMAFORM_TRANSITION_SECONDS must be a non-negative number of seconds, got '${raw}'`);
  }
  return value;
}

/** Parses a Terraform duration (`30s`, `10m`, `1h30m`, `1.5h`) into milliseconds. */
export function parseDuration(text: string): number {
  const re = /([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const n = Number(m[1]);
    total += m[2] === "h" ? n * 3_600_000 : m[2] === "m" ? n * 60_000 : m[2] === "s" ? n * 1000 : n;
    matched = re.lastIndex;
  }
  if (matched !== text.length || text.length === 0) throw new Error(`'${text}' is not a duration such as 30s, 10m or 1h30m`);
  return Math.round(total);
}
