// The modules round "native2" starts from (native-round2.mjs changes them): written the way
// teams lay out Terraform, independently of the first native round's bases. Each is valid as
// written (Terraform 1.11.4 is the judge; the recorded verdicts of native2/*/base/* say so).
//
// - app: versions.tf, variables.tf, main.tf, outputs.tf; a map of typed objects with optional
//   attributes fans out to services with for_each;
// - connectors: one main.tf with nested attributes (lists of objects three levels deep);
// - exporters: exporters, an ephemeral credential feeding a write-only argument, a check block;
// - stack: a root that calls two local modules, one of them twice with for_each, beside a
//   generated main.tf.json (what cdktf synth or a script writes);
// - tested: a small module with a tests/ folder of .tftest.hcl files.

const VERSIONS = `terraform {
  required_version = ">= 1.9.0"

  required_providers {
    tsdb = {
      source  = "schemaform/tsdb"
      version = ">= 0.1.0"
    }
    containerbackup = {
      source  = "schemaform/containerbackup"
      version = "~> 0.1"
    }
  }
}

provider "tsdb" {
  project_id = var.project_id
}

provider "containerbackup" {
  project = "acme-backups"
}
`;

const APP_VARIABLES = `variable "project_id" {
  description = "Project the services live in"
  type        = string
  default     = "proj-123"
}

variable "environment" {
  type    = string
  default = "dev"

  validation {
    condition     = contains(["dev", "staging", "prod"], var.environment)
    error_message = "Environment must be dev, staging or prod."
  }
}

variable "services" {
  description = "Services to run, by name"
  type = map(object({
    size     = optional(string, "small")
    replicas = optional(number, 0)
    paused   = optional(bool)
  }))
  default = {
    api  = {}
    jobs = { size = "medium", replicas = 1 }
  }
}

variable "sizes" {
  type = map(object({ cpu = number, memory = number }))
  default = {
    small  = { cpu = 500, memory = 2 }
    medium = { cpu = 1000, memory = 4 }
  }
}
`;

const APP_MAIN = `locals {
  name_prefix = "\${var.project_id}-\${var.environment}"
  common_labels = {
    environment = var.environment
    managed-by  = "terraform"
  }
}

resource "tsdb_vpcs" "network" {
  name        = "\${local.name_prefix}-net"
  cidr        = "10.20.0.0/16"
  region_code = "eu-central-1"
}

resource "tsdb_service" "this" {
  for_each = var.services

  name        = "\${local.name_prefix}-\${each.key}"
  milli_cpu   = var.sizes[each.value.size].cpu
  memory_gb   = var.sizes[each.value.size].memory
  ha_replicas = each.value.replicas
  paused      = each.value.paused
  region_code = tsdb_vpcs.network.region_code
  vpc_id      = tsdb_vpcs.network.vpcs_id

  timeouts {
    create = "30m"
  }
}

resource "containerbackup_restore_channel" "nightly" {
  name                = "nightly-\${var.environment}"
  location            = "europe-west3"
  destination_project = "projects/acme-restore"
  labels              = local.common_labels
}
`;

const APP_OUTPUTS = `output "service_hosts" {
  description = "Hostname of each service"
  value       = { for name, svc in tsdb_service.this : name => svc.hostname }
}

output "vpc_id" {
  value = tsdb_vpcs.network.vpcs_id
}
`;

const CONNECTORS = `terraform {
  required_providers {
    tsdb = {
      source = "schemaform/tsdb"
    }
  }
}

variable "source_url" {
  type      = string
  sensitive = true
  default   = "postgres://replicator@db.internal:5432/app"
}

resource "tsdb_service" "warehouse" {
  name      = "warehouse"
  milli_cpu = 2000
  memory_gb = 8
}

resource "tsdb_connector_src_db" "app" {
  service_id         = tsdb_service.warehouse.id
  display_name       = "App database"
  connection_string  = var.source_url
  table_sync_workers = 8

  tables = [
    {
      schema_name = "public"
      table_name  = "events"
      hypertable_spec = {
        primary_dimension = {
          column_name        = "created_at"
          partition_interval = "1d"
        }
        secondary_dimensions = [
          { hash = { column_name = "tenant_id", number_partitions = 4 } },
        ]
      }
    },
    {
      schema_name = "public"
      table_name  = "accounts"
      table_mapping = {
        schema_name = "replica"
        table_name  = "accounts"
      }
    },
  ]
}

resource "tsdb_connector_obj_store" "landing" {
  service_id = tsdb_service.warehouse.id
  bucket     = "acme-landing"
  pattern    = "exports/*.csv"
  frequency  = "@hourly"

  credentials = {
    type     = "RoleARN"
    role_arn = "arn:aws:iam::123456789012:role/landing-reader"
  }

  definition = {
    type = "CSV"
    csv = {
      delimiter    = ";"
      skip_header  = true
      column_names = ["ts", "tenant_id", "value"]
    }
  }

  table_identifier = {
    table_name = "landing"
  }
}
`;

