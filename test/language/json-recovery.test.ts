// A `.tf.json` file with a syntax error is read on as HCL's JSON parser reads it: the object or
// array that failed is an invalid value at its opening token, its parent reads on from where the
// recovery left off, and the invalid value where a block belongs is "Incorrect JSON value type"
// (what `terraform init` 1.11.4 reports on these files; every expectation was run against it).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateFiles } from "../../language/index.js";
import { repairJson } from "../../language/syntax/json-repair.js";

const work = mkdtempSync(join(tmpdir(), "schemaform-json-recovery-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;

/** "line:column summary" of each error of a module of one main.tf.json. */
async function errors(text: string): Promise<string[]> {
  const dir = join(work, String(n++));
  mkdirSync(dir);
  writeFileSync(join(dir, "main.tf.json"), text);
  const result = await validateFiles([dir]);
  return result.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.line}:${d.column} ${d.message.split(":")[0]}`);
}

const BLOCKS = "Incorrect JSON value type";

describe("the rest of a file with a syntax error is read as Terraform reads it", () => {
  it("a missing comma: the object holding it is invalid where its block belongs; its siblings are read", async () => {
    const text = '{\n  "output": {\n    "a": {\n      "value": "x"\n      "description": "d"\n    },\n    "b": { "value": "y" }\n  }\n}\n';
    expect(await errors(text)).toEqual([`3:10 ${BLOCKS}`, "6:6 Missing attribute seperator comma"]);
  });

  it("a trailing comma in a nested block: that block list is invalid, the variable itself is read", async () => {
    const text = '{\n  "variable": {\n    "p": {\n      "type": "string",\n      "validation": [\n        {\n          "condition": "${length(var.p) > 0}",\n          "error_message": "Bad.",\n        }\n      ]\n    }\n  },\n  "output": { "o": { "value": "${var.p}" } }\n}\n';
    // var.p is declared: no "undeclared" error for the output's reference
    expect(await errors(text)).toEqual([`5:21 ${BLOCKS}`, "8:34 Trailing comma in object"]);
  });

  it("a double comma: the variable is invalid, and the tokens after it are read where the parser resumes", async () => {
    const text = '{\n  "variable": {\n    "a": {\n      "type": "string",,\n      "default": "x"\n    },\n    "b": {}\n  }\n}\n';
    const found = await errors(text);
    expect(found.slice(0, 3)).toEqual([`3:10 ${BLOCKS}`, "4:24 Invalid object property name", `5:18 ${BLOCKS}`]);
    // "variable" was closed early: "b" is a top-level block type Terraform does not know
    expect(found).toContain("7:5 Extraneous JSON object property");
  });

  it("a trailing comma with CRLF line ends: each label read in the wrong place is its own error", async () => {
    const text = '{\n  "resource": {\n    "terraform_data": {\n      "a": {\n        "input": 1,\n      },\n      "b": {\n        "input": 2\n      }\n    }\n  }\n}\n'.replace(/\n/g, "\r\n");
    expect(await errors(text)).toEqual([`4:12 ${BLOCKS}`, "5:19 Trailing comma in object", `8:18 ${BLOCKS}`]);
  });
});

describe("repairJson", () => {
  it("keeps every offset, and gives up where an invalid value has no room", () => {
    const text = '{"locals": {"a": [1 2], "b": 3}}';
    const repaired = repairJson(text)!;
    expect(repaired).toHaveLength(text.length);
    expect(JSON.parse(repaired)).toEqual({ locals: { a: 0, b: 3 } });
    // an empty value right after the colon, with no blank to hold its 0
    expect(repairJson('{"locals": {"a":}}')).toBeNull();
    // an invalid root
    expect(repairJson("{")).toBeNull();
  });

  it("does not recurse without bound", () => {
    expect(repairJson(`{"a": ${"[".repeat(100000)}`)).toBeNull();
  });
});
