// HCL templates inside JSON strings: detection (`${` / `%{` not escaped as `$${` / `%%{`), their
// syntax, references to other objects (`${tsdb_vpcs.main.vpcs_id}`) and the errors of literals
// validate evaluates (parsed by expressions.ts, evaluated by evaluate.ts), and the bare traversals
// that reference-only positions take (`depends_on`, `moved.from`, `import.to`, …).
// All functions work on the decoded string (JSON escapes already applied), as Terraform does.

import { evaluate, EvaluationError } from "./evaluate.js";
import { parseTemplate } from "./template-parser.js";
import { referenceTemplateExpr, referenceTemplateReferences } from "./reference-template.js";
import type { Expr, Reference, TraversalStep } from "./syntax-tree.js";
import { isDigit, isIdentPart, isIdentStart } from "./lexer.js";

/** True when the string holds an unescaped `${` or `%{`: an HCL template, i.e. an unknown value. */
export function hasTemplate(s: string): boolean {
  let i = s.indexOf("{", 1);
  while (i > 0) {
    const c = s.charCodeAt(i - 1);
    if ((c === 36 || c === 37) && (i < 2 || s.charCodeAt(i - 2) !== c)) return true;
    i = s.indexOf("{", i + 1);
  }
  return false;
}

export type { Reference, TraversalStep } from "./syntax-tree.js";

export interface TemplateProblem {
  summary: string;
  detail: string;
  /** offset in the decoded string */
  offset: number;
}

export interface TemplateInfo {
  problem: TemplateProblem | null;
  references: Reference[];
  /** the whole string is one interpolation of exactly one reference, e.g. "${tsdb_vpcs.a.vpcs_id}" */
  whole: Reference | null;
  /** the parsed template (values.ts evaluates it); null for "${a.b.c}", whose reference is `whole` */
  expr: Expr | null;
  /** literal text and plain references only (reference-template.ts): its value is unknown unless a reference's is known */
  plain?: boolean;
}

const enum Ch {
  Dollar = 36,
  LBrace = 123,
  RBrace = 125,
}


/** The common case, "${a.b.c}": one interpolation of a plain attribute traversal. */
function simpleReference(s: string): TemplateInfo | null {
  const n = s.length - 1;
  if (n < 3 || s.charCodeAt(0) !== Ch.Dollar || s.charCodeAt(1) !== Ch.LBrace || s.charCodeAt(n) !== Ch.RBrace) return null;
  let i = 2;
  if (!isIdentStart(s.charCodeAt(i))) return null;
  while (i < n && isIdentPart(s.charCodeAt(i))) i++;
  const root = s.slice(2, i);
  // "${true}", "${null}": a literal, not a reference (the full parser reads it)
  if (i === n && (root === "true" || root === "false" || root === "null")) return null;
  const steps: TraversalStep[] = [];
  while (i < n) {
    if (s.charCodeAt(i) !== 46 || !isIdentStart(s.charCodeAt(i + 1))) return null;
    const from = ++i;
    while (i < n && isIdentPart(s.charCodeAt(i))) i++;
    steps.push({ kind: "attr", name: s.slice(from, i) });
  }
  const ref: Reference = { root, steps, start: 2, end: n };
  return { problem: null, references: [ref], whole: ref, expr: null };
}

/** Parses a string that hasTemplate() accepted: its first problem, its references, its syntax tree. */
export function analyzeTemplate(s: string): TemplateInfo {
  const simple = simpleReference(s);
  if (simple !== null) return simple;
  // the same string is often analyzed twice in a row (its syntax and references, then its value)
  if (s === last.text && last.info !== null) return last.info;
  // literal text around plain references: read without the parser, nothing to evaluate
  const plain = referenceTemplateReferences(s);
  if (plain !== null) {
    last.text = s;
    return (last.info = new PlainTemplate(s, plain));
  }
  // a generated configuration repeats its templates ("${upper(var.env)}" in every resource)
  const seen = parsedTemplates.get(s);
  if (seen !== undefined) {
    last.text = s;
    return (last.info = seen);
  }
  const parsed = parseTemplate(s);
  let info: TemplateInfo;
  if (!parsed.ok) info = { problem: parsed.problem, references: [], whole: null, expr: null };
  else {
    info = { problem: null, references: parsed.refs, whole: null, expr: parsed.expr };
    // "${ a.b[0] }": the template is one reference and nothing else
    if (parsed.only !== null && parsed.refs.length === 1) {
      const ref = parsed.refs[0]!;
      if (s.slice(parsed.only[0], ref.start).trim() === "" && s.slice(ref.end, parsed.only[1]).trim() === "") info.whole = ref;
    }
    // literals of the wrong type ("${abs("x")}") fail when validate evaluates the template (a
    // template of local values is evaluated with them where it is checked: values.ts)
    if (!s.includes("local.")) {
      try {
        evaluate(parsed.expr, null);
      } catch (error) {
        if (!(error instanceof EvaluationError)) throw error;
        info.problem = { summary: error.summary, detail: error.detail, offset: 0 };
      }
    }
  }
  if (parsedTemplates.size === PARSED_TEMPLATES_KEPT) parsedTemplates.clear();
  parsedTemplates.set(s, info);
  last.text = s;
  last.info = info;
  return info;
}

