// Where Terraform shows a provider's finding about a nested attribute path in a native file. It
// follows the path only through nested blocks (the inside of an object-typed argument cannot be
// reached in native syntax, where the JSON syntax's objects can be read as blocks); the last name
// is then looked up among the arguments of the body it reached: its value when there is one, else
// that body's opening brace (hcl's "missing item" range). A path of one name needs none of this.
import type { Ctx } from "../config/context.js";
import type { BlockDecl } from "../config/declarations.js";
import { K_ARRAY, K_OBJECT } from "../syntax/json-parser.js";

export function nativeFindingLocation(ctx: Ctx, decl: BlockDecl, path: (string | number)[]): { start: number; end: number } | null {
  const native = ctx.files[decl.file]!.native;
  if (!native) return null;
  const steps = typeof path[path.length - 1] === "number" ? path.slice(0, -1) : path;
  if (steps.length <= 1) return null;
  const doc = ctx.doc;
  let body = decl.body;
  walk: for (let i = 0; i < steps.length - 1; i++) {
    const name = steps[i];
    if (typeof name !== "string") break;
    const index = typeof steps[i + 1] === "number" ? (steps[i + 1] as number) : null;
    if (index !== null) i++;
    const blocks: number[] = [];
    for (const m of doc.members(body)) {
      if (doc.str(m) !== name) continue;
      // an argument of that name: hcl refuses to read it as a block and stops here
      if (!native.blockKeys.has(doc.start(m))) break walk;
      const v = m + 1;
      if (doc.kinds[v] === K_ARRAY) for (const e of doc.elements(v)) blocks.push(e);
      else blocks.push(v);
    }
    if (blocks.length === 0) continue;
    const next = index === null ? (blocks.length === 1 ? blocks[0] : undefined) : blocks[index];
    if (next === undefined || doc.kinds[next] !== K_OBJECT) break;
    body = next;
  }
  const last = steps[steps.length - 1];
  for (const m of doc.members(body)) {
    if (doc.str(m) === last && !native.blockKeys.has(doc.start(m))) return { start: doc.start(m + 1), end: doc.end(m + 1) };
  }
  const brace = doc.start(body);
  return { start: brace, end: brace };
}
