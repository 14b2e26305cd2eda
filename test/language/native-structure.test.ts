// What Terraform's loader refuses in a native file's block structure (labels, block and argument
// syntax swapped, quoted types and addresses), HCL's recovery after a one-line block's bad item, and
// numbers HCL reads that JSON cannot. Each expectation is what `terraform validate` 1.11.4 printed
// for the same text (the native round of the differential suite holds these cases too).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateFiles } from "../../language/index.js";

const scratch = mkdtempSync(join(tmpdir(), "schemaform-native-structure-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let count = 0;

const TERRAFORM = `terraform {
  required_providers {
    tsdb = {
      source = "schemaform/tsdb"
    }
  }
}
`;

/** The errors of a module of one main.tf (after the terraform block above), as "line:column summary". */
async function errorsOf(body: string, files: Record<string, string> = {}): Promise<string[]> {
  const dir = join(scratch, String(count++));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "main.tf"), TERRAFORM + body);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const { diagnostics } = await validateFiles([dir]);
  return diagnostics.filter((d) => d.severity === "error").map((d) => `${d.line}:${d.column} ${d.message.split(":")[0]}`);
}

const VPC = `resource "tsdb_vpcs" "main" {\n  cidr        = "10.0.0.0/16"\n  region_code = "us-east-1"\n}\n`;

