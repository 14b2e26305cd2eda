// Synth-time validation: the construct's attributes go through the same generated validator as
// `schemaform validate`, the provider and the platform use. Unresolved tokens (references,
// variables, number and list tokens) are unknown values: they pass value checks, a rule that
// reads them is skipped, and they still count as present for `required`.
//
// CDKTF prints each error as `[<construct path>] <message>`, so a message here starts with the
// Terraform address, and names the prop beside each attribute (prop-names.ts):
// `[stack/db] tsdb_service.db: sync_replicas (syncReplicas) = 1 requires ha_replicas (haReplicas) = 2`.
import { Annotations, Token, type TerraformElement } from "cdktf";
import { formatPath, type PathSegment } from "../../language/schema/attribute-path.js";
import { loadTypeSync, setEntry, validatePreparedBody } from "../../language/schema/body.js";
import { UNKNOWN_VALUE as UNKNOWN, type BlockModel, type CtyType, type Issue, type TypeModel } from "../../language/schema/model-types.js";
import { hasTemplate } from "../../language/expr/templates.js";
import { suggest } from "../../language/syntax/suggest.js";
import { withPropNames } from "./prop-names.js";
import { regionIssues, trackRegion } from "./region-checks.js";

// Warnings already added per construct: `Testing.synth` and repeated `app.synth()` calls run the
// validation again, and a warning should appear once.
const warned = new WeakMap<TerraformElement, Set<string>>();

/**
 * Registers the schema validation of one construct. Set SCHEMAFORM_SKIP_VALIDATION=1 (or the
 * CDKTF `skipValidation` app option, which skips every validation) to turn it off.
 */
export function addSchemaValidation(element: TerraformElement, model: TypeModel, props: () => object): void {
  if (process.env.SCHEMAFORM_SKIP_VALIDATION === "1") return;
  trackRegion(element, model, props);
  element.node.addValidation({
    validate: () => {
      loadTypeSync(model.key, model);
      const issues: Issue[] = [];
      const own = props() as Record<string, unknown>;
      const body = validationBody(model.block, own, [], issues);
      issues.unshift(...validatePreparedBody(model.key, body));
      const address = terraformAddress(element, model);
      // Rules across constructs only when the construct's own values pass: one error at a time.
      if (!issues.some((issue) => issue.severity === "error")) issues.push(...regionIssues(element, model, own, address));
      if (issues.length === 0) return [];
      const errors: string[] = [];
      for (const issue of issues) {
        const text = `${address}: ${withPropNames(describe(issue), issue.path, model.block)}`;
        if (issue.severity === "error") {
          errors.push(text);
          continue;
        }
        let seen = warned.get(element);
        if (!seen) warned.set(element, (seen = new Set()));
        if (seen.has(text)) continue;
        seen.add(text);
        Annotations.of(element).addWarning(text);
      }
      return errors;
    },
  });
}

/** `tsdb_service.db`, `data.tsdb_vpcs.all`, `provider.tsdb` (or `provider.tsdb.<alias>`). */
export function terraformAddress(element: TerraformElement, model: TypeModel): string {
  if (model.kind === "provider") {
    const alias = (element as unknown as { alias?: string }).alias;
    return `provider.${model.type}${alias && !Token.isUnresolved(alias) ? `.${alias}` : ""}`;
  }
  return `${model.kind === "data" ? "data." : ""}${model.type}.${element.friendlyUniqueId}`;
}

/** What the body walk needs of one prop. */
interface Entry {
  /** The Terraform name. */
  name: string;
  /** The nested block, for objects. */
  block?: BlockModel;
  list: boolean;
  /** The Terraform type, for attributes of a primitive type. */
  primitive?: "string" | "number" | "bool";
  sensitive: boolean;
}

const lookups = new WeakMap<BlockModel, Map<string, Entry>>();

/** camelCase prop name → what the body walk needs of it, for one block. */
function lookup(block: BlockModel): Map<string, Entry> {
  let map = lookups.get(block);
  if (!map) {
    map = new Map();
    for (const a of Object.values(block.attributes)) {
      const list = a.nested !== undefined && a.nested.nesting !== "single";
      map.set(a.camel, { name: a.name, block: a.nested?.block, list, primitive: isPrimitive(a.type) ? a.type : undefined, sensitive: Boolean(a.sensitive) });
    }
    for (const b of Object.values(block.blocks)) map.set(b.camel, { name: b.name, block: b.block, list: b.nesting !== "single", sensitive: false });
    lookups.set(block, map);
  }
  return map;
}

function isPrimitive(type: CtyType): type is "string" | "number" | "bool" {
  return typeof type === "string";
}

const TYPE_WORDS = { string: "a string", number: "a number", bool: "a bool (true or false)" };
const JS_TYPES = { string: "string", number: "number", bool: "boolean" };

/**
 * The construct's props as the validator's body, in one walk: Terraform names, every unresolved
 * token as the unknown marker, absent (undefined or null) values dropped, and props that are no
 * argument, attribute or block of the type reported (TypeScript catches those only in typed code).
 *
 * A known value of the wrong JavaScript type (`milliCpu: "1000"`: a compile error in TypeScript,
 * not in JavaScript or after a cast) is reported here, once, and goes on as unknown: its enum and
 * range checks would repeat the error, and a rule comparing it (a string is no allowed CPU/memory
 * pair) would claim something false about the other props it reads.
 */
