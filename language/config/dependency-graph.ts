// Dependency cycles, as `terraform validate` reports them. A local value whose expression refers
// to itself is "Self-referencing local value" (at the reference). Any other ring of objects that
// depend on each other (local values, resources, data sources, provider configurations, the
// inputs and outputs of local module calls) is "Cycle: a, b, …", which Terraform reports without
// a location: we point at the first of them declared.
//
// The graph is built as the module is checked, from the references the checks find anyway
// (Ctx.addReference / addNamedReference hand each to DependencyGraph.add, which keeps an edge of
// two numbers, not the reference), and from the bare references of depends_on and
// replace_triggered_by (language.ts hands each to DependencyGraph.bare). A module call's output
// depends on the call's inputs as the child module says (its outputs' references, followed
// through its local values and resources).
import { type Ctx, type FoundReference } from "./context.js";
import { callerProviders, childOf, moduleDecl, normalizeSource } from "./module-calls.js";
import { forObjects, K_ARRAY, K_OBJECT, type JsonDoc } from "../syntax/json-parser.js";
import { analyzeTemplate, hasTemplate, type Reference, type TraversalStep } from "../expr/templates.js";
import { type BlockDecl } from "./declarations.js";
import { type ChildModule } from "./module-summary.js";

/** A reference found in a value: the string node holding it, and the reference. */
export interface ValueReference {
  node: number;
  ref: Reference;
  /** the string holding it also calls `fn(` for these names (nonsensitive, ephemeralasnull) */
  text: string;
}

export interface LocalValue {
  name: string;
  file: number;
  key: number;
  /** the references of its value, read when first asked for (see refsOf) */
  refs: ValueReference[] | null;
}

const declaredLocalValues = new WeakMap<Ctx, Map<string, LocalValue>>();

/** Every reference in the strings of a JSON value (templates only; literals refer to nothing). */
export function referencesIn(doc: JsonDoc, node: number, out: ValueReference[] = []): ValueReference[] {
  const kind = doc.kinds[node];
  if (kind === K_OBJECT) {
    const end = doc.nexts[node]!;
    for (let k = node + 1; k < end; k = doc.nexts[k + 1]!) referencesIn(doc, k + 1, out);
  } else if (kind === K_ARRAY) {
    const end = doc.nexts[node]!;
    for (let c = node + 1; c < end; c = doc.nexts[c]!) referencesIn(doc, c, out);
  } else if (doc.isString(node)) {
    const s = doc.str(node);
    if (!hasTemplate(s)) return out;
    const info = analyzeTemplate(s);
    if (info.problem) return out;
    for (const ref of info.references) out.push({ node, ref, text: s });
  }
  return out;
}

/** The module's local values (first declaration of each name); their values are not read here. */
export function localValues(ctx: Ctx): Map<string, LocalValue> {
  let locals = declaredLocalValues.get(ctx);
  if (locals) return locals;
  locals = new Map();
  for (let i = 0; i < ctx.localsBodies.length; i += 2) {
    const file = ctx.localsBodies[i]!;
    const doc = ctx.files[file]!.doc!;
    const body = ctx.localsBodies[i + 1]!;
    for (const k of doc.members(body)) {
      const name = doc.str(k);
      // the first definition of each name, or the override file's that replaces it
      if (name !== "//" && (!locals.has(name) || (ctx.files[file]!.override && !ctx.files[locals.get(name)!.file]!.override))) locals.set(name, { name, file, key: k, refs: null });
    }
  }
  declaredLocalValues.set(ctx, locals);
  return locals;
}

/** The references of a local value's expression (read once). */
export function refsOf(ctx: Ctx, local: LocalValue): ValueReference[] {
  return (local.refs ??= referencesIn(ctx.files[local.file]!.doc!, local.key + 1));
}

/** A local value that refers to itself: Terraform's own error, at the reference (found by DependencyGraph.add). */
function reportSelfReference(ctx: Ctx, found: FoundReference, name: string): void {
  if (ctx.files[found.file]!.contextOnly) return;
  ctx.errorAtReference(found, "cycle", `Self-referencing local value: Local value local.${name} cannot use its own result as part of its expression.`);
}

