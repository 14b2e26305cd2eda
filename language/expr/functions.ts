// The functions Terraform 1.11 offers in expressions (`terraform metadata functions -json`), with
// their parameters, so that a call to an unknown function or with the wrong number of arguments is
// reported as `terraform validate` reports it. Each entry lists the required parameters' names and,
// after "...", the variadic one's; ":n", ":s" and ":b" mark a parameter of type number, string or
// bool (the others take any type or a collection).
import { ownFunctionCallProblem } from "./provider-functions.js";

const SIGNATURES: Record<string, string> = {
  abs: "num:n",
  abspath: "path:s",
  alltrue: "list",
  anytrue: "list",
  base64decode: "str:s",
  base64encode: "str:s",
  base64gzip: "str:s",
  base64sha256: "str:s",
  base64sha512: "str:s",
  basename: "path:s",
  bcrypt: "str:s ...cost:n",
  can: "expression",
  ceil: "num:n",
  chomp: "str:s",
  chunklist: "list size:n",
  cidrhost: "prefix:s hostnum:n",
  cidrnetmask: "prefix:s",
  cidrsubnet: "prefix:s newbits:n netnum:n",
  cidrsubnets: "prefix:s ...newbits:n",
  coalesce: "...vals",
  coalescelist: "...vals",
  compact: "list",
  concat: "...seqs",
  contains: "list value",
  csvdecode: "str:s",
  dirname: "path:s",
  distinct: "list",
  element: "list index:n",
  endswith: "str:s suffix:s",
  ephemeralasnull: "value",
  file: "path:s",
  filebase64: "path:s",
  filebase64sha256: "path:s",
  filebase64sha512: "path:s",
  fileexists: "path:s",
  filemd5: "path:s",
  fileset: "path:s pattern:s",
  filesha1: "path:s",
  filesha256: "path:s",
  filesha512: "path:s",
  flatten: "list",
  floor: "num:n",
  format: "format:s ...args",
  formatdate: "format:s time:s",
  formatlist: "format:s ...args",
  indent: "spaces:n str:s",
  index: "list value",
  issensitive: "value",
  join: "separator:s ...lists",
  jsondecode: "str:s",
  jsonencode: "val",
  keys: "inputMap",
  length: "value",
  log: "num:n base:n",
  lookup: "inputMap key:s ...default",
  lower: "str:s",
  matchkeys: "values keys searchset",
  max: "...numbers:n",
  md5: "str:s",
  merge: "...maps",
  min: "...numbers:n",
  nonsensitive: "value",
  one: "list",
  parseint: "number base:n",
  pathexpand: "path:s",
  plantimestamp: "",
  pow: "num:n power:n",
  range: "...params:n",
  regex: "pattern:s string:s",
  regexall: "pattern:s string:s",
  replace: "str:s substr:s replace:s",
  reverse: "list",
  rsadecrypt: "ciphertext:s privatekey:s",
  sensitive: "value",
  setintersection: "first_set ...other_sets",
  setproduct: "...sets",
  setsubtract: "a b",
  setunion: "first_set ...other_sets",
  sha1: "str:s",
  sha256: "str:s",
  sha512: "str:s",
  signum: "num:n",
  slice: "list start_index:n end_index:n",
  sort: "list",
  split: "separator:s str:s",
  startswith: "str:s prefix:s",
  strcontains: "str:s substr:s",
  strrev: "str:s",
  substr: "str:s offset:n length:n",
  sum: "list",
  templatefile: "path:s vars",
  templatestring: "template:s vars",
  textdecodebase64: "source:s encoding:s",
  textencodebase64: "string:s encoding:s",
  timeadd: "timestamp:s duration:s",
  timecmp: "timestamp_a:s timestamp_b:s",
  timestamp: "",
  title: "str:s",
  tobool: "v",
  tolist: "v",
  tomap: "v",
  tonumber: "v",
  toset: "v",
  tostring: "v",
  transpose: "values",
  trim: "str:s cutset:s",
  trimprefix: "str:s prefix:s",
  trimspace: "str:s",
  trimsuffix: "str:s suffix:s",
  try: "...expressions",
  upper: "str:s",
  urlencode: "str:s",
  uuid: "",
  uuidv5: "namespace:s name:s",
  values: "mapping",
  yamldecode: "src:s",
  yamlencode: "value",
  zipmap: "keys values",
};

