// HCL's recovery after a syntax error in a body item (its parser's recoverAfterBodyItem): the
// rest of the item is skipped, up to the newline that is outside brackets, quoted strings and
// heredocs, so that reading can go on with what follows.
import { quoteEnd } from "../../expr/lexer.js";

/** Where the item that goes on at `from` ends: after its newline outside brackets, quotes and heredocs (or the end of the text). */
export function skipItem(text: string, from: number): number {
  const open: number[] = [];
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const d = text.charCodeAt(i + 1);
    if (c === 10 || (c === 13 && d === 10)) {
      const after = c === 13 ? i + 2 : i + 1;
      if (open.length === 0) return after;
      i = after;
    } else if (c === 35 || (c === 47 && d === 47)) {
      const eol = text.indexOf("\n", i);
      if (eol < 0) return text.length;
      i = text.charCodeAt(eol - 1) === 13 ? eol - 1 : eol;
    } else if (c === 47 && d === 42) {
      const close = text.indexOf("*/", i + 2);
      if (close < 0) return text.length;
      i = close + 2;
    } else if (c === 34) {
      const end = quoteEnd(text, i + 1, text.length);
      if (end === -1) return text.length;
      // a string cut by a newline ends there
      i = end >= 0 ? end + 1 : -2 - end;
    } else if (c === 60 && d === 60) {
      i = heredocEnd(text, i);
    } else {
      if (c === 123 || c === 91 || c === 40) open.push(c);
      else if (c === 125 || c === 93 || c === 41) {
        const opener = c === 125 ? 123 : c === 93 ? 91 : 40;
        while (open.length > 0 && open[open.length - 1] !== opener) open.pop();
        open.pop();
      }
      i++;
    }
  }
  return text.length;
}

/** After a heredoc that starts at `at` (its end marker's line, before the newline); after "<<" when it is none. */
function heredocEnd(text: string, at: number): number {
  const header = /^<<-?([A-Za-z_][A-Za-z0-9_-]*)\r?\n/.exec(text.slice(at, at + 200));
  if (header === null) return at + 2;
  let line = at + header[0].length;
  while (line < text.length) {
    const eol = text.indexOf("\n", line);
    const end = eol < 0 ? text.length : text.charCodeAt(eol - 1) === 13 ? eol - 1 : eol;
    if (text.slice(line, end).trim() === header[1]) return end;
    if (eol < 0) break;
    line = eol + 1;
  }
  return text.length;
}

