// The generated classes follow CDKTF's binding shape: token getters (also into nested objects),
// setters, `<x>Input`, `reset<X>`, `put<X>`, `importFrom`, `generateConfigForImport`, provider
// aliases, and both synthesis paths (JSON and HCL).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { Testing, TerraformOutput, TerraformStack, TerraformVariable, type TerraformElement } from "cdktf";
import * as containerbackup from "schemaform/containerbackup";
import * as tsdb from "schemaform/tsdb";
import { ContainerbackupProvider, RestoreChannel } from "schemaform/containerbackup";
import { ConnectorObjStore, ConnectorSrcDb, DataTsdbProducts, DataTsdbService, DataTsdbVpcs, PeeringConnection, Service, TsdbProvider, Vpcs, type ConnectorObjStoreConfig } from "schemaform/tsdb";
import { PlatformStack } from "../../examples/stack/stack.js";
import { cleanOutdirs } from "./helpers.js";

afterAll(cleanOutdirs);

function stack(): TerraformStack {
  const s = new TerraformStack(Testing.app({ stackTraces: false }), "stack");
  new TsdbProvider(s, "tsdb", { projectId: "demo-project" });
  new ContainerbackupProvider(s, "containerbackup", { project: "demo-project" });
  return s;
}

const synth = (s: TerraformStack) => JSON.parse(Testing.synth(s, true));

describe("class shape", () => {
  test("every construct class has tfResourceType; resources have generateConfigForImport", () => {
    const classes = { ...tsdb, ...containerbackup } as Record<string, any>;
    const constructs = Object.entries(classes).filter(([, c]) => typeof c === "function" && typeof c.tfResourceType === "string");
    expect(constructs.map(([name]) => name).sort()).toEqual(
      ["ConnectorObjStore", "ConnectorSrcDb", "ContainerbackupProvider", "DataTsdbProducts", "DataTsdbService", "DataTsdbVpcs", "LogExporter", "MetricExporter", "PeeringConnection", "RestoreChannel", "Service", "TsdbProvider", "Vpcs"].sort(),
    );
    for (const [name, c] of constructs) {
      const isResource = !name.startsWith("Data") && !name.endsWith("Provider");
      expect(typeof c.generateConfigForImport === "function", name).toBe(isResource);
    }
    expect(Service.tfResourceType).toBe("tsdb_service");
    expect(DataTsdbVpcs.tfResourceType).toBe("tsdb_vpcs");
    expect(TsdbProvider.tfResourceType).toBe("tsdb");
  });

  test("getters return tokens that resolve to Terraform references", () => {
    const s = stack();
    const vpc = new Vpcs(s, "main", { cidr: "10.0.0.0/16", regionCode: "us-east-1" });
    const rc = new RestoreChannel(s, "rc", { location: "us-central1", destinationProject: "projects/abcdef1" });
    const pc = new PeeringConnection(s, "pc", { platformVpcId: vpc.vpcsId, peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerTgwId: "tgw-0a1b2c3d4e5f67890", peerCidrBlocks: ["10.0.0.0/8"] });
    const db = new Service(s, "db", {});
    const lookup = new DataTsdbService(s, "lookup", { id: db.id });
    const vpcs = new DataTsdbVpcs(s, "all");
    const products = new DataTsdbProducts(s, "products");
    const src = new ConnectorSrcDb(s, "src", { serviceId: db.id, displayName: "d", connectionString: "postgres://x", sshTunnel: { name: "bastion" } });
    const outputs: Record<string, unknown> = {
      vpcs_id: vpc.vpcsId,
      cidr: vpc.cidr,
      label: rc.effectiveLabels.lookup("team"),
      paused: db.paused,
      timeouts_create: db.timeouts.create,
      peer_cidr_blocks: pc.peerCidrBlocks,
      spec_hostname: lookup.spec.hostname,
      resource_cpu: lookup.resources.get(0).spec.milliCpu,
      peering_blocks: vpcs.vpcs.get(0).peeringConnections.get(1).peerCidrBlocks,
      plan_price: products.products.get(2).plans.get(0).price,
      public_key: src.sshTunnel.publicKey,
      table_mapping: src.tables.get(0).tableMapping.tableName,
    };
    for (const [name, value] of Object.entries(outputs)) new TerraformOutput(s, name, { value });
    const json = synth(s);
    const values = Object.fromEntries(Object.entries(json.output).map(([k, v]: [string, any]) => [k, v.value]));
    expect(values).toEqual({
      vpcs_id: "${tsdb_vpcs.main.vpcs_id}",
      cidr: "${tsdb_vpcs.main.cidr}",
      label: '${containerbackup_restore_channel.rc.effective_labels["team"]}',
      paused: "${tsdb_service.db.paused}",
      timeouts_create: "${tsdb_service.db.timeouts.create}",
      peer_cidr_blocks: "${tolist(tsdb_peering_connection.pc.peer_cidr_blocks)}",
      spec_hostname: "${data.tsdb_service.lookup.spec.hostname}",
      resource_cpu: "${data.tsdb_service.lookup.resources[0].spec.milli_cpu}",
      peering_blocks: "${data.tsdb_vpcs.all.vpcs[0].peering_connections[1].peer_cidr_blocks}",
      plan_price: "${data.tsdb_products.products.products[2].plans[0].price}",
      public_key: "${tsdb_connector_src_db.src.ssh_tunnel.public_key}",
      table_mapping: "${tsdb_connector_src_db.src.tables[0].table_mapping.table_name}",
    });
  });
});

