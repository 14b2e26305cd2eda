// Tokens are unknown values: references, variables, locals, number, list and map tokens and
// function results never trip a value check or a rule that reads them, and still count as
// present. Deprecated arguments give a warning annotation, not an error.
import { afterAll, describe, expect, test } from "vitest";
import { Fn, TerraformLocal, TerraformVariable, Token, type IResolvable } from "cdktf";
import { RestoreChannel } from "schemaform/containerbackup";
import {
  ConnectorObjStore,
  ConnectorSrcDb,
  LogExporter,
  PeeringConnection,
  Service,
  TsdbProvider,
  Vpcs,
  type ConnectorObjStoreCredentialsType,
  type ConnectorObjStoreFrequency,
  type ServiceEnvironmentTag,
  type ServiceMilliCpu,
  type VpcsRegionCode,
} from "schemaform/tsdb";
import { withUnknowns } from "../../constructs/runtime/validation.js";
import { UNKNOWN_VALUE as UNKNOWN } from "../../language/schema/model-types.js";
import { cleanOutdirs, newStack, synthErrors, synthesize } from "./helpers.js";

afterAll(cleanOutdirs);

describe("tokens never trip a rule", () => {
  test("references in number, string and list positions", () => {
    expect(
      synthErrors((s) => {
        const vpc = new Vpcs(s, "main", { cidr: "10.0.0.0/16", regionCode: "us-east-1" });
        const logs = new LogExporter(s, "logs", { region: "us-east-1", cloudmon: { region: "us-east-1", logGroupName: "g", logStreamName: "s", roleArn: "arn:aws:iam::123456789012:role/r" } });
        const db = new Service(s, "db", { vpcId: vpc.vpcsId, logExporterId: logs.id, regionCode: vpc.regionCode });
        new Service(s, "replica", { readReplicaSource: db.id, readReplicaNodes: db.readReplicaNodes });
        new PeeringConnection(s, "pc", {
          platformVpcId: vpc.vpcsId,
          peerAccountId: vpc.projectId,
          peerRegionCode: vpc.regionCode,
          peerTgwId: vpc.provisionedId,
          peerCidrBlocks: Fn.tolist([vpc.cidr]) as unknown as string[],
        });
      }),
    ).toEqual([]);
  });

  test("a variable in a value rule skips the rule (sync_replicas = 1 with an unknown ha_replicas)", () => {
    expect(
      synthErrors((s) => {
        const ha = new TerraformVariable(s, "ha", { type: "number" });
        new Service(s, "db", { haReplicas: ha.numberValue, syncReplicas: 1 });
      }),
    ).toEqual([]);
  });

  test("a variable where a pattern, an enum or a range would fail", () => {
    expect(
      synthErrors((s) => {
        const text = new TerraformVariable(s, "text", { type: "string" });
        const number = new TerraformVariable(s, "n", { type: "number" });
        // An enum prop takes any other token with a cast to its union (the documented escape).
        new Service(s, "db", { milliCpu: number.numberValue as ServiceMilliCpu, memoryGb: 4, environmentTag: text.stringValue as ServiceEnvironmentTag, timeouts: { create: text.stringValue } });
        new Vpcs(s, "main", { cidr: text.stringValue, regionCode: text.stringValue as VpcsRegionCode });
        new RestoreChannel(s, "rc", { location: text.stringValue, destinationProject: `projects/${text.stringValue}`, name: Fn.lower(text.stringValue) });
      }),
    ).toEqual([]);
  });

  test("a token counts as present for required and presence rules", () => {
    const errors = synthErrors((s) => {
      const id = new TerraformVariable(s, "id", { type: "string" });
      // exactly one of peer_vpc_id and peer_tgw_id: a token is one of them, so both set is an error
      new PeeringConnection(s, "both", { platformVpcId: 1, peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerVpcId: id.stringValue, peerTgwId: "tgw-0a1b2c3d4e5f67890", peerCidrBlocks: ["10.0.0.0/8"] });
      new PeeringConnection(s, "one", { platformVpcId: 1, peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerVpcId: id.stringValue });
    });
    expect(errors).toEqual(["[stack/both] tsdb_peering_connection.both: exactly one of peer_vpc_id (peerVpcId) and peer_tgw_id (peerTgwId) must be set"]);
  });

  test("number tokens, list tokens, map tokens and whole-object tokens", () => {
    expect(
      synthErrors((s) => {
        const any = new TerraformVariable(s, "any", {});
        const local = new TerraformLocal(s, "columns", ["a", "b"]);
        new ConnectorObjStore(s, "os", {
          serviceId: any.stringValue,
          bucket: any.stringValue,
          pattern: "*.csv",
          credentials: { type: any.stringValue as ConnectorObjStoreCredentialsType },
          definition: { type: "CSV", csv: { columnNames: local.asList, delimiter: Token.asString(any.value) } },
          tableIdentifier: any.value as IResolvable as never,
          frequency: any.stringValue as ConnectorObjStoreFrequency,
        });
        new ConnectorSrcDb(s, "src", {
          serviceId: "abcde12345",
          displayName: "d",
          connectionString: any.stringValue,
          tableSyncWorkers: Token.asNumber(any.value),
          tables: any.value as IResolvable,
        });
        new RestoreChannel(s, "rc", { location: "us-central1", destinationProject: "projects/abcdef1", labels: Token.asStringMap(any.value) });
        new RestoreChannel(s, "rc2", { location: "us-central1", destinationProject: "projects/abcdef1", labels: { team: any.stringValue } });
      }),
    ).toEqual([]);
  });

  test("bool tokens and tokens inside list elements", () => {
    expect(
      synthErrors((s) => {
        const flag = new TerraformVariable(s, "flag", { type: "bool" });
        const text = new TerraformVariable(s, "text", { type: "string" });
        new Service(s, "db", { connectionPoolerEnabled: flag.booleanValue, paused: flag.booleanValue });
        new PeeringConnection(s, "pc", { platformVpcId: 1, peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerTgwId: "tgw-0a1b2c3d4e5f67890", peerCidrBlocks: [text.stringValue, "10.0.0.0/8"] });
      }),
    ).toEqual([]);
  });

  test("a literal still fails next to tokens", () => {
    const errors = synthErrors((s) => {
      const text = new TerraformVariable(s, "text", { type: "string" });
      new PeeringConnection(s, "pc", { platformVpcId: 1, peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerTgwId: text.stringValue, peerCidrBlocks: [text.stringValue, "10.0.0.0"] });
    });
    expect(errors).toEqual(['[stack/pc] tsdb_peering_connection.pc: peer_cidr_blocks[1] (peerCidrBlocks[1]) must be an IPv4 CIDR block such as 10.0.0.0/16, got "10.0.0.0"']);
  });

  test("withUnknowns replaces exactly the unresolved values", () => {
    const { stack } = newStack();
    const v = new TerraformVariable(stack, "v", {});
    const out = withUnknowns({
      a: v.stringValue,
      b: `prefix-${v.stringValue}`,
      c: v.numberValue,
      d: v.listValue,
      e: [1, v.stringValue, "x"],
      f: { g: v.booleanValue, h: null, i: undefined, j: "${literal.template}", m: "$${escaped}", n: "%{ if true }x%{ endif }" },
      k: 3,
      l: false,
    });
    expect(out).toEqual({ a: UNKNOWN, b: UNKNOWN, c: UNKNOWN, d: UNKNOWN, e: [1, UNKNOWN, "x"], f: { g: UNKNOWN, j: UNKNOWN, m: "$${escaped}", n: UNKNOWN }, k: 3, l: false });
  });
});

