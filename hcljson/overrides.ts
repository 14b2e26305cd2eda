// Override files (`override.tf.json`, `*_override.tf.json`): Terraform merges each of their
// resource and data blocks into the block of the same address in a primary file, so such a block
// is only part of a body and is not checked on its own (module.ts skips it); one without a
// block to override is an error ("Missing resource to override", at the override's name).
import type { Ctx } from "./context.js";

export function checkOverrideBases(ctx: Ctx): void {
  if (!ctx.files.some((f) => f.override)) return;
  const primary = new Set<string>();
  for (const decl of ctx.pending) {
    if ((decl.blockType === "resource" || decl.blockType === "data") && !ctx.files[decl.file]!.override) primary.add(`${decl.blockType}.${decl.type}.${decl.name}`);
  }
  for (const decl of ctx.pending) {
    const file = ctx.files[decl.file]!;
    if (!file.override || file.contextOnly || (decl.blockType !== "resource" && decl.blockType !== "data")) continue;
    if (primary.has(`${decl.blockType}.${decl.type}.${decl.name}`)) continue;
    ctx.use(decl.file);
    const what = decl.blockType === "resource" ? "resource" : "data resource";
    ctx.error(
      "override",
      `Missing ${what} to override: There is no ${decl.type} ${what} named ${JSON.stringify(decl.name)}. An override file can only override a ${what} block defined in a primary configuration file.`,
      decl.header,
      decl.blockType === "resource" ? `${decl.type}.${decl.name}` : `data.${decl.type}.${decl.name}`,
      null,
    );
  }
}
