// Offsets → 1-based line and column, computed only when a diagnostic needs a position. Columns
// count Unicode characters (a surrogate pair is one column), as Terraform's diagnostics do.

export interface Position {
  line: number;
  column: number;
}

export class LineMap {
  private starts: number[] | null = null;

  constructor(readonly text: string) {}

  private lineStarts(): number[] {
    if (this.starts) return this.starts;
    const starts = [0];
    const text = this.text;
    let i = text.indexOf("\n");
    while (i >= 0) {
      starts.push(i + 1);
      i = text.indexOf("\n", i + 1);
    }
    this.starts = starts;
    return starts;
  }

  /** Index (0-based) of the line holding `offset`. */
  lineIndex(offset: number): number {
    const starts = this.lineStarts();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  position(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineIndex(o);
    const start = this.lineStarts()[line]!;
    return { line: line + 1, column: characters(this.text, start, o) + 1 };
  }

  /** Start offset and end offset (without the line break) of a 0-based line. */
  lineRange(line: number): [number, number] {
    const starts = this.lineStarts();
    const start = starts[line] ?? this.text.length;
    let end = line + 1 < starts.length ? starts[line + 1]! - 1 : this.text.length;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
    return [start, end];
  }

  get lineCount(): number {
    return this.lineStarts().length;
  }
}

/** Number of Unicode characters in text[from, to). */
export function characters(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff || i === from) n++;
  }
  return n;
}
