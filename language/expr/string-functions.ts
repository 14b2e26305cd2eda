// String functions that fail on known arguments at validate time, in Terraform's words:
// formatlist with lists of different lengths, replace with an unparsable /regex/, csvdecode of
// rows with a different number of fields than the header.
import { UNKNOWN, badArgument, callFailed, type Known } from "./known.js";

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
  return UNKNOWN;
}
