// Arguments Terraform evaluates without any variables or functions (a variable's default and
// description, an output's description): in a native file an expression there that calls a function
// or names a variable is refused while the configuration loads ("Function calls not allowed",
// "Variables not allowed"). The JSON syntax has no such case: its strings there are literal text.
//
// HCL evaluates the expression and stops at a call without evaluating its arguments, so a reference
// inside a call's arguments is not reported; every other call and reference is, in source order.
import { quoteEnd } from "../../expr/lexer.js";
import type { NativeAttribute, NativeSyntaxProblem } from "./parser.js";

export function nonConstantProblems(text: string, attr: NativeAttribute): NativeSyntaxProblem[] {
  const calls = callRanges(text, attr.exprRange.start, attr.exprRange.end);
  const problems: NativeSyntaxProblem[] = calls.map(([start, end]) => ({ summary: "Function calls not allowed", detail: "Functions may not be called here.", range: { start, end } }));
  for (const ref of attr.refs) {
    if (calls.some(([start, end]) => ref.start >= start && ref.start < end)) continue;
    problems.push({ summary: "Variables not allowed", detail: "Variables may not be used here.", range: { start: ref.start, end: ref.start + ref.root.length } });
  }
  return problems.sort((a, b) => a.range.start - b.range.start);
}

/** The outermost function calls in the expression at [from, to): a name, maybe `::`-qualified, then "(" to its ")". */
function callRanges(text: string, from: number, to: number): [number, number][] {
  const out: [number, number][] = [];
  // a heredoc's text is not code: only its references count
  if (text.startsWith("<<", from)) return out;
  let i = from;
  // literal text of quoted strings is skipped; their interpolations are code
  let inString = 0;
  const interpolations: number[] = [];
  while (i < to) {
    const c = text.charCodeAt(i);
    if (inString > 0 && interpolations.length < inString) {
      if (c === 92) i += 2;
      else if (c === 34) {
        inString--;
        i++;
      } else if ((c === 36 || c === 37) && text.charCodeAt(i + 1) === 123) {
        interpolations.push(0);
        i += 2;
      } else i++;
      continue;
    }
    if (c === 34) {
      inString++;
      i++;
    } else if (c === 123 && interpolations.length > 0) {
      interpolations[interpolations.length - 1]!++;
      i++;
    } else if (c === 125 && interpolations.length > 0) {
      const depth = interpolations[interpolations.length - 1]!;
      if (depth === 0) interpolations.pop();
      else interpolations[interpolations.length - 1] = depth - 1;
      i++;
    } else if (isNameStart(c)) {
      let end = i + 1;
      while (end < to && (isNamePart(text.charCodeAt(end)) || (text.startsWith("::", end) && isNameStart(text.charCodeAt(end + 2))))) end += text.startsWith("::", end) ? 2 : 1;
      let open = end;
      while (text.charCodeAt(open) === 32 || text.charCodeAt(open) === 9) open++;
      if (text.charCodeAt(open) === 40 && text.charCodeAt(i - 1) !== 46) {
        const close = closingParen(text, open, to);
        out.push([i, close]);
        i = close;
      } else i = end;
    } else i++;
  }
  return out;
}

/** After the ")" that closes the "(" at `open` (quoted strings skipped), or `to`. */
function closingParen(text: string, open: number, to: number): number {
  let depth = 0;
  for (let i = open; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const end = quoteEnd(text, i + 1, to);
      if (end < 0) return to;
      i = end;
    } else if (c === 40) depth++;
    else if (c === 41 && --depth === 0) return i + 1;
  }
  return to;
}

function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isNamePart(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57) || c === 45;
}