describe("setters, inputs, put and reset", () => {
  test("attributes", () => {
    const s = stack();
    const db = new Service(s, "db", { haReplicas: 1 });
    expect(db.haReplicasInput).toBe(1);
    db.haReplicas = 2;
    db.syncReplicas = 1;
    db.name = "renamed";
    expect(db.haReplicasInput).toBe(2);
    db.resetName();
    expect(db.nameInput).toBeUndefined();
    expect(synth(s).resource.tsdb_service.db).toEqual({ ha_replicas: 2, sync_replicas: 1 });
    db.resetSyncReplicas();
    db.resetHaReplicas();
    expect(synth(s).resource.tsdb_service.db).toEqual({});
  });

  test("blocks and nested objects", () => {
    const s = stack();
    const db = new Service(s, "db", {});
    db.putTimeouts({ create: "10m" });
    expect(db.timeoutsInput).toEqual({ create: "10m" });
    const os = new ConnectorObjStore(s, "os", {
      serviceId: "abcde12345",
      bucket: "example-events",
      pattern: "*.csv",
      credentials: { type: "Public" },
      definition: { type: "CSV" },
      tableIdentifier: { tableName: "events" },
    });
    os.putCredentials({ type: "RoleARN", roleArn: "arn:aws:iam::123456789012:role/reader" });
    os.putDefinition({ type: "PARQUET", parquet: { autoColumnMapping: true } });
    const src = new ConnectorSrcDb(s, "src", { serviceId: "abcde12345", displayName: "d", connectionString: "postgres://x" });
    src.putTables([{ schemaName: "public", tableName: "orders" }]);
    src.putSshTunnel({ name: "bastion", port: 22 });
    let json = synth(s);
    expect(json.resource.tsdb_service.db.timeouts).toEqual({ create: "10m" });
    expect(json.resource.tsdb_connector_obj_store.os.credentials).toEqual({ type: "RoleARN", role_arn: "arn:aws:iam::123456789012:role/reader" });
    expect(json.resource.tsdb_connector_obj_store.os.definition).toEqual({ type: "PARQUET", parquet: { auto_column_mapping: true } });
    expect(json.resource.tsdb_connector_src_db.src.tables).toEqual([{ schema_name: "public", table_name: "orders" }]);
    expect(json.resource.tsdb_connector_src_db.src.ssh_tunnel).toEqual({ name: "bastion", port: 22 });
    db.resetTimeouts();
    src.resetTables();
    src.resetSshTunnel();
    json = synth(s);
    expect(json.resource.tsdb_service.db).toEqual({});
    expect(json.resource.tsdb_connector_src_db.src).toEqual({ service_id: "abcde12345", display_name: "d", connection_string: "postgres://x" });
  });

  test("a value set after construction is validated at synth", () => {
    const s = stack();
    const db = new Service(s, "db", {});
    db.syncReplicas = 1;
    expect(() => Testing.synth(s, true)).toThrow("[stack/db] tsdb_service.db: sync_replicas (syncReplicas) = 1 requires ha_replicas (haReplicas) = 2");
  });
});

