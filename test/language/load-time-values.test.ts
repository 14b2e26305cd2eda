// Values Terraform 1.11.4 reads when it loads a module, and rings it finds in the graph (each
// case was run through `terraform validate`, native and JSON): a provider block's `version`, a
// variable default's repeated object keys, and validation rules that refer to each other.
import { describe, expect, it } from "vitest";
import { modulesOnDisk } from "./module-on-disk.js";

const disk = modulesOnDisk("load-time");

/** "line: message" of each error of a module of one file. */
async function errors(name: string, text: string): Promise<string[]> {
  return (await disk.diagnostics({ [name]: text })).filter((d) => d.severity === "error").map((d) => `${d.line}: ${d.message}`);
}

describe("a provider block's version is a version constraint", () => {
  it("refuses one that is not, used or not", async () => {
    const native = 'terraform {\n  required_providers {\n    tsdb = { source = "schemaform/tsdb" }\n  }\n}\n\nprovider "tsdb" {\n  project_id = "p"\n  version    = "not a version"\n}\n';
    expect(await errors("main.tf", native)).toEqual(["9: Invalid version constraint: This string does not use correct version constraint syntax."]);
    const json = '{\n  "provider": {\n    "tsdb": {\n      "alias": "unused",\n      "version": "~> 1.0, nope"\n    }\n  },\n  "terraform": { "required_providers": { "tsdb": { "source": "schemaform/tsdb" } } }\n}\n';
    expect(await errors("main.tf.json", json)).toEqual(["5: Invalid version constraint: This string does not use correct version constraint syntax."]);
  });

  it("accepts a valid one (with the deprecation warning only)", async () => {
    expect(await errors("main.tf.json", '{ "provider": { "tsdb": { "alias": "x", "version": ">= 0.1" } }, "terraform": { "required_providers": { "tsdb": { "source": "schemaform/tsdb" } } } }')).toEqual([]);
  });
});

describe("a JSON variable default repeats no object key", () => {
  it("refuses a repeated key at each level, at the repeat", async () => {
    const json = '{\n  "variable": {\n    "v": {\n      "default": {\n        "a": 1,\n        "b": { "x": 1,\n          "x": 2 },\n        "a": 2\n      }\n    }\n  }\n}\n';
    expect(await errors("main.tf.json", json)).toEqual([
      '7: Duplicate object attribute: An attribute named "x" was already defined at main.tf.json:6,16.',
      '8: Duplicate object attribute: An attribute named "a" was already defined at main.tf.json:5,9.',
    ]);
  });

  it("a native object constructor takes the last value instead", async () => {
    expect(await errors("main.tf", 'variable "v" {\n  default = {\n    a = 1\n    a = 2\n  }\n}\n')).toEqual([]);
  });
});

describe("validation rules that refer to other objects", () => {
  const variable = (name: string, condition: string) => `variable "${name}" {\n  default = "x"\n  validation {\n    condition     = ${condition}\n    error_message = "x"\n  }\n}\n`;

  it("are a cycle when those refer back: another variable's rule, a resource, a local value", async () => {
    expect(await errors("main.tf", variable("a", "var.a != var.b") + variable("b", "var.b != var.a"))).toEqual(["1: Cycle: var.a (validation), var.b (validation)"]);
    expect(await errors("main.tf", variable("a", "terraform_data.r.input != var.a") + 'resource "terraform_data" "r" {\n  input = var.a\n}\n')).toEqual(["1: Cycle: terraform_data.r, var.a (validation)"]);
    expect(await errors("main.tf", variable("a", "local.l != var.a") + 'locals {\n  l = "${var.a}-"\n}\n')).toEqual(["1: Cycle: local.l (expand), var.a (validation)"]);
    const json = JSON.stringify({ variable: { a: { default: "x", validation: [{ condition: "${var.a != var.b}", error_message: "x" }] }, b: { default: "y", validation: [{ condition: "${var.b != var.a}", error_message: "x" }] } } });
    expect(await errors("main.tf.json", json)).toEqual(["1: Cycle: var.a (validation), var.b (validation)"]);
  });

  it("are no cycle when nothing refers back", async () => {
    expect(await errors("main.tf", variable("a", "var.a != var.b") + 'variable "b" {\n  default = "y"\n}\n\noutput "o" {\n  value = var.a\n}\n')).toEqual([]);
  });
});
