// Round "native2" of the differential corpus: a second independent round of native-syntax (.tf)
// and mixed modules, written from HCL's native syntax specification, Terraform's documented
// language and our providers' schemas (never from the checker), and measured before any fix.
// Each case is a base of native-round2-bases.mjs with one change, or a module of its own; the
// changes are what people write: layouts of files, comments, whitespace, heredocs, templates,
// expressions, every block kind, typed variables, overrides, local modules and .tftest.hcl files.
// About half are valid as Terraform 1.11.4 reads them; its recorded verdict is the judge.
import { ROUND2_BASES } from "./native-round2-bases.mjs";
import { round2FileCases } from "./native-round2-files.mjs";
import { round2LanguageCases } from "./native-round2-language.mjs";

export const NATIVE2_ROUND = "native2";

/** @returns {{ id: string, category: string, round: string, files: Record<string, string> }[]} */
export function native2Cases() {
  const cases = [];
  for (const [name, files] of Object.entries(ROUND2_BASES)) cases.push({ id: `native2/valid/base/${name}`, category: "native2-valid", files: { ...files } });
  for (const c of [...round2LanguageCases(), ...round2FileCases()]) {
    cases.push({ id: `native2/${c.cat}/${c.name}`, category: `native2-${c.cat}`, files: c.files });
  }
  return cases.map((c) => ({ ...c, round: NATIVE2_ROUND }));
}
