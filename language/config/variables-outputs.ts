// Rules of input variables and outputs that `terraform validate` applies beyond their block
// syntax (language.ts): a null default with nullable = false, object type constraints that
// name an attribute twice, ephemeral outputs in the root module, root-module outputs whose value
// derives from a sensitive variable without `sensitive = true`, and outputs whose value derives
// from an ephemeral variable or resource without `ephemeral = true`. Values derive through local
// values too; `nonsensitive(…)` and `ephemeralasnull(…)` drop the mark, as in Terraform.
import { argumentsOf } from "./moved-import-removed.js";
import { unchecked, type Ctx } from "./context.js";
import { localValues, referencesIn, refsOf, type ValueReference } from "./dependency-graph.js";
import { K_FALSE, K_NULL, K_TRUE, parseJson, someString, type JsonDoc } from "../syntax/json-parser.js";
import { conversionProblem, parseTypeExpression } from "../expr/type-expressions.js";
import { addressOf, type BlockDecl } from "./declarations.js";
import { childOf } from "./module-calls.js";

interface Marks {
  sensitive: boolean;
  ephemeral: boolean;
}

export function checkVariablesAndOutputs(ctx: Ctx): void {
  const variables = variableMarks(ctx);
  for (const decl of ctx.blocks) {
    if (decl.blockType !== "variable") continue;
    const doc = ctx.files[decl.file]!.doc!;
    const args = argumentsOf(doc, decl.body);
    if (ctx.files[decl.file]!.contextOnly) continue;
    ctx.use(decl.file);
    const def = args.get("default");
    const nullable = args.get("nullable");
    if (def !== undefined && doc.kinds[def + 1] === K_NULL && nullable !== undefined && isFalse(doc, nullable)) {
      ctx.error("variable-default", "Invalid default value for variable: A null default value is not valid when nullable=false.", def + 1, addressOf(decl), "default");
    }
    const type = args.get("type");
    if (type !== undefined && doc.isString(type + 1)) {
      const text = doc.str(type + 1);
      const repeated = repeatedObjectAttribute(text);
      if (repeated !== null) ctx.error("variable-type", `Invalid type specification: Object constructor map keys must be unique (${JSON.stringify(repeated)} is given twice).`, type + 1, addressOf(decl), "type");
      else {
        const found = optionalDefaultProblem(text);
        // Terraform shows the default itself (in a native file, the line of the optional attribute)
        if (found !== null) ctx.errorInString("variable-type", `Invalid default value for optional attribute: This default value is not compatible with the attribute's type constraint: ${found.problem}.`, type + 1, found.offset, addressOf(decl), "type");
      }
    }
  }
  const marks = new LocalMarks(ctx, variables);
  for (const decl of ctx.blocks) {
    if (decl.blockType !== "output" || ctx.files[decl.file]!.contextOnly || unchecked(ctx, decl)) continue;
    ctx.use(decl.file);
    checkOutput(ctx, decl, marks);
  }
  // resources' arguments: only when something ephemeral exists (most modules have nothing to look at)
  if ([...variables.values()].some((m) => m.ephemeral) || ctx.blocks.some((b) => b.blockType === "ephemeral") || ctx.pending.some((b) => b.blockType === "ephemeral")) {
    for (const decl of ctx.pending) {
      const file = ctx.files[decl.file]!;
      // data sources too: Terraform refuses ephemeral values in their arguments alike
      if ((decl.blockType !== "resource" && decl.blockType !== "data") || file.contextOnly || file.override) continue;
      ctx.use(decl.file);
      checkEphemeralArguments(ctx, decl, marks);
    }
    for (const decl of ctx.blocks) if (decl.blockType === "module" && !ctx.files[decl.file]!.contextOnly) checkEphemeralModuleArguments(ctx, decl, marks);
  }
}

/** A local module call's arguments: a value derived from an ephemeral one only for a variable the child declares ephemeral. */
function checkEphemeralModuleArguments(ctx: Ctx, decl: BlockDecl, marks: LocalMarks): void {
  const child = childOf(ctx, decl);
  if (child?.kind !== "json") return;
  const doc = ctx.files[decl.file]!.doc!;
  for (const k of doc.members(decl.body)) {
    const variable = child.variables.get(doc.str(k));
    if (!variable || variable.ephemeral) continue;
    const refs = referencesIn(doc, k + 1);
    if (refs.length === 0 || !marks.of(refs).ephemeral) continue;
    ctx.use(decl.file);
    ctx.error("ephemeral", "Ephemeral value not allowed: This input variable is not declared as accepting a ephemeral values, so it cannot be set to a result derived from an ephemeral value.", k + 1, addressOf(decl), doc.str(k));
  }
}

