// Provider functions judged by real Terraform: `terraform console` calls them (GetProviderSchema's
// functions, CallFunction), a malformed id fails with the function's own error, and
// `terraform validate` refuses a bad literal argument exactly as `schemaform validate` does.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CLI, ROOT, Suite, runProcess, type Workspace } from "./support/harness.js";

let suite: Suite;
let ws: Workspace;

const REQUIRED = {
  terraform: {
    required_providers: {
      containerbackup: { source: "schemaform/containerbackup", version: "0.1.0" },
      tsdb: { source: "schemaform/tsdb", version: "0.1.0" },
    },
  },
};

const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "").replace(/[│╷╵]/g, "").replace(/\s+/g, " ");

async function consoleEval(expressions: string[]): Promise<{ code: number; output: string }> {
  // One expression: a non-interactive console prints only the last result.
  const input = expressions.length === 1 ? expressions[0]! : `jsonencode([${expressions.join(", ")}])`;
  const result = await runProcess("terraform", ["console"], { cwd: ws.dir, env: suite.env, input: `${input}\n` });
  return { code: result.code, output: plain(result.output) };
}

beforeAll(async () => {
  suite = await Suite.create("functions");
  ws = suite.workspace("functions");
  ws.writeJson("main.tf.json", REQUIRED);
  await ws.ok(["init", "-input=false"]);
});

afterAll(async () => {
  if (suite) await suite.dispose();
});

describe("provider functions in terraform console", () => {
  test("project_from_id, location_from_id and name_from_id take apart every accepted restore channel id format", async () => {
    const full = "projects/demo-proj/locations/us-central1/restoreChannels/nightly";
    const calls = [
      `provider::containerbackup::project_from_id("${full}")`,
      `provider::containerbackup::location_from_id("${full}")`,
      `provider::containerbackup::name_from_id("${full}")`,
      `provider::containerbackup::name_from_id("https://containerbackup.example.com/v1/${full}")`,
      `provider::containerbackup::project_from_id("other-proj/europe-west4/weekly")`,
      `provider::containerbackup::location_from_id("other-proj/europe-west4/weekly")`,
      `provider::containerbackup::name_from_id("europe-west4/daily")`,
      `provider::containerbackup::location_from_id("europe-west4/daily")`,
    ];
    const result = await consoleEval(calls);
    expect(result.code, result.output).toBe(0);
    expect(JSON.parse(JSON.parse(result.output))).toEqual(["demo-proj", "us-central1", "nightly", "nightly", "other-proj", "europe-west4", "daily", "europe-west4"]);
  });

  test("a malformed id fails with the function's own error, naming the parameter", async () => {
    const result = await consoleEval(['provider::containerbackup::name_from_id("not-an-id")']);
    expect(result.code).toBe(1);
    expect(result.output).toContain('Invalid function argument');
    expect(result.output).toContain('Invalid value for "id" parameter: "not-an-id" is not a restore channel id: expected projects/{project}/locations/{location}/restoreChannels/{name}');
    const noProject = await consoleEval(['provider::containerbackup::project_from_id("us-central1/nightly")']);
    expect(noProject.code).toBe(1);
    expect(noProject.output).toContain('"us-central1/nightly" has no project');
  });

  test("the peering import id is built and taken apart, and the connection URI percent-encodes its parts", async () => {
    const result = await consoleEval([
      "provider::tsdb::peering_import_id(3001, 1001)",
      'provider::tsdb::parse_peering_import_id("3002,1004").platform_vpc_id',
      'provider::tsdb::connection_uri("db.example.com", 5432, "tsdbadmin", "p@ss/w:rd%", null)',
      'provider::tsdb::connection_uri("db.example.com", 6432, "reader", null, "metrics db")',
    ]);
    expect(result.code, result.output).toBe(0);
    expect(JSON.parse(JSON.parse(result.output))).toEqual([
      "3001,1001",
      1004,
      "postgres://tsdbadmin:p%40ss%2Fw%3Ard%25@db.example.com:5432/tsdb?sslmode=require",
      "postgres://reader@db.example.com:6432/metrics%20db?sslmode=require",
    ]);
    const bad = await consoleEval(['provider::tsdb::parse_peering_import_id("3002")']);
    expect(bad.code).toBe(1);
    expect(bad.output).toContain('Invalid value for "import_id" parameter: "3002" is not a peering import id');
  });
});

describe("validate", () => {
  test("terraform validate and schemaform validate refuse the same bad literal argument and unknown function", async () => {
    const cases: Array<[string, RegExp]> = [
      ['${provider::containerbackup::location_from_id("projects/p/restoreChannels/x")}', /Invalid value for "id" parameter: "projects\/p\/restoreChannels\/x" has no location/],
      ['${provider::tsdb::peering_import_id(1)}', /Function "provider::tsdb::peering_import_id" expects 2 argument\(s\)\. Missing value for "platform_vpc_id"\./],
      ['${provider::tsdb::no_such_function("x")}', /Unknown provider function.*The function "no_such_function" is not available from the provider "tsdb"\./],
    ];
    for (const [value, message] of cases) {
      const dir = suite.workspace(`validate-${cases.findIndex((c) => c[0] === value)}`);
      dir.writeJson("main.tf.json", { ...REQUIRED, output: { x: { value } } });
      await dir.ok(["init", "-input=false", "-backend=false"]);
      const terraform = await dir.tf(["validate"]);
      expect(terraform.code, terraform.output).toBe(1);
      expect(plain(terraform.output)).toMatch(message);
      const ours = await runProcess(process.execPath, [CLI, "validate", dir.dir], { cwd: ROOT, env: suite.env });
      expect(ours.code, ours.output).toBe(1);
      expect(plain(ours.output)).toMatch(message);
    }
    const good = suite.workspace("validate-good");
    good.writeJson("main.tf.json", { ...REQUIRED, output: { x: { value: '${provider::containerbackup::name_from_id("europe-west4/daily")}' } } });
    const ours = await runProcess(process.execPath, [CLI, "validate", good.dir], { cwd: ROOT, env: suite.env });
    expect(ours.code, ours.output).toBe(0);
  });
});
