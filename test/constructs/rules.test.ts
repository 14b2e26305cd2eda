// Every rule of every schema, broken once (the exact error `app.synth()` reports) and kept once
// (the same construct synthesizes). Constructs come from the built package (`npm run build`).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import type { TerraformStack } from "cdktf";
import { ContainerbackupProvider, RestoreChannel } from "schemaform/containerbackup";
import {
  ConnectorObjStore,
  ConnectorSrcDb,
  DataTsdbService,
  LogExporter,
  MetricExporter,
  PeeringConnection,
  Service,
  TsdbProvider,
  Vpcs,
  type ConnectorObjStoreConfig,
  type ConnectorSrcDbConfig,
  type LogExporterConfig,
  type MetricExporterConfig,
  type PeeringConnectionConfig,
  type ServiceConfig,
} from "schemaform/tsdb";
import { cleanOutdirs, newStack, synthErrors } from "./helpers.js";

afterAll(cleanOutdirs);

interface Case {
  /** What is checked: the rule's message, or the value rule in words. */
  rule: string;
  bad: (stack: TerraformStack) => void;
  good: (stack: TerraformStack) => void;
  /** The exact line `app.synth()` prints for the broken configuration. */
  error: string;
  /** Providers are added by the helper unless the case is about a provider. */
  providers?: false;
  /** A sensitive value that must not appear in the error. */
  secret?: string;
}

const ARN = "arn:aws:iam::123456789012:role/tsdb";
const KEY = "AKIAEXAMPLEKEY000000";
const SECRET = "example-secret-key-0123456789abcdefghijklmn";

const service = (props: ServiceConfig) => (s: TerraformStack) => void new Service(s, "db", props);
const vpcs = (props: any) => (s: TerraformStack) => void new Vpcs(s, "main", props);
const channel = (props: any) => (s: TerraformStack) => void new RestoreChannel(s, "rc", { location: "us-central1", destinationProject: "projects/restore-target", ...props });
const tsdbProvider = (props: any) => (s: TerraformStack) => void new TsdbProvider(s, "p", { projectId: "demo", ...props });
const cbProvider = (props: any) => (s: TerraformStack) => void new ContainerbackupProvider(s, "p", props);
const peeringBase = { platformVpcId: 1, peerAccountId: "123456789012", peerRegionCode: "us-east-1" };
const peering = (props: Partial<PeeringConnectionConfig>) => (s: TerraformStack) => void new PeeringConnection(s, "pc", { ...peeringBase, ...props });
const objStoreBase: ConnectorObjStoreConfig = {
  serviceId: "abcde12345",
  bucket: "example-events",
  pattern: "exports/*.csv",
  credentials: { type: "Public" },
  definition: { type: "CSV" },
  tableIdentifier: { tableName: "events" },
};
const objStore = (props: Partial<ConnectorObjStoreConfig>) => (s: TerraformStack) => void new ConnectorObjStore(s, "os", { ...objStoreBase, ...props });
const srcDbBase: ConnectorSrcDbConfig = { serviceId: "abcde12345", displayName: "Orders", connectionString: "postgres://replicator@source:5432/app" };
const srcDb = (props: Partial<ConnectorSrcDbConfig>) => (s: TerraformStack) => void new ConnectorSrcDb(s, "src", { ...srcDbBase, ...props });
const table = (hypertableSpec: any) => [{ schemaName: "public", tableName: "orders", hypertableSpec }];
const primary = { columnName: "created_at", partitionInterval: "7d" };
const cloudmonBase = { region: "us-east-1", logGroupName: "/tsdb/app", logStreamName: "primary" };
// A cast: the case without the required `cloudmon` is one the compiler would stop.
const logs = (props: Partial<LogExporterConfig>) => (s: TerraformStack) => void new LogExporter(s, "logs", { region: "us-east-1", ...props } as LogExporterConfig);
const metrics = (props: Partial<MetricExporterConfig>) => (s: TerraformStack) => void new MetricExporter(s, "metrics", { region: "us-east-1", ...props });

/** The offered regions with VPCs and exporters, as an enum error lists them. */
const AWS_REGIONS = ["us-east-1", "us-east-2", "us-west-2", "ca-central-1", "sa-east-1", "eu-central-1", "eu-west-1", "eu-west-2", "ap-south-1", "ap-southeast-1", "ap-southeast-2", "ap-northeast-1"].map((r) => `"${r}"`).join(", ");

