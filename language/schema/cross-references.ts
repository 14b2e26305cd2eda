// Checks across blocks of one module, where both sides are literal: references to our
// providers' resources and data sources name a declared block and an attribute it has, with a
// compatible type and the right instance keys; ids go to the right resource type and attribute
// (vpc_id → tsdb_vpcs.<name>.vpcs_id, …); an exporter and a VPC are in the region of every
// service that uses them; a read replica is in its source's region.
import { checkModuleOutputReference } from "../config/module-calls.js";
import { joinPath, quote, repetitionOf, type Ctx, type FoundReference } from "../config/context.js";
import type { AttributeModel, BlockModel, CtyType, NestedBlockModel, TypeModel } from "./model-types.js";
import { locate } from "./locate.js";
import { suggest } from "../syntax/suggest.js";
import { builtinType } from "./builtin-types.js";
import { formatTraversal, type TraversalStep } from "../expr/templates.js";
import { parseTypeExpression, stepsProblem, type TypeExpr } from "../expr/type-expressions.js";
import { addressOf, type BlockDecl, type RegionCheck } from "../config/declarations.js";
import { blockStepProblem, indexProblem } from "./schema-traversal.js";
import { declaredLocals } from "../config/local-names.js";
import { REGION_REFERENCES, regionMismatch } from "./region-rules.js";

interface Target {
  kind: "resource" | "data";
  type: string;
  /** attribute path (names only) */
  attribute: string[];
  shown: string;
}

/** Which resource attribute an id-like argument must reference. */
const REFERENCE_RULES: Record<string, Target[]> = {
  // a tsdb_vpcs's id is its vpcs_id as a string: Terraform plans and applies either
  "resource.tsdb_service.vpc_id": [
    { kind: "resource", type: "tsdb_vpcs", attribute: ["vpcs_id"], shown: "tsdb_vpcs.<name>.vpcs_id" },
    { kind: "resource", type: "tsdb_vpcs", attribute: ["id"], shown: "tsdb_vpcs.<name>.id" },
    { kind: "data", type: "tsdb_vpcs", attribute: ["vpcs", "id"], shown: "data.tsdb_vpcs.<name>.vpcs[<index>].id" },
    { kind: "data", type: "tsdb_service", attribute: ["vpc_id"], shown: "data.tsdb_service.<name>.vpc_id" },
  ],
  "resource.tsdb_peering_connection.platform_vpc_id": [
    { kind: "resource", type: "tsdb_vpcs", attribute: ["vpcs_id"], shown: "tsdb_vpcs.<name>.vpcs_id" },
    { kind: "resource", type: "tsdb_vpcs", attribute: ["id"], shown: "tsdb_vpcs.<name>.id" },
    { kind: "data", type: "tsdb_vpcs", attribute: ["vpcs", "id"], shown: "data.tsdb_vpcs.<name>.vpcs[<index>].id" },
  ],
  "resource.tsdb_service.log_exporter_id": [{ kind: "resource", type: "tsdb_log_exporter", attribute: ["id"], shown: "tsdb_log_exporter.<name>.id" }],
  "resource.tsdb_service.metric_exporter_id": [{ kind: "resource", type: "tsdb_metric_exporter", attribute: ["id"], shown: "tsdb_metric_exporter.<name>.id" }],
  "resource.tsdb_service.read_replica_source": [
    { kind: "resource", type: "tsdb_service", attribute: ["id"], shown: "tsdb_service.<name>.id" },
    { kind: "data", type: "tsdb_service", attribute: ["id"], shown: "data.tsdb_service.<name>.id" },
  ],
  "resource.tsdb_connector_obj_store.service_id": [
    { kind: "resource", type: "tsdb_service", attribute: ["id"], shown: "tsdb_service.<name>.id" },
    { kind: "data", type: "tsdb_service", attribute: ["id"], shown: "data.tsdb_service.<name>.id" },
  ],
  "resource.tsdb_connector_src_db.service_id": [
    { kind: "resource", type: "tsdb_service", attribute: ["id"], shown: "tsdb_service.<name>.id" },
    { kind: "data", type: "tsdb_service", attribute: ["id"], shown: "data.tsdb_service.<name>.id" },
  ],
};

