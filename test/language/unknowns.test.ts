// Templates are unknown values: every check that reads them waits for Terraform, every other
// check still runs. A `$${` escape is no template: its string is known and checked.
import { describe, expect, it } from "vitest";
import { validateHclJson } from "../../language/index.js";

/** Every variable the tests refer to, declared (an undeclared one is an error of its own). */
const variable = Object.fromEntries(["vpc", "a", "b", "ha", "p", "q", "region"].map((name) => [name, {}]));

const peering = (body: Record<string, unknown>) =>
  JSON.stringify({
    variable,
    resource: {
      tsdb_peering_connection: {
        p: { platform_vpc_id: "${var.vpc}", peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_tgw_id: "tgw-0123456789abcdef0", ...body },
      },
    },
  });

const errors = async (text: string) => (await validateHclJson(text)).filter((d) => d.severity === "error").map((d) => `${d.path}: ${d.message}`);

describe("unknown values", () => {
  it("a set holding templates is not judged for duplicates, and its known elements are still checked", async () => {
    expect(await errors(peering({ peer_cidr_blocks: ["${var.a}", "${var.b}", "10.0.0.0/16"] }))).toEqual([]);
    expect(await errors(peering({ peer_cidr_blocks: ["${var.a}", "10.0.0.0/33"] }))).toEqual([expect.stringMatching(/^peer_cidr_blocks\[1\]: .*IPv4 CIDR/)]);
  });

  it("a rule that reads a template waits; a rule about presence does not", async () => {
    const service = (body: Record<string, unknown>) => JSON.stringify({ variable, resource: { tsdb_service: { s: body } } });
    expect(await errors(service({ sync_replicas: 1, ha_replicas: "${var.ha}" }))).toEqual([]);
    expect(await errors(service({ password: "${var.p}", password_wo: "${var.q}" }))).toEqual([expect.stringMatching(/password/)]);
  });

  it("an escaped template is a known string, checked like any other", async () => {
    const [only, ...rest] = await errors(JSON.stringify({ resource: { tsdb_vpcs: { v: { name: "n", cidr: "10.0.0.0/16", region_code: "$${var.region}" } } } }));
    expect(rest).toEqual([]);
    expect(only).toMatch(/^region_code: /);
  });
});
