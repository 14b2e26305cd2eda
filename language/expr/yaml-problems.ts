// yamldecode's refusals that can be told for sure without a YAML parser, in Terraform 1.11's words
// (its YAML library's messages and positions, checked against terraform validate): a text with no
// document, a second document, a flow collection or quoted string never closed, an unknown escape,
// a character that cannot start a token, and a second "key: value" on the same line. Anything this
// reader does not follow (anchors, aliases, tags, directives, block scalars, hexadecimal escapes) is
// left alone: the call is then not judged.

/** The reason yamldecode refuses `text`, or null when it reads it or this reader cannot tell. */
export function yamlProblem(text: string): string | null {
  try {
    return new YamlReader(text).read();
  } catch (e) {
    if (e === NOT_JUDGED) return null;
    throw e;
  }
}

const NOT_JUDGED = new Error("not judged");

const isBlank = (c: number) => c === 32 || c === 9;
const isBreak = (c: number) => c === 10 || c === 13;
const isBlankOrEnd = (c: number) => Number.isNaN(c) || isBlank(c) || isBreak(c);

class YamlReader {
  private i = 0;
  /** the open flow collections' closing characters, innermost last */
  private readonly flows: string[] = [];
  /** a token of the document was read */
  private content = false;
  /** a "---" opened the document */
  private started = false;
  private line = 0;
  /** where the last flow collection opened, or the last comma in one */
  private lastOpen = 0;

  constructor(private readonly text: string) {}

