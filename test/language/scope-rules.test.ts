// Where a construct may appear, as Terraform 1.11.4 decides it (each case was run through
// `terraform validate`, native and JSON): an import's `to` read statically, provisioners of a
// removed block, a check block's data source, and the dependency an import's id makes.
import { describe, expect, it } from "vitest";
import { modulesOnDisk } from "./module-on-disk.js";

const disk = modulesOnDisk("scope-rules");

/** "line: summary" of each error of a module of one file. */
async function errors(name: string, text: string): Promise<string[]> {
  return (await disk.diagnostics({ [name]: text })).filter((d) => d.severity === "error").map((d) => `${d.line}: ${d.message.split(":")[0]}`);
}

describe("an import's `to` without for_each is a static address", () => {
  it("refuses an index computed by an expression, native and JSON", async () => {
    const native = 'resource "terraform_data" "x" {\n  count = 2\n}\n\nimport {\n  to = terraform_data.x[count.index]\n  id = "a"\n}\n';
    expect(await errors("main.tf", native)).toEqual(["6: Invalid expression"]);
    const json = '{\n  "resource": { "terraform_data": { "x": { "for_each": { "a": 1 } } } },\n  "import": [\n    {\n      "to": "terraform_data.x[each.key]",\n      "id": "a"\n    }\n  ]\n}\n';
    expect(await errors("main.tf.json", json)).toEqual(["5: Invalid expression"]);
  });

  it("accepts a constant index, and each.key with for_each", async () => {
    expect(await errors("main.tf", 'resource "terraform_data" "x" {\n  count = 2\n}\n\nimport {\n  to = terraform_data.x[1]\n  id = "a"\n}\n')).toEqual([]);
    const json = '{\n  "resource": { "terraform_data": { "x": { "for_each": { "a": 1 } } } },\n  "import": [\n    {\n      "for_each": { "a": 1 },\n      "to": "terraform_data.x[each.key]",\n      "id": "${each.value}"\n    }\n  ]\n}\n';
    expect(await errors("main.tf.json", json)).toEqual([]);
  });
});

describe("a removed block runs destroy-time provisioners only", () => {
  it("refuses one without when = destroy, or with when = create, at its type label", async () => {
    const json = '{\n  "removed": [\n    {\n      "from": "terraform_data.old",\n      "lifecycle": { "destroy": true },\n      "provisioner": {\n        "local-exec": {\n          "command": "echo gone"\n        }\n      }\n    }\n  ]\n}\n';
    expect(await errors("main.tf.json", json)).toEqual(["7: Invalid provisioner block"]);
    const native = 'removed {\n  from = terraform_data.old\n  lifecycle {\n    destroy = true\n  }\n  provisioner "local-exec" {\n    command = "echo"\n    when    = create\n  }\n  provisioner "local-exec" {\n    command = "echo"\n  }\n}\n';
    expect(await errors("main.tf", native)).toEqual(["6: Invalid provisioner block", "10: Invalid provisioner block"]);
  });

  it("accepts when = destroy", async () => {
    expect(await errors("main.tf", 'removed {\n  from = terraform_data.old\n  lifecycle {\n    destroy = true\n  }\n  provisioner "local-exec" {\n    command = "echo"\n    when    = destroy\n  }\n}\n')).toEqual([]);
  });
});

describe("a check block's data source", () => {
  it("has no lifecycle of its own", async () => {
    const native = 'check "c" {\n  data "terraform_remote_state" "s" {\n    backend = "local"\n    lifecycle {\n      postcondition {\n        condition     = true\n        error_message = "x"\n      }\n    }\n  }\n  assert {\n    condition     = data.terraform_remote_state.s.outputs != null\n    error_message = "x"\n  }\n}\n';
    expect(await errors("main.tf", native)).toEqual(["4: Invalid lifecycle block", "6: Invalid postcondition expression"]);
    const json = JSON.stringify({ check: { c: { data: { terraform_remote_state: { s: { backend: "local", lifecycle: {} } } }, assert: { condition: "${data.terraform_remote_state.s.outputs != null}", error_message: "x" } } } }, null, 1);
    expect(await errors("main.tf.json", json)).toEqual([`${json.split("\n").findIndex((l) => l.includes('"lifecycle"')) + 1}: Invalid lifecycle block`]);
  });
});

describe("an import's id is a dependency of the resource it imports", () => {
  it("so a resource the id refers to that refers back is a cycle", async () => {
    const module = (input: string) => `resource "terraform_data" "a" {\n  input = ${input}\n}\n\nresource "terraform_data" "b" {}\n\nimport {\n  to = terraform_data.b\n  id = terraform_data.a.id\n}\n`;
    expect(await errors("main.tf", module("terraform_data.b.id"))).toEqual(["1: Cycle"]);
    expect(await errors("main.tf", module('"x"'))).toEqual([]);
  });
});
