// The ephemeral resource's RPCs as bytes on the wire, against the real tsdb provider definition and
// an embedded platform: Open answers a result, an id-only private and a renew_at Timestamp; Renew
// extends the credentials (Terraform calls it only when a run outlasts renew_at, which the
// end-to-end test cannot wait for); Close revokes them. The password is never in the private data.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeValue, encodeMsgpack, encodeValue } from "../../provider/codec.js";
import { providerRouter } from "../../provider/framework/rpc.js";
import { ProviderServer } from "../../provider/framework/server.js";
import { methodTypes } from "../../provider/protocol/messages.js";
import { openPlatform } from "../../platform/client.js";
import type { PlatformClient } from "../../platform/types.js";

const dataDir = mkdtempSync(join(tmpdir(), "schemaform-ephemeral-wire-"));
const PROJECT = "wire-project";
let server: ProviderServer<unknown>;
let route: ReturnType<typeof providerRouter>;
let platform: PlatformClient;
let serviceId: string;

async function rpc(method: string, request: Record<string, unknown>): Promise<Record<string, any>> {
  const types = methodTypes(`/tfplugin6.Provider/${method}`)!;
  const bytes = await route(`/tfplugin6.Provider/${method}`)!(types.request.encode(types.request.fromObject(request)).finish());
  return types.response.toObject(types.response.decode(bytes), { longs: Number, defaults: false }) as Record<string, any>;
}

beforeAll(async () => {
  process.env.SCHEMAFORM_DATA_DIR = dataDir;
  process.env.SCHEMAFORM_TRANSITION_SECONDS = "0";
  const { default: definition } = await import("../../provider/definitions/tsdb.js");
  server = new ProviderServer(definition as never);
  route = providerRouter(server);
  platform = openPlatform({ dataDir });
  serviceId = (await platform.services.create(PROJECT, { name: "wire-db" })).body.id;
  const configured = await rpc("ConfigureProvider", { config: { msgpack: encodeMsgpack({ project_id: PROJECT }, server.schema.provider.block) } });
  expect(configured.diagnostics ?? []).toEqual([]);
});

afterAll(async () => {
  await server.close();
  await platform.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("tsdb_service_credentials over the wire", () => {
  it("opens, renews and closes temporary credentials", async () => {
    const block = server.schema.ephemeral_resource_schemas!.tsdb_service_credentials!.block;
    const type = ["object", Object.fromEntries(Object.entries(block.attributes!).map(([k, a]) => [k, a.type!]))] as never;
    const opened = await rpc("OpenEphemeralResource", { type_name: "tsdb_service_credentials", config: { msgpack: encodeValue({ service_id: serviceId, ttl: "10m", hostname: null, port: null, username: null, password: null, expires_at: null }, type) } });
    expect(opened.diagnostics ?? []).toEqual([]);
    const result = decodeValue(opened.result.msgpack, type) as Record<string, string | number>;
    expect(result.username).toMatch(/^tsdb_tmp_/);
    expect(await platform.services.checkPassword(PROJECT, serviceId, String(result.password))).toBe(true);
    const kept = Buffer.from(opened.private).toString("utf8");
    expect(kept).not.toContain(String(result.password));
    const expires = Date.parse(String(result.expires_at));
    // renew_at: two thirds into the 10 minutes
    expect(Number(opened.renew_at.seconds) * 1000).toBeCloseTo(expires - 200_000, -4);

    const renewed = await rpc("RenewEphemeralResource", { type_name: "tsdb_service_credentials", private: opened.private });
    expect(renewed.diagnostics ?? []).toEqual([]);
    expect(Number(renewed.renew_at.seconds)).toBeGreaterThanOrEqual(Number(opened.renew_at.seconds));
    expect(Buffer.from(renewed.private).toString("utf8")).toBe(kept);

    const closed = await rpc("CloseEphemeralResource", { type_name: "tsdb_service_credentials", private: opened.private });
    expect(closed.diagnostics ?? []).toEqual([]);
    expect(await platform.services.checkPassword(PROJECT, serviceId, String(result.password))).toBe(false);
    // Renewing revoked credentials is an error Terraform shows.
    const late = await rpc("RenewEphemeralResource", { type_name: "tsdb_service_credentials", private: opened.private });
    expect(late.diagnostics?.[0]?.summary).toMatch(/Renewing service credentials|not found/i);
  });
});
