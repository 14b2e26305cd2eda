// The provider schema JSON (terraform providers schema -json shape) as GetProviderSchema
// protobuf objects (field names as in tfplugin6.proto, enums as numbers).
import type { ProviderSchema, SchemaAttribute, SchemaBlock, SchemaFunction, SchemaFunctionParameter, TypeSchema } from "../schema.js";

const BLOCK_NESTING: Record<string, number> = { single: 1, list: 2, set: 3, map: 4, group: 5 };
const OBJECT_NESTING: Record<string, number> = { single: 1, list: 2, set: 3, map: 4 };
const encoder = new TextEncoder();

function descriptionKind(kind: string | undefined): number {
  return kind === "markdown" ? 1 : 0;
}

function attributeProto(name: string, attribute: SchemaAttribute): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name,
    description: attribute.description ?? "",
    description_kind: descriptionKind(attribute.description_kind),
    required: attribute.required ?? false,
    optional: attribute.optional ?? false,
    computed: attribute.computed ?? false,
    sensitive: attribute.sensitive ?? false,
    deprecated: attribute.deprecated ?? false,
    write_only: attribute.write_only ?? false,
  };
  if (attribute.nested_type) {
    // A nested attribute carries nested_type and no type.
    out.nested_type = {
      attributes: Object.entries(attribute.nested_type.attributes).map(([n, a]) => attributeProto(n, a)),
      nesting: OBJECT_NESTING[attribute.nested_type.nesting_mode] ?? 0,
    };
  } else {
    // The type travels as its JSON text in a bytes field.
    out.type = encoder.encode(JSON.stringify(attribute.type ?? "dynamic"));
  }
  return out;
}

export function blockProto(block: SchemaBlock): Record<string, unknown> {
  return {
    version: 0,
    attributes: Object.entries(block.attributes ?? {}).map(([name, attribute]) => attributeProto(name, attribute)),
    block_types: Object.entries(block.block_types ?? {}).map(([name, blockType]) => ({
      type_name: name,
      block: blockProto(blockType.block),
      nesting: BLOCK_NESTING[blockType.nesting_mode] ?? 0,
      min_items: blockType.min_items ?? 0,
      max_items: blockType.max_items ?? 0,
    })),
    description: block.description ?? "",
    description_kind: descriptionKind(block.description_kind),
    deprecated: block.deprecated ?? false,
  };
}

export function schemaProto(schema: TypeSchema): Record<string, unknown> {
  return { version: schema.version, block: blockProto(schema.block) };
}

/** The GetProviderSchema response body (without diagnostics and capabilities). */
export function providerSchemaProto(schema: ProviderSchema): Record<string, unknown> {
  const map = (types: Record<string, TypeSchema>) => Object.fromEntries(Object.entries(types).map(([name, s]) => [name, schemaProto(s)]));
  return {
    provider: schemaProto(schema.provider),
    resource_schemas: map(schema.resource_schemas),
    data_source_schemas: map(schema.data_source_schemas),
    functions: functionsProto(schema.functions ?? {}),
    ephemeral_resource_schemas: map(schema.ephemeral_resource_schemas ?? {}),
  };
}

function parameterProto(p: SchemaFunctionParameter): Record<string, unknown> {
  // Terraform never calls a function with an unknown argument (allow_unknown_values false).
  return { name: p.name, type: encoder.encode(JSON.stringify(p.type)), allow_null_value: p.is_nullable ?? false, allow_unknown_values: false, description: p.description ?? "", description_kind: 1 };
}

/** The `functions` map of GetProviderSchema and GetFunctions (tfplugin6 `Function` messages). */
export function functionsProto(functions: Record<string, SchemaFunction>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(functions).map(([name, fn]) => [
      name,
      {
        parameters: (fn.parameters ?? []).map(parameterProto),
        ...(fn.variadic_parameter ? { variadic_parameter: parameterProto(fn.variadic_parameter) } : {}),
        return: { type: encoder.encode(JSON.stringify(fn.return_type)) },
        summary: fn.summary ?? "",
        description: fn.description ?? "",
        description_kind: 1,
      },
    ]),
  );
}
