// Test support: a module written to a temporary directory and validated as `schemaform validate DIR`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll } from "vitest";
import { validateFiles, type Diagnostic } from "../../language/index.js";

/** Validates modules of the given files, each in a directory of its own (removed after the test file). */
export function modulesOnDisk(prefix: string): {
  diagnostics(files: Record<string, string>): Promise<Diagnostic[]>;
  /** each error as "FILE:LINE: first line of its message" (FILE relative to the module) */
  errors(files: Record<string, string>): Promise<string[]>;
} {
  const work = mkdtempSync(join(tmpdir(), `schemaform-${prefix}-`));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  let n = 0;
  const diagnostics = async (files: Record<string, string>) => {
    const dir = join(work, String(n++));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    // paths relative to the module, in messages too (a cycle or a file function names them)
    return (await validateFiles([dir])).diagnostics.map((d) => ({ ...d, file: d.file.slice(dir.length + 1), message: d.message.replaceAll(dir + "/", "") }));
  };
  return {
    diagnostics,
    errors: async (files) => (await diagnostics(files)).filter((d) => d.severity === "error").map((d) => `${d.file}:${d.line}: ${d.message.split("\n")[0]!}`),
  };
}

/** Files given as JSON values, written as `*.tf.json` texts (pretty-printed, so lines are the values' own). */
export function jsonFiles(files: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([name, value]) => [name, JSON.stringify(value, null, 2)]));
}
