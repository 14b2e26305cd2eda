// `each` and `count` may be used only in a block that sets for_each / count: resources and data
// sources (see the named-references fixture) and import blocks; a module call's arguments may use
// them without (validate evaluates them with unknown instance data), but not against the wrong one.
import { describe, expect, it } from "vitest";
import { validateHclJson } from "../../language/index.js";

describe("each and count", () => {
  it("are judged by what each module call and import block sets", async () => {
    const text = JSON.stringify({
      module: {
        with_for_each: { source: "./m", for_each: { x: 1 }, n: "${each.key}" },
        without: { source: "./m", n: "${each.key}" },
        with_count: { source: "./m", count: 1, n: "${count.index}" },
      },
      resource: { terraform_data: { t: { for_each: { x: 1 } } } },
      import: [
        { for_each: { x: "1" }, to: "terraform_data.t[each.key]", id: "${each.value}" },
        { to: "terraform_data.t[\"x\"]", id: "${count.index}" },
      ],
    });
    const errors = (await validateHclJson(text)).filter((d) => d.severity === "error").map((d) => `${d.address}: ${d.message.slice(0, d.message.indexOf(":"))}`);
    // a module call's arguments are evaluated with unknown instance data: terraform validate 1.11
    // accepts each.key in module.without; an import block without count is judged
    expect(errors).toEqual(['import: Reference to "count" in non-counted context']);
  });
});
