// A block body read against its specification (body-specs.ts): duplicate and unknown arguments,
// nested blocks and their labels, required arguments, conditions that refer to something; and the
// bodies we know nothing about, whose values are only expressions.
import { Ctx, joinPath, quote, type FoundReference, repetitionOf } from "./context.js";
import { type BlockSpec, type BodySpec } from "./body-specs.js";
import { scope, judgeRepetition } from "./scope.js";
import { duplicateArgument, where, unknownName } from "./common-errors.js";
import { checkAttribute } from "./arguments.js";
import { walkNestedLabels, forEachInstance } from "./block-shapes.js";
import { type Reference } from "../expr/syntax-tree.js";
import { K_OBJECT, K_ARRAY, K_STRING } from "../syntax/json-parser.js";
import { hasTemplate, analyzeTemplate } from "../expr/templates.js";
import { LITERAL_WORDS, checkExpression, checkString } from "./expression-check.js";
import { type BlockDecl } from "./declarations.js";

/** Checks a body against a spec; returns the property-name node of each attribute set. */
const NOTHING_SEEN: ReadonlyMap<string, number> = new Map();

export function checkBody(ctx: Ctx, body: number, s: BodySpec, address: string | null, base: string | null, header: number): ReadonlyMap<string, number> {
  if ((s.allowsSelf && !scope.selfAllowed) || (s.isCondition && !scope.inCondition)) {
    const outer = [scope.selfAllowed, scope.inCondition];
    scope.selfAllowed ||= s.allowsSelf === true;
    scope.inCondition ||= s.isCondition === true;
    try {
      return checkBody(ctx, body, s, address, base, header);
    } finally {
      [scope.selfAllowed, scope.inCondition] = outer as [boolean, boolean];
    }
  }
  const doc = ctx.doc;
  let seen: Map<string, number> | null = null;
  let singles: Map<string, number> | null = null;
  const end = doc.nexts[body]!;
  for (let k = body + 1; k < end; k = doc.nexts[k + 1]!) {
    const name = doc.str(k);
    if (name === "//") continue;
    const path = base === null ? name : joinPath(base, name);
    const attr = s.attrs.get(name);
    if (attr || (s.other === "expr" && !s.blocks.has(name))) {
      seen ??= new Map();
      const first = seen.get(name);
      if (first !== undefined) {
        duplicateArgument(ctx, name, k, first, address, path);
        continue;
      }
      seen.set(name, k);
      checkAttribute(ctx, k + 1, attr?.kind ?? "expr", name, address, path);
      continue;
    }
    const block = s.blocks.get(name);
    if (block) {
      singles = checkNestedBlocks(ctx, k, name, block, address, path, singles);
      continue;
    }
    unknownName(ctx, name, k, [...s.attrs.keys(), ...s.blocks.keys()], address, path);
  }
  for (const [name, attr] of s.attrs) {
    if (attr.required && (seen === null || !seen.has(name))) {
      // Terraform points at the closing brace of the body that lacks it
      const close = doc.end(body) - 1;
      ctx.report("error", "missing-argument", `Missing required argument: The argument ${quote(name)} is required, but no definition was found.`, close, close + 1, address, joinPath(base, name));
    }
  }
  if (s.isCondition && seen !== null) checkConditionRefers(ctx, seen, address, base);
  return seen ?? NOTHING_SEEN;
}

/**
 * The blocks of one nested-block member (`k`) of a body; returns the single blocks seen so far in
 * that body (`singles`, made here when first needed). Apart from checkBody: the closure would
 * make V8 allocate a context on every call of checkBody and every member.
 */
function checkNestedBlocks(ctx: Ctx, k: number, name: string, block: BlockSpec, address: string | null, path: string, singles: Map<string, number> | null): Map<string, number> | null {
  const each = (instance: number) => {
    if (block.single) {
      singles ??= new Map();
      const first = singles.get(name);
      if (first !== undefined) {
        ctx.error("duplicate-block", `Duplicate ${name} block: Only one "${name}" block is allowed here; another was defined at ${where(ctx, first)}.`, instance, address, path);
        return;
      }
      singles.set(name, instance);
    }
    if (block.body === "literal") return;
    checkBody(ctx, instance, block.body, address, path, k);
  };
  if (block.labels > 0) walkNestedLabels(ctx, k + 1, name, block.labels, address, path, each);
  else forEachInstance(ctx, k + 1, name, address, path, each);
  return singles;
}

