// The one validator with four consumers (constructs at synth, `schemaform validate`, the provider's
// Validate*Config RPCs, the platform API). It runs a type's generated Ajv validator on a body
// (ARCHITECTURE.md §1) and turns Ajv errors into messages in Terraform terms, never showing
// the value of a sensitive attribute.
import { registry, typeKeys, type AjvError, type TypeKey, type ValidatorModule } from "../../generated/registry.js";
import { blockAt, formatPath, resolvePath, type PathSegment } from "./attribute-path.js";
import type { BlockModel, Issue, TypeModel } from "./model-types.js";
import { suggest } from "../syntax/suggest.js";

export interface LoadedType {
  model: TypeModel;
  validator: ValidatorModule;
}

const loaded = new Map<string, LoadedType>();
const loading = new Map<string, Promise<LoadedType>>();

export function isTypeKey(key: string): key is TypeKey {
  return (typeKeys as readonly string[]).includes(key);
}

/** Loads a type's model and validator (once); only the types a caller meets are ever loaded. */
export function loadType(key: string): Promise<LoadedType> {
  const ready = loaded.get(key);
  if (ready) return Promise.resolve(ready);
  let pending = loading.get(key);
  if (!pending) {
    if (!isTypeKey(key)) return Promise.reject(new Error(`unknown type ${key}`));
    const entry = registry[key];
    pending = Promise.all([entry.model(), entry.validator()]).then(([model, validator]) => {
      const type = { model, validator };
      loaded.set(key, type);
      return type;
    });
    loading.set(key, pending);
  }
  return pending;
}

export function loadedType(key: string): LoadedType {
  const type = loaded.get(key);
  if (!type) throw new Error(`type ${key} is not loaded; await loadType("${key}") first`);
  return type;
}

/** For callers that cannot wait (construct validation at synth): loads the validator synchronously. */
export function loadTypeSync(key: string, model: TypeModel): LoadedType {
  let type = loaded.get(key);
  if (!type) {
    if (!isTypeKey(key)) throw new Error(`unknown type ${key}`);
    type = { model, validator: registry[key].validatorSync() };
    loaded.set(key, type);
  }
  return type;
}

/** Validates a body against a loaded type. Null-valued properties count as absent. */
export function validateBody(key: string, body: unknown): Issue[] {
  return validatePreparedBody(key, prepareBody(body));
}

/**
 * `validateBody` for a body that has no null or undefined property values (what `prepareBody`
 * returns): callers that build the body themselves skip the extra copy.
 */
export function validatePreparedBody(key: string, data: unknown): Issue[] {
  const { model, validator } = loadedType(key);
  const issues: Issue[] = [];
  if (!validator(data)) issues.push(...explain(validator.errors ?? [], data, model, validator));
  if (hasDeprecated(model.block)) issues.push(...deprecations(model.block, data, []));
  return issues;
}

const deprecatedCache = new WeakMap<BlockModel, boolean>();

/** Whether a block declares a deprecated attribute anywhere inside (most do not: skip the walk). */
function hasDeprecated(block: BlockModel): boolean {
  let known = deprecatedCache.get(block);
  if (known === undefined) {
    known =
      Object.values(block.attributes).some((a) => a.deprecated !== undefined || (a.nested !== undefined && hasDeprecated(a.nested.block))) ||
      Object.values(block.blocks).some((b) => hasDeprecated(b.block));
    deprecatedCache.set(block, known);
  }
  return known;
}

/** A copy without null-valued properties (Terraform and HCL-JSON both mean "unset" by null). */
export function prepareBody(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(prepareBody);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) setEntry(out, k, prepareBody(v));
  return out;
}

/**
 * Sets a key of a copied user object. Map keys are user data: a key named `__proto__` (a label,
 * say) must stay a key, not replace the copy's prototype and vanish.
 */
export function setEntry(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function explain(errors: AjvError[], data: unknown, model: TypeModel, validator: ValidatorModule): Issue[] {
  const issues: Issue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const rule = validator.rules[error.schemaPath];
    const objectPath = pointerToPath(data, error.instancePath);
    if (rule) {
      push(issues, seen, [...objectPath, ...rule.path], prefixed(objectPath, rule.message));
      continue;
    }
    const explained = explainKeyword(error, objectPath, data, model, validator);
    if (explained) push(issues, seen, explained.path, explained.message, explained.missing);
  }
  return issues;
}

