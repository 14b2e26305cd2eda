// `schemaform up` on an app whose directory cannot reach cdktf (a fresh `npm install schemaform`
// without the peer dependencies): one line saying what to install, not Node's module error.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { CLI, runProcess } from "./support/harness.js";

const app = mkdtempSync(join(tmpdir(), "schemaform-up-peers-"));
afterAll(() => rmSync(app, { recursive: true, force: true }));

test("an app without cdktf or constructs installed is told to install them", async () => {
  writeFileSync(join(app, "main.js"), 'import { App } from "cdktf";\nnew App().synth();\n');
  writeFileSync(join(app, "package.json"), '{ "type": "module" }\n');
  const result = await runProcess(process.execPath, [CLI, "up", app], { cwd: app, env: { ...process.env } });
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain("npm install cdktf constructs");
  expect(result.stderr).not.toContain("ERR_MODULE_NOT_FOUND");
});
