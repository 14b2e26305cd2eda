// Labels within GCP's rules and text without control characters, on the platform too (a request
// that bypasses the provider): at most 64 labels, keys 1-63 characters starting with a lowercase
// letter, values 0-63, lowercase letters (international ones too), digits, `_` and `-`; no control
// character (tab and line feed aside) or bidirectional override in a description. 100,000 labels
// were accepted before (an 8.7 MB state).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejection, startServerHarness, type ServerHarness } from "./helpers.js";

const channel = (name: string, extra: Record<string, unknown>) => ({ name, project: "labels-proj", location: "us-central1", destination_project: "projects/labels-dest", ...extra });

describe("platform: label and description limits", () => {
  let h: ServerHarness;
  beforeAll(async () => {
    h = await startServerHarness();
  });
  afterAll(async () => {
    await h.cleanup();
  });

  it("refuses label maps and descriptions outside the rules, on create and on update, with 400 and what is wrong", async () => {
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ labels: { "": "x" } }, "empty"],
      [{ labels: { Team: "x" } }, 'labels key "Team" must start with a lowercase letter'],
      [{ labels: { ["k".repeat(64)]: "x" } }, "must be at most 63 characters long"],
      [{ labels: { team: "v".repeat(64) } }, "labels.team must be at most 63 characters long"],
      [{ labels: { team: "Gold Tier" } }, "labels.team must hold only lowercase letters"],
      [{ labels: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, "v"])) }, "labels must have at most 64 entries, got 10000"],
      [{ description: "nul\u0000here" }, "description must not contain control characters"],
      [{ description: "esc\u001b[31m" }, "description must not contain control characters"],
      [{ description: "rtl\u202eoverride" }, "bidirectional override characters"],
      [{ description: "c1\u0085next" }, "description must not contain control characters"],
    ];
    for (const [i, [extra, message]] of refusals.entries()) {
      const refused = await rejection(() => h.client.restoreChannels.create(channel(`refused-${i}`, extra) as never));
      expect(refused, JSON.stringify(extra).slice(0, 80)).toMatchObject({ code: "invalid" });
      expect(refused.message + JSON.stringify((refused as { issues?: unknown }).issues ?? [])).toContain(message);
    }
    // within the rules: 64 labels, international lowercase, an empty value, tabs and line feeds
    const labels = Object.fromEntries(Array.from({ length: 63 }, (_, i) => [`k${i}`, "v"]));
    labels["équipe_données"] = "";
    const created = await h.client.restoreChannels.create(channel("accepted", { labels, description: "first line\n\tindented" }) as never);
    expect(Object.keys(created.body.labels ?? {})).toHaveLength(64);
    // an update may not go past them either
    const update = await rejection(() => h.client.restoreChannels.update(created.body.id, { labels: { "": "x" } }, created.body.etag));
    expect(update).toMatchObject({ code: "invalid" });
    const more = await rejection(() => h.client.restoreChannels.update(created.body.id, { description: "bell\u0007" }, created.body.etag));
    expect(more).toMatchObject({ code: "invalid" });
  });
});
