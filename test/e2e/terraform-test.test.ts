// The shipped `terraform test` example (examples/terraform-test/) passes under real
// `terraform test`: one file applies against the embedded platform and destroys again, one runs
// against mock_provider "tsdb". Under the mock, the provider's validation still runs.
import { cpSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ROOT, Suite, type Workspace } from "./support/harness.js";

let suite: Suite;
let ws: Workspace;

beforeAll(async () => {
  suite = await Suite.create("tftest");
  ws = suite.workspace("terraform-test");
  cpSync(join(ROOT, "examples", "terraform-test"), ws.dir, { recursive: true });
  await ws.ok(["init", "-input=false"]);
});

afterAll(async () => {
  if (suite) await suite.dispose();
});

describe("examples/terraform-test", () => {
  test("terraform test passes both files, and the embedded run leaves nothing behind", async () => {
    const result = await ws.ok(["test", "-no-color"]);
    expect(result.output).toMatch(/tests\/embedded\.tftest\.hcl\.\.\. pass/);
    expect(result.output).toMatch(/tests\/mocked\.tftest\.hcl\.\.\. pass/);
    expect(result.output).toMatch(/Success! 3 passed, 0 failed\./);
    expect(await suite.platform().services.list("tftest-example")).toEqual([]);
  });

  test("under mock_provider the provider's validation still runs", async () => {
    const result = await ws.tf(["test", "-no-color", "-filter=tests/mocked.tftest.hcl", "-var=max_connections=5"]);
    expect(result.code).toBe(1);
    expect(result.output.replace(/\s+/g, " ")).toMatch(/parameters\.max_connections must be from 25 to 5000, got "5"/);
  });
});
