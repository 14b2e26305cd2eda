// `schemaform validate` knows our providers' functions (declared in the provider schemas): a
// known call passes, an unknown one, a wrong argument count or a bad literal argument fails with
// Terraform's words; arguments not known at validate time are never judged.
import { describe, expect, it } from "vitest";
import { validateHclJson } from "../../language/index.js";

const REQUIRED = { containerbackup: { source: "schemaform/containerbackup" }, tsdb: { source: "schemaform/tsdb" } };

async function messages(value: string): Promise<string[]> {
  const text = JSON.stringify({ terraform: { required_providers: REQUIRED }, variable: { x: { type: "number" } }, output: { out: { value } } });
  return (await validateHclJson(text)).filter((d) => d.severity === "error").map((d) => d.message);
}

describe("our provider functions in schemaform validate", () => {
  it("accepts calls of declared functions with the right arguments", async () => {
    expect(await messages('${provider::containerbackup::name_from_id("projects/p/locations/l/restoreChannels/n")}')).toEqual([]);
    expect(await messages('${provider::tsdb::connection_uri("h", 5432, "u", null, null)}')).toEqual([]);
    expect(await messages("${provider::tsdb::peering_import_id(var.x, var.x)}")).toEqual([]);
  });

  it("refuses an unknown function, a wrong count and a bad literal argument as Terraform does", async () => {
    expect(await messages('${provider::tsdb::nope("x")}')).toEqual(['Unknown provider function: The function "nope" is not available from the provider "tsdb".']);
    expect(await messages("${provider::tsdb::peering_import_id(1)}")).toEqual([
      'Not enough function arguments: Function "provider::tsdb::peering_import_id" expects 2 argument(s). Missing value for "platform_vpc_id".',
    ]);
    expect(await messages('${provider::containerbackup::project_from_id("a", "b")}')).toEqual(['Too many function arguments: Function "provider::containerbackup::project_from_id" expects only 1 argument(s).']);
    expect(await messages('${provider::containerbackup::project_from_id("us-central1/x")}')).toEqual([
      'Invalid function argument: Invalid value for "id" parameter: "us-central1/x" has no project: expected projects/{project}/locations/{location}/restoreChannels/{name}, a self link ending in it, or {project}/{location}/{name}.',
    ]);
    expect(await messages("${provider::tsdb::connection_uri(\"h\", 70000, \"u\", null, null)}")).toEqual(['Invalid function argument: Invalid value for "port" parameter: must be at most 65535, got 70000.']);
  });

  it("never shows a password argument in an error", async () => {
    const found = await messages('${provider::tsdb::connection_uri("", 5432, "u", "hunter2-secret", null)}');
    expect(found).toEqual(['Invalid function argument: Invalid value for "hostname" parameter: must not be empty.']);
  });
});

describe("the ephemeral tsdb_service_credentials in schemaform validate", () => {
  it("checks its arguments and words an unknown ephemeral type as Terraform does for a provider that has some", async () => {
    const text = JSON.stringify({
      terraform: { required_providers: REQUIRED },
      resource: { tsdb_service: { a: {}, b: { password_wo: "${ephemeral.tsdb_service_credentials.c.password}", password_wo_version: 1 } } },
      ephemeral: { tsdb_service_credentials: { c: { service_id: "${tsdb_service.a.id}", ttl: "forever" } }, tsdb_service_credentialz: { d: { service_id: "x" } } },
    });
    expect((await validateHclJson(text)).filter((d) => d.severity === "error").map((d) => d.message)).toEqual([
      'ttl must be a duration made of numbers with s, m or h suffixes, such as 30s, 10m or 1h30m, got "forever"',
      'Invalid ephemeral resource: The provider schemaform/tsdb does not support ephemeral resource "tsdb_service_credentialz".',
    ]);
  });
});
