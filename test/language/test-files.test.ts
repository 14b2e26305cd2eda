// Test files (`*.tftest.hcl`, in the module directory and in `tests/`) read as `terraform validate`
// 1.11 reads them: their syntax and the test-file loader's block structure, with Terraform's words
// and positions. Each expectation below was recorded by running `terraform validate` 1.11.4 on the
// same files next to a `main.tf` holding only `terraform {}`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { formatHuman, validateFiles, validateModule } from "../../language/index.js";

const scratch = mkdtempSync(join(tmpdir(), "schemaform-tftest-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let made = 0;

/** A module with `terraform {}` and the given test file at `tests/t.tftest.hcl`; its errors as "Summary @line:column". */
async function errorsOf(test: string, name = "tests/t.tftest.hcl"): Promise<string[]> {
  const dir = join(scratch, `m${made++}`);
  mkdirSync(join(dir, "tests"), { recursive: true });
  writeFileSync(join(dir, "main.tf"), "terraform {}\n");
  writeFileSync(join(dir, name), test);
  const { diagnostics } = await validateFiles([dir]);
  return diagnostics.filter((d) => d.severity === "error").map((d) => `${d.message.split(":")[0]} @${d.line}:${d.column}`);
}

describe("test files", () => {
  it("accepts every block a test file may hold", async () => {
    const test = `variables {
  size = 1
}

provider "tsdb" {
  project_id = "p1"
}

mock_provider "tsdb" {
  alias = "mocked"
  mock_resource "tsdb_service" {
    defaults = { id = "mock000001" }
  }
  mock_data "tsdb_vpcs" {
  }
  override_resource {
    target = tsdb_service.a
  }
}

override_data {
  target = data.tsdb_vpcs.all
  values = {}
}

override_module {
  target  = module.child
  outputs = {}
}

run "first" {
  command   = plan # a comment
  providers = { tsdb = tsdb.mocked }
  state_key = "s"
  plan_options {
    mode    = refresh-only
    refresh = true
    replace = []
    target  = []
  }
  variables {
    size = 2
  }
  assert {
    condition     = length(output.id) == 10
    error_message = "m"
  }
  expect_failures = [var.size]
  override_resource {
    target = tsdb_service.a
  }
}
`;
    expect(await errorsOf(test)).toEqual([]);
  });

  it("reports a syntax error where Terraform does", async () => {
    expect(await errorsOf('run "a" {\n  command = plan\n')).toEqual(["Unclosed configuration block @1:9"]);
  });

  it("reports block types and arguments that do not belong, with did-you-mean", async () => {
    const dir = join(scratch, "words");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "main.tf"), "terraform {}\n");
    writeFileSync(join(dir, "x.tftest.hcl"), 'rn "a" {\n}\nrun "b" {\n  comand = plan\n  asert {\n  }\n}\n');
    const { diagnostics, sources } = await validateFiles([dir]);
    expect(diagnostics.map((d) => [d.message, d.line, d.column])).toEqual([
      ['Unsupported block type: Blocks of type "rn" are not expected here. Did you mean "run"?', 1, 1],
      ['Unsupported argument: An argument named "comand" is not expected here. Did you mean "command"?', 4, 3],
      ['Unsupported block type: Blocks of type "asert" are not expected here. Did you mean "assert"?', 5, 3],
    ]);
    // a test file in the module directory is read too, and shown in code frames
    expect(diagnostics[0]!.file).toBe(join(dir, "x.tftest.hcl"));
    expect(formatHuman(diagnostics, sources, { color: false })).toContain('> 1 | rn "a" {');
  });

  it("checks labels, duplicates and the arguments the loader decodes", async () => {
    expect(await errorsOf('run "c" "d" {\n}\nvariables "x" {\n}\nmock_provider {\n}\n')).toEqual([
      "Extraneous label for run @1:9",
      "Extraneous label for variables @3:11",
      "Missing name for mock_provider @5:15",
    ]);
    const test =
      'run "a" {\n  command = bogus\n}\nrun "a" {\n  command = "plan"\n}\nvariables {\n}\nvariables {\n}\noverride_module {\n}\nprovider "x" {\n}\nprovider "x" {\n}\nmock_provider "x" {\n}\n';
    expect(await errorsOf(test)).toEqual([
      'Invalid "command" keyword @2:13',
      'Duplicate "run" block names @4:1',
      'Invalid "command" keyword @5:13',
      'Multiple "variables" blocks @9:1',
      "Missing target attribute @11:1",
      "Duplicate provider block @15:1",
      "Duplicate provider block @17:1",
    ]);
    expect(await errorsOf('run "a" {\n  assert {\n    condition = var.x\n  }\n  plan_options {\n    mod = 1\n  }\n  module {\n  }\n}\n')).toEqual([
      "Missing required argument @2:10",
      "Unsupported argument @6:5",
      'Missing "source" attribute for module block @8:3',
    ]);
    expect(await errorsOf('variables {\n  a = 1\n  b {\n  }\n}\n')).toEqual(['Unexpected "b" block @3:3']);
    expect(await errorsOf('run "a" {\n  variables {\n  }\n  variables {\n  }\n  command = plan\n  command = apply\n}\n')).toEqual([
      'Multiple "variables" blocks @4:3',
      "Attribute redefined @7:3",
    ]);
  });

  it("does not evaluate assertions, but one that refers to nothing is an error", async () => {
    expect(await errorsOf('run "a" {\n  assert {\n    condition     = nope.x.id == 1 + "a"\n    error_message = "m"\n  }\n}\n')).toEqual([]);
    expect(await errorsOf('run "a" {\n  assert {\n    condition     = true\n    error_message = "m"\n  }\n}\n')).toEqual(["Invalid assert expression @3:21"]);
  });

  it("reads a file by its name: standard input named *.tftest.hcl is a test file", async () => {
    const { diagnostics } = await validateModule([{ name: "s.tftest.hcl", text: 'run "a" {\n  command = plan\n}\n' }]);
    expect(diagnostics).toEqual([]);
  });

  it("reads the shipped terraform test example clean", async () => {
    const example = join(dirname(fileURLToPath(import.meta.url)), "../../examples/terraform-test");
    const { diagnostics } = await validateFiles([example]);
    expect(diagnostics).toEqual([]);
  });
});

describe("a run's plan_options", () => {
  it("takes the mode as a keyword, and refuses a refresh-only plan without refresh", async () => {
    expect(await errorsOf(`run "x" {\n  plan_options {\n    mode = nope\n  }\n}\n`)).toEqual(['Invalid "mode" keyword @3:12']);
    expect(await errorsOf(`run "x" {\n  plan_options {\n    mode = refresh-only\n    refresh = false\n  }\n}\n`)).toEqual(["Incompatible plan options @4:5"]);
    expect(await errorsOf(`run "x" {\n  plan_options {\n    mode    = normal\n    refresh = false\n  }\n}\n`)).toEqual([]);
  });
});