/** Functions Terraform removed in v0.12 but still knows by name: a call fails with this advice. */
const REMOVED: Record<string, string> = {
  list: 'the "list" function was deprecated in Terraform v0.12 and is no longer available; use tolist([ ... ]) syntax to write a literal list',
  map: 'the "map" function was deprecated in Terraform v0.12 and is no longer available; use tomap({ ... }) syntax to write a literal map',
};

/** Variadic functions that fail when called with no argument at all, even at validate time. */
const NEEDS_ONE: Record<string, string> = {
  max: "must pass at least one number",
  min: "must pass at least one number",
  coalesce: "all arguments must have the same type",
};

/** The built-in provider's functions (Terraform 1.8+), when the module declares it in required_providers. */
const BUILTIN_PROVIDER_FUNCTIONS = new Set(["encode_tfvars", "decode_tfvars", "encode_expr"]);

/**
 * The local names in the required_providers of the module being checked (set by module.ts for
 * each module it reads; null: unknown, then only our own providers' names are judged). A provider
 * function of a provider the module does not declare is unknown to Terraform.
 */
let declaredProviders: ReadonlySet<string> | null = null;

export function setDeclaredProviders(names: ReadonlySet<string> | null): void {
  declaredProviders = names;
}

type ParamType = "number" | "string" | "bool" | null;

interface Signature {
  params: string[];
  types: ParamType[];
  variadic: string | null;
  variadicType: ParamType;
}

const TYPE_MARKS: Record<string, ParamType> = { n: "number", s: "string", b: "bool" };

function param(word: string): [string, ParamType] {
  const colon = word.indexOf(":");
  return colon < 0 ? [word, null] : [word.slice(0, colon), TYPE_MARKS[word.slice(colon + 1)] ?? null];
}

const parsed = new Map<string, Signature>();

function signature(name: string): Signature | undefined {
  let sig = parsed.get(name);
  if (sig !== undefined) return sig;
  if (!Object.prototype.hasOwnProperty.call(SIGNATURES, name)) return undefined;
  const words = SIGNATURES[name]!.split(" ").filter((w) => w !== "");
  const last = words[words.length - 1];
  const variadic = last !== undefined && last.startsWith("...") ? param(last.slice(3)) : null;
  const fixed = (variadic === null ? words : words.slice(0, -1)).map(param);
  sig = { params: fixed.map((p) => p[0]), types: fixed.map((p) => p[1]), variadic: variadic && variadic[0], variadicType: variadic && variadic[1] };
  parsed.set(name, sig);
  return sig;
}

export interface CallProblem {
  summary: string;
  detail: string;
  /** "name": at the function's name; "extra": at the first argument too many; "close": at the closing parenthesis */
  at: "name" | "extra" | "close";
  /** with "extra": the index of the first argument too many */
  extra?: number;
}

/**
 * What Terraform says of a call to `name` with `argc` arguments (`expand`: the last one is
 * expanded with "...", so the count is not known), or null when the call is fine as far as
 * validate can tell. Function names with a namespace are given whole ("core::upper").
 */
