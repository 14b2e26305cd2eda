// Request and response bodies of the platform API, and the API itself (`PlatformClient`).
// Property names are Terraform attribute names (snake_case), exactly as in schemas/. Inputs are the
// attributes a configuration sets; responses carry every computed attribute as well, except
// write-only values (never) and stored secrets (never: they are write-only from the API's view).

import type { Warning } from "./errors.js";

export type Labels = Record<string, string>;

/** The result of a create or update: the resource as stored, plus non-fatal warnings. */
export interface Mutation<T> {
  body: T;
  warnings: Warning[];
}

// ---------------------------------------------------------------------------------------------
// containerbackup_restore_channel

export interface RestoreChannelInput {
  destination_project: string;
  location: string;
  description?: string;
  labels?: Labels;
  /** short name (`[a-z]([a-z0-9-]*[a-z0-9])?`, ≤ 63); generated when omitted */
  name?: string;
  /** project id or number; defaults to `CreateRestoreChannelOptions.defaultProject` */
  project?: string;
  /** `DELETE` (default), `PREVENT` (delete refused) or `ABANDON` (Terraform forgets, the channel stays) */
  deletion_policy?: DeletionPolicy;
}

export type DeletionPolicy = "DELETE" | "PREVENT" | "ABANDON";

export interface RestoreChannel extends RestoreChannelInput {
  /** `projects/{project}/locations/{location}/restoreChannels/{name}` */
  id: string;
  name: string;
  project: string;
  destination_project_id: string;
  effective_labels: Labels;
  tool_labels: Labels;
  etag: string;
  uid: string;
}

/**
 * How `labels` and `tool_labels` of a response are derived from the labels stored on the channel
 * (`effective_labels`, which hold every label, including ones set by other clients).
 * - `labelKeys`: the keys the caller's configuration manages (its `labels`). `labels` in the
 *   response = the stored labels restricted to these keys.
 * - `defaultLabels`: the provider's `default_labels`. `tool_labels` = the stored labels restricted
 *   to `labelKeys` ∪ the keys of `defaultLabels`.
 * Without `labelKeys` (a data-source style read, or an import), `labels` and `tool_labels` are
 * all stored labels. In update, `defaultLabels` are also written (the patch's `labels` win).
 */
export interface LabelView {
  labelKeys?: string[];
  defaultLabels?: Labels;
}

export interface CreateRestoreChannelOptions {
  /** the caller's default project (the provider's `project`), used when the body has none */
  defaultProject?: string;
  /** the provider's `default_labels`; stored with the channel's labels (the channel's win on a key) */
  defaultLabels?: Labels;
}

/**
 * A partial update. Only `description` and labels change in place; `name`, `location`,
 * `destination_project` and `project` may be repeated with their current value (anything else is
 * a `failed_precondition`: the channel must be replaced).
 * Labels are non-authoritative: `labels` (merged over `defaultLabels` of the view) are set,
 * `remove_labels` are deleted, every other stored label is kept.
 */
export interface RestoreChannelPatch {
  /** a string sets it; `null` clears it; absent leaves it */
  description?: string | null;
  /** the labels the caller manages, with their new values */
  labels?: Labels;
  /** keys the caller stopped managing (in its previous `tool_labels`, not in the new ones) */
  remove_labels?: string[];
  name?: string;
  location?: string;
  destination_project?: string;
  project?: string;
  deletion_policy?: DeletionPolicy;
}

export interface RestoreChannelsApi {
  /** Create a channel; the response's `name` is generated when the body has none. */
  create(body: RestoreChannelInput, options?: CreateRestoreChannelOptions): Promise<Mutation<RestoreChannel>>;
  /** Read by full name (`projects/{p}/locations/{l}/restoreChannels/{n}`); `not_found` when absent. */
  get(fullName: string, view?: LabelView): Promise<RestoreChannel>;
  /**
   * Update with the etag that was read. A stale etag fails with `conflict` and changes nothing.
   * `etag` undefined or "" means "no precondition" (last writer wins), as the reference API allows.
   */
  update(fullName: string, patch: RestoreChannelPatch, etag: string | undefined, view?: LabelView): Promise<Mutation<RestoreChannel>>;
  /** Delete with the etag that was read (same rules as `update`). */
  delete(fullName: string, etag: string | undefined): Promise<void>;
  /** Channels of a project (id or number), optionally of one location. */
  list(project: string, location?: string): Promise<RestoreChannel[]>;
  /**
   * The id and number of a project (either may be given). A project seen for the first time is
   * registered deterministically (see core/projects.ts).
   */
  resolveProject(project: string): Promise<{ project_id: string; project_number: string }>;
}

