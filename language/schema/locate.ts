// Where in the source a path of a converted body is (locate): the value at the path, the closing
// brace of the object that lacks it, the null that stands for it, or the template it came from.
import { type Ctx } from "../config/context.js";
import { type AttributeModel, type BlockModel, type CtyType } from "./model-types.js";
import { K_ARRAY, K_NULL, K_OBJECT } from "../syntax/json-parser.js";
import { analyzeTemplate, hasTemplate } from "../expr/templates.js";
import { templateKnownValue } from "../config/known-values.js";
import { type BlockDecl } from "../config/declarations.js";

/**
 * Where an absent required argument is reported: the closing brace of the body that lacks it, as
 * Terraform reports it (on a pretty-printed file, a different line from the block's name).
 */
export function locateMissing(ctx: Ctx, decl: BlockDecl, block: BlockModel, path: (string | number)[]): { start: number; end: number } {
  const holder = path.length > 1 ? locate(ctx, decl, block, path.slice(0, -1)) : { start: ctx.doc.start(decl.body), end: ctx.doc.end(decl.body) };
  // a block given as null (an element of an array of blocks) has no brace: Terraform points at the null
  if (ctx.files[ctx.fileIndex]!.text.charCodeAt(holder.end - 1) !== 125) return { start: holder.start, end: holder.end };
  return { start: holder.end - 1, end: holder.end };
}

/** The null value an issue path names when it is set to null in the source (-1 when it is absent or not null). */
export function presentNull(ctx: Ctx, decl: BlockDecl, block: BlockModel, path: (string | number)[]): number {
  const found = locate(ctx, decl, block, path);
  if (found.node < 0 || found.node === locate(ctx, decl, block, path.slice(0, -1)).node) return -1;
  const value = found.node + 1;
  if (ctx.doc.kinds[value] === K_NULL) return value;
  // a template whose known value is null (a local value set to null) is set to null too
  if (ctx.doc.isString(value)) {
    const s = ctx.doc.str(value);
    if (hasTemplate(s) && templateKnownValue(ctx, analyzeTemplate(s)) === null) return value;
  }
  return -1;
}

/**
 * A rule over a field that is absent (a cross-field rule naming what is missing): Terraform
 * points at the closing brace of the object that lacks it. Null when the field is there.
 */
export function closingBraceIfAbsent(ctx: Ctx, decl: BlockDecl, block: BlockModel, path: (string | number)[]): { start: number; end: number } | null {
  if (path.length === 0 || typeof path[path.length - 1] === "number") return null;
  const doc = ctx.doc;
  const parentPath = path.slice(0, -1);
  const parent = parentPath.length === 0 ? null : locate(ctx, decl, block, parentPath);
  if (parent !== null && parent.node < 0) return null;
  if (locate(ctx, decl, block, path).node !== (parent?.node ?? -1)) return null; // present
  const object = parent === null ? decl.body : parent.node + 1;
  if (doc.kinds[object] !== K_OBJECT) return null;
  const end = doc.end(object);
  return { start: end - 1, end };
}

/**
 * A path into the value of an attribute set by a template (credentials.type of
 * "credentials": "${local.creds}"): Terraform cannot point inside an expression and reports the
 * closing brace of the body holding the attribute.
 */
export function insideTemplate(ctx: Ctx, decl: BlockDecl, block: BlockModel, path: (string | number)[]): { start: number; end: number } | null {
  const within = attributeHolding(block, path);
  if (within === null) return null;
  // an element or key of a list, set or map of primitives is Terraform's index step: it points at the attribute
  if (Array.isArray(within.type) && within.type[0] !== "object" && typeof within.type[1] === "string") return null;
  const attribute = path.slice(0, within.depth + 1);
  const found = locate(ctx, decl, block, attribute);
  if (found.node < 0 || !ctx.doc.isString(found.node + 1) || !hasTemplate(ctx.doc.str(found.node + 1))) return null;
  return locateMissing(ctx, decl, block, attribute);
}

