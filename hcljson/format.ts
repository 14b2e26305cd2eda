// Output formats of `schemaform validate`: a human report with code frames (sensitive values
// masked), a JSON array, and SARIF 2.1.0 for code-scanning tools.
import type { Diagnostic } from "./diagnostics.js";
import { LineMap } from "./positions.js";

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
  const lineMaps = new Map<string, LineMap>();
  const blocks: string[] = [];
  for (const d of diagnostics) {
    const severity = d.severity === "error" ? paint(color, "1;31", "error") : paint(color, "1;33", "warning");
    let out = `${paint(color, "1", `${d.file}:${d.line}:${d.column}`)}: ${severity}: ${d.message}${d.code ? paint(color, "2", ` [${d.code}]`) : ""}\n`;
    const where = d.address ? (d.path ? `${d.address}.${d.path}` : d.address) : d.path;
    if (where) out += `  in ${where}\n`;
    const source = sources.get(d.file);
    if (source) {
      let lines = lineMaps.get(d.file);
      if (!lines) lineMaps.set(d.file, (lines = new LineMap(source.text)));
      out += codeFrame(source, lines, d, color);
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

/** The line of a diagnostic (and the one before), a caret under its range, sensitive values masked. */
export function codeFrame(source: Source, lines: LineMap, d: Diagnostic, color = false): string {
  const index = d.line - 1;
  if (index < 0 || index >= lines.lineCount) return "";
  const gutter = String(d.line).length;
  let out = "";
  if (index > 0) {
    const prev = renderLine(source, lines, index - 1, -1, -1);
    if (prev.text.trim() !== "") out += `   ${String(d.line - 1).padStart(gutter)} | ${prev.text}\n`;
  }
  const [lineStart, lineEnd] = lines.lineRange(index);
  const startOffset = offsetOfColumn(source.text, lineStart, lineEnd, d.column);
  const endOffset = d.endLine === d.line && d.endColumn !== undefined ? offsetOfColumn(source.text, lineStart, lineEnd, d.endColumn) : lineEnd;
  const line = renderLine(source, lines, index, startOffset, Math.max(endOffset, startOffset + 1));
  out += ` ${paint(color, "1", ">")} ${String(d.line)} | ${line.text}\n`;
  const caretStart = line.caretStart;
  const width = Math.max(1, Math.min(line.caretEnd - caretStart, MAX_FRAME_WIDTH));
  out += `   ${" ".repeat(gutter)} | ${" ".repeat(caretStart)}${paint(color, d.severity === "error" ? "31" : "33", "^".repeat(width))}\n`;
  return out;
}

function offsetOfColumn(text: string, lineStart: number, lineEnd: number, column: number): number {
  let col = 1;
  let i = lineStart;
  while (i < lineEnd && col < column) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
    col++;
  }
  return i;
}

/**
 * One source line for display: tabs as spaces, sensitive ranges replaced by the mask, long lines
 * cut to a window around the caret. Returns the caret range in display columns.
 */
function renderLine(source: Source, lines: LineMap, index: number, caretFrom: number, caretTo: number): { text: string; caretStart: number; caretEnd: number } {
  const [start, end] = lines.lineRange(index);
  const text = source.text;
  const masks = source.sensitive.filter(([a, b]) => a < end && b > start).sort((x, y) => x[0] - y[0]);
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
    const mask = masks[m];
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
  // window for long (e.g. minified) lines
  if (out.length > MAX_FRAME_WIDTH) {
    const from = Math.max(0, Math.min(caretStart - 40, out.length - MAX_FRAME_WIDTH));
    const to = Math.min(out.length, from + MAX_FRAME_WIDTH);
    const prefix = from > 0 ? "…" : "";
    const suffix = to < out.length ? "…" : "";
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
            rules: ruleIds.map((id) => ({ id, name: id.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase()), shortDescription: { text: RULE_TEXT[id] ?? id } })),
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
};
