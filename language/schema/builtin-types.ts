// Terraform's built-in provider (terraform.io/builtin/terraform), which every configuration has
// without declaring it: the managed resource `terraform_data` and the data source
// `terraform_remote_state`. They are not our schemas (nothing is generated for them): this is a
// small hand-written summary of Terraform 1.11's schemas and of what `terraform validate` checks
// on them, each rule confirmed by running validate on the same file.
import { joinPath, quote, type Ctx } from "../config/context.js";
import type { BlockModel, CtyType } from "./model-types.js";
import { K_ARRAY, K_NULL, K_OBJECT } from "../syntax/json-parser.js";
import { hasTemplate } from "../expr/templates.js";
import { asString, UNKNOWN } from "../expr/evaluate.js";
import { jsonValue } from "../config/known-values.js";
import { unknownName } from "../config/common-errors.js";
import { forEachLabel } from "../config/block-shapes.js";

export const BUILTIN_PROVIDER = "terraform.io/builtin/terraform";

interface BuiltinAttribute {
  required?: true;
  /** computed only: terraform_data's provider refuses a value ("…" attribute is read-only) */
  readOnly?: true;
}

export interface BuiltinType {
  key: "resource.terraform_data" | "data.terraform_remote_state";
  attributes: ReadonlyMap<string, BuiltinAttribute>;
  /** the same attributes as a model, for lifecycle.ignore_changes (a dynamic value takes any traversal) */
  block: BlockModel;
}

// a dynamic-typed value accepts any attribute or index after it: an object type with no attributes
// stops the ignore_changes traversal check at the first step (see resource.ts traversalProblem)
const DYNAMIC: CtyType = ["object", {}];

function builtin(key: BuiltinType["key"], attributes: Record<string, BuiltinAttribute & { type: CtyType }>): BuiltinType {
  const block: BlockModel = { attributes: {}, blocks: {} };
  for (const [name, a] of Object.entries(attributes)) block.attributes[name] = { name, camel: name, type: a.type, description: "" };
  return { key, attributes: new Map(Object.entries(attributes)), block };
}

const TERRAFORM_DATA = builtin("resource.terraform_data", {
  id: { type: "string", readOnly: true },
  input: { type: DYNAMIC },
  output: { type: DYNAMIC, readOnly: true },
  triggers_replace: { type: DYNAMIC },
});

// the data source's provider does not refuse a value for its computed `outputs`
const TERRAFORM_REMOTE_STATE = builtin("data.terraform_remote_state", {
  backend: { type: "string", required: true },
  config: { type: DYNAMIC },
  defaults: { type: DYNAMIC },
  outputs: { type: DYNAMIC },
  workspace: { type: "string" },
});

/** The built-in provider's type of a resource or data block, or undefined. */
export function builtinType(blockType: string, type: string): BuiltinType | undefined {
  if (blockType === "resource" && type === "terraform_data") return TERRAFORM_DATA;
  if (blockType === "data" && type === "terraform_remote_state") return TERRAFORM_REMOTE_STATE;
  return undefined;
}

/** Whether a "resource.x" / "data.x" key is one of the built-in provider's types. */
export function isBuiltinKey(key: string): boolean {
  return key === TERRAFORM_DATA.key || key === TERRAFORM_REMOTE_STATE.key;
}

/**
 * One argument of a built-in type's body (not a meta-argument): an unknown name is an error, as
 * is a value for a read-only attribute. Returns false when the name is not an argument.
 */
export function checkBuiltinArgument(ctx: Ctx, type: BuiltinType, key: number, address: string): boolean {
  const doc = ctx.doc;
  const name = doc.str(key);
  const attribute = type.attributes.get(name);
  if (!attribute) {
    unknownName(ctx, name, key, type.attributes.keys(), address, name);
    return false;
  }
  // Terraform has no position for this one (the provider reports it): we give the argument's
  if (attribute.readOnly && doc.kinds[key + 1] !== K_NULL) ctx.error("read-only", `${quote(name)} attribute is read-only: Terraform computes it; remove it from the configuration.`, key, address, name);
  return true;
}

/** A `dynamic` block in a built-in type: neither type has nested blocks to generate. */
export function checkBuiltinDynamic(ctx: Ctx, value: number, address: string): void {
  forEachLabel(ctx, value, "dynamic", 0, address, "dynamic", (t) => {
    ctx.error("unknown-block-type", `Unsupported block type: Blocks of type ${quote(ctx.doc.str(t))} are not expected here.`, t, address, `dynamic.${ctx.doc.str(t)}`);
  });
}

/**
 * What validate checks on a built-in body as a whole: required arguments (at the closing brace),
 * and terraform_remote_state's backend name and, for the local backend, its config's keys.
 */
