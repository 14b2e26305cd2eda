// Who the clusters run as. PostgreSQL (and pgbouncer) refuse to run as root, so a root process
// runs them as an existing unprivileged system user: `postgres`, or the one SCHEMAFORM_PG_USER
// names. Users are never created: when there is none, the driver is unavailable and says how to
// get one. A non-root process runs them as itself.

import { execFile, execFileSync } from "node:child_process";
import { chownSync } from "node:fs";

export interface RunUser {
  name: string;
  uid: number;
  gid: number;
  /** every group the user is in (for the directory-reachability check) */
  groups: number[];
}

export interface ToolResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** True when this process is root (the clusters must then run as another user). */
export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

function idOf(flag: string, name: string): string | undefined {
  try {
    return execFileSync("id", [flag, name], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 5000 }).trim();
  } catch {
    return undefined;
  }
}

/**
 * The user clusters run as, or a one-line reason when root has none to use. Not root: this
 * process's own user.
 */
export function resolveRunUser(given: RunUser | undefined, env: NodeJS.ProcessEnv = process.env): { user?: RunUser; reason?: string } {
  if (given) return { user: given };
  if (!isRoot()) {
    const uid = process.getuid?.() ?? 0;
    const gid = process.getgid?.() ?? 0;
    return { user: { name: env.USER ?? String(uid), uid, gid, groups: process.getgroups?.() ?? [gid] } };
  }
  const name = env.SCHEMAFORM_PG_USER || "postgres";
  const uid = idOf("-u", name);
  const gid = idOf("-g", name);
  if (uid === undefined || gid === undefined) {
    const named = env.SCHEMAFORM_PG_USER ? `SCHEMAFORM_PG_USER names \`${name}\`, which is not a user on this machine` : "there is no `postgres` user on this machine";
    return {
      reason: `PostgreSQL refuses to run as root and ${named}: install PostgreSQL's package (it creates the \`postgres\` user), or create an unprivileged user yourself and name it in SCHEMAFORM_PG_USER (schemaform never creates users)`,
    };
  }
  if (Number(uid) === 0) {
    return { reason: `SCHEMAFORM_PG_USER names \`${name}\`, which is root: PostgreSQL refuses to run as root; name an unprivileged user` };
  }
  const groups = (idOf("-G", name) ?? gid).split(/\s+/).filter(Boolean).map(Number);
  return { user: { name, uid: Number(uid), gid: Number(gid), groups } };
}

/** Runs an executable as the cluster user (uid/gid switched by the spawn when root). */
export function runAs(user: RunUser, file: string, args: string[], options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<ToolResult> {
  const switching = isRoot() && user.uid !== 0;
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        encoding: "utf8",
        cwd: "/",
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 16 * 1024 * 1024,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C", LC_ALL: "C", ...(switching ? { HOME: "/", USER: user.name } : { HOME: process.env.HOME ?? "/" }), ...options.env },
        ...(switching ? { uid: user.uid, gid: user.gid } : {}),
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof (error as { code?: unknown }).code === "number" ? ((error as { code: number }).code) : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) || (error && !stderr ? error.message : "") });
      },
    );
  });
}

/** Makes the cluster user own a path this (root) process created. */
export function giveTo(user: RunUser, path: string): void {
  if (isRoot() && user.uid !== 0) chownSync(path, user.uid, user.gid);
}

/** The last lines of a tool's output, for a failure message (tools print no secrets of ours). */
export function lastLines(text: string, count = 3): string {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(-count)
    .join(" / ");
}
