// Version constraints as Terraform reads them (required_version, required_providers' version,
// a module call's version): hashicorp/go-version's grammar and operators, each term of a
// comma-separated list must hold. A term with a pre-release is not judged (it counts as satisfied).
import { createRequire } from "node:module";

// go-version's VersionRegexpRaw: a pre-release may follow the numbers without a hyphen ("1.2beta")
const VERSION = String.raw`v?([0-9]+(?:\.[0-9]+)*?)(-([0-9]+[0-9A-Za-z\-~]*(?:\.[0-9A-Za-z\-~]+)*)|(?:-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(?:\.[0-9A-Za-z\-~]+)*)))?(?:\+[0-9A-Za-z\-~]+(?:\.[0-9A-Za-z\-~]+)*)?`;
// Go's \s is ASCII whitespace only
const TERM = new RegExp(String.raw`^[\t\n\f\r ]*(<=|>=|!=|~>|>|<|=)?[\t\n\f\r ]*${VERSION}[\t\n\f\r ]*$`);

interface Term {
  op: string;
  segments: number[];
  prerelease: boolean;
}

function parseTerm(term: string): Term | null {
  const m = TERM.exec(term);
  if (!m) return null;
  const digits = m[2]!.split(".");
  // go-version parses each segment as an int64
  if (digits.some((d) => BigInt(d) >= 2n ** 63n)) return null;
  return { op: m[1] ?? "=", segments: digits.map(Number), prerelease: m[4] !== undefined || m[5] !== undefined };
}

/** Whether a string is a version constraint as go-version reads it: comma-separated terms such as ">= 1.2.0" or "~> 1.5". */
export function isVersionConstraint(constraints: string): boolean {
  return constraints.split(",").every((term) => parseTerm(term) !== null);
}

/** The terms of a valid constraint that name a pre-release ("1.2-beta", "1.2beta"); Terraform refuses these in required_version. */
export function prereleaseTerms(constraints: string): string[] {
  return constraints.split(",").filter((term) => parseTerm(term)?.prerelease).map((term) => term.trim());
}

/** Whether `version` satisfies every term of `constraints` ("~> 1.2, != 1.3.1"). */
export function satisfiesAll(constraints: string, version: number[]): boolean {
  return constraints.split(",").every((term) => satisfies(term, version));
}

/** Whether a version satisfies one constraint term (an unparsable or pre-release term is not judged). */
function satisfies(text: string, version: number[]): boolean {
  const term = parseTerm(text);
  if (!term || term.prerelease) return true;
  const wanted = term.segments;
  const cmp = compareVersions(version, wanted);
  switch (term.op) {
    case "=":
      return cmp === 0;
    case "!=":
      return cmp !== 0;
    case ">":
      return cmp > 0;
    case "<":
      return cmp < 0;
    case ">=":
      return cmp >= 0;
    case "<=":
      return cmp <= 0;
    default: {
      // ~> 1.2 allows 1.x from 1.2; ~> 1.2.3 allows 1.2.x from 1.2.3
      if (cmp < 0) return false;
      const fixed = wanted.length > 1 ? wanted.slice(0, -1) : wanted;
      return fixed.every((n, i) => version[i] === n);
    }
  }
}

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}


/** This package's version, which is our providers' version (null when it cannot be read). */
export function ourProviderVersion(): number[] | null {
  if (cachedVersion !== undefined) return cachedVersion;
  cachedVersion = null;
  const require = createRequire(import.meta.url);
  // from the sources (language/config/) or from the build (dist/language/config/)
  for (const candidate of ["../../package.json", "../../../package.json"]) {
    try {
      const pkg = require(candidate) as { name?: string; version?: string };
      if (pkg.name === "schemaform" && typeof pkg.version === "string" && /^\d+\.\d+\.\d+$/.test(pkg.version)) {
        cachedVersion = pkg.version.split(".").map(Number);
        break;
      }
    } catch {
      // not there: the next candidate
    }
  }
  return cachedVersion;
}

let cachedVersion: number[] | null | undefined;
