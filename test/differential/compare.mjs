// Shared by scripts/differential.mjs and differential.test.ts: writing a case to disk, running
// schemaform's validator on it the way `schemaform validate DIR` does, and comparing the result
// with Terraform's recorded verdict.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

/** Writes a case's files under dir (emptied first). */
export function writeCase(dir, c) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(c.files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
}

/** A file-system-safe directory name for a case id. */
export const caseDirName = (id) => id.replace(/[^A-Za-z0-9._-]+/g, "__");

/**
 * Our errors on a case written at dir, with file names relative to dir (as Terraform shows them).
 * validateFiles is the language checker's (from dist/ in the script, from the sources in the test).
 */
export async function ourErrors(validateFiles, dir) {
  let result;
  try {
    result = await validateFiles([dir]);
  } catch (error) {
    // `schemaform validate` exits 2 without a verdict: never agreement
    return [{ file: "-", line: null, message: `crash: ${error?.message ?? error}`, crash: true }];
  }
  return result.diagnostics
    .filter((d) => d.severity === "error")
    .map((d) => ({ file: relative(dir, d.file).split(sep).join("/"), line: d.line, message: d.message, source: d.source ?? "terraform" }));
}

/**
 * Compares Terraform's recorded verdict with ours. Only our errors marked `"source": "terraform"`
 * are our account of `terraform validate`'s verdict: a `"schemaform"` one is a check Terraform
 * makes only at plan or apply (or never), reported early on purpose, so it neither rejects a case
 * Terraform accepts nor stands for Terraform's first error. Verdicts agree when both accept or
 * both reject; the line agrees (asked only when both reject and Terraform's first error has a
 * position) when one of our errors is on Terraform's first error's file and line.
 */
export function compare(recorded, ours) {
  if (ours.some((e) => e.crash)) return { verdict: false, line: null, crash: true };
  const terraforms = ours.filter((e) => e.source !== "schemaform");
  const weReject = terraforms.length > 0;
  const verdict = recorded.valid === !weReject;
  let line = null;
  if (!recorded.valid && weReject && recorded.first) {
    line = terraforms.some((e) => e.file === recorded.first.file && e.line === recorded.first.line);
  }
  return { verdict, line };
}

/** Per-category and overall agreement from [{ category, verdict, line }]. */
export function summarize(results) {
  const blank = () => ({ cases: 0, verdictAgree: 0, bothReject: 0, lineAgree: 0 });
  const categories = {};
  const overall = blank();
  for (const r of results) {
    for (const s of [(categories[r.category] ??= blank()), overall]) {
      s.cases++;
      if (r.verdict) s.verdictAgree++;
      if (r.line !== null) {
        s.bothReject++;
        if (r.line) s.lineAgree++;
      }
    }
  }
  const rates = (s) => ({ ...s, verdictRate: ratio(s.verdictAgree, s.cases), lineRate: ratio(s.lineAgree, s.bothReject) });
  return {
    overall: rates(overall),
    categories: Object.fromEntries(Object.entries(categories).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, s]) => [k, rates(s)])),
  };
}

function ratio(a, b) {
  return b === 0 ? null : Math.round((a / b) * 10000) / 10000;
}

/** One line per category: cases, verdict agreement, first-error-line agreement. */
export function formatSummary(summary) {
  const pct = (r) => (r === null ? "   -  " : `${(r * 100).toFixed(1).padStart(5)}%`);
  const row = (name, s) => `${name.padEnd(24)} ${String(s.cases).padStart(5)}  verdict ${pct(s.verdictRate)} (${s.verdictAgree}/${s.cases})  line ${pct(s.lineRate)} (${s.lineAgree}/${s.bothReject})`;
  return [...Object.entries(summary.categories).map(([k, s]) => row(k, s)), row("overall", summary.overall)].join("\n");
}

/** "missed" (Terraform rejects, we accept), "false-positive" (the reverse), "line", "crash" (no verdict), or null when we agree. */
export function disagreementKind(recorded, outcome) {
  if (outcome.crash) return "crash";
  if (!outcome.verdict) return recorded.valid ? "false-positive" : "missed";
  return outcome.line === false ? "line" : null;
}
