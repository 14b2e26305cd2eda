// JSON Schema (our dialect) → TypeModel: the run-time description of a type's attributes.
import type { AttributeModel, BlockModel, CtyType, ImportFormat, Nesting, TypeModel } from "../language/schema/model-types.js";
import { camelCase } from "./names.js";
import { xt, type SchemaDocument, type SchemaNode } from "./schema-source.js";

export function buildModel(doc: SchemaDocument): TypeModel {
  const { root, schema } = doc;
  const model: TypeModel = {
    key: doc.key,
    kind: root.kind,
    type: root.type,
    provider: doc.provider,
    className: root.className,
    version: root.version ?? 0,
    description: schema.description ?? "",
    importFormats: (root.importFormats ?? []).map(importFormat),
    block: buildBlock(schema),
  };
  if (root.timeouts) model.timeouts = root.timeouts;
  return model;
}

function importFormat(spec: string | { format: string; parts?: Record<string, string> }): ImportFormat {
  const format = typeof spec === "string" ? spec : spec.format;
  const narrowed = typeof spec === "string" ? {} : (spec.parts ?? {});
  const parts: string[] = [];
  let regex = "";
  for (const piece of format.split(/(\{[a-z_]+\})/)) {
    const part = /^\{([a-z_]+)\}$/.exec(piece)?.[1];
    if (part) {
      parts.push(part);
      regex += `(${narrowed[part] ?? "[^/,:]+"})`;
    } else {
      regex += piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    }
  }
  return { format, parts, regex: `^${regex}$` };
}

export function isNestedObject(node: SchemaNode): boolean {
  return node.type === "object" && node.properties !== undefined;
}

function buildBlock(node: SchemaNode): BlockModel {
  const block: BlockModel = { attributes: {}, blocks: {} };
  const required = new Set<string>(node.required ?? []);
  for (const [name, prop] of Object.entries<SchemaNode>(node.properties ?? {})) {
    const ext = xt(prop);
    if (ext.block) {
      const nesting = ext.block as Nesting;
      const inner = nesting === "single" ? prop : prop.items;
      block.blocks[name] = {
        name,
        camel: camelCase(name),
        nesting,
        description: prop.description ?? "",
        block: buildBlock(inner),
        ...(prop.minItems !== undefined ? { minItems: prop.minItems } : {}),
        ...(prop.maxItems !== undefined ? { maxItems: prop.maxItems } : {}),
      };
      continue;
    }
    block.attributes[name] = buildAttribute(name, prop, required.has(name));
  }
  return block;
}

function buildAttribute(name: string, prop: SchemaNode, isRequired: boolean): AttributeModel {
  const ext = xt(prop);
  const attr: AttributeModel = { name, camel: camelCase(name), type: ctyType(prop), description: prop.description ?? "" };
  // A provider setting with an environment fallback cannot be required in Terraform's eyes:
  // Terraform would reject the configuration before the provider could read the environment.
  if (prop.readOnly) attr.computed = true;
  else if (isRequired && !ext.env) attr.required = true;
  else {
    attr.optional = true;
    if (ext.computed || prop.default !== undefined) attr.computed = true;
  }
  if (ext.sensitive) attr.sensitive = true;
  if (prop.writeOnly) attr.writeOnly = true;
  if (prop.deprecated) attr.deprecated = ext.deprecation ?? "deprecated";
  if (ext.forceNew) attr.forceNew = true;
  if (ext.volatile) attr.volatile = true;
  if (prop.default !== undefined) attr.default = prop.default;
  if (ext.env) attr.env = ext.env;
  if (!prop.readOnly && isNestedObject(prop)) attr.nested = { nesting: "single", block: buildBlock(prop) };
  if (!prop.readOnly && prop.type === "array" && isNestedObject(prop.items ?? {})) {
    attr.nested = { nesting: prop.uniqueItems ? "set" : "list", block: buildBlock(prop.items) };
  }
  return attr;
}

export function ctyType(node: SchemaNode): CtyType {
  switch (node.type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "bool";
    case "array":
      return [node.uniqueItems ? "set" : "list", ctyType(node.items ?? { type: "string" })];
    case "object":
      if (node.properties) {
        const fields: Record<string, CtyType> = {};
        for (const [k, v] of Object.entries<SchemaNode>(node.properties)) fields[k] = ctyType(v);
        return ["object", fields];
      }
      return ["map", ctyType(node.additionalProperties ?? { type: "string" })];
    default:
      throw new Error(`unsupported schema type ${JSON.stringify(node.type)}`);
  }
}