export function validationBody(block: BlockModel, props: Record<string, unknown>, path: PathSegment[], issues: Issue[]): Record<string, unknown> {
  const known = lookup(block);
  const out: Record<string, unknown> = {};
  const keys = Object.keys(props);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const value = props[key];
    if (value === undefined || value === null) continue;
    const entry = known.get(key);
    if (!entry) {
      const hint = suggest(key, known.keys());
      const where = path.length ? ` in ${formatPath(path)}` : "";
      issues.push({ severity: "error", path: [...path, key], message: `unknown property "${key}"${where}${hint ? `; did you mean "${hint}"?` : ""}` });
      continue;
    }
    const converted = entry.block && typeof value === "object" ? nestedBody(entry.block, entry.list, value, [...path, entry.name], issues) : withUnknowns(value);
    if (entry.primitive && converted !== UNKNOWN && typeof converted !== JS_TYPES[entry.primitive]) {
      const got = entry.sensitive ? "" : `, got ${show(converted)}`;
      issues.push({ severity: "error", path: [...path, entry.name], message: `${formatPath([...path, entry.name])} must be ${TYPE_WORDS[entry.primitive]}${got}` });
      out[entry.name] = UNKNOWN;
      continue;
    }
    out[entry.name] = converted;
  }
  return out;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** A nested object (or list of them): walked like the top level; anything else is left to the validator. */
function nestedBody(block: BlockModel, list: boolean, value: object, path: PathSegment[], issues: Issue[]): unknown {
  if (isTokenObject(value)) return UNKNOWN;
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v) && !isTokenObject(v);
  if (!list) return isObject(value) ? validationBody(block, value, path, issues) : withUnknowns(value);
  if (!Array.isArray(value)) return withUnknowns(value);
  return value.map((item, i) => (isObject(item) ? validationBody(block, item, [...path, i], issues) : (withUnknowns(item) ?? null)));
}

/** The message, followed by the attribute path when the message does not already name it. */
function describe(issue: Issue): string {
  if (issue.path.length === 0) return issue.message;
  const path = formatPath(issue.path);
  const last = [...issue.path].reverse().find((s): s is string => typeof s === "string");
  const named = issue.message.includes(path) || (last !== undefined && new RegExp(`(^|[^a-z0-9_])${last}($|[^a-z0-9_])`).test(issue.message));
  return named ? issue.message : `${issue.message} (at ${path})`;
}

/**
 * Whether an object or array is a token: an IResolvable, a list token, or a map token (a key
 * holding `&{TfToken[…]}`). The cheap checks come first; `Token.isUnresolved` confirms.
 */
function isTokenObject(value: object): boolean {
  if (typeof (value as { resolve?: unknown }).resolve === "function") return true;
  if (Array.isArray(value)) return value.length === 1 && Token.isUnresolved(value);
  for (const key in value) if (key.includes("&{")) return Token.isUnresolved(value);
  return false;
}

/**
 * Synthesized attributes as the validator sees them: every unresolved token becomes the unknown
 * marker, and null or undefined values are dropped (absent, as `prepareBody` would make them).
 * Copy-on-write: a value without tokens or absent entries is returned as it is.
 */
export function withUnknowns(value: unknown): unknown {
  switch (typeof value) {
    case "string":
      // Token strings hold `${TfToken[…]}` (or `#{…}` for list tokens): test only those. A
      // template written by hand ("${var.region}") is just as unknown: Terraform evaluates it.
      if (value.includes("${") || value.includes("#{")) return Token.isUnresolved(value) || hasTemplate(value) ? UNKNOWN : value;
      return value.includes("%{") && hasTemplate(value) ? UNKNOWN : value;
    case "number":
      // Number tokens are special doubles of magnitude ~1e289: ordinary numbers skip the test.
      return (value > -1e200 && value < 1e200) || !Token.isUnresolved(value) ? value : UNKNOWN;
    case "object": {
      if (value === null) return undefined;
      if (isTokenObject(value)) return UNKNOWN;
      if (Array.isArray(value)) {
        let out: unknown[] | undefined;
        for (let i = 0; i < value.length; i++) {
          const item = withUnknowns(value[i]);
          const next = item === undefined ? null : item;
          if (!out && next !== value[i]) out = value.slice(0, i);
          if (out) out.push(next);
        }
        return out ?? value;
      }
      const keys = Object.keys(value);
      let out: Record<string, unknown> | undefined;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const original = (value as Record<string, unknown>)[key];
        const item = original === undefined ? undefined : withUnknowns(original);
        if (!out && (item !== original || item === undefined)) {
          out = {};
          for (let j = 0; j < i; j++) setEntry(out, keys[j]!, (value as Record<string, unknown>)[keys[j]!]);
        }
        if (out && item !== undefined) setEntry(out, key, item);
      }
      return out ?? value;
    }
    default:
      return value;
  }
}
