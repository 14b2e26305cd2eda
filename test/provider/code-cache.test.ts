// The V8 code cache of the installed executable: where it lives, hits and misses, that no
// state of the cache directory can break a start, and that no code but the executable's own
// runs from it (an entry another user could have planted, or one made from another source).
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeCacheDirectory, openCodeCache, type CodeUnit } from "../../provider/code-cache.js";
import { createLocalUser, type LocalUser } from "../support/second-user.js";

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

describe("only the executable's own code runs from the cache", () => {
  let other: LocalUser | undefined;
  beforeAll(() => {
    if (process.getuid?.() === 0) other = createLocalUser();
  });
  afterAll(() => other?.remove());

  /** Two units of the same name and length: V8 alone would take the one's cached code for the other. */
  const lookalikes = () => {
    const { directory, unit } = setup(11);
    const impostor = { ...unit, code: unit.code.replace("value: 11", "value: 66") };
    expect(impostor.code.length).toBe(unit.code.length);
    return { directory, unit, impostor };
  };

  it("an entry made from another source of the same length is not used", () => {
    const { directory, unit, impostor } = lookalikes();
    // The impostor's entry under the unit's name, as a cache shared by two builds could hold it.
    run(directory, { ...impostor, hash: "other-source" });
    const [entry] = entries(directory);
    copyFileSync(join(directory, entry!), join(directory, entry!.replace("other-source", unit.hash)));
    expect(run(directory, unit).value).toBe(11);
  });

  it("an entry in a directory others can write is not used, nor written", () => {
    const { directory, unit, impostor } = lookalikes();
    // A perfect forgery: made from the impostor but claiming the unit's source.
    run(directory, { ...impostor, hash: unit.hash });
    chmodSync(directory, 0o777);
    expect(run(directory, unit).value).toBe(11);
    const shared = join(work, "shared-empty");
    mkdirSync(shared, { mode: 0o777 });
    chmodSync(shared, 0o777);
    run(shared, unit);
    expect(entries(shared)).toEqual([]);
  });

  it.runIf(process.getuid?.() === 0)("an entry planted by another user (its directory or its file) is not used", () => {
    const { directory, unit, impostor } = lookalikes();
    run(directory, { ...impostor, hash: unit.hash });
    const [entry] = entries(directory);
    // The file is another user's, in our private directory.
    chownSync(join(directory, entry!), other!.uid, other!.gid);
    expect(run(directory, unit).value).toBe(11);
    // The directory is another user's (a cache they made first, in a directory like /tmp), mode 0755.
    const sticky = join(work, `tmp-${counter}`);
    mkdirSync(sticky);
    chmodSync(sticky, 0o1777);
    chmodSync(work, 0o711);
    const theirs = join(sticky, "theirs");
    other!.run("mkdir", ["-m", "755", theirs]);
    copyFileSync(join(directory, entry!), join(theirs, entry!));
    chownSync(join(theirs, entry!), other!.uid, other!.gid);
    expect(run(theirs, unit).value).toBe(11);
  });

  it("the installed executable runs none of a planted entry's code from a cache directory another user can write", () => {
    const bundle = join(ROOT, "dist", "provider", "provider.cjs");
    const text = readFileSync(bundle, "utf8");
    const main = embeddedUnit(text, "main");
    const marker = join(work, `planted-ran-${++counter}`);
    const payload = `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "planted code ran");`;
    const planted = `${payload}/*${" ".repeat(main.code.length - payload.length - 4)}*/`;
    expect(planted.length).toBe(main.code.length);
    // The forger makes a V8 entry of its code in a directory of its own, named and headed as
    // the executable's main unit, with the node the executable runs under (no options).
    const forgery = join(work, `forgery-${counter}`, "v8");
    const forger = join(work, `forge-${counter}.mjs`);
    writeFileSync(
      forger,
      `import { openCodeCache } from ${JSON.stringify(join(ROOT, "dist", "provider", "code-cache.js"))};\n` +
        `const cache = openCodeCache(${JSON.stringify(forgery)});\n` +
        `cache.compile(${JSON.stringify({ name: "main", hash: main.hash, code: planted, filename: "planted.js" })});\n` +
        `cache.save();\n`,
    );
    const forged = spawnSync(process.execPath, [forger], { encoding: "utf8", env: { PATH: process.env.PATH } });
    expect(forged.status, forged.stderr).toBe(0);
    const [entry] = entries(forgery);
    expect(entry).toBeDefined();
    // Planted in a cache directory everyone can write (a CI cache shared between users).
    const shared = join(work, `shared-${counter}`);
    mkdirSync(join(shared, "v8"), { recursive: true });
    chmodSync(shared, 0o777);
    chmodSync(join(shared, "v8"), 0o777);
    copyFileSync(join(forgery, entry!), join(shared, "v8", entry!));
    if (other) chownSync(join(shared, "v8", entry!), other.uid, other.gid);

    const started = spawnSync("sh", [bundle], { encoding: "utf8", env: { PATH: process.env.PATH, HOME: work, SCHEMAFORM_CACHE_DIR: shared, SCHEMAFORM_PROVIDER: "tsdb" } });
    // The executable ran its own code: it says it is a plugin, not a program.
    expect(started.stderr).toContain("is a Terraform provider plugin, not a program to run directly");
    expect(existsSync(marker)).toBe(false);
  });
});

const ROOT = join(import.meta.dirname, "..", "..");

/** A code unit as the bundle embeds it: `compile({ name: "<name>", hash: "<hash>", code: "<JSON string>", ... })`. */
function embeddedUnit(bundle: string, name: string): { hash: string; code: string } {
  const at = bundle.indexOf(`compile({ name: ${JSON.stringify(name)}, hash: "`);
  if (at < 0) throw new Error(`no unit ${name} in the bundle`);
  const hash = /hash: "([0-9a-z]+)"/.exec(bundle.slice(at))![1]!;
  const start = bundle.indexOf('code: "', at) + "code: ".length;
  let end = start + 1;
  while (bundle[end] !== '"') end += bundle[end] === "\\" ? 2 : 1;
  return { hash, code: JSON.parse(bundle.slice(start, end + 1)) as string };
}
