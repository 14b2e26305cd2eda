// What `terraform validate` knows of a for_each value beyond its literal parts: whether it is
// sensitive, and the type of an input variable it is (variables are unknown at validate, but
// unknown values of their declared type, and marked when the variable is sensitive). Terraform
// refuses a sensitive for_each before anything else, and a list, tuple or primitive even unknown.
import type { Ctx } from "./context.js";
import type { Expr, Reference, TraversalStep } from "../expr/syntax-tree.js";
import { analyzeTemplate, hasTemplate, type TemplateInfo } from "../expr/templates.js";
import { parseTypeExpression, type TypeExpr } from "../expr/type-expressions.js";
import { K_TRUE } from "../syntax/json-parser.js";
import { declaredLocals } from "./local-names.js";

interface VariableFacts {
  sensitive: boolean;
  /** the declared type constraint, null without one (or when it does not parse) */
  type: TypeExpr | null;
}

interface ModuleFacts {
  variables: Map<string, VariableFacts>;
  /** local values' top-level sensitivity, memoized (false while being computed: a cycle adds nothing) */
  localSensitive: Map<string, boolean>;
}

const factsOf = new WeakMap<Ctx, ModuleFacts>();

function facts(ctx: Ctx): ModuleFacts {
  let f = factsOf.get(ctx);
  if (f) return f;
  const variables = new Map<string, VariableFacts>();
  // an override file may change a variable's type or sensitivity: such a variable is not judged here
  const overridden = new Set(ctx.blocks.filter((b) => b.blockType === "variable" && ctx.files[b.file]!.override).map((b) => b.name));
  for (const decl of ctx.blocks) {
    if (decl.blockType !== "variable" || variables.has(decl.name)) continue;
    if (overridden.has(decl.name)) {
      variables.set(decl.name, { sensitive: false, type: null });
      continue;
    }
    const doc = ctx.files[decl.file]!.doc;
    if (!doc) continue;
    const v: VariableFacts = { sensitive: false, type: null };
    for (const k of doc.members(decl.body)) {
      const name = doc.str(k);
      if (name === "sensitive") v.sensitive = doc.kinds[k + 1] === K_TRUE || (doc.isString(k + 1) && doc.str(k + 1) === "true");
      else if (name === "type" && doc.isString(k + 1)) {
        const parsed = parseTypeExpression(doc.str(k + 1));
        v.type = "type" in parsed ? parsed.type : null;
      }
    }
    variables.set(decl.name, v);
  }
  f = { variables, localSensitive: new Map() };
  factsOf.set(ctx, f);
  return f;
}

/** A local value's expression when it is a template (other values are literals: objects and tuples are never marked as a whole). */
function localTemplate(ctx: Ctx, name: string): TemplateInfo | null {
  const where = declaredLocals(ctx).get(name) as { file: number; key: number } | undefined;
  const doc = where === undefined ? undefined : ctx.files[where.file]?.doc;
  if (where === undefined || !doc || !doc.isString(where.key + 1)) return null;
  const s = doc.str(where.key + 1);
  if (!hasTemplate(s)) return null;
  const info = analyzeTemplate(s);
  return info.problem === null ? info : null;
}

/**
 * Whether a template's value is sensitive as a whole (cty marks the value itself, not only an
 * element): a sensitive variable, `sensitive(…)`, and what operators, functions, indexes,
 * attributes, templates, conditionals, splats and for expressions derive from them; `nonsensitive(…)`
 * and `issensitive(…)` drop the mark, and a few functions carry only their constructors' elements'
 * marks (ELEMENTWISE); a tuple or object constructor holds marked elements without being marked.
 * What cannot be told (module outputs) counts as unmarked.
 */
export function isSensitiveTemplate(ctx: Ctx, info: TemplateInfo): boolean {
  return info.expr !== null ? isSensitiveExpr(ctx, info.expr) : info.whole !== null && isSensitiveReference(ctx, info.whole.root, info.whole.steps[0]);
}

function isSensitiveReference(ctx: Ctx, root: string, first: Reference["steps"][number] | undefined): boolean {
  if (first?.kind !== "attr") return false;
  if (root === "var") return facts(ctx).variables.get(first.name)?.sensitive === true;
  if (root !== "local") return false;
  const memo = facts(ctx).localSensitive;
  const known = memo.get(first.name);
  if (known !== undefined) return known;
  // a chain of local values deeper than this is left unmarked (each level recurses)
  if (localDepth >= MAX_LOCAL_DEPTH) return false;
  memo.set(first.name, false);
  localDepth++;
  try {
    const info = localTemplate(ctx, first.name);
    const marked = info !== null && isSensitiveTemplate(ctx, info);
    memo.set(first.name, marked);
    return marked;
  } finally {
    localDepth--;
  }
}

