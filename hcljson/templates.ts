// HCL templates inside JSON strings: detection (`${` / `%{` not escaped as `$${` / `%%{`), a light
// syntax check, references to other objects (`${tsdb_vpcs.main.vpcs_id}`), and the bare traversals
// that reference-only positions take (`depends_on`, `moved.from`, `import.to`, …).
// All functions work on the decoded string (JSON escapes already applied), as Terraform does.

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

export type TraversalStep = { kind: "attr"; name: string } | { kind: "index"; key: string | number | null } | { kind: "splat" };

export interface Reference {
  /** first name, e.g. "tsdb_service", "data", "var" */
  root: string;
  steps: TraversalStep[];
  /** offsets in the decoded string */
  start: number;
  end: number;
}

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
}

const enum Ch {
  Dollar = 36,
  Percent = 37,
  LBrace = 123,
  RBrace = 125,
  Quote = 34,
  Backslash = 92,
}

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c > 127;
}
function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57) || c === 45;
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

const DIRECTIVES = new Set(["if", "else", "endif", "for", "endfor"]);

/** The common case, "${a.b.c}": one interpolation of a plain attribute traversal. */
function simpleReference(s: string): TemplateInfo | null {
  const n = s.length - 1;
  if (n < 3 || s.charCodeAt(0) !== Ch.Dollar || s.charCodeAt(1) !== Ch.LBrace || s.charCodeAt(n) !== Ch.RBrace) return null;
  let i = 2;
  if (!isIdentStart(s.charCodeAt(i))) return null;
  while (i < n && isIdentPart(s.charCodeAt(i))) i++;
  const root = s.slice(2, i);
  const steps: TraversalStep[] = [];
  while (i < n) {
    if (s.charCodeAt(i) !== 46 || !isIdentStart(s.charCodeAt(i + 1))) return null;
    const from = ++i;
    while (i < n && isIdentPart(s.charCodeAt(i))) i++;
    steps.push({ kind: "attr", name: s.slice(from, i) });
  }
  const ref: Reference = { root, steps, start: 2, end: n };
  return { problem: null, references: [ref], whole: ref };
}

/** Parses the template structure of a string that hasTemplate() accepted. */
export function analyzeTemplate(s: string): TemplateInfo {
  const simple = simpleReference(s);
  if (simple !== null) return simple;
  const info: TemplateInfo = { problem: null, references: [], whole: null };
  const stack: { word: string; at: number }[] = [];
  let interpolations = 0;
  let literalText = false;
  let i = 0;
  let onlyExpr: [number, number] | null = null;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if ((c === Ch.Dollar || c === Ch.Percent) && s.charCodeAt(i + 1) === Ch.LBrace) {
      const escaped = i > 0 && s.charCodeAt(i - 1) === c;
      if (!escaped) {
        const open = i;
        const end = scanExpressionEnd(s, i + 2);
        if (end < 0) {
          info.problem = {
            summary: c === Ch.Dollar ? "Unclosed template interpolation sequence" : "Unclosed template directive",
            detail: `There is no closing brace for this ${c === Ch.Dollar ? "interpolation" : "directive"} sequence before the end of the string.`,
            offset: open,
          };
          return info;
        }
        let from = open + 2;
        let to = end;
        if (s.charCodeAt(from) === 126) from++; // ~ strip marker
        if (to > from && s.charCodeAt(to - 1) === 126) to--;
        if (c === Ch.Dollar) {
          interpolations++;
          const problem = checkExpression(s, from, to, info.references);
          if (problem) {
            info.problem = problem;
            return info;
          }
          if (open === 0 && end === s.length - 1) onlyExpr = [from, to];
        } else {
          const body = s.slice(from, to).trim();
          const word = /^[a-z]*/.exec(body)![0];
          if (!DIRECTIVES.has(word)) {
            info.problem = { summary: "Invalid template directive", detail: 'A template directive keyword ("if", "for", etc) is expected at the beginning of a %{ sequence.', offset: open };
            return info;
          }
          if (word === "if" || word === "for") {
            const problem = checkExpression(s, s.indexOf(word, from) + word.length, to, info.references, word === "for");
            if (problem) {
              info.problem = problem;
              return info;
            }
            stack.push({ word, at: open });
          } else if (word === "else") {
            if (stack.length === 0 || stack[stack.length - 1]!.word !== "if") {
              info.problem = { summary: "Unexpected else directive", detail: "An else directive can only appear inside an if directive.", offset: open };
              return info;
            }
          } else {
            const expected = word === "endif" ? "if" : "for";
            const top = stack.pop();
            if (!top || top.word !== expected) {
              info.problem = { summary: `Unexpected ${word} directive`, detail: `An ${word} directive must close a ${expected} directive.`, offset: open };
              return info;
            }
          }
          literalText = true;
        }
        i = end + 1;
        continue;
      }
    }
    literalText = true;
    i++;
  }
  if (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    info.problem = {
      summary: `Unterminated template ${top.word} directive`,
      detail: `There is no end${top.word} directive to close this ${top.word} directive.`,
      offset: top.at,
    };
    return info;
  }
  if (onlyExpr && interpolations === 1 && !literalText) {
    const [from, to] = onlyExpr;
    const ref = info.references.length === 1 ? info.references[0]! : null;
    if (ref && s.slice(from, ref.start).trim() === "" && s.slice(ref.end, to).trim() === "") info.whole = ref;
  }
  return info;
}

