// Errors several block kinds report in the same words: a duplicate or unknown argument, an
// unnormalised provider name, an expression where a static reference is required.
import { Ctx, quote, sourcePosition } from "./context.js";
import { suggest } from "../syntax/suggest.js";

/** A provider local name that is not in normal (lower-case) form, in a provider block or required_providers. */
export function invalidLocalName(ctx: Ctx, name: string, node: number): void {
  ctx.error("invalid-name", `Invalid provider local name: Provider names must be normalized. Replace ${quote(name)} with ${quote(name.toLowerCase())} to fix this error.`, node, null, null);
}

/** "main.tf.json:9,13" for "was already set at …" */
export function where(ctx: Ctx, node: number): string {
  const p = sourcePosition(ctx.files, ctx.fileIndex, ctx.doc.start(node));
  return `${p.name}:${p.line},${p.column}`;
}

export function duplicateArgument(ctx: Ctx, name: string, key: number, first: number, address: string | null, path: string | null): void {
  ctx.errorAtProperty("duplicate-argument", `Duplicate argument: The argument ${quote(name)} was already set at ${where(ctx, first)}. Each argument may be set only once.`, key, address, path);
}

export function unknownName(ctx: Ctx, name: string, key: number, candidates: Iterable<string>, address: string | null, path: string | null): void {
  const hint = suggest(name, candidates);
  ctx.error("unknown-argument", `Extraneous JSON object property: No argument or block type is named ${quote(name)}.${hint ? ` Did you mean "${hint}"?` : ""}`, key, address, path);
}

export const STATIC_REF_DETAIL =
  "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.";

export function invalidExpression(ctx: Ctx, node: number, address: string | null, path: string | null, detail = STATIC_REF_DETAIL): void {
  ctx.error("reference-only", `Invalid expression: ${detail}`, node, address, path);
}
