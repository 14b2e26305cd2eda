// How many resident servers a user has (provider/README.md "Resident server", "What it costs"):
// at most SCHEMAFORM_RESIDENT_MAX_SERVERS (default 8) at once, whatever the number of working
// directories, providers and environments (a key each). Without a cap, `terragrunt run-all` over
// 50 directories started a server per directory and provider, 60-120 MB each, and a small CI
// runner killed them for memory (which then left stale pid files behind).
//
// A server that starts is admitted here before it publishes its pid (and before it starts a
// worker thread). When the user already has as many as the cap, the least recently used one
// that has been idle for EVICTABLE_AFTER_MS is asked to leave: its pid file is removed (so no
// launcher finds it and it no longer counts) and it is sent SIGUSR2 (it then retires: it serves
// nothing new and exits once its connections have ended). When none has, every server is in use
// (20 directories planned at once: they would only push each other out), so the new server does
// not start, and launches in its directory go the direct way (for a minute, see resident.ts).
// Admissions are one at a time under a lock directory in the base directory (a holder that died
// leaves it behind: it is broken after LOCK_STALE_MS).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { note, processIdentity } from "./resident-proc.js";

/** Resident servers per user by default. */
export const DEFAULT_MAX_SERVERS = 8;
/** Set in a server's key directory while it serves (or has waiting requests): it is not evicted then. */
export const BUSY_MARKER = "busy";
const LOCK = "admission.lock";
const LOCK_STALE_MS = 10_000;
/** A server idle at least this long may be asked to leave for a new one. */
const EVICTABLE_AFTER_MS = 10_000;
/** Key directories: "<checksum>-<length>" (the launcher's cksum output). */
export const KEY_NAME = /^\d+-\d+$/;

/** The cap from SCHEMAFORM_RESIDENT_MAX_SERVERS (a positive integer), else DEFAULT_MAX_SERVERS. */
export function maxServers(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.SCHEMAFORM_RESIDENT_MAX_SERVERS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_MAX_SERVERS;
}

/**
 * The server published in a key directory, when it runs: its `pid` file names a live process
 * by pid and start time (a pid alone may have been reused by another process since).
 */
export function liveServer(key: string): { pid: number; identity: string } | undefined {
  try {
    const identity = readFileSync(join(key, "pid"), "utf8").trim();
    const pid = Number(identity.split(" ")[0]);
    return pid > 0 && processIdentity(pid) === identity ? { pid, identity } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs `publish` (the new server's pid file) when the user has room for one more server, making
 * room by asking the least recently used idle one to leave; returns false (nothing published)
 * when every server is busy.
 */
export function admit(base: string, own: string, publish: () => void, max = maxServers()): boolean {
  const lock = join(base, LOCK);
  takeLock(lock);
  try {
    const others: { key: string; pid: number; identity: string; lastUsed: number; busy: boolean }[] = [];
    for (const name of readdirSync(base)) {
      const key = join(base, name);
      if (!KEY_NAME.test(name) || key === own) continue;
      const server = liveServer(key);
      if (!server) continue;
      let lastUsed = 0;
      try {
        lastUsed = statSync(join(key, "pid")).mtimeMs;
      } catch {
        continue;
      }
      others.push({ key, ...server, lastUsed, busy: existsSync(join(key, BUSY_MARKER)) });
    }
    const now = Date.now();
    const idle = others.filter((other) => !other.busy && now - other.lastUsed >= EVICTABLE_AFTER_MS).sort((a, b) => a.lastUsed - b.lastUsed);
    for (let excess = others.length + 1 - max; excess > 0; excess--) {
      const leaving = idle.shift();
      if (!leaving) return false;
      // Still the same process (not one that took its pid since): only then is the file its own.
      if (processIdentity(leaving.pid) !== leaving.identity) continue;
      rmSync(join(leaving.key, "pid"), { force: true });
      try {
        process.kill(leaving.pid, "SIGUSR2");
      } catch {
        // gone meanwhile
      }
      note(`asked server ${leaving.pid} (${leaving.key}) to leave: at most ${max} resident servers`);
    }
    publish();
    return true;
  } finally {
    rmdirSync(lock);
  }
}

function takeLock(lock: string): void {
  const deadline = Date.now() + 2 * LOCK_STALE_MS;
  for (;;) {
    try {
      mkdirSync(lock, { mode: 0o700 });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || Date.now() > deadline) throw error;
    }
    try {
      if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmdirSync(lock);
    } catch {
      // released meanwhile
    }
    // Admissions take a few milliseconds; wait without spinning.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
}
