// What users see: sensitive values never appear in any output format; code frames point at the
// problem; JSON and SARIF carry the documented fields; modules read across files.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { decodeUtf8, formatHuman, formatJson, formatSarif, validateFiles, validateModule } from "../../language/index.js";

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const SECRETS = ["s3cr3t-token-value", "k3y-s3cr3t", "pw-s3cr3t", "hunter22", "other-secret"];

describe("sensitive values", () => {
  it("are masked in code frames and absent from every format", async () => {
    const name = "invalid/our-attributes.tf.json";
    const result = await validateModule([{ name, text: readFileSync(`${fixtures}${name}`, "utf8") }]);
    const human = formatHuman(result.diagnostics, result.sources);
    const outputs = [human, formatJson(result.diagnostics), formatSarif(result.diagnostics)];
    for (const out of outputs) for (const secret of SECRETS) expect(out).not.toContain(secret);
    // the lines holding secrets are shown, with the value replaced
    expect(human).toContain('"password": "(sensitive)"');
    expect(human).toContain('"access_token": "(sensitive)"');
  });

  it("masks a sensitive value even when the problem is that value", async () => {
    const text = '{"resource": {"tsdb_service": {"db": {"password": "short"}}}}';
    const result = await validateModule([{ name: "m.tf.json", text }]);
    expect(result.diagnostics.map((d) => d.message).join("\n")).toMatch(/password/);
    const human = formatHuman(result.diagnostics, result.sources);
    expect(human).not.toContain("short");
    expect(human).toContain("(sensitive)");
  });
});

describe("human output", () => {
  it("shows file:line:column, severity, message, address and a caret under the problem", async () => {
    const text = '{\n  "resource": {\n    "tsdb_service": {\n      "db": { "ha_replicas": 5 }\n    }\n  }\n}\n';
    const result = await validateModule([{ name: "main.tf.json", text }]);
    const out = formatHuman(result.diagnostics, result.sources);
    expect(out).toContain("main.tf.json:4:15: error: ha_replicas must be at most 2");
    expect(out).toContain("in tsdb_service.db.ha_replicas");
    const lines = out.split("\n");
    const source = lines.findIndex((l) => l.includes('"ha_replicas": 5'));
    const caret = lines[source + 1]!;
    expect(caret.indexOf("^")).toBe(lines[source]!.indexOf('"ha_replicas"'));
    expect(out.trimEnd().endsWith("1 error, 0 warnings in 1 file.")).toBe(true);
  });

  it("shows a window of a minified one-line file, not the whole file", async () => {
    const parts = Array.from({ length: 200 }, (_, i) => `"v${i}": {"cidr": "10.0.0.0/16", "region_code": "us-east-1"}`);
    parts[150] = '"bad": {"cidr": "nope", "region_code": "us-east-1"}';
    const text = `{"resource": {"tsdb_vpcs": {${parts.join(",")}}}}`;
    const result = await validateModule([{ name: "min.tf.json", text }]);
    const out = formatHuman(result.diagnostics, result.sources);
    const frame = out.split("\n").find((l) => l.includes(" | ") && l.includes("nope"))!;
    expect(frame.length).toBeLessThan(200);
    const caret = out.split("\n")[out.split("\n").indexOf(frame) + 1]!;
    expect(frame.slice(caret.indexOf("^")).startsWith('"cidr": "nope"')).toBe(true);
  });
});

describe("machine formats", () => {
  it("json has the documented fields, 1-based", async () => {
    const result = await validateModule([{ name: "a.tf.json", text: '{"resource": {"tsdb_vpcs": {"v": {"cidr": "10.0.0.0/16"}}}}' }]);
    const parsed = JSON.parse(formatJson(result.diagnostics));
    expect(parsed).toEqual([
      expect.objectContaining({ severity: "error", file: "a.tf.json", line: 1, column: 56, address: "tsdb_vpcs.v", path: "region_code", message: expect.stringContaining('The argument "region_code" is required') }),
    ]);
  });

  it("sarif is SARIF 2.1.0 with rules, levels and regions", async () => {
    const result = await validateModule([{ name: "dir/a b.tf.json", text: '{"resource": {"tsdb_service": {"db": {"storage_gb": 1, "ha_replicas": 9}}}}' }]);
    const sarif = JSON.parse(formatSarif(result.diagnostics, "1.2.3"));
    expect(sarif.version).toBe("2.1.0");
    const run = sarif.runs[0];
    expect(run.tool.driver.name).toBe("schemaform");
    expect(run.results.map((r: { level: string }) => r.level).sort()).toEqual(["error", "warning"]);
    const ids = run.tool.driver.rules.map((r: { id: string }) => r.id);
    for (const r of run.results) {
      expect(ids[r.ruleIndex]).toBe(r.ruleId);
      expect(r.locations[0].physicalLocation.artifactLocation.uri).toBe("dir/a%20b.tf.json");
      expect(r.locations[0].physicalLocation.region.startLine).toBe(1);
    }
  });
});

