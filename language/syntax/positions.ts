// Offsets → 1-based line and column, computed only when a diagnostic needs a position. Columns
// count Unicode characters (a surrogate pair is one column), as Terraform's diagnostics do.
//
// Every look-up is a binary search over two indexes built once per text, on the first look-up:
// the offsets where lines start and the offsets of low surrogates (the second halves of pairs,
// which take no column of their own). Counting characters from the start of the line instead
// made a minified file with many diagnostics quadratic: its one line is the whole file.

export interface Position {
  line: number;
  column: number;
}

/** The offsets `next` finds, from 0 until it returns -1 (typed: a number array takes twice the memory). */
function offsetsOf(next: (from: number) => number): Int32Array {
  let out = new Int32Array(64);
  let n = 0;
  for (let i = next(0); i >= 0; i = next(i + 1)) {
    if (n === out.length) {
      const grown = new Int32Array(n * 2);
      grown.set(out);
      out = grown;
    }
    out[n++] = i;
  }
  return out.subarray(0, n);
}

/** Number of entries of the sorted `offsets` below `offset`. */
function countBelow(offsets: Int32Array, offset: number): number {
  let lo = 0;
  let hi = offsets.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid]! < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class LineMap {
  /** offsets just after each line feed; line i + 1 starts at breaks[i], line 0 at 0 */
  private breaks: Int32Array | null = null;
  private lows: Int32Array | null = null;

  constructor(readonly text: string) {}

  private lineBreaks(): Int32Array {
    if (this.breaks === null) {
      const text = this.text;
      const found = offsetsOf((from) => text.indexOf("\n", from));
      for (let i = 0; i < found.length; i++) found[i] = found[i]! + 1;
      this.breaks = found;
    }
    return this.breaks;
  }

  private lowSurrogates(): Int32Array {
    if (this.lows === null) {
      const text = this.text;
      // no `u` flag: the pattern sees code units; a lone low surrogate takes no column either
      const low = /[\udc00-\udfff]/g;
      this.lows = offsetsOf((from) => {
        low.lastIndex = from;
        return low.exec(text)?.index ?? -1;
      });
    }
    return this.lows;
  }

  private lineStart(line: number): number {
    return line === 0 ? 0 : this.lineBreaks()[line - 1]!;
  }

  /** Index (0-based) of the line holding `offset`. */
  lineIndex(offset: number): number {
    // the lines starting at or before offset, the first one (at 0) not listed
    return countBelow(this.lineBreaks(), offset + 1);
  }

  /** Characters in text[from, to): every code unit except a low surrogate after `from`. */
  private columnsBetween(from: number, to: number): number {
    if (to <= from) return 0;
    const lows = this.lowSurrogates();
    if (lows.length === 0) return to - from;
    return to - from - (countBelow(lows, to) - countBelow(lows, from + 1));
  }

  position(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineIndex(o);
    return { line: line + 1, column: this.columnsBetween(this.lineStart(line), o) + 1 };
  }

  /**
   * The offset of a 1-based column of a 0-based line, after a surrogate pair the column starts
   * on; the end of the line for a column beyond it.
   */
  offsetOf(line: number, column: number): number {
    const [start, end] = this.lineRange(line);
    const wanted = Math.max(0, column - 1);
    if (this.lowSurrogates().length === 0) return Math.min(start + wanted, end);
    // the last offset with `wanted` characters before it (columnsBetween grows with the offset)
    let lo = start;
    let hi = end;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.columnsBetween(start, mid) <= wanted) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Start offset and end offset (without the line break) of a 0-based line. */
  lineRange(line: number): [number, number] {
    const breaks = this.lineBreaks();
    const start = line <= breaks.length ? this.lineStart(line) : this.text.length;
    let end = line < breaks.length ? breaks[line]! - 1 : this.text.length;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
    return [start, end];
  }

  get lineCount(): number {
    return this.lineBreaks().length + 1;
  }
}
