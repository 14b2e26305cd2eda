// Override files merged before the rules read a body (language/load/merge-overrides.ts), against
// Terraform 1.11.4's verdicts recorded by fixtures/overrides/record.mjs: JSON and native override
// files over JSON and native primary files. Each case: the same verdict, and Terraform's first
// error at the same file and line with its summary.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateFiles } from "../../language/index.js";
import { base, cases } from "./fixtures/overrides/cases.mjs";

interface Recorded {
  name: string;
  valid: boolean;
  diagnostics: { summary: string; file: string | null; line: number | null }[];
}
const verdicts = JSON.parse(readFileSync(new URL("./fixtures/overrides/verdicts.json", import.meta.url), "utf8")) as { terraform: string; cases: Recorded[] };

const work = mkdtempSync(join(tmpdir(), "schemaform-overrides-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function errorsOf(name: string): Promise<{ file: string; line: number; message: string }[]> {
  const dir = join(work, String(Object.keys(cases).indexOf(name)));
  mkdirSync(dir);
  for (const [file, text] of Object.entries({ ...base, ...cases[name] })) if (text !== null) writeFileSync(join(dir, file), text);
  const result = await validateFiles([dir]);
  return result.diagnostics.filter((d) => d.severity === "error").map((d) => ({ file: d.file.slice(dir.length + 1), line: d.line, message: d.message }));
}

describe(`override files merged as Terraform ${verdicts.terraform} merges them`, () => {
  it("every case is recorded", () => {
    expect(verdicts.cases.map((c) => c.name)).toEqual(Object.keys(cases));
  });
  for (const recorded of verdicts.cases) {
    it(recorded.name, async () => {
      const ours = await errorsOf(recorded.name);
      if (recorded.valid) {
        expect(ours).toEqual([]);
        return;
      }
      const first = recorded.diagnostics[0]!;
      expect(ours, `Terraform: ${first.file}:${first.line} ${first.summary}`).toContainEqual({ file: first.file, line: first.line, message: expect.stringMatching(new RegExp(`^${first.summary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`)) });
    });
  }
});
