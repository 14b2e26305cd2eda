// Terraform's built-in provider's types (language/schema/builtin-types.ts): terraform_data and
// terraform_remote_state are checked as terraform validate 1.11.4 checks them (each case below
// was run through it: same verdict, same line).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateFiles, validateHclJson } from "../../language/index.js";

/** "line message" of each error of a document given as lines (so that lines are easy to read off). */
async function errors(...lines: string[]): Promise<string[]> {
  const diagnostics = await validateHclJson(lines.join("\n") + "\n");
  return diagnostics.filter((d) => d.severity === "error").map((d) => `${d.line} ${d.message}`);
}

describe("terraform_data", () => {
  it("takes input and triggers_replace of any type, and its output can be traversed freely", async () => {
    expect(
      await errors(
        "{",
        '  "resource": { "terraform_data": { "marker": { "input": { "a": { "b": [1, "x"] } }, "triggers_replace": ["${var.n}"] } } },',
        '  "variable": { "n": { "type": "number" } },',
        '  "output": { "deep": { "value": "${terraform_data.marker.output.a.b[0]}" } }',
        "}",
      ),
    ).toEqual([]);
  });

  it("refuses an unknown argument, a nested block, and values for output and id", async () => {
    expect(
      await errors(
        "{",
        '  "resource": { "terraform_data": {',
        '    "a": { "input": "x", "bogus": 1 },',
        '    "b": { "timeouts": { "create": "5m" } },',
        '    "c": { "output": "y" },',
        '    "d": { "id": null }',
        "  } }",
        "}",
      ),
    ).toEqual([
      expect.stringMatching(/^3 Extraneous JSON object property: No argument or block type is named "bogus"/),
      expect.stringMatching(/^4 Extraneous JSON object property: No argument or block type is named "timeouts"/),
      expect.stringMatching(/^5 "output" attribute is read-only/),
    ]);
  });

  it("has no ignore_changes name outside its schema", async () => {
    const lifecycle = '"lifecycle": { "ignore_changes": ["nope"], "postcondition": [{ "condition": "${self.output != \\"\\"}", "error_message": "e" }] }';
    expect(await errors("{", `  "resource": { "terraform_data": { "m": { "input": "x", ${lifecycle} } } }`, "}")).toEqual([
      expect.stringMatching(/^2 Unsupported attribute: This object has no argument, nested block, or exported attribute named "nope"/),
    ]);
  });

  it("has no nested block a dynamic block could generate", async () => {
    expect(await errors("{", '  "resource": { "terraform_data": { "m": {', '    "dynamic": { "timeouts": { "for_each": ["5m"], "content": {} } }', "  } } }", "}")).toEqual([
      expect.stringMatching(/^3 Unsupported block type: Blocks of type "timeouts" are not expected here/),
    ]);
  });

  it("has no attribute outside its schema to refer to", async () => {
    expect(await errors("{", '  "resource": { "terraform_data": { "m": { "input": "x" } } },', '  "output": { "o": { "value": "${terraform_data.m.nope}" } }', "}")).toEqual([
      expect.stringMatching(/^3 Unsupported attribute: This object has no argument, nested block, or exported attribute named "nope"/),
    ]);
  });

  it("is a managed resource type only: the built-in provider has no data source of that name", async () => {
    expect(await errors("{", '  "data": { "terraform_data": { "m": {} } },', '  "resource": { "terraform_remote_state": { "s": { "backend": "local" } } }', "}")).toEqual([
      expect.stringMatching(/^2 Invalid data source: The provider terraform\.io\/builtin\/terraform does not support data source "terraform_data"/),
      expect.stringMatching(/^3 Invalid resource type: .* "terraform_remote_state"\. Did you intend to use the data source "terraform_remote_state"\?/),
    ]);
  });
});

