// Values `terraform validate` knows: local values built from literals reach our value rules, from
// whichever file of the module declares them; input variables and other objects stay unknown.
// (Each case was run through Terraform 1.11 with our providers: same errors, same lines.)
import { describe, expect, it } from "vitest";
import { validateModule } from "../../language/index.js";

async function errors(files: Record<string, unknown>): Promise<string[]> {
  const result = await validateModule(Object.entries(files).map(([name, body]) => ({ name, text: JSON.stringify(body, null, 2) })));
  return result.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.file}:${d.line} ${d.message}`);
}

const service = (body: Record<string, unknown>) => ({ resource: { tsdb_service: { db: { memory_gb: 4, ...body } } } });

describe("values known at validate time", () => {
  it("a local declared in another file of the module is checked where it is used", async () => {
    const found = await errors({ "locals.tf.json": { locals: { cpu: 3 } }, "main.tf.json": service({ milli_cpu: "${local.cpu}" }) });
    expect(found).toContainEqual(expect.stringMatching(/^main\.tf\.json:6 milli_cpu must be one of .*got 3$/));
  });

  it("a literal local that fits the rules raises nothing", async () => {
    expect(await errors({ "main.tf.json": { locals: { cpu: 1000, mem: "${local.cpu / 250}" }, ...service({ milli_cpu: "${local.cpu}", memory_gb: "${local.mem}" }) } })).toEqual([]);
  });

  it("an escaped template in a local is the literal text it stands for", async () => {
    const found = await errors({
      "main.tf.json": { locals: { region: "$${x}" }, resource: { tsdb_vpcs: { v: { name: "n", cidr: "10.0.0.0/16", region_code: "${local.region}" } } } },
    });
    expect(found).toEqual([expect.stringMatching(/region_code must be one of "us-east-1", .*got "\$\{x\}"$/)]);
  });

  it("a string local where a number is required is Terraform's conversion error", async () => {
    const found = await errors({ "main.tf.json": { locals: { cpu: "lots" }, ...service({ milli_cpu: "${local.cpu}" }) } });
    expect(found).toEqual([expect.stringContaining('Incorrect attribute value type: Inappropriate value for attribute "milli_cpu": a number is required.')]);
  });

  it("variables (even with defaults), resources, functions of the clock and locals built on them stay unknown", async () => {
    const found = await errors({
      "main.tf.json": {
        variable: { cpu: { default: 3 } },
        locals: { from_variable: "${var.cpu}", now: "${timestamp()}", both: { known: 1000, unknown: "${var.cpu}" } },
        resource: {
          tsdb_service: {
            a: { milli_cpu: "${var.cpu}", memory_gb: 4 },
            b: { milli_cpu: "${local.from_variable}", memory_gb: 4 },
            c: { milli_cpu: "${local.both.unknown}", memory_gb: "${local.now}" },
            d: { milli_cpu: "${local.both.known}", memory_gb: 4 },
          },
        },
      },
    });
    expect(found).toEqual([]);
  });
});
