// The names locals blocks declare (across the module's files; an override file's replace the
// primary ones). Their values are checked once every name is known (root.ts).
import { Ctx, quote } from "./context.js";
import { isName } from "./block-shapes.js";

const localsSeen = new WeakMap<Ctx, Map<string, { file: number; key: number }>>();

/** The local values a module declares, by name. */
export function declaredLocals(ctx: Ctx): ReadonlyMap<string, unknown> {
  return localsSeen.get(ctx) ?? new Map();
}

/** The definition of a local value that counts: an override file's replaces the primary one (whose expression is then never evaluated). */
export function localDefinition(ctx: Ctx, name: string): { file: number; key: number } | undefined {
  return localsSeen.get(ctx)?.get(name);
}

/** The names of a locals block; its values are checked later (checkDeclaredBodies). */
export function declareLocals(ctx: Ctx, body: number): void {
  const doc = ctx.doc;
  let seen = localsSeen.get(ctx);
  if (!seen) localsSeen.set(ctx, (seen = new Map()));
  for (const k of doc.members(body)) {
    const name = doc.str(k);
    if (name === "//") continue;
    const first = seen.get(name);
    // an override file's local value replaces the primary one (overrides.ts checks there is one)
    if (first && !ctx.files[first.file]!.override && !ctx.files[ctx.fileIndex]!.override) {
      const file = ctx.files[first.file]!;
      const p = file.lines.position(file.doc!.start(first.key));
      ctx.error("duplicate-local", `Duplicate local value definition: A local value named ${quote(name)} was already defined at ${file.name}:${p.line},${p.column}. Local value names must be unique within a module.`, k, "locals", name);
    } else if (!first || !ctx.files[first.file]!.override || ctx.files[ctx.fileIndex]!.override) seen.set(name, { file: ctx.fileIndex, key: k });
    if (!isName(name)) ctx.error("invalid-name", `Invalid local value name: ${quote(name)} is not a valid name; a name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.`, k, "locals", null);
  }
  ctx.localsBodies.push(ctx.fileIndex, body);
}
