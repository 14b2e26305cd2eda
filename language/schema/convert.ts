// Our providers' bodies converted into canonical bodies (ARCHITECTURE.md §1) that validateBody
// checks. The TypeModel decides what is an attribute and what is a nested block; block shapes are
// normalised (object / array / null → one object for `single`, an array for `list` and `set`),
// literal strings are converted to numbers and bools as go-cty does, and every problem found on
// the way is reported at its node.
import { nfc } from "../expr/known.js";
import { joinPath, quote, type Ctx } from "../config/context.js";
import { UNKNOWN_VALUE, type AttributeModel, type BlockModel, type CtyType, type NestedBlockModel } from "./model-types.js";
import { K_ARRAY, K_FALSE, K_NULL, K_NUMBER, K_OBJECT, K_STRING, K_STRING_ESC, K_TRUE, setOwn, type JsonDoc } from "../syntax/json-parser.js";
import { suggest } from "../syntax/suggest.js";
import { analyzeTemplate, hasTemplate } from "../expr/templates.js";
import { asString, jsonValue, knownIterator, templateKnownValue, UNKNOWN, withIteratorElement, type IteratorElement, type Known, type Value } from "../config/known-values.js";
import { fastReference, fastVariableReference, variableConversionProblem } from "./reference-fast-paths.js";
import { fastPlainTemplate } from "./plain-template.js";
import { MISMATCH, structuralAs } from "./known-conversion.js";
import { parseBoolString, parseNumberString, type TypeExpr } from "../expr/type-expressions.js";
import { isForEachInstanceReference } from "../config/module-calls.js";
import { callResultType } from "../expr/result-types.js";
import { declaredVariableType, variableTypeOf } from "../config/for-each-values.js";
import { conversionProblem, missingAttributesProblem } from "./declared-conversion.js";
import { addressOf } from "../config/declarations.js";
import { unknownName, duplicateArgument, where } from "../config/common-errors.js";
import { forEachInstance, blockElementError, blockShapeError, forEachLabel } from "../config/block-shapes.js";
import { checkLooseBody } from "../config/bodies.js";
import { checkDynamicBody } from "../config/dynamic-blocks.js";
import { checkExpression, checkString } from "../config/expression-check.js";
import { type ConvertState, type Accumulator, lookup, tableOf, addReported, type Entry, markSeen, firstKey, newAccumulator, reportAt, hasOwn } from "./convert-state.js";

const NO_NAMES: readonly string[] = [];

export function convertMember(ctx: Ctx, st: ConvertState, k: number, block: BlockModel, base: string | null, out: Record<string, unknown>, acc: Accumulator, escaped = false, extraNames: readonly string[] = NO_NAMES): void {
  const doc = ctx.doc;
  const entry = lookup(doc, k, tableOf(block));
  if (entry) {
    convertEntry(ctx, st, k, entry, base, out, acc);
    return;
  }
  {
    const name = doc.str(k);
    if (name === "//") return;
    if (name === "dynamic" && !escaped) {
      collectDynamic(ctx, st, k, block, base, out);
      return;
    }
    const path = joinPath(base, name);
    addReported(st, path);
    unknownName(ctx, name, k, settableNames(block, extraNames), addressOf(st.decl), path);
  }
}

/** Per block and list of extra names: built once, not once per unknown name (a file may hold thousands). */
const settableNamesCache = new WeakMap<BlockModel, Map<readonly string[], string[]>>();

/** The names a body of `block` may set: its arguments (not the read-only ones), nested blocks and `extraNames`. */
function settableNames(block: BlockModel, extraNames: readonly string[]): string[] {
  let byExtra = settableNamesCache.get(block);
  if (byExtra === undefined) settableNamesCache.set(block, (byExtra = new Map()));
  let names = byExtra.get(extraNames);
  if (names === undefined) {
    names = [...Object.keys(block.attributes).filter((a) => !block.attributes[a]!.computed || block.attributes[a]!.optional), ...Object.keys(block.blocks), ...extraNames];
    byExtra.set(extraNames, names);
  }
  return names;
}