export function finishBuiltinBody(ctx: Ctx, type: BuiltinType, body: number, address: string): void {
  const doc = ctx.doc;
  const seen = new Map<string, number>();
  const see = (object: number) => {
    for (const k of doc.members(object)) if (!seen.has(doc.str(k))) seen.set(doc.str(k), k);
  };
  see(body);
  // arguments may also be given in the escape block "_"
  const escape = seen.get("_");
  if (escape !== undefined && doc.kinds[escape + 1] === K_OBJECT) see(escape + 1);
  for (const [name, a] of type.attributes) {
    const k = seen.get(name);
    if (a.required && (k === undefined || doc.kinds[k + 1] === K_NULL)) {
      const at = k === undefined ? doc.end(body) - 1 : doc.start(k + 1);
      ctx.report("error", "missing-argument", `Missing required argument: The argument ${quote(name)} is required, but no definition was found.`, at, at + 1, address, name);
    }
  }
  if (type !== TERRAFORM_REMOTE_STATE) return;
  const backendKey = seen.get("backend");
  if (backendKey === undefined) return;
  const backend = literalString(ctx, backendKey + 1);
  if (backend === null) return;
  if (!BACKENDS.has(backend)) {
    ctx.error("remote-state-backend", `Invalid backend configuration: There is no backend type named ${quote(backend)}.`, backendKey + 1, address, "backend");
    return;
  }
  const configKey = seen.get("config");
  if (configKey === undefined) return;
  const config = configKey + 1;
  const kind = doc.kinds[config];
  const invalid = (detail: string, path: string) =>
    ctx.error("remote-state-backend", `Invalid backend configuration: The given configuration is not valid for backend ${quote(backend)}: ${detail}`, config, address, path);
  // the config is an object of the backend's arguments (a template may still make one)
  if (kind === K_NULL || (doc.isString(config) && hasTemplate(doc.str(config)))) return;
  if (kind !== K_OBJECT) return invalid("an object is required.", "config");
  if (backend === "s3") return checkS3Config(ctx, config, address);
  const required = REQUIRED_CONFIG[backend];
  if (required) {
    const present = new Set<string>();
    for (const k of doc.members(config)) if (doc.kinds[k + 1] !== K_NULL) present.add(doc.str(k));
    for (const name of required) if (!present.has(name)) return invalid(`attribute ${quote(name)} is required.`, "config");
  }
  if (backend !== "local") return;
  for (const k of doc.members(config)) {
    const name = doc.str(k);
    // ("//" too: the config is a value, where it is no comment)
    if (!LOCAL_BACKEND.has(name)) return invalid(`unexpected attribute ${quote(name)}.`, joinPath("config", name));
    // both of the local backend's arguments are strings: a number or bool converts, an object or list does not
    const vk = doc.kinds[k + 1];
    if (vk === K_OBJECT || vk === K_ARRAY) return invalid(`attribute ${quote(name)}: string required.`, joinPath("config", name));
  }
}

/** The s3 backend's arguments in Terraform 1.11 (each one checked against `terraform validate` 1.11.4). */
const S3_BACKEND: ReadonlySet<string> = new Set([
  "bucket", "key", "region", "access_key", "secret_key", "token", "profile", "acl", "encrypt", "kms_key_id", "sse_customer_key",
  "dynamodb_table", "dynamodb_endpoint", "use_lockfile", "workspace_key_prefix", "allowed_account_ids", "forbidden_account_ids",
  "endpoint", "endpoints", "iam_endpoint", "sts_endpoint", "sts_region", "ec2_metadata_service_endpoint", "ec2_metadata_service_endpoint_mode",
  "retry_mode", "max_retries", "shared_config_files", "shared_credentials_file", "shared_credentials_files", "skip_credentials_validation",
  "skip_requesting_account_id", "skip_metadata_api_check", "skip_region_validation", "skip_s3_checksum", "force_path_style", "use_path_style",
  "assume_role", "assume_role_with_web_identity", "custom_ca_bundle", "http_proxy", "https_proxy", "no_proxy", "insecure",
  "use_fips_endpoint", "use_dualstack_endpoint",
]);

/**
 * The s3 backend's arguments by name and its required ones (their values are not judged here). Its
 * region may come from the environment, as Terraform reads it.
 */
function checkS3Config(ctx: Ctx, config: number, address: string): void {
  const doc = ctx.doc;
  const names = new Set<string>();
  for (const k of doc.members(config)) if (doc.kinds[k + 1] !== K_NULL) names.add(doc.str(k));
  // the config converts to the backend's object type first: the first unknown name in cty's (sorted) order
  // ("//" too: the config is a value, where it is no comment)
  const unexpected = doc.members(config).map((k) => doc.str(k)).filter((n) => !S3_BACKEND.has(n)).sort()[0];
  if (unexpected !== undefined) {
    ctx.error("remote-state-backend", `Invalid backend configuration: The given configuration is not valid for backend "s3": unexpected attribute ${quote(unexpected)}.`, config, address, joinPath("config", unexpected));
    return;
  }
  for (const name of ["bucket", "key"]) {
    if (names.has(name)) continue;
    ctx.error("remote-state-backend", `Invalid backend configuration: The given configuration is not valid for backend "s3": attribute ${quote(name)} is required.`, config, address, "config");
    return;
  }
  const env = typeof process === "undefined" ? {} : process.env;
  if (!names.has("region") && !env.AWS_REGION && !env.AWS_DEFAULT_REGION) {
    ctx.error("remote-state-backend", 'Missing region value: The "region" attribute or the "AWS_REGION" or "AWS_DEFAULT_REGION" environment variables must be set.', config, address, "config.region");
  }
}

/** A value as Terraform converts it to a string (numbers and bools too), or null when unknown or not a primitive. */
function literalString(ctx: Ctx, node: number): string | null {
  const s = asString(jsonValue(ctx, ctx.doc, node));
  return s === UNKNOWN ? null : s;
}

// Terraform 1.11's backends (the removed ones, such as etcd, are refused like unknown names)
const BACKENDS: ReadonlySet<string> = new Set(["local", "remote", "azurerm", "consul", "cos", "gcs", "http", "inmem", "kubernetes", "oss", "pg", "s3", "cloud"]);
const LOCAL_BACKEND: ReadonlySet<string> = new Set(["path", "workspace_dir"]);
/** the arguments some backends require (their other arguments are not judged here) */
const REQUIRED_CONFIG: Record<string, readonly string[]> = { gcs: ["bucket"], remote: ["organization"] };
