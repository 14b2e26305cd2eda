// generated/ is exactly what a fresh `npm run generate` writes: run the generator in memory and
// compare every file, including files that should no longer exist.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, test } from "vitest";
import { generate } from "../../generator/generate.js";

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      const p = join(d, entry);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p).split("\\").join("/"));
    }
  };
  walk(dir);
  return out.sort();
}

test("generated/ equals a fresh run of the generator (run `npm run generate` if this fails)", async () => {
  const root = process.cwd();
  const files = await generate(join(root, "schemas"));
  const onDisk = listFiles(join(root, "generated"));
  expect(onDisk).toEqual([...files.keys()].sort());
  const stale = [...files].filter(([path, content]) => readFileSync(join(root, "generated", path), "utf8") !== content).map(([path]) => path);
  expect(stale).toEqual([]);
}, 120_000);