/**
 * Each variable's marks as Terraform merges its declarations: the primary one's, with `sensitive`
 * from an override file that sets it (`ephemeral` is not merged).
 */
function variableMarks(ctx: Ctx): Map<string, Marks> {
  const variables = new Map<string, Marks>();
  for (const override of [false, true]) {
    for (const decl of ctx.blocks) {
      if (decl.blockType !== "variable" || ctx.files[decl.file]!.override !== override) continue;
      const doc = ctx.files[decl.file]!.doc!;
      const args = argumentsOf(doc, decl.body);
      const marks = variables.get(decl.name);
      if (!marks) variables.set(decl.name, { sensitive: isTrue(doc, args.get("sensitive")), ephemeral: !override && isTrue(doc, args.get("ephemeral")) });
      else if (override && args.has("sensitive")) marks.sensitive = isTrue(doc, args.get("sensitive"));
    }
  }
  return variables;
}

/** Arguments whose values are not persisted: conditions, provisioners, the provider and dependencies. */
const NOT_PERSISTED = new Set(["lifecycle", "provisioner", "connection", "depends_on", "provider", "//"]);

/** An ephemeral value may only reach a write-only attribute of a resource (Terraform 1.11 validate). */
function checkEphemeralArguments(ctx: Ctx, decl: BlockDecl, marks: LocalMarks): void {
  const doc = ctx.doc;
  for (const k of doc.members(decl.body)) {
    const name = doc.str(k);
    if (NOT_PERSISTED.has(name) || decl.model?.block.attributes[name]?.writeOnly) continue;
    const refs = referencesIn(doc, k + 1);
    if (refs.length === 0 || !marks.of(refs).ephemeral) continue;
    ctx.use(decl.file);
    if (name === "count") {
      ctx.error("ephemeral", 'Invalid count argument: The given "count" is derived from an ephemeral value, which means that Terraform cannot persist it between plan/apply rounds. Use only non-ephemeral values to specify the number of resource instances.', k + 1, addressOf(decl), name);
    } else if (name === "for_each") {
      ctx.error("ephemeral", 'Invalid for_each argument: The given "for_each" value is derived from an ephemeral value, which means that Terraform cannot persist it between plan/apply rounds. Use only non-ephemeral values to specify a resource\'s instance keys.', k + 1, addressOf(decl), name);
    } else {
      ctx.error("ephemeral", `Invalid use of ephemeral value: Ephemeral values are not valid for ${JSON.stringify(name)}, because it is not a write-only attribute and must be persisted to state.`, k + 1, addressOf(decl), name);
    }
  }
}

function checkOutput(ctx: Ctx, decl: BlockDecl, marks: LocalMarks): void {
  const doc = ctx.doc;
  // the last of each name, as argumentsOf (without a map per output)
  let ephemeralKey: number | undefined;
  let value: number | undefined;
  let sensitiveKey: number | undefined;
  const end = doc.nexts[decl.body]!;
  for (let k = decl.body + 1; k < end; k = doc.nexts[k + 1]!) {
    const name = doc.str(k);
    if (name === "value") value = k;
    else if (name === "ephemeral") ephemeralKey = k;
    else if (name === "sensitive") sensitiveKey = k;
  }
  const ephemeral = isTrue(doc, ephemeralKey);
  if (ephemeral && !ctx.isChild) {
    ctx.report("error", "output", "Ephemeral output not allowed: Ephemeral outputs are not allowed in context of a root module", doc.start(decl.body), doc.start(decl.body) + 1, addressOf(decl), null);
    return;
  }
  if (value === undefined) return;
  const refs = referencesIn(doc, value + 1);
  const all = marks.of(refs);
  // issensitive(x) is an unmarked bool, nonsensitive(x) x unmarked: only the sensitive mark of what they read is dropped
  // (what fewer references carry, all of them carry: without the mark in all, none to look for)
  const derived = { ephemeral: all.ephemeral, sensitive: all.sensitive && marks.of(refs.filter((r) => !insideUnmarkingCall(r.text, r.ref.start))).sensitive };
  ctx.use(decl.file);
  // a child's ephemeral output needs an ephemeral value: judged only when the value is a literal or
  // comes straight from declared variables (module outputs and local values may carry the mark)
  if (ephemeral && !derived.ephemeral && fromDeclaredVariables(refs, marks)) {
    ctx.error("output", "Value not allowed in ephemeral output: This output value is declared as returning an ephemeral value, so it can only be set to an ephemeral value.", value + 1, addressOf(decl), "value");
  } else if (derived.ephemeral && !ephemeral) {
    ctx.error("output", "Ephemeral value not allowed: This output value is not declared as returning an ephemeral value, so it cannot be set to a result derived from an ephemeral value.", value + 1, addressOf(decl), "value");
  } else if ((derived.sensitive || someString(doc, value + 1, callsSensitive, false)) && !ctx.isChild && !isTrue(doc, sensitiveKey)) {
    ctx.report(
      "error",
      "output",
      "Output refers to sensitive values: To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, Terraform requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.",
      doc.start(decl.body),
      doc.start(decl.body) + 1,
      addressOf(decl),
      null,
    );
  }
}

