// The known leftovers of issue 21, each as Terraform 1.11.4 decides it (checked with terraform
// validate; the differential corpus records the same on whole modules in native-mutations.mjs).
import { describe, expect, it } from "vitest";
import { modulesOnDisk } from "./module-on-disk.js";

const { errors } = modulesOnDisk("tail");

const TERRAFORM = `terraform {
  required_providers {
    tsdb = {
      source = "schemaform/tsdb"
    }
  }
}

provider "tsdb" {
  alias = "east"
}
`;

const importing = (resourceProvider: string | null, importProvider: string) => `${TERRAFORM}
resource "tsdb_vpcs" "main" {
  cidr        = "10.0.0.0/16"
  region_code = "us-east-1"${resourceProvider === null ? "" : `\n  provider    = ${resourceProvider}`}
}

import {
  to       = tsdb_vpcs.main
  id       = "4242"
  provider = ${importProvider}
}
`;

describe("an import block's provider when its target resource is in the configuration", () => {
  it("is refused when the resource has no provider argument, even one naming the implied default", async () => {
    expect(await errors({ "main.tf": importing(null, "tsdb") })).toEqual(["main.tf:21: Invalid import provider argument: The provider argument can only be specified in import blocks that will generate configuration. Use the provider argument in the target resource block to configure the provider for a resource with explicit provider configuration."]);
  });

  it("is refused when it differs from the resource's", async () => {
    expect(await errors({ "main.tf": importing("tsdb.east", "tsdb") })).toEqual([expect.stringContaining("main.tf:22: Invalid import provider argument")]);
  });

  it("is accepted when it repeats the resource's, spaces around the dot included", async () => {
    expect(await errors({ "main.tf": importing("tsdb . east", "tsdb.east") })).toEqual([]);
  });
});

const CHILD_WITH_SYNTAX_ERROR = `variable "cidr" { type = string
}
`;

describe("a native file that stops at a syntax error", () => {
  it("still has the modules it calls after an argument's bad value loaded, as Terraform's init does", async () => {
    const files = {
      "main.tf": `locals {\n  t = "\\udc00x"\n}\n\nmodule "net" {\n  source = "./modules/net"\n}\n`,
      "modules/net/main.tf": CHILD_WITH_SYNTAX_ERROR,
    };
    expect(await errors(files)).toEqual([
      expect.stringMatching(/^main\.tf:2: Invalid escape sequence/),
      expect.stringMatching(/^modules\/net\/main\.tf:1: Invalid single-argument block definition/),
    ]);
  });

  it("does not call a module whose block HCL's recovery reads as part of the broken block", async () => {
    const files = {
      "main.tf": `locals {\n  t = (4\n}\n\nmodule "net" {\n  source = "./modules/net"\n}\n`,
      "modules/net/main.tf": CHILD_WITH_SYNTAX_ERROR,
    };
    expect(await errors(files)).toEqual([expect.stringMatching(/^main\.tf:3: Unbalanced parentheses/)]);
  });
});