// ---------------------------------------------------------------------------------------------
// tsdb_service

/** ERROR: only with the data plane on, when running the current configuration failed (`status_message` says why). */
export type ServiceStatus = "QUEUED" | "CONFIGURING" | "READY" | "PAUSING" | "PAUSED" | "RESUMING" | "ERROR";

export interface ServiceInput {
  name?: string;
  milli_cpu?: number;
  memory_gb?: number;
  region_code?: string;
  storage_gb?: number;
  enable_ha_replica?: boolean;
  ha_replicas?: number;
  sync_replicas?: number;
  connection_pooler_enabled?: boolean;
  environment_tag?: string;
  paused?: boolean;
  vpc_id?: number;
  log_exporter_id?: string;
  metric_exporter_id?: string;
  read_replica_source?: string;
  read_replica_nodes?: number;
  password?: string;
  password_wo?: string;
  password_wo_version?: number;
  /** while true, delete is refused (`failed_precondition` naming it) */
  deletion_protection?: boolean;
  /** PostgreSQL settings (`spec.parameters`), names and values checked against the allow-list */
  parameters?: Record<string, string>;
  /** accepted and ignored (the client side waits) */
  timeouts?: Record<string, string>;
}

/**
 * A service as the platform reports it. Besides the Terraform attributes it carries two read-only
 * keys that are not in the Terraform type: `status` (for waiting) and `created` (RFC 3339).
 * `password` appears only in the response to a create that generated it (once); it is never
 * returned again. `password_wo` is never returned.
 */
export interface Service {
  id: string;
  name: string;
  milli_cpu: number;
  memory_gb: number;
  region_code: string;
  ha_replicas: number;
  sync_replicas: number;
  connection_pooler_enabled: boolean;
  environment_tag: string;
  paused: boolean;
  hostname: string;
  port: number;
  username: string;
  pooler_hostname?: string;
  pooler_port?: number;
  replica_hostname?: string;
  replica_port?: number;
  vpc_id?: number;
  log_exporter_id?: string;
  metric_exporter_id?: string;
  read_replica_source?: string;
  read_replica_nodes?: number;
  password?: string;
  password_wo_version?: number;
  deletion_protection: boolean;
  parameters?: Record<string, string>;
  storage_gb?: number;
  enable_ha_replica?: boolean;
  status: ServiceStatus;
  /** why the status is ERROR (the data plane's cause: "port 31234 is taken"); never a secret */
  status_message?: string;
  created: string;
}

/** A partial update: absent keys are unchanged, `null` clears an optional attribute. */
export type ServicePatch = { [K in keyof ServiceInput]?: ServiceInput[K] | null };

export interface ServicesApi {
  /**
   * Create a service. Status starts at QUEUED and reaches READY (or PAUSED when `paused` is true)
   * after the transition delay. The generated initial password (when neither `password` nor
   * `password_wo` is given, and the service is not a read replica) is in the response, once.
   */
  create(project: string, body: ServiceInput): Promise<Mutation<Service>>;
  get(project: string, id: string): Promise<Service>;
  /**
   * Update in place. `region_code` and `read_replica_source` cannot change (`failed_precondition`:
   * replace the service). `password_wo` is applied only when `password_wo_version` changes;
   * `password` is applied when it differs from the current one.
   */
  update(project: string, id: string, patch: ServicePatch): Promise<Mutation<Service>>;
  /**
   * Delete. Refused (`failed_precondition`) while read replicas of the service exist; the
   * service's connectors are deleted with it.
   */
  delete(project: string, id: string): Promise<void>;
  list(project: string): Promise<Service[]>;
  /**
   * Whether `password` is the service's current password (verified against the stored hash) or
   * the password of unexpired temporary credentials of the service.
   */
  checkPassword(project: string, id: string, password: string): Promise<boolean>;
  /**
   * Temporary credentials: a new role and a random password, valid for `ttlSeconds` (60 to
   * 86400). The password is in this answer only; the platform keeps a SCRAM-SHA-256 verifier.
   */
  createCredentials(project: string, id: string, ttlSeconds: number): Promise<ServiceCredentials>;
  /** Extends unexpired credentials to `ttlSeconds` from now; `not_found` once revoked or expired. */
  renewCredentials(project: string, id: string, credentialId: string, ttlSeconds: number): Promise<{ expires_at: string }>;
  /** Deletes temporary credentials (the data plane drops the role); unknown ones are ignored. */
  revokeCredentials(project: string, id: string, credentialId: string): Promise<void>;
}