describe("where a verdict comes from", () => {
  // a schema rule (our provider's ValidateResourceConfig runs it in terraform validate too) and an
  // id argument given another resource's id (only the platform refuses it, at apply)
  const text = `{"resource": {
  "tsdb_vpcs": {"net": {"cidr": "10.0.0.0/16", "region_code": "us-east-1"}},
  "tsdb_service": {"db": {"milli_cpu": 1000, "memory_gb": 4, "region_code": "us-east-1", "ha_replicas": 1, "sync_replicas": 1}},
  "tsdb_service": {"other": {"milli_cpu": 1000, "memory_gb": 4, "region_code": "us-east-1", "vpc_id": "\${tsdb_service.db.id}"}}
}}`;
  const run = () => validateModule([{ name: "m.tf.json", text }]);

  it("json labels each diagnostic terraform or schemaform", async () => {
    const parsed = JSON.parse(formatJson((await run()).diagnostics)) as { code: string; source: string }[];
    expect(parsed.map((d) => [d.code, d.source])).toEqual([
      ["schema", "terraform"],
      ["reference-target", "schemaform"],
    ]);
  });

  it("sarif carries the source in each result's properties and as its rule's tag", async () => {
    const sarif = JSON.parse(formatSarif((await run()).diagnostics));
    const results = sarif.runs[0].results as { ruleId: string; ruleIndex: number; properties: { source: string } }[];
    const rules = sarif.runs[0].tool.driver.rules as { id: string; properties: { tags: string[] } }[];
    expect(results.map((r) => [r.ruleId, r.properties.source])).toEqual([
      ["schema", "terraform"],
      ["reference-target", "schemaform"],
    ]);
    for (const r of results) expect(rules[r.ruleIndex]!.properties.tags).toEqual([r.properties.source]);
  });

  it("human output says when a check is schemaform's own, and only then", async () => {
    const result = await run();
    const lines = formatHuman(result.diagnostics, result.sources).split("\n").filter((l) => l.startsWith("m.tf.json:"));
    expect(lines).toHaveLength(2);
    expect(lines[0]).not.toContain("(schemaform:");
    expect(lines[1]).toContain("(schemaform: Terraform reports this at apply) [reference-target]");
  });

  it("an invalid UTF-8 byte, which Terraform reads without a word, is schemaform's", async () => {
    const decoded = decodeUtf8(Buffer.from('{"locals": {"a": "x\xff"}}', "latin1"));
    const result = await validateModule([{ name: "u.tf.json", text: decoded.text, replaced: decoded.replaced }]);
    expect(result.diagnostics.map((d) => [d.code, d.source])).toEqual([["invalid-utf8", "schemaform"]]);
  });
});

describe("modules", () => {
  it("a directory is one module: references across its files resolve, checks see both sides", async () => {
    const result = await validateFiles([`${fixtures}module`]);
    const messages = result.diagnostics.map((d) => `${d.file.replace(/^.*fixtures\//, "")}:${d.line} ${d.severity} ${d.message}`);
    expect(messages).toEqual([
      expect.stringMatching(/^module\/service\.tf\.json:7 error Exporter region mismatch: tsdb_log_exporter\.logs is in region "us-east-1", but tsdb_service\.db is in "eu-west-1"/),
      expect.stringMatching(/^module\/service\.tf\.json:8 warning storage_gb is deprecated/),
    ]);
  });

  it("a file named alone still sees its siblings' declarations, and reports only its own problems", async () => {
    const result = await validateFiles([`${fixtures}module/network.tf.json`]);
    expect(result.diagnostics).toEqual([]);
    const service = await validateFiles([`${fixtures}module/service.tf.json`]);
    expect(service.diagnostics.map((d) => d.code)).toEqual(["region-mismatch", "deprecated"]);
  });
});