export function convertEntry(ctx: Ctx, st: ConvertState, k: number, entry: Entry, base: string | null, out: Record<string, unknown>, acc: Accumulator): void {
  const doc = ctx.doc;
  const name = entry.name;
  if (st.nativeBlockKeys !== null && st.nativeBlockKeys.has(doc.start(k)) !== (entry.block !== null) && st.jsonKeys?.has(doc.start(k)) !== true) {
    // a native file says which it is: `timeouts {…}` is a block, `timeouts = {…}` an argument
    const path = base === null ? name : `${base}.${name}`;
    // an argument written as a block is still absent: Terraform reports a required one as missing too
    if (entry.block) addReported(st, path);
    const message = entry.block
      ? `Unsupported argument: An argument named ${quote(name)} is not expected here. Did you mean to define a block of type ${quote(name)}?`
      : `Unsupported block type: Blocks of type ${quote(name)} are not expected here. Did you mean to define argument ${quote(name)}? If so, use the equals sign to assign it a value.`;
    ctx.error("unknown-argument", message, k, addressOf(st.decl), path);
    return;
  }
  if (entry.attr) {
    const path = base === null ? name : `${base}.${name}`; // model names are identifiers
    if (markSeen(acc, entry.index)) {
      addReported(st, path);
      duplicateArgument(ctx, name, k, firstKey(ctx, acc, name), addressOf(st.decl), path);
      return;
    }
    const attr = entry.attr;
    if (entry.sensitive) ctx.markSensitive(k + 1);
    if (st.unknownValues) {
      // the content of a dynamic block whose for_each is unknown: its values are not judged; what its
      // templates hold (references, syntax, calls) is reported as ours (deferUnexpandedContent)
      ctx.unexpandedValues.push(ctx.fileIndex, doc.start(k + 1), doc.end(k + 1));
      checkExpression(ctx, k + 1, addressOf(st.decl), path);
      out[name] = UNKNOWN_VALUE;
      return;
    }
    if (entry.deprecated) st.deprecated = true;
    st.attr = attr;
    st.attrPath = path;
    st.attrValue = k + 1;
    const v = entry.nested ? convertNested(ctx, st, k + 1, attr, path) : convertValue(ctx, st, k + 1, entry.type, path, base === null ? attr : null);
    if (v !== undefined) out[name] = v;
    return;
  }
  // a nested block: each instance is converted where it appears (static and dynamic ones in
  // source order, as locate() finds them)
  const nested = entry.block!;
  const path = base === null ? name : joinPath(base, name);
  const kind = doc.kinds[k + 1];
  if (kind === K_OBJECT) addInstance(ctx, st, k + 1, nested, path, out, false, k + 1);
  else if (kind === K_ARRAY) {
    const end = doc.nexts[k + 1]!;
    for (let c = k + 2; c < end; c = doc.nexts[c]!) {
      // Terraform gives the blocks of an array the array's position; a null there is an empty block
      if (doc.kinds[c] === K_OBJECT || doc.kinds[c] === K_NULL) addInstance(ctx, st, c, nested, path, out, false, k + 1);
      else if (doc.kinds[c] === K_ARRAY) {
        // an array of arrays: Terraform reads each inner array's objects as one block
        addNestedArray(ctx, st, c, nested, path, out, k + 1);
      } else {
        addReported(st, path);
        blockElementError(ctx, c, addressOf(st.decl), path);
      }
    }
  } else if (kind !== K_NULL) {
    addReported(st, path);
    if (doc.isString(k + 1) && hasTemplate(doc.str(k + 1))) {
      ctx.error("block-shape", `Unsupported argument: ${quote(name)} is a nested block, not an argument, so it cannot be set from an expression; use a "dynamic" block to generate it.`, k + 1, addressOf(st.decl), path);
    } else blockShapeError(ctx, k + 1, name, addressOf(st.decl), path);
  }
}

/**
 * The blocks of an array inside a nested block's array. Apart from convertEntry: a closure there
 * would make V8 allocate a context for its captured variables on every call of convertEntry (one
 * per attribute of every block), not only when an array of arrays is met.
 */
