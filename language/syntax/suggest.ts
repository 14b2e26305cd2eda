// "Did you mean" for misspelt names: the nearest candidate by edit distance, when close enough.

/** One matrix for every call: a file with thousands of misspelt names asks thousands of times. */
let scratch = new Int32Array(256);

/** Edit distance counting an adjacent transposition ("nmae" → "name") as one edit. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  if (scratch.length < rows * cols) scratch = new Int32Array(rows * cols * 2);
  const d = scratch;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let best = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) best = Math.min(best, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1]!;
}

export function suggest(name: string, candidates: Iterable<string>): string | undefined {
  // Within a third of the name's length (at least 1, at most 3 edits): beyond that it is a guess.
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = name.toLowerCase();
  for (const candidate of candidates) {
    // the distance is at least the difference in length: a candidate that far cannot be the answer
    const other = candidate.toLowerCase();
    if (Math.abs(other.length - lower.length) > limit) continue;
    const distance = editDistance(lower, other);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== undefined && bestDistance <= limit ? best : undefined;
}