/** A growable list of edges between node numbers, kept in typed arrays (no element for the collector to trace). */
class Edges {
  from = new Int32Array(1024);
  to = new Int32Array(1024);
  length = 0;
  add(source: number, target: number): void {
    if (this.length === this.from.length) {
      const from = new Int32Array(this.length * 2);
      from.set(this.from);
      this.from = from;
      const to = new Int32Array(this.length * 2);
      to.set(this.to);
      this.to = to;
    }
    this.from[this.length] = source;
    this.to[this.length++] = target;
  }
}

type GraphNode =
  | { kind: "block"; decl: BlockDecl }
  | { kind: "local"; name: string }
  | { kind: "module-var"; module: string; name: string }
  | { kind: "module-output"; module: string; name: string }
  | { kind: "validation"; name: string };

/** Objects of the module as numbers, and the edges "from depends on to" between them. */
export class DependencyGraph {
  readonly nodes: GraphNode[] = [];
  private readonly named = new Map<string, number>();
  private readonly locals = new Map<string, number>();
  /** the module-output nodes (each depends on inputs of its call, added by checkCycles) */
  readonly moduleOutputs: number[] = [];
  /** the edges "from depends on to", two typed arrays: a module's references add tens of thousands */
  readonly edges = new Edges();

  add(ctx: Ctx, found: FoundReference): void {
    // the target first: a reference to nothing in the graph (a variable, a literal root) adds no node
    const target = this.targetOf(ctx, found.ref.root, found.ref.steps);
    if (target < 0) return;
    const source = this.sourceOf(ctx, found);
    if (source < 0) return;
    if (target === source && this.nodes[source]!.kind === "local") reportSelfReference(ctx, found, (this.nodes[source] as { name: string }).name);
    if (target >= 0 && target !== source) {
      this.edges.add(source, target);
    }
  }

  /** a bare reference of depends_on or replace_triggered_by (language.ts), made where `address` is */
  bare(ctx: Ctx, root: string, steps: TraversalStep[], address: string | null): void {
    let source = -1;
    if (ctx.currentBlock) source = this.block(ctx.currentBlock);
    // a module call's depends_on: every input of the call waits for it
    else if (address !== null && address.startsWith("module.")) source = this.namedNode("module-var", address.slice(7), "depends_on");
    if (source < 0) return;
    const target = this.targetOf(ctx, root, steps);
    if (target >= 0 && target !== source) {
      this.edges.add(source, target);
    }
  }

  /** a reference from one block to another that crossref.ts resolved on its fast path */
  edge(from: BlockDecl, to: BlockDecl): void {
    if (from === to) return;
    this.edges.add(this.block(from), this.block(to));
  }

  /** a reference from a block to a local value that referenceFastPaths resolved without a reference object */
  localEdge(from: BlockDecl, name: string): void {
    this.edges.add(this.block(from), this.namedNode("local", "", name));
  }

  /** Whether a reference to some variable is an edge (its validation refers to other objects). */
  hasValidatedVariables(ctx: Ctx): boolean {
    return this.validatedVariables(ctx).size > 0;
  }

  block(decl: BlockDecl): number {
    // kept on the block itself: a Map keyed by objects costs a hash per reference
    if (decl.graphNode < 0) decl.graphNode = this.nodes.push({ kind: "block", decl }) - 1;
    return decl.graphNode;
  }

  hasBlock(decl: BlockDecl): number {
    return decl.graphNode;
  }

  /** The node of a variable's validation ("var.NAME (validation)"). */
  private validation(name: string): number {
    let id = this.validations.get(name);
    if (id === undefined) this.validations.set(name, (id = this.nodes.push({ kind: "validation", name }) - 1));
    return id;
  }

  private readonly validations = new Map<string, number>();
  private validated: Set<string> | null = null;

  /**
   * The variables whose validation refers to something other than the variable itself: only
   * those can be in a ring (most modules have none, and then references to variables add no edge).
   */
  private validatedVariables(ctx: Ctx): Set<string> {
    if (this.validated !== null) return this.validated;
    this.validated = new Set();
    for (const decl of ctx.blocks) {
      if (decl.blockType !== "variable") continue;
      const doc = ctx.files[decl.file]!.doc!;
      for (const k of doc.members(decl.body)) {
        if (doc.str(k) !== "validation") continue;
        if (referencesIn(doc, k + 1).some(({ ref }) => !(ref.root === "var" && ref.steps[0]?.kind === "attr" && ref.steps[0].name === decl.name))) this.validated.add(decl.name);
      }
    }
    return this.validated;
  }

