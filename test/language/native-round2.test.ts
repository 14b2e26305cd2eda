// Classes the second independent native round found (differential round "native2", issue 21),
// each as Terraform 1.11.4 decides it, with the line it shows (probed with terraform validate).
import { describe, expect, it } from "vitest";
import { modulesOnDisk } from "./module-on-disk.js";

const { errors } = modulesOnDisk("native-round2");

const VERSIONS = `terraform {
  required_providers {
    tsdb = {
      source = "schemaform/tsdb"
    }
    containerbackup = {
      source = "schemaform/containerbackup"
    }
  }
}
`;

describe("type constraints with comments", () => {
  it("read a multi-line object type with comments between its attributes", async () => {
    const variables = `variable "services" {
  type = map(object({
    size     = optional(string, "small") # t-shirt size
    // more later
    replicas = optional(number, 0) /* none by default */
  }))
  default = {}
}
`;
    expect(await errors({ "versions.tf": VERSIONS, "variables.tf": variables })).toEqual([]);
  });
});

describe("an optional attribute's default that does not fit", () => {
  it("is shown at the default, on its own line of the type", async () => {
    const variables = `variable "limits" {
  type = object({
    max = optional(number, "many")
  })
  default = {}
}
`;
    expect(await errors({ "versions.tf": VERSIONS, "variables.tf": variables })).toEqual([
      "variables.tf:3: Invalid default value for optional attribute: This default value is not compatible with the attribute's type constraint: a number is required.",
    ]);
  });
});

describe("a provider's finding about a map key", () => {
  it("is shown at the key in a written-out object, at the value when the map is another expression", async () => {
    const main = `resource "tsdb_service" "one_line" {
  parameters = { max_conections = "100" }
}

resource "tsdb_service" "multi_line" {
  parameters = {
    max_connections = "100"

    work_mem = "lots"
  }
}

locals {
  upper = { "UPPER" = "x" }
}

resource "containerbackup_restore_channel" "from_local" {
  location            = "europe-west3"
  destination_project = "projects/acme-restore"
  labels              = local.upper
}
`;
    const found = await errors({ "versions.tf": VERSIONS, "main.tf": main });
    expect(found.map((e) => e.slice(0, e.indexOf(": ")))).toEqual(["main.tf:2", "main.tf:9", "main.tf:20"]);
  });

  it("knows the keys merge() makes of known maps", async () => {
    const main = `locals {
  common = { team = "data" }
}

resource "containerbackup_restore_channel" "merged" {
  location            = "europe-west3"
  destination_project = "projects/acme-restore"
  labels              = merge(local.common, { "Q" = "x" }, null)
}
`;
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": main })).toEqual([expect.stringMatching(/^main\.tf:8: labels key "Q" must start with a lowercase letter/)]);
  });
});

describe("a heredoc whose interpolation is not closed before its marker", () => {
  it("reads the marker as part of the expression, as HCL's scanner does: extra characters at the marker", async () => {
    const main = `locals {
  text = <<EOT
broken \${upper("x")
EOT
}
`;
    expect(await errors({ "main.tf": main })).toEqual(["main.tf:4: Extra characters after interpolation expression: Expected a closing brace to end the interpolation expression, but found extra characters."]);
  });
});

describe("ignore_changes in a native file", () => {
  it('takes the keyword all, never the quoted string "all" (a keyword only in the JSON syntax)', async () => {
    const resource = (value: string) => `resource "tsdb_vpcs" "a" {
  cidr        = "10.0.0.0/16"
  region_code = "us-east-1"

  lifecycle {
    ignore_changes = ${value}
  }
}
`;
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": resource("all") })).toEqual([]);
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": resource(`"all"`) })).toEqual(["main.tf:6: Invalid expression: A static list expression is required."]);
  });
});

