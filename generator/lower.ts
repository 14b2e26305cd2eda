// Our dialect → the JSON Schema the validators are compiled from: standard keywords plus the two
// of generator/keywords.ts.
//
// Two transformations make one schema serve every consumer:
// - every value check is guarded (`x-unknown-or`) so that an unknown value passes it: consumers
//   turn whatever is unknown to them (an HCL template, a CDKTF token, the provider's unknown)
//   into UNKNOWN_VALUE;
// - every cross-field rule becomes an `x-rule` inside `allOf`, so a broken rule yields exactly
//   one Ajv error at a schema path we record with its message, and a rule that holds costs a
//   few comparisons. Value rules are guarded on the fields whose values they read: an unknown
//   one skips the rule.
import { xt, type SchemaNode } from "./schema-source.js";
import { isNestedObject } from "./model.js";
import { RULE, UNIQUE, UNKNOWN_OR } from "./keywords.js";
import { lowerSettings } from "./settings.js";

/** Matches a string holding an HCL template: `${` or `%{` not escaped as `$${` / `%%{`. */
export const TEMPLATE_PATTERN = "(^|[^$])\\$\\{|(^|[^%])%\\{";

export interface RuleEntry {
  message: string;
  /** Attribute path, relative to the object the rule is declared on, that a diagnostic points at. */
  path: string[];
}

export interface LoweredSchema {
  schema: SchemaNode;
  /** schemaPath of the rule's `if` keyword → rule. */
  rules: Record<string, RuleEntry>;
  /** schemaPath of a `pattern` or read-only (`false`) schema → what it means in words. */
  messages: Record<string, string>;
  /** schemaPath of an `additionalProperties: false` of a settings map → the allowed keys (for "did you mean"). */
  keys: Record<string, string[]>;
}

const VALUE_KEYWORDS = [
  "type", "enum", "const", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
  "minLength", "maxLength", "minItems", "maxItems",
];

export function lowerSchema(root: SchemaNode, rootRules: SchemaNode[] = []): LoweredSchema {
  const out: LoweredSchema = { schema: {}, rules: {}, messages: {}, keys: {} };
  out.schema = {
    $id: undefined,
    ...lowerObject(root, "#", rootRules, out),
  };
  delete out.schema.$id;
  return out;
}

function lowerObject(node: SchemaNode, at: string, rules: SchemaNode[], out: LoweredSchema): SchemaNode {
  const lowered: SchemaNode = { type: "object" };
  const properties: SchemaNode = {};
  for (const [name, prop] of Object.entries<SchemaNode>(node.properties ?? {})) {
    properties[name] = lowerProperty(prop, name, `${at}/properties/${name}`, out);
  }
  lowered.properties = properties;
  const required = (node.required ?? []).filter((name: string) => !xt(node.properties?.[name] ?? {}).env);
  if (required.length) lowered.required = required;
  lowered.additionalProperties = false;
  const allRules = [...rules, ...(xt(node).rules ?? [])];
  if (allRules.length) {
    lowered.allOf = allRules.map((rule, i) => lowerRule(rule, `${at}/allOf/${i}`, out));
  }
  return lowered;
}

function lowerProperty(prop: SchemaNode, name: string, at: string, out: LoweredSchema): SchemaNode {
  if (prop.readOnly) {
    out.messages[at] = `${name} is computed by the provider and cannot be set`;
    return false as unknown as SchemaNode;
  }
  // The guard: an unknown value is accepted as it is; anything else must satisfy the value schema.
  return { [UNKNOWN_OR]: lowerValue(prop, name, `${at}/${UNKNOWN_OR}`, out) };
}

