// Templates and expressions as `terraform validate` 1.11.4 evaluates them (each expectation was
// run against it): a bare name is a reference Terraform refuses, `%{if}`/`%{for}` directives over
// known values have a known string value the providers' rules see, and for expressions over a
// known collection are evaluated element by element. Every case in both syntaxes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateFiles } from "../../language/index.js";

const work = mkdtempSync(join(tmpdir(), "schemaform-template-evaluation-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;

/** "line: message" of each error of a module of the given files. */
async function errors(files: Record<string, string>): Promise<string[]> {
  const dir = join(work, String(n++));
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const result = await validateFiles([dir]);
  return result.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.line}: ${d.message.split("\n")[0]!}`);
}

/** One local value `x` written in both syntaxes: `json` as the .tf.json string, `native` as the .tf expression. */
async function localErrors(json: string, native: string): Promise<{ json: string[]; native: string[] }> {
  return {
    json: await errors({ "main.tf.json": `{\n"locals": {\n"x": ${JSON.stringify(json)}\n}\n}\n` }),
    native: await errors({ "main.tf": `locals {\n  x = ${native}\n}\n` }),
  };
}

const BARE = "Invalid reference: A reference to a resource type must be followed by at least one attribute access, specifying the resource name.";

describe("a bare name in an expression is a reference to a resource type without its name", () => {
  it("as a function's argument, a conditional's result, alone and in directives", async () => {
    for (const [json, native] of [
      ["${upper(bar)}", "upper(bar)"],
      ['${true ? bar : "x"}', 'true ? bar : "x"'],
      ["${bar}", "bar"],
      ["x-${bar}", '"x-${bar}"'],
      ["%{ if bar }x%{ endif }", '"%{ if bar }x%{ endif }"'],
      ["${[for x in [1] : x + bar]}", "[for x in [1] : x + bar]"],
    ]) {
      const found = await localErrors(json!, native!);
      expect(found.json, json).toEqual([`3: ${BARE}`]);
      expect(found.native, native).toEqual([`2: ${BARE}`]);
    }
  });

  it("in a resource argument, an output and a variable's validation", async () => {
    const json = {
      variable: { v: { type: "string", default: "a", validation: [{ condition: "${length(var.v) > 0 && bar == \"\"}", error_message: "bad" }] } },
      output: { o: { value: "${lower(bar)}" } },
      resource: { terraform_data: { t: { input: "${bar}" } } },
    };
    expect(await errors({ "main.tf.json": JSON.stringify(json, null, 1) })).toEqual([
      expect.stringContaining(BARE),
      expect.stringContaining(BARE),
      expect.stringContaining(BARE),
    ]);
    const native = 'variable "v" {\n  default = "a"\n  validation {\n    condition     = length(var.v) > 0 && bar == ""\n    error_message = "bad"\n  }\n}\noutput "o" { value = lower(bar) }\nresource "terraform_data" "t" { input = bar }\n';
    expect(await errors({ "main.tf": native })).toEqual([`4: ${BARE}`, `8: ${BARE}`, `9: ${BARE}`]);
  });

  it("a name a for expression or directive declares is no reference", async () => {
    expect(await localErrors('${[for bar in [1] : bar]}', "[for bar in [1] : bar]")).toEqual({ json: [], native: [] });
    expect(await localErrors("%{ for bar in [1] }${bar}%{ endfor }", '"%{ for bar in [1] }${bar}%{ endfor }"')).toEqual({ json: [], native: [] });
  });
});

describe("directives over known values have a known value", () => {
  const service = (cpu: string) => ({
    terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" } } },
    provider: { tsdb: { project_id: "p" } },
    resource: { tsdb_service: { db: { name: "db", milli_cpu: cpu, memory_gb: 2, region_code: "us-east-1" } } },
  });
  const nativeService = (cpu: string) =>
    `terraform {\n  required_providers {\n    tsdb = { source = "schemaform/tsdb" }\n  }\n}\nprovider "tsdb" { project_id = "p" }\nresource "tsdb_service" "db" {\n  name        = "db"\n  milli_cpu   = ${cpu}\n  memory_gb   = 2\n  region_code = "us-east-1"\n}\n`;

  it("an if directive's chosen text is the value the provider's rules judge", async () => {
    const json = await errors({ "main.tf.json": JSON.stringify(service("%{ if true }3%{ endif }")) });
    expect(json).toContainEqual(expect.stringContaining("milli_cpu must be one of 500, 1000"));
    const native = await errors({ "main.tf": nativeService('"%{ if true }3%{ endif }"') });
    expect(native).toContainEqual(expect.stringMatching(/^9: milli_cpu must be one of 500, 1000/));
    // the other branch, and a for directive's joined text, are values too
    expect(await errors({ "main.tf.json": JSON.stringify(service("%{ if false }3%{ else }500%{ endif }")) })).toEqual([]);
    expect(await errors({ "main.tf.json": JSON.stringify(service("%{ for d in [\"5\", \"0\", \"1\"] }${d}%{ endfor }")) })).toContainEqual(
      expect.stringContaining("milli_cpu must be one of 500, 1000"),
    );
  });

  it("an unknown condition, or a strip marker, leaves the value unknown", async () => {
    expect(await errors({ "main.tf.json": JSON.stringify({ ...service("%{ if var.big }3%{ endif }"), variable: { big: { type: "bool" } } }) })).toEqual([]);
    expect(await errors({ "main.tf.json": JSON.stringify(service("%{ if true ~} 3 %{~ endif }")) })).toEqual([]);
  });
});

describe("for expressions over known collections are evaluated element by element", () => {
  it("two elements producing one key, without grouping, is Terraform's error", async () => {
    const dup = "Duplicate object key: Two different items produced the key \"a\" in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.";
    expect(await localErrors('${{ for x in ["a", "a"] : x => x }}', '{ for x in ["a", "a"] : x => x }')).toEqual({ json: [`3: ${dup}`], native: [`2: ${dup}`] });
    // grouping, or distinct keys, is fine
    expect(await localErrors('${{ for x in ["a", "a"] : x => x... }}', '{ for x in ["a", "a"] : x => x... }')).toEqual({ json: [], native: [] });
    expect(await localErrors('${{ for k, v in { b = "a", c = "a" } : k => v }}', '{ for k, v in { b = "a", c = "a" } : k => v }')).toEqual({ json: [], native: [] });
    // keys from values: two object attributes with one value
    expect((await localErrors('${{ for k, v in { b = "a", c = "a" } : v => k }}', '{ for k, v in { b = "a", c = "a" } : v => k }')).json).toEqual([`3: ${dup}`]);
  });

  it("the other errors of evaluating one", async () => {
    const cases: [string, string, string][] = [
      ["${[for x in null : x]}", "[for x in null : x]", "Iteration over null value: A null value cannot be used as the collection in a 'for' expression."],
      ["${[for x in [1] : x.foo]}", "[for x in [1] : x.foo]", "Unsupported attribute: Can't access attributes on a primitive-typed value (number)."],
      ["${{ for x in [1] : x => x if null }}", "{ for x in [1] : x => x if null }", "Condition is null: The value of the 'if' clause must not be null."],
      ["${{ for x in [null] : x => 1 }}", "{ for x in [null] : x => 1 }", "Invalid object key: Key expression in 'for' expression must not produce a null value."],
      ["${[for x in [1, 2] : x if x]}", "[for x in [1, 2] : x if x]", "Invalid 'for' condition: The 'if' clause value is invalid: bool required."],
      ["%{ for x in [null] }${x}%{ endfor }", '"%{ for x in [null] }${x}%{ endfor }"', "Invalid template interpolation value: The expression result is null. Cannot include a null value in a string template."],
      ["%{ if null }x%{ endif }", '"%{ if null }x%{ endif }"', "Null condition: The condition value is null. Conditions must either be true or false."],
    ];
    for (const [json, native, message] of cases) expect(await localErrors(json, native), json).toEqual({ json: [`3: ${message}`], native: [`2: ${message}`] });
  });

  it("a for expression's known value reaches the rules, an unknown collection leaves it unknown", async () => {
    const module = (count: string) => JSON.stringify({ resource: { terraform_data: { t: { count } } } });
    expect(await errors({ "main.tf.json": module("${length([for x in [1, 2, 3] : x if x > 1]) - 3}") })).toEqual([expect.stringContaining("Invalid count argument")]);
    expect(await errors({ "main.tf.json": JSON.stringify({ variable: { l: { type: "list(number)" } }, resource: { terraform_data: { t: { count: "${length([for x in var.l : x]) - 3}" } } } }) })).toEqual([]);
  });
});

describe("where a problem inside an expression is reported", () => {
  /** "line:column message" of each error. */
  async function located(files: Record<string, string>): Promise<string[]> {
    const dir = join(work, String(n++));
    mkdirSync(dir);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const result = await validateFiles([dir]);
    return result.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.line}:${d.column} ${d.message.split(":")[0]!}`);
  }

  it("in a native expression over several lines, or after quotes: at the name, as Terraform reports it", async () => {
    const native = 'locals {\n  m = [\n    for x in [1] : upper(bar)\n  ]\n  n = <<EOT\nhello\n${bar2}\nEOT\n  o = { a = "q", b = upper(bar3) }\n}\n';
    expect(await located({ "main.tf": native })).toEqual(["3:26 Invalid reference", "7:3 Invalid reference", "9:28 Invalid reference"]);
  });

  it("in a JSON string with escapes: Terraform counts the decoded characters", async () => {
    const json = '{\n  "variable": { "x": {} },\n  "output": {\n    "choice": { "value": "${var.x > 1 ? \\"big\\" :}" }\n  }\n}\n';
    expect(await located({ "main.tf.json": json })).toEqual(["4:48 Invalid expression"]);
  });
});
