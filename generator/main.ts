// `npm run generate`: schemas/ → generated/. Deterministic: the same schemas give the same
// bytes, so a test can regenerate into a temporary folder and compare.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "./generate.js";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      const p = join(d, entry);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  try {
    walk(dir);
  } catch {
    return [];
  }
  return out.sort();
}

async function main(argv: string[]): Promise<number> {
  const check = argv.includes("--check");
  const outDir = join(projectRoot, "generated");
  const files = await generate(join(projectRoot, "schemas"));
  if (check) {
    const stale: string[] = [];
    const existing = new Set(listFiles(outDir));
    for (const [path, content] of files) {
      let current: string | undefined;
      try {
        current = readFileSync(join(outDir, path), "utf8");
      } catch {
        current = undefined;
      }
      if (current !== content) stale.push(path);
      existing.delete(path);
    }
    stale.push(...[...existing].map((p) => `${p} (should not exist)`));
    if (stale.length) {
      process.stderr.write(`generated/ is stale; run npm run generate:\n${stale.map((s) => `  ${s}`).join("\n")}\n`);
      return 1;
    }
    process.stdout.write(`generated/ is up to date (${files.size} files)\n`);
    return 0;
  }
  rmSync(outDir, { recursive: true, force: true });
  for (const [path, content] of files) {
    const target = join(outDir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  process.stdout.write(`wrote ${files.size} files to generated/\n`);
  return 0;
}

main(process.argv.slice(2)).then((code) => (process.exitCode = code));
