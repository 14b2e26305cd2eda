// Several provider processes on one database file: no lost update, no "database is locked".
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { EmbeddedPlatform } from "../../platform/embedded.js";
import { tempDir } from "./helpers.js";

const WRITER = fileURLToPath(new URL("./fixtures/writer.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

function runWriter(dataDir: string, worker: string, iterations: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", WRITER, dataDir, worker, String(iterations)], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("concurrent writers from several processes", () => {
  const dataDir = tempDir();
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("opens a fresh data directory from several processes at once and loses no update", async () => {
    const workers = 4;
    const iterations = 15;
    const results = await Promise.all(Array.from({ length: workers }, (_, i) => runWriter(dataDir, `w${i}`, iterations)));
    for (const r of results) expect(r.stderr.replace(/npm warn.*\n/g, "")).toBe("");
    expect(results.map((r) => r.code)).toEqual(Array(workers).fill(0));

    const platform = new EmbeddedPlatform({ dataDir, transitionSeconds: 0 });
    try {
      const channel = await platform.restoreChannels.get("projects/my-project/locations/us-central1/restoreChannels/counter");
      expect(channel.effective_labels.count).toBe(String(workers * iterations));
      const services = await platform.services.list("proj-concurrent");
      expect(services).toHaveLength(workers * iterations);
      expect(new Set(services.map((s) => s.id)).size).toBe(workers * iterations);
      const vpcs = await platform.vpcs.list("proj-concurrent");
      expect(vpcs).toHaveLength(workers);
      expect(new Set(vpcs.map((v) => v.name)).size).toBe(workers);
      expect(new Set(vpcs.map((v) => v.vpcs_id)).size).toBe(workers);
    } finally {
      await platform.close();
    }
  }, 120_000);
});
