// The generated configuration: import blocks, resource blocks from live values, references,
// variables for secrets, names, escaping, provider settings; and it passes `validateHclJson`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MODELS,
  canonicalBody,
  generateFromLive,
  planImport,
  generateImport,
  isImportType,
  readLive,
  type GenerateImportResult,
  type LiveResource,
} from "../../cli/import/index.js";
import type { BlockModel } from "../../language/schema/model-types.js";
import { validateHclJson } from "../../language/index.js";
import type { PlatformClient } from "../../platform/types.js";
import { PROJECT, createEstate, type Estate } from "./fixture.js";

type Doc = {
  terraform: { required_providers: Record<string, { source: string }> };
  provider: Record<string, Record<string, unknown>>;
  variable: Record<string, { type: string; sensitive: boolean; description: string }>;
  import: Array<{ to: string; id: string }>;
  resource: Record<string, Record<string, Record<string, unknown>>>;
};

let estate: Estate;
let result: GenerateImportResult;
let doc: Doc;

beforeAll(async () => {
  estate = await createEstate();
  result = await generateImport({ client: estate.client, discover: true, project: PROJECT, env: {} });
  doc = JSON.parse(result.files[0]!.content) as Doc;
});
afterAll(async () => {
  await estate?.close();
});

const body = (type: string, name: string) => {
  const found = doc.resource[type]?.[name];
  if (!found) throw new Error(`no resource ${type}.${name} in ${JSON.stringify(Object.keys(doc.resource[type] ?? {}))}`);
  return found;
};

describe("discovery", () => {
  it("finds every resource of the project", () => {
    const count = (type: string) => result.resources.filter((r) => r.type === type).length;
    expect(count("tsdb_vpcs")).toBe(1);
    expect(count("tsdb_peering_connection")).toBe(2);
    expect(count("tsdb_log_exporter")).toBe(1);
    expect(count("tsdb_metric_exporter")).toBe(2);
    expect(count("tsdb_service")).toBe(3);
    expect(count("tsdb_connector_obj_store")).toBe(2);
    expect(count("tsdb_connector_src_db")).toBe(2);
    expect(count("containerbackup_restore_channel")).toBe(2);
    expect(result.resources).toHaveLength(15);
  });

  it("lists restore channels only in the locations asked for", async () => {
    const elsewhere = await readLive({ client: estate.client, discover: true, project: PROJECT, env: {}, locations: ["europe-west1"] });
    expect(elsewhere.filter((r) => r.type === "containerbackup_restore_channel")).toHaveLength(0);
    const there = await readLive({ client: estate.client, discover: true, project: PROJECT, env: {}, locations: ["us-central1", "europe-west1"] });
    expect(there.filter((r) => r.type === "containerbackup_restore_channel")).toHaveLength(2);
  });

  it("takes the projects from the providers' environment variables", async () => {
    const live = await readLive({ client: estate.client, discover: true, env: { TSDB_PROJECT_ID: PROJECT } });
    expect(live.some((r) => r.type === "tsdb_service")).toBe(true);
    expect(live.some((r) => r.type === "containerbackup_restore_channel")).toBe(false);
    const channels = await readLive({ client: estate.client, discover: true, env: { CONTAINERBACKUP_PROJECT: PROJECT } });
    expect(new Set(channels.map((r) => r.type))).toEqual(new Set(["containerbackup_restore_channel"]));
    await expect(readLive({ client: estate.client, discover: true, env: {} })).rejects.toThrow(/--discover needs a project/);
  });
});