  read(): string | null {
    const t = this.text;
    if (t.charCodeAt(0) === 0xfeff) this.i = 1;
    // a tab cannot start the first line's first token
    if (t.charCodeAt(this.i) === 9 && /^\t+[^\s#]/.test(t.slice(this.i, this.i + 80))) return "found character that cannot start any token";
    while (this.i < t.length) {
      const c = t.charCodeAt(this.i);
      if (isBreak(c)) {
        this.newline();
        continue;
      }
      if (isBlank(c)) {
        this.i++;
        continue;
      }
      const column = this.i - this.lineStart();
      if (column === 0 && this.flows.length === 0 && (t.startsWith("---", this.i) || t.startsWith("...", this.i)) && isBlankOrEnd(t.charCodeAt(this.i + 3))) {
        // a second document: Terraform decodes exactly one
        if (t[this.i] === ".") throw NOT_JUDGED;
        if (this.content || this.started) return this.parserError(this.line, "unexpected extra content after value");
        this.started = true;
        this.i += 3;
        continue;
      }
      const problem = this.token(c);
      if (problem !== null) return problem;
    }
    if (this.flows.length > 0) {
      // nothing after the last opening bracket or comma: no node, else no closing bracket
      const problem = t.slice(this.lastOpen + 1).trim() === "" ? "did not find expected node content" : `did not find expected ',' or '${this.flows[this.flows.length - 1]}'`;
      return this.parserError(this.endLine(), problem);
    }
    if (!this.content && !this.started) return this.parserError(Math.max(1, this.endLine()), "missing start of document", true);
    return null;
  }

  /** One token at the current position (a non-blank character). */
  private token(c: number): string | null {
    const t = this.text;
    if (c === 35) {
      // a comment to the end of the line
      while (this.i < t.length && !isBreak(t.charCodeAt(this.i))) this.i++;
      return null;
    }
    this.content = true;
    if (c === 34 || c === 39) return this.quoted(c);
    if (c === 91 || c === 123) {
      this.flows.push(c === 91 ? "]" : "}");
      this.lastOpen = this.i;
      this.i++;
      return null;
    }
    if (this.flows.length > 0 && (c === 93 || c === 125)) {
      if (this.flows.pop() !== String.fromCharCode(c)) throw NOT_JUDGED;
      this.i++;
      return null;
    }
    if (this.flows.length > 0 && c === 44) {
      this.lastOpen = this.i;
      this.i++;
      return null;
    }
    if (c === 93 || c === 125 || c === 44) throw NOT_JUDGED;
    if (c === 64 || c === 96) return this.scannerError("found character that cannot start any token");
    // anchors, aliases, tags, directives, complex keys, block scalars: not followed here
    if ("&*!%?|>".includes(t[this.i]!)) throw NOT_JUDGED;
    if ((c === 45 || c === 58) && isBlankOrEnd(t.charCodeAt(this.i + 1))) {
      this.i++;
      return null;
    }
    return this.plain();
  }

  /** A plain scalar: to a ": " (or ":" at the line's end), a " #", the line's end, or in a flow a flow indicator. */
  private plain(): string | null {
    const t = this.text;
    const inFlow = this.flows.length > 0;
    while (this.i < t.length) {
      const c = t.charCodeAt(this.i);
      if (isBreak(c)) return null;
      if (inFlow && (c === 44 || c === 91 || c === 93 || c === 123 || c === 125)) return null;
      if (c === 58 && (isBlankOrEnd(t.charCodeAt(this.i + 1)) || (inFlow && ",[]{}".includes(t[this.i + 1] ?? "")))) {
        this.i++;
        if (!inFlow) return this.valueOnLine();
        return null;
      }
      if (c === 35 && isBlank(t.charCodeAt(this.i - 1))) return null;
      this.i++;
    }
    return null;
  }

  /** After a block mapping's ":": a plain value on the same line may not hold a second ": ". */
  private valueOnLine(): string | null {
    const t = this.text;
    let j = this.i;
    while (isBlank(t.charCodeAt(j))) j++;
    if (j >= t.length || isBreak(t.charCodeAt(j)) || !/[A-Za-z0-9_./]/.test(t[j]!)) return null;
    for (let k = j; k < t.length && !isBreak(t.charCodeAt(k)); k++) {
      const c = t.charCodeAt(k);
      if (c === 35 && isBlank(t.charCodeAt(k - 1))) return null;
      if (c === 58 && isBlankOrEnd(t.charCodeAt(k + 1))) return this.scannerError("mapping values are not allowed in this context");
    }
    return null;
  }

  /** A quoted scalar (possibly over several lines); one never closed ends the stream in error. */
  private quoted(quote: number): string | null {
    const t = this.text;
    this.i++;
    while (this.i < t.length) {
      const c = t.charCodeAt(this.i);
      if (isBreak(c)) {
        this.newline();
        continue;
      }
      if (quote === 39 && c === 39) {
        if (t.charCodeAt(this.i + 1) === 39) {
          this.i += 2;
          continue;
        }
        this.i++;
        return null;
      }
      if (quote === 34 && c === 92) {
        // a hexadecimal escape or a line continuation is left to the YAML library
        const escaped = t[this.i + 1] ?? "";
        if (escaped === "" || "xuU\t\r\n".includes(escaped)) throw NOT_JUDGED;
        if (!`0abtnvfre "/\\N_LP`.includes(escaped)) return this.scannerError("found unknown escape character");
        this.i += 2;
        continue;
      }
      if (quote === 34 && c === 34) {
        this.i++;
        return null;
      }
      this.i++;
    }
    return this.scannerError("found unexpected end of stream");
  }

  private newline(): void {
    if (this.text.charCodeAt(this.i) === 13 && this.text.charCodeAt(this.i + 1) === 10) this.i++;
    this.i++;
    this.line++;
  }

  private lineStart(): number {
    let j = this.i;
    while (j > 0 && !isBreak(this.text.charCodeAt(j - 1))) j--;
    return j;
  }

  /** The line of the stream's end (0-based): a last line without a line break counts as ended. */
  private endLine(): number {
    const t = this.text;
    return t.length > 0 && !isBreak(t.charCodeAt(t.length - 1)) ? this.line + 1 : this.line;
  }

  /** The YAML library's scanner errors name the line after the problem's (1-based), column 1, except on the first line. */
  private scannerError(problem: string): string {
    return this.line === 0 ? problem : `on line ${this.line + 1}, column 1: ${problem}`;
  }

  /** Its parser errors name the problem's line 0-based (1 for the first line's end) and column 1, except on the first line. */
  private parserError(line: number, problem: string, always = false): string {
    return line === 0 && !always ? problem : `on line ${line}, column 1: ${problem}`;
  }
}
