// The text of JSON strings and numbers as values: a string body's escapes decoded, a number's
// text as a JavaScript number. The parser (json-parser.ts) has checked both already.

/** Decodes the JSON string body text[from, to) (already checked by the parser). */
export function decodeString(text: string, from: number, to: number): string {
  let out = "";
  let chunk = from;
  let i = from;
  while (i < to) {
    if (text.charCodeAt(i) !== 92) {
      i++;
      continue;
    }
    out += text.slice(chunk, i);
    const e = text.charCodeAt(i + 1);
    switch (e) {
      case 110: out += "\n"; break;
      case 116: out += "\t"; break;
      case 114: out += "\r"; break;
      case 98: out += "\b"; break;
      case 102: out += "\f"; break;
      case 117:
        out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
        i += 4;
        break;
      default:
        out += String.fromCharCode(e); // " \ /
    }
    i += 2;
    chunk = i;
  }
  return out + text.slice(chunk, to);
}

/** The JavaScript number for the JSON number text[from, to). Small integers avoid a string. */
export function numberAt(text: string, from: number, to: number): number {
  let i = from;
  let neg = false;
  if (text.charCodeAt(i) === 45) {
    neg = true;
    i++;
  }
  if (to - i <= 15) {
    let v = 0;
    for (; i < to; i++) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) return Number(text.slice(from, to));
      v = v * 10 + (c - 48);
    }
    return neg ? -v : v;
  }
  return Number(text.slice(from, to));
}

/** Assigns a property whose name is user data, without ever touching a prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * Where the character at `decoded` of a string's decoded value stands in the raw text, the
 * string's body starting at `body`: each escape is one character of the value (`\uXXXX` one
 * UTF-16 unit) written with several.
 */
export function rawOffset(text: string, body: number, decoded: number): number {
  let i = body;
  for (let d = 0; d < decoded; d++) i += text.charCodeAt(i) !== 92 ? 1 : text.charCodeAt(i + 1) === 117 ? 6 : 2;
  return i;
}
