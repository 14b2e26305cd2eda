// A real PostgreSQL for the tests: a cluster of this machine's PostgreSQL binaries (Debian's
// `postgresql` package; .ci/run installs it) in a temporary directory, on a free loopback port,
// started by the test file that needs it and stopped by it (only that postmaster). Each harness
// gets a database of its own (`createDatabase`). As root, the cluster runs as the `postgres` user
// (PostgreSQL refuses to run as root). Suites that need it are declared with `describePostgres`.

import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "vitest";

const DEBIAN_ROOT = "/usr/lib/postgresql";

/** The directory of initdb and pg_ctl: `SCHEMAFORM_PG_BIN`, else the newest of Debian's versions. */
export function postgresBinaries(): string | undefined {
  const given = process.env.SCHEMAFORM_PG_BIN;
  if (given) return existsSync(join(given, "initdb")) ? given : undefined;
  if (!existsSync(DEBIAN_ROOT)) return undefined;
  const versions = readdirSync(DEBIAN_ROOT)
    .filter((v) => existsSync(join(DEBIAN_ROOT, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(DEBIAN_ROOT, versions[0], "bin") : undefined;
}

export const NO_POSTGRES_MESSAGE =
  "skipped: no PostgreSQL binaries (initdb, pg_ctl) on this machine; install Debian's `postgresql` package (.ci/run does) or set SCHEMAFORM_PG_BIN";

/**
 * `describe(name, body)` when PostgreSQL's binaries are here. Without them the suite is skipped
 * with NO_POSTGRES_MESSAGE, unless SCHEMAFORM_REQUIRE_POSTGRES is set (.ci/run sets it): then it
 * fails, so that a run meant to cover PostgreSQL cannot pass without it.
 */
export function describePostgres(name: string, body: () => void): void {
  if (postgresBinaries()) {
    describe(name, body);
    return;
  }
  const required = process.env.SCHEMAFORM_REQUIRE_POSTGRES;
  if (!required || required === "0") {
    describe(name, () => it.skip(NO_POSTGRES_MESSAGE, () => {}));
    return;
  }
  const given = process.env.SCHEMAFORM_PG_BIN;
  const looked = given ? `${join(given, "initdb")} (SCHEMAFORM_PG_BIN)` : join(DEBIAN_ROOT, "*", "bin", "initdb");
  describe(name, () => {
    it("finds PostgreSQL's binaries, as SCHEMAFORM_REQUIRE_POSTGRES demands", () => {
      throw new Error(
        `SCHEMAFORM_REQUIRE_POSTGRES is set but PostgreSQL's binaries (initdb, pg_ctl) are missing: there is no ${looked}; install Debian's \`postgresql\` package or set SCHEMAFORM_PG_BIN to their directory`,
      );
    });
  });
}

export interface Cluster {
  port: number;
  /** the superuser's URL of the cluster's `postgres` database */
  adminUrl: string;
  /** the server log the postmaster writes (pg_ctl -l) */
  logFile: string;
  /** A new, empty database; its URL. */
  createDatabase(): Promise<string>;
  /** `pg_ctl restart -m fast`: every session is ended, the server down and up again; how long it took (ms). */
  restart(): number;
  /**
   * Fills the file system of the cluster's data (only with `dataDiskMb`) with a filler file until
   * it has no space left; `freeDisk` removes it. The WAL is on another file system, so PostgreSQL
   * reports the full disk as the error of the statement that needed space (53100), not a PANIC.
   */
  fillDisk(): void;
  freeDisk(): void;
  /** A streaming standby of this cluster (pg_basebackup -R), started; stopped with the cluster. */
  startStandby(): Promise<{ port: number }>;
  stop(): void;
}

export interface ClusterOptions {
  /** the data directory on a file system of its own of this many MiB (a tmpfs; needs root) */
  dataDiskMb?: number;
  /** extra server settings, e.g. { wal_level: "logical" } for a logical replication source */
  settings?: Record<string, string>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const bin = postgresBinaries();
  if (!bin) throw new Error(NO_POSTGRES_MESSAGE);
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), "schemaform-pg-"));
  const owner = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  if (asRoot) {
    owner.uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    owner.gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, owner.uid, owner.gid);
  }
  // a small file system of its own for the data, so that a test can fill it
  const disk = join(dir, "disk");
  const filler = join(disk, "filler");
  let mounted = false;
  if (options.dataDiskMb !== undefined) {
    if (!asRoot) throw new Error("a cluster on a small disk of its own needs root (mount -t tmpfs)");
    mkdirSync(disk);
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${options.dataDiskMb}m,uid=${owner.uid},gid=${owner.gid},mode=0700`, "tmpfs", disk]);
    mounted = true;
  }
  const run = (tool: string, args: string[]) => {
    const [command, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", join(bin, tool), ...args]] : [join(bin, tool), args];
    const result = spawnSync(command, argv, { encoding: "utf8", cwd: dir });
    if (result.status !== 0) throw new Error(`${tool} failed (${result.status}): ${result.stderr || result.stdout}`);
  };
  const data = mounted ? join(disk, "data") : join(dir, "data");
  run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync", ...(mounted ? ["--waldir", join(dir, "wal")] : [])]);
  const port = await freePort();
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=200${Object.entries(options.settings ?? {})
    .map(([k, v]) => ` -c ${k}=${v}`)
    .join("")}`;
  const logFile = join(dir, "server.log");
  run("pg_ctl", ["-D", data, "-o", settings, "-l", logFile, "-w", "-t", "60", "start"]);

  const standbys: string[] = [];
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.off("exit", stop);
    try {
      for (const standby of standbys) run("pg_ctl", ["-D", standby, "-m", "immediate", "-w", "stop"]);
      run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    } finally {
      if (mounted) spawnSync("umount", [disk]);
      rmSync(dir, { recursive: true, force: true });
    }
  };
  // a test run that ends abruptly must not leave the postmaster behind
  process.once("exit", stop);

  let databases = 0;
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    port,
    adminUrl: admin,
    logFile,
    stop,
    restart() {
      const began = Date.now();
      run("pg_ctl", ["-D", data, "-m", "fast", "-l", logFile, "-w", "-t", "60", "restart"]);
      return Date.now() - began;
    },
    fillDisk() {
      if (!mounted) throw new Error("fillDisk needs a cluster started with dataDiskMb");
      const fd = openSync(filler, "w");
      const block = Buffer.alloc(64 * 1024, 1);
      try {
        for (;;) writeSync(fd, block);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      } finally {
        closeSync(fd);
      }
      // the last partial block, down to the byte
      const fd2 = openSync(filler, "a");
      try {
        for (;;) writeSync(fd2, block, 0, 512);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      } finally {
        closeSync(fd2);
      }
    },
    freeDisk() {
      rmSync(filler, { force: true });
    },
    async startStandby() {
      // a hot standby needs max_connections at least the primary's
      const standby = join(dir, `standby${standbys.length + 1}`);
      run("pg_basebackup", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-D", standby, "-R", "-X", "stream", "-c", "fast", "--no-sync"]);
      const standbyPort = await freePort();
      const options = `-p ${standbyPort} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200 -c cluster_name=standby${standbys.length + 1}`;
      run("pg_ctl", ["-D", standby, "-o", options, "-l", join(dir, `standby${standbys.length + 1}.log`), "-w", "-t", "60", "start"]);
      standbys.push(standby);
      return { port: standbyPort };
    },
    async createDatabase() {
      const name = `platform_${process.pid}_${++databases}`;
      const pg = (await import("pg")).default;
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
  };
}
