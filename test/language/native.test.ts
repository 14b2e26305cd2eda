// Native syntax (`.tf`): read as Terraform reads it, alone and mixed with `.tf.json` in one module,
// through the same rules (the native body lowered into the JSON syntax's tree), with positions,
// wording and code frames of the native file.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatHuman, formatJson, formatSarif, validateFiles } from "../../language/index.js";

const scratch = mkdtempSync(join(tmpdir(), "schemaform-native-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function moduleDir(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

const VERSIONS_TF = `terraform {
  required_providers {
    tsdb = {
      source = "schemaform/tsdb"
    }
  }
}

provider "tsdb" {
  project_id = "p1"
}

variable "ha" {
  type    = number
  default = 1
}

resource "tsdb_vpcs" "v1" {
  name        = "net"
  cidr        = "10.0.0.0/16"
  region_code = "us-east-1"
}
`;

const SERVICE_JSON = JSON.stringify({
  resource: { tsdb_service: { db: { name: "db", milli_cpu: 1000, memory_gb: "4", region_code: "us-east-1", ha_replicas: "${var.ha}", vpc_id: "${tsdb_vpcs.v1.vpcs_id}" } } },
});

describe("native .tf files", () => {
  it("are one module with the .tf.json files beside them: references across the two resolve", async () => {
    const dir = moduleDir("mixed", { "versions.tf": VERSIONS_TF, "main.tf.json": SERVICE_JSON });
    const { diagnostics } = await validateFiles([dir]);
    expect(diagnostics).toEqual([]);
  });

  it("report their own problems at their own lines and columns, in Terraform's native words", async () => {
    const dir = moduleDir("errors", {
      "versions.tf": VERSIONS_TF,
      "bad.tf": `resource "tsdb_service" "x" {
  name        = "db2"
  milli_cpu   = 1000
  memroy_gb   = "4"
  region_code = "us-east-1"
  vpc_id      = tsdb_vpcs.v2.vpcs_id
}
`,
    });
    const { diagnostics, sources } = await validateFiles([dir]);
    const unknown = diagnostics.find((d) => d.code === "unknown-argument")!;
    expect(unknown).toMatchObject({ file: join(dir, "bad.tf"), line: 4, column: 3, address: "tsdb_service.x" });
    expect(unknown.message).toBe('Unsupported argument: An argument named "memroy_gb" is not expected here. Did you mean "memory_gb"?');
    const undeclared = diagnostics.find((d) => d.code === "undeclared-reference")!;
    expect(undeclared).toMatchObject({ line: 6, column: 17 });
    // the code frame shows the native text, not the JSON it was lowered to
    expect(formatHuman(diagnostics, sources, { color: false })).toContain('> 4 |   memroy_gb   = "4"');
  });

  it("write valid JSON and SARIF when the module has .tf files only", async () => {
    const dir = moduleDir("native-only", { "main.tf": 'resource "tsdb_vpcs" "v" {\n  name = "n"\n  cidr = "10.0.0.0/16"\n  region_code = "us-east-1"\n  nmae = "x"\n}\n' });
    const { diagnostics } = await validateFiles([dir]);
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(JSON.parse(formatJson(diagnostics))).toHaveLength(diagnostics.length);
    expect(JSON.parse(formatSarif(diagnostics, "0.0.0")).runs[0].results).toHaveLength(diagnostics.length);
  });

  it("keep static references and keywords as the JSON syntax writes them (depends_on, ignore_changes, variable types)", async () => {
    const dir = moduleDir("statics", {
      "versions.tf": VERSIONS_TF,
      "main.tf": `variable "names" {
  type = list(string)
}

resource "tsdb_vpcs" "v2" {
  name        = var.names[0]
  cidr        = "10.1.0.0/16"
  region_code = "us-east-1"
  depends_on  = [tsdb_vpcs.v1]
  lifecycle {
    ignore_changes = [name]
  }
}
`,
    });
    expect((await validateFiles([dir])).diagnostics).toEqual([]);
  });

  it("report syntax errors with Terraform's summary, and read the rest of the module", async () => {
    const dir = moduleDir("syntax", { "versions.tf": VERSIONS_TF, "broken.tf": 'resource "tsdb_vpcs" "x" {\n  name = \n}\n' });
    const { diagnostics } = await validateFiles([dir]);
    expect(diagnostics.some((d) => d.file.endsWith("broken.tf") && d.severity === "error")).toBe(true);
  });

  it("count override files (*_override.tf) as overrides, not as second declarations", async () => {
    const dir = moduleDir("override", { "versions.tf": VERSIONS_TF, "net_override.tf": 'resource "tsdb_vpcs" "v1" {\n  cidr = "10.2.0.0/16"\n}\n' });
    expect((await validateFiles([dir])).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("tell a block from an argument as Terraform does (timeouts {} is a block, timeouts = {} is not)", async () => {
    const dir = moduleDir("block-or-argument", {
      "versions.tf": VERSIONS_TF,
      "main.tf": `resource "tsdb_vpcs" "a" {
  name        = "n"
  cidr        = "10.0.0.0/16"
  region_code = "us-east-1"
  timeouts = {
    create = "10m"
  }
}

resource "tsdb_vpcs" "b" {
  name        = "n"
  cidr        = "10.1.0.0/16"
  region_code = "us-east-1"
  timeouts {
    create = "10m"
  }
}
`,
    });
    const errors = (await validateFiles([dir])).diagnostics.filter((d) => d.severity === "error");
    // Terraform 1.11.4's words, at the argument's name
    expect(errors.map((e) => [e.line, e.column, e.message])).toEqual([[5, 3, 'Unsupported argument: An argument named "timeouts" is not expected here. Did you mean to define a block of type "timeouts"?']]);
  });

  it("a directory named like a configuration file is no file (no crash)", async () => {
    const dir = moduleDir("dir-named-file", { "versions.tf": VERSIONS_TF });
    mkdirSync(join(dir, "x.tf.json"));
    mkdirSync(join(dir, "y.tf"));
    expect((await validateFiles([dir])).diagnostics).toEqual([]);
  });
});