const memberMaps = new WeakMap<BlockModel, Map<string, { attribute?: AttributeModel; block?: NestedBlockModel }>>();

/** Attributes and nested blocks of a block by name (a Map: names are user input here). */
function membersOf(block: BlockModel): Map<string, { attribute?: AttributeModel; block?: NestedBlockModel }> {
  let map = memberMaps.get(block);
  if (!map) {
    map = new Map();
    for (const [name, attribute] of Object.entries(block.attributes)) map.set(name, { attribute });
    for (const [name, nested] of Object.entries(block.blocks)) map.set(name, { block: nested });
    memberMaps.set(block, map);
  }
  return map;
}

/** REFERENCE_RULES by type key and attribute name (no string building per reference). */
const RULES_BY_TYPE = new Map<string, Map<string, Target[]>>();
for (const [key, targets] of Object.entries(REFERENCE_RULES)) {
  const dot = key.lastIndexOf(".");
  const type = key.slice(0, dot);
  if (!RULES_BY_TYPE.has(type)) RULES_BY_TYPE.set(type, new Map());
  RULES_BY_TYPE.get(type)!.set(key.slice(dot + 1), targets);
}

interface Resolved {
  decl: BlockDecl;
  kind: "resource" | "data";
  type: string;
  /** attribute names after the instance key */
  attribute: string[];
  /** the type of the attribute referenced, when it is one */
  attributeType?: CtyType;
}


/** Whether an attribute of a block of `type` is what `attribute` of `from` may reference. */
export function targetAllowed(kind: "resource" | "data", type: string, target: AttributeModel, from: TypeModel | undefined, attribute: string | undefined, expects: CtyType | undefined): boolean {
  if (from === undefined || attribute === undefined) return true;
  const rule = RULES_BY_TYPE.get(from.key)?.get(attribute);
  if (rule !== undefined && !rule.some((t) => t.kind === kind && t.type === type && t.attribute.length === 1 && t.attribute[0] === target.name)) return false;
  return expects === undefined || compatible(expects, target.type);
}

/** Resolves and checks one reference (every block of the module is declared by now). */
export function checkReference(ctx: Ctx, found: FoundReference): void {
  const r = resolve(ctx, found);
  if (!r || !found.whole || !found.from?.model || !found.attribute) return;
  const rule = RULES_BY_TYPE.get(found.from.model.key)?.get(found.attribute);
  if (rule && !ruleAllows(rule, r)) {
    const shown = rule.map((t) => t.shown);
    ctx.errorAtReference(found, "reference-target", `Wrong reference: ${found.attribute} must reference ${shown.length > 1 ? `${shown.slice(0, -1).join(", ")} or ${shown[shown.length - 1]}` : shown[0]}, not ${formatTraversal(found.ref)}.`);
    return;
  }
  if (found.expects && r.attributeType && !compatible(found.expects, r.attributeType)) {
    ctx.errorAtReference(found, "reference-type", `Incorrect attribute value type: Inappropriate value for attribute ${quote(found.attribute)}: ${formatTraversal(found.ref)} is ${describe(r.attributeType)}, but ${describe(found.expects)} is required.`);
    return;
  }
  if (found.from.model.key === "resource.tsdb_service" && r.kind === "resource") {
    const a = found.attribute;
    if (Object.hasOwn(REGION_REFERENCES, a) && REGION_REFERENCES[a]!.includes(r.type)) {
      (found.from.regionChecks ??= []).push({ file: found.file, node: found.node, start: found.ref.start, end: found.ref.end, attribute: a, target: r.decl });
    }
  }
}

