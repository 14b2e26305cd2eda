// String functions that fail on known arguments at validate time, in Terraform's words:
// formatlist with lists of different lengths, replace with an unparsable /regex/, csvdecode of
// rows with a different number of fields than the header.
import { createHash } from "node:crypto";
import { UNKNOWN, badArgument, callFailed, type Known } from "./known.js";
import { cidrnetmaskValue } from "./network-functions.js";

/** formatlist(format, args…): every list argument must have the length of the first one. */
export function formatlist(args: Known[]): void {
  let first: { at: number; length: number } | null = null;
  for (let i = 0; i < args.length; i++) {
    const v = args[i];
    if (!Array.isArray(v)) continue;
    if (first === null) first = { at: i, length: v.length };
    else if (v.length !== first.length) badArgument("args", `argument ${i + 1} has length ${v.length}, which is inconsistent with argument ${first.at + 1} of length ${first.length}`);
  }
}

/**
 * replace(string, "/pattern/", replacement): a pattern that reads the same in RE2 and JavaScript
 * (`portable`) and does not compile is the call's error; any other is left to Terraform.
 */
export function replaceRegex(substring: string, portable: RegExp): void {
  if (substring.length < 2 || !substring.startsWith("/") || !substring.endsWith("/")) return;
  const pattern = substring.slice(1, -1);
  // braces and brackets are read differently by the two engines
  if (!portable.test(pattern) || /[{}[\]]/.test(pattern)) return;
  try {
    new RegExp(pattern, "u");
  } catch {
    callFailed("replace", "error parsing regexp: invalid regular expression");
  }
}

/** csvdecode(text) without quoted fields: each row must have as many fields as the header. */
export function csvdecode(text: string): Known {
  if (text.includes('"')) return UNKNOWN;
  const lines = text.split("\n");
  let fields = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.endsWith("\r") ? lines[i]!.slice(0, -1) : lines[i]!;
    // Go's encoding/csv skips empty lines
    if (line === "") continue;
    const count = line.split(",").length;
    if (fields < 0) fields = count;
    else if (count !== fields) callFailed("csvdecode", `CSV parse error on line ${i + 1}: wrong number of fields`);
  }
  if (fields < 0) callFailed("csvdecode", "missing header line");
  return UNKNOWN;
}

const isAscii = (s: string): boolean => /^[\x20-\x7e]*$/.test(s);

/**
 * The value of a string function on known arguments, where it is plain to compute the way
 * go-cty does (ASCII text, strings where strings are expected, no width or flag in a format
 * verb); UNKNOWN otherwise. Our value rules then see it (a region or CIDR built by a function).
 */
export function stringValue(name: string, values: Known[]): Known {
  const [a, b, c] = values;
  const strings = values.every((v) => typeof v === "string");
  switch (name) {
    case "split":
      return values.length === 2 && strings && a !== "" && b !== "" ? (b as string).split(a as string) : UNKNOWN;
    case "join":
      if (values.length < 2 || typeof a !== "string") return UNKNOWN;
      if (!values.slice(1).every((l) => Array.isArray(l) && l.every((e) => typeof e === "string"))) return UNKNOWN;
      return (values.slice(1) as string[][]).flat().join(a);
    case "replace":
      return values.length === 3 && strings && !(b as string).startsWith("/") && b !== "" ? (a as string).split(b as string).join(c as string) : UNKNOWN;
    case "trimspace":
      return values.length === 1 && typeof a === "string" && isAscii(a) ? a.trim() : UNKNOWN;
    case "trimprefix":
      return values.length === 2 && strings && (a as string).startsWith(b as string) ? (a as string).slice((b as string).length) : values.length === 2 && strings ? a! : UNKNOWN;
    case "trimsuffix":
      return values.length === 2 && strings && (a as string).endsWith(b as string) && b !== "" ? (a as string).slice(0, -(b as string).length) : values.length === 2 && strings ? a! : UNKNOWN;
    case "substr": {
      if (values.length !== 3 || typeof a !== "string" || !isAscii(a) || typeof b !== "number" || typeof c !== "number" || !Number.isInteger(b) || !Number.isInteger(c)) return UNKNOWN;
      const offset = b < 0 ? a.length + b : b;
      if (offset < 0 || offset > a.length || c < -1) return UNKNOWN;
      return c === -1 ? a.slice(offset) : a.slice(offset, offset + c);
    }
    case "coalesce":
      // every argument a string or null: the first that is neither null nor empty
      if (!values.every((v) => v === null || typeof v === "string")) return UNKNOWN;
      return values.find((v) => v !== null && v !== "") ?? UNKNOWN;
    case "format":
      return typeof a === "string" ? plainFormat(a, values.slice(1)) : UNKNOWN;
    case "title":
      // Go's strings.Title over ASCII: a letter after anything but a letter, digit or "_" is upper-cased
      return values.length === 1 && typeof a === "string" && isAscii(a) ? a.replace(/(^|[^A-Za-z0-9_])([a-z])/g, (_, before: string, letter: string) => before + letter.toUpperCase()) : UNKNOWN;
    case "jsonencode":
      return values.length === 1 ? jsonText(a!) : UNKNOWN;
    case "strrev":
      return values.length === 1 && typeof a === "string" && isAscii(a) ? [...a].reverse().join("") : UNKNOWN;
    case "trim":
      return values.length === 2 && strings && isAscii(a as string) && isAscii(b as string) ? trimmed(a as string, b as string) : UNKNOWN;
    case "chomp":
      return values.length === 1 && typeof a === "string" ? a.replace(/(?:\r\n|\r|\n)+$/, "") : UNKNOWN;
    case "base64encode":
      return values.length === 1 && typeof a === "string" ? Buffer.from(a, "utf8").toString("base64") : UNKNOWN;
    case "base64decode": {
      if (values.length !== 1 || typeof a !== "string" || !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(a)) return UNKNOWN;
      const text = Buffer.from(a, "base64").toString("latin1");
      return isAscii(text) ? text : UNKNOWN;
    }
    case "urlencode":
      // Go's url.QueryEscape: letters, digits and -_.~ stay, a space is "+", any other byte %XX
      return values.length === 1 && typeof a === "string" ? [...Buffer.from(a, "utf8")].map((c) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(c)) ? String.fromCharCode(c) : c === 32 ? "+" : `%${c.toString(16).toUpperCase().padStart(2, "0")}`)).join("") : UNKNOWN;
    case "cidrnetmask":
      return values.length === 1 && typeof a === "string" ? cidrnetmaskValue(a) : UNKNOWN;
    case "md5":
    case "sha1":
    case "sha256":
    case "sha512":
      return values.length === 1 && typeof a === "string" ? createHash(name).update(a, "utf8").digest("hex") : UNKNOWN;
  }
  return UNKNOWN;
}

