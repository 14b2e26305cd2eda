// Resource, variable and TypeScript names for generated configuration: readable (derived from the
// resources' own names), valid identifiers, unique, and stable (the same resources always get the
// same names, whatever order the platform lists them in).

/**
 * snake_case of a free-form name: "App DB (prod)" → "app_db_prod", "myService" → "my_service".
 * Letters with accents lose them; anything but ASCII letters and digits separates words.
 * May return "" (nothing usable) or a string starting with a digit; see `identifier`.
 */
export function snakeCase(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** Terraform identifiers: a letter or underscore, then letters, digits, underscores and dashes. */
export const IDENTIFIER_RE = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Names Terraform reserves in places a generated name can go (variables, resources). */
const RESERVED = new Set(["source", "version", "providers", "count", "for_each", "lifecycle", "depends_on", "locals", "provider", "connection", "provisioner", "each", "self", "var", "local", "module", "data", "path", "terraform"]);

/** A valid, non-reserved snake_case identifier from `text`, with `fallback` when nothing is left. */
export function identifier(text: string, fallback: string): string {
  let name = snakeCase(text);
  if (name === "") name = fallback;
  else if (!/^[a-z_]/.test(name)) name = `${fallback}_${name}`;
  if (RESERVED.has(name)) name = `${name}_${fallback}`;
  return name;
}

/**
 * Gives every candidate a unique name. Candidates that want the same base name are numbered in
 * the order of their `key` (base, base_2, base_3, …), skipping names another candidate wants, so
 * the result does not depend on the order of the input.
 */
export function assignNames<T>(candidates: Array<{ item: T; base: string; key: string }>, taken: Iterable<string> = []): Map<T, string> {
  const used = new Set<string>(taken);
  const wanted = new Map<string, number>();
  for (const c of candidates) wanted.set(c.base, (wanted.get(c.base) ?? 0) + 1);
  const sorted = [...candidates].sort((a, b) => cmp(a.base, b.base) || cmp(a.key, b.key));
  const names = new Map<T, string>();
  // Sole claimants of a base name keep it as is.
  for (const c of sorted) {
    if (wanted.get(c.base) === 1 && !used.has(c.base)) {
      names.set(c.item, c.base);
      used.add(c.base);
    }
  }
  for (const c of sorted) {
    if (names.has(c.item)) continue;
    let name = c.base;
    for (let n = 2; used.has(name) || (name !== c.base && wanted.has(name)); n++) name = `${c.base}_${n}`;
    names.set(c.item, name);
    used.add(name);
  }
  return names;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const JS_RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "implements import in instanceof interface let new null package private protected public return static super switch this throw " +
    "true try typeof var void while with yield await arguments eval undefined NaN Infinity"
  ).split(" "),
);

/** camelCase TypeScript identifier from a snake_case name: "app_db" → "appDb". */
export function camelCase(snake: string): string {
  const out = snake.replace(/[-_]+([a-z0-9])/g, (_m, c: string) => c.toUpperCase()).replace(/[-_]/g, "");
  const name = /^[A-Za-z_$]/.test(out) ? out : `_${out}`;
  return JS_RESERVED.has(name) ? `${name}Resource` : name;
}