const cases: Case[] = [
  // tsdb_service: the offered regions, with a suggestion for a near miss
  {
    rule: "region_code is an offered region",
    bad: service({ regionCode: "us-east1" as any }),
    good: service({ regionCode: "us-east-1" }),
    error: `[stack/db] tsdb_service.db: region_code (regionCode) must be one of ${["us-east-1", "us-east-2", "us-west-2", "ca-central-1", "sa-east-1", "eu-central-1", "eu-west-1", "eu-west-2", "ap-south-1", "ap-southeast-1", "ap-southeast-2", "ap-northeast-1", "az-eastus", "az-eastus2", "az-westeurope"].map((r) => `"${r}"`).join(", ")}, got "us-east1"; did you mean "us-east-1"?`,
  },
  // tsdb_service: database parameters (an allow-list of settings)
  {
    rule: "parameters: an unknown setting, with a suggestion",
    bad: service({ parameters: { max_conections: "200" } }),
    good: service({ parameters: { max_connections: "200" } }),
    error: '[stack/db] tsdb_service.db: a key named "max_conections" is not expected here (in parameters); did you mean "max_connections"?',
  },
  {
    rule: "parameters: a value out of its range, in its units",
    bad: service({ parameters: { statement_timeout: "-5s" } }),
    good: service({ parameters: { statement_timeout: "5min" } }),
    error: '[stack/db] tsdb_service.db: parameters.statement_timeout must be from 0 ms to 2147483647 ms, got "-5s"',
  },
  // tsdb_service: cross-field rules
  {
    rule: "sync_replicas = 1 requires ha_replicas = 2",
    bad: service({ haReplicas: 1, syncReplicas: 1 }),
    good: service({ haReplicas: 2, syncReplicas: 1 }),
    error: "[stack/db] tsdb_service.db: sync_replicas (syncReplicas) = 1 requires ha_replicas (haReplicas) = 2",
  },
  {
    rule: "milli_cpu must equal 250 × memory_gb",
    bad: service({ milliCpu: 1000, memoryGb: 8 }),
    good: service({ milliCpu: 2000, memoryGb: 8 }),
    error:
      "[stack/db] tsdb_service.db: milli_cpu (milliCpu) must equal 250 × memory_gb (memoryGb): allowed pairs are 500/2, 1000/4, 2000/8, 4000/16, 8000/32, 16000/64, 32000/128, 48000/192 and 64000/256 (an omitted one defaults to 500 / 2)",
  },
  {
    rule: "milli_cpu alone must be the default pair's",
    bad: service({ milliCpu: 4000 }),
    good: service({ milliCpu: 500 }),
    error:
      "[stack/db] tsdb_service.db: milli_cpu (milliCpu) must equal 250 × memory_gb (memoryGb): allowed pairs are 500/2, 1000/4, 2000/8, 4000/16, 8000/32, 16000/64, 32000/128, 48000/192 and 64000/256 (an omitted one defaults to 500 / 2)",
  },
  {
    rule: "read_replica_nodes can only be set when read_replica_source is set",
    bad: service({ readReplicaNodes: 2 }),
    good: service({ readReplicaSource: "abcde12345", readReplicaNodes: 2 }),
    error: "[stack/db] tsdb_service.db: read_replica_nodes (readReplicaNodes) can only be set when read_replica_source (readReplicaSource) is set",
  },
  {
    rule: "a read replica cannot have HA replicas",
    bad: service({ readReplicaSource: "abcde12345", haReplicas: 1 }),
    good: service({ readReplicaSource: "abcde12345", haReplicas: 0 }),
    error:
      "[stack/db] tsdb_service.db: a read replica (read_replica_source (readReplicaSource) set) cannot have HA replicas: leave ha_replicas (haReplicas), sync_replicas (syncReplicas) and enable_ha_replica (enableHaReplica) unset or 0/false",
  },
  {
    rule: "a read replica cannot have synchronous replicas",
    bad: service({ readReplicaSource: "abcde12345", syncReplicas: 1, haReplicas: 2 }),
    good: service({ readReplicaSource: "abcde12345", syncReplicas: 0 }),
    error:
      "[stack/db] tsdb_service.db: a read replica (read_replica_source (readReplicaSource) set) cannot have HA replicas: leave ha_replicas (haReplicas), sync_replicas (syncReplicas) and enable_ha_replica (enableHaReplica) unset or 0/false",
  },
  {
    rule: "password conflicts with password_wo: set only one of them",
    bad: service({ password: "long-enough-1", passwordWo: "long-enough-2" }),
    good: service({ passwordWo: "long-enough-2" }),
    error: "[stack/db] tsdb_service.db: password conflicts with password_wo (passwordWo): set only one of them",
  },
  {
    rule: "password_wo_version requires password_wo: the version only triggers setting the write-only password",
    bad: service({ passwordWoVersion: 1 }),
    good: service({ passwordWo: "long-enough-2", passwordWoVersion: 1 }),
    error: "[stack/db] tsdb_service.db: password_wo_version (passwordWoVersion) requires password_wo (passwordWo): the version only triggers setting the write-only password",
  },
  {
    rule: "enable_ha_replica = false cannot be combined with ha_replicas > 0",
    bad: service({ enableHaReplica: false, haReplicas: 1 }),
    good: service({ enableHaReplica: false, haReplicas: 0 }),
    error: "[stack/db] tsdb_service.db: enable_ha_replica (enableHaReplica) = false cannot be combined with ha_replicas (haReplicas) > 0",
  },
  {
    rule: "enable_ha_replica = true cannot be combined with ha_replicas = 0",
    bad: service({ enableHaReplica: true, haReplicas: 0 }),
    good: service({ enableHaReplica: true, haReplicas: 1 }),
    error: "[stack/db] tsdb_service.db: enable_ha_replica (enableHaReplica) = true cannot be combined with ha_replicas (haReplicas) = 0",
  },
  // tsdb_service: value rules
  { rule: "ha_replicas 0-2", bad: service({ haReplicas: 3 }), good: service({ haReplicas: 2 }), error: "[stack/db] tsdb_service.db: ha_replicas (haReplicas) must be at most 2, got 3" },
  { rule: "ha_replicas not negative", bad: service({ haReplicas: -1 }), good: service({ haReplicas: 0 }), error: "[stack/db] tsdb_service.db: ha_replicas (haReplicas) must be at least 0, got -1" },
  { rule: "sync_replicas 0-1", bad: service({ syncReplicas: 2, haReplicas: 2 }), good: service({ syncReplicas: 0 }), error: "[stack/db] tsdb_service.db: sync_replicas (syncReplicas) must be at most 1, got 2" },
  {
    rule: "read_replica_nodes 1-10",
    bad: service({ readReplicaSource: "abcde12345", readReplicaNodes: 11 }),
    good: service({ readReplicaSource: "abcde12345", readReplicaNodes: 10 }),
    error: "[stack/db] tsdb_service.db: read_replica_nodes (readReplicaNodes) must be at most 10, got 11",
  },
  {
    rule: "milli_cpu allowed values",
    bad: service({ milliCpu: 750 as any, memoryGb: 3 as any }),
    good: service({ milliCpu: 64000, memoryGb: 256 }),
    error: "[stack/db] tsdb_service.db: milli_cpu (milliCpu) must be one of 500, 1000, 2000, 4000, 8000, 16000, 32000, 48000, 64000, got 750",
  },
  {
    rule: "timeouts.create is a duration",
    bad: service({ timeouts: { create: "10 minutes" } }),
    good: service({ timeouts: { create: "1h30m" } }),
    error: '[stack/db] tsdb_service.db: timeouts.create must be a duration made of numbers with s, m or h suffixes, such as 30s, 10m or 1h30m, got "10 minutes"',
  },
  {
    rule: "environment_tag DEV or PROD",
    bad: service({ environmentTag: "STAGING" as any }),
    good: service({ environmentTag: "DEV" }),
    error: '[stack/db] tsdb_service.db: environment_tag (environmentTag) must be one of "DEV", "PROD", got "STAGING"',
  },
  {
    rule: "types are checked at run time (plain JavaScript)",
    bad: service({ haReplicas: "2" as any }),
    good: service({ haReplicas: 2 }),
    error: '[stack/db] tsdb_service.db: ha_replicas (haReplicas) must be a number, got "2"',
  },
  {
    rule: "unknown props are reported with a suggestion",
    bad: service({ nmae: "app-db" } as any),
    good: service({ name: "app-db" }),
    error: '[stack/db] tsdb_service.db: unknown property "nmae"; did you mean "name"?',
  },
  {
    rule: "computed-only attributes cannot be set",
    bad: service({ hostname: "db.example.com" } as any),
    good: service({}),
    error: "[stack/db] tsdb_service.db: hostname is computed by the provider and cannot be set",
  },
  {
    rule: "password is sensitive: never shown",
    bad: service({ password: "short" }),
    good: service({ password: "long-enough" }),
    error: "[stack/db] tsdb_service.db: password must be at least 8 characters long",
    secret: "short",
  },

  // containerbackup_restore_channel
  {
    rule: "destination_project is projects/{project}",
    bad: channel({ destinationProject: "restore-target" }),
    good: channel({ destinationProject: "projects/123456789012" }),
    error:
      '[stack/rc] containerbackup_restore_channel.rc: destination_project (destinationProject) must be projects/{project} with a project id (6-30 lowercase letters, digits and dashes, starting with a letter) or a project number, got "restore-target"',
  },
  {
    rule: "location is required",
    bad: (s) => void new RestoreChannel(s, "rc", { destinationProject: "projects/restore-target" } as any),
    good: channel({}),
    error: "[stack/rc] containerbackup_restore_channel.rc: location is required",
  },
  {
    rule: "labels is a string map",
    bad: channel({ labels: { team: 7 } }),
    good: channel({ labels: { team: "platform" } }),
    error: "[stack/rc] containerbackup_restore_channel.rc: labels.team must be a string, got 7",
  },
  {
    rule: "name: lowercase letters, digits and dashes, starting with a letter",
    bad: channel({ name: "Prod_Restores" }),
    good: channel({ name: "prod-restores-2" }),
    error:
      '[stack/rc] containerbackup_restore_channel.rc: name must be 1-63 lowercase letters, digits and dashes, starting with a letter and ending with a letter or digit, got "Prod_Restores"',
  },
  {
    rule: "name ends with a letter or digit",
    bad: channel({ name: "prod-" }),
    good: channel({ name: "p" }),
    error:
      '[stack/rc] containerbackup_restore_channel.rc: name must be 1-63 lowercase letters, digits and dashes, starting with a letter and ending with a letter or digit, got "prod-"',
  },
  {
    rule: "name is at most 63 characters",
    bad: channel({ name: `a${"b".repeat(63)}` }),
    good: channel({ name: `a${"b".repeat(62)}` }),
    error: "[stack/rc] containerbackup_restore_channel.rc: name must be at most 63 characters long",
  },
  {
    rule: "project is a project id or number",
    bad: channel({ project: "X" }),
    good: channel({ project: "demo-project" }),
    error:
      '[stack/rc] containerbackup_restore_channel.rc: project must be a project id (6-30 lowercase letters, digits and dashes, starting with a letter) or a project number, got "X"',
  },
  {
    rule: "timeouts are durations",
    bad: channel({ timeouts: { delete: "5 minutes" } }),
    good: channel({ timeouts: { create: "5m", update: "90s", delete: "1h" } }),
    error:
      '[stack/rc] containerbackup_restore_channel.rc: timeouts.delete must be a duration made of numbers with s, m or h suffixes, such as 30s, 10m or 1h30m, got "5 minutes"',
  },

  // containerbackup provider
  {
    rule: "containerbackup provider: project is a project id or number",
    bad: cbProvider({ project: "Bad Project" }),
    good: cbProvider({ project: "123456" }),
    error:
      '[stack/p] provider.containerbackup: project must be a project id (6-30 lowercase letters, digits and dashes, starting with a letter) or a project number, got "Bad Project"',
    providers: false,
  },
  {
    rule: "containerbackup provider: endpoint is a URL",
    bad: cbProvider({ endpoint: "ftp://platform" }),
    good: cbProvider({ endpoint: "https://platform.example.com" }),
    error: '[stack/p] provider.containerbackup: endpoint must be an http:// or https:// URL, got "ftp://platform"',
    providers: false,
  },
  {
    rule: "containerbackup provider: access_token is sensitive",
    bad: cbProvider({ accessToken: "" }),
    good: cbProvider({ accessToken: "token" }),
    error: "[stack/p] provider.containerbackup: access_token (accessToken) must be at least 1 characters long",
    providers: false,
  },

  // tsdb provider
  {
    rule: "access_token cannot be combined with access_key: use either a token or a key pair",
    bad: tsdbProvider({ accessToken: "token", accessKey: KEY, secretKey: SECRET }),
    good: tsdbProvider({ accessToken: "token" }),
    error: "[stack/p] provider.tsdb: access_token (accessToken) cannot be combined with access_key (accessKey): use either a token or a key pair",
    providers: false,
  },
  {
    rule: "access_token cannot be combined with secret_key: use either a token or a key pair",
    bad: tsdbProvider({ accessToken: "token", accessKey: KEY, secretKey: SECRET }),
    good: tsdbProvider({ accessKey: KEY, secretKey: SECRET }),
    error: "[stack/p] provider.tsdb: access_token (accessToken) cannot be combined with secret_key (secretKey): use either a token or a key pair",
    providers: false,
  },
  {
    rule: "access_key and secret_key must be set together",
    bad: tsdbProvider({ accessKey: KEY }),
    good: tsdbProvider({ accessKey: KEY, secretKey: SECRET }),
    error: "[stack/p] provider.tsdb: access_key (accessKey) and secret_key (secretKey) must be set together",
    providers: false,
  },
  {
    rule: "tsdb provider: endpoint is a URL",
    bad: tsdbProvider({ endpoint: "platform.example.com" }),
    good: tsdbProvider({ endpoint: "http://localhost:8080" }),
    error: '[stack/p] provider.tsdb: endpoint must be an http:// or https:// URL, got "platform.example.com"',
    providers: false,
  },

  // tsdb_vpcs
  {
    rule: "cidr is an IPv4 CIDR block (prefix length)",
    bad: vpcs({ cidr: "10.0.0.0/33", regionCode: "us-east-1" }),
    good: vpcs({ cidr: "10.0.0.0/16", regionCode: "us-east-1" }),
    error: '[stack/main] tsdb_vpcs.main: cidr must be an IPv4 CIDR block such as 10.0.0.0/16, got "10.0.0.0/33"',
  },
  {
    rule: "cidr is an IPv4 CIDR block (octets)",
    bad: vpcs({ cidr: "300.1.1.0/24", regionCode: "us-east-1" }),
    good: vpcs({ cidr: "192.168.0.0/24", regionCode: "us-east-1" }),
    error: '[stack/main] tsdb_vpcs.main: cidr must be an IPv4 CIDR block such as 10.0.0.0/16, got "300.1.1.0/24"',
  },
  {
    rule: "region_code is required",
    bad: vpcs({ cidr: "10.0.0.0/16" }),
    good: vpcs({ cidr: "10.0.0.0/16", regionCode: "eu-west-1" }),
    error: "[stack/main] tsdb_vpcs.main: region_code (regionCode) is required",
  },
  {
    rule: "a VPC is in an offered region with VPCs (no az- region), with a suggestion for a near miss",
    bad: vpcs({ cidr: "10.0.0.0/16", regionCode: "eu-west1" as any }),
    good: vpcs({ cidr: "10.0.0.0/16", regionCode: "us-west-2" }),
    error: `[stack/main] tsdb_vpcs.main: region_code (regionCode) must be one of ${AWS_REGIONS}, got "eu-west1"; did you mean "eu-west-1"?`,
  },
  {
    rule: "az- regions have no VPCs",
    bad: vpcs({ cidr: "10.0.0.0/16", regionCode: "az-eastus" as any }),
    good: vpcs({ cidr: "10.0.0.0/16", regionCode: "us-west-2" }),
    error: `[stack/main] tsdb_vpcs.main: region_code (regionCode) must be one of ${AWS_REGIONS}, got "az-eastus"`,
  },

  // tsdb_peering_connection
  {
    rule: "exactly one of peer_vpc_id and peer_tgw_id must be set (none)",
    bad: peering({}),
    good: peering({ peerVpcId: "vpc-0a1b2c3d4e5f67890" }),
    error: "[stack/pc] tsdb_peering_connection.pc: exactly one of peer_vpc_id (peerVpcId) and peer_tgw_id (peerTgwId) must be set",
  },
  {
    rule: "exactly one of peer_vpc_id and peer_tgw_id must be set (both)",
    bad: peering({ peerVpcId: "vpc-0a1b2c3d4e5f67890", peerTgwId: "tgw-0a1b2c3d4e5f67890", peerCidrBlocks: ["10.0.0.0/8"] }),
    good: peering({ peerTgwId: "tgw-0a1b2c3d4e5f67890", peerCidrBlocks: ["10.0.0.0/8"] }),
    error: "[stack/pc] tsdb_peering_connection.pc: exactly one of peer_vpc_id (peerVpcId) and peer_tgw_id (peerTgwId) must be set",
  },
  {
    rule: "peer_cidr_blocks is required for transit gateway peering (peer_tgw_id)",
    bad: peering({ peerTgwId: "tgw-0a1b2c3d4e5f67890" }),
    good: peering({ peerTgwId: "tgw-0a1b2c3d4e5f67890", peerCidrBlocks: ["10.0.0.0/8", "172.16.0.0/12"] }),
    error: "[stack/pc] tsdb_peering_connection.pc: peer_cidr_blocks (peerCidrBlocks) is required for transit gateway peering (peer_tgw_id (peerTgwId))",
  },
  {
    rule: "peer_cidr_blocks are CIDR blocks",
    bad: peering({ peerVpcId: "vpc-0a1b2c3d4e5f67890", peerCidrBlocks: ["10.0.0.0/8", "10.0.0.1"] }),
    good: peering({ peerVpcId: "vpc-0a1b2c3d4e5f67890", peerCidrBlocks: ["10.0.0.0/8"] }),
    error: '[stack/pc] tsdb_peering_connection.pc: peer_cidr_blocks[1] (peerCidrBlocks[1]) must be an IPv4 CIDR block such as 10.0.0.0/16, got "10.0.0.1"',
  },
  {
    rule: "peer_account_id is 12 digits",
    bad: peering({ peerVpcId: "vpc-0a1b2c3d4e5f67890", peerAccountId: "1234" }),
    good: peering({ peerVpcId: "vpc-0a1b2c3d4e5f67890" }),
    error: '[stack/pc] tsdb_peering_connection.pc: peer_account_id (peerAccountId) must be a 12-digit cloud account id, got "1234"',
  },

  // tsdb_connector_obj_store
  {
    rule: "credentials.role_arn is required when credentials.type is RoleARN",
    bad: objStore({ credentials: { type: "RoleARN" } }),
    good: objStore({ credentials: { type: "RoleARN", roleArn: ARN } }),
    error: "[stack/os] tsdb_connector_obj_store.os: credentials.role_arn (credentials.roleArn) is required when credentials.type is RoleARN",
  },
  {
    rule: "credentials.role_arn can only be set when credentials.type is RoleARN",
    bad: objStore({ credentials: { type: "Public", roleArn: ARN } }),
    good: objStore({ credentials: { type: "Public" } }),
    error: "[stack/os] tsdb_connector_obj_store.os: credentials.role_arn (credentials.roleArn) can only be set when credentials.type is RoleARN",
  },
  {
    rule: "credentials.type is Public or RoleARN",
    bad: objStore({ credentials: { type: "Private" as any } }),
    good: objStore({ credentials: { type: "RoleARN", roleArn: ARN } }),
    error: '[stack/os] tsdb_connector_obj_store.os: credentials.type must be one of "Public", "RoleARN", got "Private"',
  },
  {
    rule: "definition.type is CSV or PARQUET",
    bad: objStore({ definition: { type: "JSON" as any } }),
    good: objStore({ definition: { type: "PARQUET" } }),
    error: '[stack/os] tsdb_connector_obj_store.os: definition.type must be one of "CSV", "PARQUET", got "JSON"',
  },
  {
    rule: "definition.csv can only be set when definition.type is CSV",
    bad: objStore({ definition: { type: "PARQUET", csv: { skipHeader: true } } }),
    good: objStore({ definition: { type: "CSV", csv: { skipHeader: true } } }),
    error: "[stack/os] tsdb_connector_obj_store.os: definition.csv can only be set when definition.type is CSV",
  },
  {
    rule: "definition.parquet can only be set when definition.type is PARQUET",
    bad: objStore({ definition: { type: "CSV", parquet: { autoColumnMapping: true } } }),
    good: objStore({ definition: { type: "PARQUET", parquet: { autoColumnMapping: true } } }),
    error: "[stack/os] tsdb_connector_obj_store.os: definition.parquet can only be set when definition.type is PARQUET",
  },
  {
    rule: "definition.csv: auto_column_mapping, column_names and column_mappings are mutually exclusive",
    bad: objStore({ definition: { type: "CSV", csv: { autoColumnMapping: true, columnNames: ["time", "value"] } } }),
    good: objStore({ definition: { type: "CSV", csv: { columnNames: ["time", "value"] } } }),
    error: "[stack/os] tsdb_connector_obj_store.os: definition.csv: auto_column_mapping (autoColumnMapping), column_names (columnNames) and column_mappings (columnMappings) are mutually exclusive",
  },
  {
    rule: "definition.parquet: auto_column_mapping and column_mappings are mutually exclusive",
    bad: objStore({ definition: { type: "PARQUET", parquet: { autoColumnMapping: true, columnMappings: [{ source: "a", destination: "b" }] } } }),
    good: objStore({ definition: { type: "PARQUET", parquet: { columnMappings: [{ source: "a", destination: "b" }] } } }),
    error: "[stack/os] tsdb_connector_obj_store.os: definition.parquet: auto_column_mapping (autoColumnMapping) and column_mappings (columnMappings) are mutually exclusive",
  },
  {
    rule: "csv delimiter is one character",
    bad: objStore({ definition: { type: "CSV", csv: { delimiter: ";;" } } }),
    good: objStore({ definition: { type: "CSV", csv: { delimiter: ";" } } }),
    error: "[stack/os] tsdb_connector_obj_store.os: definition.csv.delimiter must be at most 1 characters long",
  },
  {
    rule: "frequency is one of the listed values",
    bad: objStore({ frequency: "@minutely" as any }),
    good: objStore({ frequency: "@daily" }),
    error:
      '[stack/os] tsdb_connector_obj_store.os: frequency must be one of "@always", "@5minutes", "@10minutes", "@15minutes", "@30minutes", "@hourly", "@daily", "@weekly", "@monthly", "@annually", "@yearly", got "@minutely"; did you mean "@5minutes"?',
  },
  {
    rule: "table_identifier.table_name is required",
    bad: objStore({ tableIdentifier: { schemaName: "raw" } as any }),
    good: objStore({ tableIdentifier: { tableName: "events", schemaName: "raw" } }),
    error: "[stack/os] tsdb_connector_obj_store.os: table_identifier.table_name (tableIdentifier.tableName) is required",
  },

  // tsdb_connector_src_db
  {
    rule: "each secondary dimension needs exactly one of hash and range (neither)",
    bad: srcDb({ tables: table({ primaryDimension: primary, secondaryDimensions: [{}] }) }),
    good: srcDb({ tables: table({ primaryDimension: primary, secondaryDimensions: [{ range: { columnName: "region", partitionInterval: "1h" } }] }) }),
    error:
      "[stack/src] tsdb_connector_src_db.src: tables[0].hypertable_spec.secondary_dimensions[0] (tables[0].hypertableSpec.secondaryDimensions[0]): each secondary dimension needs exactly one of hash and range",
  },
  {
    rule: "each secondary dimension needs exactly one of hash and range (both)",
    bad: srcDb({
      tables: table({
        primaryDimension: primary,
        secondaryDimensions: [{ hash: { columnName: "a", numberPartitions: 2 }, range: { columnName: "b", partitionInterval: "1d" } }],
      }),
    }),
    good: srcDb({ tables: table({ primaryDimension: primary, secondaryDimensions: [{ hash: { columnName: "a", numberPartitions: 2 } }] }) }),
    error:
      "[stack/src] tsdb_connector_src_db.src: tables[0].hypertable_spec.secondary_dimensions[0] (tables[0].hypertableSpec.secondaryDimensions[0]): each secondary dimension needs exactly one of hash and range",
  },
  {
    rule: "ssh_tunnel.name is required",
    bad: srcDb({ sshTunnel: { host: "bastion.example.com" } as any }),
    good: srcDb({ sshTunnel: { name: "bastion", host: "bastion.example.com" } }),
    error: "[stack/src] tsdb_connector_src_db.src: ssh_tunnel.name (sshTunnel.name) is required",
  },
  {
    rule: "ssh_tunnel outputs cannot be set",
    bad: srcDb({ sshTunnel: { name: "bastion", publicKey: "ssh-ed25519 AAAA" } as any }),
    good: srcDb({ sshTunnel: { name: "bastion" } }),
    error: "[stack/src] tsdb_connector_src_db.src: ssh_tunnel.public_key (sshTunnel.publicKey) is computed by the provider and cannot be set",
  },
  {
    rule: "tables[].schema_name is required",
    bad: srcDb({ tables: [{ tableName: "orders" } as any] }),
    good: srcDb({ tables: [{ schemaName: "public", tableName: "orders" }] }),
    error: "[stack/src] tsdb_connector_src_db.src: tables[0].schema_name (tables[0].schemaName) is required",
  },
  {
    rule: "tables[].table_name is required",
    bad: srcDb({ tables: [{ schemaName: "public" } as any] }),
    good: srcDb({ tables: [{ schemaName: "public", tableName: "orders" }] }),
    error: "[stack/src] tsdb_connector_src_db.src: tables[0].table_name (tables[0].tableName) is required",
  },
  {
    rule: "table_mapping needs both names",
    bad: srcDb({ tables: [{ schemaName: "public", tableName: "orders", tableMapping: { schemaName: "crm" } as any }] }),
    good: srcDb({ tables: [{ schemaName: "public", tableName: "orders", tableMapping: { schemaName: "crm", tableName: "orders" } }] }),
    error: "[stack/src] tsdb_connector_src_db.src: tables[0].table_mapping.table_name (tables[0].tableMapping.tableName) is required",
  },
  {
    rule: "hypertable_spec.primary_dimension is required",
    bad: srcDb({ tables: table({}) }),
    good: srcDb({ tables: table({ primaryDimension: primary }) }),
    error: "[stack/src] tsdb_connector_src_db.src: tables[0].hypertable_spec.primary_dimension (tables[0].hypertableSpec.primaryDimension) is required",
  },
  {
    rule: "primary_dimension.partition_interval is required",
    bad: srcDb({ tables: table({ primaryDimension: { columnName: "created_at" } }) }),
    good: srcDb({ tables: table({ primaryDimension: primary }) }),
    error: "[stack/src] tsdb_connector_src_db.src: tables[0].hypertable_spec.primary_dimension.partition_interval (tables[0].hypertableSpec.primaryDimension.partitionInterval) is required",
  },
  {
    rule: "partition intervals are a number and a unit",
    bad: srcDb({ tables: table({ primaryDimension: { columnName: "created_at", partitionInterval: "7 days" } }) }),
    good: srcDb({ tables: table({ primaryDimension: { columnName: "created_at", partitionInterval: "168h" } }) }),
    error:
      '[stack/src] tsdb_connector_src_db.src: tables[0].hypertable_spec.primary_dimension.partition_interval (tables[0].hypertableSpec.primaryDimension.partitionInterval) must be a number and a unit (s, m, h, d or w), such as 7d, 1h or 168h, got "7 days"',
  },
  {
    rule: "range dimensions' intervals are a number and a unit",
    bad: srcDb({ tables: table({ primaryDimension: primary, secondaryDimensions: [{ range: { columnName: "r", partitionInterval: "0d" } }] }) }),
    good: srcDb({ tables: table({ primaryDimension: primary, secondaryDimensions: [{ range: { columnName: "r", partitionInterval: "30d" } }] }) }),
    error:
      '[stack/src] tsdb_connector_src_db.src: tables[0].hypertable_spec.secondary_dimensions[0].range.partition_interval (tables[0].hypertableSpec.secondaryDimensions[0].range.partitionInterval) must be a number and a unit (s, m, h, d or w), such as 7d, 1h or 168h, got "0d"',
  },
  {
    rule: "hash number_partitions at least 1",
    bad: srcDb({ tables: table({ primaryDimension: primary, secondaryDimensions: [{ hash: { columnName: "a", numberPartitions: 0 } }] }) }),
    good: srcDb({ tables: table({ primaryDimension: primary, secondaryDimensions: [{ hash: { columnName: "a", numberPartitions: 1 } }] }) }),
    error: "[stack/src] tsdb_connector_src_db.src: tables[0].hypertable_spec.secondary_dimensions[0].hash.number_partitions (tables[0].hypertableSpec.secondaryDimensions[0].hash.numberPartitions) must be at least 1, got 0",
  },
  {
    rule: "table_sync_workers at least 1",
    bad: srcDb({ tableSyncWorkers: 0 }),
    good: srcDb({ tableSyncWorkers: 1 }),
    error: "[stack/src] tsdb_connector_src_db.src: table_sync_workers (tableSyncWorkers) must be at least 1, got 0",
  },
  {
    rule: "connection_string is sensitive: never shown",
    bad: srcDb({ connectionString: "mysql://admin:hunter2@db" }),
    good: srcDb({ connectionString: "postgresql://admin:hunter2@db/app" }),
    error: "[stack/src] tsdb_connector_src_db.src: connection_string (connectionString) must be a postgres:// or postgresql:// connection URI",
    secret: "hunter2",
  },

  // tsdb_log_exporter
  {
    rule: "cloudmon is required",
    bad: logs({}),
    good: logs({ cloudmon: { ...cloudmonBase, roleArn: ARN } }),
    error: "[stack/logs] tsdb_log_exporter.logs: cloudmon is required",
  },
  {
    rule: "cloudmon needs authentication: set role_arn, or access_key together with secret_key",
    bad: logs({ cloudmon: { ...cloudmonBase } }),
    good: logs({ cloudmon: { ...cloudmonBase, accessKey: KEY, secretKey: SECRET } }),
    error: "[stack/logs] tsdb_log_exporter.logs: cloudmon needs authentication: set role_arn (roleArn), or access_key (accessKey) together with secret_key (secretKey)",
  },
  {
    rule: "cloudmon: role_arn cannot be combined with access_key",
    bad: logs({ cloudmon: { ...cloudmonBase, roleArn: ARN, accessKey: KEY, secretKey: SECRET } }),
    good: logs({ cloudmon: { ...cloudmonBase, roleArn: ARN } }),
    error: "[stack/logs] tsdb_log_exporter.logs: cloudmon: role_arn (roleArn) cannot be combined with access_key (accessKey)",
  },
  {
    rule: "cloudmon: role_arn cannot be combined with secret_key",
    bad: logs({ cloudmon: { ...cloudmonBase, roleArn: ARN, secretKey: SECRET } }),
    good: logs({ cloudmon: { ...cloudmonBase, roleArn: ARN } }),
    error: "[stack/logs] tsdb_log_exporter.logs: cloudmon: role_arn (roleArn) cannot be combined with secret_key (secretKey)",
  },
  {
    rule: "cloudmon: access_key and secret_key must be set together",
    bad: logs({ cloudmon: { ...cloudmonBase, accessKey: KEY } }),
    good: logs({ cloudmon: { ...cloudmonBase, accessKey: KEY, secretKey: SECRET } }),
    error: "[stack/logs] tsdb_log_exporter.logs: cloudmon: access_key (accessKey) and secret_key (secretKey) must be set together",
  },
  {
    rule: "cloudmon.log_group_name is required",
    bad: logs({ cloudmon: { region: "us-east-1", logStreamName: "primary", roleArn: ARN } as any }),
    good: logs({ cloudmon: { ...cloudmonBase, roleArn: ARN } }),
    error: "[stack/logs] tsdb_log_exporter.logs: cloudmon.log_group_name (cloudmon.logGroupName) is required",
  },
  {
    rule: "cloudmon.secret_key is sensitive: never shown",
    bad: logs({ cloudmon: { ...cloudmonBase, accessKey: KEY, secretKey: "too-short-secret" } }),
    good: logs({ cloudmon: { ...cloudmonBase, accessKey: KEY, secretKey: SECRET } }),
    error: "[stack/logs] tsdb_log_exporter.logs: cloudmon.secret_key (cloudmon.secretKey) must be at least 40 characters long",
    secret: "too-short-secret",
  },
  {
    rule: "exporter region: an offered region with exporters (no az- region)",
    bad: logs({ region: "az-westeurope" as any, cloudmon: { ...cloudmonBase, roleArn: ARN } }),
    good: logs({ region: "eu-central-1", cloudmon: { ...cloudmonBase, roleArn: ARN } }),
    error: `[stack/logs] tsdb_log_exporter.logs: region must be one of ${AWS_REGIONS}, got "az-westeurope"`,
  },

  // tsdb_metric_exporter
  {
    rule: "exactly one of saasmon, pullmon and cloudmon must be set (none)",
    bad: metrics({}),
    good: metrics({ pullmon: { username: "scraper", password: "scrape-secret" } }),
    error: "[stack/metrics] tsdb_metric_exporter.metrics: exactly one of saasmon, pullmon and cloudmon must be set",
  },
  {
    rule: "exactly one of saasmon, pullmon and cloudmon must be set (two)",
    bad: metrics({ pullmon: { username: "scraper", password: "scrape-secret" }, saasmon: { apiKey: "key", site: "datadoghq.eu" } }),
    good: metrics({ saasmon: { apiKey: "key", site: "datadoghq.eu" } }),
    error: "[stack/metrics] tsdb_metric_exporter.metrics: exactly one of saasmon, pullmon and cloudmon must be set",
  },
  {
    rule: "metric cloudmon.namespace is required",
    bad: metrics({ cloudmon: { ...cloudmonBase, roleArn: ARN } as any }),
    good: metrics({ cloudmon: { ...cloudmonBase, roleArn: ARN, namespace: "TSDB" } }),
    error: "[stack/metrics] tsdb_metric_exporter.metrics: cloudmon.namespace is required",
  },
  {
    rule: "metric cloudmon: role_arn cannot be combined with access_key",
    bad: metrics({ cloudmon: { ...cloudmonBase, namespace: "TSDB", roleArn: ARN, accessKey: KEY } }),
    good: metrics({ cloudmon: { ...cloudmonBase, namespace: "TSDB", accessKey: KEY, secretKey: SECRET } }),
    error: "[stack/metrics] tsdb_metric_exporter.metrics: cloudmon: role_arn (roleArn) cannot be combined with access_key (accessKey)",
  },
  {
    rule: "metric cloudmon needs authentication",
    bad: metrics({ cloudmon: { ...cloudmonBase, namespace: "TSDB" } }),
    good: metrics({ cloudmon: { ...cloudmonBase, namespace: "TSDB", roleArn: ARN } }),
    error: "[stack/metrics] tsdb_metric_exporter.metrics: cloudmon needs authentication: set role_arn (roleArn), or access_key (accessKey) together with secret_key (secretKey)",
  },
  {
    rule: "saasmon.site is a domain",
    bad: metrics({ saasmon: { apiKey: "key", site: "not a domain" } }),
    good: metrics({ saasmon: { apiKey: "key", site: "us5.datadoghq.com" } }),
    error: '[stack/metrics] tsdb_metric_exporter.metrics: saasmon.site must be a domain name such as monitoring.example.com, got "not a domain"',
  },
  {
    rule: "pullmon.username is required",
    bad: metrics({ pullmon: { password: "scrape-secret" } as any }),
    good: metrics({ pullmon: { username: "scraper", password: "scrape-secret" } }),
    error: "[stack/metrics] tsdb_metric_exporter.metrics: pullmon.username is required",
  },

  // data sources
  {
    rule: "data tsdb_service: id is required",
    bad: (s) => void new DataTsdbService(s, "lookup", {} as any),
    good: (s) => void new DataTsdbService(s, "lookup", { id: "abcde12345" }),
    error: "[stack/lookup] data.tsdb_service.lookup: id is required",
  },
  {
    rule: "data tsdb_service: vpc_id at least 1",
    bad: (s) => void new DataTsdbService(s, "lookup", { id: "abcde12345", vpcId: 0 }),
    good: (s) => void new DataTsdbService(s, "lookup", { id: "abcde12345", vpcId: 3 }),
    error: "[stack/lookup] data.tsdb_service.lookup: vpc_id (vpcId) must be at least 1, got 0",
  },
];

