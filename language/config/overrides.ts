// Override files (`override.tf.json`, `*_override.tf.json`): Terraform merges each of their
// resource and data blocks into the block of the same address in a primary file, so such a block
// is only part of a body and is not checked on its own (module.ts skips it); one without a
// block to override is an error ("Missing resource to override", at the override's name). So are
// variables, local values, outputs and module calls that no primary file declares.
import { type Ctx } from "./context.js";
import { addressOf } from "./declarations.js";

/** Terraform's words for an override of each kind with nothing to override. */
const MISSING_BASE: Record<string, (name: string) => string> = {
  variable: (name) => `Missing base variable declaration to override: There is no variable named ${JSON.stringify(name)}. An override file can only override a variable that was already declared in a primary configuration file.`,
  output: (name) => `Missing base output definition to override: There is no output named ${JSON.stringify(name)}. An override file can only override an output that was already defined in a primary configuration file.`,
  module: (name) => `Missing module call to override: There is no module call named ${JSON.stringify(name)}. An override file can only override a module call that was defined in a primary configuration file.`,
};

export function checkOverrideBases(ctx: Ctx): void {
  if (!ctx.files.some((f) => f.override)) return;
  const primary = new Set<string>();
  for (const decl of ctx.pending) {
    if ((decl.blockType === "resource" || decl.blockType === "data") && !ctx.files[decl.file]!.override) primary.add(`${decl.blockType}.${decl.type}.${decl.name}`);
  }
  checkOtherOverrides(ctx);
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

function checkOtherOverrides(ctx: Ctx): void {
  const primary = new Set<string>();
  for (const decl of ctx.blocks) if (MISSING_BASE[decl.blockType] && !ctx.files[decl.file]!.override) primary.add(`${decl.blockType}\u0000${addressOf(decl)}`);
  const primaryProviders = new Set<string>();
  for (const decl of ctx.blocks) if (decl.blockType === "provider" && !ctx.files[decl.file]!.override) primaryProviders.add(`${decl.type}\u0000${decl.labelList?.[1] ?? ""}`);
  for (const decl of ctx.blocks) {
    const file = ctx.files[decl.file]!;
    if (!file.override || file.contextOnly) continue;
    if (decl.blockType === "check") {
      ctx.use(decl.file);
      ctx.error("override", "Can't override check blocks: Override files cannot override check blocks.", decl.header, addressOf(decl), null);
      continue;
    }
    const alias = decl.blockType === "provider" ? decl.labelList?.[1] : undefined;
    if (alias !== undefined && !primaryProviders.has(`${decl.type}\u0000${alias}`)) {
      ctx.use(decl.file);
      ctx.error("override", `Missing base provider configuration for override: There is no ${decl.type} provider configuration with the alias ${JSON.stringify(alias)}. An override file can only override an aliased provider configuration that was already defined in a primary configuration file.`, decl.header, null, null);
      continue;
    }
    const wording = MISSING_BASE[decl.blockType];
    if (!wording || primary.has(`${decl.blockType}\u0000${addressOf(decl)}`)) continue;
    ctx.use(decl.file);
    ctx.error("override", wording(decl.name), decl.header, addressOf(decl), null);
  }
  // local values: each name of an override file's locals must be defined in a primary file
  const bodies = ctx.localsBodies;
  const primaryLocals = new Set<string>();
  for (let i = 0; i < bodies.length; i += 2) {
    const file = ctx.files[bodies[i]!]!;
    if (!file.override) for (const k of file.doc!.members(bodies[i + 1]!)) primaryLocals.add(file.doc!.str(k));
  }
  for (let i = 0; i < bodies.length; i += 2) {
    const file = ctx.files[bodies[i]!]!;
    if (!file.override || file.contextOnly) continue;
    ctx.use(bodies[i]!);
    for (const k of file.doc!.members(bodies[i + 1]!)) {
      const name = file.doc!.str(k);
      if (name === "//" || primaryLocals.has(name)) continue;
      ctx.error("override", `Missing base local value definition to override: There is no local value named ${JSON.stringify(name)}. An override file can only override a local value that was already defined in a primary configuration file.`, k, "locals", name);
    }
  }
}
