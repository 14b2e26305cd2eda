# A small configuration with its own tests (`terraform test`, Terraform 1.7+ for mock_provider):
# tests/embedded.tftest.hcl applies it against the embedded platform and destroys it again;
# tests/mocked.tftest.hcl runs it against a mocked tsdb provider, with no platform at all.
terraform {
  required_providers {
    tsdb = { source = "schemaform/tsdb" }
  }
}

variable "project_id" {
  type        = string
  description = "Platform project the service belongs to."
  default     = "tftest-example"
}

variable "max_connections" {
  type        = string
  description = "PostgreSQL max_connections of the service."
  default     = "200"
}

provider "tsdb" {
  project_id = var.project_id
}

resource "tsdb_service" "orders" {
  name        = "tftest-orders-db"
  milli_cpu   = 1000
  memory_gb   = 4
  region_code = "us-east-1"
  parameters  = { max_connections = var.max_connections, statement_timeout = "30s" }
}

output "service_id" {
  value = tsdb_service.orders.id
}

output "endpoint" {
  value = "${tsdb_service.orders.hostname}:${tsdb_service.orders.port}"
}

output "connection_uri" {
  value = provider::tsdb::connection_uri(tsdb_service.orders.hostname, tsdb_service.orders.port, tsdb_service.orders.username, null, "orders")
}
