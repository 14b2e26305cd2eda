// The test side's own converter from a `.tf.json` file to native HCL text, for the native twins of
// the differential corpus (native-cases.mjs). It is written apart from the product's HCL writer on
// purpose: the twins check the native reader against Terraform, so they must not be produced by the
// code they test. What is a block follows Terraform's language (resource lifecycle, provisioner,
// connection, dynamic/content, variable validation, output and lifecycle conditions, check data and
// assert, terraform's required_providers/backend/cloud/provider_meta) and our providers' schemas as
// `terraform providers schema -json` prints them (only `timeouts`, in three resource types, is a
// nested block); everything else is an attribute. A JSON value that cannot be a block there (a
// string where a block goes) is written as an attribute: Terraform's verdict on the text is what is
// recorded, so an odd conversion is still a fair case.
//
//   nativeFromJson(jsonText, style) → native text, or null when the JSON has no faithful native
//   form (not JSON, a key that cannot be a name, a lone surrogate)
import { readJsonTree } from "./json-tree.mjs";

/** Ways of writing the same configuration (indent unit, line ends, alignment, one-line blocks, bare labels, heredocs). */
export const NATIVE_STYLES = [
  { indent: "  ", eol: "\n", align: true, oneLine: false, bareLabels: false, heredoc: "<<", comments: false },
  { indent: "\t", eol: "\n", align: false, oneLine: true, bareLabels: false, heredoc: "<<-", comments: true },
  { indent: "    ", eol: "\n", align: false, oneLine: false, bareLabels: true, heredoc: "<<", comments: false },
  { indent: "  ", eol: "\r\n", align: true, oneLine: true, bareLabels: false, heredoc: null, comments: true },
  { indent: "  ", eol: "\n", align: false, oneLine: false, bareLabels: false, heredoc: "<<-", comments: true },
];

const UNCONVERTIBLE = Symbol("unconvertible");
const give_up = () => {
  throw UNCONVERTIBLE;
};

/** @param {string} jsonText @param {typeof NATIVE_STYLES[number]} style @returns {string | null} */
export function nativeFromJson(jsonText, style = NATIVE_STYLES[0]) {
  const tree = readJsonTree(jsonText);
  if (tree === null || !isObject(tree)) return null;
  try {
    const lines = [];
    if (style.comments) lines.push("# native form of a generated configuration");
    writeBody(lines, tree, ROOT, "", style, true);
    const text = lines.join("\n") + "\n";
    return style.eol === "\n" ? text : text.replace(/\n/g, style.eol);
  } catch (error) {
    if (error === UNCONVERTIBLE) return null;
    throw error;
  }
}

const isObject = (v) => v !== null && typeof v === "object" && Array.isArray(v.object);
const isBlockValue = (v) => isObject(v) || (Array.isArray(v) && v.every(isObject));
const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

// ---- what is a block where ----

/** nested block types of our providers' resources (terraform providers schema -json) */
const SCHEMA_BLOCKS = { tsdb_vpcs: ["timeouts"], tsdb_service: ["timeouts"], containerbackup_restore_channel: ["timeouts"] };

const spec = (blocks = {}, statics = [], objectStatics = []) => ({ blocks, statics: new Set(statics), objectStatics: new Set(objectStatics) });
const GENERIC = spec();
const CONDITION = spec();
const CONNECTION = spec();
const LIFECYCLE = spec({ precondition: [0, () => CONDITION], postcondition: [0, () => CONDITION] }, ["ignore_changes", "replace_triggered_by"]);
const PROVISIONER = spec({ connection: [0, () => CONNECTION] }, ["when", "on_failure"]);

/** a resource-like block's body: its type's schema blocks, the language's, and dynamic blocks of either */
function resourceSpec(kind, type) {
  const blocks = { lifecycle: [0, () => LIFECYCLE] };
  for (const name of SCHEMA_BLOCKS[type] ?? []) blocks[name] = [0, () => GENERIC];
  if (kind === "resource") {
    blocks.provisioner = [1, () => PROVISIONER];
    blocks.connection = [0, () => CONNECTION];
  }
  const body = spec(blocks, ["depends_on", "provider"]);
  blocks.dynamic = [1, (labels) => dynamicSpec(body, labels[labels.length - 1])];
  return body;
}

function dynamicSpec(parent, target) {
  const inner = parent.blocks[target]?.[1]() ?? GENERIC;
  const content = spec({ ...inner.blocks }, [...inner.statics]);
  content.blocks.dynamic = [1, (labels) => dynamicSpec(content, labels[labels.length - 1])];
  return spec({ content: [0, () => content] }, ["iterator"]);
}

