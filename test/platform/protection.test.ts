// Deletion protection on the platform itself, whichever way in (embedded or HTTP): a protected
// service or a PREVENT restore channel is never deleted, and the error names the attribute to
// change first.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlatformClient } from "../../platform/types.js";
import { embeddedFactory, httpFactory, rejection, type Factory, type Harness } from "./helpers.js";

const P = "protect-project";

function protectionSuite(name: string, factory: Factory): void {
  describe(`${name}: deletion protection`, () => {
    let h: Harness;
    let c: PlatformClient;
    beforeAll(async () => {
      h = await factory();
      c = h.client;
    });
    afterAll(() => h.cleanup());

    it("refuses to delete a service with deletion_protection until it is turned off", async () => {
      const { body } = await c.services.create(P, { name: "guarded", environment_tag: "PROD", deletion_protection: true });
      expect(body.deletion_protection).toBe(true);
      const refused = await rejection(() => c.services.delete(P, body.id));
      expect(refused.code).toBe("failed_precondition");
      expect(refused.message).toMatch(/deletion_protection/);
      expect((await c.services.get(P, body.id)).deletion_protection).toBe(true);

      const { body: off } = await c.services.update(P, body.id, { deletion_protection: false });
      expect(off.deletion_protection).toBe(false);
      await c.services.delete(P, body.id);
      expect((await rejection(() => c.services.get(P, body.id))).code).toBe("not_found");
    });

    it("stores a restore channel's deletion_policy, refuses to delete a PREVENT channel and deletes it once the policy changes", async () => {
      const { body } = await c.restoreChannels.create({ destination_project: "projects/dest-project", location: "us-central1", name: "kept", deletion_policy: "PREVENT" }, { defaultProject: "my-project" });
      expect(body.deletion_policy).toBe("PREVENT");
      const refused = await rejection(() => c.restoreChannels.delete(body.id, undefined));
      expect(refused.code).toBe("failed_precondition");
      expect(refused.message).toMatch(/deletion_policy/);

      const { body: changed } = await c.restoreChannels.update(body.id, { deletion_policy: "ABANDON" }, undefined);
      expect(changed.deletion_policy).toBe("ABANDON");
      expect(changed.etag).not.toBe(body.etag);
      // ABANDON is what Terraform does (forget it); a delete through the API still deletes.
      await c.restoreChannels.delete(body.id, undefined);
      expect((await rejection(() => c.restoreChannels.get(body.id))).code).toBe("not_found");

      const invalid = await rejection(() => c.restoreChannels.create({ destination_project: "projects/dest-project", location: "us-central1", deletion_policy: "KEEP" as never }, { defaultProject: "my-project" }));
      expect(invalid.code).toBe("invalid");
      const { body: plain } = await c.restoreChannels.create({ destination_project: "projects/dest-project", location: "us-central1" }, { defaultProject: "my-project" });
      expect(plain.deletion_policy).toBe("DELETE");
      // A name already taken (e.g. by another stack's channel) says how to adopt it instead.
      const taken = await rejection(() => c.restoreChannels.create({ destination_project: "projects/dest-project", location: "us-central1", name: plain.name }, { defaultProject: "my-project" }));
      expect(taken.code).toBe("conflict");
      expect(taken.message).toContain(`already exists: to manage it, import it (terraform import <address> ${plain.id}, or schemaform import), or choose another name`);
    });
  });
}

protectionSuite("embedded", embeddedFactory);
protectionSuite("http", httpFactory);
