// validate's fast paths for the most common references, judged from the source text without
// reference objects or syntax trees: "${TYPE.NAME.ATTR}" of our types and "${var.NAME}" as a whole
// argument value, and the look-ups they share with plain-template.ts. Each returns a negative
// answer whenever anything needs a closer look: the general path (checkString, cross-references.ts)
// then judges and reports.
import { nameHash } from "../config/block-names.js";
import { repetitionOf, type Ctx, type DeclaredType } from "../config/context.js";
import type { BlockDecl } from "../config/declarations.js";
import type { AttributeModel, BlockModel, CtyType } from "./model-types.js";
import { K_STRING } from "../syntax/json-parser.js";
import { REGION_REFERENCES } from "./region-rules.js";
import { targetAllowed } from "./cross-references.js";
import { declaredVariableType } from "../config/for-each-values.js";
import { conversionProblem } from "./declared-conversion.js";
import { isIdentifier, isIdentPart, isIdentStart } from "../expr/lexer.js";


/** Where resolveWhole found the attribute name, and the declared type (set when it returns a block). */
const whole = { kind: "resource" as "resource" | "data", declared: null as DeclaredType | null, attrFrom: 0, attrEnd: 0, text: "" };

/**
 * The block of our types that `value` (a string entry at `node`) names when it is exactly
 * "${TYPE.NAME.ATTR}" or "${data.TYPE.NAME.ATTR}" of a declared block without count or for_each
 * that is visible here (not a check block's scoped data source): the attribute is then
 * whole.text[whole.attrFrom, whole.attrEnd). Undefined when anything else is written.
 */
function resolveWhole(ctx: Ctx, node: number, value: string): BlockDecl | undefined {
  // read the source text directly when the string has no escapes (a flat string, fast to index)
  const doc = ctx.doc;
  let s = value;
  let o = 0; // offset of the string's first character in s
  if (doc.kinds[node] === K_STRING) {
    s = doc.text;
    o = doc.starts[node]! + 1;
  }
  const n = o + value.length - 1; // offset of the last character
  if (n - o < 3 || s.charCodeAt(o) !== 36 || s.charCodeAt(o + 1) !== 123 || s.charCodeAt(n) !== 125) return undefined;
  // The parts are found by their dots, then matched exactly: the type against our declared types,
  // the attribute against the schema's names (identifiers both), so anything else written there
  // (spaces, operators, indexes, a fourth part) matches nothing and takes the general path. Only
  // the name, a label a file may spell any way, is read character by character.
  let kind: "resource" | "data" = "resource";
  let typeFrom = o + 2;
  let dot = s.indexOf(".", typeFrom);
  if (dot < 0 || dot >= n) return undefined;
  if (dot - typeFrom === 4 && s.startsWith("data", typeFrom)) {
    kind = "data";
    typeFrom = dot + 1;
    dot = s.indexOf(".", typeFrom);
    if (dot < 0 || dot >= n) return undefined;
  }
  const typeEnd = dot;
  const nameFrom = dot + 1;
  const nameEnd = s.indexOf(".", nameFrom);
  if (nameEnd < 0 || nameEnd >= n || !isIdentStart(s.charCodeAt(nameFrom))) return undefined;
  for (let i = nameFrom + 1; i < nameEnd; i++) if (!isIdentPart(s.charCodeAt(i))) return undefined;
  // other roots (variables, other providers' resources, iterators, …): the general path
  if (!s.startsWith("tsdb_", typeFrom) && !s.startsWith("containerbackup_", typeFrom)) return undefined;
  const declared = declaredType(ctx, kind, s, typeFrom, typeEnd);
  if (declared === undefined) return undefined; // not declared: the general path says so
  const decl = declared.names.find(s, nameFrom, nameEnd);
  // a check block's data source (scoped) is visible inside its check only: the general path says so
  if (decl === undefined || decl.model === undefined || decl.scoped || repetitionOf(ctx, decl) !== null) return undefined;
  whole.kind = kind;
  whole.declared = declared;
  whole.attrFrom = nameEnd + 1;
  whole.attrEnd = n;
  whole.text = s;
  return decl;
}

/**
 * A whole reference outside our types' arguments (an output's value, a local value, another
 * provider's argument), "${TYPE.NAME.ATTR}" of a block of our types: fine when resolveWhole finds
 * the block and it has the attribute; its dependency edge is made where the general path makes
 * it. False when anything needs a closer look (the general path then judges and reports).
 */