describe("deprecated arguments", () => {
  test("give a warning annotation (once), not an error", () => {
    const { json, annotations } = synthesize((s) => {
      new Service(s, "db", { storageGb: 10, enableHaReplica: true, haReplicas: 1 });
    });
    expect(json.resource.tsdb_service.db.storage_gb).toBe(10);
    expect(annotations).toEqual([
      { constructPath: "stack/db", level: "@cdktf/warn", message: "tsdb_service.db: storage_gb (storageGb) is deprecated: storage is usage-based; remove storage_gb", stacktrace: undefined },
      { constructPath: "stack/db", level: "@cdktf/warn", message: "tsdb_service.db: enable_ha_replica (enableHaReplica) is deprecated: use ha_replicas (haReplicas) and sync_replicas (syncReplicas) instead", stacktrace: undefined },
    ].map(({ stacktrace: _s, ...rest }) => expect.objectContaining(rest)));
  });

  test("a deprecated argument set by a token still warns", () => {
    const { annotations } = synthesize((s) => {
      const size = new TerraformVariable(s, "size", { type: "number" });
      new Service(s, "db", { storageGb: size.numberValue });
    });
    expect(annotations.map((a) => a.message)).toEqual(["tsdb_service.db: storage_gb (storageGb) is deprecated: storage is usage-based; remove storage_gb"]);
  });

  test("skipValidation switches validation off", () => {
    const { app, stack } = newStack({ skipValidation: true });
    new Service(stack, "db", { haReplicas: 1, syncReplicas: 1 });
    expect(() => app.synth()).not.toThrow();
  });

  test("a provider without its arguments validates (project_id may come from TSDB_PROJECT_ID)", () => {
    expect(synthErrors((s) => void new TsdbProvider(s, "p"), { providers: false })).toEqual([]);
  });
});