const REQUIRED_PROVIDERS = spec({}, [], ["configuration_aliases"]);
const TERRAFORM = spec({
  required_providers: [0, () => REQUIRED_PROVIDERS],
  backend: [1, () => GENERIC],
  cloud: [0, () => spec({ workspaces: [0, () => GENERIC] })],
  provider_meta: [1, () => GENERIC],
});
const ROOT = spec({
  resource: [2, (labels) => resourceSpec("resource", labels[0])],
  data: [2, (labels) => resourceSpec("data", labels[0])],
  ephemeral: [2, (labels) => resourceSpec("ephemeral", labels[0])],
  provider: [1, () => GENERIC],
  variable: [1, () => spec({ validation: [0, () => CONDITION] }, ["type"])],
  output: [1, () => spec({ precondition: [0, () => CONDITION] }, ["depends_on"])],
  module: [1, () => spec({}, ["providers", "depends_on"])],
  check: [1, () => spec({ data: [2, (labels) => resourceSpec("data", labels[0])], assert: [0, () => CONDITION] })],
  locals: [0, () => GENERIC],
  terraform: [0, () => TERRAFORM],
  moved: [0, () => spec({}, ["from", "to"])],
  import: [0, () => spec({}, ["to", "provider"])],
  removed: [0, () => spec({ lifecycle: [0, () => LIFECYCLE], provisioner: [1, () => PROVISIONER], connection: [0, () => CONNECTION] }, ["from"])],
});

// ---- bodies and blocks ----

function writeBody(lines, obj, bodySpec, ind, style, root = false) {
  const width = style.align ? Math.max(0, ...obj.object.filter(([k, v]) => !(bodySpec.blocks[k] && isBlockValue(v))).map(([k]) => k.length)) : 0;
  obj.object.forEach(([key, value], i) => {
    if (key === "//") {
      // HCL JSON's comment property is a comment in native syntax
      if (typeof value === "string") for (const line of value.split("\n")) lines.push(`${ind}# ${line}`);
      return;
    }
    if (!NAME.test(key)) give_up();
    const block = bodySpec.blocks[key];
    if (block && isBlockValue(value)) {
      if (root && i > 0) lines.push("");
      if (root && style.comments && i % 3 === 1) lines.push(`/* ${key} */`);
      writeBlocks(lines, key, value, block[0], [], block[1], ind, style);
      return;
    }
    const name = key.padEnd(width);
    lines.push(`${ind}${name} = ${expression(value, ind, style, bodySpec.statics.has(key), bodySpec.objectStatics, true)}`);
  });
}

function writeBlocks(lines, type, value, labelsLeft, labels, specOf, ind, style) {
  if (Array.isArray(value)) {
    for (const item of value) writeBlocks(lines, type, item, labelsLeft, labels, specOf, ind, style);
    return;
  }
  if (!isObject(value)) give_up();
  if (labelsLeft > 0) {
    for (const [label, inner] of value.object) writeBlocks(lines, type, inner, labelsLeft - 1, [...labels, label], specOf, ind, style);
    return;
  }
  const header = [type, ...labels.map((l) => (style.bareLabels && NAME.test(l) ? l : labelText(l)))].join(" ");
  const body = [];
  writeBody(body, value, specOf(labels), ind + style.indent, style);
  if (body.length === 0) lines.push(`${ind}${header} {}`);
  else if (style.oneLine && body.length === 1 && value.object.length === 1 && !body[0].trimStart().startsWith("#") && !body[0].includes("\n")) {
    lines.push(`${ind}${header} { ${body[0].trim()} }`);
  } else lines.push(`${ind}${header} {`, ...body, `${ind}}`);
}

/** A quoted label: a label is never a template, so "${" is escaped as "$${". */
function labelText(label) {
  return `"${escapeLiteral(label).replace(/([$%])\{/g, "$1$1{")}"`;
}

// ---- expressions ----

const KEYWORDS = new Set(["for", "in", "if", "true", "false", "null", "endfor", "endif", "else"]);
const TRAVERSAL = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z0-9_][A-Za-z0-9_-]*|\[[^\]\n]*\])*$/;

