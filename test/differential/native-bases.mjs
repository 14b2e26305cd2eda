// Hand-written native modules that the native mutations (native-mutations.mjs) change: one file,
// several files, a local module, and a module half in JSON. Written for the corpus in the way
// people write Terraform (terraform fmt's layout), each valid as written.

const TERRAFORM = `terraform {
  required_version = ">= 1.10"
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

const PROVIDERS = `provider "tsdb" {
  project_id = "proj-1"
}

provider "tsdb" {
  alias      = "east"
  project_id = "proj-east"
}

provider "containerbackup" {
  project = "my-project"
  default_labels = {
    team = "data"
  }
}
`;

const VARIABLES = `variable "name_prefix" {
  type        = string
  default     = "demo"
  description = "Prefix of every name."

  validation {
    condition     = length(var.name_prefix) > 0
    error_message = "The prefix must not be empty."
  }
}

variable "regions" {
  type = map(string)
  default = {
    a = "us-east-1"
    b = "eu-west-1"
  }
}

variable "secret" {
  type      = string
  sensitive = true
  default   = "s3cr3t-value"
}
`;

const LOCALS = `locals {
  prefix = "\${var.name_prefix}-\${terraform.workspace}"
  tags   = { team = "data", env = "dev" }
  sizes  = [500, 1000, 2000]
}
`;

const RESOURCES = `resource "tsdb_vpcs" "main" {
  cidr        = "10.0.0.0/16"
  region_code = "us-east-1"
  name        = "\${local.prefix}-vpc"

  timeouts {
    create = "10m"
  }
}

resource "tsdb_service" "db" {
  name        = "\${local.prefix}-db"
  milli_cpu   = local.sizes[1]
  memory_gb   = 4
  region_code = "us-east-1"
  vpc_id      = tsdb_vpcs.main.vpcs_id

  lifecycle {
    ignore_changes        = [name]
    create_before_destroy = true
  }
}

resource "tsdb_vpcs" "regional" {
  for_each    = var.regions
  cidr        = "10.210.0.0/16"
  region_code = each.value
  name        = "vpc-\${each.key}"
}

resource "containerbackup_restore_channel" "channel" {
  destination_project = "projects/restore-target"
  location            = "us-central1"
  description         = "Restores for \${var.name_prefix}"
  labels = {
    team = "data"
  }
}

resource "tsdb_log_exporter" "logs" {
  region = "us-east-1"
  cloudmon = {
    region          = "us-east-1"
    log_group_name  = "/tsdb/\${var.name_prefix}"
    log_stream_name = "postgres"
    role_arn        = "arn:aws:iam::123456789012:role/logs"
  }
}
`;

const OUTPUTS = `output "db_hostname" {
  value       = tsdb_service.db.hostname
  description = "Where to connect."
}

output "vpc_ids" {
  value = [for k, v in tsdb_vpcs.regional : v.vpcs_id]
}
`;

const MODULE_MAIN = `terraform {
  required_providers {
    tsdb = {
      source = "schemaform/tsdb"
    }
  }
}

variable "cidr" {
  type        = string
  description = "The VPC's CIDR block."
}

variable "region" {
  type    = string
  default = "us-east-1"
}

resource "tsdb_vpcs" "this" {
  cidr        = var.cidr
  region_code = var.region
}

output "vpc_id" {
  value = tsdb_vpcs.this.vpcs_id
}
`;

const MODULE_CALL = `module "net" {
  source = "./modules/net"
  cidr   = "10.250.0.0/16"
  providers = {
    tsdb = tsdb.east
  }
}

output "net_vpc_id" {
  value = module.net.vpc_id
}
`;

/** the JSON half of the mixed base: what a code generator would write beside hand-written files */
const GENERATED_JSON = `{
  "resource": {
    "tsdb_service": {
      "generated": {
        "name": "\${local.prefix}-generated",
        "milli_cpu": 500,
        "memory_gb": 2,
        "region_code": "us-east-1",
        "vpc_id": "\${tsdb_vpcs.main.vpcs_id}"
      }
    }
  },
  "output": {
    "generated_host": { "value": "\${tsdb_service.generated.hostname}" }
  }
}
`;

export const NATIVE_BASES = {
  single: { "main.tf": [TERRAFORM, PROVIDERS, VARIABLES, LOCALS, RESOURCES, OUTPUTS].join("\n") },
  split: {
    "versions.tf": TERRAFORM,
    "providers.tf": PROVIDERS,
    "variables.tf": VARIABLES + "\n" + LOCALS,
    "main.tf": RESOURCES,
    "outputs.tf": OUTPUTS,
  },
  module: {
    "main.tf": [TERRAFORM, PROVIDERS, VARIABLES, LOCALS, RESOURCES].join("\n"),
    "calls.tf": MODULE_CALL,
    "modules/net/main.tf": MODULE_MAIN,
  },
  mixed: {
    "versions.tf": TERRAFORM + "\n" + PROVIDERS,
    "main.tf": VARIABLES + "\n" + LOCALS + "\n" + RESOURCES,
    "generated.tf.json": GENERATED_JSON,
    "outputs.tf": OUTPUTS,
  },
};