function lowerValue(node: SchemaNode, name: string, at: string, out: LoweredSchema): SchemaNode {
  const ext = xt(node);
  if (ext.block) {
    // A single block is an object; list and set blocks are arrays of objects.
    if (ext.block === "single") return lowerObject(node, at, [], out);
    return arrayOf(node, lowerProperty(node.items, name, `${at}/items`, out));
  }
  if (isNestedObject(node)) return lowerObject(node, at, [], out);
  if (node.type === "object" && ext.settings) return lowerSettings(ext.settings, at, out);
  if (node.type === "object") {
    // a map: its values, and how many entries and which keys it may have (labels)
    const map: SchemaNode = { type: "object", additionalProperties: lowerProperty(node.additionalProperties ?? { type: "string" }, name, `${at}/additionalProperties`, out) };
    if (node.maxProperties !== undefined) map.maxProperties = node.maxProperties;
    if (node.propertyNames !== undefined) map.propertyNames = lowerValue(node.propertyNames, name, `${at}/propertyNames`, out);
    return map;
  }
  if (node.type === "array") return arrayOf(node, lowerProperty(node.items ?? { type: "string" }, name, `${at}/items`, out));
  const value: SchemaNode = {};
  for (const keyword of VALUE_KEYWORDS) if (node[keyword] !== undefined) value[keyword] = node[keyword];
  if (node.pattern && ext.message) out.messages[`${at}/pattern`] = ext.message;
  return value;
}

function arrayOf(node: SchemaNode, items: SchemaNode): SchemaNode {
  const array: SchemaNode = { type: "array", items };
  for (const keyword of ["minItems", "maxItems"]) if (node[keyword] !== undefined) array[keyword] = node[keyword];
  if (node.uniqueItems) array[UNIQUE] = true;
  return array;
}

function lowerRule(rule: SchemaNode, at: string, out: LoweredSchema): SchemaNode {
  const { message, path, ...fragment } = rule;
  if (typeof message !== "string" || !message) throw new Error(`rule at ${at} has no message`);
  const { schema, fields, readsValues } = desugar(fragment);
  // A broken rule yields exactly one error, at `<rule>/x-rule`: the key of its entry.
  out.rules[`${at}/${RULE}`] = { message, path: path ? String(path).split(".") : fields.slice(0, 1) };
  // Presence rules always apply; value rules only when every value they read is known.
  return { [RULE]: readsValues.length ? { holds: schema, reads: readsValues } : { holds: schema } };
}

/** Expands sugar to standard JSON Schema and tells which fields the rule names and reads. */
function desugar(fragment: SchemaNode): { schema: SchemaNode; fields: string[]; readsValues: string[] } {
  const pairs = (names: string[]) => names.flatMap((a, i) => names.slice(i + 1).map((b) => ({ required: [a, b] })));
  if (fragment.conflicts) {
    return { schema: { not: { required: fragment.conflicts } }, fields: fragment.conflicts, readsValues: [] };
  }
  if (fragment.exactlyOneOf) {
    const names: string[] = fragment.exactlyOneOf;
    return { schema: { oneOf: names.map((n) => ({ required: [n] })) }, fields: names, readsValues: [] };
  }
  if (fragment.atLeastOneOf) {
    const names: string[] = fragment.atLeastOneOf;
    return { schema: { anyOf: names.map((n) => ({ required: [n] })) }, fields: names, readsValues: [] };
  }
  if (fragment.atMostOneOf) {
    const names: string[] = fragment.atMostOneOf;
    return { schema: { not: { anyOf: pairs(names) } }, fields: names, readsValues: [] };
  }
  if (fragment.requiredTogether) {
    const [a, b] = fragment.requiredTogether as [string, string];
    return { schema: { dependentRequired: { [a]: [b], [b]: [a] } }, fields: [a, b], readsValues: [] };
  }
  const fields = new Set<string>();
  const reads = new Set<string>();
  collectFields(fragment, fields, reads);
  return { schema: fragment, fields: [...fields], readsValues: [...reads] };
}

function collectFields(node: unknown, fields: Set<string>, reads: Set<string>): void {
  if (Array.isArray(node)) return node.forEach((n) => collectFields(n, fields, reads));
  if (!node || typeof node !== "object") return;
  const schema = node as SchemaNode;
  for (const name of Object.keys(schema.properties ?? {})) {
    fields.add(name);
    reads.add(name);
  }
  for (const name of schema.required ?? []) fields.add(name);
  for (const [name, deps] of Object.entries<string[]>(schema.dependentRequired ?? {})) {
    fields.add(name);
    deps.forEach((d) => fields.add(d));
  }
  for (const [k, v] of Object.entries(schema)) if (k !== "properties") collectFields(v, fields, reads);
}
