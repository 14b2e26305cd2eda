// Example configurations for the reference pages, one per type key. A body is written as
// Terraform sees it (snake_case, HCL-JSON templates for references); emit-docs renders each
// example as native HCL, as HCL-JSON and as a CDKTF TypeScript stack, and checks every body
// against its type's schema at generate time, so an example that breaks a rule stops
// `npm run generate` (test/e2e/doc-examples.test.ts then has Terraform validate the HCL).
//
// References: `${<type>.<name>.<attr>}` and `${data.<type>.<name>.<attr>}` name another block
// of the same example; `${var.<name>}` names one of the example's variables.

export interface ExampleBlock {
  /** Type key of the block: "resource.tsdb_vpcs", "data.tsdb_service". */
  key: string;
  name: string;
  body: Record<string, unknown>;
}

export interface DocExample {
  variables?: Record<string, { type: "string" | "number"; sensitive?: true; description: string }>;
  /** The documented block is the first one whose key is the page's type key. */
  blocks: ExampleBlock[];
  outputs?: Record<string, string>;
  /**
   * Values of the import formats' `{part}`s that the documented block does not set literally
   * (computed ids, the provider's project). The import section shows one identifier per
   * format, built from these and the block's own values, and checked against the format.
   */
  importParts?: Record<string, string>;
}

/** Provider configuration every example of that provider starts with. */
export const providerBodies: Record<string, Record<string, unknown>> = {
  tsdb: { project_id: "docs-example" },
  containerbackup: { project: "docs-example", default_labels: { team: "platform" } },
};

const service = (name = "db"): ExampleBlock => ({
  key: "resource.tsdb_service",
  name,
  body: { name: "app-db", milli_cpu: 1000, memory_gb: 4, region_code: "us-east-1" },
});
const vpc: ExampleBlock = { key: "resource.tsdb_vpcs", name: "main", body: { name: "docs-vpc", cidr: "10.10.0.0/16", region_code: "us-east-1" } };

