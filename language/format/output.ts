// Output formats of `schemaform validate`: a human report with code frames (sensitive values
// masked), a JSON array, and SARIF 2.1.0 for code-scanning tools.
import { sourceOf, terraformReportsAt, type Diagnostic } from "../syntax/diagnostics.js";
import { LineMap } from "../syntax/positions.js";

export interface Source {
  text: string;
  /** [start, end) offsets of values that must never be shown */
  sensitive: [number, number][];
}

export const SENSITIVE_MASK = '"(sensitive)"';
const MAX_FRAME_WIDTH = 120;

export interface HumanOptions {
  color?: boolean;
}

function paint(on: boolean, code: string, s: string): string {
  return on ? `\u001b[${code}m${s}\u001b[0m` : s;
}

export function formatHuman(diagnostics: Diagnostic[], sources: Map<string, Source>, options: HumanOptions = {}): string {
  const color = options.color === true;
  const frames = new Map<string, FrameSource>();
  const blocks: string[] = [];
  for (const d of diagnostics) {
    const severity = d.severity === "error" ? paint(color, "1;31", "error") : paint(color, "1;33", "warning");
    // a check terraform validate does not make says so, and when Terraform would object
    const only = d.source === "schemaform" ? paint(color, "2", ` (schemaform: ${terraformReportsAt(d.code) ?? "Terraform does not report this"})`) : "";
    let out = `${paint(color, "1", `${d.file}:${d.line}:${d.column}`)}: ${severity}: ${d.message}${only}${d.code ? paint(color, "2", ` [${d.code}]`) : ""}\n`;
    const where = d.address ? (d.path ? `${d.address}.${d.path}` : d.address) : d.path;
    if (where) out += `  in ${where}\n`;
    const source = sources.get(d.file);
    if (source) {
      let frame = frames.get(d.file);
      if (!frame) frames.set(d.file, (frame = frameSource(source)));
      out += codeFrame(source, frame, d, color);
    }
    blocks.push(out);
  }
  return blocks.join("\n") + (blocks.length ? "\n" : "") + summary(diagnostics) + "\n";
}

export function summary(diagnostics: Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  const files = new Set(diagnostics.map((d) => d.file)).size;
  if (diagnostics.length === 0) return "No problems found.";
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"}`;
  return `${plural(errors, "error")}, ${plural(warnings, "warning")} in ${plural(files, "file")}.`;
}

/** What the code frames of one file look up: its lines, and its sensitive ranges ordered for search. */
interface FrameSource {
  lines: LineMap;
  masks: Masks;
}

function frameSource(source: Source): FrameSource {
  return { lines: new LineMap(source.text), masks: indexMasks(source.sensitive) };
}

/**
 * Sensitive ranges by start, and the furthest end up to each: the ranges meeting a stretch of text
 * are found by binary search, not by a pass over all of them for each frame.
 */
interface Masks {
  ranges: [number, number][];
  reach: Int32Array;
}

function indexMasks(sensitive: [number, number][]): Masks {
  const ranges = [...sensitive].sort((x, y) => x[0] - y[0]);
  const reach = new Int32Array(ranges.length);
  let furthest = -1;
  ranges.forEach(([, end], i) => (reach[i] = furthest = Math.max(furthest, end)));
  return { ranges, reach };
}

