// Escaping of literal values for HCL templates, and the names given to generated blocks.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assignNames, camelCase, escapeLiteral, escapeTemplate, identifier, snakeCase, unescapeTemplate } from "../../cli/import/index.js";
import { IDENTIFIER_RE } from "../../cli/import/naming.js";
import { hasTemplate } from "../../language/expr/templates.js";

describe("escapeTemplate", () => {
  it("doubles the sign of every ${ and %{", () => {
    expect(escapeTemplate("${x}")).toBe("$${x}");
    expect(escapeTemplate("%{ if a }b%{ endif }")).toBe("%%{ if a }b%%{ endif }");
    expect(escapeTemplate("a ${b} c %{d} e")).toBe("a $${b} c %%{d} e");
    // Already-doubled signs stay literal: Terraform drops exactly one sign per escape.
    expect(escapeTemplate("$${x}")).toBe("$$${x}");
    expect(escapeTemplate("%%{x}")).toBe("%%%{x}");
  });

  it("leaves strings without templates alone", () => {
    for (const s of ["", "$", "100$", "a$b{c}", "$$", "{x}", "50% off", "%", "$ {x}"]) expect(escapeTemplate(s)).toBe(s);
  });

  it("matches Terraform's reading of escapes (the table in the reference)", () => {
    expect(unescapeTemplate("$${x}")).toBe("${x}");
    expect(unescapeTemplate("$$${x}")).toBe("$${x}");
    expect(unescapeTemplate("$$$${x}")).toBe("$$${x}");
    expect(unescapeTemplate("%%{ x }")).toBe("%{ x }");
    for (const s of ["$", "100$", "a$b{c}", "$$"]) expect(unescapeTemplate(s)).toBe(s);
  });

  it("round-trips any string, and the result is never a template", () => {
    const alphabet = fc.constantFrom("$", "%", "{", "}", "a", " ", "\\", '"');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 24 }).map((parts) => parts.join("")), (s) => {
        const escaped = escapeTemplate(s);
        expect(unescapeTemplate(escaped)).toBe(s);
        expect(hasTemplate(escaped)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it("escapes keys and values of maps and lists", () => {
    expect(escapeLiteral({ "k${1}": ["%{a}", 1, true], n: null })).toEqual({ "k$${1}": ["%%{a}", 1, true], n: null });
  });
});

describe("names", () => {
  it("snake_cases free-form names", () => {
    expect(snakeCase("App DB (prod)")).toBe("app_db_prod");
    expect(snakeCase("myService")).toBe("my_service");
    expect(snakeCase("HTTPServer")).toBe("http_server");
    expect(snakeCase("prod-restores")).toBe("prod_restores");
    expect(snakeCase("  --Crème brûlée--  ")).toBe("creme_brulee");
    expect(snakeCase("日本")).toBe("");
  });

  it("makes valid, non-reserved identifiers", () => {
    expect(identifier("10.0.0.0/16 net", "vpc")).toBe("vpc_10_0_0_0_16_net");
    expect(identifier("", "service")).toBe("service");
    expect(identifier("!!!", "service")).toBe("service");
    expect(identifier("count", "service")).toBe("count_service");
    expect(identifier("Main VPC", "vpc")).toBe("main_vpc");
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (s) => {
        expect(identifier(s, "x")).toMatch(IDENTIFIER_RE);
      }),
    );
  });

  it("numbers names that collide, independent of input order", () => {
    const items = [
      { item: "b", base: "db", key: "id-b" },
      { item: "a", base: "db", key: "id-a" },
      { item: "c", base: "db_2", key: "id-c" },
      { item: "d", base: "other", key: "id-d" },
    ];
    const forward = assignNames(items);
    const backward = assignNames([...items].reverse());
    expect(Object.fromEntries(forward)).toEqual(Object.fromEntries(backward));
    // "db_2" is wanted by c, so the second "db" becomes db_3.
    expect(Object.fromEntries(forward)).toEqual({ a: "db", b: "db_3", c: "db_2", d: "other" });
    expect(new Set(forward.values()).size).toBe(4);
  });

  it("gives TypeScript identifiers", () => {
    expect(camelCase("app_db")).toBe("appDb");
    expect(camelCase("main_vpc_to_vpc_0a1")).toBe("mainVpcToVpc0a1");
    expect(camelCase("delete")).toBe("deleteResource");
    expect(camelCase("_x")).toBe("X");
  });
});
