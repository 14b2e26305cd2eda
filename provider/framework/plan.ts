// PlanResourceChange, the generic part (reference §10): start from proposed_new_state (Terraform
// has merged the configuration with prior computed values), apply defaults where the
// configuration is null, make computed values unknown only where they will change, null
// write-only attributes, and list the force-new paths that changed.
import { type Body, type Value, UNKNOWN } from "../codec.js";
import { type SchemaAttribute, type SchemaBlock, nestedAsBlock } from "../schema.js";
import type { Path, PlanBlockModel } from "./types.js";
import { attributeEqual, blockEqual, blockTypeEqual, isObject } from "./values.js";

export interface PlanInputs {
  /** null on create. */
  prior: Body | null;
  proposed: Body;
  config: Body;
  block: SchemaBlock;
  model?: PlanBlockModel;
  /** Computed attributes that change whenever the resource changes. */
  changesOnUpdate?: string[];
}

export interface PlanResult {
  planned: Body;
  requiresReplace: Path[];
  /** Whether the plan differs from the prior state (true on create). */
  changed: boolean;
}

export function planChange(inputs: PlanInputs): PlanResult {
  const { prior, proposed, config, block, model } = inputs;
  const planned = planObject(proposed, config, prior, block, model);
  const changed = prior === null || !blockEqual(planned, prior, block);
  if (prior && changed) {
    const volatile = Object.entries(model?.attributes ?? {}).filter(([, meta]) => meta.volatile).map(([name]) => name);
    for (const name of [...volatile, ...(inputs.changesOnUpdate ?? [])]) {
      const attribute = block.attributes?.[name];
      // Only computed values the configuration leaves alone may become unknown.
      if (attribute?.computed && (config[name] === null || config[name] === undefined)) planned[name] = UNKNOWN;
    }
  }
  const requiresReplace: Path[] = [];
  if (prior) replacePaths(planned, prior, config, block, model, [], requiresReplace);
  return { planned, requiresReplace, changed };
}

/**
 * Plans one object. `prior` is the object's prior counterpart (null when the object is new:
 * a created resource, or a nested element that did not exist before).
 */
function planObject(proposed: Body, config: Body | null, prior: Body | null, block: SchemaBlock, model: PlanBlockModel | undefined): Body {
  const out: Body = { ...proposed };
  for (const [name, attribute] of Object.entries(block.attributes ?? {})) {
    const meta = model?.attributes[name];
    if (attribute.write_only) {
      // Write-only values arrive in proposed_new_state but may never be in a returned state.
      out[name] = null;
      continue;
    }
    const configured = config?.[name] ?? null;
    const value = proposed[name] ?? null;
    if (configured === null && meta?.default !== undefined && meta.default !== null && attribute.computed) {
      // A default is only legal on a computed attribute: otherwise Terraform rejects a planned
      // value that differs from the (null) configuration.
      out[name] = meta.default as Value;
      continue;
    }
    if (attribute.computed && configured === null) {
      // New objects get unknown computed values; existing ones keep their prior value (which
      // Terraform already copied into proposed_new_state).
      out[name] = prior === null && value === null ? UNKNOWN : value;
      continue;
    }
    if (attribute.nested_type && value !== null && value !== UNKNOWN) {
      out[name] = planNested(value, configured, prior?.[name] ?? null, attribute, meta?.nested?.block);
    }
  }
  for (const [name, blockType] of Object.entries(block.block_types ?? {})) {
    const value = proposed[name];
    if (value === null || value === undefined || value === UNKNOWN) continue;
    const inner = model?.blocks?.[name]?.block;
    out[name] = planCollection(value, config?.[name] ?? null, prior?.[name] ?? null, blockType.nesting_mode, blockType.block, inner);
  }
  return out;
}

function planNested(value: Value, configured: Value, prior: Value, attribute: SchemaAttribute, model: PlanBlockModel | undefined): Value {
  const nested = attribute.nested_type!;
  return planCollection(value, configured, prior, nested.nesting_mode, nestedAsBlock(nested), model);
}