/** Index of the first range (in order of start) that ends after `offset`; ranges.length when none does. */
function firstEndingAfter(masks: Masks, offset: number): number {
  let lo = 0;
  let hi = masks.ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (masks.reach[mid]! > offset) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Index of the last range starting before `offset`; -1 when none does. */
function lastStartingBefore(masks: Masks, offset: number): number {
  let lo = 0;
  let hi = masks.ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (masks.ranges[mid]![0] < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** The ranges overlapping [start, end), in order of their start. */
function masksWithin(masks: Masks, start: number, end: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = firstEndingAfter(masks, start); i < masks.ranges.length && masks.ranges[i]![0] < end; i++) if (masks.ranges[i]![1] > start) out.push(masks.ranges[i]!);
  return out;
}

/**
 * The stretch of a line around `anchor` that shows at least `before` display columns before it
 * and `after` from it on (or reaches the line's ends). A character is one column, a masked value
 * the mask's width however long it is; masks are taken whole.
 */
function stretchAround(masks: Masks, lineStart: number, lineEnd: number, anchor: number, before: number, after: number): [number, number] {
  let end = anchor;
  let columns = 0;
  for (let m = firstEndingAfter(masks, anchor); end < lineEnd && columns < after; ) {
    const mask = masks.ranges[m];
    if (mask !== undefined && mask[0] <= end) {
      if (mask[1] > end) {
        end = Math.min(mask[1], lineEnd);
        columns += SENSITIVE_MASK.length;
      }
      m++;
      continue;
    }
    const step = Math.min((mask === undefined ? lineEnd : Math.min(mask[0], lineEnd)) - end, after - columns);
    end += step;
    columns += step;
  }
  let start = anchor;
  columns = 0;
  for (let m = lastStartingBefore(masks, anchor); start > lineStart && columns < before; ) {
    const mask = masks.ranges[m];
    if (mask !== undefined && mask[1] >= start) {
      if (mask[0] < start) {
        start = Math.max(mask[0], lineStart);
        // a mask holding the anchor was counted after it
        if (mask[1] <= anchor) columns += SENSITIVE_MASK.length;
      }
      m--;
      continue;
    }
    const step = Math.min(start - (mask === undefined ? lineStart : Math.max(mask[1], lineStart)), before - columns);
    start -= step;
    columns += step;
  }
  return [start, end];
}

/** The line of a diagnostic (and the one before), a caret under its range, sensitive values masked. */
function codeFrame(source: Source, { lines, masks }: FrameSource, d: Diagnostic, color: boolean): string {
  const index = d.line - 1;
  if (index < 0 || index >= lines.lineCount) return "";
  const gutter = String(d.line).length;
  let out = "";
  if (index > 0) {
    const prev = renderLine(source, lines, masks, index - 1, -1, -1);
    if (prev.text.trim() !== "") out += `   ${String(d.line - 1).padStart(gutter)} | ${prev.text}\n`;
  }
  const [, lineEnd] = lines.lineRange(index);
  const startOffset = lines.offsetOf(index, d.column);
  const endOffset = d.endLine === d.line && d.endColumn !== undefined ? lines.offsetOf(index, d.endColumn) : lineEnd;
  const line = renderLine(source, lines, masks, index, startOffset, Math.max(endOffset, startOffset + 1));
  out += ` ${paint(color, "1", ">")} ${String(d.line)} | ${line.text}\n`;
  const caretStart = line.caretStart;
  const width = Math.max(1, Math.min(line.caretEnd - caretStart, MAX_FRAME_WIDTH));
  out += `   ${" ".repeat(gutter)} | ${" ".repeat(caretStart)}${paint(color, d.severity === "error" ? "31" : "33", "^".repeat(width))}\n`;
  return out;
}

/** Characters a frame shows before its caret, when the line is longer than the frame. */
const BEFORE_CARET = 40;

/**
 * One source line for display: tabs as spaces, sensitive ranges replaced by the mask, long lines
 * cut to a window around the caret. Returns the caret range in display columns.
 *
 * Only a stretch of the line around the caret is rendered, one that holds the whole window:
 * rendering whole lines made a minified file (one line) with many diagnostics quadratic.
 */
function renderLine(source: Source, lines: LineMap, masks: Masks, index: number, caretFrom: number, caretTo: number): { text: string; caretStart: number; caretEnd: number } {
  const [lineStart, lineEnd] = lines.lineRange(index);
  // the window below starts up to MAX_FRAME_WIDTH columns before the caret (at a line's end)
  const [start, end] = stretchAround(masks, lineStart, lineEnd, caretFrom >= 0 ? caretFrom : lineEnd, BEFORE_CARET + MAX_FRAME_WIDTH, MAX_FRAME_WIDTH + 1);
  const shown = masksWithin(masks, start, end);
  const text = source.text;
  let out = "";
  let caretStart = -1;
  let caretEnd = -1;
  let i = start;
  const mark = () => {
    if (caretStart < 0 && i >= caretFrom && caretFrom >= 0) caretStart = out.length;
    if (caretEnd < 0 && i >= caretTo && caretTo >= 0) caretEnd = out.length;
  };
  let m = 0;
  while (i < end) {
    mark();
    const mask = shown[m];
    if (mask && i >= mask[0]) {
      const stop = Math.min(mask[1], end);
      // the caret may point inside a masked value: keep it on the mask
      if (caretFrom >= i && caretFrom < stop && caretStart < 0) caretStart = out.length;
      out += SENSITIVE_MASK;
      if (caretTo > i && caretTo <= stop && caretEnd < 0) caretEnd = out.length;
      i = stop;
      m++;
      continue;
    }
    const c = text[i]!;
    out += c === "\t" ? " " : c < " " ? " " : c;
    i++;
  }
  mark();
  if (caretStart < 0) caretStart = out.length;
  if (caretEnd < 0) caretEnd = out.length;
  // window for long (e.g. minified) lines; a stretch cut from a longer line always needs one
  const cutBefore = start > lineStart;
  const cutAfter = end < lineEnd;
  if (out.length > MAX_FRAME_WIDTH || cutBefore || cutAfter) {
    const from = Math.max(0, Math.min(caretStart - BEFORE_CARET, out.length - MAX_FRAME_WIDTH));
    const to = Math.min(out.length, from + MAX_FRAME_WIDTH);
    const prefix = from > 0 || cutBefore ? "…" : "";
    const suffix = to < out.length || cutAfter ? "…" : "";
    return {
      text: prefix + out.slice(from, to) + suffix,
      caretStart: caretStart - from + prefix.length,
      caretEnd: Math.min(caretEnd, to) - from + prefix.length,
    };
  }
  return { text: out, caretStart, caretEnd };
}

export function formatJson(diagnostics: Diagnostic[]): string {
  return `${JSON.stringify(
    diagnostics.map((d) => ({
      severity: d.severity,
      message: d.message,
      file: d.file,
      line: d.line,
      column: d.column,
      endLine: d.endLine ?? d.line,
      endColumn: d.endColumn ?? d.column,
      address: d.address,
      path: d.path,
      code: d.code ?? null,
      source: d.source,
    })),
    null,
    2,
  )}\n`;
}

/** A SARIF artifact URI: file:// for an absolute path, else a relative reference (to the working directory). */
function fileUri(name: string): string {
  const path = name.replace(/\\/g, "/");
  const drive = /^[A-Za-z]:\//.exec(path)?.[0] ?? "";
  const encoded = path
    .slice(drive.length)
    .split("/")
    .map((part) => encodeURIComponent(part))
    .join("/");
  if (drive) return `file:///${drive}${encoded}`;
  return path.startsWith("/") ? `file://${encoded}` : encoded;
}

export function formatSarif(diagnostics: Diagnostic[], version = "0.0.0"): string {
  const ruleIds = [...new Set(diagnostics.map((d) => d.code ?? "schemaform"))].sort();
  const sarif = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "schemaform",
            version,
            informationUri: "https://www.npmjs.com/package/schemaform",
            // a rule's tag says whose verdict its results are ("terraform" or "schemaform"), as each result's properties.source does
            rules: ruleIds.map((id) => ({
              id,
              name: id.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase()),
              shortDescription: { text: RULE_TEXT[id] ?? id },
              properties: { tags: [sourceOf(id === "schemaform" ? undefined : id)] },
            })),
          },
        },
        columnKind: "unicodeCodePoints",
        results: diagnostics.map((d) => ({
          ruleId: d.code ?? "schemaform",
          ruleIndex: ruleIds.indexOf(d.code ?? "schemaform"),
          level: d.severity === "error" ? "error" : "warning",
          message: { text: d.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: fileUri(d.file) },
                region: { startLine: d.line, startColumn: d.column, endLine: d.endLine ?? d.line, endColumn: d.endColumn ?? d.column },
              },
              ...(d.address || d.path ? { logicalLocations: [{ fullyQualifiedName: d.address ? (d.path ? `${d.address}.${d.path}` : d.address) : d.path, kind: "resource" }] } : {}),
            },
          ],
          properties: { source: d.source },
        })),
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}

