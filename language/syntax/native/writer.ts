// Native HCL (the `.tf` syntax) for the reference pages' examples. Values are written the way
// `terraform fmt` lays them out (two-space indent, `=` aligned across a run of one-line
// attributes, spaces inside braces but not brackets), so an example a user copies stays clean
// under fmt, and a test can hold the pages to it.
//
// A JavaScript string is a literal: it is quoted and escaped, `${` and `%{` included, so it can
// never turn into an interpolation. Anything meant to be evaluated (a reference, a type keyword,
// a template) is an Expression and is written as it is.

export class Expression {
  constructor(readonly source: string) {}
}

export const expression = (source: string): Expression => new Expression(source);

export type HclValue = string | number | boolean | null | Expression | HclValue[] | { [key: string]: HclValue };

export type BodyItem =
  | { kind: "attribute"; name: string; value: HclValue }
  | { kind: "block"; type: string; labels: string[]; body: BodyItem[] }
  /** a `#` comment on the lines before the next item */
  | { kind: "comment"; text: string };

export const attribute = (name: string, value: HclValue): BodyItem => ({ kind: "attribute", name, value });
export const block = (type: string, labels: string[], body: BodyItem[]): BodyItem => ({ kind: "block", type, labels, body });
export const comment = (text: string): BodyItem => ({ kind: "comment", text });

const INDENT = "  ";
/** Past this column a value is broken over several lines (fmt keeps either; this is for reading). */
const WIDTH = 80;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Words a bare object key would be read as: a literal, or the start of a `for` expression. */
const KEYWORDS = new Set(["true", "false", "null", "for", "in", "if"]);

/** Characters a quoted template cannot hold as they are (template sequences aside). */
function escapeCharacters(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === "\\") out += "\\\\";
    else if (ch === '"') out += '\\"';
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return out;
}