export function fastOutsideReference(ctx: Ctx, node: number, value: string, address: string | null, path: string | null): boolean {
  if (ctx.referenceSink === null) return false;
  const decl = resolveWhole(ctx, node, value);
  if (decl === undefined || attributeIn(decl.model!.block, whole.text, whole.attrFrom, whole.attrEnd) === undefined) return false;
  ctx.dependencies?.edgeAt(ctx, address, path, decl);
  return true;
}

/**
 * The common case without allocating the general machinery: an argument of our types whose
 * value is exactly "${TYPE.NAME.ATTR}" (or "${data.TYPE.NAME.ATTR}") that is fine. Returns false
 * when anything needs a closer look (then the general path checks and reports); true when the
 * reference is known to be valid.
 */
export function fastReference(ctx: Ctx, from: BlockDecl, node: number, value: string, attribute: string | undefined, expects: CtyType | undefined): boolean {
  const decl = resolveWhole(ctx, node, value);
  if (decl === undefined) return false;
  const { kind, declared, attrFrom, attrEnd: n, text: s } = whole;
  ctx.dependencies?.edge(from, decl);
  // The rest depends only on where the reference is made and on the target's type and
  // attribute, which repeat from one reference to the next: the last verdict per type is kept.
  let verdict = declared!.verdict;
  if (
    verdict === null ||
    verdict.from !== from.model ||
    verdict.attribute !== attribute ||
    verdict.expects !== expects ||
    verdict.target.name.length !== n - attrFrom ||
    !s.startsWith(verdict.target.name, attrFrom)
  ) {
    const target = attributeIn(decl.model!.block, s, attrFrom, n);
    if (target === undefined) return false;
    verdict = declared!.verdict = { from: from.model, attribute, expects, target, ok: targetAllowed(kind, decl.model!.type, target, from.model, attribute, expects) };
  }
  if (!verdict.ok) return false;
  if (from.model !== undefined && from.model.key === "resource.tsdb_service" && kind === "resource" && attribute !== undefined && REGION_REFERENCES[attribute] !== undefined) {
    // the region check runs once both blocks are converted (see blockDone)
    (from.regionChecks ??= []).push({ file: ctx.fileIndex, node, start: 2, end: value.length - 1, attribute, target: decl });
  }
  return true;
}

/**
 * The other common case, "${var.NAME}" of a declared variable: an unknown value at validate time
 * (defaults are not used there) of its declared type, a reference the dependency graph has no
 * node for, and nothing else to check. Read from the source text; no template is parsed, no
 * reference object made. Null when anything else is written: the general path then judges it.
 */
export function fastVariableReference(ctx: Ctx, node: number, value: string): PlainVariable | null {
  if (ctx.namedReferenceSink === null) return null;
  const doc = ctx.doc;
  let s = value;
  let o = 0;
  if (doc.kinds[node] === K_STRING) {
    s = doc.text;
    o = doc.starts[node]! + 1;
  }
  const n = o + value.length - 1;
  // "${var." + a name + "}"
  if (n - o < 7 || s.charCodeAt(o) !== 36 || s.charCodeAt(o + 1) !== 123 || s.charCodeAt(n) !== 125 || s.charCodeAt(o + 5) !== 46 || !s.startsWith("var", o + 2)) return null;
  // the name is matched exactly against declared names that are identifiers (variablesOf): no character loop here
  return plainVariable(ctx, s, o + 6, n);
}

/** A declared input variable as the fast paths read it, with the last conversion judged for it. */
export interface PlainVariable {
  readonly name: string;
  /** the argument type a value of this variable was last converted to, and the problem found (null: it converts) */
  lastTarget: CtyType | undefined;
  lastProblem: string | null;
}

/**
 * The problem of converting an unknown value of the variable's declared type to the argument type
 * `t` (null: none); arguments of one type follow one another, so the last verdict is kept.
 */
export function variableConversionProblem(ctx: Ctx, variable: PlainVariable, t: CtyType): string | null {
  if (variable.lastTarget === t) return variable.lastProblem;
  const declared = declaredVariableType(ctx, variable.name);
  variable.lastTarget = t;
  variable.lastProblem = declared === null ? null : conversionProblem(declared, t);
  return variable.lastProblem;
}