/** After a block is checked: its region checks whose other side is known run now, others wait. */
export function blockDone(ctx: Ctx, decl: BlockDecl): void {
  decl.done = true;
  const checks = decl.regionChecks;
  if (!checks) return;
  decl.regionChecks = undefined;
  for (const check of checks) {
    if (check.target.done) checkRegion(ctx, decl, check);
    else ctx.pendingRegions.push({ from: decl, check });
  }
}

/** What can only be checked once every block is converted. */
export function finishCrossReferences(ctx: Ctx): void {
  for (const c of ctx.pendingRegions) checkRegion(ctx, c.from, c.check);
  const modules = new Set(ctx.blocks.filter((b) => b.blockType === "module").map((b) => b.name));
  for (const imp of ctx.imports) {
    if (imp.module !== null) {
      // a resource inside a module call: only the call itself can be seen from here
      if (!modules.has(imp.module)) {
        ctx.use(imp.file);
        ctx.error("import-target", `Configuration for import target does not exist: The configuration for the given import target ${imp.to} does not exist. All target instances must have an associated configuration to be imported.`, imp.node, "import", "to");
      }
      continue;
    }
    if (!ctx.declared.resource.get(imp.type)?.has(imp.name) && (imp.type.startsWith("tsdb_") || imp.type.startsWith("containerbackup_"))) {
      ctx.use(imp.file);
      ctx.warning("import-target", `Import target not declared: There is no resource block for ${imp.type}.${imp.name} in this module; Terraform needs one unless it generates configuration (plan -generate-config-out).`, imp.node, "import", "to");
    }
  }
}

/**
 * Once every variable, local value and module call is declared: `var.X`, `local.X` and
 * `module.X` references are checked as they are found (those found earlier now), none kept.
 */
export function startNamedReferences(ctx: Ctx): void {
  let declared: Declared | null = null;
  ctx.namedReferenceSink = (found) => {
    declared ??= {
      variables: primaryVariables(ctx),
      variableOverrides: overridingVariables(ctx),
      variableTypes: new Map(),
      locals: declaredLocals(ctx),
      modules: new Set(ctx.blocks.filter((b) => b.blockType === "module").map((b) => b.name)),
      hints: new Map(),
    };
    checkNamedReference(ctx, found, declared);
  };
  for (const found of ctx.namedReferences) ctx.namedReferenceSink(found);
  ctx.namedReferences.length = 0;
}

/** Each variable's declaration, the primary file's where there is one. */
function primaryVariables(ctx: Ctx): ReadonlyMap<string, BlockDecl> {
  const out = new Map<string, BlockDecl>();
  for (const b of ctx.blocks) {
    if (b.blockType !== "variable") continue;
    const earlier = out.get(b.name);
    if (!earlier || (ctx.files[earlier.file]!.override && !ctx.files[b.file]!.override)) out.set(b.name, b);
  }
  return out;
}

/** The variable declarations of override files, by name, in file order (Terraform merges them into the primary one). */
function overridingVariables(ctx: Ctx): ReadonlyMap<string, BlockDecl[]> {
  const out = new Map<string, BlockDecl[]>();
  if (!ctx.files.some((f) => f.override)) return out;
  for (const b of ctx.blocks) if (b.blockType === "variable" && ctx.files[b.file]!.override) out.set(b.name, [...(out.get(b.name) ?? []), b]);
  return out;
}

interface Declared {
  variables: ReadonlyMap<string, BlockDecl>;
  /** override files' declarations of variables: a type there replaces the primary one's */
  variableOverrides: ReadonlyMap<string, BlockDecl[]>;
  /** each referenced variable's type constraint, parsed once (null when it has none) */
  variableTypes: Map<string, TypeExpr | null>;
  locals: ReadonlyMap<string, unknown>;
  modules: ReadonlySet<string>;
  /** "Did you mean" per root and name: the same misspelling recurs, and each look-up reads every declared name */
  hints: Map<string, string | undefined>;
}

