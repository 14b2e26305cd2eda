// No input crashes validate: a long expression is walked without a call per term.
import { describe, expect, it } from "vitest";
import { validateHclJson } from "../../language/index.js";

const terms = (n: number) => Array.from({ length: n }, () => "1").join(" + ");

describe("a 100,000-term expression", () => {
  it("is evaluated in a JSON template (count of 100,000 passes, as Terraform finds)", async () => {
    const text = JSON.stringify({ resource: { tsdb_vpcs: { v: { name: "n", cidr: "10.0.0.0/16", region_code: "us-east-1", count: `\${${terms(100_000)}}` } } } });
    expect(await validateHclJson(text)).toEqual([]);
  });

  it("is evaluated in a native file, and its value still judged", async () => {
    const text = `locals {\n  n = ${terms(100_000)}\n}\n\noutput "o" {\n  value = local.n + "x"\n}\n`;
    const diagnostics = await validateHclJson(text, { filename: "main.tf" });
    expect(diagnostics.map((d) => d.message)).toEqual([expect.stringContaining("Invalid operand")]);
  });
});
