// A converted body validated by our generated validators, and each issue they find mapped back
// to the node it is about (locate): the value, the closing brace of the object that lacks a
// required argument, the template a value came from.
import { joinPath, quote, type Ctx } from "../config/context.js";
import { type Issue, type TypeModel } from "./model-types.js";
import { addressOf } from "../config/declarations.js";
import { describeInside } from "./convert.js";
import { presentNull, locate, locateMissing, insideTemplate, closingBraceIfAbsent, attributeHolding } from "./locate.js";
import { type ConvertState, type TypeSource } from "./convert-state.js";
import { nativeFindingLocation } from "./native-finding.js";
import { K_OBJECT } from "../syntax/json-parser.js";

function formatIssuePath(path: (string | number)[]): string {
  let out: string | null = null;
  for (const segment of path) out = joinPath(out, segment);
  return out ?? "";
}

export function validateCanonical(ctx: Ctx, st: ConvertState, model: TypeModel, body: Record<string, unknown>, types: TypeSource): void {
  const key = model.key;
  if (types.check && !st.deprecated && types.check(key, body)) return;
  let issues: Issue[];
  try {
    issues = types.validate(key, body);
  } catch (error) {
    ctx.error("internal", `Internal error while validating ${model.key}: ${(error as Error).message}`, st.decl.header, addressOf(st.decl), null);
    return;
  }
  for (const issue of issues) {
    const path = formatIssuePath(issue.path);
    if (isCovered(st, path)) continue;
    let loc: { start: number; end: number } | null;
    let message = issue.message;
    const within = issue.missing ? attributeHolding(model.block, issue.path) : null;
    const nullValue = issue.missing ? presentNull(ctx, st.decl, model.block, issue.path) : -1;
    if (st.dynamicBlocks !== null && !issue.missing && st.dynamicBlocks.some((d) => path.startsWith(`${d}.`) || path.startsWith(`${d}[`))) {
      // inside a block a dynamic block generated: Terraform cannot point into the generated
      // content and reports the provider's finding at the end of the resource's body
      const close = ctx.doc.end(st.decl.body) - 1;
      loc = { start: close, end: close + 1 };
    } else if (nullValue >= 0) {
      // set, but to null: core accepts it and our provider's validator reports it, at the null
      loc = nativeFindingLocation(ctx, st.decl, issue.path, model.block) ?? { start: ctx.doc.start(nullValue), end: ctx.doc.end(nullValue) };
    } else if (within !== null) {
      // inside an attribute's value: Terraform reports it at the value, as a conversion error
      const attributePath = issue.path.slice(0, within.depth + 1);
      const found = locate(ctx, st.decl, model.block, attributePath);
      loc = found.node >= 0 ? { start: ctx.doc.start(found.node + 1), end: ctx.doc.end(found.node + 1) } : found;
      const inner = issue.path.slice(within.depth + 1);
      message = `Incorrect attribute value type: Inappropriate value for attribute ${quote(String(issue.path[within.depth]))}: ${describeInside(within.type, inner.slice(0, -1))}attribute ${quote(String(inner[inner.length - 1]))} is required.`;
    } else if (issue.missing) {
      loc = locateMissing(ctx, st.decl, model.block, issue.path);
      message = missingMessage(issue.path);
    } else if (addedByOverride(ctx, st, model, issue.path)) {
      // Terraform finds a provider's finding by the argument's name in the primary block, which
      // lacks one an override file added: it points at the end of the primary block's body
      const close = ctx.doc.end(st.decl.body) - 1;
      loc = { start: close, end: close + 1 };
    } else if ((loc = nestedObjectEnd(ctx, st, model, issue.path)) !== null) {
      // Terraform walks a nested object as a block body and looks the last name up inside it: not
      // there, it points at that body's end
    } else loc = nativeFindingLocation(ctx, st.decl, issue.path, model.block) ?? insideTemplate(ctx, st.decl, model.block, issue.path) ?? closingBraceIfAbsent(ctx, st.decl, model.block, issue.path) ?? locate(ctx, st.decl, model.block, issue.path);
    const code = issue.severity === "warning" ? "deprecated" : "schema";
    ctx.report(issue.severity, code, message, loc.start, loc.end, addressOf(st.decl), path === "" ? null : path);
  }
}

/** The closing brace of a nested attribute's object value a path (deeper than one name) ends at, or null. */
function nestedObjectEnd(ctx: Ctx, st: ConvertState, model: TypeModel, path: (string | number)[]): { start: number; end: number } | null {
  if (path.length < 2 || typeof path[path.length - 1] !== "string" || ctx.files[ctx.fileIndex]!.native !== undefined) return null;
  const found = locate(ctx, st.decl, model.block, path);
  if (found.node < 0 || ctx.doc.kinds[found.node + 1] !== K_OBJECT) return null;
  const close = ctx.doc.end(found.node + 1) - 1;
  return { start: close, end: close + 1 };
}

/** Whether a top-level argument's path names one an override file added to the block (load/merge-overrides.ts). */
function addedByOverride(ctx: Ctx, st: ConvertState, model: TypeModel, path: (string | number)[]): boolean {
  const added = ctx.files[ctx.fileIndex]!.addedKeys;
  if (added === undefined || added.size === 0 || path.length !== 1 || typeof path[0] !== "string") return false;
  const found = locate(ctx, st.decl, model.block, path);
  return found.node >= 0 && added.has(ctx.doc.start(found.node));
}

function isCovered(st: ConvertState, path: string): boolean {
  if (st.dynamicBlocks !== null && st.dynamicBlocks.includes(path)) return true;
  if (st.reported === null) return false;
  for (const reported of st.reported) {
    if (path === reported || path.startsWith(`${reported}.`) || path.startsWith(`${reported}[`)) return true;
  }
  return false;
}

/** Terraform's words for an absent required argument (our schemas require no nested block). */
function missingMessage(path: (string | number)[]): string {
  return `Missing required argument: The argument ${quote(String(path[path.length - 1]))} is required, but no definition was found.`;
}