/** Plans the object(s) of a nested attribute or block, pairing each with its config and prior counterpart. */
function planCollection(value: Value, configured: Value, prior: Value, mode: string, block: SchemaBlock, model: PlanBlockModel | undefined): Value {
  const plan = (item: Value, c: Value | undefined, p: Value | undefined): Value =>
    isObject(item) ? planObject(item, isObject(c) ? c : null, isObject(p) ? p : null, block, model) : item;
  if (mode === "single" || mode === "group") return plan(value, configured, prior);
  if (mode === "map") {
    if (!isObject(value)) return value;
    const c = isObject(configured) ? configured : {};
    const p = isObject(prior) ? prior : {};
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plan(item, c[key], p[key])]));
  }
  if (!Array.isArray(value)) return value;
  const configItems = Array.isArray(configured) ? configured : [];
  const priorItems = Array.isArray(prior) ? prior : [];
  if (mode === "list") return value.map((item, i) => plan(item, configItems[i], priorItems[i]));
  // Sets have no positions: pair elements by their configured (non-computed) attributes.
  return value.map((item) => plan(item, findSame(item, configItems, block), findSame(item, priorItems, block)));
}

/** The element of `candidates` whose non-computed attributes equal `item`'s. */
function findSame(item: Value, candidates: Value[], block: SchemaBlock): Value | undefined {
  if (!isObject(item)) return undefined;
  return candidates.find((candidate) => {
    if (!isObject(candidate)) return false;
    for (const [name, attribute] of Object.entries(block.attributes ?? {})) {
      if (attribute.computed && !attribute.optional) continue;
      if (attribute.computed && (item[name] === null || item[name] === UNKNOWN)) continue;
      if (!attributeEqual(item[name], candidate[name], attribute)) return false;
    }
    for (const [name, blockType] of Object.entries(block.block_types ?? {})) {
      if (!blockTypeEqual(item[name], candidate[name], blockType)) return false;
    }
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// requires_replace

function replacePaths(planned: Body, prior: Body, config: Body | null, block: SchemaBlock, model: PlanBlockModel | undefined, path: Path, out: Path[]): void {
  if (!model) return;
  for (const [name, attribute] of Object.entries(block.attributes ?? {})) {
    const meta = model.attributes[name];
    if (!meta) continue;
    if (meta.forceNew) {
      // A force-new computed attribute forces a replacement only when the configuration sets
      // it; otherwise its value comes from the server and is not a user change.
      const configured = config?.[name] ?? null;
      if (attribute.computed && configured === null) continue;
      if (!attributeEqual(planned[name], prior[name], attribute)) out.push([...path, name]);
      continue;
    }
    if (attribute.nested_type && meta.nested && hasForceNew(meta.nested.block)) {
      const nested = attribute.nested_type;
      const same = () => attributeEqual(planned[name], prior[name], attribute);
      descend(planned[name], prior[name], config?.[name], nested.nesting_mode, nestedAsBlock(nested), meta.nested.block, [...path, name], same, out);
    }
  }
  for (const [name, blockType] of Object.entries(block.block_types ?? {})) {
    const inner = model.blocks?.[name]?.block;
    if (!inner || !hasForceNew(inner)) continue;
    const same = () => blockTypeEqual(planned[name], prior[name], blockType);
    descend(planned[name], prior[name], config?.[name], blockType.nesting_mode, blockType.block, inner, [...path, name], same, out);
  }
}

/**
 * Single objects and equally long lists are compared element by element, so the path names the
 * exact attribute. Sets, maps and lists that grew or shrank are replaced as a whole when they
 * changed at all (Terraform cannot address set elements by position).
 */
function descend(
  planned: Value | undefined,
  prior: Value | undefined,
  config: Value | undefined,
  mode: string,
  block: SchemaBlock,
  model: PlanBlockModel,
  path: Path,
  same: () => boolean,
  out: Path[],
): void {
  if ((mode === "single" || mode === "group") && isObject(planned) && isObject(prior)) {
    replacePaths(planned, prior, isObject(config) ? config : null, block, model, path, out);
  } else if (mode === "list" && Array.isArray(planned) && Array.isArray(prior) && planned.length === prior.length) {
    const configItems = Array.isArray(config) ? config : [];
    planned.forEach((item, i) => {
      const before = prior[i];
      if (isObject(item) && isObject(before)) {
        const c = configItems[i];
        replacePaths(item, before, isObject(c) ? c : null, block, model, [...path, i], out);
      }
    });
  } else if (!same()) {
    out.push(path);
  }
}

function hasForceNew(model: PlanBlockModel): boolean {
  for (const attribute of Object.values(model.attributes)) {
    if (attribute.forceNew) return true;
    if (attribute.nested && hasForceNew(attribute.nested.block)) return true;
  }
  return Object.values(model.blocks ?? {}).some((nested) => hasForceNew(nested.block));
}