const RULE_TEXT: Record<string, string> = {
  "json-syntax": "The file is not valid JSON.",
  "root-shape": "The root of a Terraform JSON file is an object or an array of objects.",
  "unknown-block-type": "Unknown top-level block type.",
  "block-shape": "A block is not written as an object or an array of objects.",
  "missing-label": "A block's label level holds no label.",
  "condition-reference": "A condition refers to nothing (or a validation not to its variable).",
  "version-constraint": "A version constraint has invalid syntax.",
  "module-source": "A module source address is invalid.",
  "duplicate-argument": "An argument is set more than once in one block.",
  "duplicate-object-attribute": "A key appears more than once in an expression object.",
  "duplicate-block": "A block is declared more than once.",
  "unknown-argument": "No argument or block type has this name.",
  "missing-argument": "A required argument or block is missing.",
  "template-syntax": "A template (${…} or %{…}) does not parse.",
  "reference-only": "This position takes a bare reference, not a template.",
  "value-type": "The value cannot be converted to the attribute's type.",
  count: "Invalid count argument.",
  "for-each": "Invalid for_each argument.",
  "count-and-for-each": "count and for_each are mutually exclusive.",
  import: "Invalid import block.",
  "import-target": "An import block's target is not declared.",
  schema: "The value breaks a rule of the provider schema.",
  deprecated: "A deprecated argument is set.",
  "undeclared-reference": "A reference names a resource that is not declared.",
  "unsupported-attribute": "A reference names an attribute the resource does not have.",
  "instance-key": "A reference has a missing or unexpected instance key.",
  "reference-target": "An id argument references the wrong resource type or attribute.",
  "reference-type": "A reference has a type the argument cannot take.",
  "region-mismatch": "Two related resources are in different regions.",
  "variable-default": "A variable default does not match its type.",
  "variable-type": "Invalid variable type constraint.",
  "invalid-name": "Invalid block label or name.",
  keyword: "Invalid keyword.",
  "too-many-blocks": "A second block of a type that allows only one.",
  "reserved-name": "A reserved name is used.",
  "duplicate-local": "A local value is defined more than once.",
  "invalid-reference": "Invalid reference.",
  "invalid-utf8": "The file holds bytes that are not valid UTF-8.",
};