describe("nested configuration through references", () => {
  const ARN = "arn:aws:iam::123456789012:role/reader";
  const objStore = (s: TerraformStack, credentials: ConnectorObjStoreConfig["credentials"]) =>
    new ConnectorObjStore(s, "os", { serviceId: "abcde12345", bucket: "example-events", pattern: "*.csv", credentials, definition: { type: "CSV" }, tableIdentifier: { tableName: "events" } });

  test("a field set through the reference is synthesized, and read back as its input", () => {
    const s = stack();
    const db = new Service(s, "db", {});
    db.timeouts.create = "30m";
    expect(db.timeouts.createInput).toBe("30m");
    expect(db.timeoutsInput).toEqual({ create: "30m" });
    expect(synth(s).resource.tsdb_service.db.timeouts).toEqual({ create: "30m" });
  });

  test("put, then a field: the field joins; put again: the object is replaced; the last field reset: it is gone", () => {
    const s = stack();
    const rc = new RestoreChannel(s, "rc", { location: "us-central1", destinationProject: "projects/abcdef1" });
    rc.putTimeouts({ create: "5m" });
    rc.timeouts.update = "10m";
    expect(synth(s).resource.containerbackup_restore_channel.rc.timeouts).toEqual({ create: "5m", update: "10m" });
    rc.putTimeouts({ delete: "1m" });
    expect(synth(s).resource.containerbackup_restore_channel.rc.timeouts).toEqual({ delete: "1m" });
    rc.timeouts.resetDelete();
    expect(rc.timeoutsInput).toBeUndefined();
    expect(synth(s).resource.containerbackup_restore_channel.rc.timeouts).toBeUndefined();
  });

  test("objects inside objects and elements of lists", () => {
    const s = stack();
    const os = objStore(s, { type: "Public" });
    os.definition.csv.delimiter = ";";
    os.definition.csv.skipHeader = true;
    os.definition.csv.resetSkipHeader();
    os.credentials.type = "RoleARN";
    os.credentials.roleArn = ARN;
    const src = new ConnectorSrcDb(s, "src", { serviceId: "abcde12345", displayName: "d", connectionString: "postgres://x" });
    src.putTables([{ schemaName: "public", tableName: "orders" }]);
    src.tables.get(0).tableName = "invoices";
    src.tables.get(0).putTableMapping({ schemaName: "crm", tableName: "invoices" });
    const json = synth(s).resource;
    expect(json.tsdb_connector_obj_store.os.definition).toEqual({ type: "CSV", csv: { delimiter: ";" } });
    expect(json.tsdb_connector_obj_store.os.credentials).toEqual({ type: "RoleARN", role_arn: ARN });
    expect(json.tsdb_connector_src_db.src.tables).toEqual([{ schema_name: "public", table_name: "invoices", table_mapping: { schema_name: "crm", table_name: "invoices" } }]);
    expect(() => (src.tables.get(1).tableName = "x")).toThrow("Cannot set element 1 of tables: it has 1; put the whole list first");
  });

  test("an object passed to the constructor is copied when a field is set, not changed", () => {
    const s = stack();
    const shared = { type: "Public" as const };
    const os = objStore(s, shared);
    os.credentials.type = "RoleARN";
    os.credentials.roleArn = ARN;
    expect(shared).toEqual({ type: "Public" });
  });

  test("a field set through the reference is validated at synth", () => {
    const s = stack();
    const db = new Service(s, "db", {});
    db.timeouts.create = "soon";
    expect(() => Testing.synth(s, true)).toThrow('[stack/db] tsdb_service.db: timeouts.create must be a duration made of numbers with s, m or h suffixes, such as 30s, 10m or 1h30m, got "soon"');
  });

  test("a field of an object put as a token cannot be set", () => {
    const s = stack();
    const v = new TerraformVariable(s, "t", {});
    const db = new Service(s, "db", { timeouts: v.value });
    expect(() => (db.timeouts.create = "1m")).toThrow("Cannot set create: timeouts is set to a token (a reference or variable), not an object; put an object first");
  });
});

