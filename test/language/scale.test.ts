// Validation stays linear and bounded on large inputs: every problem of a one-line file is
// reported, at the right place, with frames cut to a window. (How fast is measured by
// `npm run bench:validate`, never asserted here.)
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatHuman, validateFiles, validateModule } from "../../language/index.js";

/** One line of `count` VPCs; those at the indexes in `bad` misspell "name". */
function oneLine(count: number, bad: (i: number) => boolean, prefix = ""): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(`"v${i}":{"${bad(i) ? "nmae" : "name"}":"${prefix}net-${i}","cidr":"10.0.0.0/16","region_code":"us-east-1"}`);
  return `{"resource":{"tsdb_vpcs":{${parts.join(",")}}}}`;
}

describe("a one-line file of 10,000 resources with one error each", () => {
  it("reports all 10,000 errors, each at its own column", async () => {
    const text = oneLine(10_000, () => true);
    const { diagnostics } = await validateModule([{ name: "one-line.tf.json", text }]);
    const errors = diagnostics.filter((d) => d.severity === "error");
    expect(errors).toHaveLength(10_000);
    expect(new Set(errors.map((d) => d.column)).size).toBe(10_000);
    // every column points at the misspelt name it reports
    for (const d of errors) expect(text.startsWith('"nmae"', d.column - 1)).toBe(true);
  });
});

describe("positions on a long line", () => {
  it("count a character beyond the Basic Multilingual Plane as one column, far along the line", async () => {
    const text = oneLine(2_000, (i) => i === 1_999, "😀");
    const { diagnostics } = await validateModule([{ name: "emoji.tf.json", text }]);
    expect(diagnostics).toHaveLength(1);
    const offset = text.indexOf('"nmae"');
    expect(diagnostics[0]!.column).toBe([...text.slice(0, offset)].length + 1);
  });
});

describe("code frames of a one-line file", () => {
  it("show a window around each problem, with the caret under it", async () => {
    const text = oneLine(3_000, (i) => i % 3 === 0);
    const result = await validateModule([{ name: "min.tf.json", text }]);
    const lines = formatHuman(result.diagnostics, result.sources).split("\n");
    const frames = lines.flatMap((line, i) => (line.startsWith(" > 1 | ") ? [[line, lines[i + 1]!] as const] : []));
    expect(frames).toHaveLength(1_000);
    for (const [line, caret] of frames) {
      expect(line.length).toBeLessThan(140);
      expect(line.slice(caret.indexOf("^")).startsWith('"nmae"')).toBe(true);
    }
  });
});

describe("a file with 200,000 problems", () => {
  it("reports every one of them (none lost to a stack overflow)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "schemaform-scale-"));
    try {
      const parts = Array.from({ length: 100_000 }, (_, i) => `"v${i}":{"name":"n","nmae":"n","naem":"n","cidr":"10.0.0.0/16","region_code":"us-east-1"}`);
      writeFileSync(join(dir, "many.tf.json"), `{"resource":{"tsdb_vpcs":{${parts.join(",")}}}}`);
      const { diagnostics } = await validateFiles([dir]);
      expect(diagnostics.filter((d) => d.code === "unknown-argument")).toHaveLength(200_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
