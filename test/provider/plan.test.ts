// planChange on its own: the nested cases Terraform is strict about (reference §10).
import { describe, expect, it } from "vitest";
import { type Body, UNKNOWN } from "../../provider/codec.js";
import { planChange } from "../../provider/framework/plan.js";
import type { PlanBlockModel } from "../../provider/framework/types.js";
import type { SchemaBlock } from "../../provider/schema.js";

const block: SchemaBlock = {
  attributes: {
    id: { type: "string", computed: true },
    etag: { type: "string", computed: true },
    definition: {
      required: true,
      nested_type: {
        nesting_mode: "single",
        attributes: {
          type: { type: "string", required: true },
          csv: {
            optional: true,
            nested_type: {
              nesting_mode: "single",
              attributes: {
                delimiter: { type: "string", optional: true, computed: true },
                header: { type: "bool", optional: true },
              },
            },
          },
        },
      },
    },
  },
  block_types: {
    port: {
      nesting_mode: "set",
      block: { attributes: { number: { type: "number", required: true }, assigned: { type: "string", computed: true } } },
    },
    disk: {
      nesting_mode: "list",
      block: { attributes: { size: { type: "number", required: true }, kind: { type: "string", required: true } } },
    },
  },
};

const model: PlanBlockModel = {
  attributes: {
    etag: { volatile: true },
    definition: { nested: { block: { attributes: { type: { forceNew: true }, csv: { nested: { block: { attributes: { delimiter: { default: "," } } } } } } } } },
  },
  blocks: {
    port: { block: { attributes: { number: { forceNew: true } } } },
    disk: { block: { attributes: { kind: { forceNew: true } } } },
  },
};

const base: Body = {
  id: "1",
  etag: "e1",
  definition: { type: "CSV", csv: { delimiter: ";", header: true } },
  port: [{ number: 80, assigned: "a80" }, { number: 443, assigned: "a443" }],
  disk: [{ size: 10, kind: "ssd" }],
};

/** The configuration that produced `base` (computed values null). */
const config = (overrides: Body = {}): Body => ({
  id: null,
  etag: null,
  definition: { type: "CSV", csv: { delimiter: ";", header: true } },
  port: [{ number: 80, assigned: null }, { number: 443, assigned: null }],
  disk: [{ size: 10, kind: "ssd" }],
  ...overrides,
});

describe("planChange", () => {
  it("applies defaults inside nested attributes where the configuration is null", () => {
    const c = config({ definition: { type: "CSV", csv: { delimiter: null, header: null } } });
    const { planned } = planChange({ prior: null, proposed: c, config: c, block, model });
    expect(planned.definition).toEqual({ type: "CSV", csv: { delimiter: ",", header: null } });
    expect(planned.id).toBe(UNKNOWN);
  });

  it("keeps computed values of existing set elements and makes new elements' computed values unknown", () => {
    const c = config({ port: [{ number: 443, assigned: null }, { number: 8080, assigned: null }] });
    // Terraform's proposed state carries prior computed values for elements it could match.
    const proposed = { ...base, port: [{ number: 443, assigned: "a443" }, { number: 8080, assigned: null }] };
    const { planned, requiresReplace } = planChange({ prior: base, proposed, config: c, block, model });
    expect(planned.port).toEqual([{ number: 443, assigned: "a443" }, { number: 8080, assigned: UNKNOWN }]);
    // A force-new attribute changed inside a set: the set is replaced as a whole.
    expect(requiresReplace).toEqual([["port"]]);
  });

  it("names the exact list element of a force-new change, and volatile values go unknown", () => {
    const c = config({ disk: [{ size: 10, kind: "hdd" }] });
    const { planned, requiresReplace, changed } = planChange({ prior: base, proposed: { ...base, disk: [{ size: 10, kind: "hdd" }] }, config: c, block, model });
    expect(changed).toBe(true);
    expect(requiresReplace).toEqual([["disk", 0, "kind"]]);
    expect(planned.etag).toBe(UNKNOWN);
    expect(planned.id).toBe("1");
  });

  it("an in-place change inside a nested attribute does not replace; a force-new one names its path", () => {
    const header = config({ definition: { type: "CSV", csv: { delimiter: ";", header: false } } });
    const proposed = { ...base, definition: { type: "CSV", csv: { delimiter: ";", header: false } } };
    expect(planChange({ prior: base, proposed, config: header, block, model }).requiresReplace).toEqual([]);
    const parquet = config({ definition: { type: "PARQUET", csv: null } });
    const result = planChange({ prior: base, proposed: { ...base, definition: { type: "PARQUET", csv: null } }, config: parquet, block, model });
    expect(result.requiresReplace).toEqual([["definition", "type"]]);
  });

  it("changes nothing when nothing changed (set order aside)", () => {
    const [http, https] = base.port as Body[];
    const proposed: Body = { ...base, port: [https!, http!] };
    const result = planChange({ prior: base, proposed, config: config(), block, model });
    expect(result.changed).toBe(false);
    expect(result.planned.etag).toBe("e1");
    expect(result.requiresReplace).toEqual([]);
  });
});