/** A literal string as an HCL quoted string: evaluates to exactly `text`. */
export function quoteString(text: string): string {
  return `"${escapeCharacters(text).replace(/([$%])\{/g, (_, sign: string) => `${sign}${sign}{`)}"`;
}

type TemplatePart = { literal: string } | { sequence: string; interpolation: boolean };

/**
 * Splits an HCL-JSON string (a template) into literal text, kept in template form (`$${` stays
 * escaped), and `${…}` / `%{…}` sequences, kept whole. Quoted strings inside a sequence may
 * hold braces.
 */
function templateParts(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = "";
  let i = 0;
  while (i < template.length) {
    const c = template[i]!;
    if ((c === "$" || c === "%") && template[i + 1] === c && template[i + 2] === "{") {
      // `$${` / `%%{`: an escaped sequence, literal text.
      literal += template.slice(i, i + 3);
      i += 3;
      continue;
    }
    if ((c === "$" || c === "%") && template[i + 1] === "{") {
      const end = sequenceEnd(template, i + 2);
      if (end < 0) throw new Error(`unclosed template sequence in ${JSON.stringify(template)}`);
      if (literal) parts.push({ literal });
      literal = "";
      parts.push({ sequence: template.slice(i, end + 1), interpolation: c === "$" });
      i = end + 1;
      continue;
    }
    literal += c;
    i++;
  }
  if (literal) parts.push({ literal });
  return parts;
}

function sequenceEnd(s: string, from: number): number {
  let depth = 0;
  for (let i = from; i < s.length; i++) {
    const c = s[i];
    if (c === '"') {
      for (i++; i < s.length && s[i] !== '"'; i++) if (s[i] === "\\") i++;
    } else if (c === "{") depth++;
    else if (c === "}") {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/**
 * An HCL-JSON string value in native form: a literal when it holds no template sequence, the
 * bare expression when it is one `${…}` and nothing else, otherwise the same template quoted.
 */
export function fromTemplate(template: string): HclValue {
  const parts = templateParts(template);
  const sequences = parts.filter((p): p is Extract<TemplatePart, { sequence: string }> => "sequence" in p);
  if (!sequences.length) return template.replace(/([$%])\1\{/g, (_, sign: string) => `${sign}{`);
  const only = parts.length === 1 ? sequences[0]! : undefined;
  if (only?.interpolation) return expression(only.sequence.slice(2, -1).replace(/^~/, "").replace(/~$/, "").trim());
  return expression(`"${parts.map((p) => ("literal" in p ? escapeCharacters(p.literal) : p.sequence)).join("")}"`);
}

function isObject(value: HclValue): value is { [key: string]: HclValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Expression);
}

function isComposite(value: HclValue): boolean {
  return Array.isArray(value) || isObject(value);
}

function objectKey(key: string): string {
  return IDENTIFIER.test(key) && !KEYWORDS.has(key) ? key : quoteString(key);
}

function scalar(value: Exclude<HclValue, HclValue[] | { [key: string]: HclValue }>): string {
  if (value instanceof Expression) return value.source;
  if (typeof value === "string") return quoteString(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`${value} has no HCL literal`);
    return String(value);
  }
  return String(value);
}

/** The one-line form, or undefined when the value should not be written on one line. */
function inline(value: HclValue): string | undefined {
  if (Array.isArray(value)) {
    if (value.some(isComposite)) return undefined;
    return `[${value.map((v) => inline(v)!).join(", ")}]`;
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (!entries.length) return "{}";
    if (entries.some(([, v]) => isComposite(v))) return undefined;
    return `{ ${entries.map(([k, v]) => `${objectKey(k)} = ${inline(v)!}`).join(", ")} }`;
  }
  return scalar(value);
}

/**
 * `value` after `lead` (an attribute name and ` = `, or nothing for a list element) at `depth`:
 * its lines, the first one without indentation.
 */
function valueLines(value: HclValue, depth: number, lead: string): string[] {
  const one = inline(value);
  if (one !== undefined && INDENT.length * depth + lead.length + one.length <= WIDTH) return [one];
  const pad = INDENT.repeat(depth);
  if (Array.isArray(value)) {
    const items = value.flatMap((item) => {
      const lines = valueLines(item, depth + 1, "");
      lines[lines.length - 1] += ",";
      return [`${pad}${INDENT}${lines[0]}`, ...lines.slice(1)];
    });
    return ["[", ...items, `${pad}]`];
  }
  if (isObject(value)) {
    const entries = Object.entries(value).map(([key, v]) => ({ key: objectKey(key), lines: valueLines(v, depth + 1, `${objectKey(key)} = `) }));
    return ["{", ...assignments(entries, depth + 1), `${pad}}`];
  }
  return [scalar(value)];
}

/**
 * `key = value` lines at `depth`. Like fmt, a run of one-line assignments has its `=` aligned;
 * an assignment whose value opens a bracket on its line ends the run and is not aligned.
 */
function assignments(entries: { key: string; lines: string[] }[], depth: number): string[] {
  const pad = INDENT.repeat(depth);
  const out: string[] = [];
  for (let i = 0; i < entries.length; ) {
    let j = i;
    while (j < entries.length && entries[j]!.lines.length === 1) j++;
    const width = Math.max(0, ...entries.slice(i, j).map((e) => e.key.length));
    for (const e of entries.slice(i, j)) out.push(`${pad}${e.key.padEnd(width)} = ${e.lines[0]}`);
    if (j < entries.length) {
      const e = entries[j]!;
      out.push(`${pad}${e.key} = ${e.lines[0]}`, ...e.lines.slice(1));
      j++;
    }
    i = j;
  }
  return out;
}

/** A body's lines at `depth`: attributes as they come, a blank line around every nested block. */
function bodyLines(items: BodyItem[], depth: number): string[] {
  const out: string[] = [];
  let run: { key: string; lines: string[] }[] = [];
  const flush = () => {
    out.push(...assignments(run, depth));
    run = [];
  };
  // a comment sits right above what it is about
  let commented = false;
  for (const item of items) {
    if (item.kind === "attribute") {
      if (run.length === 0 && out.length && !commented) out.push("");
      commented = false;
      run.push({ key: item.name, lines: valueLines(item.value, depth, `${item.name} = `) });
      continue;
    }
    flush();
    if (out.length && !commented) out.push("");
    commented = item.kind === "comment";
    out.push(...(item.kind === "comment" ? commentLines(item.text, depth) : blockLines(item, depth)));
  }
  flush();
  return out;
}

/** `# ` lines at `depth`, words wrapped within the width. */
function commentLines(text: string, depth: number): string[] {
  const lead = `${INDENT.repeat(depth)}# `;
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && lead.length + line.length + 1 + word.length > WIDTH) {
      out.push(lead + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  out.push((lead + line).trimEnd());
  return out;
}

function blockLines(item: Extract<BodyItem, { kind: "block" }>, depth: number): string[] {
  const pad = INDENT.repeat(depth);
  const header = [item.type, ...item.labels.map(quoteString)].join(" ");
  if (!item.body.length) return [`${pad}${header} {}`];
  return [`${pad}${header} {`, ...bodyLines(item.body, depth + 1), `${pad}}`];
}

/** A configuration file: top-level blocks (and attributes) with a blank line between blocks. */
export function renderHcl(items: BodyItem[]): string {
  return `${bodyLines(items, 0).join("\n")}\n`;
}