describe("an output of a module called with for_each, without an instance key", () => {
  const child = `variable "n" {
  type    = number
  default = 1
}

output "id" {
  value = 5
}
`;
  const root = (use: string) => `variable "regions" {
  type    = set(string)
  default = ["a"]
}

module "fleet" {
  source   = "./modules/child"
  for_each = var.regions
}

${use}
`;

  it("is an instance (an object) where a number or a string goes", async () => {
    expect(await errors({ "versions.tf": VERSIONS, "modules/child/main.tf": child, "main.tf": root(`resource "tsdb_service" "a" {\n  ha_replicas = module.fleet.id\n}`) })).toEqual([
      `main.tf:12: Incorrect attribute value type: Inappropriate value for attribute "ha_replicas": number required.`,
    ]);
    expect(await errors({ "versions.tf": VERSIONS, "modules/child/main.tf": child, "main.tf": root(`module "user" {\n  source = "./modules/child"\n  n      = module.fleet.id\n}`) })).toEqual([
      expect.stringMatching(/^main\.tf:13: Invalid value for input variable: The given value is not suitable for module\.user\.var\.n declared at .*: number required\.$/),
    ]);
  });

  it("is fine where any value goes, and with its key", async () => {
    const uses = `output "all" {\n  value = module.fleet.id\n}\n\nresource "tsdb_service" "a" {\n  ha_replicas = module.fleet["a"].id\n}`;
    expect(await errors({ "versions.tf": VERSIONS, "modules/child/main.tf": child, "main.tf": root(uses) })).toEqual([]);
  });
});

describe("providers Terraform cannot install", () => {
  it("a child module of native files that uses our types without declaring their source", async () => {
    const child = `resource "tsdb_vpcs" "this" {\n  cidr        = "10.0.0.0/16"\n  region_code = "us-east-1"\n}\n`;
    const found = await errors({ "versions.tf": VERSIONS, "main.tf": `module "net" {\n  source = "./modules/net"\n}\n`, "modules/net/main.tf": child });
    expect(found).toEqual([expect.stringMatching(/^modules\/net\/main\.tf:1: Failed to query available provider packages: .*hashicorp\/tsdb/)]);
  });

  it("a provider name one letter from ours: hashicorp/<name> does not exist", async () => {
    const found = await errors({ "versions.tf": VERSIONS, "main.tf": `provider "tsdbx" {\n}\n` });
    expect(found).toEqual([expect.stringMatching(/^main\.tf:1: Failed to query available provider packages: .*hashicorp\/tsdbx.*Did you mean "tsdb"\?$/)]);
  });

  it("leaves other providers alone", async () => {
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": `provider "random" {\n}\n` })).toEqual([]);
  });
});

