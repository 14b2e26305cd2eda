// V8 code cache for the installed executable's code. Terraform starts several provider
// processes per command, each from scratch, and much of what V8 does before the handshake is
// compiling: the bundle, then each function of the certificate library on its first call. The
// bytecode of an earlier process, handed back to V8 as `cachedData`, skips that work (about
// 30 ms of a 120 ms start on a 2-core machine).
//
// The cache lives outside the installed package, whose bytes Terraform's lock file pins: in the
// per-user cache directory, one file per code unit, named by the unit's build-time hash, the
// Node version and architecture, and Node's command-line options (V8 rejects data made under
// other flags, so processes started with different NODE_OPTIONS keep apart). Any failure (no
// directory, read-only, corrupt or rejected data) means compiling as if there were no cache. A
// unit compiled without an accepted entry writes one later: the bundle's main code right after
// the handshake (serve.ts), anything else at exit, when it holds every function that process
// compiled.
//
// Cached code runs as our code, so it is taken only from where nobody else could have put it:
// a directory that is this user's and not writable by group or others (not a symlink), and an
// entry file that is this user's, not writable by others. V8 itself checks little of an entry
// (its version, flags and the source's length: code made from another source of the same
// length is accepted), so each entry starts with the full hash of the source it was made from,
// and is used only for that source. A cache directory shared with other users (a CI cache) is
// therefore not used at all; SCHEMAFORM_CACHE_DIR must name a private one.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { Script } from "node:vm";

/** A piece of the bundle compiled on its own: its main code, or one provider's runtime. */
export interface CodeUnit {
  /** Names the cache entry: "main", "runtime-tsdb". */
  name: string;
  /** The SHA-256 of `code` (hex), computed when the bundle is built. */
  hash: string;
  /** The body of a CommonJS module (run with UNIT_PARAMETERS). */
  code: string;
  /** For stack traces. */
  filename: string;
}

/** The parameters a unit's code runs with, in order: CommonJS's, then the bundle's own. */
export const UNIT_PARAMETERS = ["exports", "require", "module", "__filename", "__dirname", "__schemaform_bundle_url", "__schemaform_code_cache"];

export type UnitFunction = (...args: unknown[]) => void;

export interface CodeCache {
  /** Compiles a unit into its module function, from the cache when it has an entry V8 accepts. */
  compile(unit: CodeUnit): UnitFunction;
  /** Writes the entry of a unit (every unit when no name is given) compiled without one. */
  save(name?: string): void;
}

/** Entries kept; the oldest beyond this go when a new one is written. */
const MAX_ENTRIES = 24;

/**
 * Where the entries go: `SCHEMAFORM_CACHE_DIR` (empty: no cache), else the per-user cache
 * directory (`$XDG_CACHE_HOME/schemaform`, `~/Library/Caches/schemaform` on macOS,
 * `%LOCALAPPDATA%\schemaform\cache` on Windows, `~/.cache/schemaform` otherwise), in `v8/`.
 */
export function codeCacheDirectory(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | undefined {
  const explicit = env.SCHEMAFORM_CACHE_DIR;
  if (explicit !== undefined) return explicit.trim() !== "" ? join(explicit, "v8") : undefined;
  let base: string | undefined;
  if (env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)) base = join(env.XDG_CACHE_HOME, "schemaform");
  else if (platform === "win32") base = env.LOCALAPPDATA ? join(env.LOCALAPPDATA, "schemaform", "cache") : undefined;
  else {
    const home = env.HOME || homedir();
    if (home) base = platform === "darwin" ? join(home, "Library", "Caches", "schemaform") : join(home, ".cache", "schemaform");
  }
  return base && join(base, "v8");
}