describe("terraform_remote_state", () => {
  it("needs a backend Terraform has, and a config that backend takes", async () => {
    expect(
      await errors(
        "{",
        '  "data": { "terraform_remote_state": {',
        '    "ok": { "backend": "local", "config": { "path": "net.tfstate" }, "defaults": { "a": 1 }, "workspace": 5 },',
        '    "missing": { "config": {} },',
        '    "unknown": { "backend": "nope" },',
        '    "extra": { "backend": "local", "config": { "nope": 1 } },',
        '    "s3": { "backend": "s3", "config": { "bucket": "b" } },',
        '    "text": { "backend": "local", "config": "path=x" }',
        "  } },",
        '  "output": { "o": { "value": "${data.terraform_remote_state.ok.outputs.any.thing}" } }',
        "}",
      ),
    ).toEqual([
      expect.stringMatching(/^4 Missing required argument: The argument "backend" is required/),
      expect.stringMatching(/^5 Invalid backend configuration: There is no backend type named "nope"/),
      expect.stringMatching(/^6 Invalid backend configuration: .*backend "local": unexpected attribute "nope"/),
      expect.stringMatching(/^7 Invalid backend configuration: .*backend "s3": attribute "key" is required/),
      expect.stringMatching(/^8 Invalid backend configuration: .*an object is required/),
    ]);
  });

  it("takes the s3 backend's arguments only (an unknown one first, in sorted order; \"//\" is no comment in a value)", async () => {
    const s3 = (config: object) => errors("{", `  "data": { "terraform_remote_state": { "s": { "backend": "s3", "config": ${JSON.stringify({ bucket: "b", key: "k", region: "us-east-1", ...config })} } } }`, "}");
    expect(await s3({ use_lockfile: true, assume_role: { role_arn: "arn:aws:iam::123456789012:role/x" }, skip_s3_checksum: true, workspace_key_prefix: "w" })).toEqual([]);
    expect(await s3({ z_nope: 2, a_nope: 1 })).toEqual([expect.stringMatching(/^2 Invalid backend configuration: .*backend "s3": unexpected attribute "a_nope"/)]);
    expect(await s3({ "//": "c" })).toEqual([expect.stringMatching(/^2 Invalid backend configuration: .*unexpected attribute "\/\/"/)]);
    const local = errors("{", '  "data": { "terraform_remote_state": { "s": { "backend": "local", "config": { "path": "x", "//": "c" } } } }', "}");
    expect(await local).toEqual([expect.stringMatching(/^2 Invalid backend configuration: .*backend "local": unexpected attribute "\/\/"/)]);
  });

  it("has outputs but no attribute outside its schema", async () => {
    expect(await errors("{", '  "data": { "terraform_remote_state": { "s": { "backend": "local" } } },', '  "output": { "o": { "value": "${data.terraform_remote_state.s.vpc_id}" } }', "}")).toEqual([
      expect.stringMatching(/^3 Unsupported attribute: This object has no argument, nested block, or exported attribute named "vpc_id"/),
    ]);
  });
});

describe("import blocks", () => {
  it("take a list for for_each (each.value is the element)", async () => {
    expect(
      await errors(
        "{",
        '  "resource": { "terraform_data": { "m": { "for_each": { "a": 1 }, "input": "${each.value}" } } },',
        '  "import": [{ "for_each": ["a"], "to": "terraform_data.m[each.value]", "id": "${each.value}" }]',
        "}",
      ),
    ).toEqual([]);
  });
});

describe("the built-in provider's functions", () => {
  const required = '  "terraform": { "required_providers": { "terraform": { "source": "terraform.io/builtin/terraform" } } },';

  it("are known when the module declares the provider in required_providers", async () => {
    expect(await errors("{", required, '  "locals": { "a": "${provider::terraform::encode_tfvars({ a = 1 })}", "b": "${provider::terraform::decode_tfvars(\\"a = 1\\").a}" }', "}")).toEqual([]);
  });

  it("are unknown without that declaration, as are names the provider does not have", async () => {
    expect(await errors("{", '  "locals": { "a": "${provider::terraform::encode_expr(1)}" }', "}")).toEqual([
      expect.stringMatching(/^2 Unknown provider function: There is no function named "provider::terraform::encode_expr"\. Ensure that provider name "terraform" is declared/),
    ]);
    expect(await errors("{", required, '  "locals": { "a": "${provider::terraform::nope(1)}", "b": "${provider::terraform(1)}" }', "}")).toEqual([
      '3 Unknown provider function: The function "nope" is not available from the provider "terraform".',
      '3 Unknown provider function: The function call must include the provider name after the "provider::" prefix.',
    ]);
  });
});

describe("provider functions in a called module", () => {
  const scratch = mkdtempSync(join(tmpdir(), "schemaform-builtin-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const required = { terraform: { required_providers: { terraform: { source: "terraform.io/builtin/terraform" } } } };
  const call = { module: { child: { source: "./child" } } };
  const same = { locals: { f: "${provider::terraform::encode_expr(1)}" } };

  async function check(root: object, child: object): Promise<string[]> {
    const dir = mkdtempSync(join(scratch, "case-"));
    mkdirSync(join(dir, "child"));
    writeFileSync(join(dir, "main.tf.json"), JSON.stringify(root, null, 2) + "\n");
    writeFileSync(join(dir, "child", "main.tf.json"), JSON.stringify(child, null, 2) + "\n");
    const { diagnostics } = await validateFiles([dir]);
    return diagnostics.filter((d) => d.severity === "error").map((d) => `${relative(dir, d.file)} ${d.message.slice(0, d.message.indexOf(":"))}`);
  }

  it("are judged against each module's own required_providers, even for the same text", async () => {
    expect(await check({ ...call, ...same }, { ...required, ...same })).toEqual(["main.tf.json Unknown provider function"]);
    expect(await check({ ...call, ...required, ...same }, same)).toEqual(["child/main.tf.json Unknown provider function"]);
  });
});
