// Import identifiers: every format of every resource type is recognised and resolved against a
// real (embedded) platform; a malformed identifier names the accepted formats; a well-formed one
// that names nothing says so.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  IMPORT_TYPES,
  ImportError,
  MODELS,
  acceptedFormats,
  canonicalImportId,
  malformedIdMessage,
  matchImportId,
  readRequests,
  type ImportRequest,
  type ImportType,
} from "../../cli/import/index.js";
import { PROJECT, createEstate, type Estate } from "./fixture.js";

describe("matchImportId", () => {
  // An example for every documented format of every type (the schemas' import formats).
  const examples: Record<ImportType, Record<string, string>> = {
    containerbackup_restore_channel: {
      "projects/{project}/locations/{location}/restoreChannels/{name}": "projects/acme-data/locations/us-central1/restoreChannels/prod",
      "{project}/{location}/{name}": "acme-data/us-central1/prod",
      "{location}/{name}": "us-central1/prod",
    },
    tsdb_service: { "{id}": "d1k5vk7hf2" },
    tsdb_vpcs: { "{id}": "1001", "{name}": "main-vpc" },
    tsdb_peering_connection: { "{peering_connection_id},{platform_vpc_id}": "3001,1001", "{id}": "3001" },
    tsdb_log_exporter: { "{id}": "54aa6c5e-d579-420a-a715-57acb22d5ad5" },
    tsdb_metric_exporter: { "{id}": "578a7702-cf34-45bf-bd46-baeeb00f27d0" },
    tsdb_connector_obj_store: { "{service_id}:{id}": "d1k5vk7hf2:e283a0a4-c111-4221-9e53-65227d139724", "{id}": "e283a0a4-c111-4221-9e53-65227d139724" },
    tsdb_connector_src_db: { "{service_id}:{id}": "d1k5vk7hf2:19401d98-bc07-413f-a618-e40a8575d786", "{id}": "19401d98-bc07-413f-a618-e40a8575d786" },
  };

  it("has an example for every format of every type", () => {
    for (const type of IMPORT_TYPES) expect(Object.keys(examples[type]).sort()).toEqual(acceptedFormats(type).sort());
  });

  for (const type of IMPORT_TYPES) {
    for (const format of MODELS[type].importFormats) {
      it(`${type}: "${format.format}"`, () => {
        const id = examples[type][format.format]!;
        const matches = matchImportId(type, id);
        // The format is the first that matches (formats are tried in order).
        expect(matches[0]?.format).toBe(format.format);
        for (const part of format.parts) expect(matches[0]!.parts[part]).toBeTruthy();
      });
    }
  }

  it("takes the parts apart", () => {
    expect(matchImportId("containerbackup_restore_channel", "projects/p1/locations/eu-west1/restoreChannels/ch")[0]!.parts).toEqual({
      project: "p1",
      location: "eu-west1",
      name: "ch",
    });
    expect(matchImportId("tsdb_peering_connection", "3001,1001")[0]!.parts).toEqual({ peering_connection_id: "3001", platform_vpc_id: "1001" });
    expect(matchImportId("tsdb_connector_src_db", "svc:conn")[0]!.parts).toEqual({ service_id: "svc", id: "conn" });
  });

  it("tries a numeric VPC identifier as an id, then as a name", () => {
    expect(matchImportId("tsdb_vpcs", "1001").map((m) => m.format)).toEqual(["{id}", "{name}"]);
    expect(matchImportId("tsdb_vpcs", "main").map((m) => m.format)).toEqual(["{name}"]);
  });

  const malformed: Array<[ImportType, string]> = [
    ["containerbackup_restore_channel", "projects/p/locations/l"],
    ["containerbackup_restore_channel", "a/b/c/d"],
    ["containerbackup_restore_channel", "just-a-name"],
    ["tsdb_peering_connection", "3001,vpc-1"],
    ["tsdb_peering_connection", "pcx-123"],
    ["tsdb_vpcs", "a/b"],
    ["tsdb_service", "svc:extra"],
    ["tsdb_service", ""],
    ["tsdb_log_exporter", "a,b"],
    ["tsdb_metric_exporter", "x/y"],
    ["tsdb_connector_obj_store", "a:b:c"],
    ["tsdb_connector_src_db", "svc/conn"],
  ];
  for (const [type, id] of malformed) {
    it(`rejects ${type} "${id}" and lists the accepted formats`, () => {
      expect(matchImportId(type, id)).toEqual([]);
      const message = malformedIdMessage(type, id);
      for (const format of acceptedFormats(type)) expect(message).toContain(`"${format}"`);
      expect(message).toContain(type);
    });
  }
});