/** Temporary credentials of a service (`tsdb_service_credentials`). */
export interface ServiceCredentials {
  id: string;
  service_id: string;
  username: string;
  password: string;
  hostname: string;
  port: number;
  /** RFC 3339 */
  expires_at: string;
}

// ---------------------------------------------------------------------------------------------
// tsdb_vpcs

export type VpcStatus = "CREATING" | "CREATED" | "ERROR";

export interface VpcInput {
  cidr: string;
  region_code: string;
  name?: string;
  timeouts?: Record<string, string>;
}

export interface Vpc {
  /** decimal string of `vpcs_id` */
  id: string;
  vpcs_id: number;
  name: string;
  cidr: string;
  region_code: string;
  project_id: string;
  provisioned_id: string;
  status: VpcStatus;
  error_message: string;
  created: string;
  updated: string;
}

export type VpcPatch = { [K in keyof VpcInput]?: VpcInput[K] | null };

export interface VpcsApi {
  create(project: string, body: VpcInput): Promise<Mutation<Vpc>>;
  /** By internal id (`vpcs_id`, a number or its decimal string). */
  get(project: string, vpcsId: number | string): Promise<Vpc>;
  /** By name (names are unique in a project): what import by name uses. */
  getByName(project: string, name: string): Promise<Vpc>;
  /** Rename in place; `cidr` and `region_code` cannot change (`failed_precondition`). */
  update(project: string, vpcsId: number | string, patch: VpcPatch): Promise<Mutation<Vpc>>;
  /** Refused (`failed_precondition`) while peering connections or services use the VPC. */
  delete(project: string, vpcsId: number | string): Promise<void>;
  list(project: string): Promise<Vpc[]>;
}

// ---------------------------------------------------------------------------------------------
// tsdb_peering_connection

export type PeeringStatus = "PENDING" | "ACTIVE" | "INVALID" | "TIMEOUT" | "DISABLED";

export interface PeeringInput {
  platform_vpc_id: number;
  peer_account_id: string;
  peer_region_code: string;
  peer_vpc_id?: string;
  peer_tgw_id?: string;
  peer_cidr_blocks?: string[];
}

export interface PeeringConnection extends PeeringInput {
  /** decimal string of `peering_connection_id` */
  id: string;
  peering_connection_id: number;
  peering_type: "vpc" | "tgw";
  provisioned_id: string;
  accepter_provisioned_id: string;
  status: PeeringStatus;
  error_message: string;
  vpc_id: string;
  peer_cidr: "deprecated";
  peer_cidr_blocks: string[];
}

/** Only `peer_cidr_blocks` changes in place; other inputs may be repeated unchanged. */
export type PeeringPatch = Partial<PeeringInput>;

export interface PeeringApi {
  create(project: string, body: PeeringInput): Promise<Mutation<PeeringConnection>>;
  /** `platformVpcId` undefined: look the peering up by its id alone. */
  get(project: string, platformVpcId: number | undefined, id: number | string): Promise<PeeringConnection>;
  update(project: string, platformVpcId: number | undefined, id: number | string, patch: PeeringPatch): Promise<Mutation<PeeringConnection>>;
  delete(project: string, platformVpcId: number | undefined, id: number | string): Promise<void>;
  list(project: string, platformVpcId: number): Promise<PeeringConnection[]>;
}

// ---------------------------------------------------------------------------------------------
// tsdb_log_exporter / tsdb_metric_exporter

export interface CloudmonConfig {
  region: string;
  log_group_name: string;
  log_stream_name: string;
  /** metric exporters only */
  namespace?: string;
  role_arn?: string;
  access_key?: string;
  /** secret: stored encrypted, never returned */
  secret_key?: string;
}

export interface SaasmonConfig {
  /** secret: stored encrypted, never returned */
  api_key?: string;
  site: string;
}

export interface PullmonConfig {
  username: string;
  /** secret: stored encrypted, never returned */
  password?: string;
}

export interface LogExporterInput {
  region: string;
  name?: string;
  cloudmon?: CloudmonConfig;
}

