// `schemaform validate`: exit codes, output formats, paths, standard input.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { run } from "../../cli/commands/validate.js";

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const repo = fileURLToPath(new URL("../../", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "schemaform-validate-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let out = "";
let err = "";
beforeEach(() => {
  out = "";
  err = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    err += String(chunk);
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

function file(name: string, text: string): string {
  const path = join(scratch, name);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

describe("schemaform validate", () => {
  it("exits 0 and says so when there is nothing wrong", async () => {
    // alone in a directory: the other valid fixtures are separate modules (a file named alone is read with its siblings)
    const alone = file("our-resources-alone/our-resources.tf.json", readFileSync(`${fixtures}valid/our-resources.tf.json`, "utf8"));
    expect(await run([alone])).toBe(0);
    expect(out).toContain("No problems found.");
  });

  it("exits 1 on errors, with file:line:column and a summary", async () => {
    expect(await run([`${fixtures}invalid/count-for-each.tf.json`])).toBe(1);
    expect(out).toMatch(/count-for-each\.tf\.json:4:30: error: Invalid count argument/);
    expect(out).toMatch(/\d+ errors, 0 warnings in 1 file\.\n$/);
  });

  it("reads a directory as one module", async () => {
    expect(await run([`${fixtures}module`])).toBe(1);
    expect(out).toContain("Exporter region mismatch");
    expect(out).toContain("1 error, 1 warning in 1 file.");
  });

  it("a file named both directly and through its directory is read once", async () => {
    expect(await run([`${fixtures}module`, `${fixtures}module/../module/service.tf.json`])).toBe(1);
    expect(out).not.toContain("Duplicate");
    expect(out).toContain("1 error, 1 warning in 1 file.");
  });

  it("--format json prints an array with the documented fields", async () => {
    expect(await run(["--format", "json", `${fixtures}invalid/duplicates.tf.json`])).toBe(1);
    const list = JSON.parse(out) as Record<string, unknown>[];
    expect(list.length).toBeGreaterThan(3);
    for (const d of list) expect(Object.keys(d)).toEqual(expect.arrayContaining(["severity", "message", "file", "line", "column", "address", "path"]));
    expect(list[0]).toMatchObject({ severity: "error", line: 4, column: 65, address: "tsdb_vpcs.a", path: "cidr" });
  });

  it("--format=sarif prints SARIF 2.1.0", async () => {
    expect(await run([`--format=sarif`, `${fixtures}invalid/top-level.tf.json`])).toBe(1);
    const sarif = JSON.parse(out);
    expect(sarif.version).toBe("2.1.0");
    expect(sarif.runs[0].results.length).toBe(6);
    // An absolute path is reported as a file:// URI, as SARIF viewers expect.
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(`file://${fixtures}invalid/top-level.tf.json`);
  });

  it("checks a native .tf file, and writes valid JSON for it", async () => {
    const path = file("native/main.tf", 'resource "tsdb_vpcs" "a" {}\n');
    expect(await run(["--format", "json", path])).toBe(1);
    const diagnostics = JSON.parse(out);
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(diagnostics[0].file).toBe(path);
    expect(err).not.toContain("Invalid JSON keyword");
  });

  it("warnings do not fail unless --max-warnings is exceeded", async () => {
    const path = file("warn/main.tf.json", '{"terraform": {"required_providers": {"tsdb": {"source": "schemaform/tsdb"}}}, "resource": {"tsdb_service": {"db": {"storage_gb": 10}}}}');
    expect(await run([path])).toBe(0);
    expect(out).toContain("0 errors, 1 warning in 1 file.");
    expect(await run(["--max-warnings", "1", path])).toBe(0);
    expect(await run(["--max-warnings", "0", path])).toBe(1);
    expect(err).toContain("more than --max-warnings 0");
  });

  it("exits 2 on usage and I/O problems", async () => {
    expect(await run([join(scratch, "does-not-exist.tf.json")])).toBe(2);
    expect(err).toContain("no such file or directory");
    expect(await run(["--format", "xml", "."])).toBe(2);
    expect(await run(["--bogus"])).toBe(2);
    expect(await run(["--max-warnings", "many", "."])).toBe(2);
    mkdirSync(join(scratch, "empty"), { recursive: true });
    expect(await run([join(scratch, "empty")])).toBe(2);
    expect(err).toContain("no *.tf or *.tf.json files");
  });

  it("--help prints usage and exits 0", async () => {
    expect(await run(["--help"])).toBe(0);
    expect(out).toContain("usage: schemaform validate");
  });

  it("reads standard input for -", () => {
    const result = spawnSync(process.execPath, ["--import", "tsx", "cli/main.ts", "validate", "--stdin-filename", "piped.tf.json", "-"], {
      cwd: repo,
      input: '{\n  "resource": {"tsdb_vpcs": {"a": {"cidr": "10.0.0.0/16"}}}\n}\n',
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('piped.tf.json:2:57: error: Missing required argument: The argument "region_code" is required');
  });

  it("reads bytes that are not UTF-8 as Terraform 1.11 does: as U+FFFD, with a warning and no error", async () => {
    const path = join(scratch, "latin1.tf.json");
    writeFileSync(path, Buffer.concat([Buffer.from('{\n  "locals": {"greeting": "caf'), Buffer.from([0xe9]), Buffer.from('"}\n}\n')]));
    expect(await run(["--format", "json", path])).toBe(0);
    expect(JSON.parse(out)).toEqual([expect.objectContaining({ severity: "warning", code: "invalid-utf8", line: 2, column: 30 })]);
  });

  it("says a name holding such a byte is invalid, as Terraform does", async () => {
    const path = join(scratch, "latin1-name.tf.json");
    writeFileSync(path, Buffer.concat([Buffer.from('{"locals": {"caf'), Buffer.from([0xe9]), Buffer.from('": "x"}}')]));
    expect(await run([path])).toBe(1);
    expect(out).toContain('error: Invalid local value name: "caf\ufffd" is not a valid name');
  });

  it("follows local module calls: the called module's problems are shown at its own files, with their code", async () => {
    file("calls/main.tf.json", JSON.stringify({ module: { net: { source: "./modules/net", cidr: "10.0.0.0/16" } } }));
    file("calls/modules/net/main.tf.json", '{\n  "variable": { "cidr": {} },\n  "locals": { "mask": "${var.mask}" }\n}\n');
    expect(await run([join(scratch, "calls")])).toBe(1);
    expect(out).toContain(`${join(scratch, "calls", "modules", "net", "main.tf.json")}:3:`);
    expect(out).toContain('"locals": { "mask": "${var.mask}" }');
    out = "";
    expect(await run(["--help"])).toBe(0);
    expect(out).toContain("local source");
  });

  it("reads the other files of a file named alone for their declarations only", async () => {
    file("alone/versions.tf.json", JSON.stringify({ terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" } } } }));
    file("alone/network.tf.json", JSON.stringify({ resource: { tsdb_vpcs: { net: { cidr: "10.0.0.0/16", region_code: "us-east-1", bogus: 1 } } } }));
    const named = file("alone/service.tf.json", JSON.stringify({ resource: { tsdb_service: { db: { region_code: "us-east-1", vpc_id: "${tsdb_vpcs.net.vpcs_id}" } } } }));
    expect(await run([named])).toBe(0);
    expect(await run([join(scratch, "alone")])).toBe(1);
    expect(out).toContain('No argument or block type is named "bogus"');
    out = "";
    expect(await run(["--help"])).toBe(0);
    expect(out).toContain("read for their declarations only");
  });
});