describe("readRequests against the platform", () => {
  let estate: Estate;
  beforeAll(async () => {
    estate = await createEstate();
  });
  afterAll(async () => {
    await estate?.close();
  });

  const read = (requests: ImportRequest[], containerbackupProject: string | null = PROJECT) =>
    readRequests({ client: estate.client, tsdbProject: PROJECT, containerbackupProject: containerbackupProject ?? undefined }, requests);

  it("resolves every format of every type to the canonical identifier", async () => {
    const i = estate.ids;
    const channelFull = i.channel;
    const cases: Array<[ImportType, string, string]> = [
      ["containerbackup_restore_channel", channelFull, channelFull],
      ["containerbackup_restore_channel", `${PROJECT}/us-central1/${i.channelName}`, channelFull],
      ["containerbackup_restore_channel", `us-central1/${i.channelName}`, channelFull],
      ["tsdb_service", i.primary, i.primary],
      ["tsdb_vpcs", i.vpc, i.vpc],
      ["tsdb_vpcs", i.vpcName, i.vpc],
      ["tsdb_peering_connection", `${i.peering},${i.vpcsId}`, `${i.peering},${i.vpcsId}`],
      ["tsdb_peering_connection", i.peering, `${i.peering},${i.vpcsId}`],
      ["tsdb_log_exporter", i.logExporter, i.logExporter],
      ["tsdb_metric_exporter", i.metricExporter, i.metricExporter],
      ["tsdb_connector_obj_store", `${i.primary}:${i.objStore}`, `${i.primary}:${i.objStore}`],
      ["tsdb_connector_obj_store", i.objStore, `${i.primary}:${i.objStore}`],
      ["tsdb_connector_src_db", `${i.primary}:${i.srcDb}`, `${i.primary}:${i.srcDb}`],
      ["tsdb_connector_src_db", i.srcDb, `${i.primary}:${i.srcDb}`],
    ];
    for (const [type, id, canonical] of cases) {
      const [found] = await read([{ type, id }]);
      expect(found, `${type} ${id}`).toBeDefined();
      expect(found!.type).toBe(type);
      expect(found!.importId, `${type} ${id}`).toBe(canonical);
      expect(canonicalImportId(type, found!.body)).toBe(canonical);
    }
    expect(channelFull).toBe(`projects/${PROJECT}/locations/us-central1/restoreChannels/${i.channelName}`);
  });

  it("reads the same resource once, whatever format names it", async () => {
    const found = await read([
      { type: "tsdb_vpcs", id: estate.ids.vpc },
      { type: "tsdb_vpcs", id: estate.ids.vpcName },
    ]);
    expect(found).toHaveLength(1);
  });

  it("says which well-formed identifiers name nothing, and why the others are malformed, all at once", async () => {
    const error = await read([
      { type: "tsdb_service", id: "nosuchsvc1", origin: "argument 1" },
      { type: "tsdb_vpcs", id: "no-such-vpc" },
      { type: "tsdb_vpcs", id: "9999" },
      { type: "tsdb_peering_connection", id: `${estate.ids.peering},9999` },
      { type: "tsdb_connector_src_db", id: `${estate.ids.replica}:${estate.ids.srcDb}` },
      { type: "containerbackup_restore_channel", id: "us-central1/nothing-here" },
      { type: "tsdb_peering_connection", id: "pcx-1" },
      { type: "tsdb_servce", id: "x" },
    ]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportError);
    const problems = (error as ImportError).problems;
    expect(problems).toHaveLength(8);
    expect(problems[0]).toMatch(/^argument 1: tsdb_service "nosuchsvc1" .*matches no existing service in project "acme-data"/);
    expect(problems[1]).toMatch(/tsdb_vpcs "no-such-vpc" .*no existing VPC/);
    expect(problems[2]).toMatch(/tsdb_vpcs "9999" .*no existing VPC/);
    expect(problems[3]).toMatch(/no existing peering connection/);
    expect(problems[4]).toMatch(/no existing source-database connector \(of service/);
    expect(problems[5]).toMatch(/containerbackup_restore_channel "us-central1\/nothing-here" .*no existing restore channel in project "acme-data"/);
    expect(problems[6]).toContain('accepted formats are "{peering_connection_id},{platform_vpc_id}", "{id}"');
    expect(problems[7]).toContain('did you mean "tsdb_service"?');
  });

  it("needs a project for {location}/{name}", async () => {
    const error = await read([{ type: "containerbackup_restore_channel", id: `us-central1/${estate.ids.channelName}` }], null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toMatch(/--project or CONTAINERBACKUP_PROJECT/);
    // With the project in the identifier, none is needed.
    const found = await read([{ type: "containerbackup_restore_channel", id: `${PROJECT}/us-central1/${estate.ids.channelName}` }], null);
    expect(found[0]!.importId).toBe(estate.ids.channel);
  });
});
