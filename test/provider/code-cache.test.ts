// The V8 code cache of the installed executable: where it lives, hits and misses, and that no
// state of the cache directory can break a start.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { codeCacheDirectory, openCodeCache, type CodeUnit } from "../../provider/code-cache.js";

const require = createRequire(import.meta.url);
const work = mkdtempSync(join(tmpdir(), "schemaform-code-cache-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let counter = 0;
/** A fresh cache directory and a unit whose module exports `value`. */
function setup(value = 42): { directory: string; unit: CodeUnit } {
  const directory = join(work, `cache-${++counter}`, "v8");
  const code = `module.exports = { value: ${value}, twice: (n) => n * 2 };`;
  return { directory, unit: { name: "main", hash: `h${value}`, code, filename: "unit.js" } };
}

/** Compiles and runs a unit as a process would, and saves its entry if it had none. */
function run(directory: string | undefined, unit: CodeUnit): { value: number; twice(n: number): number } {
  const cache = openCodeCache(directory);
  const module = { exports: {} as { value: number; twice(n: number): number } };
  cache.compile(unit)(module.exports, require, module, unit.filename, work, "file:///unit.js", cache);
  cache.save();
  return module.exports;
}

const entries = (directory: string) => (existsSync(directory) ? readdirSync(directory).filter((name) => name.endsWith(".bin")) : []);

describe("codeCacheDirectory", () => {
  it("is SCHEMAFORM_CACHE_DIR (empty: no cache), else the per-user cache directory", () => {
    expect(codeCacheDirectory({ SCHEMAFORM_CACHE_DIR: "/c", XDG_CACHE_HOME: "/x" }, "linux")).toBe(join("/c", "v8"));
    expect(codeCacheDirectory({ SCHEMAFORM_CACHE_DIR: "", HOME: "/home/u" }, "linux")).toBeUndefined();
    expect(codeCacheDirectory({ XDG_CACHE_HOME: "/x", HOME: "/home/u" }, "linux")).toBe(join("/x", "schemaform", "v8"));
    expect(codeCacheDirectory({ XDG_CACHE_HOME: "relative", HOME: "/home/u" }, "linux")).toBe(join("/home/u", ".cache", "schemaform", "v8"));
    expect(codeCacheDirectory({ HOME: "/Users/u" }, "darwin")).toBe(join("/Users/u", "Library", "Caches", "schemaform", "v8"));
    expect(codeCacheDirectory({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "win32")).toBe(join("C:\\Users\\u\\AppData\\Local", "schemaform", "cache", "v8"));
  });
});

describe("openCodeCache", () => {
  it("writes an entry only when asked, and a process that finds it accepted writes nothing", () => {
    const { directory, unit } = setup();
    const cache = openCodeCache(directory);
    const module = { exports: {} as { value: number } };
    cache.compile(unit)(module.exports, require, module, unit.filename, work, "file:///unit.js", cache);
    expect(module.exports.value).toBe(42);
    expect(entries(directory)).toEqual([]);
    cache.save("other");
    expect(entries(directory)).toEqual([]);
    cache.save("main");
    const [entry] = entries(directory);
    expect(entry).toMatch(new RegExp(`^main-h42-${process.version.replace(/\./g, "\\.")}-${process.arch}(-[0-9a-f]{8})?\\.bin$`));

    // A hit: the entry is not written again (removing it shows whether save writes).
    const again = openCodeCache(directory);
    const second = { exports: {} as { value: number } };
    again.compile(unit)(second.exports, require, second, unit.filename, work, "file:///unit.js", again);
    expect(second.exports.value).toBe(42);
    rmSync(join(directory, entry!));
    again.save();
    expect(entries(directory)).toEqual([]);
  });

  it("compiles without a cache when the entry is corrupt, and replaces it", () => {
    const { directory, unit } = setup(7);
    run(directory, unit);
    const [entry] = entries(directory);
    writeFileSync(join(directory, entry!), "not V8 code cache data");

    const next = openCodeCache(directory);
    const module = { exports: {} as { twice(n: number): number } };
    next.compile(unit)(module.exports, require, module, unit.filename, work, "file:///unit.js", next);
    expect(module.exports.twice(21)).toBe(42);
    next.save();
    // Replaced by real data, which the next process accepts (it then writes nothing).
    const third = openCodeCache(directory);
    third.compile(unit);
    rmSync(join(directory, entry!));
    third.save();
    expect(entries(directory)).toEqual([]);
  });

  it("runs, and saves nothing, without a directory or with one that cannot be made", () => {
    const { unit } = setup(3);
    expect(run(undefined, unit).value).toBe(3);
    const blocker = join(work, "a-file");
    writeFileSync(blocker, "");
    const cache = openCodeCache(join(blocker, "v8"));
    const module = { exports: {} as { value: number } };
    cache.compile(unit)(module.exports, require, module, unit.filename, work, "file:///unit.js", cache);
    expect(module.exports.value).toBe(3);
    expect(() => cache.save()).not.toThrow();
  });

  it("keeps the 24 newest entries", () => {
    const { directory, unit } = setup(5);
    mkdirSync(directory, { recursive: true });
    const old = Date.now() / 1000 - 3600;
    for (let i = 0; i < 30; i++) {
      const path = join(directory, `main-old${i}-v0-x64.bin`);
      writeFileSync(path, "");
      utimesSync(path, old + i, old + i);
    }
    const cache = openCodeCache(directory);
    cache.compile(unit);
    cache.save();
    const kept = entries(directory);
    expect(kept).toHaveLength(24);
    expect(kept.some((name) => name.startsWith("main-h5-"))).toBe(true);
    expect(kept).not.toContain("main-old0-v0-x64.bin");
    expect(kept).toContain("main-old29-v0-x64.bin");
  });
});