describe("the HCL-JSON document", () => {
  it("passes validateHclJson without errors", async () => {
    const diagnostics = await validateHclJson(result.files[0]!.content, { filename: "import.tf.json" });
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("requires the providers it uses, by their schemaform sources", () => {
    expect(doc.terraform.required_providers).toEqual({ containerbackup: { source: "schemaform/containerbackup" }, tsdb: { source: "schemaform/tsdb" } });
    const onlyTsdb = JSON.parse(result.files[0]!.content) as Doc;
    expect(Object.keys(onlyTsdb.provider).sort()).toEqual(["containerbackup", "tsdb"]);
  });

  it("has one import block per resource block, `to` a bare address", () => {
    const addresses = Object.entries(doc.resource).flatMap(([type, byName]) => Object.keys(byName).map((name) => `${type}.${name}`));
    expect(doc.import.map((i) => i.to).sort()).toEqual(addresses.sort());
    for (const i of doc.import) {
      expect(i.to).toMatch(/^[a-z_]+\.[A-Za-z_][A-Za-z0-9_-]*$/);
      expect(i.id).not.toContain("${");
    }
    expect(doc.import.find((i) => i.to === "containerbackup_restore_channel.prod_restores")?.id).toBe(estate.ids.channel);
    expect(doc.import.find((i) => i.to === "tsdb_connector_src_db.orders_replication")?.id).toBe(`${estate.ids.primary}:${estate.ids.srcDb}`);
  });

  it("writes no computed-only attribute, and no value equal to its default", () => {
    const check = (block: BlockModel, value: Record<string, unknown>, where: string) => {
      for (const [key, v] of Object.entries(value)) {
        const attribute = block.attributes[key];
        expect(attribute, `${where}.${key} is an attribute`).toBeDefined();
        expect(attribute!.required || attribute!.optional, `${where}.${key} is an argument`).toBeTruthy();
        if (attribute!.default !== undefined) expect(v, `${where}.${key} differs from its default`).not.toEqual(attribute!.default);
        if (attribute!.nested && v && typeof v === "object") {
          const items = Array.isArray(v) ? v : [v];
          for (const item of items) check(attribute!.nested.block, item as Record<string, unknown>, `${where}.${key}`);
        }
      }
    };
    for (const [type, byName] of Object.entries(doc.resource)) {
      expect(isImportType(type)).toBe(true);
      for (const [name, value] of Object.entries(byName)) {
        const { "//": _comment, lifecycle: _lifecycle, ...args } = value;
        check(MODELS[type as keyof typeof MODELS].block, args, `${type}.${name}`);
      }
    }
  });

  it("keeps values that differ from the defaults", () => {
    const db = body("tsdb_service", "app_db");
    expect(db).toMatchObject({ name: "app-db", milli_cpu: 1000, memory_gb: 4, ha_replicas: 2, sync_replicas: 1, connection_pooler_enabled: true, environment_tag: "PROD", deletion_protection: true, parameters: { max_connections: "200", work_mem: "64MB" } });
    expect(body("tsdb_service", "ledger_db")).not.toHaveProperty("deletion_protection");
    expect(Object.values(doc.resource.containerbackup_restore_channel!).find((c) => c.name === "prod-restores")).toMatchObject({ deletion_policy: "PREVENT" });
    expect(db).not.toHaveProperty("paused");
    expect(db).not.toHaveProperty("hostname");
    const late = Object.values(doc.resource.tsdb_connector_obj_store!).find((c) => c.pattern === "late/*.parquet")!;
    expect(late).toMatchObject({ enabled: false, table_identifier: { table_name: "late_events", schema_name: "staging" } });
    const events = Object.values(doc.resource.tsdb_connector_obj_store!).find((c) => c.pattern === "exports/*.csv")!;
    expect(events.table_identifier).toEqual({ table_name: "events" });
    expect(events.definition).toEqual({ type: "CSV", csv: { skip_header: true, column_names: ["time", "device", "value"] } });
  });

  it("states a default after all when a rule needs it", () => {
    const live: LiveResource[] = [
      {
        type: "tsdb_connector_obj_store",
        importId: "svc1:c1",
        body: {
          id: "c1",
          service_id: "svc1",
          bucket: "b-1-x",
          pattern: "*",
          credentials: { type: "Public" },
          definition: { type: "CSV", csv: { delimiter: ",", skip_header: false } },
          table_identifier: { table_name: "t", schema_name: "public" },
          enabled: true,
        },
      },
    ];
    // Without a validator, defaults are left out.
    const plain = planImport(live, { providerSettings: { tsdb: {}, containerbackup: {} } });
    const csv = (p: typeof plain) => canonicalBody(p.resources[0]!.body) as { definition: { csv: Record<string, unknown> }; enabled?: boolean };
    expect(csv(plain).definition.csv).toEqual({});
    // A (made-up) rule that wants `definition.csv.delimiter` and `enabled` stated puts them back.
    const asked: unknown[] = [];
    const needy = planImport(live, {
      providerSettings: { tsdb: {}, containerbackup: {} },
      validate: (_type, body) => {
        asked.push(body);
        const b = body as { definition: { csv: Record<string, unknown> }; enabled?: unknown };
        const paths: Array<(string | number)[]> = [];
        if (b.definition.csv.delimiter === undefined) paths.push(["definition", "csv", "delimiter"]);
        if (b.enabled === undefined) paths.push(["enabled"]);
        paths.push(["bucket"]); // an error on a stated argument changes nothing
        return paths;
      },
    });
    expect(csv(needy).definition.csv).toEqual({ delimiter: "," });
    expect(csv(needy).enabled).toBe(true);
    expect(Object.keys(csv(needy))).toEqual(Object.keys(csv(needy)).slice().sort((a, b) => order(a) - order(b)));
    expect(asked.length).toBeGreaterThan(1);
  });

  it("references imported resources instead of copying their ids", () => {
    const db = body("tsdb_service", "app_db");
    expect(db.vpc_id).toBe("${tsdb_vpcs.main_vpc.vpcs_id}");
    expect(db.log_exporter_id).toBe("${tsdb_log_exporter.app_logs.id}");
    expect(db.metric_exporter_id).toBe("${tsdb_metric_exporter.app_metrics.id}");
    expect(body("tsdb_service", "replica_app_db").read_replica_source).toBe("${tsdb_service.app_db.id}");
    for (const peering of Object.values(doc.resource.tsdb_peering_connection!)) expect(peering.platform_vpc_id).toBe("${tsdb_vpcs.main_vpc.vpcs_id}");
    expect(body("tsdb_connector_src_db", "orders_replication").service_id).toBe("${tsdb_service.app_db.id}");
    const services = Object.values(doc.resource.tsdb_connector_obj_store!).map((c) => c.service_id);
    expect(services.sort()).toEqual(["${tsdb_service.app_db.id}", "${tsdb_service.ledger_db.id}"]);
    // No id of an imported resource is copied anywhere into a resource block.
    const blocks = JSON.stringify(doc.resource);
    for (const id of [estate.ids.primary, estate.ids.logExporter, estate.ids.metricExporter]) expect(blocks).not.toContain(id);
    expect(blocks).not.toMatch(new RegExp(`:\\s*${estate.ids.vpcsId}\\b`));
  });

  it("keeps a literal id (with a note) when the referenced resource is not imported", async () => {
    const only = await generateImport({ client: estate.client, requests: [{ type: "tsdb_service", id: estate.ids.primary }], project: PROJECT, env: {} });
    const d = JSON.parse(only.files[0]!.content) as Doc;
    const db = d.resource.tsdb_service!.app_db!;
    expect(db.vpc_id).toBe(estate.ids.vpcsId);
    expect(db.log_exporter_id).toBe(estate.ids.logExporter);
    expect(only.warnings.join("\n")).toMatch(/vpc_id .* refers to a VPC that is not imported/);
    expect(Object.keys(d.terraform.required_providers)).toEqual(["tsdb"]);
    expect(Object.keys(d.provider)).toEqual(["tsdb"]);
  });

  it("escapes ${ and %{ in literal values, map keys and import ids", () => {
    const logs = body("tsdb_log_exporter", "app_logs").cloudmon as Record<string, unknown>;
    expect(logs.log_group_name).toBe("/tsdb/$${app}");
    expect(logs.log_stream_name).toBe("%%{primary}");
    const channel = body("containerbackup_restore_channel", "prod_restores");
    expect(channel.description).toBe("Restores of $${env} go %%{only} to restore-target");
    expect(channel.labels).toEqual({ environment: "prod", "cost-center": "c-42" });
  });

  it("leaves out what the provider reads as unset: empty tables and empty non-authoritative labels", () => {
    expect(body("tsdb_connector_src_db", "ledger_feed")).not.toHaveProperty("tables");
    const dr = body("containerbackup_restore_channel", "dr_restores");
    expect(dr).toEqual({ destination_project: "projects/dr-target", location: "us-central1", name: "dr-restores" });
  });

  it("leaves the restore channel's project to the provider when it is the provider's", () => {
    const channel = body("containerbackup_restore_channel", "prod_restores");
    expect(channel).not.toHaveProperty("project");
    expect(channel).toMatchObject({ name: "prod-restores", location: "us-central1", destination_project: "projects/restore-target" });
  });

  it("derives stable, readable names and numbers duplicates", () => {
    expect(Object.keys(doc.resource.tsdb_vpcs!)).toEqual(["main_vpc"]);
    expect(Object.keys(doc.resource.tsdb_service!).sort()).toEqual(["app_db", "ledger_db", "replica_app_db"]);
    expect(Object.keys(doc.resource.tsdb_metric_exporter!).sort()).toEqual(["app_metrics", "saas_metrics"]);
    expect(Object.keys(doc.resource.tsdb_connector_obj_store!).sort()).toEqual(["example_events", "example_events_2"]);
    expect(Object.keys(doc.resource.tsdb_peering_connection!).sort()).toEqual(["main_vpc_to_tgw_0123456789abcdef0", "main_vpc_to_vpc_0a1b2c3d4e5f67890"]);
  });

  it("does not depend on the order the platform lists resources in", async () => {
    const live = await readLive({ client: estate.client, discover: true, project: PROJECT, env: {} });
    const shuffled: LiveResource[] = [...live].reverse();
    const again = await generateFromLive(shuffled, { project: PROJECT, env: {} });
    expect(again.files[0]!.content).toBe(result.files[0]!.content);
  });
});

describe("secrets", () => {
  it("become sensitive variables that say what to put", () => {
    const names = Object.keys(doc.variable).sort();
    expect(names).toEqual([
      "app_db_password",
      "app_logs_cloudmon_secret_key",
      "app_metrics_pullmon_password",
      "ledger_db_password_wo",
      "ledger_feed_connection_string",
      "orders_replication_connection_string",
      "saas_metrics_saasmon_api_key",
    ]);
    for (const v of Object.values(doc.variable)) {
      expect(v.type).toBe("string");
      expect(v.sensitive).toBe(true);
      expect(v.description.length).toBeGreaterThan(40);
    }
    expect(doc.variable.app_db_password!.description).toMatch(/password .*service "app-db" \(tsdb_service\.app_db/);
    expect(body("tsdb_service", "app_db").password).toBe("${var.app_db_password}");
    expect(body("tsdb_service", "ledger_db")).toMatchObject({ password_wo: "${var.ledger_db_password_wo}", password_wo_version: 3 });
    expect(body("tsdb_service", "ledger_db")).not.toHaveProperty("password");
    // A read replica shares its source's password.
    expect(body("tsdb_service", "replica_app_db")).not.toHaveProperty("password");
    expect(body("tsdb_connector_src_db", "orders_replication").connection_string).toBe("${var.orders_replication_connection_string}");
    expect((body("tsdb_metric_exporter", "saas_metrics").saasmon as Record<string, unknown>).api_key).toBe("${var.saas_metrics_saasmon_api_key}");
    expect((body("tsdb_metric_exporter", "app_metrics").pullmon as Record<string, unknown>).password).toBe("${var.app_metrics_pullmon_password}");
    expect((body("tsdb_log_exporter", "app_logs").cloudmon as Record<string, unknown>).secret_key).toBe("${var.app_logs_cloudmon_secret_key}");
  });

  it("that the platform never returns are ignored after the import (unless managed at once)", async () => {
    const ignored = (type: string, name: string) => (body(type, name).lifecycle as { ignore_changes?: string[] } | undefined)?.ignore_changes;
    expect(ignored("tsdb_service", "app_db")).toEqual(["password"]);
    expect(ignored("tsdb_connector_src_db", "orders_replication")).toEqual(["connection_string"]);
    expect(ignored("tsdb_log_exporter", "app_logs")).toEqual(["cloudmon.secret_key"]);
    expect(ignored("tsdb_metric_exporter", "app_metrics")).toEqual(["pullmon.password"]);
    expect(ignored("tsdb_metric_exporter", "saas_metrics")).toEqual(["saasmon.api_key"]);
    // Write-only values are never in state: nothing to ignore.
    expect(ignored("tsdb_service", "ledger_db")).toBeUndefined();
    expect(ignored("tsdb_vpcs", "main_vpc")).toBeUndefined();
    expect(body("tsdb_service", "app_db")["//"]).toMatch(/never returns password/);
    expect(doc.variable.app_db_password!.description).toMatch(/ignore_changes/);
    expect(result.resources.find((r) => r.address === "tsdb_service.app_db")?.ignoreChanges).toEqual(["password"]);

    const managed = await generateImport({ client: estate.client, discover: true, project: PROJECT, env: {}, manageSecrets: true });
    const d = JSON.parse(managed.files[0]!.content) as Doc;
    for (const byName of Object.values(d.resource)) for (const value of Object.values(byName)) expect(value).not.toHaveProperty("lifecycle");
    expect(d.resource.tsdb_service!.app_db!.password).toBe("${var.app_db_password}");
    expect(d.variable.app_db_password!.description).not.toMatch(/ignore_changes/);
    expect((await validateHclJson(managed.files[0]!.content)).filter((x) => x.severity === "error")).toEqual([]);
  });

  it("never appear in any output, even when the platform returns them", async () => {
    // A platform that (wrongly) returns every secret: the generator still never writes one.
    const leaky = leakingClient(estate);
    // The wrapper really leaks: the service read returns its password.
    expect((await leaky.services.get(PROJECT, estate.ids.primary)).password).toBe(estate.secretValues[0]!.value);
    for (const client of [leaky, estate.client]) {
      for (const format of ["hcl-json", "cdktf"] as const) {
        const out = await generateImport({ client, discover: true, project: PROJECT, env: {}, format });
        const text = out.files[0]!.content + JSON.stringify(out.variables) + out.warnings.join("\n");
        for (const secret of estate.secrets) expect(text).not.toContain(secret);
      }
    }
  });
});

describe("provider blocks", () => {
  it("leave out settings that come from the environment", async () => {
    const env = { TSDB_PROJECT_ID: PROJECT, CONTAINERBACKUP_PROJECT: PROJECT, TSDB_ENDPOINT: "http://127.0.0.1:1" };
    const live = await readLive({ client: estate.client, discover: true, env });
    const out = await generateFromLive(live, { env, endpoint: "http://127.0.0.1:1" });
    const d = JSON.parse(out.files[0]!.content) as Doc;
    expect(d.provider).toEqual({ tsdb: {}, containerbackup: { endpoint: "http://127.0.0.1:1" } });
    expect(d.resource.containerbackup_restore_channel!.prod_restores).not.toHaveProperty("project");
  });

  it("write settings given on the command line", () => {
    expect(doc.provider).toEqual({ tsdb: { project_id: PROJECT }, containerbackup: { project: PROJECT } });
  });

  it("name the restore channel's project when it is not the provider's", async () => {
    const live = await readLive({ client: estate.client, requests: [{ type: "containerbackup_restore_channel", id: estate.ids.channel }], env: {} });
    const out = await generateFromLive(live, { env: {} });
    const d = JSON.parse(out.files[0]!.content) as Doc;
    expect(d.provider).toEqual({ containerbackup: {} });
    expect(d.resource.containerbackup_restore_channel!.prod_restores!.project).toBe(PROJECT);
  });
});

describe("the CDKTF stack", () => {
  it("constructs every resource with importFrom, references and sensitive variables", async () => {
    const out = await generateImport({ client: estate.client, discover: true, project: PROJECT, env: {}, format: "cdktf" });
    const ts = out.files[0]!.content;
    expect(out.files[0]!.path).toBe("imported.ts");
    expect(ts).toContain('from "schemaform/tsdb"');
    expect(ts).toContain('from "schemaform/containerbackup"');
    expect(ts.match(/\.importFrom\(/g)).toHaveLength(15);
    expect(ts).toContain("vpcId: mainVpc.vpcsId,");
    expect(ts).toContain("readReplicaSource: appDb.id,");
    expect(ts).toContain("password: appDbPassword.stringValue,");
    expect(ts).toMatch(/new TerraformVariable\(this, "app_db_password", \{\n\s+type: "string",\n\s+sensitive: true,/);
    expect(ts).toContain('logGroupName: "/tsdb/$${app}",');
    expect(ts).toContain('"cost-center": "c-42",');
    expect(ts).toContain('new TsdbProvider(this, "tsdb", { projectId: "acme-data" });');
    expect(ts).toMatch(/password: appDbPassword\.stringValue,\n\s+parameters: \{\n\s+"max_connections": "200",\n\s+"work_mem": "64MB",\n\s+\},\n\s+deletionProtection: true,\n\s+lifecycle: \{ ignoreChanges: \["password"\] \},\n\s+\}\);/);
  });

  it("exports the stack class and makes no app, so that the user's main.ts adds it to its own", async () => {
    const out = await generateImport({ client: estate.client, discover: true, project: PROJECT, env: {}, format: "cdktf", fileName: "stacks/adopted.ts", stackName: "legacy" });
    const ts = out.files[0]!.content;
    expect(ts).toContain("export class ImportedStack extends TerraformStack {");
    expect(ts).not.toMatch(/\bApp\b/);
    expect(ts).not.toMatch(/^[^/]*\.synth\(\)/m);
    expect(ts).toContain('//   import { ImportedStack } from "./adopted";\n//   new ImportedStack(app, "legacy");');
  });
});

/** Position of an argument of tsdb_connector_obj_store in its model. */
function order(name: string): number {
  return Object.keys(MODELS.tsdb_connector_obj_store.block.attributes).indexOf(name);
}

/** Wraps a client so every read also returns the secrets the real platform keeps to itself. */
function leakingClient(estate: Estate): PlatformClient {
  const secretsOf = (id: string) => Object.fromEntries(estate.secretValues.filter((s) => s.id === id).map((s) => [s.attribute, s.value]));
  const leak = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(leak);
    if (!value || typeof value !== "object") return value;
    const body = { ...(value as Record<string, unknown>) };
    const secrets = typeof body.id === "string" ? secretsOf(body.id) : {};
    for (const [path, secret] of Object.entries(secrets)) {
      const [first, second] = path.split(".");
      if (second === undefined) body[first!] = secret;
      else body[first!] = { ...(body[first!] as Record<string, unknown>), [second]: secret };
    }
    return body;
  };
  const wrap = <T extends object>(api: T): T =>
    new Proxy(api, {
      get(target, key, receiver) {
        const member = Reflect.get(target, key, receiver) as unknown;
        if (typeof member !== "function") return member;
        return async (...args: unknown[]) => leak(await (member as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      },
    });
  const c = estate.client;
  return {
    mode: c.mode,
    restoreChannels: c.restoreChannels,
    services: wrap(c.services),
    vpcs: c.vpcs,
    peering: c.peering,
    logExporters: wrap(c.logExporters),
    metricExporters: wrap(c.metricExporters),
    objStoreConnectors: c.objStoreConnectors,
    srcDbConnectors: wrap(c.srcDbConnectors),
    lookups: c.lookups,
    events: c.events,
    close: () => c.close(),
  };
}
