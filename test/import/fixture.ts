// Resources created straight through the platform client (not through Terraform), as a team's
// hand-made estate would be: every resource type, references between them, secrets, and values
// that need escaping in HCL (`${`, `%{`).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPlatform } from "../../platform/client.js";
import type { PlatformClient } from "../../platform/types.js";

export const PROJECT = "acme-data";

export interface Estate {
  client: PlatformClient;
  dataDir: string;
  ids: {
    vpc: string;
    vpcsId: number;
    vpcName: string;
    peering: string;
    peeringId: number;
    tgwPeering: string;
    logExporter: string;
    metricExporter: string;
    saasExporter: string;
    primary: string;
    replica: string;
    woService: string;
    objStore: string;
    srcDb: string;
    channel: string;
    channelName: string;
  };
  /** every secret the estate holds: none may ever appear in generated files */
  secrets: string[];
  /** the value of each secret, by resource id and attribute path ("password", "pullmon.password") */
  secretValues: Array<{ id: string; attribute: string; value: string }>;
  close(): Promise<void>;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function createEstate(dataDir = tempDir("sf-import-data-")): Promise<Estate> {
  const client = openPlatform({ dataDir, transitionSeconds: 0 });
  const P = PROJECT;
  const cloudSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY01";
  const pullPassword = "scrape-secret-3xample";
  const apiKey = "0123456789abcdef0123456789abcdef";
  const connection = "postgres://replicator:s3cret-conn@source.internal:5432/app";
  const woPassword = "wo-password-Example-9";
  const ledgerConnection = "postgres://ledger:l3dger-secret@ledger.internal:5432/ledger";

  const vpc = (await client.vpcs.create(P, { name: "Main VPC", cidr: "10.10.0.0/16", region_code: "us-east-1" })).body;
  const peering = (
    await client.peering.create(P, { platform_vpc_id: vpc.vpcs_id, peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_vpc_id: "vpc-0a1b2c3d4e5f67890" })
  ).body;
  const tgw = (
    await client.peering.create(P, {
      platform_vpc_id: vpc.vpcs_id,
      peer_account_id: "210987654321",
      peer_region_code: "us-west-2",
      peer_tgw_id: "tgw-0123456789abcdef0",
      peer_cidr_blocks: ["192.168.0.0/20", "192.168.16.0/20"],
    })
  ).body;
  const logs = (
    await client.logExporters.create(P, {
      name: "app-logs",
      region: "us-east-1",
      cloudmon: { region: "us-east-1", log_group_name: "/tsdb/${app}", log_stream_name: "%{primary}", access_key: "AKIAIOSFODNN7EXAMPLE", secret_key: cloudSecret },
    })
  ).body;
  const metrics = (await client.metricExporters.create(P, { name: "app-metrics", region: "us-east-1", pullmon: { username: "scraper", password: pullPassword } })).body;
  const saas = (await client.metricExporters.create(P, { name: "saas metrics", region: "us-east-1", saasmon: { api_key: apiKey, site: "datadoghq.com" } })).body;
  const primary = (
    await client.services.create(P, {
      name: "app-db",
      milli_cpu: 1000,
      memory_gb: 4,
      region_code: "us-east-1",
      ha_replicas: 2,
      sync_replicas: 1,
      connection_pooler_enabled: true,
      environment_tag: "PROD",
      deletion_protection: true,
      parameters: { max_connections: "200", work_mem: "64MB" },
      vpc_id: vpc.vpcs_id,
      log_exporter_id: logs.id,
      metric_exporter_id: metrics.id,
    })
  ).body;
  const replica = (await client.services.create(P, { read_replica_source: primary.id, read_replica_nodes: 2 })).body;
  const wo = (await client.services.create(P, { name: "ledger-db", password_wo: woPassword, password_wo_version: 3 })).body;
  const objStore = (
    await client.objStoreConnectors.create(P, {
      service_id: primary.id,
      bucket: "example-events",
      pattern: "exports/*.csv",
      credentials: { type: "RoleARN", role_arn: "arn:aws:iam::123456789012:role/tsdb-reader" },
      definition: { type: "CSV", csv: { delimiter: ",", skip_header: true, column_names: ["time", "device", "value"] } },
      table_identifier: { table_name: "events" },
      frequency: "@hourly",
    })
  ).body;
  // Same bucket, so the same generated name: the import names must be deduplicated.
  await client.objStoreConnectors.create(P, {
    service_id: wo.id,
    bucket: "example-events",
    pattern: "late/*.parquet",
    credentials: { type: "Public" },
    definition: { type: "PARQUET", parquet: { auto_column_mapping: true } },
    table_identifier: { table_name: "late_events", schema_name: "staging" },
    enabled: false,
  });
  const srcDb = (
    await client.srcDbConnectors.create(P, {
      service_id: primary.id,
      display_name: "Orders replication",
      connection_string: connection,
      table_sync_workers: 2,
      ssh_tunnel: { name: "bastion", host: "bastion.example.com", port: 22, username: "tunnel" },
      tables: [
        {
          schema_name: "public",
          table_name: "orders",
          hypertable_spec: {
            primary_dimension: { column_name: "created_at", partition_interval: "7d" },
            secondary_dimensions: [{ hash: { column_name: "customer_id", number_partitions: 4 } }],
          },
        },
        { schema_name: "public", table_name: "customers", table_mapping: { schema_name: "crm", table_name: "customers" } },
      ],
    })
  ).body;
  // No tables, no labels, no description: empty values must round-trip too.
  const ledgerFeed = (await client.srcDbConnectors.create(P, { service_id: wo.id, display_name: "Ledger feed", connection_string: ledgerConnection })).body;
  await client.restoreChannels.create({ name: "dr-restores", location: "us-central1", destination_project: "projects/dr-target" }, { defaultProject: P });
  const channel = (
    await client.restoreChannels.create(
      {
        name: "prod-restores",
        location: "us-central1",
        deletion_policy: "PREVENT",
        destination_project: "projects/restore-target",
        description: "Restores of ${env} go %{only} to restore-target",
        labels: { environment: "prod", "cost-center": "c-42" },
      },
      { defaultProject: P },
    )
  ).body;

  return {
    client,
    dataDir,
    ids: {
      vpc: vpc.id,
      vpcsId: vpc.vpcs_id,
      vpcName: vpc.name,
      peering: peering.id,
      peeringId: peering.peering_connection_id,
      tgwPeering: tgw.id,
      logExporter: logs.id,
      metricExporter: metrics.id,
      saasExporter: saas.id,
      primary: primary.id,
      replica: replica.id,
      woService: wo.id,
      objStore: objStore.id,
      srcDb: srcDb.id,
      channel: channel.id,
      channelName: channel.name,
    },
    secrets: [cloudSecret, pullPassword, apiKey, connection, woPassword, ledgerConnection, primary.password!],
    secretValues: [
      { id: primary.id, attribute: "password", value: primary.password! },
      { id: wo.id, attribute: "password_wo", value: woPassword },
      { id: logs.id, attribute: "cloudmon.secret_key", value: cloudSecret },
      { id: metrics.id, attribute: "pullmon.password", value: pullPassword },
      { id: saas.id, attribute: "saasmon.api_key", value: apiKey },
      { id: srcDb.id, attribute: "connection_string", value: connection },
      { id: ledgerFeed.id, attribute: "connection_string", value: ledgerConnection },
    ],
    async close() {
      await client.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The real value of every generated variable (matched by resource and attribute). */
export function variableValues(
  estate: Pick<Estate, "secretValues">,
  result: { resources: Array<{ address: string; importId: string }>; variables: Array<{ name: string; address: string; attribute: string }> },
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of result.variables) {
    const resource = result.resources.find((r) => r.address === v.address);
    const secret = estate.secretValues.find(
      (s) => s.attribute === v.attribute && resource !== undefined && (resource.importId === s.id || resource.importId.endsWith(`:${s.id}`)),
    );
    if (!secret) throw new Error(`no known value for variable ${v.name} (${v.address} ${v.attribute})`);
    out[v.name] = secret.value;
  }
  return out;
}