/** Offset of the `}` closing an expression starting at `from`, or -1. */
function scanExpressionEnd(s: string, from: number): number {
  let depth = 0;
  let i = from;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === Ch.Quote) {
      i = scanQuoted(s, i + 1);
      if (i < 0) return -1;
      continue;
    }
    if (c === Ch.LBrace || c === 40 || c === 91) depth++;
    else if (c === 41 || c === 93) depth--;
    else if (c === Ch.RBrace) {
      if (depth === 0) return i;
      depth--;
    }
    i++;
  }
  return -1;
}

/** Offset after the closing quote of an HCL quoted string starting at `from` (after the quote). */
function scanQuoted(s: string, from: number): number {
  let i = from;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === Ch.Backslash) {
      i += 2;
      continue;
    }
    if (c === Ch.Quote) return i + 1;
    if (c === Ch.Dollar && s.charCodeAt(i + 1) === Ch.LBrace && s.charCodeAt(i - 1) !== Ch.Dollar) {
      const end = scanExpressionEnd(s, i + 2);
      if (end < 0) return -1;
      i = end + 1;
      continue;
    }
    i++;
  }
  return -1;
}

/** Checks an expression s[from, to) lightly and collects its references. */
function checkExpression(s: string, from: number, to: number, refs: Reference[], isFor = false): TemplateProblem | null {
  let i = from;
  while (i < to && isSpace(s.charCodeAt(i))) i++;
  if (i >= to) {
    return { summary: "Invalid expression", detail: "Expected the start of an expression, but found the end of the template sequence.", offset: Math.max(from - 2, 0) };
  }
  let prevSignificant = 0; // char code of the previous significant character
  let forNames: Set<string> | null = null;
  let afterFor = isFor;
  while (i < to) {
    const c = s.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === Ch.Quote) {
      // a quoted string may hold templates of its own
      const end = scanQuoted(s, i + 1);
      if (end < 0 || end > to) return { summary: "Unterminated string", detail: "A quoted string inside the template has no closing quote.", offset: i };
      const inner = s.slice(i + 1, end - 1);
      if (hasTemplate(inner)) {
        const nested = analyzeTemplate(inner);
        if (nested.problem) return { ...nested.problem, offset: i + 1 + nested.problem.offset };
        for (const r of nested.references) refs.push({ ...r, start: r.start + i + 1, end: r.end + i + 1 });
      }
      i = end;
      prevSignificant = Ch.Quote;
      continue;
    }
    if (isIdentStart(c) && prevSignificant !== 46) {
      const start = i;
      while (i < to && isIdentPart(s.charCodeAt(i))) i++;
      const root = s.slice(start, i);
      if (afterFor) {
        // the names a for expression or directive introduces, up to "in"
        if (root === "in") afterFor = false;
        else (forNames ??= new Set()).add(root);
        prevSignificant = 97;
        continue;
      }
      // "[for x, y in …: …]" and "{for k, v in …: …}" introduce local names
      if (root === "for" && (prevSignificant === 91 || prevSignificant === Ch.LBrace)) {
        afterFor = true;
        prevSignificant = 97;
        continue;
      }
      const parsed = parseSteps(s, i, to);
      if (parsed.problem) return parsed.problem;
      let j = parsed.end;
      while (j < to && isSpace(s.charCodeAt(j))) j++;
      const isCall = s.charCodeAt(j) === 40;
      if (!isCall && (forNames === null || !forNames.has(root))) refs.push({ root, steps: parsed.steps, start, end: parsed.end });
      i = parsed.end;
      prevSignificant = 97;
      continue;
    }
    if (isDigit(c)) {
      while (i < to && (isIdentPart(s.charCodeAt(i)) || s.charCodeAt(i) === 46)) i++;
      prevSignificant = 48;
      continue;
    }
    if (c === 46 && prevSignificant !== 46 && s.charCodeAt(i + 1) !== 46) {
      // a dot after ")" or "]" (attribute of a call result): the name must follow
      const parsed = parseSteps(s, i, to);
      if (parsed.problem) return parsed.problem;
      i = parsed.end;
      prevSignificant = 97;
      continue;
    }
    prevSignificant = c;
    i++;
  }
  return danglingOperator(s, from, to);
}

