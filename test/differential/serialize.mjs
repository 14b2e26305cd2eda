// Turns a generated configuration (plain objects) into *.tf.json text. Two escapes let a case say
// what a JavaScript object cannot: a key ending in DUP plus a tag ("name" + DUP + "2") is written
// as "name" (so duplicate keys can be built), and a Raw value is written verbatim (numbers such as
// 1e400, escapes such as "\ud800", or deliberately broken JSON).

export const DUP = "\u0000";

export class Raw {
  /** @param {string} text */
  constructor(text) {
    this.text = text;
  }
}

/** @param {string} text */
export const raw = (text) => new Raw(text);

/** A layout: the indent unit, and from which depth objects and arrays are written on one line. */
export const STYLES = [
  { indent: "  ", inline: 99 },
  { indent: "  ", inline: 3 },
  { indent: "    ", inline: 4 },
  { indent: "\t", inline: 99 },
  { indent: "  ", inline: 2 },
];

/** @param {unknown} value @param {{indent: string, inline: number}} style */
export function serialize(value, style = STYLES[0]) {
  return write(value, style, 0) + "\n";
}

function keyText(key) {
  const cut = key.indexOf(DUP);
  return JSON.stringify(cut >= 0 ? key.slice(0, cut) : key);
}

function write(value, style, depth) {
  if (value instanceof Raw) return value.text;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const compact = depth >= style.inline;
  const pad = style.indent.repeat(depth + 1);
  const end = style.indent.repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((v) => write(v, style, depth + 1));
    return compact ? `[${items.join(", ")}]` : `[\n${items.map((t) => pad + t).join(",\n")}\n${end}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  const items = entries.map(([k, v]) => `${keyText(k)}: ${write(v, style, depth + 1)}`);
  return compact ? `{ ${items.join(", ")} }` : `{\n${items.map((t) => pad + t).join(",\n")}\n${end}}`;
}
