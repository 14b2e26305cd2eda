import { beforeAll, describe, expect, it } from "vitest";
import { loadType, prepareBody, validateBody } from "../../language/schema/body.js";

describe("the shared body validator", () => {
  beforeAll(() => loadType("resource.containerbackup_restore_channel"));

  it("keeps map keys that look like prototype names as data", () => {
    const labels = JSON.parse('{"__proto__": "kept", "constructor": "kept too"}');
    const prepared = prepareBody({ labels }) as { labels: Record<string, unknown> };
    expect(Object.keys(prepared.labels)).toEqual(["__proto__", "constructor"]);
    expect(Object.getPrototypeOf(prepared.labels)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).kept).toBeUndefined();
  });

  it("treats null as absent and names the missing argument", () => {
    const issues = validateBody("resource.containerbackup_restore_channel", { location: "us-central1", destination_project: null });
    expect(issues).toEqual([{ severity: "error", path: ["destination_project"], message: "destination_project is required", missing: true }]);
  });
});