export const docExamples: Record<string, DocExample> = {
  "ephemeral.tsdb_service_credentials": {
    blocks: [
      { key: "resource.tsdb_service", name: "admin_db", body: { name: "creds-admin-db" } },
      { key: "ephemeral.tsdb_service_credentials", name: "admin", body: { service_id: "${tsdb_service.admin_db.id}", ttl: "15m" } },
      {
        key: "resource.tsdb_service",
        name: "reporting",
        body: { name: "creds-reporting-db", password_wo: "${ephemeral.tsdb_service_credentials.admin.password}", password_wo_version: 1 },
      },
    ],
  },
  // The embedded platform, as a first-time user has it (a platform server: endpoint and keys, see the arguments).
  "provider.tsdb": {
    blocks: [{ key: "provider.tsdb", name: "tsdb", body: { project_id: "docs-example" } }],
  },
  "provider.containerbackup": {
    blocks: [{ key: "provider.containerbackup", name: "containerbackup", body: { project: "docs-example", default_labels: { team: "platform" } } }],
  },
  "resource.containerbackup_restore_channel": {
    blocks: [
      {
        key: "resource.containerbackup_restore_channel",
        name: "prod_restores",
        body: {
          name: "docs-restores",
          location: "us-central1",
          destination_project: "projects/restore-target",
          description: "Backups of the demo project restore only into restore-target.",
          labels: { environment: "prod" },
          timeouts: { create: "10m" },
        },
      },
    ],
    outputs: { channel_uid: "${containerbackup_restore_channel.prod_restores.uid}" },
    importParts: { project: "docs-example" },
  },
  "resource.tsdb_vpcs": {
    blocks: [vpc],
    outputs: { vpc_provisioned_id: "${tsdb_vpcs.main.provisioned_id}" },
    importParts: { id: "1234" },
  },
  "resource.tsdb_service": {
    variables: { db_password: { type: "string", sensitive: true, description: "Password of the database user." } },
    blocks: [
      vpc,
      {
        key: "resource.tsdb_service",
        name: "db",
        body: {
          name: "app-db",
          milli_cpu: 1000,
          memory_gb: 4,
          region_code: "us-east-1",
          ha_replicas: 2,
          sync_replicas: 1,
          connection_pooler_enabled: true,
          environment_tag: "PROD",
          vpc_id: "${tsdb_vpcs.main.vpcs_id}",
          password_wo: "${var.db_password}",
          password_wo_version: 1,
          timeouts: { create: "30m" },
        },
      },
      { key: "resource.tsdb_service", name: "replica", body: { read_replica_source: "${tsdb_service.db.id}", read_replica_nodes: 2 } },
    ],
    outputs: { db_hostname: "${tsdb_service.db.hostname}", replica_hostname: "${tsdb_service.replica.hostname}" },
    importParts: { id: "a1b2c3d4e5" },
  },
  "resource.tsdb_peering_connection": {
    blocks: [
      vpc,
      {
        key: "resource.tsdb_peering_connection",
        name: "to_shared_services",
        body: {
          platform_vpc_id: "${tsdb_vpcs.main.vpcs_id}",
          peer_account_id: "123456789012",
          peer_region_code: "us-east-1",
          peer_vpc_id: "vpc-0a1b2c3d4e5f67890",
        },
      },
      {
        key: "resource.tsdb_peering_connection",
        name: "to_transit_gateway",
        body: {
          platform_vpc_id: "${tsdb_vpcs.main.vpcs_id}",
          peer_account_id: "123456789012",
          peer_region_code: "us-east-1",
          peer_tgw_id: "tgw-0a1b2c3d4e5f67890",
          peer_cidr_blocks: ["10.20.0.0/16", "10.30.0.0/16"],
        },
      },
    ],
    outputs: { accept_on_cloud_side: "${tsdb_peering_connection.to_shared_services.accepter_provisioned_id}" },
    importParts: { peering_connection_id: "42", platform_vpc_id: "1234", id: "42" },
  },
  "resource.tsdb_connector_obj_store": {
    blocks: [
      service(),
      {
        key: "resource.tsdb_connector_obj_store",
        name: "events",
        body: {
          service_id: "${tsdb_service.db.id}",
          bucket: "example-events",
          pattern: "exports/*.csv",
          credentials: { type: "RoleARN", role_arn: "arn:aws:iam::123456789012:role/tsdb-reader" },
          definition: { type: "CSV", csv: { delimiter: ",", skip_header: true, column_names: ["time", "device", "value"] } },
          table_identifier: { table_name: "events" },
          frequency: "@hourly",
        },
      },
    ],
    importParts: { service_id: "a1b2c3d4e5", id: "7f1c2a9e-3b4d-4e5f-8a6b-0c1d2e3f4a5b" },
  },
  "resource.tsdb_connector_src_db": {
    variables: { source_db_url: { type: "string", sensitive: true, description: "Connection URI of the source database." } },
    blocks: [
      service(),
      {
        key: "resource.tsdb_connector_src_db",
        name: "orders",
        body: {
          service_id: "${tsdb_service.db.id}",
          display_name: "Orders replication",
          connection_string: "${var.source_db_url}",
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
        },
      },
    ],
    outputs: { bastion_public_key: "${tsdb_connector_src_db.orders.ssh_tunnel.public_key}" },
    importParts: { service_id: "a1b2c3d4e5", id: "7f1c2a9e-3b4d-4e5f-8a6b-0c1d2e3f4a5b" },
  },
  "resource.tsdb_log_exporter": {
    blocks: [
      {
        key: "resource.tsdb_log_exporter",
        name: "logs",
        body: {
          name: "app-logs",
          region: "us-east-1",
          cloudmon: {
            region: "us-east-1",
            log_group_name: "/tsdb/app",
            log_stream_name: "primary",
            role_arn: "arn:aws:iam::123456789012:role/tsdb-log-writer",
          },
        },
      },
      { ...service(), body: { ...service().body, log_exporter_id: "${tsdb_log_exporter.logs.id}" } },
    ],
    importParts: { id: "7f1c2a9e-3b4d-4e5f-8a6b-0c1d2e3f4a5b" },
  },
  "resource.tsdb_metric_exporter": {
    variables: { monitoring_api_key: { type: "string", sensitive: true, description: "API key of the monitoring vendor." } },
    blocks: [
      {
        key: "resource.tsdb_metric_exporter",
        name: "metrics",
        body: { name: "app-metrics", region: "us-east-1", saasmon: { api_key: "${var.monitoring_api_key}", site: "datadoghq.eu" } },
      },
      { ...service(), body: { ...service().body, metric_exporter_id: "${tsdb_metric_exporter.metrics.id}" } },
    ],
    importParts: { id: "7f1c2a9e-3b4d-4e5f-8a6b-0c1d2e3f4a5b" },
  },
  "data.tsdb_service": {
    blocks: [service(), { key: "data.tsdb_service", name: "db_lookup", body: { id: "${tsdb_service.db.id}" } }],
    outputs: { db_region: "${data.tsdb_service.db_lookup.region_code}", db_endpoint: "${data.tsdb_service.db_lookup.spec.hostname}" },
  },
  "data.tsdb_products": {
    blocks: [{ key: "data.tsdb_products", name: "all", body: {} }],
    outputs: { first_product_name: "${data.tsdb_products.all.products[0].name}" },
  },
  "data.tsdb_vpcs": {
    blocks: [{ key: "data.tsdb_vpcs", name: "all", body: {} }],
    outputs: { first_vpc_peerings: "${data.tsdb_vpcs.all.vpcs[0].peering_connections}" },
  },
};