  namedNode(kind: "local" | "module-var" | "module-output", module: string, name: string, create = true): number {
    // local values are looked up by name alone: no key string is built per reference
    const map = kind === "local" ? this.locals : this.named;
    const key = kind === "local" ? name : `${kind}\u0000${module}\u0000${name}`;
    let id = map.get(key);
    if (id === undefined) {
      if (!create) return -1;
      id = this.nodes.push(kind === "local" ? { kind, name } : { kind, module, name }) - 1;
      map.set(key, id);
      if (kind === "module-output") this.moduleOutputs.push(id);
    }
    return id;
  }

  private sourceOf(ctx: Ctx, found: FoundReference): number {
    return this.sourceAt(ctx, found.address, found.path);
  }

  /** a reference to a block that a fast path resolved, made at `address` and `path`: the edge add() makes for it */
  edgeAt(ctx: Ctx, address: string | null, path: string | null, to: BlockDecl): void {
    const source = this.sourceAt(ctx, address, path);
    if (source < 0) return;
    const target = this.block(to);
    if (target !== source) {
      this.edges.add(source, target);
    }
  }

  /** The node a reference made at `address` and `path` starts from (-1: none): the block being checked, else by the address. */
  private sourceAt(ctx: Ctx, address: string | null, path: string | null): number {
    if (ctx.currentBlock) return this.block(ctx.currentBlock);
    if (address !== null && address.startsWith("var.") && path?.startsWith("validation")) {
      const name = address.slice(4);
      return this.validatedVariables(ctx).has(name) ? this.validation(name) : -1;
    }
    if (address === "locals" && path) return this.namedNode("local", "", firstSegment(path));
    if (address !== null && address.startsWith("module.") && path) return this.namedNode("module-var", address.slice(7), firstSegment(path));
    return -1;
  }

  targetOf(ctx: Ctx, root: string, steps: TraversalStep[]): number {
    const first = steps[0];
    if (first?.kind !== "attr") return -1;
    switch (root) {
      case "var":
        // what refers to a variable waits for its validation, which may refer to others in turn
        return this.validatedVariables(ctx).has(first.name) ? this.validation(first.name) : -1;
      case "each":
      case "count":
      case "self":
      case "path":
      case "terraform":
        return -1;
      case "ephemeral": {
        const name = steps[1];
        const decl = name?.kind === "attr" ? ctx.ephemeralBlocks.get(`${first.name}.${name.name}`) : undefined;
        return decl ? this.block(decl) : -1;
      }
      case "local":
        return this.namedNode("local", "", first.name);
      case "module": {
        const output = steps[1];
        return output?.kind === "attr" ? this.namedNode("module-output", first.name, output.name) : -1;
      }
      case "data": {
        const name = steps[1];
        const decl = name?.kind === "attr" ? ctx.declared.data.get(first.name)?.get(name.name) : undefined;
        return decl ? this.block(decl) : -1;
      }
      default: {
        const decl = ctx.declared.resource.get(root)?.get(first.name);
        return decl ? this.block(decl) : -1;
      }
    }
  }
}

function firstSegment(path: string): string {
  let end = path.length;
  const dot = path.indexOf(".");
  const bracket = path.indexOf("[");
  if (dot > 0) end = dot;
  if (bracket > 0 && bracket < end) end = bracket;
  return path.slice(0, end);
}

/** Adds the edges the references cannot give, finds the rings and reports each once. */
export function checkCycles(ctx: Ctx): void {
  const graph = ctx.dependencies as DependencyGraph | null;
  if (!graph) return;
  addModuleOutputs(ctx, graph);
  addProviders(ctx, graph);
  if (graph.edges.length === 0 || !someTargetDependsOnMore(graph)) return;
  for (const component of stronglyConnected(graph)) reportCycle(ctx, graph, component);
}

/** A ring needs a node that is depended on and depends on something itself: when none is, there is none (the usual case, checked cheaply). */
function someTargetDependsOnMore(graph: DependencyGraph): boolean {
  const isSource = new Uint8Array(graph.nodes.length);
  const { from, to, length } = graph.edges;
  for (let i = 0; i < length; i++) isSource[from[i]!] = 1;
  for (let i = 0; i < length; i++) if (isSource[to[i]!] === 1) return true;
  return false;
}

