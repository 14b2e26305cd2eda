// variable blocks: reserved names, the body, and a literal default converted to the declared type
// as go-cty converts it.
import { nfc } from "../expr/known.js";
import { Ctx, quote } from "./context.js";
import { type BlockDecl, addressOf } from "./declarations.js";
import { checkBody } from "./bodies.js";
import { VARIABLE } from "./body-specs.js";
import { K_ARRAY, K_FALSE, K_NULL, K_OBJECT, K_TRUE, type JsonDoc } from "../syntax/json-parser.js";
import { where } from "./common-errors.js";
import { parseTypeExpression, conversionProblem, type TypeExpr } from "../expr/type-expressions.js";
import { conversionProblem as typeConversionProblem } from "../schema/declared-conversion.js";
import type { CtyType } from "../schema/model-types.js";

/** Names a variable cannot have: they mean something else as arguments of a module block. */
const RESERVED_VARIABLE_NAMES = new Set(["count", "depends_on", "for_each", "lifecycle", "locals", "providers", "provider", "source", "version"]);

export function checkVariable(ctx: Ctx, decl: BlockDecl): void {
  if (RESERVED_VARIABLE_NAMES.has(decl.name)) {
    ctx.error("invalid-name", `Invalid variable name: The variable name ${quote(decl.name)} is reserved due to its special meaning inside module blocks.`, decl.header, addressOf(decl), null);
  }
  const seen = checkBody(ctx, decl.body, VARIABLE, addressOf(decl), null, decl.header);
  const doc = ctx.doc;
  const typeKey = seen.get("type");
  const defaultKey = seen.get("default");
  const sensitiveKey = seen.get("sensitive");
  if (defaultKey !== undefined && sensitiveKey !== undefined && doc.kinds[sensitiveKey + 1] === K_TRUE) ctx.markSensitive(defaultKey + 1);
  // the JSON syntax reads the default's objects at load: a key given twice is an error (a native object constructor takes the last)
  if (defaultKey !== undefined && !ctx.files[decl.file]!.native) repeatedKeys(ctx, defaultKey + 1, addressOf(decl));
  if (ctx.files[decl.file]!.override) checkMergedNullable(ctx, decl, seen);
  if (ctx.files[decl.file]!.override && (typeKey === undefined) !== (defaultKey === undefined)) {
    checkMergedDefault(ctx, decl, typeKey, defaultKey);
    return;
  }
  if (typeKey === undefined || defaultKey === undefined || !doc.isString(typeKey + 1)) return;
  const parsed = parseTypeExpression(doc.str(typeKey + 1));
  if ("error" in parsed) return;
  const where: (string | number)[] = [];
  const problem = conversionProblem(doc, defaultKey + 1, parsed.type, where);
  if (problem) {
    const inside = where.length ? ` (at ${where.map((w) => (typeof w === "number" ? `[${w}]` : `.${w}`)).join("").replace(/^\./, "")})` : "";
    ctx.error("variable-default", `Invalid default value for variable: This default value is not compatible with the variable's type constraint: ${problem}${inside}.`, defaultKey + 1, addressOf(decl), "default");
  }
}

/** "Duplicate object attribute" for each key an object of a JSON value repeats, at the repeat. */
function repeatedKeys(ctx: Ctx, node: number, address: string): void {
  const doc = ctx.doc;
  const kind = doc.kinds[node];
  if (kind === K_ARRAY) for (const e of doc.elements(node)) repeatedKeys(ctx, e, address);
  if (kind !== K_OBJECT) return;
  const seen = new Map<string, number>();
  for (const k of doc.members(node)) {
    repeatedKeys(ctx, k + 1, address);
    const key = nfc(doc.str(k));
    const first = seen.get(key);
    if (first === undefined) seen.set(key, k);
    else ctx.error("duplicate-object-attribute", `Duplicate object attribute: An attribute named ${quote(key)} was already defined at ${where(ctx, first)}.`, k, address, "default");
  }
}

/** The primary declaration of an override file's variable, and its arguments by name. */
function baseOf(ctx: Ctx, decl: BlockDecl): { doc: JsonDoc; keys: Map<string, number> } | null {
  const base = ctx.blocks.find((b) => b.blockType === "variable" && b.name === decl.name && !ctx.files[b.file]!.override);
  const doc = base ? ctx.files[base.file]!.doc : null;
  if (!base || !doc) return null;
  const keys = new Map<string, number>();
  for (const k of doc.members(base.body)) keys.set(doc.str(k), k);
  return { doc, keys };
}