function addNestedArray(ctx: Ctx, st: ConvertState, array: number, nested: NestedBlockModel, path: string, out: Record<string, unknown>, at: number): void {
  forEachInstance(ctx, array, nested.name, addressOf(st.decl), path, (body) => addInstance(ctx, st, body, nested, path, out, false, at));
}

/**
 * Converts one block instance into the canonical body: an object (`single`) or an array element.
 * `at` is where the block is defined, for messages (its body, the array holding it, or the
 * `dynamic` block generating it). A dynamic block generates `generated` blocks: as many as its
 * literal for_each has elements, one when for_each is unknown at validate (Terraform still counts
 * it), none for an empty one.
 */
function addInstance(ctx: Ctx, st: ConvertState, body: number, nested: NestedBlockModel, path: string, out: Record<string, unknown>, dynamic: boolean, at = body, generated = 1): void {
  const name = nested.name;
  const existing = out[name];
  if (nested.nesting === "single") {
    if (existing !== undefined || generated > 1) {
      addReported(st, path);
      // found again only now (rare): nothing is kept per block for it
      const first = existing === undefined ? at : path === name ? firstDefinition(ctx, st.decl.body, name) : -1;
      const previous = first < 0 ? "" : ` Previous definition was at ${where(ctx, first)}.`;
      ctx.error("too-many-blocks", `Duplicate ${name} block: Only one block of type ${quote(name)} is allowed.${previous}`, at, addressOf(st.decl), path);
      if (existing !== undefined) {
        // not converted, but its references are still Terraform's first errors (a dynamic block's content is evaluated before its blocks are counted)
        if (dynamic) checkLooseBody(ctx, body, addressOf(st.decl), path);
        return;
      }
    }
    out[name] = convertBlockBody(ctx, st, body, nested.block, path);
    return;
  }
  const list = existing === undefined ? (out[name] = []) : existing;
  (list as unknown[]).push(convertBlockBody(ctx, st, body, nested.block, joinPath(path, (list as unknown[]).length)));
}

/** The length of a template that is one literal tuple, e.g. "${[\"1h\", \"2h\"]}" (null for anything else: unknown at validate). */
function literalTupleLength(text: string): number | null {
  const m = /^\$\{\s*\[([\s\S]*)\]\s*\}$/.exec(text);
  if (!m || analyzeTemplate(text).references.length > 0) return null;
  const inner = m[1]!;
  let depth = 0;
  let quoted = false;
  let elements = inner.trim() === "" ? 0 : 1;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === "[" || c === "{" || c === "(") depth++;
    else if (c === "]" || c === "}" || c === ")") depth--;
    else if (c === "," && depth === 0 && inner.slice(i + 1).trim() !== "") elements++;
  }
  return elements;
}

/** Where the first `name` block of a body is defined: a static one's object (or array), or a dynamic one's; -1 when none. */
function firstDefinition(ctx: Ctx, body: number, name: string): number {
  const doc = ctx.doc;
  for (const k of doc.members(body)) {
    const key = doc.str(k);
    if (key === name && (doc.kinds[k + 1] === K_OBJECT || doc.kinds[k + 1] === K_ARRAY)) return k + 1;
    if (key === "dynamic" && doc.kinds[k + 1] === K_OBJECT) for (const t of doc.members(k + 1)) if (doc.str(t) === name) return t + 1;
  }
  return -1;
}

/** How many blocks a dynamic block generates at validate: its literal for_each's elements, else 1 (unknown). */
function generatedCount(ctx: Ctx, dynamicBody: number): number {
  const doc = ctx.doc;
  for (const k of doc.members(dynamicBody)) {
    if (doc.str(k) !== "for_each") continue;
    const kind = doc.kinds[k + 1];
    if (kind === K_ARRAY) return doc.elements(k + 1).length;
    if (kind === K_OBJECT) return doc.members(k + 1).length;
    if (doc.isString(k + 1)) return literalTupleLength(doc.str(k + 1)) ?? 1;
    return kind === K_NULL ? 0 : 1;
  }
  return 1;
}

