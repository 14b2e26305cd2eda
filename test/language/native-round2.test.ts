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