describe("a native file's block structure", () => {
  it("refuses a block with too few or too many labels, at the brace or the extra label", async () => {
    expect(await errorsOf(`resource "tsdb_vpcs" {\n  cidr = "10.0.0.0/16"\n}\n`)).toEqual(["8:22 Missing name for resource"]);
    expect(await errorsOf(`resource "tsdb_vpcs" "main" "extra" {\n  cidr        = "10.0.0.0/16"\n  region_code = "us-east-1"\n}\n`)).toEqual([
      "8:29 Extraneous label for resource",
    ]);
    const lifecycle = await errorsOf(VPC.replace("}\n", `  lifecycle "x" {\n    prevent_destroy = false\n  }\n}\n`));
    expect(lifecycle).toContain("11:13 Extraneous label for lifecycle");
  });

  it("refuses an argument where the language wants a block, suggesting the block where Terraform's own schema reads it", async () => {
    const lifecycle = await errorsOf(VPC.replace("}\n", `  lifecycle = {\n    create_before_destroy = true\n  }\n}\n`));
    expect(lifecycle).toEqual(["11:3 Unsupported argument"]);
    const dir = join(scratch, "suggest");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "main.tf"), `terraform {\n  required_providers = {\n    tsdb = { source = "schemaform/tsdb" }\n  }\n}\n\nlocals = {\n  a = 1\n}\n`);
    const { diagnostics } = await validateFiles([dir]);
    const messages = diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`);
    expect(messages).toContain('2:3 Unsupported argument: An argument named "required_providers" is not expected here. Did you mean to define a block of type "required_providers"?');
    expect(messages).toContain('7:1 Unsupported argument: An argument named "locals" is not expected here. Did you mean to define a block of type "locals"?');
  });

  it("refuses a block where only arguments go (a provider requirement written as a block)", async () => {
    const dir = join(scratch, "unexpected-block");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "main.tf"), `terraform {\n  required_providers {\n    tsdb {\n      source = "schemaform/tsdb"\n    }\n  }\n}\n`);
    const { diagnostics } = await validateFiles([dir]);
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toContain('3:5 Unexpected "tsdb" block: Blocks are not allowed here.');
  });

  it("refuses quoted type constraints and quoted addresses, which only the JSON syntax writes as strings", async () => {
    expect(await errorsOf(`variable "a" {\n  type = "string"\n}\nvariable "b" {\n  type = "number"\n}\n`)).toEqual([
      "9:10 Invalid quoted type constraints",
      "12:10 Invalid legacy variable type hint",
    ]);
    expect(await errorsOf(`${VPC}moved {\n  from = "tsdb_vpcs.old"\n  to   = tsdb_vpcs.main\n}\n`)).toEqual(["13:10 Invalid expression"]);
    // quoted references stay accepted where Terraform still reads them (depends_on, ignore_changes)
    expect(await errorsOf(VPC.replace("}\n", `  depends_on = ["tsdb_vpcs.other"]\n  lifecycle {\n    ignore_changes = ["cidr"]\n  }\n}\n`) + VPC.replace('"main"', '"other"'))).toEqual([]);
  });
});

describe("HCL's recovery after a one-line block's bad item", () => {
  it("reports the block left open on its line too, on the line after (Terraform's first error)", async () => {
    const errors = await errorsOf(`locals { inner { a = 1 } }\n\nlocals {\n  b = 2\n}\n`);
    expect(errors).toEqual(["8:10 Argument definition required", "9:1 Invalid single-argument block definition"]);
    // a comma after the skipped item is the block's second argument
    expect(await errorsOf(`locals { a b = 1 }\n, x\n`)).toEqual(["8:10 Argument definition required", "9:1 Invalid single-argument block definition"]);
  });
});

describe("native numbers", () => {
  it("reads a number with leading zeros as HCL does (no crash)", async () => {
    expect(await errorsOf(`${VPC}locals {\n  n = 007\n  m = [01, 0.50]\n}\noutput "n" {\n  value = local.n + local.m[0]\n}\n`)).toEqual([]);
  });
});

describe("native expressions where the JSON syntax reads text", () => {
  it("refuses a function call or a variable in a variable's default and description (the loader evaluates them alone)", async () => {
    const errors = await errorsOf(`locals {\n  p = "x"\n}\nvariable "a" {\n  default = upper("a")\n}\nvariable "b" {\n  default = "\${local.p}-x"\n}\nvariable "c" {\n  default = [1, max(1, var.a), var.a]\n}\n`);
    expect(errors).toEqual(["12:13 Function calls not allowed", "15:16 Variables not allowed", "18:17 Function calls not allowed", "18:32 Variables not allowed"]);
  });

  it("keeps the last of an object key given twice, as HCL's object constructor does (no error)", async () => {
    expect(await errorsOf(`locals {\n  tags = { team = "data", team = "dev" }\n}\noutput "team" {\n  value = local.tags.team\n}\n`)).toEqual([]);
  });

  it("ends a traversal at a newline after its dot: the name is missing there, not on the next line", async () => {
    expect(await errorsOf(`locals {\n  a = 4.\n  b = 1\n}\n`)).toEqual(["9:9 Invalid attribute name"]);
  });

  it("reports a required argument written as a block as missing too (Terraform's first error, at the block's brace)", async () => {
    const errors = await errorsOf(`resource "tsdb_log_exporter" "logs" {\n  region = "us-east-1"\n  cloudmon {\n    region = "us-east-1"\n  }\n}\n`);
    expect(errors.slice(0, 2)).toEqual(["8:37 Missing required argument", "10:3 Unsupported block type"]);
  });

  it("reads `_ = {…}` as an argument, not the escape block (which native syntax writes `_ {…}`)", async () => {
    const errors = await errorsOf(`data "terraform_remote_state" "net" {\n  _ = { backend = "local" }\n}\n`);
    expect(errors).toContain("9:3 Unsupported argument");
  });
});

describe("a provider's finding about a nested path in a native file", () => {
  it("is shown where Terraform can follow the path: through blocks to the value, else at the brace of the body it reached", async () => {
    const errors = await errorsOf(
      `resource "tsdb_log_exporter" "logs" {\n  region   = "us-east-1"\n  cloudmon = {\n    region          = "us-east-1"\n    log_group_name  = "g"\n    log_stream_name = "s"\n    role_arn        = "not-an-arn"\n  }\n}\nresource "tsdb_vpcs" "v" {\n  cidr        = "10.0.0.0/16"\n  region_code = "us-east-1"\n  timeouts {\n    create = "soon"\n  }\n}\n`,
    );
    expect(errors).toEqual(["8:37 cloudmon.role_arn must be a role ARN such as arn", "21:14 timeouts.create must be a duration made of numbers with s, m or h suffixes, such as 30s, 10m or 1h30m, got \"soon\""]);
  });
});

describe("native expression details", () => {
  it("refuses a bare reference as an object key (Terraform: ambiguous), accepts it in parentheses or quotes", async () => {
    expect(await errorsOf(`locals {\n  k = "x"\n  o = { local.k = 1 }\n}\n`)).toEqual(["10:9 Ambiguous attribute key"]);
    expect(await errorsOf(`locals {\n  k = "x"\n  o = { (local.k) = 1, "a.b" = 2 }\n}\noutput "o" {\n  value = local.o\n}\n`)).toEqual([]);
  });

  it("needs a newline after a heredoc's closing marker: at the end of the file the string is unterminated", async () => {
    expect(await errorsOf(`locals {\n  a = <<EOT\nx\nEOT`)).toEqual(["11:4 Unterminated template string"]);
  });
});

describe("a native file that sets an argument twice", () => {
  it("is still read to its end and the rest of the module checked (Terraform's loader reads on and keeps the first value)", async () => {
    const errors = await errorsOf(`resource "tsdb_vpcs" "main" {\n  cidr        = "10.0.0.0/16"\n  cidr        = "10.1.0.0/16"\n  region_code = "us-east-1"\n}\noutput "o" {\n  value = tsdb_vpcs.missing.id\n}\n`);
    expect(errors).toEqual(["10:3 Attribute redefined", "14:11 Reference to undeclared resource"]);
  });
});

describe("an override file's resource body", () => {
  it("drops an argument named like a language block silently (the merge does not read the provider schema's unknown arguments)", async () => {
    const override = `resource "tsdb_vpcs" "main" {\n  lifecycle = {\n    prevent_destroy = true\n  }\n}\n`;
    expect(await errorsOf(VPC, { "main_override.tf": override })).toEqual([]);
    // outside an override file it is Terraform's "Unsupported argument"
    expect(await errorsOf(VPC.replace("}\n", `  lifecycle = {\n    prevent_destroy = true\n  }\n}\n`))).toEqual(["11:3 Unsupported argument"]);
  });
});
