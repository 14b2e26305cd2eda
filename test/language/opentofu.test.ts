// OpenTofu's reading of a module in schemaform validate: *.tofu.json files are read and shadow the
// *.tf.json of the same name, and OpenTofu-only constructs are "OpenTofu: not checked" warnings
// instead of Terraform's errors, when --engine opentofu or a *.tofu.json says the module is
// OpenTofu's. A Terraform module is judged as before.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateFiles } from "../../language/index.js";
import { openTofuFiles } from "../../language/load/opentofu.js";

const work = mkdtempSync(join(tmpdir(), "schemaform-opentofu-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
function module(files: Record<string, unknown>): string {
  const dir = join(work, `m${n++}`);
  mkdirSync(dir);
  for (const [name, doc] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(doc, null, 2));
  return dir;
}

const REQUIRED = { required_providers: { tsdb: { source: "schemaform/tsdb" } } };
const ENCRYPTED = {
  terraform: { ...REQUIRED, encryption: { key_provider: { pbkdf2: { main: { passphrase: "${var.passphrase}" } } }, state: { method: "aes_gcm.main" } } },
  variable: { passphrase: { type: "string", sensitive: true }, release: { type: "string" } },
  module: { net: { source: "./modules/${var.release}" } },
};

const summary = (d: { severity: string; message: string }) => `${d.severity}: ${d.message.split(":").slice(0, 2).join(":")}`;

describe("OpenTofu modules", () => {
  it("reads *.tofu.json, a x.tofu.json taking the place of x.tf.json, and *.tf files", () => {
    expect(openTofuFiles(["a.tf.json", "a.tofu.json", "b.tf.json", ".hidden.tofu.json", "c.tofu.json", "main.tf", "notes.txt"])).toEqual(["a.tofu.json", "b.tf.json", "c.tofu.json", "main.tf"]);
  });

  it("turns Terraform's errors for encryption and early-evaluated module sources into warnings with --engine opentofu", async () => {
    const dir = module({ "main.tf.json": ENCRYPTED });
    const terraform = await validateFiles([dir]);
    expect(terraform.diagnostics.map(summary)).toEqual([
      'error: Extraneous JSON object property: No argument or block type is named "encryption".',
      "error: Invalid module source address: Terraform failed to determine your intended installation method for remote module package \"./modules/${var.release}\"; the source address must be a literal string, not a template.",
    ]);
    const tofu = await validateFiles([dir], { engine: "opentofu" });
    expect(tofu.diagnostics.map((d) => `${d.severity}: ${d.message}`)).toEqual([
      "warning: OpenTofu: not checked: terraform.encryption (state and plan encryption, OpenTofu 1.7+) is OpenTofu's; Terraform rejects it.",
      "warning: OpenTofu: not checked: a module source with variables or locals (early evaluation, OpenTofu 1.8+) is OpenTofu's; Terraform needs a literal.",
    ]);
  });

  it("treats a directory with a *.tofu.json as OpenTofu's, and checks the .tofu.json instead of the .tf.json it shadows", async () => {
    const dir = module({
      "main.tf.json": { terraform: REQUIRED, resource: { tsdb_service: { db: { milli_cpu: 3 } } } },
      "main.tofu.json": { terraform: REQUIRED, resource: { tsdb_service: { db: { milli_cpu: 7 } } } },
      "state.tofu.json": { terraform: { encryption: { state: { method: "aes_gcm.main" } } } },
    });
    const result = await validateFiles([dir]);
    const errors = result.diagnostics.filter((d) => d.severity === "error");
    expect(new Set(errors.map((d) => d.file.split(/[\\/]/).pop()))).toEqual(new Set(["main.tofu.json"]));
    expect(errors[0]!.message).toContain("milli_cpu must be one of");
    expect(errors[0]!.message).toContain("got 7");
    expect(result.diagnostics.some((d) => d.severity === "warning" && d.message.startsWith("OpenTofu: not checked: terraform.encryption"))).toBe(true);
  });

  it("still reports everything else in an OpenTofu module", async () => {
    const dir = module({ "main.tofu.json": { ...ENCRYPTED, resource: { tsdb_service: { db: { ha_replicas: 1, sync_replicas: 1 } } } } });
    const errors = (await validateFiles([dir])).diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => d.message)).toEqual(["sync_replicas = 1 requires ha_replicas = 2"].map((m) => expect.stringContaining(m)));
  });
});
