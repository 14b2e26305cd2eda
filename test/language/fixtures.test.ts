// The fixture corpus: every file under fixtures/valid has no error; every file under
// fixtures/invalid reports exactly the diagnostics of its .expected.json (message fragment,
// severity, line and column), no more and no fewer.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { validateHclJson } from "../../language/index.js";

const root = fileURLToPath(new URL("./fixtures/", import.meta.url));
const list = (dir: string) => readdirSync(`${root}${dir}`).filter((n) => n.endsWith(".tf.json")).sort();

interface Expected {
  severity: "error" | "warning";
  line: number;
  column?: number;
  message: string;
}

describe("valid fixtures", () => {
  for (const name of list("valid")) {
    it(`${name} has no errors`, async () => {
      const diagnostics = await validateHclJson(readFileSync(`${root}valid/${name}`, "utf8"), { filename: `valid/${name}` });
      expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    });
  }
});

describe("invalid fixtures", () => {
  for (const name of list("invalid")) {
    it(`${name} reports what it should, where it should`, async () => {
      const expected = JSON.parse(readFileSync(`${root}invalid/${name.replace(/\.tf\.json$/, ".expected.json")}`, "utf8")) as Expected[];
      expect(expected.length).toBeGreaterThan(0);
      const diagnostics = await validateHclJson(readFileSync(`${root}invalid/${name}`, "utf8"), { filename: `invalid/${name}` });
      const unmatched = [...diagnostics];
      for (const e of expected) {
        const i = unmatched.findIndex((d) => d.severity === e.severity && d.line === e.line && (e.column === undefined || d.column === e.column) && d.message.includes(e.message));
        expect(i, `expected ${e.severity} at ${e.line}:${e.column ?? "*"} containing ${JSON.stringify(e.message)}; got:\n${diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`).join("\n")}`).toBeGreaterThanOrEqual(0);
        unmatched.splice(i, 1);
      }
      expect(unmatched.map((d) => `${d.line}:${d.column} ${d.severity} ${d.message}`)).toEqual([]);
    });
  }
});