/**
 * A dynamic block's for_each as validate knows it, with the iterator's name; null when the
 * collection is unknown (Terraform then generates one block whose every value is unknown).
 */
function knownForEach(ctx: Ctx, dynamicBody: number, target: string): { name: string; value: Known[] | { [key: string]: Known }; keys: "index" | "element" | "unknown" } | null {
  const doc = ctx.doc;
  let name = target;
  let node = -1;
  for (const k of doc.members(dynamicBody)) {
    const key = doc.str(k);
    if (key === "iterator" && doc.isString(k + 1)) name = doc.str(k + 1);
    else if (key === "for_each") node = k + 1;
  }
  if (node < 0) return null;
  const kind = doc.kinds[node];
  let value: Known;
  // a list or tuple is keyed by index, a set (toset, …) by its elements: only a tuple constructor is sure to be a tuple
  let keys: "index" | "element" | "unknown" = "index";
  if (kind === K_ARRAY || kind === K_OBJECT) value = jsonValue(ctx, doc, node);
  else if (doc.isString(node) && hasTemplate(doc.str(node))) {
    const info = analyzeTemplate(doc.str(node));
    value = templateKnownValue(ctx, info);
    const e = info.expr;
    keys = e?.t === "tuple" ? "index" : e?.t === "call" && (e.name === "toset" || e.name === "core::toset") ? "element" : "unknown";
  } else return null;
  return value === null || typeof value !== "object" ? null : { name, value, keys };
}

/** The one element a known for_each generates its block for (a map's key and value, a tuple's index and element, a set's element twice), or null. */
function onlyElement(forEach: NonNullable<ReturnType<typeof knownForEach>>): IteratorElement | null {
  const { name, value, keys } = forEach;
  if (Array.isArray(value)) return value.length === 1 ? { name, key: keys === "index" ? 0 : keys === "element" ? value[0]! : UNKNOWN, value: value[0]! } : null;
  const names = Object.keys(value);
  return names.length === 1 ? { name, key: names[0]!, value: value[names[0]!]! } : null;
}

function collectDynamic(ctx: Ctx, st: ConvertState, k: number, block: BlockModel, base: string | null, out: Record<string, unknown>): void {
  const address = addressOf(st.decl);
  forEachLabel(ctx, k + 1, "dynamic", 0, address, joinPath(base, "dynamic"), (t) => collectDynamicTarget(ctx, st, t, block, base, out));
}

/** One `dynamic "<target>"` of our types: the target must be a nested block; its contents are converted as instances of it. */
function collectDynamicTarget(ctx: Ctx, st: ConvertState, t: number, block: BlockModel, base: string | null, out: Record<string, unknown>): void {
  const doc = ctx.doc;
  const address = addressOf(st.decl);
  const target = doc.str(t);
  const nested = Object.prototype.hasOwnProperty.call(block.blocks, target) ? block.blocks[target]! : undefined;
  const path = joinPath(base, target);
  if (!nested) {
    const hint = suggest(target, Object.keys(block.blocks));
    const isAttr = Object.prototype.hasOwnProperty.call(block.attributes, target);
    ctx.error(
      "unknown-argument",
      isAttr
        ? `Unsupported block type: ${quote(target)} is an argument, not a nested block, so it cannot be generated with a dynamic block.`
        : `Unsupported block type: Blocks of type ${quote(target)} are not expected here.${hint ? ` Did you mean "${hint}"?` : ""}`,
      t,
      address,
      path,
    );
    addReported(st, path);
    return;
  }
  (st.dynamicBlocks ??= []).push(path);
  forEachInstance(ctx, t + 1, "dynamic", address, `${joinPath(base, "dynamic")}.${target}`, (body) => {
    const generated = generatedCount(ctx, body);
    const forEach = generated === 1 ? knownForEach(ctx, body, target) : null;
    // one known element: Terraform expands the block at validate, its content sees the iterator's key and value
    const element = forEach === null ? null : onlyElement(forEach);
    // an unknown collection: Terraform generates one block of unknown values, so only the content's names are checked
    st.unknownValues = generated === 1 && forEach === null;
    // none generated: the content is still checked, into a body of its own
    const convert = () => checkDynamicBody(ctx, body, target, address, t, (content) => addInstance(ctx, st, content, nested, path, generated === 0 ? {} : out, true, t + 1, generated), false);
    if (element !== null) withIteratorElement(element, convert);
    else convert();
    st.unknownValues = false;
  });
}

