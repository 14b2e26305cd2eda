// check blocks: asserts, and at most one scoped data source (no count or for_each), which only
// the check itself sees.
import { Ctx, quote } from "./context.js";
import { type BlockDecl, type BlockVisitor, addressOf, newBlockDecl } from "./declarations.js";
import { forEachInstance, walkLabels, checkLabel } from "./block-shapes.js";
import { checkBody, conditionRefers } from "./bodies.js";
import { CONDITION } from "./body-specs.js";
import { K_OBJECT } from "../syntax/json-parser.js";
import { unknownName } from "./common-errors.js";

export function checkCheck(ctx: Ctx, decl: BlockDecl, visitor: BlockVisitor): void {
  const doc = ctx.doc;
  let asserts = 0;
  let datas = 0;
  for (const k of doc.members(decl.body)) {
    const name = doc.str(k);
    if (name === "//") continue;
    if (name === "assert") {
      forEachInstance(ctx, k + 1, "assert", addressOf(decl), "assert", (body) => {
        // an assert whose condition refers to nothing is dropped (and reported by checkBody)
        const conditionKey = checkBody(ctx, body, CONDITION, addressOf(decl), "assert", k).get("condition");
        if (conditionKey === undefined || conditionRefers(ctx, conditionKey)) asserts++;
      });
    } else if (name === "data") {
      walkLabels(ctx, k + 1, "data", 2, [], k, (prefix, last, header, body) => {
        datas++;
        if (datas > 1) {
          ctx.error("duplicate-block", "Multiple data resource blocks: A check block may contain at most one nested data block.", header, addressOf(decl), null);
          return;
        }
        const scoped = newBlockDecl("data", prefix[0]!, last, null, ctx.fileIndex, header, body, `${addressOf(decl)}.data.${prefix[0]}.${last}`, true);
        checkLabel(ctx, scoped, 0, prefix[0]!);
        checkLabel(ctx, scoped, 1, last);
        // one data source, one instance: a scoped data source cannot repeat
        if (ctx.doc.kinds[body] === K_OBJECT) {
          for (const m of ctx.doc.members(body)) {
            const meta = ctx.doc.str(m);
            if (meta === "count" || meta === "for_each") ctx.error("check-data", `Invalid ${quote(meta)} attribute: The "count" and "for_each" meta-arguments are not supported within nested data blocks.`, m, addressOf(scoped), meta);
            // its lifecycle is the check's
            if (meta === "lifecycle") ctx.error("check-data", 'Invalid lifecycle block: Nested data blocks do not support "lifecycle" blocks as the lifecycle is managed by the containing block.', m, addressOf(scoped), meta);
          }
        }
        visitor.resource(scoped);
      });
    } else {
      unknownName(ctx, name, k, ["assert", "data"], addressOf(decl), name);
    }
  }
  if (asserts === 0) ctx.error("missing-argument", "Zero assert blocks: Check blocks must have at least one assert block.", decl.header, addressOf(decl), null);
}
