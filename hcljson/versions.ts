// Version constraints as Terraform reads them (required_version, required_providers' version):
// go-version's operators, each term of a comma-separated list must hold. A term with a
// pre-release or anything unusual is not judged (it counts as satisfied).
import { createRequire } from "node:module";

/** Whether `version` satisfies every term of `constraints` ("~> 1.2, != 1.3.1"). */
export function satisfiesAll(constraints: string, version: number[]): boolean {
  return constraints.split(",").every((term) => satisfies(term.trim(), version));
}

/** Whether a version satisfies one constraint term (go-version's operators; a pre-release term is not judged). */
export function satisfies(term: string, version: number[]): boolean {
  const m = /^(=|!=|>=|<=|>|<|~>)?\s*v?([0-9]+(?:\.[0-9]+)*)(.*)$/.exec(term);
  if (!m || m[3]!.trim() !== "") return true;
  const wanted = m[2]!.split(".").map(Number);
  const cmp = compareVersions(version, wanted);
  switch (m[1] ?? "=") {
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
  // from the sources (hcljson/) or from the build (dist/hcljson/)
  for (const candidate of ["../package.json", "../../package.json"]) {
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