describe("probed beside round native2", () => {
  const aliasing = `terraform {
  required_providers {
    tsdb = {
      source                = "schemaform/tsdb"
      configuration_aliases = [tsdb.peer]
    }
  }
}

resource "tsdb_vpcs" "a" {
  provider    = tsdb.peer
  cidr        = "10.0.0.0/16"
  region_code = "us-east-1"
}
`;

  it("reads configuration_aliases and a providers map keyed by an alias as references, as Terraform does", async () => {
    const main = `provider "tsdb" {\n  alias = "p"\n}\n\nmodule "m" {\n  source = "./m"\n  providers = {\n    tsdb.peer = tsdb.p\n  }\n}\n`;
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": main, "m/main.tf": aliasing })).toEqual([]);
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": `module "m" {\n  source = "./m"\n}\n`, "m/main.tf": aliasing })).toEqual([
      expect.stringMatching(/^main\.tf:1: Missing required provider configuration/),
    ]);
  });

  it("refuses join() of something that is not a list", async () => {
    expect(await errors({ "main.tf": `locals {\n  b = join(",", "abc")\n}\n` })).toEqual([`main.tf:2: Invalid function argument: Invalid value for "lists" parameter: list of string required.`]);
  });

  it("refuses an attribute of a list of objects, and a string key that is no number into a list", async () => {
    const main = (ref: string) => `data "tsdb_vpcs" "all" {}\n\noutput "p" {\n  value = ${ref}\n}\n`;
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": main(`data.tsdb_vpcs.all.vpcs.cidr`) })).toEqual([
      `main.tf:4: Unsupported attribute: Can't access attributes on a list of objects. Did you mean to access attribute "cidr" for a specific element of the list, or across all elements of the list?`,
    ]);
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": main(`data.tsdb_vpcs.all.vpcs["first"].cidr`) })).toEqual([
      "main.tf:4: Invalid index: The given key does not identify an element in this collection value: a number is required.",
    ]);
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": main(`data.tsdb_vpcs.all.vpcs["0"].cidr`) })).toEqual([]);
  });

  it("refuses null for a required variable declared nullable = false", async () => {
    const child = `variable "size" {\n  type     = number\n  nullable = false\n}\n`;
    expect(await errors({ "main.tf": `module "m" {\n  source = "./m"\n  size   = null\n}\n`, "m/main.tf": child })).toEqual([
      expect.stringMatching(/^main\.tf:3: Required variable not set: The given value is not suitable for module\.m\.var\.size defined at .*: required variable may not be set to null\.$/),
    ]);
    expect(await errors({ "main.tf": `module "m" {\n  source = "./m"\n  size   = null\n}\n`, "m/main.tf": child.replace("nullable = false", "nullable = false\n  default  = 1") })).toEqual([]);
  });

  it("refuses a run block whose name is not an identifier", async () => {
    expect(await errors({ "main.tf": `output "o" {\n  value = 1\n}\n`, "tests/a.tftest.hcl": `run "1x" {\n  command = plan\n}\n` })).toEqual([
      "tests/a.tftest.hcl:1: Invalid run block name: A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.",
    ]);
  });
});

describe("probed beside round native2: references validate types", () => {
  it("refuses depends_on naming a module call that is not declared", async () => {
    const main = `resource "tsdb_vpcs" "a" {\n  cidr        = "10.0.0.0/16"\n  region_code = "us-east-1"\n  depends_on  = [module.nope]\n}\n`;
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": main })).toEqual([expect.stringMatching(/^main\.tf:4: Reference to undeclared module: No module call named "nope" is declared in the root module\./)]);
  });

  it("refuses a count given a variable whose declared type is no number", async () => {
    const main = (type: string) => `variable "n" {\n  type    = ${type}\n  default = null\n}\n\nresource "tsdb_vpcs" "a" {\n  count       = var.n\n  cidr        = "10.0.0.0/16"\n  region_code = "us-east-1"\n}\n`;
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": main("list(string)") })).toEqual(["main.tf:7: Incorrect value type: Invalid expression value: number required."]);
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": main("bool") })).toEqual(["main.tf:7: Incorrect value type: Invalid expression value: number required."]);
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": main("string") })).toEqual([]);
  });
});

describe("probed beside round native2: unknown values of known types", () => {
  const service = (argument: string) => `variable "csv" {\n  type    = string\n  default = "a,b"\n}\n\nresource "tsdb_service" "s" {\n  count = 2\n  ${argument}\n}\n`;

  it("refuses a function's result whose declared type cannot convert to the argument's", async () => {
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": service(`name = split(",", var.csv)`) })).toEqual([`main.tf:8: Incorrect attribute value type: Inappropriate value for attribute "name": string required.`]);
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": service(`paused = length(var.csv)`) })).toEqual([`main.tf:8: Incorrect attribute value type: Inappropriate value for attribute "paused": bool required.`]);
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": service(`name = upper(var.csv)`) })).toEqual([]);
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": service(`ha_replicas = lookup({}, var.csv, 0)`) })).toEqual([]);
  });

  it("knows count.index is a number", async () => {
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": service(`paused = count.index`) })).toEqual([`main.tf:8: Incorrect attribute value type: Inappropriate value for attribute "paused": bool required.`]);
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": service(`name = count.index`) })).toEqual([]);
  });

  it("refuses a run block's local module that is not there (terraform init reads it)", async () => {
    const test = (dir: string) => `run "setup" {\n  module {\n    source = "./tests/${dir}"\n  }\n}\n`;
    const files = { "main.tf": `output "o" {\n  value = 1\n}\n`, "tests/helper/main.tf": `output "p" {\n  value = 2\n}\n` };
    expect(await errors({ ...files, "tests/a.tftest.hcl": test("helper") })).toEqual([]);
    expect(await errors({ ...files, "tests/a.tftest.hcl": test("nope") })).toEqual([
      "tests/a.tftest.hcl:3: Unreadable module directory: Unable to evaluate directory symlink: lstat tests/nope: no such file or directory",
    ]);
  });
});

