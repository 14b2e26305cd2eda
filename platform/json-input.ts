// JSON the platform server accepts from clients (request bodies and JSON query parameters), and
// what it refuses before any of it reaches the domain core:
//
// - a body that is not a JSON object (the core would take `42` for "no settings" and `null` for a
//   crash);
// - nesting deeper than MAX_JSON_DEPTH: the validators and the core walk values recursively, so a
//   deep enough value would overflow the stack. The depth is measured on the raw text, before
//   JSON.parse, with a scan that cannot itself overflow;
// - the keys `__proto__`, `constructor` and `prototype`, anywhere: copying such a key into a plain
//   object (a spread, a patch) changes that object's prototype instead of adding an attribute. No
//   schema attribute has one of these names; a map of the user's own (labels) cannot use them.

import type { IncomingMessage } from "node:http";

/** The deepest nesting of objects and arrays accepted; the schemas' deepest body is under 10. */
export const MAX_JSON_DEPTH = 64;
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** A request refused for what its body or a JSON parameter holds; `status` is the HTTP answer. */
export class InputRejected extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * The greatest nesting depth of the JSON text, or `limit + 1` as soon as it goes beyond `limit`
 * (the rest is not read). Brackets inside strings do not count; malformed text is left for
 * JSON.parse to reject.
 */
export function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // jump to the closing quote: one not preceded by an odd number of backslashes
      for (;;) {
        const close = text.indexOf('"', i + 1);
        if (close < 0) return deepest;
        let backslashes = 0;
        while (text.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes++;
        i = close;
        if (backslashes % 2 === 0) break;
      }
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    }
  }
  return deepest;
}

/** Where a forbidden key sits (`labels.__proto__`), or undefined. The value is at most MAX_JSON_DEPTH deep. */
export function findForbiddenKey(value: unknown): string | undefined {
  const pending: Array<[unknown, string]> = [[value, ""]];
  while (pending.length > 0) {
    const [current, at] = pending.pop()!;
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) {
        const item: unknown = current[i];
        if (item !== null && typeof item === "object") pending.push([item, `${at}[${i}]`]);
      }
    } else if (current !== null && typeof current === "object") {
      for (const key of Object.keys(current)) {
        if (FORBIDDEN_KEYS.has(key)) return at ? `${at}.${key}` : key;
        const item = (current as Record<string, unknown>)[key];
        if (item !== null && typeof item === "object") pending.push([item, at ? `${at}.${key}` : key]);
      }
    }
  }
  return undefined;
}

/** Parses JSON from a client; `what` names it in messages ("the request body", "query parameter view"). */
export function parseJsonInput(text: string, what: string): unknown {
  if (nestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw new InputRejected(400, `${what} is nested more than ${MAX_JSON_DEPTH} levels deep (objects and arrays); the platform accepts at most ${MAX_JSON_DEPTH}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InputRejected(400, `${what} is not valid JSON`);
  }
  const key = findForbiddenKey(value);
  if (key !== undefined) {
    const name = key.slice(key.lastIndexOf(".") + 1);
    throw new InputRejected(400, `${what} uses the key "${name}" (at ${key}), which the platform never accepts: ${[...FORBIDDEN_KEYS].map((k) => `"${k}"`).join(", ")} cannot be attribute names or map keys`);
  }
  return value;
}

/**
 * Reads a request's body, which must be a JSON object (Content-Type: application/json) of at most
 * `maxBytes` bytes. The size is checked while reading, so an oversized body is never buffered.
 */
export async function readJsonObject(req: IncomingMessage, maxBytes: number = DEFAULT_MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new InputRejected(413, `the request body is larger than ${maxBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  if (size === 0) throw new InputRejected(400, "the request body is empty; send a JSON object");
  const type = req.headers["content-type"] ?? "";
  if (!/^application\/json\b/i.test(type)) throw new InputRejected(415, "the request body must be JSON (Content-Type: application/json)");
  const value = parseJsonInput(Buffer.concat(chunks).toString("utf8"), "the request body");
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InputRejected(400, `the request body must be a JSON object, not ${value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`}`);
  }
  return value as Record<string, unknown>;
}