function hintFor(declared: Declared, root: string, name: string, candidates: () => Iterable<string>): string | undefined {
  const key = `${root}.${name}`;
  if (declared.hints.has(key)) return declared.hints.get(key);
  const hint = suggest(name, candidates());
  declared.hints.set(key, hint);
  return hint;
}

function checkNamedReference(ctx: Ctx, found: FoundReference, declared: Declared): void {
  const name = (found.ref.steps[0] as { name: string }).name;
  const root = found.ref.root;
  if (root === "var" && !declared.variables.has(name)) {
    const hint = hintFor(declared, root, name, () => declared.variables.keys());
    ctx.errorAtReference(found, "undeclared-reference", `Reference to undeclared input variable: An input variable with the name ${quote(name)} has not been declared.${hint ? ` Did you mean "${hint}"?` : ` This variable can be declared with a variable ${quote(name)} {} block.`}`);
  } else if (root === "local" && !declared.locals.has(name)) {
    const hint = hintFor(declared, root, name, () => declared.locals.keys());
    ctx.errorAtReference(found, "undeclared-reference", `Reference to undeclared local value: A local value with the name ${quote(name)} has not been declared.${hint ? ` Did you mean "${hint}"?` : ""}`);
  } else if (root === "module" && !declared.modules.has(name)) {
    const hint = hintFor(declared, root, name, () => declared.modules);
    ctx.errorAtReference(found, "undeclared-reference", `Reference to undeclared module: No module call named ${quote(name)} is declared in the root module.${hint ? ` Did you mean "${hint}"?` : ""}`);
  } else if (root === "module") checkModuleOutputReference(ctx, found);
  else if (root === "var" && found.ref.steps.length > 1) {
    const type = variableType(ctx, declared, name);
    const negative = found.ref.negativeIndex;
    const steps = negative === undefined ? found.ref.steps.slice(1) : [...found.ref.steps.slice(1, -1), { kind: "index" as const, key: negative }];
    const problem = type ? stepsProblem(type, steps) : null;
    if (problem) ctx.errorAtReference(found, "unsupported-attribute", problem);
  }
}

/** The type constraint a variable declares, parsed (null without one, or when it does not parse: reported at the type). */
function variableType(ctx: Ctx, declared: Declared, name: string): TypeExpr | null {
  let type = declared.variableTypes.get(name);
  if (type !== undefined) return type;
  type = null;
  // the primary declaration's type, unless an override file sets one
  for (const decl of [declared.variables.get(name)!, ...(declared.variableOverrides.get(name) ?? [])]) {
    const doc = ctx.files[decl.file]!.doc;
    if (!doc) continue;
    for (const k of doc.members(decl.body)) {
      if (doc.str(k) !== "type" || !doc.isString(k + 1)) continue;
      const parsed = parseTypeExpression(doc.str(k + 1));
      type = "type" in parsed ? parsed.type : null;
    }
  }
  declared.variableTypes.set(name, type);
  return type;
}

/** Whether a rule allows the target (a loop: a closure would cost checkReference a context per call). */
function ruleAllows(rule: Target[], r: Resolved): boolean {
  for (const t of rule) if (t.kind === r.kind && t.type === r.type && sameNames(t.attribute, r.attribute)) return true;
  return false;
}