describe("maps and enums flow from one construct into another", () => {
  test("a map getter is another resource's map prop", () => {
    const s = stack();
    const a = new RestoreChannel(s, "a", { location: "us-central1", destinationProject: "projects/abcdef1", labels: { team: "data" } });
    new RestoreChannel(s, "b", { location: "us-central1", destinationProject: "projects/abcdef1", labels: a.labels });
    new RestoreChannel(s, "c", { location: "us-central1", destinationProject: "projects/abcdef1", labels: a.toolLabels });
    const json = synth(s).resource.containerbackup_restore_channel;
    expect(json.b.labels).toBe("${containerbackup_restore_channel.a.labels}");
    expect(json.c.labels).toBe("${containerbackup_restore_channel.a.tool_labels}");
  });

  test("an enum getter is another construct's enum prop", () => {
    const s = stack();
    const a = new Service(s, "a", { environmentTag: "PROD" });
    new Service(s, "b", { environmentTag: a.environmentTag, milliCpu: a.milliCpu, memoryGb: a.memoryGb });
    expect(synth(s).resource.tsdb_service.b).toEqual({
      environment_tag: "${tsdb_service.a.environment_tag}",
      milli_cpu: "${tsdb_service.a.milli_cpu}",
      memory_gb: "${tsdb_service.a.memory_gb}",
    });
  });
});

describe("import", () => {
  test("importFrom adds an import block for the resource", () => {
    const s = stack();
    const vpc = new Vpcs(s, "main", { cidr: "10.0.0.0/16", regionCode: "us-east-1" });
    vpc.importFrom("1234");
    const db = new Service(s, "db", {});
    db.importFrom("a1b2c3d4e5");
    const json = synth(s);
    expect(json.import).toEqual([
      { id: "1234", to: "tsdb_vpcs.main" },
      { id: "a1b2c3d4e5", to: "tsdb_service.db" },
    ]);
  });

  test("generateConfigForImport adds an import block without a resource", () => {
    const s = stack();
    const eu = new TsdbProvider(s, "eu", { alias: "eu", projectId: "demo-eu" });
    Service.generateConfigForImport(s, "adopted", "a1b2c3d4e5");
    RestoreChannel.generateConfigForImport(s, "channel", "projects/p1234567/locations/us-central1/restoreChannels/rc");
    PeeringConnection.generateConfigForImport(s, "peering", "42,1234", eu);
    const json = synth(s);
    expect(json.import).toEqual([
      { id: "a1b2c3d4e5", to: "tsdb_service.adopted" },
      { id: "projects/p1234567/locations/us-central1/restoreChannels/rc", to: "containerbackup_restore_channel.channel" },
      { id: "42,1234", provider: "tsdb.eu", to: "tsdb_peering_connection.peering" },
    ]);
    expect(json.resource).toBeUndefined();
  });
});

