// Where Terraform shows a provider's finding about a nested attribute path in a native file,
// following Terraform's own reading of the path (tfdiags' ElaborateFromConfigBody). The provider
// sends names as attribute steps and, inside a list or map, indexes and keys as index steps (a
// set stops the path: provider/framework/diagnostics.ts). A final index is set aside; the path
// before the last name is followed only through nested blocks (the inside of an object-typed
// argument cannot be reached in native syntax, where the JSON syntax's objects can be read as
// blocks); the last name is then looked up among the arguments of the body it reached: its
// value when there is one (narrowed to the element or key a final index names, where the value
// is a list or object written out), else that body's opening brace (hcl's "missing item"
// range). A path of one name needs none of this.
import type { Ctx } from "../config/context.js";
import type { BlockDecl } from "../config/declarations.js";
import { K_ARRAY, K_OBJECT } from "../syntax/json-parser.js";
import type { BlockModel, CtyType } from "./model-types.js";

type Step = { attr: string } | { index: string | number };

export function nativeFindingLocation(ctx: Ctx, decl: BlockDecl, path: (string | number)[], block?: BlockModel): { start: number; end: number } | null {
  const native = ctx.files[decl.file]!.native;
  if (!native) return null;
  const all = providerSteps(path, block);
  const lastStep = all[all.length - 1];
  const index = lastStep !== undefined && "index" in lastStep ? lastStep.index : null;
  const steps = index !== null ? all.slice(0, -1) : all;
  if (steps.length <= 1 && index === null) return null;
  const final = steps[steps.length - 1];
  if (final === undefined || !("attr" in final)) return null;
  const doc = ctx.doc;
  let body = decl.body;
  walk: for (let i = 0; i < steps.length - 1; i++) {
    const step = steps[i]!;
    if (!("attr" in step)) break;
    const next = steps[i + 1];
    const position = next !== undefined && "index" in next ? next.index : null;
    if (position !== null) i++;
    const blocks: number[] = [];
    for (const m of doc.members(body)) {
      if (doc.str(m) !== step.attr) continue;
      // an argument of that name: hcl refuses to read it as a block and stops here
      if (!native.blockKeys.has(doc.start(m))) break walk;
      const v = m + 1;
      if (doc.kinds[v] === K_ARRAY) for (const e of doc.elements(v)) blocks.push(e);
      else blocks.push(v);
    }
    if (blocks.length === 0) continue;
    const reached = position === null ? (blocks.length === 1 ? blocks[0] : undefined) : typeof position === "number" ? blocks[position] : undefined;
    if (reached === undefined || doc.kinds[reached] !== K_OBJECT) break;
    body = reached;
  }
  for (const m of doc.members(body)) {
    if (doc.str(m) !== final.attr || native.blockKeys.has(doc.start(m))) continue;
    const value = m + 1;
    if (index === null) return { start: doc.start(value), end: doc.end(value) };
    return indexedRange(ctx, m, index);
  }
  const brace = doc.start(body);
  return { start: brace, end: brace };
}

/**
 * The part of an argument's value a final index names: a written-out list's element, a
 * written-out object's key; the whole value when it is another expression; the argument's name
 * when the element or key is not there.
 */
function indexedRange(ctx: Ctx, key: number, index: string | number): { start: number; end: number } {
  const doc = ctx.doc;
  const value = key + 1;
  if (typeof index === "number") {
    if (doc.kinds[value] !== K_ARRAY) return { start: doc.start(value), end: doc.end(value) };
    const element = doc.elements(value)[index];
    return element === undefined ? { start: doc.start(key), end: doc.end(key) } : { start: doc.start(element), end: doc.end(element) };
  }
  if (doc.kinds[value] !== K_OBJECT) return { start: doc.start(value), end: doc.end(value) };
  for (const m of doc.members(value)) if (doc.str(m) === index) return { start: doc.start(m), end: doc.end(m) };
  return { start: doc.start(key), end: doc.end(key) };
}

/**
 * A body path as the provider sends it: names are attribute steps, and inside a list or a map
 * the next step is an index (a number, or a map's key); a set stops the path. Without the
 * schema, every name is an attribute step and every number an index.
 */
function providerSteps(path: (string | number)[], block: BlockModel | undefined): Step[] {
  const steps: Step[] = [];
  let current: BlockModel | undefined = block;
  let type: CtyType | undefined;
  let inside: "body" | "list" | "map" | "object" | "opaque" = "body";
  for (const part of path) {
    if (inside === "list" || inside === "map") {
      steps.push({ index: part });
      inside = type === undefined ? (current ? "body" : "opaque") : kindOf(type);
      continue;
    }
    if (typeof part === "number") {
      steps.push({ index: part });
      continue;
    }
    steps.push({ attr: part });
    if (inside === "opaque") continue;
    if (inside === "object") {
      const attributes = Array.isArray(type) && type[0] === "object" ? type[1] : undefined;
      type = attributes?.[part];
      if (type === undefined) inside = "opaque";
      else if (enter(type) === "set") return steps;
      else [inside, type] = enter(type) === "object" ? ["object", type] : [collectionOf(type), elementOf(type)];
      continue;
    }
    const attribute = current?.attributes[part];
    const nested = current?.blocks[part];
    if (attribute) {
      current = undefined;
      if (enter(attribute.type) === "set") return steps;
      if (enter(attribute.type) === "object") [inside, type] = ["object", attribute.type];
      else [inside, type] = [collectionOf(attribute.type), elementOf(attribute.type)];
    } else if (nested) {
      if (nested.nesting === "set") return steps;
      current = nested.block;
      type = undefined;
      inside = nested.nesting === "list" ? "list" : "body";
    } else inside = "opaque";
  }
  return steps;
}

function enter(type: CtyType): "set" | "object" | "other" {
  if (!Array.isArray(type)) return "other";
  return type[0] === "set" ? "set" : type[0] === "object" ? "object" : "other";
}

function collectionOf(type: CtyType): "list" | "map" | "opaque" {
  return Array.isArray(type) && (type[0] === "list" || type[0] === "map") ? type[0] : "opaque";
}

function elementOf(type: CtyType): CtyType | undefined {
  return Array.isArray(type) && type[0] !== "object" ? type[1] : undefined;
}

function kindOf(type: CtyType): "list" | "map" | "object" | "opaque" {
  if (Array.isArray(type) && type[0] === "object") return "object";
  return collectionOf(type);
}
