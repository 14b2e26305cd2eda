// Literal strings in HCL-JSON expression positions are templates: `${` starts an interpolation
// and `%{` a directive unless the sign is doubled (`$${`, `%%{`). A value read from the platform
// is written so that Terraform reads back exactly that value.

/** Escapes a literal for an expression position: every `${` → `$${`, every `%{` → `%%{`. */
export function escapeTemplate(value: string): string {
  // Terraform drops one sign of each doubled `$${` / `%%{`, so doubling every `${` and `%{`
  // (including ones already preceded by a sign) round-trips any string.
  return value.replace(/([$%])\{/g, "$1$1{");
}

/** The value Terraform reads from an escaped literal (the inverse of `escapeTemplate`). */
export function unescapeTemplate(value: string): string {
  return value.replace(/([$%])\1\{/g, "$1{");
}

/** Escapes every string in a JSON value, including the keys of objects (expression objects). */
export function escapeLiteral(value: unknown): unknown {
  if (typeof value === "string") return escapeTemplate(value);
  if (Array.isArray(value)) return value.map(escapeLiteral);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[escapeTemplate(k)] = escapeLiteral(v);
    return out;
  }
  return value;
}