function push(issues: Issue[], seen: Set<string>, path: PathSegment[], message: string, missing?: boolean): void {
  const id = `${formatPath(path)}\u0000${message}`;
  if (seen.has(id)) return;
  seen.add(id);
  issues.push(missing ? { severity: "error", path, message, missing } : { severity: "error", path, message });
}

/** Rules on nested objects say which object they are about. */
function prefixed(objectPath: PathSegment[], message: string): string {
  const where = formatPath(objectPath);
  return where && !message.startsWith(where.replace(/\[\d+\]/g, "")) ? `${where}: ${message}` : message;
}

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  integer: "a whole number",
  number: "a number",
  boolean: "a bool (true or false)",
  object: "an object",
  array: "a list",
};

function explainKeyword(
  error: AjvError,
  objectPath: PathSegment[],
  data: unknown,
  model: TypeModel,
  validator: ValidatorModule,
): { path: PathSegment[]; message: string; missing?: boolean } | undefined {
  const p = error.params;
  // a map's key (labels): Ajv reports the map's path and the key apart
  const key = (error as { propertyName?: unknown }).propertyName;
  if (typeof key === "string" && error.keyword !== "propertyNames") {
    // a key that is a template (or a CDKTF token) is not known yet: Terraform makes the whole map
    // unknown, and unknown values are never errors
    if (key.includes("${")) return undefined;
    const subject = `${name(objectPath)} key ${show(key)}`;
    if (error.keyword === "minLength") return { path: objectPath, message: key === "" ? `${name(objectPath)} has an empty key; a key must be at least ${p.limit} character${p.limit === 1 ? "" : "s"} long` : `${subject} must be at least ${p.limit} characters long` };
    if (error.keyword === "maxLength") return { path: objectPath, message: `${subject} must be at most ${p.limit} characters long` };
    if (error.keyword === "pattern") return key === "" ? undefined : { path: objectPath, message: `${subject} ${validator.messages[error.schemaPath] ?? `must match ${p.pattern}`}` };
    return { path: objectPath, message: `${subject} is invalid (${error.keyword})` };
  }
  switch (error.keyword) {
    case "propertyNames":
      return undefined; // each key's own error says what is wrong with it
    case "maxProperties":
      return { path: objectPath, message: `${name(objectPath)} must have at most ${p.limit} entries, got ${Object.keys((valueAt(data, objectPath) as object | undefined) ?? {}).length}` };
    case "required":
      return { path: [...objectPath, p.missingProperty], message: `${name([...objectPath, p.missingProperty])} is required`, missing: true };
    case "additionalProperties": {
      const path = [...objectPath, p.additionalProperty as string];
      const block = blockAt(model.block, objectPath);
      const allowed = block ? [...Object.keys(block.attributes), ...Object.keys(block.blocks)] : validator.keys?.[error.schemaPath];
      const hint = allowed ? suggest(p.additionalProperty, allowed) : undefined;
      const kind = objectPath.length === 0 || block ? "an argument" : "a key";
      return {
        path,
        message: `${kind} named "${p.additionalProperty}" is not expected here${objectPath.length ? ` (in ${formatPath(objectPath)})` : ""}${hint ? `; did you mean "${hint}"?` : ""}`,
      };
    }
    case "false schema": {
      // Read-only (computed) attributes lower to `false`; name them by their full path.
      const recorded = validator.messages[error.schemaPath.replace(/\/false schema$/, "")];
      const leaf = objectPath[objectPath.length - 1];
      const message = recorded && typeof leaf === "string" && recorded.startsWith(`${leaf} `) ? `${name(objectPath)}${recorded.slice(leaf.length)}` : recorded;
      return { path: objectPath, message: message ?? `${name(objectPath)} cannot be set` };
    }
    default:
      break;
  }
  const target = resolvePath(model.block, objectPath);
  const sensitive = target?.sensitive ?? false;
  const value = valueAt(data, objectPath);
  const got = sensitive ? "" : `, got ${show(value)}`;
  const subject = name(objectPath);
  switch (error.keyword) {
    case "type":
      return { path: objectPath, message: `${subject} must be ${TYPE_WORDS[p.type] ?? p.type}${got}` };
    case "enum": {
      const allowed = p.allowedValues as unknown[];
      const near = typeof value === "string" && !sensitive ? suggest(value, allowed.filter((v): v is string => typeof v === "string")) : undefined;
      return { path: objectPath, message: `${subject} must be one of ${allowed.map(show).join(", ")}${got}${near ? `; did you mean ${show(near)}?` : ""}` };
    }
    case "const":
      return { path: objectPath, message: `${subject} must be ${show(p.allowedValue)}${got}` };
    case "pattern":
      return { path: objectPath, message: `${subject} ${validator.messages[error.schemaPath] ?? `must match ${p.pattern}`}${got}` };
    case "minimum":
      return { path: objectPath, message: `${subject} must be at least ${p.limit}${got}` };
    case "maximum":
      return { path: objectPath, message: `${subject} must be at most ${p.limit}${got}` };
    case "minLength":
      return { path: objectPath, message: `${subject} must be at least ${p.limit} characters long` };
    case "maxLength":
      return { path: objectPath, message: `${subject} must be at most ${p.limit} characters long` };
    case "minItems":
      return { path: objectPath, message: `${subject} must have at least ${p.limit} ${p.limit === 1 ? "element" : "elements"}` };
    case "maxItems":
      return { path: objectPath, message: `${subject} must have at most ${p.limit} ${p.limit === 1 ? "element" : "elements"}` };
    case "x-setting":
      return { path: objectPath, message: `${subject} ${validator.messages[error.schemaPath] ?? "is out of range"}${got}` };
    case "uniqueItems":
    case "x-unique":
      return { path: objectPath, message: `${subject} must not contain duplicates (elements ${p.j} and ${p.i} are equal)` };
    case "oneOf":
    case "anyOf":
    case "not":
      return undefined; // only rules use these, and rules are explained above
    default:
      return { path: objectPath, message: `${subject} is invalid (${error.keyword})` };
  }
}

