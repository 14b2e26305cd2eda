// No input crashes validate: a chain of local values, each reading the next, is read to a bounded
// depth by every pass that follows local values (known values, sensitive and ephemeral marks).
import { describe, expect, it } from "vitest";
import { validateHclJson } from "../../language/index.js";

/** A module whose local a0 reads a1, … a(n-1) reads an, which is `last`. */
function chain(n: number, last: string, uses: Record<string, unknown>): string {
  const locals: Record<string, string> = {};
  for (let i = 0; i < n; i++) locals[`a${i}`] = `\${local.a${i + 1}}`;
  locals[`a${n}`] = last;
  return JSON.stringify({ variable: { s: { type: "map(string)", sensitive: true } }, locals, ...uses });
}

describe("a chain of 20,000 local values", () => {
  it("read by for_each and an output, from a sensitive variable, is no crash", async () => {
    const text = chain(20_000, "${var.s}", { resource: { terraform_data: { x: { for_each: "${local.a0}" } } }, output: { o: { value: "${local.a0}" } } });
    expect(Array.isArray(await validateHclJson(text))).toBe(true);
  });

  it("read by count, from a literal, is no crash", async () => {
    const text = chain(20_000, "${2}", { resource: { terraform_data: { x: { count: "${local.a0}" } } } });
    expect(await validateHclJson(text)).toEqual([]);
  });

  it("a short chain is still followed to the end", async () => {
    const text = chain(100, "${var.s}", { resource: { terraform_data: { x: { for_each: "${local.a0}" } } } });
    expect((await validateHclJson(text)).map((d) => d.message)).toEqual([expect.stringContaining("Sensitive values")]);
  });
});
