// A pullmon exporter stored before exporters had endpoints (no port in its spec) gets a port on
// its next update, which the provider plans for it (`endpoint` unknown while it has none).
import { afterAll, beforeAll, expect, test } from "vitest";
import type { EmbeddedPlatform } from "../../platform/embedded.js";
import { embeddedFactory, type Harness } from "./helpers.js";

let h: Harness;
const P = "endpoint-project";

beforeAll(async () => {
  h = await embeddedFactory();
});
afterAll(() => h.cleanup());

test("a pullmon exporter stored without a port gets one on its next update, and keeps it", async () => {
  const c = h.client;
  const created = (await c.metricExporters.create(P, { region: "us-east-1", pullmon: { username: "u", password: "p-1" } })).body;
  const core = await (c as EmbeddedPlatform).core();
  // what an earlier version stored: no ports
  await core.ctx.write(async (tx) => {
    const row = await tx.get<{ spec: string }>("SELECT spec FROM exporters WHERE id = ?", created.id);
    const { ports: _dropped, ...older } = JSON.parse(row!.spec) as Record<string, unknown>;
    await tx.run("UPDATE exporters SET spec = ? WHERE id = ?", JSON.stringify(older), created.id);
  });
  expect((await c.metricExporters.get(P, created.id)).endpoint).toBeUndefined();

  // the update the provider sends (every block), with nothing else changed
  const updated = (await c.metricExporters.update(P, created.id, { name: created.name, pullmon: { username: "u" }, saasmon: null, cloudmon: null })).body;
  expect(updated.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
  expect((await c.metricExporters.update(P, created.id, { name: "renamed" })).body.endpoint).toBe(updated.endpoint);
  expect((await c.metricExporters.get(P, created.id)).endpoint).toBe(updated.endpoint);
});
