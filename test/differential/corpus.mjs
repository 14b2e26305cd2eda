// The differential corpus: valid bases, their mutations per category, and HCL-JSON parser and
// structure cases, all deterministic from one seed. A case is { id, category, files } where
// files maps a path inside the case directory (e.g. "main.tf.json", "modules/net/main.tf.json")
// to its text; a case of a round measured on its own (its agreement before any fix, then now) has
// `round`. Terraform's verdict on each case is recorded by scripts/differential.mjs.
import { createHash } from "node:crypto";
import { buildBase, rng } from "./base.mjs";
import { hclJsonCases } from "./hcl-json-cases.mjs";
import { LONG_TAIL_MUTATIONS } from "./mutations-long-tail.mjs";
import { nativeCases } from "./native-cases.mjs";
import { native2Cases } from "./native-round2.mjs";
import { regressionCases } from "./regression-cases.mjs";
import { MUTATIONS, TEXT_MUTATIONS } from "./mutations.mjs";
import { ROUND13_MUTATIONS } from "./mutations-round13.mjs";
import { ROUND14_MUTATIONS } from "./mutations-round14.mjs";
import { ROUND15_MUTATIONS } from "./mutations-round15.mjs";
import { ROUND16_MUTATIONS } from "./mutations-round16.mjs";
import { Raw, STYLES, serialize } from "./serialize.mjs";

export const DEFAULT_SEED = 12;
const BASES = 110;
/** how many bases each model mutation is applied to (every other one gets a third), and each text mutation */
const PER_MUTATION = 2;
const PER_TEXT_MUTATION = 2;

/** @returns {{ id: string, category: string, files: Record<string, string> }[]} */
export function generateCorpus(seed = DEFAULT_SEED) {
  const cases = [];
  const base = (i) => buildBase(rng(mix(seed, i, 0)), i);
  for (let i = 0; i < BASES; i++) cases.push({ id: `valid/base/${pad(i)}`, category: "valid", files: materialize(base(i)) });
  // later rounds are appended, so the earlier rounds' cases keep their bases
  [...MUTATIONS, ...LONG_TAIL_MUTATIONS, ...ROUND13_MUTATIONS, ...ROUND14_MUTATIONS, ...ROUND15_MUTATIONS, ...ROUND16_MUTATIONS].forEach((mutation, j) => {
    const used = new Set();
    for (let k = 0; k < PER_MUTATION + (j % 2 === 0 ? 1 : 0); k++) {
      let i = (j * 7 + k * 37 + mix(seed, j, k) % 11) % BASES;
      while (used.has(i)) i = (i + 1) % BASES;
      used.add(i);
      const m = base(i);
      if (mutation.apply(m, rng(mix(seed, i, j + 1000))) === false) continue;
      const c = { id: `${mutation.cat}/${mutation.name}/${pad(i)}`, category: mutation.cat, files: materialize(m) };
      if (mutation.round) c.round = mutation.round;
      cases.push(c);
    }
  });
  TEXT_MUTATIONS.forEach((mutation, j) => {
    for (let k = 0; k < PER_TEXT_MUTATION; k++) {
      const i = (j * 13 + k * 53 + 5) % BASES;
      const files = materialize(base(i));
      const names = Object.keys(files).filter((n) => !n.includes("/"));
      const target = mutation.pick?.(files) ?? names[(j + k) % names.length];
      const changed = mutation.change(files[target]);
      if (changed === files[target]) continue;
      files[target] = changed;
      cases.push({ id: `${mutation.cat}/${mutation.name}/${pad(i)}`, category: mutation.cat, files });
    }
  });
  for (const c of hclJsonCases()) cases.push(c);
  // native syntax (round "native"): twins of earlier cases, mixed modules, hand-written native cases
  for (const c of nativeCases(cases)) cases.push(c);
  // the second independent native round (round "native2"): hand-written modules, measured on their own
  for (const c of native2Cases()) cases.push(c);
  // cases written for a found problem, last so that nothing before them moves
  for (const c of regressionCases()) cases.push(c);
  const seen = new Set();
  for (const c of cases) {
    if (seen.has(c.id)) throw new Error(`duplicate case id ${c.id}`);
    seen.add(c.id);
  }
  return cases;
}

/** The written files of a model: the root module's, then each local module's under modules/NAME. */
export function materialize(m) {
  const files = {};
  const style = STYLES[m.style % STYLES.length];
  for (const [name, root] of Object.entries(m.files)) files[name] = root instanceof Raw ? root.text + "\n" : serialize(root, style);
  for (const [mod, modFiles] of Object.entries(m.modules)) {
    for (const [name, root] of Object.entries(modFiles)) files[`modules/${mod}/${name}`] = serialize(root, STYLES[0]);
  }
  return files;
}

/** A hash of a case's files (paths and contents), to tell whether a recording still matches. */
export function caseHash(c) {
  const h = createHash("sha256");
  for (const name of Object.keys(c.files).sort()) h.update(`${name}\u0000${c.files[name]}\u0000`);
  return h.digest("hex").slice(0, 16);
}

function pad(i) {
  return String(i).padStart(3, "0");
}

function mix(a, b, c) {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35) ^ Math.imul(c + 0x27d4eb2f, 0x165667b1);
  h ^= h >>> 15;
  return h >>> 0;
}
