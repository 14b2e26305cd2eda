// The framework's public contract: what a provider definition and a resource handler look like.
// Handlers see bodies (ARCHITECTURE.md section 1) and never protobuf, msgpack or plan rules.
import type { Body, Value } from "../codec.js";
import type { ProviderSchema, ProviderSchemasDocument } from "../schema.js";

export type { Body, Value } from "../codec.js";
export type { ProviderSchema, ProviderSchemasDocument } from "../schema.js";

/** A path into a body: attribute names, list indexes and map keys, outermost first. */
export type Path = (string | number)[];

/** A finding of a validator (same shape as language/schema/body.ts's Issue). */
export interface Issue {
  severity: "error" | "warning";
  path: Path;
  message: string;
}

/**
 * The Terraform metadata the plan logic needs beyond the protocol schema. A generated
 * `TypeModel` (generated/models/<key>.ts) satisfies this structurally; only the fields below
 * are read.
 */
export interface PlanTypeModel {
  block: PlanBlockModel;
}
export interface PlanBlockModel {
  attributes: Record<string, PlanAttributeModel>;
  blocks?: Record<string, { block: PlanBlockModel }>;
}
export interface PlanAttributeModel {
  /** A change to this attribute replaces the resource (`requires_replace`). */
  forceNew?: boolean;
  /** Applied at plan time when the configuration leaves the attribute null (the attribute must be computed). */
  default?: unknown;
  /** A computed value that changes on every update (etag, update timestamp): unknown whenever the resource changes. */
  volatile?: boolean;
  nested?: { block: PlanBlockModel };
}

/** What every handler call gets besides its own inputs. */
export interface CallContext<Client> {
  client: Client;
  /** The Terraform type name, e.g. "tsdb_service". */
  typeName: string;
  /** Aborted when Terraform asks the provider to stop (StopProvider, Ctrl-C). */
  signal: AbortSignal;
  /**
   * Push warnings here (severity "warning", a body path, a message without sensitive values):
   * Terraform shows them after the call, pointing at the attribute.
   */
  warnings: Issue[];
  /**
   * Whether this plugin serves `terraform apply` (framework/terraform-command.ts), whose apply
   * walk re-plans each resource and shows that plan's warnings again: a note meant once per apply
   * is given at apply time then. Absent: not known (treated as a plan).
   */
  applying?: () => boolean;
  /**
   * Whether the configuration Terraform runs sets `lifecycle { create_before_destroy = true }` on
   * this resource, which the protocol never says (framework/configured-lifecycle.ts). Absent or
   * false: not known to.
   */
  createsBeforeDestroying?: (config: Body) => Promise<boolean>;
}

export interface CreateRequest<Client> extends CallContext<Client> {
  /** The planned state: configuration plus defaults; computed attributes are UNKNOWN. */
  planned: Body;
  config: Body;
  /**
   * What to send to the platform: the known planned values plus write-only values taken from
   * the configuration, with nulls and unknowns removed.
   */
  desired: Body;
}

export interface UpdateRequest<Client> extends CreateRequest<Client> {
  prior: Body;
}

export interface ReadRequest<Client> extends CallContext<Client> {
  /** The state Terraform has (the prior state, or `{ id }` when importing without importState). */
  state: Body;
}

export interface DeleteRequest<Client> extends CallContext<Client> {
  state: Body;
}

export interface ImportRequest<Client> extends CallContext<Client> {
  /** The import identifier the user gave (an id, or one of the type's import formats). */
  id: string;
}

export interface ModifyPlanRequest<Client> extends CallContext<Client> {
  /** null when the resource is being created. */
  prior: Body | null;
  config: Body;
  /** The framework's plan; change it in place or return a new body. */
  planned: Body;
  /** True when the planned state differs from the prior state (always true on create). */
  changed: boolean;
  /** Paths that force a replacement; push more to force one. */
  requiresReplace: Path[];
}

/**
 * One managed resource type. Results of create/update/read are the remote object's body:
 * keys that are missing keep the value Terraform already has (the planned value after
 * create/update, the prior value after read), so a handler returns only what the remote knows.
 * Sensitive attributes that the remote never echoes (null or missing) keep their prior value.
 */
export interface ResourceHandler<Client = unknown> {
  create(request: CreateRequest<Client>): Promise<Body>;
  /** null means the remote object is gone (Terraform then plans to create it again). */
  read(request: ReadRequest<Client>): Promise<Body | null>;
  update(request: UpdateRequest<Client>): Promise<Body>;
  delete(request: DeleteRequest<Client>): Promise<void>;
  /** Defaults to `read({ state: { id } })`. null means "no such object". */
  importState?(request: ImportRequest<Client>): Promise<Body | null>;
  /**
   * Computed attributes that get a new value on every update (e.g. `updated_at`): they are
   * planned as unknown whenever the resource changes. Other computed attributes keep their
   * prior value unless modifyPlan says otherwise.
   */
  changesOnUpdate?: string[];
  /** Adjust the plan (mark computed values unknown, add replacement paths). */
  modifyPlan?(request: ModifyPlanRequest<Client>): Body | void | Promise<Body | void>;
  /** Checks beyond the schema validators; unknown values are the UNKNOWN marker here. */
  validate?(config: Body): Issue[];
  /**
   * Deletion protection: given the state of an object about to be destroyed or replaced, the
   * reason it must not be (naming the attribute to change first), or undefined. The framework
   * fails the plan with it, so nothing is applied.
   */
  deletionRefusal?(state: Body): DeletionRefusal | undefined;
  /** Turns a JSON state written by an earlier schema version into the current shape. */
  upgradeState?(version: number, state: Record<string, unknown>): Record<string, unknown>;
}