export interface LogExporter extends LogExporterInput {
  id: string;
  name: string;
  created: string;
  type: "cloudmon";
}

export interface MetricExporterInput {
  region: string;
  name?: string;
  saasmon?: SaasmonConfig;
  pullmon?: PullmonConfig;
  cloudmon?: CloudmonConfig;
}

export interface MetricExporter extends MetricExporterInput {
  id: string;
  name: string;
  created: string;
  type: "saasmon" | "pullmon" | "cloudmon";
  /** pullmon: the scrape URL, http://127.0.0.1:<port>/metrics (the port is kept for the exporter's life) */
  endpoint?: string;
}

/** An exporter update replaces the configuration block(s) with the ones given; `region` cannot change. */
export type ExporterPatch<I> = { [K in keyof I]?: I[K] | null };

export interface ExportersApi<I, T> {
  create(project: string, body: I): Promise<Mutation<T>>;
  get(project: string, id: string): Promise<T>;
  update(project: string, id: string, patch: ExporterPatch<I>): Promise<Mutation<T>>;
  /** Refused (`failed_precondition`) while a service has it attached. */
  delete(project: string, id: string): Promise<void>;
  list(project: string): Promise<T[]>;
}

// ---------------------------------------------------------------------------------------------
// tsdb_connector_obj_store

export interface ColumnMapping {
  source: string;
  destination: string;
}

export interface ObjStoreConnectorInput {
  service_id: string;
  bucket: string;
  pattern: string;
  credentials: { type: "Public" | "RoleARN"; role_arn?: string };
  definition: {
    type: "CSV" | "PARQUET";
    csv?: {
      delimiter?: string;
      skip_header?: boolean;
      auto_column_mapping?: boolean;
      column_names?: string[];
      column_mappings?: ColumnMapping[];
    };
    parquet?: { auto_column_mapping?: boolean; column_mappings?: ColumnMapping[] };
  };
  table_identifier: { table_name: string; schema_name?: string };
  name?: string;
  enabled?: boolean;
  frequency?: string;
  on_conflict_do_nothing?: boolean;
}

export interface ObjStoreConnector extends ObjStoreConnectorInput {
  id: string;
  name: string;
  enabled: boolean;
  frequency: string;
  on_conflict_do_nothing: boolean;
  created_at: string;
  updated_at: string;
}

export type ObjStoreConnectorPatch = { [K in keyof ObjStoreConnectorInput]?: ObjStoreConnectorInput[K] | null };

// ---------------------------------------------------------------------------------------------
// tsdb_connector_src_db

export interface SshTunnelInput {
  name: string;
  host?: string;
  port?: number;
  username?: string;
}

export interface SshTunnel extends SshTunnelInput {
  ssh_tunnel_id: string;
  /** `ssh-ed25519 AAAA… schemaform-tunnel-<id>`: add it to the bastion's authorized_keys */
  public_key: string;
}

export interface HypertableSpec {
  primary_dimension: { column_name: string; partition_interval: string };
  secondary_dimensions?: Array<
    { hash: { column_name: string; number_partitions: number }; range?: undefined } | { range: { column_name: string; partition_interval: string }; hash?: undefined }
  >;
}

export interface SrcDbTable {
  schema_name: string;
  table_name: string;
  publication_name?: string;
  table_mapping?: { schema_name: string; table_name: string };
  hypertable_spec?: HypertableSpec;
}

export interface SrcDbConnectorInput {
  service_id: string;
  display_name: string;
  /** secret: stored encrypted, never returned */
  connection_string?: string;
  name?: string;
  enabled?: boolean;
  table_sync_workers?: number;
  ssh_tunnel?: SshTunnelInput;
  tables?: SrcDbTable[];
}

export type SrcDbStatus = "ok" | "warning" | "error" | "paused";

export interface SrcDbConnector extends Omit<SrcDbConnectorInput, "ssh_tunnel"> {
  id: string;
  name: string;
  enabled: boolean;
  table_sync_workers: number;
  ssh_tunnel?: SshTunnel;
  tables: SrcDbTable[];
  source_id: string;
  created_at: string;
  status: SrcDbStatus;
}

/**
 * A partial update. `tables` (when present) is the complete new list: tables are matched by
 * (`schema_name`, `table_name`); a changed `table_mapping` or `publication_name` drops and re-adds
 * the table (full re-sync, with a warning); a changed or added `hypertable_spec` on an existing
 * table is a `failed_precondition`. `ssh_tunnel: null` unlinks the tunnel.
 * `connection_string` absent keeps the stored one.
 */
