// One file of a module read by its syntax: `*.tf.json` by the JSON parser, `*.tf` by the native
// parser and then lowered into the JSON syntax's tree (syntax/native/lower.ts), so the rules read
// both alike; a native file keeps its own text for positions and code frames.
import { parseJson, type JsonDoc, type ParseResult } from "../syntax/json-parser.js";
import { repairJson } from "../syntax/json-repair.js";
import { parseNative, type NativeFile } from "../syntax/native/parser.js";
import { lowerNative, type NativeSource } from "../syntax/native/lower.js";
import { checkNativeStructure } from "../syntax/native/structure.js";

export interface ParsedSource {
  result: ParseResult;
  /** set for a native file read without syntax errors: `result` is its lowered JSON text's tree */
  native?: NativeSource;
  /** a native file's syntax errors (offsets into its own text); the file is then not read further */
  nativeProblems?: { summary: string; detail: string; offset: number; endOffset: number }[];
  /** a `.tf.json` file's syntax error when `result` is the rest of it as Terraform reads it anyway */
  jsonProblem?: { summary: string; detail: string; offset: number; endOffset: number };
  /** a native file that stopped: what HCL reads past its problems, lowered; only its module calls are read (Terraform still loads them) */
  recovered?: JsonDoc;
}

/** Whether a file name is a native configuration file (`main.tf`, not `main.tf.json`). */
export function isNativeName(name: string): boolean {
  return name.endsWith(".tf");
}

export function parseSource(name: string, text: string): ParsedSource {
  if (!isNativeName(name)) {
    const result = parseJson(text);
    if (result.ok) return { result };
    // Terraform reads on past the error (its "Incorrect JSON value type" errors, the declarations)
    const repaired = repairJson(text);
    const reading = repaired === null ? null : parseJson(repaired);
    return reading?.ok ? { result: reading, jsonProblem: result.problem } : { result };
  }
  const parsed = parseNative(text, name);
  // a file read to its end (arguments set twice are its only problems) is checked on, as Terraform does
  if (!parsed.complete) {
    const problems = parsed.problems.map((p) => ({ summary: p.summary, detail: p.detail, offset: p.range.start, endOffset: p.range.end }));
    const recovered = parsed.recovered ? recoveredDoc({ ...parsed.file, body: parsed.recovered }) : null;
    return recovered ? { result: { ok: false, doc: null, problem: problems[0]! }, nativeProblems: problems, recovered } : { result: { ok: false, doc: null, problem: problems[0]! }, nativeProblems: problems };
  }
  const base = name.replace(/^.*[\\/]/, "");
  const structure = checkNativeStructure(parsed.file, base === "override.tf" || base.endsWith("_override.tf"));
  const lowered = lowerNative(parsed.file, structure.skip, parsed.problems.length > 0);
  const result = parseJson(lowered.json);
  if (!result.ok) throw new Error(`internal: a native file lowered to invalid JSON (${result.problem.summary})`);
  const problems = [...parsed.problems, ...structure.problems].map((p) => ({ summary: p.summary, detail: p.detail, offset: p.range.start, endOffset: p.range.end }));
  return { result, native: { text, toNative: lowered.toNative, blockKeys: lowered.blockKeys, problems } };
}

/** A recovered native body as the JSON syntax's tree (null if it cannot be lowered). */
function recoveredDoc(file: NativeFile): JsonDoc | null {
  const lowered = lowerNative(file, checkNativeStructure(file).skip, true);
  const result = parseJson(lowered.json);
  return result.ok ? result.doc : null;
}
