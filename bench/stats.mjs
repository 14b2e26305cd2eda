// The few numbers every bench reports: medians of alternating rounds, rounded for the results files.

/** The median of a list of numbers (the mean of the middle two for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** `value` rounded to `digits` decimals (one by default). */
export const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Progress goes to stderr, so stdout stays the results. */
export const log = (message) => process.stderr.write(`${message}\n`);
