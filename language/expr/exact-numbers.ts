// Arithmetic as cty does it: numbers are binary floats of 512 bits (Go's big.Float, rounding to
// nearest even), so `1000 * 1.0000000000000001` is not 1000, `9007199254740993 - 9007199254740992`
// is 1 and `1.1 * 1000` is 1100, where doubles say otherwise. Small trees of +, -, * and
// comparisons over literals are computed from the literals' own text; an operation on two known
// values from the decimals their doubles were written as. Division is left to the doubles.
import type { Expr } from "./syntax-tree.js";
import { UNKNOWN } from "./known.js";

const PRECISION = 512;
/** Larger trees are not worth the exactness (and a chain of 100,000 terms must not recurse) */
const MAX_NODES = 64;
/** Decimal exponents beyond this are left to the doubles (1e400 is already infinite there) */
const MAX_EXPONENT = 400;

/** m × 2^e */
interface BigFloat {
  m: bigint;
  e: number;
}

type Arithmetic = Extract<Expr, { t: "bin" }>;

const ARITHMETIC = new Set(["+", "-", "*"]);
const COMPARISON = new Set(["==", "!=", "<", ">", "<=", ">="]);

/**
 * The value of a binary expression over number literals as cty computes it: a comparison's bool,
 * or an arithmetic result as the double the provider receives (cty sends the nearest one). Unknown
 * when that double is a whole number but cty's value is not (count and rules would misjudge it);
 * null when the expression is not such arithmetic.
 */
export function exactLiteralArithmetic(e: Arithmetic): boolean | number | typeof UNKNOWN | null {
  if (!ARITHMETIC.has(e.op) && !COMPARISON.has(e.op)) return null;
  if (!smallLiteralTree(e)) return null;
  if (COMPARISON.has(e.op)) {
    const l = value(e.l);
    const r = value(e.r);
    return l === null || r === null ? null : compared(e.op, l, r);
  }
  const v = value(e);
  return v === null ? null : asDouble(v);
}

/**
 * A binary operation on two known numbers as cty computes it, each taken at the decimal its double
 * was written as (a local value `1.1` is cty's 1.1 at 512 bits): null when doubles are exact
 * already (whole numbers within 2^53) or the operator is not +, -, * or a comparison.
 */
export function exactOperation(op: string, a: number, b: number): boolean | number | typeof UNKNOWN | null {
  if (!ARITHMETIC.has(op) && !COMPARISON.has(op)) return null;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return null;
  if (Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
    if (COMPARISON.has(op)) return null;
    const plain = op === "+" ? a + b : op === "-" ? a - b : a * b;
    if (Number.isSafeInteger(plain)) return null;
  }
  const l = parseDecimal(String(a));
  const r = parseDecimal(String(b));
  if (l === null || r === null) return null;
  // a value no double holds is unknown here: it may meet a comparison that its double would mislead
  return COMPARISON.has(op) ? compared(op, l, r) : asDouble(operate(op, l, r), true);
}

function compared(op: string, l: BigFloat, r: BigFloat): boolean {
  const c = compare(l, r);
  return op === "==" ? c === 0 : op === "!=" ? c !== 0 : op === "<" ? c < 0 : op === ">" ? c > 0 : op === "<=" ? c <= 0 : c >= 0;
}

function operate(op: string, l: BigFloat, r: BigFloat): BigFloat {
  if (op === "*") return round(l.m * r.m, l.e + r.e, false);
  const at = Math.min(l.e, r.e);
  const lm = l.m << BigInt(l.e - at);
  const rm = r.m << BigInt(r.e - at);
  return round(op === "+" ? lm + rm : lm - rm, at, false);
}

/**
 * cty's value as the double the provider receives; unknown when that double is whole but the value
 * is not (count and rules would misjudge it), or when no double holds it and `strict`.
 */
function asDouble(v: BigFloat, strict = false): number | typeof UNKNOWN | null {
  const d = toDouble(v);
  if (d === null) return null;
  if (heldByDouble(v)) return d;
  return strict || Number.isInteger(d) ? UNKNOWN : d;
}

