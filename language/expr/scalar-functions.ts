// Scalar functions that fail on known arguments at validate time, in Terraform's words: parseint's
// digits, uuidv5's namespace, formatdate's quoted literals, cidrnetmask's prefix, the text
// encodings' names and bytes (text-encodings.ts), yamldecode's text (yaml-problems.ts), log's
// and indent's numbers, regex's brackets, rsadecrypt's inputs. Unknown arguments pass.
import { badArgument, callFailed, type Known } from "./known.js";
import { cidrnetmask } from "./network-functions.js";
import { isBase64, textdecodebase64, textencodebase64 } from "./text-encodings.js";
import { yamlProblem } from "./yaml-problems.js";

/** The error of a call of one of these functions on its known arguments, thrown; else nothing. */
export function scalarCallProblem(name: string, values: Known[]): void {
  const [a, b] = values;
  switch (name) {
    case "parseint":
      if (values.length === 2 && typeof a === "string" && typeof b === "number" && Number.isInteger(b) && b >= 2 && b <= 62 && !integerIn(a, b)) {
        badArgument("number", `cannot parse ${JSON.stringify(a)} as a base ${b} integer`);
      }
      return;
    case "uuidv5":
      if (values.length === 2 && typeof a === "string" && !NAMED_NAMESPACES.has(a)) {
        const why = uuidError(a);
        if (why) callFailed(name, `uuidv5() doesn't support namespace ${a} (${why})`);
      }
      return;
    case "formatdate":
      if (values.length === 2 && typeof a === "string" && unterminatedLiteral(a)) badArgument("format", "unterminated literal '");
      return;
    case "cidrnetmask":
      if (values.length === 1 && typeof a === "string") cidrnetmask(a);
      return;
    case "log":
      // a logarithm that is not a number makes go-cty panic
      if (values.length === 2 && typeof a === "number" && typeof b === "number" && Number.isNaN(Math.log(a) / Math.log(b))) callFailed(name, "panic in function implementation: Float.SetFloat64(NaN)");
      return;
    case "indent":
      if (values.length === 2 && typeof a === "number" && typeof b === "string") {
        if (!Number.isInteger(a)) callFailed(name, "value must be a whole number, between -9223372036854775808 and 9223372036854775807");
        if (a < 0) callFailed(name, "panic in function implementation: strings: negative Repeat count");
      }
      return;
    case "regex":
    case "regexall":
      if (values.length === 2 && typeof a === "string") {
        const problem = bracketProblem(a);
        if (problem !== null) badArgument("pattern", `invalid regexp pattern: ${problem}`);
      }
      return;
    case "rsadecrypt":
      if (values.length === 2 && typeof a === "string" && typeof b === "string") {
        if (!isBase64(a)) badArgument("ciphertext", `failed to decode input ${JSON.stringify(a)}: cipher text must be base64-encoded`);
        if (!/-----BEGIN [^\n]*-----/.test(b)) badArgument("privatekey", "invalid private key: ssh: no key found");
      }
      return;
    case "yamldecode":
      if (values.length === 1 && typeof a === "string") {
        const why = yamlProblem(a);
        if (why !== null) callFailed(name, why);
      }
      return;
    case "textencodebase64":
      if (values.length === 2 && typeof a === "string" && typeof b === "string") textencodebase64(a, b);
      return;
    case "textdecodebase64":
      if (values.length === 2 && typeof a === "string" && typeof b === "string") textdecodebase64(a, b);
      return;
  }
}

/** Whether Go's big.Int SetString(text, base) reads `text`: a sign, then digits of the base (letters a-z, and A-Z above 36). */
function integerIn(text: string, base: number): boolean {
  const digits = text.startsWith("-") || text.startsWith("+") ? text.slice(1) : text;
  if (digits === "") return false;
  for (const ch of digits) {
    const c = ch.charCodeAt(0);
    let value: number;
    if (c >= 48 && c <= 57) value = c - 48;
    else if (c >= 97 && c <= 122) value = c - 87;
    else if (c >= 65 && c <= 90) value = base <= 36 ? c - 55 : c - 29;
    else return false;
    if (value >= base) return false;
  }
  return true;
}

const NAMED_NAMESPACES = new Set(["dns", "url", "oid", "x500"]);

/** Why google/uuid's Parse refuses `text` (the namespace of uuidv5), or null when it reads it (or when unsure). */
function uuidError(text: string): string | null {
  const length = Buffer.byteLength(text);
  if (![32, 36, 38, 45].includes(length)) return `invalid UUID length: ${length}`;
  if (length === 36 && !/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(text)) return "invalid UUID format";
  if (length === 32 && !/^[0-9a-fA-F]{32}$/.test(text)) return "invalid UUID format";
  return null;
}

/** A formatdate format with a quote that opens a literal and never closes it ('' is a literal quote). */
function unterminatedLiteral(format: string): boolean {
  for (let i = 0; i < format.length; i++) {
    if (format[i] !== "'") continue;
    const close = format.indexOf("'", i + 1);
    if (close < 0) return true;
    i = close;
  }
  return false;
}

/**
 * RE2's refusal of a pattern's brackets ("missing closing ]" with the class's text, "missing
 * closing )" or "unexpected )" with the whole pattern), as "CODE in TEXT"; null when they balance
 * or the pattern has what this does not follow ("(?" groups, POSIX classes).
 */
function bracketProblem(pattern: string): string | null {
  if (pattern.includes("(?") || pattern.includes("[:")) return null;
  let open = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (c === "[") {
      // a "]" first in the class (after "^") is one of its characters
      let j = i + 1;
      if (pattern[j] === "^") j++;
      if (pattern[j] === "]") j++;
      while (j < pattern.length && pattern[j] !== "]") j += pattern[j] === "\\" ? 2 : 1;
      if (j >= pattern.length) return `missing closing ] in ${pattern.slice(i)}`;
      i = j;
    } else if (c === "(") open++;
    else if (c === ")" && --open < 0) return `unexpected ) in ${pattern}`;
  }
  return open > 0 ? `missing closing ) in ${pattern}` : null;
}