/**
 * The source range of an issue path inside a block: the property (name to value) it names, the
 * element it indexes, or the nearest enclosing one that exists (e.g. for a missing argument, the
 * block that lacks it).
 */
export function locate(ctx: Ctx, decl: BlockDecl, block: BlockModel, path: (string | number)[]): { start: number; end: number; node: number } {
  const doc = ctx.doc;
  let best = { start: doc.start(decl.header), end: doc.end(decl.header), node: -1 };
  // the objects a name is looked up in (several: duplicate blocks, "_" escapes)
  let objects: number[] = [decl.body];
  for (const m of doc.members(decl.body)) if (doc.str(m) === "_" && doc.kinds[m + 1] === K_OBJECT) objects.push(m + 1);
  let candidates: number[] = [];
  // the schema under the path so far, and whether its last name is an attribute of a plain
  // collection type (not nested attributes): Terraform names such an attribute's elements at the
  // attribute, and steps into the elements of nested attributes and blocks
  let model: BlockModel | undefined = block;
  let plainAttribute = false;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    if (typeof segment === "number") {
      if (plainAttribute) return best;
      const target = candidates[segment];
      if (target === undefined) return best;
      best = { start: doc.start(target), end: doc.end(target), node: -1 };
      objects = doc.kinds[target] === K_OBJECT ? [target] : [];
      candidates = doc.kinds[target] === K_ARRAY ? doc.elements(target) : [];
      continue;
    }
    // instances in source order: static blocks and dynamic blocks' contents as they appear
    let found = -1;
    const instances: number[] = [];
    for (const object of objects) {
      for (const m of doc.members(object)) {
        const name = doc.str(m);
        if (name === segment) {
          if (found < 0) found = m;
          const v = m + 1;
          // not spread into push(): an array of 100,000+ elements overflows the stack
          if (doc.kinds[v] === K_ARRAY) for (const e of doc.elements(v)) instances.push(e);
          else instances.push(v);
        } else if (name === "dynamic" && doc.kinds[m + 1] === K_OBJECT) {
          for (const t of doc.members(m + 1)) {
            if (doc.str(t) !== segment) continue;
            const bodies = doc.kinds[t + 1] === K_ARRAY ? doc.elements(t + 1) : [t + 1];
            for (const b of bodies) {
              if (doc.kinds[b] !== K_OBJECT) continue;
              for (const c of doc.members(b)) if (doc.str(c) === "content" && doc.kinds[c + 1] === K_OBJECT) instances.push(c + 1);
              if (found < 0) found = t;
            }
          }
        }
      }
    }
    if (found < 0) return best;
    best = { start: doc.start(found), end: doc.end(found + 1), node: found };
    const attribute: AttributeModel | undefined = model && Object.prototype.hasOwnProperty.call(model.attributes, segment) ? model.attributes[segment] : undefined;
    plainAttribute = attribute !== undefined && attribute.nested === undefined;
    model = attribute ? attribute.nested?.block : model?.blocks[segment]?.block;
    // a null element of a nested attribute's list is an element (Terraform points at the null);
    // a block given as null is no block
    candidates = attribute?.nested ? instances : instances.filter((n) => doc.kinds[n] !== K_NULL);
    if (candidates.length === 1 && doc.kinds[candidates[0]!] === K_ARRAY) candidates = doc.elements(candidates[0]!);
    objects = candidates.filter((n) => doc.kinds[n] === K_OBJECT);
  }
  return best;
}

/** The attribute (not a nested block) a path goes into before its last segment: its index in the path and its type. */
export function attributeHolding(block: BlockModel, path: (string | number)[]): { depth: number; type: CtyType } | null {
  let at: BlockModel | undefined = block;
  for (let i = 0; i < path.length - 1 && at !== undefined; i++) {
    const segment = path[i]!;
    if (typeof segment === "number") continue;
    const attribute = Object.prototype.hasOwnProperty.call(at.attributes, segment) ? at.attributes[segment] : undefined;
    if (attribute !== undefined) return { depth: i, type: attribute.type };
    at = at.blocks[segment]?.block;
  }
  return null;
}