/** Whether every reference is to a declared variable (a value of nothing else, or a literal). */
function fromDeclaredVariables(refs: ValueReference[], marks: LocalMarks): boolean {
  for (const r of refs) if (!(r.ref.root === "var" && r.ref.steps[0]?.kind === "attr" && marks.declares(r.ref.steps[0].name))) return false;
  return true;
}

/** The marks values derive from variables, ephemeral resources and local values (memoized per local value). */
class LocalMarks {
  private readonly memo = new Map<string, Marks>();
  constructor(
    private readonly ctx: Ctx,
    private readonly variables: Map<string, Marks>,
  ) {}

  declares(variable: string): boolean {
    return this.variables.has(variable);
  }

  of(refs: ValueReference[]): Marks {
    const out: Marks = { sensitive: false, ephemeral: false };
    for (const r of refs) {
      const step = r.ref.steps[0];
      let m: Marks | undefined;
      if (r.ref.root === "ephemeral") m = { sensitive: false, ephemeral: true };
      else if (step?.kind !== "attr") continue;
      else if (r.ref.root === "var") m = this.variables.get(step.name);
      else if (r.ref.root === "local") m = this.local(step.name);
      if (!m) continue;
      // a function that removes the mark, anywhere in the same string: the mark is dropped
      if (m.sensitive && !r.text.includes("nonsensitive(")) out.sensitive = true;
      if (m.ephemeral && !r.text.includes("ephemeralasnull(")) out.ephemeral = true;
    }
    return out;
  }

  private local(name: string): Marks | undefined {
    const known = this.memo.get(name);
    if (known) return known;
    const local = localValues(this.ctx).get(name);
    if (!local) return undefined;
    // each local value read is one level deeper: a chain longer than this adds nothing
    if (this.depth >= 500) return undefined;
    // unmarked while being computed: a cycle adds nothing (and is reported by cycles.ts)
    this.memo.set(name, { sensitive: false, ephemeral: false });
    this.depth++;
    try {
      const marks = this.of(refsOf(this.ctx, local));
      this.memo.set(name, marks);
      return marks;
    } finally {
      this.depth--;
    }
  }

  private depth = 0;
}

/** Whether a value's templates call sensitive(…) (and none calls nonsensitive, which could drop the mark). */
function callsSensitive(s: string): boolean {
  return s.includes("${") && SENSITIVE_CALL.test(s) && !s.includes("nonsensitive(");
}