/** Merged, a null default with nullable = false: Terraform refuses it at the override's declaration. */
function checkMergedNullable(ctx: Ctx, decl: BlockDecl, seen: ReadonlyMap<string, number>): void {
  const base = baseOf(ctx, decl);
  if (!base) return;
  const pick = (name: string): [JsonDoc, number] | null => {
    const own = seen.get(name);
    if (own !== undefined) return [ctx.doc, own];
    const inherited = base.keys.get(name);
    return inherited === undefined ? null : [base.doc, inherited];
  };
  const def = pick("default");
  const nullable = pick("nullable");
  if (!def || !nullable || def[0].kinds[def[1] + 1] !== K_NULL) return;
  const [doc, key] = nullable;
  if (doc.kinds[key + 1] === K_FALSE || (doc.isString(key + 1) && doc.str(key + 1) === "false")) {
    ctx.error("variable-default", "Invalid default value for variable: A null default value is not valid when nullable=false.", decl.header, addressOf(decl), "default");
  }
}

/**
 * A variable in an override file that changes only its type or only its default: Terraform merges
 * it into the primary declaration and converts the merged default to the merged type, reporting a
 * misfit at the override's declaration.
 */
function checkMergedDefault(ctx: Ctx, decl: BlockDecl, typeKey: number | undefined, defaultKey: number | undefined): void {
  const base = baseOf(ctx, decl);
  if (!base) return;
  const { doc: baseDoc, keys: baseKeys } = base;
  const doc = ctx.doc;
  const [typeDoc, typeAt] = typeKey !== undefined ? [doc, typeKey] : [baseDoc, baseKeys.get("type")];
  const [defaultDoc, defaultAt] = defaultKey !== undefined ? [doc, defaultKey] : [baseDoc, baseKeys.get("default")];
  if (typeAt === undefined || defaultAt === undefined || !typeDoc.isString(typeAt + 1)) return;
  const parsed = parseTypeExpression(typeDoc.str(typeAt + 1));
  if ("error" in parsed) return;
  const problem = conversionProblem(defaultDoc, defaultAt + 1, parsed.type, []);
  if (problem) ctx.error("variable-default", `Invalid default value for variable: This default value is not compatible with the variable's type constraint: ${problem}.`, decl.header, addressOf(decl), "default");
  else if (typeKey !== undefined && defaultKey === undefined) checkRetypedEmptyDefault(ctx, decl, baseDoc, baseKeys, parsed.type);
}

/**
 * The primary declaration's default was converted to its own type before the override's type
 * applies: an empty map or list then has that type's elements, and those must convert too
 * ({} as a map of objects is no map of strings).
 */
function checkRetypedEmptyDefault(ctx: Ctx, decl: BlockDecl, baseDoc: JsonDoc, baseKeys: Map<string, number>, type: TypeExpr): void {
  const baseType = baseKeys.get("type");
  const def = baseKeys.get("default")! + 1;
  const empty = (baseDoc.kinds[def] === K_OBJECT || baseDoc.kinds[def] === K_ARRAY) && baseDoc.count(def) === 0;
  if (!empty || baseType === undefined || !baseDoc.isString(baseType + 1)) return;
  const from = parseTypeExpression(baseDoc.str(baseType + 1));
  const to = ctyTypeOf(type);
  if ("error" in from || to === null || (from.type.kind !== "map" && from.type.kind !== "list" && from.type.kind !== "set")) return;
  const problem = typeConversionProblem(from.type, to);
  if (problem) ctx.error("variable-default", `Invalid default value for variable: Overriding this variable's type constraint has made its default value invalid: ${problem}.`, decl.header, addressOf(decl), "default");
}

/** A type constraint as our model's type, when it has one (not for tuples and any). */
function ctyTypeOf(t: TypeExpr): CtyType | null {
  switch (t.kind) {
    case "string":
    case "number":
    case "bool":
      return t.kind;
    case "list":
    case "set":
    case "map": {
      const element = ctyTypeOf(t.element);
      return element === null ? null : [t.kind, element];
    }
    case "object": {
      const attributes: { [name: string]: CtyType } = {};
      for (const [name, a] of t.attributes) {
        const at = ctyTypeOf(a.type);
        if (at === null) return null;
        attributes[name] = at;
      }
      return ["object", attributes];
    }
    default:
      return null;
  }
}