const reported = new Set<string>();

describe("every rule, broken once and kept once", () => {
  for (const c of cases) {
    test(c.rule, () => {
      const errors = synthErrors(c.bad, { providers: c.providers });
      errors.forEach((e) => reported.add(e));
      expect(errors).toContain(c.error);
      if (c.secret) for (const e of errors) expect(e).not.toContain(c.secret);
      expect(synthErrors(c.good, { providers: c.providers })).toEqual([]);
    });
  }
});

describe("an error names the construct path, the Terraform address, the attribute and the rule", () => {
  test("the whole message of app.synth()", () => {
    const { app, stack } = newStack();
    new Service(stack, "db", { haReplicas: 1, syncReplicas: 1 });
    expect(() => app.synth()).toThrow(
      "Validation failed with the following errors:\n  [stack/db] tsdb_service.db: sync_replicas (syncReplicas) = 1 requires ha_replicas (haReplicas) = 2\n",
    );
  });

  test("every error of a construct is reported at once", () => {
    const errors = synthErrors((s) => {
      new Service(s, "db", { haReplicas: 3, environmentTag: "QA" as any, timeouts: { create: "soon" } });
      new Vpcs(s, "main", { cidr: "10.0.0.0", regionCode: "us-east-1" });
    });
    expect(errors).toEqual([
      "[stack/db] tsdb_service.db: ha_replicas (haReplicas) must be at most 2, got 3",
      '[stack/db] tsdb_service.db: environment_tag (environmentTag) must be one of "DEV", "PROD", got "QA"',
      '[stack/db] tsdb_service.db: timeouts.create must be a duration made of numbers with s, m or h suffixes, such as 30s, 10m or 1h30m, got "soon"',
      '[stack/main] tsdb_vpcs.main: cidr must be an IPv4 CIDR block such as 10.0.0.0/16, got "10.0.0.0"',
    ]);
  });

  test("a construct inside another construct is named by its Terraform address", async () => {
    const { Construct } = await import("constructs");
    const errors = synthErrors((s) => {
      const group = new Construct(s, "team");
      new Service(group, "db", { haReplicas: 1, syncReplicas: 1 });
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^\[stack\/team\/db\] tsdb_service\.team_db_[0-9A-F]{8}: sync_replicas \(syncReplicas\) = 1 requires ha_replicas \(haReplicas\) = 2$/);
  });

  test("a value that reads like an attribute name is shown as it was written", () => {
    const errors = synthErrors((s) => void new RestoreChannel(s, "rc", { location: "us-central1", destinationProject: "projects/restore-target", name: "destination_project" }));
    expect(errors).toEqual([
      '[stack/rc] containerbackup_restore_channel.rc: name must be 1-63 lowercase letters, digits and dashes, starting with a letter and ending with a letter or digit, got "destination_project"',
    ]);
  });

  test("an aliased provider is named provider.<type>.<alias>", () => {
    const errors = synthErrors((s) => void new TsdbProvider(s, "eu", { alias: "eu", projectId: "demo", accessKey: KEY }), { providers: false });
    expect(errors).toEqual(["[stack/eu] provider.tsdb.eu: access_key (accessKey) and secret_key (secretKey) must be set together"]);
  });
});

describe("a value of the wrong type (plain JavaScript, or a cast)", () => {
  test("gets one error: its enum and range checks and the rules that read it are not run on it", () => {
    // A string CPU once gave three errors, one of them claiming 1000/4 is not an allowed pair.
    const errors = synthErrors((s) => void new Service(s, "db", { milliCpu: "1000" as any, memoryGb: 4 }));
    expect(errors).toEqual(['[stack/db] tsdb_service.db: milli_cpu (milliCpu) must be a number, got "1000"']);
  });

  test("errors of the construct's other props are still reported", () => {
    const errors = synthErrors((s) => void new Service(s, "db", { haReplicas: "1" as any, syncReplicas: 2, timeouts: { create: 30 as any } }));
    expect(errors).toEqual([
      "[stack/db] tsdb_service.db: sync_replicas (syncReplicas) must be at most 1, got 2",
      '[stack/db] tsdb_service.db: ha_replicas (haReplicas) must be a number, got "1"',
      "[stack/db] tsdb_service.db: timeouts.create must be a string, got 30",
    ]);
  });

  test("a sensitive value of the wrong type is not shown", () => {
    const errors = synthErrors((s) => void new Service(s, "db", { passwordWo: 12345678 as any }));
    expect(errors).toEqual(["[stack/db] tsdb_service.db: password_wo (passwordWo) must be a string"]);
  });
});

describe("coverage", () => {
  test("every cross-field rule of every schema is broken by a case above", () => {
    const schemas = join(process.cwd(), "schemas");
    const messages: string[] = [];
    const collect = (node: any) => {
      if (!node || typeof node !== "object") return;
      if (Array.isArray(node)) return node.forEach(collect);
      for (const rule of node["x-terraform"]?.rules ?? []) messages.push(rule.message);
      for (const [key, value] of Object.entries(node)) if (key !== "x-terraform") collect(value);
    };
    for (const file of readdirSync(schemas).filter((f) => f.endsWith(".schema.json"))) collect(JSON.parse(readFileSync(join(schemas, file), "utf8")));
    expect(messages.length).toBeGreaterThan(25);
    // Messages name the prop beside each attribute (`ha_replicas (haReplicas)`); the rules do not.
    const text = [...reported].join("\n").replace(/ \([a-z][A-Za-z0-9.[\]]*\)/g, "");
    const missing = messages.filter((m) => !text.includes(m));
    expect(missing).toEqual([]);
  });
});