/** trim(str, cutset): every character of the cutset taken off both ends. */
function trimmed(s: string, cutset: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && cutset.includes(s[start]!)) start++;
  while (end > start && cutset.includes(s[end - 1]!)) end--;
  return s.slice(start, end);
}

/**
 * jsonencode's text of a known value, where it is plain to write as cty does: no whitespace,
 * object keys sorted, numbers with every digit (left unknown where JavaScript would write an
 * exponent), strings of printable ASCII without the characters Go escapes for HTML.
 */
function jsonText(v: Known): string | typeof UNKNOWN {
  if (v === UNKNOWN) return UNKNOWN;
  if (v === null || typeof v === "boolean") return String(v);
  if (typeof v === "number") return Number.isFinite(v) && (v === 0 || (Math.abs(v) >= 1e-6 && Math.abs(v) < 1e21)) ? String(v) : UNKNOWN;
  if (typeof v === "string") return isAscii(v) && !/[<>&]/.test(v) ? JSON.stringify(v) : UNKNOWN;
  const parts: string[] = [];
  if (Array.isArray(v)) {
    for (const e of v) {
      const text = jsonText(e);
      if (text === UNKNOWN) return UNKNOWN;
      parts.push(text);
    }
    return `[${parts.join(",")}]`;
  }
  const keys = Object.keys(v);
  if (!keys.every(isAscii)) return UNKNOWN;
  for (const key of keys.sort()) {
    const name = jsonText(key);
    const text = jsonText(v[key]!);
    if (name === UNKNOWN || text === UNKNOWN) return UNKNOWN;
    parts.push(`${name}:${text}`);
  }
  return `{${parts.join(",")}}`;
}

/** format() with %s, %d and %% only, no flags or widths: strings for %s, whole numbers for %d. */
function plainFormat(spec: string, args: Known[]): Known {
  let out = "";
  let next = 0;
  for (let i = 0; i < spec.length; i++) {
    if (spec[i] !== "%") {
      out += spec[i];
      continue;
    }
    const verb = spec[++i];
    if (verb === "%") {
      out += "%";
      continue;
    }
    const arg = args[next++];
    if (verb === "s" && typeof arg === "string") out += arg;
    else if (verb === "d" && typeof arg === "number" && Number.isInteger(arg)) out += String(arg);
    else return UNKNOWN;
  }
  return next === args.length ? out : UNKNOWN;
}

/**
 * A string's length as cty counts it: user-perceived characters (grapheme clusters) of its NFC
 * form, so a flag or a letter with combining marks is one.
 */
export function graphemeCount(s: string): number {
  const nfc = s.normalize("NFC");
  if (/^[\x00-\x7e]*$/.test(nfc)) return nfc.length;
  let n = 0;
  for (const _ of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(nfc)) n++;
  return n;
}

/** Go's single-rune uppercase of the Greek letters with a subscript iota, where JavaScript's full mapping writes two letters. */
function goUpperIotaSubscript(c: number): number | null {
  if ((c >= 0x1f80 && c <= 0x1f87) || (c >= 0x1f90 && c <= 0x1f97) || (c >= 0x1fa0 && c <= 0x1fa7)) return c + 8;
  if (c === 0x1fb3 || c === 0x1fc3 || c === 0x1ff3) return c + 9;
  return null;
}

/**
 * upper() and lower() as cty's (Go's strings.ToUpper/ToLower): each character mapped alone by its
 * simple case mapping, so "ß" stays "ß" (JavaScript writes "SS") and "İ" lowers to "i"; then NFC.
 */
export function caseMapped(s: string, name: "upper" | "lower"): string {
  if (/^[\x00-\x7e]*$/.test(s)) return name === "upper" ? s.toUpperCase() : s.toLowerCase();
  let out = "";
  for (const ch of s) {
    const mapped = name === "upper" ? ch.toUpperCase() : ch.toLowerCase();
    if ([...mapped].length === 1) out += mapped;
    else if (name === "lower") out += String.fromCodePoint(mapped.codePointAt(0)!);
    else {
      const iota = goUpperIotaSubscript(ch.codePointAt(0)!);
      out += iota === null ? ch : String.fromCodePoint(iota);
    }
  }
  return out.normalize("NFC");
}