/**
 * A template of literal text and plain references (reference-template.ts): its syntax tree is
 * built when first read, as most are never evaluated (known-values.ts knows them unknown).
 */
class PlainTemplate implements TemplateInfo {
  readonly problem = null;
  readonly whole = null;
  readonly plain = true;
  private tree: Expr | null = null;
  constructor(
    private readonly text: string,
    readonly references: Reference[],
  ) {}
  get expr(): Expr {
    return (this.tree ??= referenceTemplateExpr(this.text, this.references));
  }
}

const last: { text: string; info: TemplateInfo | null } = { text: "", info: null };

/**
 * The templates the parser read in this module, by their text (their results are read, never
 * changed), up to a bound: a file of unique templates only refills it.
 */
const parsedTemplates = new Map<string, TemplateInfo>();
const PARSED_TEMPLATES_KEPT = 4096;

/** Forgets the templates analysed: their problems depend on the module (the providers its functions may name). */
export function forgetLastTemplate(): void {
  last.text = "";
  last.info = null;
  parsedTemplates.clear();
}

export interface Traversal {
  root: string;
  steps: TraversalStep[];
}

/**
 * A keyword as Terraform reads one (a provisioner's `when` and `on_failure`): the string parsed as
 * a bare reference, so whitespace around the name is allowed and "${destroy}" is no keyword.
 */
export function keywordOf(text: string): string | null {
  const t = parseTraversal(text);
  return t && t.steps.length === 0 ? t.root : null;
}

/**
 * Parses a bare reference such as `aws_instance.web[0]` or `module.m.aws_instance.x["k"]`.
 * With `dynamicIndex` (import.to), an index may be any expression, e.g. `[each.key]`.
 */
export function parseTraversal(text: string, dynamicIndex = false): Traversal | null {
  const s = text.trim();
  if (s.length === 0 || !isIdentStart(s.charCodeAt(0))) return null;
  let i = 1;
  while (i < s.length && isIdentPart(s.charCodeAt(i))) i++;
  const root = s.slice(0, i);
  const steps: TraversalStep[] = [];
  // HCL reads the string as tokens: spaces and tabs may stand between them ("tsdb .east")
  const blank = (at: number) => s.charCodeAt(at) === 32 || s.charCodeAt(at) === 9;
  while (i < s.length) {
    while (blank(i)) i++;
    const c = s.charCodeAt(i);
    if (c === 46) {
      let j = i + 1;
      while (blank(j)) j++;
      const start = j;
      if (j < s.length && isIdentStart(s.charCodeAt(j))) {
        while (j < s.length && isIdentPart(s.charCodeAt(j))) j++;
        steps.push({ kind: "attr", name: s.slice(start, j) });
      } else if (j < s.length && isDigit(s.charCodeAt(j))) {
        while (j < s.length && isDigit(s.charCodeAt(j))) j++;
        steps.push({ kind: "index", key: Number(s.slice(start, j)) });
      } else return null;
      i = j;
      continue;
    }
    if (c === 91) {
      const m = /^\[\s*(?:(\d+)|"((?:[^"\\]|\\.)*)")\s*\]/.exec(s.slice(i));
      if (m) {
        steps.push({ kind: "index", key: m[1] !== undefined ? Number(m[1]) : JSON.parse(`"${m[2]!}"`) });
        i += m[0].length;
        continue;
      }
      if (dynamicIndex) {
        const close = s.indexOf("]", i);
        const inner = close > i ? s.slice(i + 1, close).trim() : "";
        if (close > i && inner && !/[${}"]/.test(inner) && parseTraversal(inner)) {
          steps.push({ kind: "index", key: null });
          i = close + 1;
          continue;
        }
      }
      return null;
    }
    return null;
  }
  return { root, steps };
}

export function formatTraversal(t: Traversal): string {
  let out = t.root;
  for (const step of t.steps) {
    if (step.kind === "attr") out += `.${step.name}`;
    else if (step.kind === "splat") out += "[*]";
    else out += step.key === null ? "[…]" : typeof step.key === "number" ? `[${step.key}]` : `[${JSON.stringify(step.key)}]`;
  }
  return out;
}