export type SrcDbConnectorPatch = { [K in keyof SrcDbConnectorInput]?: SrcDbConnectorInput[K] | null };

export interface ConnectorsApi<I, T, P> {
  create(project: string, body: I): Promise<Mutation<T>>;
  /** By connector id (UUID, unique across services). */
  get(project: string, id: string): Promise<T>;
  update(project: string, id: string, patch: P): Promise<Mutation<T>>;
  delete(project: string, id: string): Promise<void>;
  /** Connectors of the project, or of one service. */
  list(project: string, serviceId?: string): Promise<T[]>;
}

// ---------------------------------------------------------------------------------------------
// lookups (data sources)

export interface ProductPlan {
  product_id: string;
  region_code: string;
  milli_cpu: number;
  memory_gb: number;
  /** price per hour, USD */
  price: number;
}

export interface Product {
  id: string;
  name: string;
  description: string;
  plans: ProductPlan[];
}

export interface ProductsLookup {
  id: string;
  products: Product[];
}

export interface VpcPeeringSummary {
  id: number;
  platform_vpc_id: number;
  peering_type: string;
  provisioned_id: string;
  accepter_provisioned_id: string;
  peer_account_id: string;
  peer_region_code: string;
  peer_vpc_id?: string;
  peer_tgw_id?: string;
  peer_cidr: string;
  peer_cidr_blocks: string[];
  vpc_id: string;
  status: string;
  error_message: string;
}

export interface VpcSummary {
  id: number;
  name: string;
  cidr: string;
  region_code: string;
  project_id: string;
  provisioned_id: string;
  status: string;
  created: string;
  updated: string;
  error_message: string;
  peering_connections: VpcPeeringSummary[];
}

export interface VpcsLookup {
  id: string;
  vpcs: VpcSummary[];
}

export interface ServiceLookup {
  id: string;
  name: string;
  created: string;
  environment_tag: string;
  region_code: string;
  vpc_id?: number;
  spec: {
    hostname: string;
    port: number;
    username: string;
    pooler_hostname?: string;
    pooler_port?: number;
    replica_hostname?: string;
    replica_port?: number;
  };
  resources: Array<{
    id: string;
    spec: { milli_cpu: number; memory_gb: number; ha_replicas: number; sync_replicas: number; enable_ha_replica: boolean };
  }>;
}

export interface LookupsApi {
  /** The catalog of products and plans with prices per region. */
  products(): Promise<ProductsLookup>;
  /** The project's VPCs with their peering connections (live data). */
  vpcs(project: string): Promise<VpcsLookup>;
  /** One service in the data source's shape. */
  service(project: string, id: string): Promise<ServiceLookup>;
}

// ---------------------------------------------------------------------------------------------
// events

export interface PlatformEvent {
  seq: number;
  at: string;
  project: string;
  resource_type: string;
  resource_id: string;
  /** e.g. `created`, `updated`, `deleted`, `paused`, `resumed`, `password_reset`, `table_resync` */
  kind: string;
  message: string;
}

export interface EventsApi {
  /** Events of a project, oldest first; optionally of one resource and/or one kind. */
  list(project: string, filter?: { resourceId?: string; kind?: string }): Promise<PlatformEvent[]>;
}

// ---------------------------------------------------------------------------------------------
// the client

export interface PlatformClient {
  /** `embedded` (SQLite file opened in this process) or `http` (a `schemaform platform serve`) */
  readonly mode: "embedded" | "http";
  readonly restoreChannels: RestoreChannelsApi;
  readonly services: ServicesApi;
  readonly vpcs: VpcsApi;
  readonly peering: PeeringApi;
  readonly logExporters: ExportersApi<LogExporterInput, LogExporter>;
  readonly metricExporters: ExportersApi<MetricExporterInput, MetricExporter>;
  readonly objStoreConnectors: ConnectorsApi<ObjStoreConnectorInput, ObjStoreConnector, ObjStoreConnectorPatch>;
  readonly srcDbConnectors: ConnectorsApi<SrcDbConnectorInput, SrcDbConnector, SrcDbConnectorPatch>;
  readonly lookups: LookupsApi;
  readonly events: EventsApi;
  /** Release the database handle (embedded) or forget the token (http). Idempotent. */
  close(): Promise<void>;
}