export function checkCall(name: string, argc: number, expand: boolean): CallProblem | null {
  let plain = name;
  const sep = name.indexOf("::");
  if (sep >= 0) {
    const namespace = name.slice(0, sep);
    if (namespace === "provider") {
      const rest = name.slice(sep + 2);
      const inner = rest.indexOf("::");
      const provider = inner < 0 ? rest : rest.slice(0, inner);
      const fn = rest.slice(inner + 2);
      const undeclared = declaredProviders !== null && !declaredProviders.has(provider);
      const unknownBuiltin = provider === "terraform" && !BUILTIN_PROVIDER_FUNCTIONS.has(fn);
      if (inner < 0) return { summary: "Unknown provider function", detail: 'The function call must include the provider name after the "provider::" prefix.', at: "name" };
      const own = undeclared ? undefined : ownFunctionCallProblem(provider, fn, argc, expand);
      if (own !== undefined) return own;
      // Our providers' functions: provider-functions.ts (above); any other provider's are not ours to judge.
      if (!(undeclared || unknownBuiltin)) return null;
      if (unknownBuiltin && !undeclared) return { summary: "Unknown provider function", detail: `The function ${JSON.stringify(fn)} is not available from the provider "terraform".`, at: "name" };
      return {
        summary: "Unknown provider function",
        detail: `There is no function named "${name}". Ensure that provider name "${provider}" is declared in this module's required_providers block, and that this provider offers a function named "${fn}".`,
        at: "name",
      };
    }
    if (namespace !== "core" || signature(name.slice(sep + 2)) === undefined) {
      return {
        summary: "Unknown provider function",
        detail: `The function namespace "${namespace}" is not valid. Provider function calls must use the "provider::" namespace prefix.`,
        at: "name",
      };
    }
    plain = name.slice(sep + 2);
  }
  const sig = signature(plain);
  if (sig === undefined) {
    if (Object.prototype.hasOwnProperty.call(REMOVED, plain)) return { summary: "Error in function call", detail: `Call to function "${name}" failed: ${REMOVED[plain]}.`, at: "name" };
    const hint = nearestFunction(plain);
    return { summary: "Call to unknown function", detail: `There is no function named "${name}".${hint ? ` Did you mean "${hint}"?` : ""}`, at: "name" };
  }
  if (expand) return null;
  if (argc === 0 && Object.prototype.hasOwnProperty.call(NEEDS_ONE, plain)) {
    return { summary: "Error in function call", detail: `Call to function "${name}" failed: ${NEEDS_ONE[plain]}.`, at: "name" };
  }
  if (argc < sig.params.length) {
    const least = sig.variadic !== null ? "at least " : "";
    return {
      summary: "Not enough function arguments",
      detail: `Function "${name}" expects ${least}${sig.params.length} argument(s). Missing value for "${sig.params[argc]}".`,
      at: "close",
    };
  }
  if (sig.variadic === null && argc > sig.params.length) {
    return { summary: "Too many function arguments", detail: `Function "${name}" expects only ${sig.params.length} argument(s).`, at: "extra", extra: sig.params.length };
  }
  return null;
}

/**
 * Functions whose parameters of no primitive type refuse null too (each checked with terraform
 * validate; others take it: merge's, jsonencode's, the conversion functions', format's values).
 */
const UNTYPED_REFUSE_NULL = new Set(
  "alltrue anytrue chunklist compact concat contains distinct element flatten index join keys length matchkeys one parseint reverse setintersection setproduct setsubtract setunion slice sort sum templatefile templatestring transpose values zipmap".split(" "),
);

/**
 * Whether Terraform refuses a null argument `i` of a call of `name` ("argument must not be
 * null"): every primitive-typed parameter (templatestring's template is judged otherwise), the
 * others of UNTYPED_REFUSE_NULL, and lookup's map (not its default).
 */
export function refusesNull(name: string, i: number): boolean {
  const bare = name.startsWith("core::") ? name.slice(6) : name;
  const p = parameterOf(bare, i);
  if (p === null) return false;
  if (p[1] !== null) return bare !== "templatestring" || i > 0;
  return bare === "lookup" ? i === 0 : UNTYPED_REFUSE_NULL.has(bare);
}

/** The name and primitive type (null: any other) of a function's argument `i`, once the call is known to be fine. */
export function parameterOf(name: string, i: number): [string, ParamType] | null {
  const sig = signature(name.startsWith("core::") ? name.slice(6) : name);
  if (sig === undefined) return null;
  if (i < sig.params.length) return [sig.params[i]!, sig.types[i]!];
  return sig.variadic === null ? null : [sig.variadic, sig.variadicType];
}

/** A known function whose name is within two edits of `name`, as Terraform suggests one. */
function nearestFunction(name: string): string | null {
  let best: string | null = null;
  let bestDistance = 3;
  for (const candidate of Object.keys(SIGNATURES)) {
    const d = distance(name, candidate, bestDistance);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance, giving up (returning `limit`) once it cannot be below `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1));
      row.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin >= limit) return limit;
    prev = row;
  }
  return prev[b.length]!;
}