/** Why an object must not be destroyed or replaced, and what to change first. */
export interface DeletionRefusal {
  /** The attribute that protects the object (the diagnostic points at it). */
  attribute: string;
  summary: string;
  detail: string;
}

export interface DataSourceHandler<Client = unknown> {
  /** Returns the computed attributes; configured values always win over the result. */
  read(request: CallContext<Client> & { config: Body }): Promise<Body>;
  validate?(config: Body): Issue[];
}

export interface ConfigureRequest {
  terraformVersion: string;
  signal: AbortSignal;
}

export interface ProviderDefinition<Client = unknown> {
  /** The provider's local name, e.g. "tsdb". */
  name: string;
  /**
   * The schema served to Terraform: one provider's `{ provider, resource_schemas,
   * data_source_schemas }`, or the whole generated/terraform/<provider>.json document.
   */
  schema: Partial<ProviderSchema> | ProviderSchemasDocument;
  /** Plan metadata per type key ("resource.tsdb_service"); loaded on first use. */
  model?(key: string): PlanTypeModel | undefined | Promise<PlanTypeModel | undefined>;
  /**
   * The shared validator: `validateBody(key, body)` from language/schema/body.ts. Unknown values arrive
   * as the string "${unknown}" and nulls are removed, so the body follows ARCHITECTURE.md §1.
   */
  validate?(key: string, body: Body): Issue[] | Promise<Issue[]>;
  /** Builds the client every handler receives, from the provider configuration. */
  configure(config: Body, request: ConfigureRequest): Client | Promise<Client>;
  /** Releases a client at the end of its connection (a resident provider process lives on). */
  close?(client: Client): void | Promise<void>;
  resources: Record<string, ResourceHandler<Client>>;
  dataSources: Record<string, DataSourceHandler<Client>>;
  /** Ephemeral resources (Terraform 1.10+) by type name; each needs an `ephemeral_resource_schemas` entry. */
  ephemeralResources?: Record<string, EphemeralResourceHandler<Client>>;
  /** Provider functions by name; each must be declared in the schema's `functions`. */
  functions?: Record<string, FunctionImplementation>;
}

/**
 * What an ephemeral resource's handler keeps between Open, Renew and Close: Terraform holds it
 * (the protocol's `private` bytes) for the run only, never in state or plan. Never a secret.
 */
export type EphemeralPrivate = Record<string, string | number | boolean>;

export interface EphemeralOpened {
  /** The values Terraform hands to the configuration (computed attributes filled). */
  result: Body;
  private: EphemeralPrivate;
  /** When Terraform should call renew, if the run lasts that long. */
  renewAt?: Date;
}

/** One ephemeral resource type: opened once per run, renewed while it lasts, closed at its end. */
export interface EphemeralResourceHandler<Client = unknown> {
  open(request: CallContext<Client> & { config: Body }): Promise<EphemeralOpened>;
  renew?(request: CallContext<Client> & { private: EphemeralPrivate }): Promise<{ private: EphemeralPrivate; renewAt?: Date }>;
  close?(request: CallContext<Client> & { private: EphemeralPrivate }): Promise<void>;
  validate?(config: Body): Issue[];
}

/**
 * A provider function: its arguments decoded by their declared types (null only where the
 * parameter allows it; never unknown). It needs no configured provider (Terraform calls
 * functions before ConfigureProvider). A bad argument throws FunctionError.
 */
export type FunctionImplementation = (args: Value[]) => Value;

/** Terraform's FunctionError: the text and, for a bad argument, its index. */
export class FunctionError extends Error {
  constructor(
    text: string,
    readonly argument?: number,
  ) {
    super(text);
    this.name = "FunctionError";
  }
}

/** Identity helper that gives a definition its Client type without spelling it out. */
export function defineProvider<Client>(definition: ProviderDefinition<Client>): ProviderDefinition<Client> {
  return definition;
}

/**
 * An error a handler throws to get a precise diagnostic. `state`, on a failed create, is the
 * object that exists anyway: Terraform stores it as tainted instead of forgetting it (so it is
 * replaced, not orphaned, on the next apply).
 */
export class HandlerError extends Error {
  readonly path?: Path;
  readonly detail?: string;
  readonly state?: Body;
  constructor(message: string, options: { path?: Path; detail?: string; state?: Body; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "HandlerError";
    this.path = options.path;
    this.detail = options.detail;
    this.state = options.state;
  }
}