function convertBlockBody(ctx: Ctx, st: ConvertState, body: number, block: BlockModel, base: string): Record<string, unknown> {
  const doc = ctx.doc;
  const table = tableOf(block);
  const out = new table.Body();
  const acc = newAccumulator(body);
  const end = doc.nexts[body]!;
  for (let k = body + 1; k < end; k = doc.nexts[k + 1]!) {
    const entry = lookup(doc, k, table);
    if (entry !== undefined) convertEntry(ctx, st, k, entry, base, out, acc);
    else convertMember(ctx, st, k, block, base, out, acc);
  }
  return out;
}

/** A type as Terraform names it in conversion errors: "string", "list of object", "map of string". */
function typeName(t: CtyType): string {
  if (typeof t === "string") return t;
  if (t[0] === "object") return "object";
  return `${t[0]} of ${typeName(t[1] as CtyType)}`;
}

/** "element 0: attribute "x": " — where inside the attribute's value `path` is, as Terraform says it. */
function insideValue(st: ConvertState, path: string): string {
  let rest = path.startsWith(st.attrPath) ? path.slice(st.attrPath.length) : "";
  const segments: (string | number)[] = [];
  const step = /^(?:\.([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\])/;
  for (let m = step.exec(rest); m !== null && rest !== ""; m = step.exec(rest)) {
    rest = rest.slice(m[0].length);
    segments.push(m[2] !== undefined ? Number(m[2]) : (m[1] ?? (JSON.parse(m[3]!) as string)));
  }
  return describeInside(st.attr?.type, segments);
}

/** Terraform's description of a place inside a value of type `type`: "element 0: attribute "x": ". */
export function describeInside(type: CtyType | undefined, segments: (string | number)[]): string {
  let out = "";
  for (const segment of segments) {
    const isObject = type !== undefined && typeof type !== "string" && type[0] === "object";
    out += typeof segment === "number" ? `element ${segment}: ` : isObject ? `attribute ${quote(segment)}: ` : `element ${quote(segment)}: `;
    type = type === undefined || typeof type === "string" ? undefined : isObject ? (type[1] as Record<string, CtyType>)[String(segment)] : (type[1] as CtyType);
  }
  return out;
}

/** A value that cannot be converted to its type: reported at the attribute's value, as Terraform does. */
function typeError(ctx: Ctx, st: ConvertState, t: CtyType, path: string, detail = `${typeName(t)} required`): undefined {
  reportAt(ctx, st, "error", "value-type", `Incorrect attribute value type: Inappropriate value for attribute ${quote(st.attr?.name ?? "")}: ${insideValue(st, path)}${detail}.`, st.attrValue, path);
  return undefined;
}

function numberText(doc: JsonDoc, node: number): string {
  const n = doc.num(node);
  return Number.isSafeInteger(n) || !Number.isInteger(n) ? String(n) : doc.raw(node);
}

/** A template string: checked, references recorded; the validator sees its value where validate knows it, else the unknown value it is. */
function templateValue(ctx: Ctx, st: ConvertState, node: number, s: string, path: string, attr: AttributeModel | null, t: CtyType): unknown {
  // "${var.NAME}" first: the most common, and refused at its first characters when it is not one
  const variable = fastVariableReference(ctx, node, s);
  if (variable !== null) {
    // "${var.NAME}": an unknown value of the variable's declared type, which may not convert
    // the verdict is kept per variable; a single nested object also needs its required attributes (declaredProblem)
    const declared = attr !== null && attr.nested?.nesting === "single" ? declaredVariableType(ctx, variable.name) : null;
    const problem = declared !== null ? declaredProblem(declared, t, attr) : variableConversionProblem(ctx, variable, t);
    return problem === null ? UNKNOWN_VALUE : typeError(ctx, st, t, path, problem);
  }
  if (ctx.referenceSink !== null && fastReference(ctx, st.decl, node, s, attr ? attr.name : undefined, t)) return UNKNOWN_VALUE;
  // literal text around such references ("${local.prefix}-db-1"): an unknown string when all are fine
  if (fastPlainTemplate(ctx, s)) return UNKNOWN_VALUE;
  checkString(ctx, node, addressOf(st.decl), path, st.decl, attr ? attr.name : undefined, t);
  // a template Terraform evaluates at validate time (local values of literals, operators,
  // functions): the value rules see its value. A lone reference to anything but a local value is
  // unknown at once; checkString analyzed the template just before (analyzeTemplate remembers it).
  const info = analyzeTemplate(s);
  if (info.whole === null || info.whole.root === "local" || info.whole.root === knownIterator()) {
    const v = templateKnownValue(ctx, info);
    // a known null is no value at all, as a literal null is
    if (v === null) return undefined;
    if (v !== UNKNOWN) {
      const converted = typeof t === "string" ? knownAs(ctx, st, v, t, path) : structuralAs(v, t);
      return converted === MISMATCH ? typeError(ctx, st, t, path) : converted;
    }
  }
  if (info.whole !== null && (info.whole.root === "var" || info.whole.root === "local")) {
    // a variable (or a part of one, or a local value that is one) is unknown at validate, but of its declared type
    const declared = variableTypeOf(ctx, info);
    const problem = declared === null ? null : declaredProblem(declared, t, attr);
    if (problem !== null) return typeError(ctx, st, t, path, problem);
  } else if (info.whole !== null && info.whole.root === "module" && isForEachInstanceReference(ctx, info.whole)) {
    // an output of a for_each call without an instance key: an instance, an object at validate
    const problem = conversionProblem(ANY_OBJECT, t);
    if (problem !== null) return typeError(ctx, st, t, path, problem);
  } else if (info.whole === null && info.expr !== null && info.expr.t === "call") {
    // a function's unknown result still has the type the function declares
    const declared = callResultType(info.expr);
    const problem = declared === null ? null : conversionProblem(declared, t);
    if (problem !== null) return typeError(ctx, st, t, path, problem);
  } else if (info.whole !== null && info.whole.root === "count" && info.whole.steps.length === 1 && info.whole.steps[0]!.kind === "attr" && info.whole.steps[0]!.name === "index") {
    // count.index is an unknown number at validate
    const problem = conversionProblem(NUMBER_TYPE, t);
    if (problem !== null) return typeError(ctx, st, t, path, problem);
  }
  return UNKNOWN_VALUE;
}

/**
 * Why a value known only by its declared type cannot convert to `t`; an object type lacking a
 * single nested attribute's required attributes does not convert either.
 */
function declaredProblem(declared: TypeExpr, t: CtyType, attr: AttributeModel | null): string | null {
  const problem = conversionProblem(declared, t);
  if (problem !== null || attr === null || attr.type !== t || attr.nested?.nesting !== "single") return problem;
  return missingAttributesProblem(declared, attr.nested.block);
}

const ANY_OBJECT: TypeExpr = { kind: "object", attributes: new Map() };
const NUMBER_TYPE: TypeExpr = { kind: "number" };

/** A known value converted to a primitive attribute type as Terraform converts it, or its conversion error. */
function knownAs(ctx: Ctx, st: ConvertState, v: Value, t: "string" | "number" | "bool", path: string): unknown {
  if (v === null) return UNKNOWN_VALUE;
  if (typeof v === "object") return MISMATCH;
  if (t === "string") return asString(v) === UNKNOWN ? UNKNOWN_VALUE : asString(v);
  if (t === "number") {
    if (typeof v === "number") return v;
    const n = typeof v === "string" ? parseNumberString(v) : undefined;
    return n === undefined ? typeError(ctx, st, t, path, "a number is required") : n;
  }
  if (typeof v === "boolean") return v;
  const b = typeof v === "string" ? parseBoolString(v) : undefined;
  return b === undefined ? typeError(ctx, st, t, path, "a bool is required") : b;
}

function convertValue(ctx: Ctx, st: ConvertState, node: number, t: CtyType, path: string, attr: AttributeModel | null): unknown {
  const doc = ctx.doc;
  const kind = doc.kinds[node];
  if (kind === K_NULL) return undefined;
  if (typeof t === "string") {
    if (kind === K_STRING || kind === K_STRING_ESC) {
      const s = kind === K_STRING ? doc.text.slice(doc.starts[node]! + 1, doc.ends[node]! - 1) : doc.str(node);
      if (hasTemplate(s)) return templateValue(ctx, st, node, s, path, attr, t);
      if (t === "string") return s;
      // cty's words for a string that does not convert ("number required" is for other kinds)
      if (t === "number") {
        const n = parseNumberString(s);
        return n === undefined ? typeError(ctx, st, t, path, "a number is required") : n;
      }
      const b = parseBoolString(s);
      if (b === undefined) {
        const lower = s.toLowerCase();
        if (lower === "true" || lower === "false") {
          return typeError(ctx, st, t, path, `a bool is required; to convert from string, use lowercase "${lower}"`);
        }
        return typeError(ctx, st, t, path, "a bool is required");
      }
      return b;
    }
    if (kind === K_NUMBER) {
      if (t === "number") return doc.num(node);
      if (t === "string") return numberText(doc, node);
      return typeError(ctx, st, t, path);
    }
    if (kind === K_TRUE || kind === K_FALSE) {
      if (t === "bool") return kind === K_TRUE;
      if (t === "string") return kind === K_TRUE ? "true" : "false";
      return typeError(ctx, st, t, path);
    }
    return typeError(ctx, st, t, path);
  }
  if (doc.isString(node)) {
    const s = doc.str(node);
    if (hasTemplate(s)) return templateValue(ctx, st, node, s, path, attr, t);
    return typeError(ctx, st, t, path);
  }
  const [shape, inner] = t;
  if (shape === "list" || shape === "set") {
    if (kind !== K_ARRAY) return typeError(ctx, st, t, path);
    const out: unknown[] = [];
    let i = 0;
    const end = doc.nexts[node]!;
    for (let c = node + 1; c < end; c = doc.nexts[c]!) {
      const v = doc.kinds[c] === K_NULL ? null : convertValue(ctx, st, c, inner as CtyType, joinPath(path, i), null);
      out.push(v === undefined ? null : v);
      i++;
    }
    // a tuple converted to a set loses its duplicate elements (Terraform does not complain);
    // unknown elements stay: they may or may not turn out equal
    if (shape === "set" && typeof inner === "string" && out.length > 1) return withoutRepeats(out);
    return out;
  }
  if (kind !== K_OBJECT) return typeError(ctx, st, t, path);
  const out: Record<string, unknown> = {};
  let valueless: string[] | null = null;
  const end = doc.nexts[node]!;
  for (let k = node + 1; k < end; k = doc.nexts[k + 1]!) {
    const key = nfc(doc.str(k));
    if (hasOwn(out, key) || (valueless !== null && valueless.includes(key))) {
      const keyPath = joinPath(path, key);
      reportAt(ctx, st, "error", "duplicate-object-attribute", `Duplicate object attribute: An attribute named ${quote(key)} was already defined at ${where(ctx, firstKey(ctx, newAccumulator(node), key))}.`, k, keyPath);
      continue;
    }
    if (hasTemplate(key)) checkString(ctx, k, addressOf(st.decl), path);
    let elementType: CtyType | undefined;
    if (shape === "map") elementType = inner as CtyType;
    else {
      const attrs = inner as { [n: string]: CtyType };
      elementType = Object.prototype.hasOwnProperty.call(attrs, key) ? attrs[key] : undefined;
    }
    if (elementType === undefined) {
      setOwn(out, key, doc.toValue(k + 1)); // not part of the object type: the validator reports it
      continue;
    }
    const v = convertValue(ctx, st, k + 1, elementType, joinPath(path, key), null);
    if (v !== undefined) setOwn(out, key, v);
    else (valueless ??= []).push(key);
  }
  return out;
}

/**
 * A set's primitive elements without repeats (unknown ones all stay). Apart from convertValue: a
 * closure over the list there would make V8 allocate a context for every list it converts.
 */
function withoutRepeats(out: unknown[]): unknown[] {
  return out.filter((v, j) => v === UNKNOWN_VALUE || out.indexOf(v) === j);
}

/** A nested attribute (protocol 6): an expression holding an object, or a list/set of objects. */
function convertNested(ctx: Ctx, st: ConvertState, node: number, attr: AttributeModel, path: string): unknown {
  const doc = ctx.doc;
  const nested = attr.nested!;
  const kind = doc.kinds[node];
  if (kind === K_NULL) return undefined;
  if (doc.isString(node)) {
    const s = doc.str(node);
    if (hasTemplate(s)) return templateValue(ctx, st, node, s, path, attr, attr.type);
  }
  if (nested.nesting === "single") {
    if (kind !== K_OBJECT) return typeError(ctx, st, attr.type, path);
    return convertNestedObject(ctx, st, node, nested.block, path, attr.sensitive === true);
  }
  if (kind !== K_ARRAY) return typeError(ctx, st, attr.type, path);
  const out: unknown[] = [];
  let i = 0;
  const end = doc.nexts[node]!;
  for (let c = node + 1; c < end; c = doc.nexts[c]!) {
    const itemPath = joinPath(path, i++);
    if (doc.kinds[c] === K_OBJECT) out.push(convertNestedObject(ctx, st, c, nested.block, itemPath, attr.sensitive === true));
    else if (doc.isString(c) && hasTemplate(doc.str(c))) out.push(templateValue(ctx, st, c, doc.str(c), itemPath, null, attr.type));
    else {
      // a null element converts (the provider's validator refuses it); anything else does not
      if (doc.kinds[c] !== K_NULL) typeError(ctx, st, ["object", {}], itemPath);
      out.push(null);
    }
  }
  return out;
}

function convertNestedObject(ctx: Ctx, st: ConvertState, node: number, block: BlockModel, base: string, sensitive: boolean): Record<string, unknown> {
  const doc = ctx.doc;
  const table = tableOf(block);
  const out = new table.Body();
  const acc = newAccumulator(node);
  const end = doc.nexts[node]!;
  for (let k = node + 1; k < end; k = doc.nexts[k + 1]!) {
    const entry = lookup(doc, k, table);
    if (!entry || !entry.attr) {
      const key = doc.str(k);
      const path = joinPath(base, key);
      const hint = suggest(key, Object.keys(block.attributes));
      // Terraform drops an object's extra attributes when it converts the value: a warning, not an error
      ctx.warning("unknown-argument", `Unsupported attribute: An attribute named ${quote(key)} is not expected here, and Terraform ignores it.${hint ? ` Did you mean "${hint}"?` : ""}`, k, addressOf(st.decl), path);
      continue;
    }
    const name = entry.name;
    const path = `${base}.${name}`; // model names are identifiers
    if (markSeen(acc, entry.index)) {
      reportAt(ctx, st, "error", "duplicate-object-attribute", `Duplicate object attribute: An attribute named ${quote(name)} was already defined at ${where(ctx, firstKey(ctx, acc, name))}.`, k, path);
      continue;
    }
    const attr = entry.attr;
    if (sensitive || entry.sensitive) ctx.markSensitive(k + 1);
    if (entry.deprecated) st.deprecated = true;
    const v = entry.nested ? convertNested(ctx, st, k + 1, attr, path) : convertValue(ctx, st, k + 1, entry.type, path, null);
    if (v !== undefined) out[name] = v;
  }
  return out;
}