/** Whether `e` is +, - and * (and one comparison at the top) over number literals, in at most MAX_NODES nodes. */
function smallLiteralTree(root: Arithmetic): boolean {
  const stack: Expr[] = [root.l, root.r];
  let nodes = 1;
  while (stack.length > 0) {
    const e = stack.pop()!;
    if (++nodes > MAX_NODES) return false;
    if (e.t === "lit") {
      if (typeof e.v !== "number") return false;
    } else if (e.t === "bin" && ARITHMETIC.has(e.op)) stack.push(e.l, e.r);
    else if (e.t === "un" && e.op === "-") stack.push(e.x);
    else return false;
  }
  return true;
}

/** The tree's value (it is small: recursion is bounded by MAX_NODES). */
function value(e: Expr): BigFloat | null {
  if (e.t === "lit") return typeof e.v === "number" ? parseDecimal(e.raw ?? String(e.v)) : null;
  if (e.t === "un") {
    const x = value(e.x);
    return x === null ? null : { m: -x.m, e: x.e };
  }
  if (e.t !== "bin") return null;
  const l = value(e.l);
  const r = value(e.r);
  return l === null || r === null ? null : operate(e.op, l, r);
}

function bitLength(a: bigint): number {
  return a === 0n ? 0 : a.toString(2).length;
}

/** m × 2^e rounded to PRECISION bits, to nearest even; `sticky`: the true value is a little above m × 2^e. */
function round(m: bigint, e: number, sticky: boolean): BigFloat {
  if (m === 0n) return { m: 0n, e: 0 };
  const negative = m < 0n;
  const a = negative ? -m : m;
  const shift = bitLength(a) - PRECISION;
  if (shift <= 0) return { m, e };
  let q = a >> BigInt(shift);
  const rest = a - (q << BigInt(shift));
  const half = 1n << BigInt(shift - 1);
  if (rest > half || (rest === half && (sticky || (q & 1n) === 1n))) q += 1n;
  return { m: negative ? -q : q, e: e + shift };
}

/** A decimal literal's value at 512 bits, as cty parses it (big.ParseFloat, nearest even). */
function parseDecimal(raw: string): BigFloat | null {
  const match = /^([-+]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([-+]?[0-9]+))?$/.exec(raw);
  if (match === null) return null;
  const fraction = match[3] ?? "";
  const digits = (match[2]! + fraction).replace(/^0+/, "");
  const exponent = Number(match[4] ?? 0) - fraction.length;
  if (digits.length > MAX_EXPONENT || Math.abs(exponent) > MAX_EXPONENT) return null;
  if (digits === "") return { m: 0n, e: 0 };
  const sign = match[1] === "-" ? -1n : 1n;
  const n = BigInt(digits);
  if (exponent >= 0) return round(sign * n * 10n ** BigInt(exponent), 0, false);
  // n / 10^k with enough bits that rounding to PRECISION sees every one that matters
  const d = 10n ** BigInt(-exponent);
  const k = PRECISION + 4 + bitLength(d) - bitLength(n);
  const scaled = k > 0 ? n << BigInt(k) : n;
  const q = scaled / d;
  return round(sign * q, -Math.max(k, 0), scaled % d !== 0n);
}

function compare(a: BigFloat, b: BigFloat): number {
  const at = Math.min(a.e, b.e);
  const diff = (a.m << BigInt(a.e - at)) - (b.m << BigInt(b.e - at));
  return diff === 0n ? 0 : diff < 0n ? -1 : 1;
}

/** The nearest double (Number of a bigint rounds to nearest even); null outside the normal range. */
function toDouble(v: BigFloat): number | null {
  if (v.m === 0n) return 0;
  const d = Number(v.m) * 2 ** v.e;
  return Number.isFinite(d) && Math.abs(d) >= 2 ** -1000 && Number.isFinite(2 ** v.e) && 2 ** v.e > 0 ? d : null;
}

/** Whether a double holds the value exactly (53 significant bits). */
function heldByDouble(v: BigFloat): boolean {
  if (v.m === 0n) return true;
  let a = v.m < 0n ? -v.m : v.m;
  while ((a & 1n) === 0n) a >>= 1n;
  return bitLength(a) <= 53;
}
