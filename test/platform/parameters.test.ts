// Database parameters on the platform itself, whichever way in (embedded or HTTP): the allowed
// PostgreSQL settings are kept in the service's spec.parameters (what the data plane applies);
// unknown names and bad values are refused with the validator's words.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlatformClient } from "../../platform/types.js";
import { embeddedFactory, httpFactory, rejection, type Factory, type Harness } from "./helpers.js";

const P = "params-project";

function parametersSuite(name: string, factory: Factory): void {
  describe(`${name}: database parameters`, () => {
    let h: Harness;
    let c: PlatformClient;
    beforeAll(async () => {
      h = await factory();
      c = h.client;
    });
    afterAll(() => h.cleanup());

    it("stores allowed settings in the service's spec.parameters and changes or clears them on update", async () => {
      const { body } = await c.services.create(P, { name: "tuned", parameters: { max_connections: "200", work_mem: "64MB" } });
      expect(body.parameters).toEqual({ max_connections: "200", work_mem: "64MB" });
      const { body: changed } = await c.services.update(P, body.id, { parameters: { statement_timeout: "30s" } });
      expect(changed.parameters).toEqual({ statement_timeout: "30s" });
      const { body: cleared } = await c.services.update(P, body.id, { parameters: null });
      expect(cleared.parameters).toBeUndefined();
    });

    it("refuses an unknown setting with a suggestion, and a value out of range", async () => {
      const unknown = await rejection(() => c.services.create(P, { parameters: { max_conections: "200" } }));
      expect(unknown.code).toBe("invalid");
      expect(unknown.message).toMatch(/"max_conections" is not expected here \(in parameters\); did you mean "max_connections"\?/);
      const range = await rejection(() => c.services.create(P, { parameters: { work_mem: "1kB" } }));
      expect(range.code).toBe("invalid");
      expect(range.message).toMatch(/parameters\.work_mem must be from 64 kB to 2097151 kB/);
    });
  });
}

parametersSuite("embedded", embeddedFactory);
parametersSuite("http", httpFactory);