function expression(v, ind, style, statics, objectStatics, top) {
  if (v === null || v === true || v === false) return String(v);
  if (typeof v === "object" && "number" in v) return v.number;
  if (typeof v === "string") {
    if (statics) {
      const bare = singleInterpolation(v) ?? v;
      if (TRAVERSAL.test(bare) || (/^[a-z(]/.test(bare) && !bare.includes("\n") && /[()]/.test(bare))) return bare;
      return stringText(v);
    }
    const bare = singleInterpolation(v);
    if (bare !== null) return bare;
    if (top && style.heredoc && v.endsWith("\n") && v.length > 1 && !v.includes("\r") && !/^EOT$/m.test(v)) return heredoc(v, ind, style);
    return stringText(v);
  }
  const inner = ind + style.indent;
  if (Array.isArray(v)) {
    const items = v.map((x) => expression(x, inner, style, statics, objectStatics, false));
    const flat = `[${items.join(", ")}]`;
    if (flat.length <= 70 && !flat.includes("\n")) return flat;
    return `[\n${items.map((t) => `${inner}${t},`).join("\n")}\n${ind}]`;
  }
  if (isObject(v)) {
    const items = v.object.map(([k, x]) => `${keyText(k)} = ${expression(x, inner, style, statics || objectStatics.has(k), objectStatics, false)}`);
    const flat = items.length === 0 ? "{}" : `{ ${items.join(", ")} }`;
    if (flat.length <= 70 && !flat.includes("\n")) return flat;
    return `{\n${items.map((t) => `${inner}${t}`).join("\n")}\n${ind}}`;
  }
  give_up();
}

function keyText(key) {
  return NAME.test(key) && !KEYWORDS.has(key) ? key : stringText(key);
}

/** The expression of a string that is one interpolation and nothing else ("${x}" → x), or null. */
function singleInterpolation(s) {
  const parts = templateParts(s);
  if (parts === null || parts.length !== 1 || parts[0].code === undefined || !parts[0].code.startsWith("${")) return null;
  const code = parts[0].code;
  if (code.startsWith("${~") || code.endsWith("~}")) return null;
  const inner = code.slice(2, -1).trim();
  if (inner === "" || inner.includes("\n") || inner.startsWith("<<") || inner.includes("#") || inner.includes("//") || inner.includes("/*")) return null;
  return inner;
}

/** A quoted template: literal text escaped, interpolations and directives as written. */
function stringText(s) {
  const parts = templateParts(s) ?? [{ text: s }];
  return `"${parts.map((p) => (p.code !== undefined ? p.code : escapeLiteral(p.text))).join("")}"`;
}

function heredoc(s, ind, style) {
  if (style.heredoc === "<<-") {
    const lines = s.slice(0, -1).split("\n");
    // the indented form strips the common indentation: only exact when some line has none
    if (lines.some((l) => l !== "" && !/^[ \t]/.test(l))) return `<<-EOT\n${lines.map((l) => (l === "" ? "" : ind + style.indent + l)).join("\n")}\n${ind}EOT`;
  }
  return `<<EOT\n${s}EOT`;
}

function escapeLiteral(text) {
  let out = "";
  for (const ch of text) {
    const c = ch.codePointAt(0);
    if (ch === "\\") out += "\\\\";
    else if (ch === '"') out += '\\"';
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || c === 0x7f) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return out;
}

/**
 * A template's pieces: literal text ({ text }) and interpolations or directives ({ code }, from
 * "${" or "%{" to its closing brace). null when a sequence is not closed.
 */
function templateParts(s) {
  const parts = [];
  let text = "";
  let i = 0;
  while (i < s.length) {
    if ((s[i] === "$" || s[i] === "%") && s[i + 1] === s[i] && s[i + 2] === "{") {
      text += s.slice(i, i + 3);
      i += 3;
      continue;
    }
    if ((s[i] === "$" || s[i] === "%") && s[i + 1] === "{") {
      const end = sequenceEnd(s, i + 2);
      if (end < 0) return null;
      if (text) parts.push({ text });
      text = "";
      parts.push({ code: s.slice(i, end + 1) });
      i = end + 1;
      continue;
    }
    text += s[i];
    i++;
  }
  if (text || parts.length === 0) parts.push({ text });
  return parts;
}

/** The index of the "}" closing an interpolation whose code starts at `i`, or -1. */
function sequenceEnd(s, i) {
  let depth = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '"') {
      i = quotedEnd(s, i + 1);
      if (i < 0) return -1;
      continue;
    }
    if (c === "{") depth++;
    else if (c === "}") {
      if (depth === 0) return i;
      depth--;
    }
    i++;
  }
  return -1;
}

/** The index after the quote closing a quoted string inside an interpolation (its own interpolations skipped), or -1. */
function quotedEnd(s, i) {
  while (i < s.length) {
    if (s[i] === "\\") i += 2;
    else if (s[i] === '"') return i + 1;
    else if ((s[i] === "$" || s[i] === "%") && s[i + 1] === "{") {
      const end = sequenceEnd(s, i + 2);
      if (end < 0) return -1;
      i = end + 1;
    } else i++;
  }
  return -1;
}