/**
 * Terraform refuses a condition that refers to nothing (its result could never change), and a
 * variable's validation condition that does not refer to the variable itself.
 */
function checkConditionRefers(ctx: Ctx, seen: ReadonlyMap<string, number>, address: string | null, base: string | null): void {
  const key = seen.get("condition");
  if (key === undefined) return;
  const roots = referencedRoots(ctx, key + 1);
  const blockName = base === null ? "condition" : base.slice(base.lastIndexOf(".") + 1);
  const path = joinPath(base, "condition");
  if (roots.length === 0) {
    ctx.error("condition-reference", `Invalid ${blockName} expression: The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.`, key + 1, address, path);
  }
  if (blockName === "validation" && address !== null && address.startsWith("var.")) {
    const variable = address.slice(4);
    if (!roots.some((r) => r.root === "var" && r.steps[0]?.kind === "attr" && r.steps[0].name === variable)) {
      ctx.error("condition-reference", `Invalid variable validation condition: The condition for variable ${quote(variable)} must refer to var.${variable} in order to test incoming values.`, key + 1, address, path);
    }
  }
}

/** Whether a condition (the value after its property name `key`) refers to anything. */
export function conditionRefers(ctx: Ctx, key: number): boolean {
  return referencedRoots(ctx, key + 1).length > 0;
}

/** The references in an expression's templates (a literal refers to nothing). */
function referencedRoots(ctx: Ctx, node: number): Reference[] {
  const doc = ctx.doc;
  const out: Reference[] = [];
  const visit = (n: number) => {
    const kind = doc.kinds[n];
    if (kind === K_OBJECT || kind === K_ARRAY) {
      const end = doc.nexts[n]!;
      for (let c = n + 1; c < end; c = doc.nexts[c]!) visit(c);
    } else if (doc.isString(n)) {
      const text = doc.str(n);
      if (!hasTemplate(text)) return;
      for (const r of analyzeTemplate(text).references) if (!LITERAL_WORDS.has(r.root)) out.push(r);
    }
  };
  visit(node);
  return out;
}

/** A body we know nothing about (another provider's resource): check its values as expressions. */
export function checkLooseBody(ctx: Ctx, body: number, address: string | null, base: string | null): void {
  const doc = ctx.doc;
  let seenPrimitive: Map<string, number> | null = null;
  for (const k of doc.members(body)) {
    const name = doc.str(k);
    if (name === "//") continue;
    const value = k + 1;
    const kind = doc.kinds[value];
    const path = joinPath(base, name);
    if (kind === K_OBJECT || kind === K_ARRAY) {
      // an attribute holding an object or a list, or nested blocks: only the schema could tell
      checkExpression(ctx, value, address, path, true);
      continue;
    }
    // a string, number, bool or null can only be an argument, and an argument is set once
    seenPrimitive ??= new Map();
    const first = seenPrimitive.get(name);
    if (first !== undefined) duplicateArgument(ctx, name, k, first, address, path);
    else seenPrimitive.set(name, k);
    if (kind === K_STRING || doc.isString(value)) checkString(ctx, value, address, path);
  }
}

/** checkBody for a block that may set count or for_each (module, import): its `each` and `count` references are judged by what it sets. */
export function checkRepeatableBody(ctx: Ctx, decl: BlockDecl, s: BodySpec, address: string): ReadonlyMap<string, number> {
  const refs: FoundReference[] = [];
  const outer = ctx.repetitionRefs;
  ctx.repetitionRefs = refs;
  let seen: ReadonlyMap<string, number>;
  try {
    seen = checkBody(ctx, decl.body, s, address, null, decl.header);
  } finally {
    ctx.repetitionRefs = outer;
  }
  const repetition = repetitionOf(ctx, decl);
  // a module call's arguments are evaluated by validate with unknown instance data (each and
  // count both unknown, whatever the call sets): Terraform refuses neither there
  if (decl.blockType !== "module") judgeRepetition(ctx, refs, repetition);
  return seen;
}