function name(path: PathSegment[]): string {
  return formatPath(path) || "the configuration";
}

function show(value: unknown): string {
  // C1 controls and bidirectional overrides escaped too: a message must not reorder the terminal's text
  const text = (JSON.stringify(value) ?? String(value)).replace(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function pointerToPath(data: unknown, pointer: string): PathSegment[] {
  if (!pointer) return [];
  const path: PathSegment[] = [];
  let node: unknown = data;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const segment: PathSegment = Array.isArray(node) ? Number(key) : key;
    path.push(segment);
    node = node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
  }
  return path;
}

function valueAt(data: unknown, path: PathSegment[]): unknown {
  let node = data;
  for (const segment of path) node = node && typeof node === "object" ? (node as any)[segment] : undefined;
  return node;
}

function deprecations(block: BlockModel, data: unknown, at: PathSegment[]): Issue[] {
  if (!data || typeof data !== "object" || Array.isArray(data)) return [];
  const issues: Issue[] = [];
  const body = data as Record<string, unknown>;
  for (const attribute of Object.values(block.attributes)) {
    const value = body[attribute.name];
    if (value === undefined) continue;
    if (attribute.deprecated) {
      issues.push({ severity: "warning", path: [...at, attribute.name], message: `${formatPath([...at, attribute.name])} is deprecated: ${attribute.deprecated}` });
    }
    if (attribute.nested) {
      const items = attribute.nested.nesting === "single" ? [value] : Array.isArray(value) ? value : [];
      items.forEach((item, i) => issues.push(...deprecations(attribute.nested!.block, item, attribute.nested!.nesting === "single" ? [...at, attribute.name] : [...at, attribute.name, i])));
    }
  }
  for (const nested of Object.values(block.blocks)) {
    const value = body[nested.name];
    if (value === undefined) continue;
    const items = nested.nesting === "single" ? [value] : Array.isArray(value) ? value : [];
    items.forEach((item, i) => issues.push(...deprecations(nested.block, item, nested.nesting === "single" ? [...at, nested.name] : [...at, nested.name, i])));
  }
  return issues;
}
