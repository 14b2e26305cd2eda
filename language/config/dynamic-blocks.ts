// dynamic blocks' own arguments (for_each, iterator, labels) and their one content block.
import { DYNAMIC } from "./body-specs.js";
import { joinPath, type Ctx } from "./context.js";
import { K_FALSE, K_NUMBER, K_TRUE } from "../syntax/json-parser.js";
import { hasTemplate } from "../expr/templates.js";
import { withIterator } from "./scope.js";
import { forEachInstance } from "./block-shapes.js";
import { unknownName, duplicateArgument } from "./common-errors.js";
import { checkAttribute } from "./arguments.js";

/** The body of one `dynamic "<target>"` block: for_each, iterator, labels, content. `labels` only where the target block has labels (none of ours has). */
export function checkDynamicBody(ctx: Ctx, body: number, target: string, address: string, header: number, content: (body: number) => void, labelled = true): void {
  // the content refers to the current element by the iterator's name (the block type by default)
  let iterator = target;
  for (const k of ctx.doc.members(body)) if (ctx.doc.str(k) === "iterator" && ctx.doc.isString(k + 1)) iterator = ctx.doc.str(k + 1);
  withIterator(iterator, () => checkDynamicMembers(ctx, body, target, address, header, content, labelled));
}

function checkDynamicMembers(ctx: Ctx, body: number, target: string, address: string, header: number, content: (body: number) => void, labelled: boolean): void {
  const doc = ctx.doc;
  let contents = 0;
  const path = `dynamic.${target}`;
  // checkBody would reject "content": handle it here and the rest with the spec
  const seen = new Map<string, number>();
  for (const k of doc.members(body)) {
    const name = doc.str(k);
    if (name === "//") continue;
    if (name === "content") {
      forEachInstance(ctx, k + 1, "content", address, `${path}.content`, (c) => {
        contents++;
        if (contents > 1) ctx.error("duplicate-block", `Duplicate content block: A dynamic block may have only one "content" block.`, c, address, `${path}.content`);
        else content(c);
      });
      continue;
    }
    const attr = name === "labels" && !labelled ? undefined : DYNAMIC.attrs.get(name);
    if (!attr) {
      unknownName(ctx, name, k, labelled ? ["for_each", "iterator", "labels", "content"] : ["for_each", "iterator", "content"], address, joinPath(path, name));
      continue;
    }
    const first = seen.get(name);
    if (first !== undefined) {
      duplicateArgument(ctx, name, k, first, address, joinPath(path, name));
      continue;
    }
    seen.set(name, k);
    checkAttribute(ctx, k + 1, attr.kind, name, address, joinPath(path, name));
  }
  // both at the closing brace of the dynamic block's body, as Terraform reports them
  const close = doc.end(body) - 1;
  if (!seen.has("for_each")) ctx.report("error", "missing-argument", 'Missing required argument: The argument "for_each" is required, but no definition was found.', close, close + 1, address, `${path}.for_each`);
  else if (doc.isNull(seen.get("for_each")! + 1)) ctx.error("for-each", "Invalid dynamic for_each value: Cannot use a null value in for_each.", seen.get("for_each")! + 1, address, `${path}.for_each`);
  else {
    // a literal string, number or bool is no collection to iterate
    const value = seen.get("for_each")! + 1;
    const kind = doc.kinds[value];
    const primitive = kind === K_NUMBER ? "number" : kind === K_TRUE || kind === K_FALSE ? "bool" : doc.isString(value) && !hasTemplate(doc.str(value)) ? "string" : null;
    if (primitive !== null) ctx.error("for-each", `Invalid dynamic for_each value: Cannot use a ${primitive} value in for_each. An iterable collection is required.`, value, address, `${path}.for_each`);
  }
  if (contents === 0) {
    ctx.report("error", "missing-argument", 'Missing dynamic content block: A dynamic block must have a nested block of type "content" to describe the body of each generated block.', close, close + 1, address, `${path}.content`);
  }
}

/** The rule of a problem found in a value Terraform does not evaluate at validate (syntax/diagnostics.ts: a schemaform-only one). */
export const UNEXPANDED_CODE = "unexpanded-dynamic";

/**
 * A dynamic block whose for_each is unknown at validate generates one block of unknown values:
 * Terraform checks the content's names, but evaluates its values (and reads the templates of a
 * JSON file: their syntax, references and function calls) only once for_each is known, at plan.
 * What we found inside such a value is kept, as ours: its rule becomes UNEXPANDED_CODE.
 */
export function deferUnexpandedContent(ctx: Ctx): void {
  const ranges = ctx.unexpandedValues;
  if (ranges.length === 0) return;
  for (const d of ctx.diagnostics) {
    for (let i = 0; i < ranges.length; i += 3) {
      if (d.file === ranges[i] && d.start >= ranges[i + 1]! && d.start < ranges[i + 2]!) {
        d.code = UNEXPANDED_CODE;
        break;
      }
    }
  }
}