/** An output of a local module call depends on the call's inputs its value derives from in the child. */
function addModuleOutputs(ctx: Ctx, graph: DependencyGraph): void {
  for (const id of graph.moduleOutputs) {
    const node = graph.nodes[id]! as { module: string; name: string };
    const decl = moduleDecl(ctx, node.module);
    const child = decl ? childOf(ctx, decl) : undefined;
    if (!child || child.kind !== "json") continue;
    const variables = childOutputVariables(child).get(node.name);
    if (!variables) continue;
    for (const v of [...variables, "depends_on"]) {
      const input = graph.namedNode("module-var", node.module, v, false);
      if (input >= 0) {
        graph.edges.add(id, input);
      }
    }
  }
}

/** A resource depends on its provider configuration, when that configuration refers to something. */
function addProviders(ctx: Ctx, graph: DependencyGraph): void {
  const providers = new Map<string, number>();
  for (const decl of ctx.blocks) {
    if (decl.blockType !== "provider") continue;
    const id = graph.hasBlock(decl);
    if (id < 0) continue;
    const alias = decl.labelList?.[1];
    providers.set(alias === undefined ? decl.type : `${decl.type}.${alias}`, id);
  }
  if (providers.size === 0) return;
  for (const decl of ctx.pending) {
    if (decl.blockType === "provider") continue;
    const doc = ctx.files[decl.file]!.doc!;
    let provider = decl.type.includes("_") ? decl.type.slice(0, decl.type.indexOf("_")) : decl.type;
    for (const k of doc.members(decl.body)) if (doc.str(k) === "provider" && doc.isString(k + 1)) provider = doc.str(k + 1);
    const id = providers.get(provider);
    if (id !== undefined) {
      graph.edges.add(graph.block(decl), id);
    }
  }
}

const childOutputs = new WeakMap<ChildModule, Map<string, Set<string>>>();

/** For each output of a child module, the variables its value derives from (through local values and resources). */
function childOutputVariables(child: ChildModule): Map<string, Set<string>> {
  const known = childOutputs.get(child);
  if (known) return known;
  // every object of the child: its references
  const refs = new Map<string, Reference[]>();
  const add = (key: string, doc: JsonDoc, node: number) => {
    const list = refs.get(key) ?? [];
    for (const r of referencesIn(doc, node)) list.push(r.ref);
    refs.set(key, list);
  };
  for (const p of child.files) {
    if (!p.result.ok) continue;
    const doc = p.result.doc;
    forObjects(doc, 0, (top) => {
      for (const k of doc.members(top)) {
        const blockType = doc.str(k);
        forObjects(doc, k + 1, (level1) => {
          for (const l of doc.members(level1)) {
            if (blockType === "locals") add(`local.${doc.str(l)}`, doc, l + 1);
            else if (blockType === "output") add(`output.${doc.str(l)}`, doc, l + 1);
            else if (blockType === "resource" || blockType === "data") {
              forObjects(doc, l + 1, (level2) => {
                for (const n of doc.members(level2)) add(`${blockType === "data" ? "data." : ""}${doc.str(l)}.${doc.str(n)}`, doc, n + 1);
              });
            }
          }
        });
      }
    });
  }
  const keyOf = (r: Reference): string | null => {
    const a = r.steps[0];
    const b = r.steps[1];
    if (a?.kind !== "attr") return null;
    if (r.root === "var" || r.root === "local") return `${r.root}.${a.name}`;
    if (r.root === "data") return b?.kind === "attr" ? `data.${a.name}.${b.name}` : null;
    return `${r.root}.${a.name}`;
  };
  const out = new Map<string, Set<string>>();
  for (const name of child.outputs) {
    const variables = new Set<string>();
    const seen = new Set<string>();
    const stack = [`output.${name}`];
    while (stack.length > 0) {
      const key = stack.pop()!;
      if (seen.has(key)) continue;
      seen.add(key);
      if (key.startsWith("var.")) {
        variables.add(key.slice(4));
        continue;
      }
      for (const r of refs.get(key) ?? []) {
        const next = keyOf(r);
        if (next !== null) stack.push(next);
      }
    }
    out.set(name, variables);
  }
  childOutputs.set(child, out);
  return out;
}

