// Native-syntax cases of the differential corpus (round "native", measured on its own):
//
// - twins: a deterministic subset of the corpus's earlier cases with every `.tf.json` file written
//   as a `.tf` file by the test side's own converter (native-writer.mjs), in one of several styles;
// - mixed: the same, with only some of a case's files native (some root files, or the root module
//   and not its local modules, or the reverse), so one module reads both syntaxes;
// - hand-written native cases (native-mutations.mjs): syntax errors, comments, heredocs,
//   templates, labels, names, numbers, overrides and `.tftest.hcl` files.
//
// The subset is chosen by a hash of each case's id, so it does not move when cases are added to
// the corpus; only rounds up to 12 are twinned (later rounds measure themselves).
import { createHash } from "node:crypto";
import { nativeMutationCases } from "./native-mutations.mjs";
import { NATIVE_STYLES, nativeFromJson } from "./native-writer.mjs";

export const NATIVE_ROUND = "native";
const TWIN_EVERY = 9;
const MIXED_EVERY = 13;

/** @param {{ id: string, category: string, round?: number, files: Record<string, string> }[]} earlier */
export function nativeCases(earlier) {
  const cases = [];
  for (const c of earlier) {
    if (c.round !== undefined && !(typeof c.round === "number" && c.round <= 12)) continue;
    const h = idHash(c.id);
    const style = NATIVE_STYLES[h % NATIVE_STYLES.length];
    if (h % TWIN_EVERY === 0) {
      const files = rewrite(c.files, () => true, style);
      if (files) cases.push({ id: `native/twin/${c.id}`, category: "native-twin", round: NATIVE_ROUND, files });
    }
    if (h % MIXED_EVERY === 5) {
      const files = mixed(c.files, h, style);
      if (files) cases.push({ id: `native/mixed/${c.id}`, category: "native-mixed", round: NATIVE_ROUND, files });
    }
  }
  for (const c of nativeMutationCases()) cases.push({ ...c, round: NATIVE_ROUND });
  return cases;
}

function idHash(id) {
  return parseInt(createHash("sha256").update(id).digest("hex").slice(0, 8), 16);
}

const isConfigJson = (name) => name.endsWith(".tf.json");
const inModule = (name) => name.startsWith("modules/");

/** Some files native and some JSON: which ones depends on the case's hash and what it has. */
function mixed(files, h, style) {
  const json = Object.keys(files).filter(isConfigJson).sort();
  const root = json.filter((n) => !inModule(n));
  const modules = json.filter(inModule);
  const choices = [];
  if (root.length >= 2) choices.push((n) => !inModule(n) && root.indexOf(n) % 2 === Math.floor(h / 16) % 2);
  if (root.length >= 1 && modules.length >= 1) {
    choices.push(inModule);
    choices.push((n) => !inModule(n));
  }
  if (modules.length >= 2) choices.push((n) => inModule(n) && n.endsWith("/main.tf.json"));
  if (choices.length === 0) return null;
  return rewrite(files, choices[Math.floor(h / 256) % choices.length], style);
}

/** The files with the chosen `.tf.json` files written as `.tf`; null when one has no native form. */
function rewrite(files, chosen, style) {
  const out = {};
  let changed = 0;
  for (const [name, text] of Object.entries(files)) {
    if (!isConfigJson(name) || !chosen(name)) {
      out[name] = text;
      continue;
    }
    const native = nativeFromJson(text, style);
    const target = name.slice(0, -".json".length);
    if (native === null || target in files) return null;
    out[target] = native;
    changed++;
  }
  return changed > 0 ? out : null;
}
