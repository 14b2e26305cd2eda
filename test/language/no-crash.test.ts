// Inputs that once made `schemaform validate` throw (exit 2, no diagnostics): every recursive pass
// is bounded or iterative, and what is on disk is read as Terraform reads a module.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateFiles } from "../../language/index.js";

const work = mkdtempSync(join(tmpdir(), "schemaform-no-crash-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;

/** Validates a module of one main.tf.json whose local `t` is `template`; the error messages. */
async function errorsOfLocal(template: string): Promise<string[]> {
  const dir = join(work, String(n++));
  mkdirSync(dir);
  writeFileSync(join(dir, "main.tf.json"), JSON.stringify({ locals: { x: { a: 1 }, t: template } }));
  const result = await validateFiles([dir]);
  return result.diagnostics.filter((d) => d.severity === "error").map((d) => d.message.split("\n")[0]!);
}

const N = 100_000;

describe("validate does not crash", () => {
  it("on a 100,000-term sum (a left spine as deep as the expression is long)", async () => {
    expect(await errorsOfLocal("${" + Array(N).fill("1").join(" + ") + "}")).toEqual([]);
  });

  it("on 100,000-term chains of mixed precedence and of references", async () => {
    expect(await errorsOfLocal("${" + Array(N).fill("2 * 3").join(" - ") + "}")).toEqual([]);
    expect(await errorsOfLocal("${" + Array(N).fill("true").join(" && ") + "}")).toEqual([]);
    expect(await errorsOfLocal("${" + Array(N).fill("local.x.a").join(" + ") + "}")).toEqual([]);
  });

  it("on a 100,000-step traversal: evaluated, with Terraform's error", async () => {
    expect(await errorsOfLocal("${local.x" + ".a".repeat(N) + "}")).toEqual([expect.stringContaining("Unsupported attribute")]);
    expect(await errorsOfLocal("${local.x" + "[0]".repeat(N) + "}")).toEqual([expect.stringContaining("Invalid index")]);
  });

  it("on nesting past the bound (parentheses, unary operators, conditionals, quoted templates): an error, not a throw", async () => {
    for (const deep of [
      "${" + "(".repeat(N) + "1" + ")".repeat(N) + "}",
      "${" + "-".repeat(N) + "1}",
      "${" + Array(N).fill("true ? 1 :").join(" ") + " 2}",
      "${" + '"${'.repeat(N) + "1" + '}"'.repeat(N) + "}",
    ]) {
      expect(await errorsOfLocal(deep)).toEqual([expect.stringContaining("Nesting too deep")]);
    }
  });

  it("on nesting within the bound: accepted", async () => {
    const d = 900;
    expect(await errorsOfLocal("${" + "(".repeat(d) + "1" + ")".repeat(d) + "}")).toEqual([]);
    expect(await errorsOfLocal("${" + "[".repeat(d) + "1" + "]".repeat(d) + "}")).toEqual([]);
    expect(await errorsOfLocal("${" + "abs(".repeat(d) + "1" + ")".repeat(d) + "}")).toEqual([]);
    expect(await errorsOfLocal("${" + "{a = ".repeat(d) + "1" + "}".repeat(d) + "}")).toEqual([]);
  });

  it("on JSON nested 100,000 levels deep (Terraform accepts it): accepted, and the rest of the module checked", async () => {
    const dir = join(work, String(n++));
    mkdirSync(dir);
    writeFileSync(join(dir, "main.tf.json"), `{"locals": {"deep": ${"[".repeat(N)}${"]".repeat(N)}, "x": "\${local.nope}"}}`);
    const result = await validateFiles([dir]);
    expect(result.diagnostics.map((d) => d.message.split(":")[0])).toEqual(["Reference to undeclared local value"]);
  });

  it("on a \\U escape past U+10FFFF or a surrogate \\u escape: Terraform's Invalid escape sequence", async () => {
    expect(await errorsOfLocal('${"\\U00110000"}')).toEqual([expect.stringContaining("Invalid escape sequence")]);
    expect(await errorsOfLocal('${"\\ud83d\\ude00"}')).toEqual([expect.stringContaining("Invalid escape sequence")]);
    expect(await errorsOfLocal('${"\\U0001F600"}')).toEqual([]);
  });

  it("on a directory named x.tf.json in the module: skipped, as Terraform skips it", async () => {
    const dir = join(work, "with-directory");
    mkdirSync(join(dir, "x.tf.json"), { recursive: true });
    writeFileSync(join(dir, "x.tf.json", "README"), "not part of the module\n");
    writeFileSync(join(dir, "main.tf.json"), JSON.stringify({ locals: { a: 1 } }));
    const result = await validateFiles([dir]);
    expect(result.diagnostics).toEqual([]);
    // named directly beside it, too
    expect((await validateFiles([join(dir, "main.tf.json")])).diagnostics).toEqual([]);
  });
});
