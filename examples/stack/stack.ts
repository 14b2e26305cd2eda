// The example stack: every resource and data source of both providers, wired together with the
// references the platform expects (service → VPC, peering → VPC, service → exporters,
// connectors → service, read replica → primary).
import { LocalBackend, TerraformOutput, TerraformStack, TerraformVariable } from "cdktf";
import type { Construct } from "constructs";
import { ContainerbackupProvider, RestoreChannel } from "schemaform/containerbackup";
import {
  ConnectorObjStore,
  ConnectorSrcDb,
  DataTsdbProducts,
  DataTsdbService,
  DataTsdbVpcs,
  LogExporter,
  MetricExporter,
  PeeringConnection,
  Service,
  TsdbProvider,
  Vpcs,
} from "schemaform/tsdb";

export class PlatformStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    // State next to the synthesized stack, so nothing in the output names this machine's paths.
    new LocalBackend(this, { path: "terraform.tfstate" });

    new TsdbProvider(this, "tsdb", { projectId: "demo-project" });
    new ContainerbackupProvider(this, "containerbackup", {
      project: "demo-project",
      defaultLabels: { team: "platform" },
    });

    const sourcePassword = new TerraformVariable(this, "source_db_url", {
      type: "string",
      sensitive: true,
      default: "postgres://replicator:example-only@source.internal:5432/app",
      description: "Connection URI of the source database for replication.",
    });

    const vpc = new Vpcs(this, "main", { name: "main-vpc", cidr: "10.10.0.0/16", regionCode: "us-east-1" });

    new PeeringConnection(this, "to_shared_services", {
      platformVpcId: vpc.vpcsId,
      peerAccountId: "123456789012",
      peerRegionCode: "us-east-1",
      peerVpcId: "vpc-0a1b2c3d4e5f67890",
    });

    const logs = new LogExporter(this, "logs", {
      name: "app-logs",
      region: "us-east-1",
      cloudmon: {
        region: "us-east-1",
        logGroupName: "/tsdb/app",
        logStreamName: "primary",
        roleArn: "arn:aws:iam::123456789012:role/tsdb-log-writer",
      },
    });

    const metrics = new MetricExporter(this, "metrics", {
      name: "app-metrics",
      region: "us-east-1",
      pullmon: { username: "scraper", password: "scrape-secret-example" },
    });

    const db = new Service(this, "db", {
      name: "app-db",
      milliCpu: 1000,
      memoryGb: 4,
      regionCode: "us-east-1",
      haReplicas: 2,
      syncReplicas: 1,
      connectionPoolerEnabled: true,
      environmentTag: "PROD",
      vpcId: vpc.vpcsId,
      logExporterId: logs.id,
      metricExporterId: metrics.id,
      timeouts: { create: "30m" },
    });

    const replica = new Service(this, "replica", {
      readReplicaSource: db.id,
      readReplicaNodes: 2,
    });

    new ConnectorObjStore(this, "events", {
      serviceId: db.id,
      bucket: "example-events",
      pattern: "exports/*.csv",
      credentials: { type: "RoleARN", roleArn: "arn:aws:iam::123456789012:role/tsdb-reader" },
      definition: { type: "CSV", csv: { delimiter: ",", skipHeader: true, columnNames: ["time", "device", "value"] } },
      tableIdentifier: { tableName: "events" },
      frequency: "@hourly",
    });

    new ConnectorSrcDb(this, "orders", {
      serviceId: db.id,
      displayName: "Orders replication",
      connectionString: sourcePassword.stringValue,
      tableSyncWorkers: 2,
      sshTunnel: { name: "bastion", host: "bastion.example.com", port: 22, username: "tunnel" },
      tables: [
        {
          schemaName: "public",
          tableName: "orders",
          hypertableSpec: {
            primaryDimension: { columnName: "created_at", partitionInterval: "7d" },
            secondaryDimensions: [{ hash: { columnName: "customer_id", numberPartitions: 4 } }],
          },
        },
        { schemaName: "public", tableName: "customers", tableMapping: { schemaName: "crm", tableName: "customers" } },
      ],
    });

    new RestoreChannel(this, "prod_restores", {
      name: "prod-restores",
      location: "us-central1",
      destinationProject: "projects/restore-target",
      description: "Backups of the demo project restore only into restore-target.",
      labels: { environment: "prod" },
    });

    const lookup = new DataTsdbService(this, "db_lookup", { id: db.id });
    const products = new DataTsdbProducts(this, "products");
    const vpcs = new DataTsdbVpcs(this, "vpcs", { dependsOn: [vpc] });

    new TerraformOutput(this, "db_hostname", { value: db.hostname });
    new TerraformOutput(this, "db_port", { value: db.port });
    new TerraformOutput(this, "db_password", { value: db.password, sensitive: true });
    new TerraformOutput(this, "replica_hostname", { value: replica.hostname });
    new TerraformOutput(this, "lookup_region", { value: lookup.regionCode });
    new TerraformOutput(this, "vpc_provisioned_id", { value: vpc.provisionedId });
    new TerraformOutput(this, "products_count", { value: `\${length(${products.fqn}.products)}` });
    new TerraformOutput(this, "vpc_count", { value: `\${length(${vpcs.fqn}.vpcs)}` });
  }
}
