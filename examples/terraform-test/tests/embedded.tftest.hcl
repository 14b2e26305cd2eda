# Applies main.tf against the embedded platform (SCHEMAFORM_DATA_DIR, or the per-user data
# directory), checks what the platform reports, and lets `terraform test` destroy it at the end.

run "create_service" {
  command = apply

  assert {
    condition     = length(tsdb_service.orders.id) == 10
    error_message = "The service id should be the platform's 10-character id."
  }

  assert {
    condition     = tsdb_service.orders.parameters["max_connections"] == "200"
    error_message = "max_connections should be applied as configured."
  }

  assert {
    condition     = startswith(output.connection_uri, "postgres://tsdbadmin@${tsdb_service.orders.hostname}:")
    error_message = "The connection URI should name the service's endpoint and user."
  }
}

run "change_a_parameter_in_place" {
  command = apply

  variables {
    max_connections = "300"
  }

  assert {
    condition     = output.service_id == run.create_service.service_id
    error_message = "Changing a database parameter should update the service in place, not replace it."
  }

  assert {
    condition     = tsdb_service.orders.parameters["max_connections"] == "300"
    error_message = "max_connections should be updated."
  }
}
