// A strict JSON reader for the native twins (native-writer.mjs): it keeps what JSON.parse loses.
// An object is { object: [[key, value], ...] } in source order with duplicate keys kept, a number
// is { number: "its text" } (1e400 stays 1e400), strings, booleans and null are themselves, an
// array is an array. Anything outside JSON's grammar (and a lone surrogate, which a UTF-8 file
// cannot hold) returns null: such a case has no faithful native form and gets no twin.

/** @param {string} text @returns {unknown | null} */
export function readJsonTree(text) {
  const reader = { text, at: 0 };
  try {
    space(reader);
    const value = readValue(reader, 0);
    space(reader);
    return reader.at === text.length ? value : null;
  } catch (error) {
    if (error === NOT_JSON) return null;
    throw error;
  }
}

const NOT_JSON = Symbol("not JSON");

function fail() {
  throw NOT_JSON;
}

function space(r) {
  while (r.at < r.text.length && " \t\r\n".includes(r.text[r.at])) r.at++;
}

function readValue(r, depth) {
  if (depth > 200) fail();
  const c = r.text[r.at];
  if (c === "{") return readObject(r, depth);
  if (c === "[") return readArray(r, depth);
  if (c === '"') return readString(r);
  for (const [word, value] of [["true", true], ["false", false], ["null", null]]) {
    if (r.text.startsWith(word, r.at)) {
      r.at += word.length;
      return value;
    }
  }
  const number = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(r.text.slice(r.at, r.at + 400));
  if (!number) fail();
  r.at += number[0].length;
  return { number: number[0] };
}

function readObject(r, depth) {
  r.at++;
  const entries = [];
  space(r);
  if (r.text[r.at] === "}") {
    r.at++;
    return { object: entries };
  }
  for (;;) {
    space(r);
    if (r.text[r.at] !== '"') fail();
    const key = readString(r);
    space(r);
    if (r.text[r.at] !== ":") fail();
    r.at++;
    space(r);
    entries.push([key, readValue(r, depth + 1)]);
    space(r);
    if (r.text[r.at] === ",") {
      r.at++;
      continue;
    }
    if (r.text[r.at] === "}") {
      r.at++;
      return { object: entries };
    }
    fail();
  }
}

function readArray(r, depth) {
  r.at++;
  const items = [];
  space(r);
  if (r.text[r.at] === "]") {
    r.at++;
    return items;
  }
  for (;;) {
    space(r);
    items.push(readValue(r, depth + 1));
    space(r);
    if (r.text[r.at] === ",") {
      r.at++;
      continue;
    }
    if (r.text[r.at] === "]") {
      r.at++;
      return items;
    }
    fail();
  }
}

const ESCAPES = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

function readString(r) {
  let out = "";
  r.at++;
  for (;;) {
    if (r.at >= r.text.length) fail();
    const c = r.text[r.at];
    if (c === '"') {
      r.at++;
      break;
    }
    if (c.charCodeAt(0) < 0x20) fail();
    if (c !== "\\") {
      out += c;
      r.at++;
      continue;
    }
    const e = r.text[r.at + 1];
    if (e === "u") {
      const hex = r.text.slice(r.at + 2, r.at + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail();
      out += String.fromCharCode(parseInt(hex, 16));
      r.at += 6;
    } else if (e !== undefined && e in ESCAPES) {
      out += ESCAPES[e];
      r.at += 2;
    } else fail();
  }
  // a lone surrogate has no UTF-8 form
  if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(out)) fail();
  return out;
}
