// Where this machine's PostgreSQL and pgbouncer executables are, found at run time (nothing is
// bundled): SCHEMAFORM_PG_BIN, then the Debian/Ubuntu layout, then `pg_config --bindir`, then
// Homebrew's kegs. pgbouncer is optional: without it a pooler is a warning, never a failure.

import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";

/** The PostgreSQL executables the local driver runs. */
const POSTGRES_TOOLS = ["initdb", "pg_ctl", "postgres", "pg_basebackup"] as const;

const DEBIAN_ROOT = "/usr/lib/postgresql";
const HOMEBREW_OPT = ["/opt/homebrew/opt", "/usr/local/opt"];

export const INSTALL_POSTGRES_HINT =
  "install PostgreSQL (Debian/Ubuntu: `apt-get install postgresql pgbouncer`; macOS: `brew install postgresql@15 pgbouncer`) or set SCHEMAFORM_PG_BIN to the directory of initdb and pg_ctl";

export const POOLER_MISSING_WARNING =
  "pgbouncer is not installed: the connection pooler is not running (Debian/Ubuntu: `apt-get install pgbouncer`; macOS: `brew install pgbouncer`)";

export interface Binaries {
  /** directory of initdb, pg_ctl, postgres, pg_basebackup; undefined when not found */
  pgBin?: string;
  /** where pgBin came from: "SCHEMAFORM_PG_BIN", "debian", "pg_config", "homebrew" */
  pgSource?: string;
  /** why PostgreSQL was not found, with how to get it (one line) */
  pgReason?: string;
  /** the pgbouncer executable; undefined when not found */
  pgbouncer?: string;
  /** set when pgbouncer was not found */
  poolerWarning?: string;
}

function hasTools(dir: string): boolean {
  return POSTGRES_TOOLS.every((tool) => existsSync(join(dir, tool)));
}

/** The entries of `root` that look like versions ("15", "postgresql@16"), newest first. */
function versionsNewestFirst(names: string[], versionOf: (name: string) => number | undefined): string[] {
  return names
    .map((name) => ({ name, version: versionOf(name) }))
    .filter((entry): entry is { name: string; version: number } => entry.version !== undefined)
    .sort((a, b) => b.version - a.version)
    .map((entry) => entry.name);
}

function debianBin(): string | undefined {
  if (!existsSync(DEBIAN_ROOT)) return undefined;
  const versions = versionsNewestFirst(readdirSync(DEBIAN_ROOT), (name) => (/^\d+(\.\d+)?$/.test(name) ? Number(name) : undefined));
  return versions.map((version) => join(DEBIAN_ROOT, version, "bin")).find(hasTools);
}

function pgConfigBin(env: NodeJS.ProcessEnv): string | undefined {
  try {
    const dir = execFileSync("pg_config", ["--bindir"], { encoding: "utf8", env, stdio: ["ignore", "pipe", "ignore"], timeout: 5000 }).trim();
    return dir && hasTools(dir) ? dir : undefined;
  } catch {
    return undefined;
  }
}

function homebrewBin(): string | undefined {
  for (const opt of HOMEBREW_OPT) {
    if (!existsSync(opt)) continue;
    const kegs = versionsNewestFirst(readdirSync(opt), (name) => {
      const match = /^postgresql(?:@(\d+))?$/.exec(name);
      // the unversioned keg is the newest by Homebrew's convention
      return match ? (match[1] ? Number(match[1]) : Number.MAX_SAFE_INTEGER) : undefined;
    });
    const found = kegs.map((keg) => join(opt, keg, "bin")).find(hasTools);
    if (found) return found;
  }
  return undefined;
}

function findOnPath(name: string, env: NodeJS.ProcessEnv, extra: string[]): string | undefined {
  const dirs = [...(env.PATH ?? "").split(delimiter).filter(Boolean), ...extra];
  return dirs.map((dir) => join(dir, name)).find((file) => existsSync(file));
}

/** PostgreSQL's and pgbouncer's executables, looked up in the documented order. */
export function findBinaries(env: NodeJS.ProcessEnv = process.env): Binaries {
  const found: Binaries = {};
  const given = env.SCHEMAFORM_PG_BIN;
  if (given) {
    if (hasTools(given)) {
      found.pgBin = given;
      found.pgSource = "SCHEMAFORM_PG_BIN";
    } else {
      const missing = POSTGRES_TOOLS.filter((tool) => !existsSync(join(given, tool)));
      found.pgReason = `SCHEMAFORM_PG_BIN is ${given}, which has no ${missing.join(", ")}: point it at the directory of PostgreSQL's initdb and pg_ctl, or unset it`;
    }
  } else {
    const candidates: Array<[string, () => string | undefined]> = [
      ["debian", debianBin],
      ["pg_config", () => pgConfigBin(env)],
      ["homebrew", homebrewBin],
    ];
    for (const [source, look] of candidates) {
      const dir = look();
      if (dir) {
        found.pgBin = dir;
        found.pgSource = source;
        break;
      }
    }
    if (!found.pgBin) found.pgReason = `PostgreSQL's binaries (initdb, pg_ctl) were not found: ${INSTALL_POSTGRES_HINT}`;
  }
  const extra = ["/usr/sbin", "/usr/local/sbin", ...HOMEBREW_OPT.map((opt) => join(opt, "pgbouncer", "bin"))];
  if (found.pgBin) extra.unshift(found.pgBin);
  found.pgbouncer = findOnPath("pgbouncer", env, extra);
  if (!found.pgbouncer) found.poolerWarning = POOLER_MISSING_WARNING;
  return found;
}
