// generated/terraform/<provider>.json: the provider's schema in the shape
// `terraform providers schema -json` prints; the provider plugin serves it to Terraform.
import type { AttributeModel, BlockModel, TypeModel } from "../language/schema/model-types.js";
import type { FunctionModel } from "../language/expr/provider-functions.js";
import { terraformFunctions } from "./emit-functions.js";

export function emitTerraformSchemas(models: TypeModel[], functions: Record<string, Record<string, FunctionModel>> = {}): Map<string, string> {
  const files = new Map<string, string>();
  for (const provider of [...new Set(models.map((m) => m.provider))].sort()) {
    const own = models.filter((m) => m.provider === provider);
    const providerModel = own.find((m) => m.kind === "provider");
    if (!providerModel) throw new Error(`no provider schema for ${provider}`);
    const schema = {
      format_version: "1.0",
      provider_schemas: {
        [`registry.terraform.io/schemaform/${provider}`]: {
          provider: typeSchema(providerModel),
          resource_schemas: Object.fromEntries(own.filter((m) => m.kind === "resource").map((m) => [m.type, typeSchema(m)])),
          data_source_schemas: Object.fromEntries(own.filter((m) => m.kind === "data").map((m) => [m.type, typeSchema(m)])),
          ...(own.some((m) => m.kind === "ephemeral")
            ? { ephemeral_resource_schemas: Object.fromEntries(own.filter((m) => m.kind === "ephemeral").map((m) => [m.type, typeSchema(m)])) }
            : {}),
          ...(Object.keys(functions[provider] ?? {}).length ? { functions: terraformFunctions(functions[provider]!) } : {}),
        },
      },
    };
    files.set(`terraform/${provider}.json`, `${JSON.stringify(schema, null, 2)}\n`);
  }
  return files;
}

function typeSchema(model: TypeModel) {
  return { version: model.version, block: { ...block(model.block), description: model.description, description_kind: "markdown" } };
}

function block(b: BlockModel): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const attributes = Object.values(b.attributes);
  if (attributes.length) out.attributes = Object.fromEntries(attributes.map((a) => [a.name, attribute(a)]));
  const blocks = Object.values(b.blocks);
  if (blocks.length) {
    out.block_types = Object.fromEntries(
      blocks.map((nb) => [
        nb.name,
        {
          nesting_mode: nb.nesting,
          block: { ...block(nb.block), description: nb.description, description_kind: "markdown" },
          ...(nb.minItems !== undefined ? { min_items: nb.minItems } : {}),
          ...(nb.maxItems !== undefined ? { max_items: nb.maxItems } : {}),
        },
      ]),
    );
  }
  return out;
}

function attribute(a: AttributeModel): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (a.nested) out.nested_type = { ...block(a.nested.block), nesting_mode: a.nested.nesting };
  else out.type = a.type;
  out.description = a.description;
  out.description_kind = "markdown";
  if (a.required) out.required = true;
  if (a.optional) out.optional = true;
  if (a.computed) out.computed = true;
  if (a.sensitive) out.sensitive = true;
  if (a.deprecated) out.deprecated = true;
  if (a.writeOnly) out.write_only = true;
  return out;
}