const MAX_LOCAL_DEPTH = 500;
let localDepth = 0;

/**
 * Functions that carry marks element by element (checked with terraform validate): the marked
 * elements of a tuple or object constructor given to them mark the result, the marks of an unknown
 * collection (a sensitive variable at validate) do not.
 */
const ELEMENTWISE = new Set(["values", "concat", "slice", "reverse", "flatten"]);

/** Walked with a stack, not recursion: an expression may be a chain of any length. */
function isSensitiveExpr(ctx: Ctx, root: Expr): boolean {
  const stack: Expr[] = [root];
  while (stack.length > 0) {
    const e = stack.pop()!;
    switch (e.t) {
      case "attr":
        if (e.of.t === "var") {
          if (isSensitiveReference(ctx, e.of.name, { kind: "attr", name: e.name })) return true;
        } else stack.push(e.of);
        break;
      case "index":
        stack.push(e.of, e.key);
        break;
      case "call": {
        const name = e.name.startsWith("core::") ? e.name.slice(6) : e.name;
        if (name === "sensitive") return true;
        if (name === "nonsensitive" || name === "issensitive") break;
        if (!ELEMENTWISE.has(name)) {
          stack.push(...e.args);
          break;
        }
        // the elements of a constructor keep their marks into the result; an unknown collection's marks are not carried
        const constructors = e.args.filter((arg) => arg.t === "tuple" || arg.t === "object");
        while (constructors.length > 0) {
          const c = constructors.pop()!;
          for (const item of c.t === "tuple" ? c.items : c.t === "object" ? c.values : []) (name === "flatten" && item.t === "tuple" ? constructors : stack).push(item);
        }
        break;
      }
      case "un":
        stack.push(e.x);
        break;
      case "bin":
        stack.push(e.l, e.r);
        break;
      case "cond":
        // marked by either branch, even when the condition is known (Terraform 1.11: `true ? {} : var.s` is sensitive)
        stack.push(e.c, e.a, e.b);
        break;
      case "tpl":
        stack.push(...e.parts);
        break;
      case "for":
        // HCL marks a for expression's result with its collection's marks, and with those of a key or condition
        stack.push(e.coll);
        if (e.key !== null) stack.push(e.key);
        if (e.cond !== null) stack.push(e.cond);
        break;
      case "unknown":
        for (const check of e.checks ?? []) stack.push(check.e);
        break;
      default:
        break;
    }
  }
  return false;
}

/**
 * The type a template has by the declared type of the input variable it reads, as a whole
 * (`${var.x}`, `${var.x.list_attribute}`, `${var.x["key"]}`, or a local value that is one), or
 * null when it is something else or the type does not tell.
 */
export function variableTypeOf(ctx: Ctx, info: TemplateInfo): TypeExpr | null {
  const seen = new Set<string>();
  let after: readonly TraversalStep[] = [];
  for (let ref = info.whole; ref !== null && ref.steps[0]?.kind === "attr"; ) {
    const name = ref.steps[0].name;
    const steps = after.length === 0 ? ref.steps.slice(1) : [...ref.steps.slice(1), ...after];
    if (ref.root === "var") {
      const type = facts(ctx).variables.get(name)?.type;
      return type ? typeAlong(type, steps) : null;
    }
    if (ref.root !== "local" || seen.has(name)) return null;
    seen.add(name);
    after = steps;
    ref = localTemplate(ctx, name)?.whole ?? null;
  }
  return null;
}

/** The type an input variable of this module declares, null without one (or when it does not parse). */
export function declaredVariableType(ctx: Ctx, name: string): TypeExpr | null {
  return facts(ctx).variables.get(name)?.type ?? null;
}

/** The type of what the steps reach in a value of type t, or null when the type does not say. */
function typeAlong(t: TypeExpr, steps: readonly TraversalStep[]): TypeExpr | null {
  let at: TypeExpr = t;
  for (const step of steps) {
    if (step.kind === "splat" || (step.kind === "index" && step.key === null)) return null;
    const key = step.kind === "attr" ? step.name : step.key;
    let next: TypeExpr | undefined;
    if (at.kind === "object") next = typeof key === "string" ? at.attributes.get(key)?.type : undefined;
    else if (at.kind === "tuple") next = typeof key === "number" ? at.elements[key] : undefined;
    else if (at.kind === "map") next = at.element;
    else if (at.kind === "list") next = step.kind === "index" ? at.element : undefined;
    if (next === undefined) return null;
    at = next;
  }
  return at;
}

/** cty's name for a type (its FriendlyName), as Terraform's messages print it. */
export function friendlyTypeName(t: TypeExpr): string {
  switch (t.kind) {
    case "list":
    case "set":
    case "map":
      return `${t.kind} of ${friendlyTypeName(t.element)}`;
    case "any":
      return "dynamic";
    default:
      return t.kind;
  }
}
