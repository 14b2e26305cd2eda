// The provider schema in the shape `terraform providers schema -json` prints, which is also what
// the generator writes to generated/terraform/<provider>.json. The codec, the plan logic and the
// GetProviderSchema answer are all driven by it, so Terraform and the provider can never
// disagree about a type.

/** A cty type constraint in its JSON form. */
export type CtyType =
  | "string"
  | "number"
  | "bool"
  | "dynamic"
  | ["list" | "set" | "map", CtyType]
  | ["object", Record<string, CtyType>]
  | ["object", Record<string, CtyType>, string[]]
  | ["tuple", CtyType[]];

export type NestingMode = "single" | "list" | "set" | "map" | "group";

export interface SchemaAttribute {
  type?: CtyType;
  nested_type?: SchemaNestedType;
  description?: string;
  description_kind?: "plain" | "markdown";
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  sensitive?: boolean;
  write_only?: boolean;
  deprecated?: boolean;
}

/** A protocol-6 nested attribute (an attribute whose value is an object or collection of objects). */
export interface SchemaNestedType {
  attributes: Record<string, SchemaAttribute>;
  nesting_mode: Exclude<NestingMode, "group">;
}

export interface SchemaBlockType {
  nesting_mode: NestingMode;
  block: SchemaBlock;
  min_items?: number;
  max_items?: number;
}

export interface SchemaBlock {
  attributes?: Record<string, SchemaAttribute>;
  block_types?: Record<string, SchemaBlockType>;
  description?: string;
  description_kind?: "plain" | "markdown";
  deprecated?: boolean;
}

export interface TypeSchema {
  version: number;
  block: SchemaBlock;
}

export interface ProviderSchema {
  provider: TypeSchema;
  resource_schemas: Record<string, TypeSchema>;
  data_source_schemas: Record<string, TypeSchema>;
  /** provider functions, as `terraform providers schema -json` prints them */
  functions?: Record<string, SchemaFunction>;
  ephemeral_resource_schemas?: Record<string, TypeSchema>;
}

export interface SchemaFunctionParameter {
  name: string;
  type: CtyType;
  description?: string;
  is_nullable?: boolean;
}

export interface SchemaFunction {
  summary?: string;
  description?: string;
  return_type: CtyType;
  parameters?: SchemaFunctionParameter[];
  variadic_parameter?: SchemaFunctionParameter;
}

/** The block view of a nested attribute's object, so one walker handles both. */
export function nestedAsBlock(nested: SchemaNestedType): SchemaBlock {
  return { attributes: nested.attributes };
}

/** The whole output of `terraform providers schema -json` (what generated/terraform/<provider>.json holds). */
export interface ProviderSchemasDocument {
  format_version?: string;
  provider_schemas: Record<string, Partial<ProviderSchema> & { provider: TypeSchema }>;
}

/**
 * Accepts either one provider's schema or the whole `providers schema -json` document (with a
 * single provider in it), and fills in the maps Terraform leaves out when they are empty.
 */
export function providerSchemaOf(json: Partial<ProviderSchema> | ProviderSchemasDocument): ProviderSchema {
  let schema: Partial<ProviderSchema> = json as Partial<ProviderSchema>;
  if ("provider_schemas" in json) {
    const entries = Object.values(json.provider_schemas);
    if (entries.length !== 1) throw new Error(`expected the schema of exactly one provider, found ${entries.length}`);
    schema = entries[0]!;
  }
  if (!schema.provider) throw new Error("the provider schema has no `provider` entry");
  return {
    provider: schema.provider,
    resource_schemas: schema.resource_schemas ?? {},
    data_source_schemas: schema.data_source_schemas ?? {},
    functions: schema.functions ?? {},
    ephemeral_resource_schemas: schema.ephemeral_resource_schemas ?? {},
  };
}
