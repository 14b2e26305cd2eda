// The differential suite: the generated corpus (corpus.mjs) checked by schemaform's validator
// against Terraform 1.11's recorded verdicts (terraform-verdicts.json, written by
// `npm run differential:record`), so CI needs no Terraform. Every disagreement must be listed in
// known-differences.json with its reason; a listed case that now agrees fails too, so the list
// only shrinks as categories are fixed.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { validateFiles } from "../../language/index.js";
import { caseDirName, compare, disagreementKind, formatSummary, ourErrors, summarize, writeCase, type RecordedVerdict } from "./compare.mjs";
import { caseHash, generateCorpus } from "./corpus.mjs";

interface KnownDifference {
  id: string;
  category: string;
  kind: "missed" | "false-positive" | "line" | "crash";
  terraform: string;
  why: string;
}

const here = fileURLToPath(new URL(".", import.meta.url));
const recording = JSON.parse(readFileSync(join(here, "terraform-verdicts.json"), "utf8")) as { terraform: string; seed: number; cases: Record<string, RecordedVerdict> };
const known = JSON.parse(readFileSync(join(here, "known-differences.json"), "utf8")) as { cases: KnownDifference[] };
const corpus = generateCorpus(recording.seed);
const work = mkdtempSync(join(tmpdir(), "schemaform-differential-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe(`differential suite against Terraform ${recording.terraform}`, () => {
  it("the recording is of this corpus (same cases, same contents)", () => {
    const changed = corpus.filter((c) => recording.cases[c.id]?.hash !== caseHash(c)).map((c) => c.id);
    const ids = new Set(corpus.map((c) => c.id));
    const gone = Object.keys(recording.cases).filter((id) => !ids.has(id));
    expect(
      [...changed.map((id) => `${recording.cases[id] ? "changed" : "not recorded"}: ${id}`), ...gone.map((id) => `recorded but no longer generated: ${id}`)],
      "the corpus differs from the recording: re-record with npm run differential:record",
    ).toEqual([]);
  });

  it("schemaform gives Terraform's verdict and first error line, except the known differences", async () => {
    const results: { id: string; category: string; verdict: boolean; line: boolean | null }[] = [];
    const unexpected: string[] = [];
    const knownById = new Map(known.cases.map((k) => [k.id, k]));
    const nowAgree: string[] = [];
    // the validator waits on the file system most of the time: a few cases at once
    const recordedCases = corpus.filter((c) => recording.cases[c.id]?.hash === caseHash(c)); // others: the test above
    const errorsOf = new Map<string, Awaited<ReturnType<typeof ourErrors>>>();
    for (let i = 0; i < recordedCases.length; i += 8) {
      await Promise.all(
        recordedCases.slice(i, i + 8).map(async (c) => {
          const dir = join(work, caseDirName(c.id));
          writeCase(dir, c);
          errorsOf.set(c.id, await ourErrors(validateFiles, dir));
          rmSync(dir, { recursive: true, force: true });
        }),
      );
    }
    for (const c of recordedCases) {
      const recorded = recording.cases[c.id]!;
      const ours = errorsOf.get(c.id)!;
      const outcome = compare(recorded, ours);
      results.push({ id: c.id, category: c.category, ...outcome });
      const kind = disagreementKind(recorded, outcome);
      const listed = knownById.get(c.id);
      if (kind && !listed) {
        const theirs = recorded.errors.slice(0, 2).map((e) => `${e.file ?? "-"}:${e.line ?? "-"} ${e.summary}`).join(" | ") || "(valid)";
        const mine = ours.slice(0, 2).map((e) => `${e.file}:${e.line} ${e.message.split("\n")[0]}`).join(" | ") || "(valid)";
        unexpected.push(`${c.id} [${c.category}] ${kind}\n    terraform: ${theirs}\n    schemaform: ${mine}`);
      } else if (!kind && listed) nowAgree.push(c.id);
    }
    const ids = new Set(corpus.map((c) => c.id));
    for (const k of known.cases) if (!ids.has(k.id)) nowAgree.push(k.id);

    const summary = summarize(results);
    console.log(`differential agreement with Terraform ${recording.terraform} (${results.length} cases):\n${formatSummary(summary)}`);
    expect(unexpected, "disagreements with Terraform that known-differences.json does not list").toEqual([]);
    expect(nowAgree, "these cases agree with Terraform now: remove them from test/differential/known-differences.json").toEqual([]);
  });
});