describe("providers", () => {
  test("an aliased provider synthesizes its alias, and resources select it", () => {
    const s = stack();
    const eu = new TsdbProvider(s, "eu", { alias: "eu", projectId: "demo-eu", endpoint: "https://eu.example.com" });
    expect(eu.alias).toBe("eu");
    expect(eu.projectId).toBe("demo-eu");
    new Vpcs(s, "main", { cidr: "10.0.0.0/16", regionCode: "eu-west-1", provider: eu });
    const json = synth(s);
    expect(json.provider.tsdb).toEqual([{ project_id: "demo-project" }, { alias: "eu", endpoint: "https://eu.example.com", project_id: "demo-eu" }]);
    expect(json.resource.tsdb_vpcs.main.provider).toBe("tsdb.eu");
    expect(json.terraform.required_providers.tsdb).toEqual({ source: "schemaform/tsdb", version: "0.1.0" });
  });
});

describe("HCL output", () => {
  test("synthesizeHclAttributes carries the same values as synthesizeAttributes, for every construct of the example", () => {
    const app = Testing.app({ stackTraces: false });
    const example = new PlatformStack(app, "example");
    const ours = (c: any) => /^(tsdb|containerbackup)/.test(c.terraformResourceType ?? "");
    const elements = example.node.findAll().filter((c): c is TerraformElement => ours(c) && typeof (c as any).synthesizeHclAttributes === "function");
    // The example uses every class of both providers.
    expect(new Set(elements.map((e) => e.constructor.name)).size).toBe(13);
    for (const element of elements) {
      const plain = (element as any).synthesizeAttributes() as Record<string, unknown>;
      const hcl = (element as any).synthesizeHclAttributes() as Record<string, { value: unknown; isBlock: boolean; type: string }>;
      const defined = Object.fromEntries(Object.entries(plain).filter(([, v]) => v !== undefined));
      expect(Object.keys(hcl).sort(), element.node.path).toEqual(Object.keys(defined).sort());
      for (const [name, entry] of Object.entries(hcl)) expect(entry.value, `${element.node.path}.${name}`).toEqual(defined[name]);
    }
  });

  test("Testing.synthHcl renders blocks as blocks and nested objects as values", () => {
    const app = Testing.app({ stackTraces: false });
    const hcl = Testing.synthHcl(new PlatformStack(app, "example"), true);
    expect(hcl).not.toContain("[object Object]");
    expect(hcl).toContain('resource "tsdb_service" "db" {');
    expect(hcl).toMatch(/timeouts \{\ncreate = "30m"\n\}/);
    expect(hcl).toMatch(/ssh_tunnel = \{\n/);
    expect(hcl).toMatch(/credentials = \{\n/);
    expect(hcl).toMatch(/tables = \[\n\{\n/);
    expect(hcl).toMatch(/labels = \{\nenvironment = "prod"\n\}/);
    expect(hcl).toContain('vpc_id = "${tsdb_vpcs.main.vpcs_id}"');
    expect(hcl).toContain('provider "tsdb" {\nproject_id = "demo-project"\n}');
  });
});

describe("loading", () => {
  test("importing schemaform/tsdb loads no validator; synth loads only the types used", () => {
    const script = `
      import { createRequire } from "node:module";
      import { App, TerraformStack } from "cdktf";
      const { TsdbProvider, Vpcs } = await import("schemaform/tsdb");
      const cache = createRequire(import.meta.url).cache;
      const loaded = () => Object.keys(cache).filter((p) => /generated[\\\\/]validators[\\\\/].*\\.cjs$/.test(p)).map((p) => p.replace(/^.*validators[\\\\/]/, "")).sort();
      const before = loaded();
      const app = new App({ outdir: process.argv[1] });
      const s = new TerraformStack(app, "s");
      new TsdbProvider(s, "tsdb", { projectId: "p" });
      new Vpcs(s, "main", { cidr: "10.0.0.0/16", regionCode: "us-east-1" });
      app.synth();
      console.log(JSON.stringify({ before, after: loaded() }));
    `;
    const outdir = mkdtempSync(join(tmpdir(), "schemaform-loading-"));
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script, outdir], { cwd: process.cwd() }).toString();
    rmSync(outdir, { recursive: true, force: true });
    expect(JSON.parse(out)).toEqual({ before: [], after: ["provider.tsdb.cjs", "resource.tsdb_vpcs.cjs"] });
  });
});