const UNMARKING_CALL = /(?<![\w:-])(?:core::)?(?:issensitive|nonsensitive)\s*\(/g;

/** Whether offset `at` of template `s` lies within the arguments of a call to issensitive or nonsensitive. */
function insideUnmarkingCall(s: string, at: number): boolean {
  // both names end in "sensitive": most templates are answered without a regular expression
  if (!s.includes("sensitive")) return false;
  for (const m of s.matchAll(UNMARKING_CALL)) {
    const open = m.index + m[0].length;
    if (open > at) return false;
    // the call's closing parenthesis (quoted strings skipped)
    let depth = 1;
    let i = open;
    for (; i < s.length && depth > 0; i++) {
      const c = s[i];
      if (c === '"') {
        for (i++; i < s.length && s[i] !== '"'; i++) if (s[i] === "\\") i++;
      } else if (c === "(") depth++;
      else if (c === ")") depth--;
    }
    if (at < i) return true;
  }
  return false;
}

const SENSITIVE_CALL = /\$\{[^}]*(?<![\w-])sensitive\s*\(/;

/** A literal true (or the string "true", which Terraform converts). */
function isTrue(doc: JsonDoc, key: number | undefined): boolean {
  if (key === undefined) return false;
  return doc.kinds[key + 1] === K_TRUE || (doc.isString(key + 1) && doc.str(key + 1) === "true");
}

function isFalse(doc: JsonDoc, key: number): boolean {
  return doc.kinds[key + 1] === K_FALSE || (doc.isString(key + 1) && doc.str(key + 1) === "false");
}

/** An attribute named twice in one `object({…})` of a type expression, or null. */
function repeatedObjectAttribute(type: string): string | null {
  if (!type.includes("object(")) return null;
  // one set of names per open brace; a name is an identifier followed by "=" (or ":") at that level
  const levels: Set<string>[] = [];
  const word = /[A-Za-z_][A-Za-z0-9_-]*/y;
  for (let i = 0; i < type.length; i++) {
    const c = type[i]!;
    if (c === "{") levels.push(new Set());
    else if (c === "}") levels.pop();
    else if (c === '"' && levels.length > 0) {
      const close = type.indexOf('"', i + 1);
      if (close < 0) return null;
      const name = type.slice(i + 1, close);
      if (isKey(type, close + 1)) {
        if (levels[levels.length - 1]!.has(name)) return name;
        levels[levels.length - 1]!.add(name);
      }
      i = close;
    } else if (levels.length > 0 && /[A-Za-z_]/.test(c) && !/[A-Za-z0-9_-]/.test(type[i - 1] ?? " ")) {
      word.lastIndex = i;
      const m = word.exec(type)!;
      const name = m[0];
      const after = i + name.length;
      if (isKey(type, after)) {
        if (levels[levels.length - 1]!.has(name)) return name;
        levels[levels.length - 1]!.add(name);
      }
      i = after - 1;
    }
  }
  return null;
}

function isKey(s: string, from: number): boolean {
  let j = from;
  while (j < s.length && (s[j] === " " || s[j] === "\t" || s[j] === "\n" || s[j] === "\r")) j++;
  return s[j] === "=" || s[j] === ":";
}

/**
 * The first `optional(TYPE, DEFAULT)` of a type expression whose literal default does not convert
 * to TYPE: the problem's text and where the default starts in the type's text; null when all
 * convert (or a default is not a literal we read).
 */
function optionalDefaultProblem(type: string): { problem: string; offset: number } | null {
  let from = 0;
  for (;;) {
    const at = type.indexOf("optional(", from);
    if (at < 0) return null;
    from = at + 9;
    if (at > 0 && /[A-Za-z0-9_-]/.test(type[at - 1]!)) continue;
    // the arguments: up to the matching parenthesis, split at the top-level comma
    let depth = 0;
    let comma = -1;
    let end = -1;
    for (let i = from; i < type.length && end < 0; i++) {
      const c = type[i]!;
      if (c === '"') {
        i = skipString(type, i);
        continue;
      }
      if (c === "(" || c === "[" || c === "{") depth++;
      else if (c === ")" || c === "]" || c === "}") {
        if (depth === 0 && c === ")") end = i;
        else depth--;
      } else if (c === "," && depth === 0 && comma < 0) comma = i;
    }
    if (end < 0 || comma < 0) continue;
    const parsed = parseTypeExpression(type.slice(from, comma));
    if ("error" in parsed) continue;
    const json = literalAsJson(type.slice(comma + 1, end));
    if (json === null) continue;
    const result = parseJson(json);
    if (!result.ok) continue;
    const problem = conversionProblem(result.doc, 0, parsed.type, []);
    if (problem !== null) return { problem, offset: comma + 1 + (type.slice(comma + 1).length - type.slice(comma + 1).trimStart().length) };
  }
}

function skipString(s: string, at: number): number {
  let i = at + 1;
  while (i < s.length && s[i] !== '"') i += s[i] === "\\" ? 2 : 1;
  return i;
}

/** An HCL literal (strings, numbers, bools, null, [..], {k = v}) as JSON text; null for anything else (an expression). */
function literalAsJson(text: string): string | null {
  let out = "";
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"') {
      const close = skipString(text, i);
      const body = text.slice(i, close + 1);
      if (body.includes("${") || body.includes("%{")) return null;
      out += body;
      i = close + 1;
    } else if ("[]{},".includes(c)) {
      out += c;
      i++;
    } else if (c === "=" || c === ":") {
      out += ":";
      i++;
    } else {
      const m = /^(-?[0-9][0-9.eE+-]*|[A-Za-z_][A-Za-z0-9_-]*)/.exec(text.slice(i));
      if (!m) return null;
      const word = m[0];
      i += word.length;
      let j = i;
      while (j < n && /\s/.test(text[j]!)) j++;
      const isKey = text[j] === "=" || text[j] === ":";
      if (isKey && /^[A-Za-z_]/.test(word)) out += JSON.stringify(word);
      else if (/^-?[0-9]/.test(word) || word === "true" || word === "false" || word === "null") out += word;
      else return null;
    }
  }
  return out;
}