export function openCodeCache(directory: string | undefined = directoryOrNone()): CodeCache {
  const unsaved = new Map<string, { script: Script; file: string }>();
  /** The source hash of each unit compiled, by name. */
  const units = new Map<string, string>();
  let savingAtExit = false;

  const cache: CodeCache = {
    compile(unit) {
      const file = directory && join(directory, `${unit.name}-${unit.hash.slice(0, 20)}-${process.version}-${process.arch}${flagsKey()}.bin`);
      const cachedData = file ? readEntry(directory, file, unit.hash) : undefined;
      units.set(unit.name, unit.hash);
      const script = new Script(`(function (${UNIT_PARAMETERS.join(", ")}) {${unit.code}\n})`, { filename: unit.filename, cachedData });
      if (file && (cachedData === undefined || script.cachedDataRejected)) {
        unsaved.set(unit.name, { script, file });
        if (!savingAtExit) {
          savingAtExit = true;
          process.once("exit", () => cache.save());
        }
      }
      return script.runInThisContext() as UnitFunction;
    },
    save(name) {
      for (const [unit, { script, file }] of unsaved) {
        if (name !== undefined && unit !== name) continue;
        unsaved.delete(unit);
        write(directory!, file, script, units.get(unit)!);
      }
    },
  };
  return cache;
}

/** The cache directory, or none when it cannot be told (no home directory): never a failed start. */
function directoryOrNone(): string | undefined {
  try {
    return codeCacheDirectory();
  } catch {
    return undefined;
  }
}

/** A short hash of the options Node was started with, when there are any. */
function flagsKey(): string {
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].join(" ").trim();
  if (!flags) return "";
  // FNV-1a: enough to tell option sets apart, and no crypto module to load before the handshake.
  let hash = 0x811c9dc5;
  for (let i = 0; i < flags.length; i++) hash = Math.imul(hash ^ flags.charCodeAt(i), 0x01000193);
  return `-${(hash >>> 0).toString(16).padStart(8, "0")}`;
}

/** What an entry starts with: the format, and the hash of the source its code was made from. */
function entryHeader(sourceHash: string): Buffer {
  return Buffer.from(`schemaform-v8-cache 1 ${sourceHash}\n`, "latin1");
}

/**
 * The directory is this user's, a directory (not a symlink) and not writable by group or
 * others. Where there are no user ids (Windows), the per-user profile's permissions apply.
 */
function isPrivateDirectory(directory: string): boolean {
  const uid = process.getuid?.();
  try {
    const info = lstatSync(directory);
    return info.isDirectory() && (uid === undefined || (info.uid === uid && (info.mode & 0o022) === 0));
  } catch {
    return false;
  }
}

/** The V8 data of an entry for the source `sourceHash`, or undefined when there is none we may trust. */
function readEntry(directory: string, file: string, sourceHash: string): Buffer | undefined {
  if (!isPrivateDirectory(directory)) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const info = fstatSync(fd);
    const uid = process.getuid?.();
    if (!info.isFile() || (uid !== undefined && (info.uid !== uid || (info.mode & 0o022) !== 0))) return undefined;
    const bytes = readFileSync(fd);
    const header = entryHeader(sourceHash);
    return bytes.subarray(0, header.length).equals(header) ? bytes.subarray(header.length) : undefined;
  } catch {
    // no entry yet
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function write(directory: string, file: string, script: Script, sourceHash: string): void {
  // Renamed into place: a process starting meanwhile reads a whole entry or none.
  const partial = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    // Not into a directory others could write: they could replace what we write.
    if (!isPrivateDirectory(directory)) return;
    writeFileSync(partial, Buffer.concat([entryHeader(sourceHash), script.createCachedData()]), { mode: 0o600 });
    renameSync(partial, file);
    prune(directory);
  } catch {
    // A cache that cannot be written only costs the next process some compiling.
    try {
      unlinkSync(partial);
    } catch {
      // nothing was written
    }
  }
}

/** Removes the oldest entries beyond MAX_ENTRIES (each build of the bundle makes new ones). */
function prune(directory: string): void {
  const entries = readdirSync(directory)
    .filter((name) => name.endsWith(".bin"))
    .map((name) => {
      const path = join(directory, name);
      return { path, mtime: statSync(path).mtimeMs };
    })
    .sort((a, b) => b.mtime - a.mtime);
  for (const { path } of entries.slice(MAX_ENTRIES)) unlinkSync(path);
}

declare const __schemaform_code_cache: CodeCache | undefined;

/** The cache the bundle's code was compiled with (undefined outside the bundle). */
export function bundleCodeCache(): CodeCache | undefined {
  return typeof __schemaform_code_cache === "undefined" ? undefined : __schemaform_code_cache;
}