/**
 * The declared input variable named s[from, to) when a reference to it needs nothing more: none of
 * the module's variables has a validation rule that refers to other objects (a reference to such a
 * variable is an edge of the dependency graph: the general path adds it). Else null.
 */
export function plainVariable(ctx: Ctx, s: string, from: number, to: number): PlainVariable | null {
  const table = variablesOf(ctx);
  if (table.validated) return null;
  // a few names of this length are compared in place (no name sliced out of the text per reference)
  const candidates = table.byLength[to - from];
  if (candidates === undefined) return null;
  if (candidates.length > 8) return table.byName.get(s.slice(from, to)) ?? null;
  for (let i = 0; i < candidates.length; i++) if (s.startsWith(candidates[i]!.name, from)) return candidates[i]!;
  return null;
}

interface VariableTable {
  byName: Map<string, PlainVariable>;
  byLength: PlainVariable[][];
  validated: boolean;
}

/** The variables each module declares, by name and by the length of their names (read once every declaration is known). */
const variableTables = new WeakMap<Ctx, VariableTable>();
/** the module asked last (one module is checked at a time): no WeakMap look-up per reference */
let lastTable: { ctx: Ctx | null; table: VariableTable | null } = { ctx: null, table: null };

/** Lets go of the last module's tables and text once it is checked (a long-lived process keeps no module alive). */
export function forgetFastReferences(): void {
  lastTable = { ctx: null, table: null };
  whole.declared = null;
  whole.text = "";
}

function variablesOf(ctx: Ctx): VariableTable {
  if (lastTable.ctx === ctx) return lastTable.table!;
  let table = variableTables.get(ctx);
  if (table === undefined) {
    table = { byName: new Map(), byLength: [], validated: ctx.dependencies?.hasValidatedVariables(ctx) ?? false };
    for (const b of ctx.blocks) {
      // a variable named otherwise is refused where it is declared; a reference to it is not plain
      if (b.blockType !== "variable" || table.byName.has(b.name) || !isIdentifier(b.name)) continue;
      const variable: PlainVariable = { name: b.name, lastTarget: undefined, lastProblem: null };
      table.byName.set(b.name, variable);
      (table.byLength[b.name.length] ??= []).push(variable);
    }
    variableTables.set(ctx, table);
  }
  lastTable = { ctx, table };
  return table;
}

/** How many referenced types declaredType keeps at hand: a service refers to three in turn. */
const RECENT_TYPES = 4;

/** The blocks of the type named s[from, to), if any is declared: a recently referenced one, or by hash. */
export function declaredType(ctx: Ctx, kind: "resource" | "data", s: string, from: number, to: number): DeclaredType | undefined {
  const recent = ctx.recentlyReferenced;
  for (let i = 0; i < recent.length; i++) {
    const t = recent[i]!;
    if (t.type.length === to - from && t.kind === kind && s.startsWith(t.type, from)) return t;
  }
  const byHash = ctx.hashedTypes[kind].get(nameHash(s, from, to));
  if (byHash === undefined) return undefined;
  let declared: DeclaredType | undefined;
  if (byHash !== null && byHash.type.length === to - from && s.startsWith(byHash.type, from)) declared = byHash;
  else {
    // two types with one hash: the slow way
    const type = s.slice(from, to);
    const names = ctx.declared[kind].get(type);
    if (names === undefined) return undefined;
    declared = { kind, type, names, verdict: null };
  }
  if (recent.length === RECENT_TYPES) recent.pop();
  recent.unshift(declared);
  return declared;
}

/** The attribute of a block named s[from, to), found without slicing the name. */
export function attributeIn(block: BlockModel, s: string, from: number, to: number): AttributeModel | undefined {
  let byLength = attributesByLength.get(block);
  if (byLength === undefined) {
    byLength = [];
    for (const a of Object.values(block.attributes)) (byLength[a.name.length] ??= []).push(a);
    attributesByLength.set(block, byLength);
  }
  const candidates = byLength[to - from];
  if (candidates === undefined) return undefined;
  for (const a of candidates) if (s.startsWith(a.name, from)) return a;
  return undefined;
}

const attributesByLength = new WeakMap<BlockModel, (AttributeModel[] | undefined)[]>();
