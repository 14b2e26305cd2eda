// How HCL's JSON parser recovers from a syntax error inside an object or array: the tokens it
// skips, and so where Terraform reports the error (json-parser.ts). Offsets into the text.

/** Where the next token starts at or after `from` (JSON whitespace skipped), or the end of the file. */
export function nextToken(src: string, from: number): number {
  const len = src.length;
  let i = from;
  for (; i < len; i++) {
    const c = src.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
  }
  return i;
}

/**
 * After a syntax error inside an object or array, HCL skips tokens from the offending one (at
 * `from`) to recover: it counts the `open` and `close` characters (braces for an object, brackets
 * for an array) and stops after the first close that brings the count back to one, or at the end
 * of the file. Terraform reports the error at the token after that. Only runs on a failing parse.
 */
export function afterRecovery(src: string, from: number, open: number, close: number): number {
  const len = src.length;
  let count = 1;
  let i = from;
  while (i < len) {
    const c = src.charCodeAt(i);
    if (c === 34) {
      // a string token: braces and brackets inside it do not count
      i++;
      while (i < len) {
        const d = src.charCodeAt(i);
        if (d === 92) i += 2;
        else if (d === 34) {
          i++;
          break;
        } else i++;
      }
      continue;
    }
    i++;
    if (c === open) count++;
    else if (c === close && --count <= 1) return nextToken(src, i);
  }
  return len;
}