const OPERATOR_CHARS = new Set([...`+-*/%<>=!&|?:`].map((c) => c.charCodeAt(0)));

/** An expression that ends in an operator ("${1 +}") lacks its last operand, as Terraform reports. */
function danglingOperator(s: string, from: number, to: number): TemplateProblem | null {
  let j = to - 1;
  while (j >= from && isSpace(s.charCodeAt(j))) j--;
  const c = s.charCodeAt(j);
  if (!OPERATOR_CHARS.has(c)) return null;
  // a splat ("list.*", "list[*]") ends in "*" legitimately
  if (c === 42 && (s.charCodeAt(j - 1) === 46 || s.charCodeAt(j - 1) === 91)) return null;
  return { summary: "Invalid expression", detail: "Expected the start of an expression, but found an invalid expression token.", offset: to };
}

function parseSteps(s: string, from: number, to: number): { steps: TraversalStep[]; end: number; problem: TemplateProblem | null } {
  const steps: TraversalStep[] = [];
  let i = from;
  for (;;) {
    const c = s.charCodeAt(i);
    if (i < to && c === 46) {
      const d = s.charCodeAt(i + 1);
      if (i + 1 < to && isIdentStart(d)) {
        let j = i + 1;
        while (j < to && isIdentPart(s.charCodeAt(j))) j++;
        steps.push({ kind: "attr", name: s.slice(i + 1, j) });
        i = j;
        continue;
      }
      if (i + 1 < to && isDigit(d)) {
        let j = i + 1;
        while (j < to && isDigit(s.charCodeAt(j))) j++;
        steps.push({ kind: "index", key: Number(s.slice(i + 1, j)) });
        i = j;
        continue;
      }
      if (i + 1 < to && d === 42) {
        steps.push({ kind: "splat" });
        i += 2;
        continue;
      }
      if (d === 46) break; // "..." expansion
      return { steps, end: i, problem: { summary: "Invalid attribute name", detail: "An attribute name is required after a dot.", offset: i } };
    }
    if (i < to && c === 91) {
      let j = i + 1;
      while (j < to && isSpace(s.charCodeAt(j))) j++;
      if (s.charCodeAt(j) === 42) {
        let k = j + 1;
        while (k < to && isSpace(s.charCodeAt(k))) k++;
        if (s.charCodeAt(k) === 93) {
          steps.push({ kind: "splat" });
          i = k + 1;
          continue;
        }
      }
      const m = /^\s*(?:(\d+)|"((?:[^"\\$%]|\\.)*)")\s*\]/.exec(s.slice(i + 1, Math.min(to, i + 200)));
      if (m) {
        steps.push({ kind: "index", key: m[1] !== undefined ? Number(m[1]) : m[2]! });
        i = i + 1 + m[0].length;
        continue;
      }
      steps.push({ kind: "index", key: null });
      break; // a computed index: leave the rest to the expression scanner
    }
    break;
  }
  return { steps, end: i, problem: null };
}

export interface Traversal {
  root: string;
  steps: TraversalStep[];
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
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      let j = i + 1;
      if (j < s.length && isIdentStart(s.charCodeAt(j))) {
        while (j < s.length && isIdentPart(s.charCodeAt(j))) j++;
        steps.push({ kind: "attr", name: s.slice(i + 1, j) });
      } else if (j < s.length && isDigit(s.charCodeAt(j))) {
        while (j < s.length && isDigit(s.charCodeAt(j))) j++;
        steps.push({ kind: "index", key: Number(s.slice(i + 1, j)) });
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
