// tsc compiles TypeScript only; the generated validators are CommonJS files that ship as they are.
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const from = join(root, "generated", "validators");
const to = join(root, "dist", "generated", "validators");
mkdirSync(to, { recursive: true });
for (const file of readdirSync(from)) {
  if (file.endsWith(".cjs") || file.endsWith(".d.cts")) copyFileSync(join(from, file), join(to, file));
}