/** Tarjan's strongly connected components of more than one node, iteratively. */
function stronglyConnected(graph: DependencyGraph): number[][] {
  const n = graph.nodes.length;
  // edges grouped by source (counting sort): first[v] .. first[v + 1] in targets
  const first = new Int32Array(n + 1);
  const { from, to, length } = graph.edges;
  for (let i = 0; i < length; i++) first[from[i]! + 1]!++;
  for (let v = 0; v < n; v++) first[v + 1]! += first[v]!;
  const targets = new Int32Array(length);
  const fill = first.slice(0, n);
  for (let i = 0; i < length; i++) targets[fill[from[i]!]!++] = to[i]!;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  let stackSize = 0;
  // the depth-first path: node and the position of its next edge (no allocation per node)
  const workNode = new Int32Array(n);
  const workEdge = new Int32Array(n);
  const components: number[][] = [];
  let next = 0;
  for (let start = 0; start < n; start++) {
    if (index[start] !== -1 || first[start] === first[start + 1]) continue;
    let depth = 0;
    workNode[0] = start;
    workEdge[0] = first[start]!;
    index[start] = low[start] = next++;
    stack[stackSize++] = start;
    onStack[start] = 1;
    while (depth >= 0) {
      const v = workNode[depth]!;
      const e = workEdge[depth]!;
      if (e < first[v + 1]!) {
        workEdge[depth] = e + 1;
        const w = targets[e]!;
        if (index[w] === -1) {
          index[w] = low[w] = next++;
          stack[stackSize++] = w;
          onStack[w] = 1;
          depth++;
          workNode[depth] = w;
          workEdge[depth] = first[w]!;
        } else if (onStack[w] && index[w]! < low[v]!) low[v] = index[w]!;
        continue;
      }
      depth--;
      if (depth >= 0) {
        const parent = workNode[depth]!;
        if (low[v]! < low[parent]!) low[parent] = low[v]!;
      }
      if (low[v] === index[v]) {
        // a component of one node (nearly all of them) is no ring: popped without a list
        if (stack[stackSize - 1] === v) {
          stackSize--;
          onStack[v] = 0;
          continue;
        }
        const component: number[] = [];
        let w: number;
        do {
          w = stack[--stackSize]!;
          onStack[w] = 0;
          component.push(w);
        } while (w !== v);
        if (component.length > 1) components.push(component);
      }
    }
  }
  return components;
}

function reportCycle(ctx: Ctx, graph: DependencyGraph, component: number[]): void {
  const providers = callerProviders(ctx);
  const label = (node: GraphNode): string => {
    switch (node.kind) {
      case "local":
        return `local.${node.name} (expand)`;
      case "module-var":
        return `module.${node.module}.var.${node.name} (expand)`;
      case "module-output":
        return `module.${node.module}.output.${node.name} (expand)`;
      case "validation":
        return `var.${node.name} (validation)`;
      case "block": {
        const d = node.decl;
        if (d.blockType === "provider") {
          const source = normalizeSource(providers.required.get(d.type) || `hashicorp/${d.type}`);
          const alias = d.labelList?.[1];
          return `provider["registry.terraform.io/${source}"]${alias === undefined ? "" : `.${alias}`}`;
        }
        return d.blockType === "resource" ? `${d.type}.${d.name}` : `${d.blockType}.${d.type}.${d.name}`;
      }
    }
  };
  // where: the first member we can point at, in file order
  let at: { file: number; node: number } | null = null;
  const locals = localValues(ctx);
  for (const id of component) {
    const node = graph.nodes[id]!;
    let place: { file: number; node: number } | null = null;
    if (node.kind === "block") place = { file: node.decl.file, node: node.decl.header };
    else if (node.kind === "local") {
      const local = locals.get(node.name);
      if (local) place = { file: local.file, node: local.key };
    } else if (node.kind === "validation") {
      const decl = ctx.blocks.find((b) => b.blockType === "variable" && b.name === node.name);
      if (decl) place = { file: decl.file, node: decl.header };
    } else {
      const decl = moduleDecl(ctx, node.module);
      if (decl) place = { file: decl.file, node: decl.header };
    }
    if (!place || ctx.files[place.file]!.contextOnly) continue;
    if (!at || place.file < at.file || (place.file === at.file && place.node < at.node)) at = place;
  }
  if (!at) return;
  ctx.use(at.file);
  // Terraform's order depends on its graph walk; ours is by name, so that a run always says the same
  const names = component.map((id) => label(graph.nodes[id]!)).sort();
  ctx.error("cycle", `Cycle: ${names.join(", ")}`, at.node, null, null);
}
