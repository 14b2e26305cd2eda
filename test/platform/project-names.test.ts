// One namespace per project, whether it is named by its id or its number: an object created under
// one name is listed, read, changed and deleted under the other, embedded and over HTTP (where a
// credential of the project authorizes either name); and a store written when the two names were
// two namespaces is merged into one when it is opened.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmbeddedPlatform } from "../../platform/embedded.js";
import { createHttpClient } from "../../platform/http-client.js";
import type { PlatformClient } from "../../platform/types.js";
import { embeddedFactory, httpFactory, rejection, startServerHarness, tempDir, type Factory, type Harness } from "./helpers.js";
import { rmSync } from "node:fs";

const ROLE = "arn:aws:iam::123456789012:role/writer";

function namesSuite(name: string, factory: Factory): void {
  describe(`${name}: a project's id and number name one namespace`, () => {
    let h: Harness;
    let c: PlatformClient;
    let id: string;
    let number: string;
    beforeAll(async () => {
      h = await factory();
      c = h.client;
      id = "names-project";
      number = (await c.restoreChannels.resolveProject(id)).project_number;
    });
    afterAll(() => h.cleanup());

    it("a service created under the id is listed, updated and deleted under the number", async () => {
      const { body } = await c.services.create(id, { name: "by-id" });
      expect((await c.services.list(number)).map((s) => s.id)).toEqual([body.id]);
      expect((await c.services.get(number, body.id)).name).toBe("by-id");
      await c.services.update(number, body.id, { name: "renamed-by-number" });
      expect((await c.services.get(id, body.id)).name).toBe("renamed-by-number");
      await c.services.delete(number, body.id);
      expect((await rejection(() => c.services.get(id, body.id))).code).toBe("not_found");
    });

    it("a VPC and an exporter created under the number are found, changed and deleted under the id", async () => {
      const { body: vpc } = await c.vpcs.create(number, { name: "shared", cidr: "10.10.0.0/16", region_code: "us-east-1" });
      expect(vpc.project_id).toBe(id);
      expect((await c.vpcs.getByName(id, "shared")).vpcs_id).toBe(vpc.vpcs_id);
      // the name is taken in the one project, whichever name the second create uses
      expect((await rejection(() => c.vpcs.create(id, { name: "shared", cidr: "10.11.0.0/16", region_code: "us-east-1" }))).code).toBe("conflict");
      await c.vpcs.update(id, vpc.vpcs_id, { name: "shared-2" });
      expect((await c.vpcs.get(number, vpc.vpcs_id)).name).toBe("shared-2");
      await c.vpcs.delete(id, vpc.vpcs_id);
      expect(await c.vpcs.list(number)).toEqual([]);

      const { body: exporter } = await c.logExporters.create(number, { region: "us-east-1", cloudmon: { region: "us-east-1", log_group_name: "/g", log_stream_name: "s", role_arn: ROLE } });
      expect((await c.logExporters.list(id)).map((e) => e.id)).toEqual([exporter.id]);
      // a service under the id attaches the exporter made under the number
      const { body: svc } = await c.services.create(id, { name: "logged", region_code: "us-east-1", log_exporter_id: exporter.id });
      expect(svc.log_exporter_id).toBe(exporter.id);
      await c.services.delete(number, svc.id);
      await c.logExporters.delete(id, exporter.id);
      expect(await c.logExporters.list(number)).toEqual([]);
    });

    it("a number seen first registers the pair: its project id finds what was created under it", async () => {
      const fresh = "424242424242";
      const { body } = await c.services.create(fresh, { name: "numbered-first" });
      const pair = await c.restoreChannels.resolveProject(fresh);
      expect((await c.services.get(pair.project_id, body.id)).name).toBe("numbered-first");
    });
  });
}

namesSuite("embedded", embeddedFactory);
namesSuite("http", httpFactory);

describe("http: a credential of the project acts on it under either name", () => {
  it("objects created with the id are seen and deleted with the number", async () => {
    const h = await startServerHarness();
    try {
      const core = await h.platform.core();
      const number = (await h.platform.restoreChannels.resolveProject("scoped-project")).project_number;
      const { accessKey, secretKey } = (await core.credentials.createKeyPair("scoped-project", "scoped"));
      const scoped = createHttpClient({ endpoint: h.server.url, credentials: { accessKey, secretKey } });
      const { body } = await scoped.services.create("scoped-project", { name: "scoped" });
      expect((await scoped.services.list(number)).map((s) => s.id)).toEqual([body.id]);
      await scoped.services.delete(number, body.id);
      expect(await scoped.services.list("scoped-project")).toEqual([]);
      await scoped.close();
    } finally {
      await h.cleanup();
    }
  });
});

describe("a store that kept a project's objects under its number is merged on open", () => {
  it("moves them to the project id, renaming a VPC whose name the id already uses", async () => {
    const dataDir = tempDir();
    try {
      // Write the store as an older schemaform did: objects created under the number stayed there.
      const before = new EmbeddedPlatform({ dataDir, transitionSeconds: 0 });
      const number = (await before.restoreChannels.resolveProject("legacy-project")).project_number;
      const { body: byNumber } = await before.services.create("legacy-project", { name: "made-with-number" });
      const { body: vpcById } = await before.vpcs.create("legacy-project", { name: "main", cidr: "10.0.0.0/16", region_code: "us-east-1" });
      const { body: vpcByNumber } = await before.vpcs.create("legacy-project", { name: "main-2", cidr: "10.1.0.0/16", region_code: "us-east-1" });
      await (await before.core()).ctx.write(async (tx) => {
        await tx.run("UPDATE services SET project = ? WHERE id = ?", number, byNumber.id);
        await tx.run("UPDATE vpcs SET project = ?, name = 'main' WHERE id = ?", number, vpcByNumber.vpcs_id);
        await tx.run("DELETE FROM meta WHERE key = 'projects_merged'");
      });
      await before.close();

      const after = new EmbeddedPlatform({ dataDir, transitionSeconds: 0 });
      try {
        expect((await after.services.get("legacy-project", byNumber.id)).name).toBe("made-with-number");
        expect((await after.services.list(number)).map((s) => s.id)).toEqual([byNumber.id]);
        const vpcs = await after.vpcs.list("legacy-project");
        expect(vpcs.map((v) => [v.vpcs_id, v.name])).toEqual([
          [vpcById.vpcs_id, "main"],
          [vpcByNumber.vpcs_id, `main-${vpcByNumber.vpcs_id}`],
        ]);
        const events = await after.events.list("legacy-project", { kind: "renamed" });
        expect(events.map((e) => e.message)).toEqual([expect.stringContaining(`VPC renamed from main to main-${vpcByNumber.vpcs_id}`)]);
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
