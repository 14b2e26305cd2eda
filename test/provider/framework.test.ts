// The framework's generic protocol logic, driven in-process through ProviderServer with the
// fixture provider (the same requests Terraform sends, minus gRPC).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { type Body, UNKNOWN, decodeMsgpack, encodeMsgpack } from "../../provider/codec.js";
import { ProviderServer } from "../../provider/framework/server.js";
import { defineProvider, HandlerError } from "../../provider/framework/types.js";
import fixture from "./fixture/provider.js";
import { fixtureSchema } from "./fixture/schema.js";

const block = fixtureSchema.resource_schemas.fixture_thing!.block;
const providerBlock = fixtureSchema.provider.block;
const dataBlock = fixtureSchema.data_source_schemas.fixture_things!.block;
const dv = (body: Body | null, schema = block) => ({ msgpack: encodeMsgpack(body, schema) });
const read = (value: unknown, schema = block) => decodeMsgpack((value as { msgpack: Uint8Array }).msgpack, schema);
type Diagnostics = { diagnostics?: { severity: number; summary: string; detail?: string; attribute?: { steps: unknown[] } }[] };

const work = mkdtempSync(join(tmpdir(), "schemaform-framework-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let server: ProviderServer<unknown>;
let storeCount = 0;
beforeEach(async () => {
  server = new ProviderServer(fixture as never);
  const config = { store: join(work, `store-${storeCount++}.json`), token: "tok-secret-123" };
  const configured = (await server.configureProvider({ config: dv(config, providerBlock), terraform_version: "1.11.4" })) as Diagnostics;
  expect(configured.diagnostics).toEqual([]);
});

/** What Terraform would send as proposed_new_state on create: config, computed null. */
function config(overrides: Body = {}): Body {
  return { name: "one", region: "eu", ...overrides };
}

async function plan(prior: Body | null, proposed: Body | null, configBody: Body | null) {
  const response = (await server.planResourceChange({
    type_name: "fixture_thing",
    prior_state: dv(prior),
    proposed_new_state: dv(proposed),
    config: dv(configBody),
  })) as Diagnostics & { planned_state: unknown; requires_replace?: { steps: unknown[] }[] };
  return { ...response, planned: read(response.planned_state) };
}

async function apply(prior: Body | null, planned: Body | null, configBody: Body | null) {
  const response = (await server.applyResourceChange({
    type_name: "fixture_thing",
    prior_state: dv(prior),
    planned_state: dv(planned),
    config: dv(configBody),
  })) as Diagnostics & { new_state: unknown };
  return { ...response, state: read(response.new_state) };
}

async function create(configBody: Body): Promise<Body> {
  const { planned } = await plan(null, configBody, configBody);
  const { state, diagnostics } = await apply(null, planned, configBody);
  expect(diagnostics ?? []).toEqual([]);
  return state!;
}

describe("GetProviderSchema", () => {
  it("serves the schema with the capabilities Terraform relies on", () => {
    const response = server.getProviderSchema() as Record<string, any>;
    expect(response.server_capabilities).toEqual({ plan_destroy: true, get_provider_schema_optional: true, move_resource_state: false });
    const attributes = response.resource_schemas.fixture_thing.block.attributes as Record<string, any>[];
    const password = attributes.find((a) => a.name === "password_wo")!;
    expect(password.write_only).toBe(true);
    expect(new TextDecoder().decode(password.type)).toBe('"string"');
    const endpoints = attributes.find((a) => a.name === "endpoints")!;
    expect(endpoints.type).toBeUndefined();
    expect(endpoints.nested_type.nesting).toBe(2);
    expect(response.resource_schemas.fixture_thing.version).toBe(1);
  });
});

describe("PlanResourceChange", () => {
  it("on create: computed unknown, defaults applied, write-only null", async () => {
    const c = config({ password_wo: "pw-123456", settings: { enabled: true, mode: null } });
    const { planned, diagnostics } = await plan(null, c, c);
    expect(diagnostics ?? []).toEqual([]);
    expect(planned!.id).toBe(UNKNOWN);
    expect(planned!.created_at).toBe(UNKNOWN);
    expect(planned!.zone).toBe(UNKNOWN);
    expect(planned!.size).toBe(1);
    expect(planned!.password_wo).toBeNull();
    expect(planned!.settings).toEqual({ enabled: true, mode: "fast" });
    expect(planned!.name).toBe("one");
  });

  it("on update: computed values keep prior unless volatile; no replacement for in-place changes", async () => {
    const prior = await create(config());
    const c = config({ name: "two" });
    const proposed = { ...prior, name: "two" };
    const { planned, requires_replace } = await plan(prior, proposed, c);
    expect(planned!.id).toBe(prior.id);
    expect(planned!.created_at).toBe(prior.created_at);
    expect(planned!.updated_at).toBe(UNKNOWN);
    expect(requires_replace ?? []).toEqual([]);
  });

  it("with no change: planned equals prior exactly", async () => {
    const c = config({ tags: { a: "1" }, labels: ["x", "y"] });
    const prior = await create(c);
    const { planned, requires_replace } = await plan(prior, { ...prior, labels: ["y", "x"] }, { ...c, labels: ["y", "x"] });
    expect(planned!.updated_at).toBe(prior.updated_at);
    expect(requires_replace ?? []).toEqual([]);
  });

  it("requires replacement when a force-new attribute changes", async () => {
    const prior = await create(config());
    const c = config({ region: "us" });
    const { requires_replace } = await plan(prior, { ...prior, region: "us" }, c);
    expect(requires_replace).toEqual([{ steps: [{ attribute_name: "region" }] }]);
  });

  it("a force-new computed attribute forces replacement only when the configuration sets it", async () => {
    const prior = await create(config());
    // Config leaves zone unset: Terraform proposes the prior (server-chosen) value.
    expect((await plan(prior, { ...prior }, config())).requires_replace ?? []).toEqual([]);
    const c = config({ zone: "elsewhere" });
    expect((await plan(prior, { ...prior, zone: "elsewhere" }, c)).requires_replace).toEqual([{ steps: [{ attribute_name: "zone" }] }]);
  });

  it("plans destroys as null (plan_destroy)", async () => {
    const prior = await create(config());
    const response = (await server.planResourceChange({
      type_name: "fixture_thing",
      prior_state: dv(prior),
      proposed_new_state: dv(null),
      config: dv(null),
      prior_private: new Uint8Array([1, 2]),
    })) as { planned_state: unknown; planned_private: Uint8Array };
    expect(read(response.planned_state)).toBeNull();
    expect([...response.planned_private]).toEqual([1, 2]);
  });
});

describe("ApplyResourceChange", () => {
  it("create: known planned values win, unknowns take the remote's values, write-only stays null", async () => {
    const c = config({ password_wo: "pw-123456", secret: "s3cret-value" });
    const state = await create(c);
    expect(typeof state.id).toBe("string");
    expect(state.zone).toBe("eu-a");
    expect(state.password_wo).toBeNull();
    expect(state.password_set).toBe(true);
    expect(state.secret).toBe("s3cret-value");
    expect(state.size).toBe(1);
  });

  it("a create that fails after the object exists returns it with the error (Terraform taints it)", async () => {
    const c = config({ name: "fail-after-create" });
    const { planned } = await plan(null, c, c);
    const { state, diagnostics } = await apply(null, planned, c);
    expect(diagnostics![0]!.summary).toMatch(/did not become ready/);
    expect(typeof state!.id).toBe("string");
    expect(state!.created_at).not.toBe(UNKNOWN);
  });

  it("a create that fails before anything exists returns null", async () => {
    const failing = defineProvider({
      ...fixture,
      resources: { fixture_thing: { ...fixture.resources.fixture_thing!, create: async () => Promise.reject(new Error("quota exceeded")) } },
    });
    server = new ProviderServer(failing as never);
    await server.configureProvider({ config: dv({}, providerBlock) });
    const c = config();
    const { planned } = await plan(null, c, c);
    const { state, diagnostics } = await apply(null, planned, c);
    expect(state).toBeNull();
    expect(diagnostics![0]).toMatchObject({ summary: "Creating fixture_thing failed", detail: "quota exceeded" });
  });

  it("delete returns a null state", async () => {
    const prior = await create(config());
    const { state, diagnostics } = await apply(prior, null, null);
    expect(diagnostics ?? []).toEqual([]);
    expect(state).toBeNull();
  });
});

describe("ReadResource", () => {
  it("keeps values the remote does not return (secrets), and returns null when the object is gone", async () => {
    const prior = await create(config({ secret: "s3cret-value" }));
    const response = (await server.readResource({ type_name: "fixture_thing", current_state: dv(prior) })) as { new_state: unknown };
    expect(read(response.new_state)).toEqual(prior);
    await apply(prior, null, null);
    const gone = (await server.readResource({ type_name: "fixture_thing", current_state: dv(prior) })) as { new_state: unknown };
    expect(read(gone.new_state)).toBeNull();
  });
});

describe("ImportResourceState", () => {
  it("imports by id and by name; a missing object is a clear error", async () => {
    const created = await create(config({ name: "importable" }));
    for (const id of [created.id as string, "importable"]) {
      const response = (await server.importResourceState({ type_name: "fixture_thing", id })) as { imported_resources: { state: unknown }[] };
      const state = read(response.imported_resources[0]!.state)!;
      expect(state.id).toBe(created.id);
      expect(state.password_wo).toBeNull();
    }
    const missing = (await server.importResourceState({ type_name: "fixture_thing", id: "nope" })) as Diagnostics;
    expect(missing.diagnostics![0]!.summary).toBe("Cannot import non-existent remote object");
  });
});

describe("UpgradeResourceState", () => {
  it("turns JSON state into msgpack through the schema", async () => {
    const json = JSON.stringify({ id: "abc", name: "n", region: "r", removed_attribute: true, rule: [{ key: "k", value: null }] });
    const response = (await server.upgradeResourceState({ type_name: "fixture_thing", version: 1, raw_state: { json: Buffer.from(json) } })) as {
      upgraded_state: unknown;
    };
    const state = read(response.upgraded_state)!;
    expect(state).toMatchObject({ id: "abc", name: "n", region: "r", size: null, settings: null, rule: [{ key: "k", value: null }] });
    expect("removed_attribute" in state).toBe(false);
  });

  it("refuses state from a newer schema version", async () => {
    const response = (await server.upgradeResourceState({ type_name: "fixture_thing", version: 7, raw_state: { json: Buffer.from("{}") } })) as Diagnostics;
    expect(response.diagnostics![0]!.detail).toMatch(/newer version/);
  });
});

describe("Validate*Config", () => {
  it("passes unknowns as ${unknown} and renders issue paths as attribute paths", async () => {
    const c = config({ name: "Bad Name", rule: [{ key: "ok", value: null }, { key: "", value: null }] });
    const response = (await server.validateResourceConfig({ type_name: "fixture_thing", config: dv(c) })) as Diagnostics;
    expect(response.diagnostics).toEqual([
      expect.objectContaining({ severity: 1, attribute: { steps: [{ attribute_name: "name" }] } }),
      expect.objectContaining({ severity: 1, attribute: { steps: [{ attribute_name: "rule" }, { element_key_int: 1 }, { attribute_name: "key" }] } }),
    ]);
    const unknown = (await server.validateResourceConfig({ type_name: "fixture_thing", config: dv(config({ name: UNKNOWN })) })) as Diagnostics;
    expect(unknown.diagnostics).toEqual([]);
  });

  it("hands the validator a body without nulls and with ${unknown} markers", async () => {
    const seen: Body[] = [];
    server = new ProviderServer(defineProvider({ ...fixture, validate: (_key, body) => (seen.push(body), []) }) as never);
    await server.validateResourceConfig({ type_name: "fixture_thing", config: dv(config({ zone: UNKNOWN, labels: ["a", UNKNOWN] })) });
    expect(seen[0]).toEqual({ name: "one", region: "eu", zone: "${unknown}", labels: ["a", "${unknown}"], rule: [] });
  });

  it("reports an unknown resource type", async () => {
    const response = (await server.validateResourceConfig({ type_name: "fixture_nope", config: dv({}) })) as Diagnostics;
    expect(response.diagnostics![0]!.summary).toMatch(/Unsupported resource type/);
  });
});

describe("sensitive values", () => {
  it("never appear in diagnostics, even when a handler puts them in an error", async () => {
    const leaky = defineProvider({
      ...fixture,
      resources: {
        fixture_thing: {
          ...fixture.resources.fixture_thing!,
          create: async ({ desired }) => {
            throw new HandlerError(`rejected ${String(desired.secret)}`, { detail: `password ${String(desired.password_wo)} and token tok-secret-123` });
          },
        },
      },
    });
    server = new ProviderServer(leaky as never);
    await server.configureProvider({ config: dv({ token: "tok-secret-123" }, providerBlock) });
    const c = config({ secret: "s3cret-value", password_wo: "pw-123456" });
    const { planned } = await plan(null, c, c);
    const { diagnostics } = await apply(null, planned, c);
    const text = JSON.stringify(diagnostics);
    expect(text).not.toMatch(/s3cret-value|pw-123456|tok-secret-123/);
    expect(text).toMatch(/\(sensitive value\)/);
  });
});

describe("handler warnings", () => {
  it("become warning diagnostics with attribute paths, next to the result", async () => {
    const warning = defineProvider({
      ...fixture,
      resources: {
        fixture_thing: {
          ...fixture.resources.fixture_thing!,
          create: async (request) => {
            request.warnings.push({ severity: "warning", path: ["tags", "team"], message: "team tags are deprecated" });
            return fixture.resources.fixture_thing!.create(request);
          },
        },
      },
    });
    server = new ProviderServer(warning as never);
    await server.configureProvider({ config: dv({ store: join(work, "warnings.json") }, providerBlock) });
    const c = config({ tags: { team: "x" } });
    const { planned } = await plan(null, c, c);
    const { state, diagnostics } = await apply(null, planned, c);
    expect(typeof state!.id).toBe("string");
    expect(diagnostics).toEqual([
      { severity: 2, summary: "team tags are deprecated", attribute: { steps: [{ attribute_name: "tags" }, { element_key_string: "team" }] } },
    ]);
  });
});

describe("ReadDataSource", () => {
  it("returns computed results and keeps configured values", async () => {
    await create(config({ name: "alpha" }));
    await create(config({ name: "beta" }));
    const response = (await server.readDataSource({ type_name: "fixture_things", config: dv({ name_prefix: "al" }, dataBlock) })) as { state: unknown };
    expect(read(response.state, dataBlock)).toEqual({ name_prefix: "al", names: ["alpha"], total: 1 });
  });
});