const EXPORTERS = `terraform {
  required_providers {
    tsdb = {
      source = "schemaform/tsdb"
    }
  }
}

variable "datadog_api_key" {
  type      = string
  sensitive = true
  default   = "0123456789abcdef"
}

variable "admin_password" {
  type      = string
  sensitive = true
  ephemeral = true
  default   = "correct-horse-battery"
}

resource "tsdb_metric_exporter" "datadog" {
  name   = "datadog"
  region = "us-east-1"
  saasmon = {
    api_key = var.datadog_api_key
    site    = "datadoghq.eu"
  }
}

resource "tsdb_log_exporter" "cloudwatch" {
  name   = "cloudwatch"
  region = "us-east-1"
  cloudmon = {
    region          = "us-east-1"
    log_group_name  = "/tsdb/prod"
    log_stream_name = "postgres"
    role_arn        = "arn:aws:iam::123456789012:role/tsdb-logs"
  }
}

resource "tsdb_service" "main" {
  name                = "main"
  metric_exporter_id  = tsdb_metric_exporter.datadog.id
  log_exporter_id     = tsdb_log_exporter.cloudwatch.id
  password_wo         = var.admin_password
  password_wo_version = 1
}

ephemeral "tsdb_service_credentials" "reader" {
  service_id = tsdb_service.main.id
  ttl        = "15m"
}

check "service_reachable" {
  data "tsdb_service" "probe" {
    id = tsdb_service.main.id
  }

  assert {
    condition     = data.tsdb_service.probe.spec.port > 0
    error_message = "The service has no port yet."
  }
}

output "endpoint" {
  value = "\${tsdb_service.main.hostname}:\${tsdb_service.main.port}"
}
`;

const STACK_VERSIONS = `terraform {
  required_providers {
    tsdb = {
      source = "schemaform/tsdb"
    }
  }
}
`;

const STACK_MAIN = `variable "regions" {
  type    = set(string)
  default = ["us-east-1", "eu-west-1"]
}

module "network" {
  source   = "./modules/network"
  for_each = var.regions

  region = each.key
  cidr   = "10.\${index(sort(tolist(var.regions)), each.key)}.0.0/16"
}

module "database" {
  source = "./modules/database"

  name   = "orders"
  vpc_id = module.network["us-east-1"].vpc_id
}

output "database_host" {
  value = module.database.hostname
}
`;

/** what a generator writes beside hand-written .tf files: cdktf-like, with its "//" metadata */
const STACK_GENERATED = `{
  "//": {
    "metadata": {
      "generator": "make-config 2.3",
      "stack": "stack"
    }
  },
  "resource": {
    "tsdb_service": {
      "reporting": {
        "//": { "path": "stack/reporting" },
        "name": "reporting",
        "milli_cpu": 1000,
        "memory_gb": 4,
        "vpc_id": "\${module.network[\\"eu-west-1\\"].vpc_id}"
      }
    }
  },
  "output": {
    "reporting_host": {
      "value": "\${tsdb_service.reporting.hostname}"
    }
  }
}
`;

const NETWORK_MODULE = `terraform {
  required_providers {
    tsdb = {
      source = "schemaform/tsdb"
    }
  }
}

variable "region" {
  type = string
}

variable "cidr" {
  type = string
}

resource "tsdb_vpcs" "this" {
  name        = "net-\${var.region}"
  cidr        = var.cidr
  region_code = var.region
}

output "vpc_id" {
  value = tsdb_vpcs.this.vpcs_id
}
`;

const DATABASE_MODULE = `terraform {
  required_providers {
    tsdb = {
      source = "schemaform/tsdb"
    }
  }
}

variable "name" {
  type = string
}

variable "vpc_id" {
  type    = number
  default = null
}

variable "high_availability" {
  type     = bool
  default  = false
  nullable = false
}

resource "tsdb_service" "this" {
  name        = var.name
  vpc_id      = var.vpc_id
  ha_replicas = var.high_availability ? 2 : 0
}

output "hostname" {
  value = tsdb_service.this.hostname
}
`;

const TESTED_MAIN = `terraform {
  required_providers {
    tsdb = {
      source = "schemaform/tsdb"
    }
  }
}

variable "name" {
  type    = string
  default = "svc"
}

variable "replicas" {
  type    = number
  default = 0

  validation {
    condition     = var.replicas >= 0 && var.replicas <= 2
    error_message = "replicas must be between 0 and 2."
  }
}

resource "tsdb_service" "db" {
  name        = var.name
  ha_replicas = var.replicas
}

output "name" {
  value = tsdb_service.db.name
}
`;

const TESTED_TEST = `variables {
  name = "unit"
}

run "defaults" {
  command = plan

  assert {
    condition     = tsdb_service.db.name == "unit"
    error_message = "The name is not passed through."
  }
}

run "too_many_replicas" {
  command = plan

  variables {
    replicas = 3
  }

  expect_failures = [
    var.replicas,
  ]
}
`;

export const ROUND2_BASES = {
  app: { "versions.tf": VERSIONS, "variables.tf": APP_VARIABLES, "main.tf": APP_MAIN, "outputs.tf": APP_OUTPUTS },
  connectors: { "main.tf": CONNECTORS },
  exporters: { "main.tf": EXPORTERS },
  stack: {
    "versions.tf": STACK_VERSIONS,
    "main.tf": STACK_MAIN,
    "main.tf.json": STACK_GENERATED,
    "modules/network/main.tf": NETWORK_MODULE,
    "modules/database/main.tf": DATABASE_MODULE,
  },
  tested: { "main.tf": TESTED_MAIN, "tests/service.tftest.hcl": TESTED_TEST },
};