function sameNames(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export function resolve(ctx: Ctx, found: FoundReference): Resolved | null {
  const steps: TraversalStep[] = found.ref.steps;
  let at = 0; // index of the next step to read
  let kind: "resource" | "data" = "resource";
  let type = found.ref.root;
  if (type === "data") {
    kind = "data";
    type = (steps[0] as { name: string }).name;
    at = 1;
  }
  const nameStep = steps[at];
  if (!nameStep || nameStep.kind !== "attr") {
    ctx.errorAtReference(found, "invalid-reference", `Invalid reference: A reference to a ${kind === "data" ? "data source" : "resource"} type must be followed by at least one attribute access, specifying the ${kind === "data" ? "data source" : "resource"} name.`);
    return null;
  }
  at++;
  const decl = ctx.declared[kind].get(type)?.get(nameStep.name);
  if (!decl) {
    ctx.errorAtReference(
      found,
      "undeclared-reference",
      `Reference to undeclared resource: A ${kind === "data" ? "data" : "managed"} resource ${quote(type)} ${quote(nameStep.name)} has not been declared in this module.`,
    );
    return null;
  }
  if (decl.scoped && !(found.address !== null && decl.addressText !== null && decl.addressText.startsWith(`${found.address}.`))) {
    // a check block's data source is visible inside that check only
    ctx.errorAtReference(found, "undeclared-reference", `Reference to scoped resource: The referenced data resource ${quote(type)} ${quote(nameStep.name)} is not available from this context.`);
    return null;
  }
  const shownName = `${kind === "data" ? "data." : ""}${type}.${nameStep.name}`; // a cons string: built only if printed
  const first = steps[at];
  const repetition = repetitionOf(ctx, decl);
  if (repetition) {
    if (first && first.kind === "attr") {
      ctx.errorAtReference(
        found,
        "instance-key",
        `Missing resource instance key: Because ${shownName} has ${quote(repetition)} set, its attributes must be accessed on specific instances, e.g. ${shownName}[${repetition === "count" ? "count.index" : "each.key"}].`,
      );
      return null;
    }
    if (first) at++;
  } else if (first && first.kind === "index" && first.key !== null) {
    ctx.errorAtReference(found, "instance-key", `Unexpected resource instance key: Because ${shownName} does not have "count" or "for_each" set, references to it must not include an index key.`);
    return null;
  } else if (first && first.kind === "splat") at++;
  // validate checks a reference's attributes up to a splat only: what follows one is evaluated
  // over the resource's unknown value, which has every attribute
  let afterSplat = first?.kind === "splat";
  const attribute: string[] = [];
  let attributeType: CtyType | undefined;
  // the steps after the instance key are steps[at…] (not copied: one reference per block of a generated file)
  if (decl.model && steps.length > at && steps[at]!.kind === "attr") {
    let block: BlockModel | null = decl.model.block;
    let t: CtyType | undefined;
    let path = "";
    // whether the next step is taken on a block (the resource's body, a single nested block, an element of a list of blocks)
    let atBlock = true;
    let member: { attribute?: AttributeModel; block?: NestedBlockModel } | undefined;
    for (let i = at; i < steps.length; i++) {
      const step = steps[i]!;
      if (step.kind === "splat") afterSplat = true;
      const problem = afterSplat ? null : atBlock ? blockStepProblem(step) : indexProblem(t, step);
      if (problem) {
        ctx.errorAtReference(found, "invalid-index", problem);
        return null;
      }
      if (step.kind !== "attr") {
        // an element of a list of blocks is a block
        atBlock = block !== null && t !== undefined && typeof t !== "string" && t[0] === "list" && member?.block !== undefined;
        // an element of a list, set or map
        if (t && typeof t !== "string" && t[0] !== "object") t = t[1] as CtyType;
        else if (!block) t = undefined;
        continue;
      }
      attribute.push(step.name);
      if (!block) {
        // inside an object-typed attribute
        if (t && typeof t !== "string" && t[0] === "object" && !Object.prototype.hasOwnProperty.call(t[1], step.name)) {
          if (afterSplat) break;
          ctx.errorAtReference(found, "unsupported-attribute", `Unsupported attribute: ${shownName}.${path} has no attribute named ${quote(step.name)}.`);
          return null;
        }
        t = t && typeof t !== "string" && t[0] === "object" ? t[1][step.name] : undefined;
        path = joinPath(path || null, step.name);
        continue;
      }
      member = membersOf(block).get(step.name);
      const a: AttributeModel | undefined = member?.attribute;
      const b: NestedBlockModel | undefined = member?.block;
      if (!a && !b) {
        if (afterSplat) break;
        const hint = suggest(step.name, [...Object.keys(block.attributes), ...Object.keys(block.blocks)]);
        ctx.errorAtReference(
          found,
          "unsupported-attribute",
          `Unsupported attribute: ${path ? `${shownName}.${path}` : `This object (${shownName})`} has no argument, nested block, or exported attribute named ${quote(step.name)}.${hint ? ` Did you mean "${hint}"?` : ""}`,
        );
        return null;
      }
      path = joinPath(path || null, step.name);
      if (a) {
        t = a.type;
        block = a.nested ? a.nested.block : null;
        atBlock = false;
      } else {
        t = b!.nesting === "single" ? ["object", {}] : ["list", ["object", {}]];
        block = b!.block;
        atBlock = b!.nesting === "single";
      }
    }
    // a splat ("[*]") makes a list of what follows it: the type computed is an element's
    attributeType = steps.some((x) => x.kind === "splat") ? undefined : t;
  } else if (!decl.model && steps.length > at && steps[at]!.kind === "attr") {
    // Terraform's built-in types (builtin-types.ts): their attributes are known, their values not
    const builtin = builtinType(kind, type);
    const name = (steps[at] as { name: string }).name;
    if (builtin && !afterSplat && !builtin.attributes.has(name)) {
      const hint = suggest(name, builtin.attributes.keys());
      ctx.errorAtReference(found, "unsupported-attribute", `Unsupported attribute: This object has no argument, nested block, or exported attribute named ${quote(name)}.${hint ? ` Did you mean "${hint}"?` : ""}`);
      return null;
    }
  }
  return { decl, kind, type, attribute, attributeType };
}

function describe(t: CtyType): string {
  if (typeof t === "string") return t === "bool" ? "a bool" : `a ${t}`;
  if (t[0] === "object") return "an object";
  return `a ${t[0]}`;
}

/** Whether a value of type `from` can be assigned where `to` is expected (go-cty conversions). */
function compatible(to: CtyType, from: CtyType): boolean {
  if (typeof to === "string" || typeof from === "string") {
    if (typeof to !== "string" || typeof from !== "string") return false;
    if (to === from) return true;
    return to === "string" || from === "string"; // number/bool ↔ string convert; number ↔ bool do not
  }
  if (to[0] === "list" || to[0] === "set") return (from[0] === "list" || from[0] === "set") && compatible(to[1] as CtyType, from[1] as CtyType);
  if (to[0] === "map") return from[0] === "map" || from[0] === "object";
  return from[0] === "object" || from[0] === "map";
}

function checkRegion(ctx: Ctx, service: BlockDecl, check: RegionCheck): void {
  const target = check.target;
  const serviceRegion = service.region;
  const targetRegion = target.region;
  if (!serviceRegion || !targetRegion || serviceRegion === targetRegion) return;
  if (check.attribute === "read_replica_source") {
    ctx.use(service.file);
    const loc = locate(ctx, service, service.model!.block, ["region_code"]);
    ctx.report(
      "error",
      "region-mismatch",
      regionMismatch(check.attribute, addressOf(target), targetRegion, addressOf(service), serviceRegion),
      loc.start,
      loc.end,
      addressOf(service),
      "region_code",
      service.file,
    );
    return;
  }
  const found: FoundReference = {
    file: check.file,
    node: check.node,
    ref: { root: "", steps: [], start: check.start, end: check.end },
    whole: true,
    address: addressOf(service),
    path: check.attribute,
    from: service,
    attribute: check.attribute,
    expects: undefined,
  };
  ctx.errorAtReference(found, "region-mismatch", regionMismatch(check.attribute, addressOf(target), targetRegion, addressOf(service), serviceRegion));
}
