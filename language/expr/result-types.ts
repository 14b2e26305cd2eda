// The type of what a function call returns when validate does not know its arguments: most of
// Terraform's functions declare a fixed result type, and validate's unknown result still has it,
// so `name = split(",", var.list)` is "string required" before any value exists. Functions whose
// result type follows their arguments (lookup, merge, concat, try, …) are not listed.
import type { Expr } from "./syntax-tree.js";
import type { TypeExpr } from "./type-expressions.js";

const STRING: TypeExpr = { kind: "string" };
const NUMBER: TypeExpr = { kind: "number" };
const BOOL: TypeExpr = { kind: "bool" };
const ANY: TypeExpr = { kind: "any" };

const RESULTS: Record<string, TypeExpr> = {};
for (const name of [
  "abspath", "base64decode", "base64encode", "base64gzip", "base64sha256", "base64sha512", "basename", "chomp", "cidrhost", "cidrnetmask",
  "cidrsubnet", "dirname", "file", "filebase64", "filemd5", "filesha1", "filesha256", "filesha512", "format", "formatdate", "indent", "join",
  "jsonencode", "lower", "md5", "pathexpand", "replace", "sha1", "sha256", "sha512", "strrev", "substr", "templatefile", "timeadd", "timestamp",
  "title", "trim", "trimprefix", "trimspace", "trimsuffix", "upper", "urlencode", "uuid", "uuidv5", "yamlencode",
]) RESULTS[name] = STRING;
for (const name of ["abs", "ceil", "floor", "length", "log", "max", "min", "parseint", "pow", "signum", "sum", "timecmp", "tonumber"]) RESULTS[name] = NUMBER;
for (const name of ["alltrue", "anytrue", "can", "contains", "endswith", "fileexists", "issensitive", "startswith", "strcontains", "tobool"]) RESULTS[name] = BOOL;
for (const name of ["cidrsubnets", "compact", "formatlist", "sort", "split"]) RESULTS[name] = { kind: "list", element: STRING };
RESULTS.range = { kind: "list", element: NUMBER };
RESULTS.tolist = { kind: "list", element: ANY };
RESULTS.toset = { kind: "set", element: ANY };
RESULTS.fileset = { kind: "set", element: STRING };
RESULTS.tomap = { kind: "map", element: ANY };

/** The declared result type of a call (`core::` names too), or null when it depends on the arguments. */
export function callResultType(expr: Expr): TypeExpr | null {
  if (expr.t !== "call") return null;
  const name = expr.name.startsWith("core::") ? expr.name.slice(6) : expr.name;
  return Object.prototype.hasOwnProperty.call(RESULTS, name) ? RESULTS[name]! : null;
}
