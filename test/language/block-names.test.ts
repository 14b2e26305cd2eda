import { describe, expect, it } from "vitest";
import { BlockNames, nameHash } from "../../language/config/block-names.js";
import { newBlockDecl } from "../../language/config/declarations.js";
import { validateHclJson } from "../../language/index.js";

const decl = (name: string) => newBlockDecl("resource", "tsdb_vpcs", name, null, 0, 0, 0, null);

/** Two resource names with the same 30-bit hash (found by search, so the test needs no magic constants). */
function collidingNames(): [string, string] {
  const seen = new Map<number, string>();
  for (let i = 0; ; i++) {
    const name = `net${i}`;
    const h = nameHash(name, 0, name.length);
    const other = seen.get(h);
    if (other !== undefined) return [other, name];
    seen.set(h, name);
  }
}

describe("BlockNames", () => {
  it("finds every declared name, by string or inside a longer text, as the table grows", () => {
    const names = new BlockNames();
    const decls = Array.from({ length: 5000 }, (_, i) => decl(`db${i}`));
    for (const d of decls) expect(names.add(d)).toBeUndefined();
    expect(names.size).toBe(5000);
    for (const d of decls) expect(names.get(d.name)).toBe(d);
    const text = "${tsdb_vpcs.db4321.vpcs_id}";
    expect(names.find(text, 12, 18)).toBe(decls[4321]);
    expect(names.get("db5000")).toBeUndefined();
    expect(names.get("db")).toBeUndefined();
  });

  it("returns the earlier block for a second declaration of a name", () => {
    const names = new BlockNames();
    const first = decl("a");
    names.add(first);
    expect(names.add(decl("a"))).toBe(first);
    expect(names.size).toBe(1);
  });

  it("keeps names apart whose hashes are equal", () => {
    const [a, b] = collidingNames();
    const names = new BlockNames();
    const da = decl(a);
    names.add(da);
    expect(names.get(b)).toBeUndefined();
    const db = decl(b);
    expect(names.add(db)).toBeUndefined();
    expect(names.get(a)).toBe(da);
    expect(names.get(b)).toBe(db);
  });

  it("in a module: colliding names are neither duplicates nor each other's reference target", async () => {
    const [a, b] = collidingNames();
    const vpc = (name: string) => ({ name, cidr: "10.0.0.0/16", region_code: "us-east-1" });
    const service = (vpc: string) => ({ name: "db", milli_cpu: 1000, memory_gb: "4", region_code: "us-east-1", vpc_id: `\${tsdb_vpcs.${vpc}.vpcs_id}` });
    const both = JSON.stringify({ resource: { tsdb_vpcs: { [a]: vpc(a), [b]: vpc(b) }, tsdb_service: { s1: service(a), s2: service(b) } } });
    expect(await validateHclJson(both, { filename: "main.tf.json" })).toEqual([]);
    const onlyA = JSON.stringify({ resource: { tsdb_vpcs: { [a]: vpc(a) }, tsdb_service: { s2: service(b) } } });
    const diagnostics = await validateHclJson(onlyA, { filename: "main.tf.json" });
    expect(diagnostics.map((d) => d.message)).toEqual([expect.stringContaining(`Reference to undeclared resource: A managed resource "tsdb_vpcs" "${b}" has not been declared`)]);
  });
});