describe("probed beside round native2: an object variable given to a nested attribute", () => {
  it("lacks the nested attribute's required attributes: cty's 'attributes … are required'", async () => {
    const main = (type: string) => `variable "cm" {\n  type = ${type}\n}\n\nresource "tsdb_log_exporter" "l" {\n  region   = "us-east-1"\n  cloudmon = var.cm\n}\n`;
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": main(`object({ region = string })`) })).toEqual([
      `main.tf:7: Incorrect attribute value type: Inappropriate value for attribute "cloudmon": attributes "log_group_name" and "log_stream_name" are required.`,
    ]);
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": main(`object({ region = string, log_group_name = string, log_stream_name = string, role_arn = optional(string) })`) })).toEqual([]);
  });
});

describe("probed beside round native2: heredocs after an operator, newlines in a conditional", () => {
  it("reads a heredoc that ends the expression after an operator", async () => {
    expect(await errors({ "main.tf": `locals {\n  t = true ? "a" : <<EOT\nb\nEOT\n}\n` })).toEqual([]);
    expect(await errors({ "main.tf": `locals {\n  t = 1 + <<EOT\n2\nEOT\n}\n` })).toEqual(["main.tf:2: Invalid operand: Unsuitable value for right operand: a number is required."]);
  });

  it("ends a conditional at a newline before its colon (outside brackets)", async () => {
    expect(await errors({ "main.tf": `locals {\n  t = true ? <<EOT\na\nEOT\n  : "b"\n}\n` })).toEqual([
      "main.tf:4: Missing false expression in conditional: The conditional operator (...?...:...) requires a false expression, delimited by a colon.",
    ]);
    expect(await errors({ "main.tf": `locals {\n  t = (true ? 1\n  : 2)\n}\n` })).toEqual([]);
  });

  it("knows toset() of a tuple holding a sensitive value is sensitive as a whole (no for_each over it)", async () => {
    const main = (set: string) => `variable "s" {\n  type      = string\n  sensitive = true\n  default   = "x"\n}\n\nresource "tsdb_service" "a" {\n  for_each = ${set}\n}\n`;
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": main(`toset(["a", var.s])`) })).toEqual([expect.stringMatching(/^main\.tf:8: Invalid for_each argument: Sensitive values/)]);
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": main(`{ a = var.s }`) })).toEqual([]);
  });
});

describe("probed beside round native2: provider blocks", () => {
  it("refuse the arguments Terraform reserves (count, for_each, depends_on, source) and a lifecycle block", async () => {
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": `provider "tsdb" {\n  count = 1\n}\n` })).toEqual([
      `main.tf:2: Reserved argument name in provider block: The provider argument name "count" is reserved for use by Terraform in a future version.`,
    ]);
    expect(await errors({ "versions.tf": VERSIONS, "main.tf": `provider "tsdb" {\n  lifecycle {}\n}\n` })).toEqual([
      `main.tf:2: Reserved block type name in provider block: The block type name "lifecycle" is reserved for use by Terraform in a future version.`,
    ]);
  });
});
