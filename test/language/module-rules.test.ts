// Modules read as Terraform reads them: each directory under fixtures/modules/ is a root module
// (with the local modules it calls), validated as `schemaform validate DIR` does; it reports
// exactly the diagnostics of its expected.json (file relative to the directory, severity, line,
// column when given, message fragment). Each was checked against terraform validate 1.11.4
// (native-child and native-child-output call a module of native .tf files).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { validateFiles } from "../../language/index.js";

const root = fileURLToPath(new URL("./fixtures/modules/", import.meta.url));

interface Expected {
  file: string;
  severity: "error" | "warning";
  line: number;
  column?: number;
  message: string;
}

describe("modules with local calls and several files", () => {
  for (const name of readdirSync(root).sort()) {
    it(`${name} reports what terraform validate reports`, async () => {
      const dir = join(root, name);
      const expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")) as Expected[];
      const { diagnostics } = await validateFiles([dir]);
      const got = diagnostics.map((d) => ({ ...d, file: relative(dir, d.file) }));
      const unmatched = [...got];
      for (const e of expected) {
        const i = unmatched.findIndex((d) => d.file === e.file && d.severity === e.severity && d.line === e.line && (e.column === undefined || d.column === e.column) && d.message.includes(e.message));
        expect(i, `expected ${e.severity} at ${e.file}:${e.line}:${e.column ?? "*"} containing ${JSON.stringify(e.message)}; got:\n${got.map((d) => `${d.file}:${d.line}:${d.column} ${d.message}`).join("\n")}`).toBeGreaterThanOrEqual(0);
        unmatched.splice(i, 1);
      }
      expect(unmatched.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.message}`)).toEqual([]);
    });
  }
});

describe("a file named alone", () => {
  const scratch = mkdtempSync(join(tmpdir(), "schemaform-module-rules-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("is invalid when a sibling declares one of its blocks again: the error is at the named file", async () => {
    mkdirSync(join(scratch, "two"));
    writeFileSync(join(scratch, "two", "a.tf.json"), '{\n  "variable": { "region": {} }\n}\n');
    writeFileSync(join(scratch, "two", "b.tf.json"), '{\n  "variable": {\n    "region": {}\n  }\n}\n');
    const { diagnostics } = await validateFiles([join(scratch, "two", "a.tf.json")]);
    expect(diagnostics.map((d) => `${relative(scratch, d.file)}:${d.line} ${d.message}`)).toEqual([
      expect.stringMatching(/^two\/a\.tf\.json:2 Duplicate variable declaration: A variable named "region" was also declared at .*b\.tf\.json:3,/),
    ]);
  });

  it("without local module reading (one document in memory), a module call is not judged", async () => {
    const { validateHclJson } = await import("../../language/index.js");
    const diagnostics = await validateHclJson(readFileSync(join(root, "call-arguments", "main.tf.json"), "utf8"));
    expect(diagnostics).toEqual([]);
  });
});
