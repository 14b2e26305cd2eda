// The shape of a generated type model (generated/models/*.ts): everything the run-time parts
// need to know about one provider, resource or data source, derived from its JSON Schema.

export type TypeKind = "resource" | "data" | "provider" | "ephemeral";

/**
 * The one value every validator consumer passes for a value that is not known yet (an HCL
 * template, a CDKTF token, the provider's unknown). The generated validators accept exactly this
 * string wherever a value goes and skip the rules that read it: one string comparison, where
 * looking for templates in every string would cost a regular expression per value.
 */
export const UNKNOWN_VALUE = "${unknown}";

/** Terraform's type constraint, in the JSON form `terraform providers schema -json` prints. */
export type CtyType =
  | "string"
  | "number"
  | "bool"
  | ["list" | "set" | "map", CtyType]
  | ["object", { [name: string]: CtyType }];

export type Nesting = "single" | "list" | "set";

export interface ImportFormat {
  /** e.g. "{project}/{location}/{name}" */
  format: string;
  /** Attribute names in the order they appear in the format. */
  parts: string[];
  /** Anchored regular expression with one capture group per part. */
  regex: string;
}

export interface AttributeModel {
  name: string;
  camel: string;
  type: CtyType;
  description: string;
  required?: true;
  optional?: true;
  computed?: true;
  sensitive?: true;
  writeOnly?: true;
  /** Deprecation message when deprecated. */
  deprecated?: string;
  forceNew?: true;
  /** Changes on every update (etag, update timestamps). */
  volatile?: true;
  default?: unknown;
  env?: string;
  nested?: { nesting: Nesting; block: BlockModel };
}

export interface NestedBlockModel {
  name: string;
  camel: string;
  nesting: Nesting;
  description: string;
  block: BlockModel;
  minItems?: number;
  maxItems?: number;
}

export interface BlockModel {
  attributes: { [name: string]: AttributeModel };
  blocks: { [name: string]: NestedBlockModel };
}

export interface TypeModel {
  key: string;
  kind: TypeKind;
  type: string;
  provider: string;
  className: string;
  version: number;
  description: string;
  importFormats: ImportFormat[];
  timeouts?: { [operation: string]: string };
  block: BlockModel;
}

export interface Issue {
  severity: "error" | "warning";
  /** Attribute path inside the body, e.g. ["tables", 0, "schema_name"]; [] for the whole body. */
  path: (string | number)[];
  message: string;
  /** the path names a required argument or block that is absent (reported where the body ends, as Terraform does) */
  missing?: boolean;
}
