# Runs main.tf against a mocked tsdb provider: no platform, nothing created. The provider's own
# validation still runs (an unknown database parameter or a bad size fails as it would for real);
# only the computed values come from the mock.

mock_provider "tsdb" {
  mock_resource "tsdb_service" {
    defaults = {
      id       = "mock000001"
      hostname = "mock000001.tftest-example.tsdb.cloud.example.com"
      port     = 35432
      username = "tsdbadmin"
    }
  }
}

run "plan_with_mocked_values" {
  command = apply

  assert {
    condition     = output.endpoint == "mock000001.tftest-example.tsdb.cloud.example.com:35432"
    error_message = "The endpoint output should join the service's hostname and port."
  }

  assert {
    condition     = output.connection_uri == "postgres://tsdbadmin@mock000001.tftest-example.tsdb.cloud.example.com:35432/orders?sslmode=require"
    error_message = "The connection URI should be built from the mocked attributes."
  }
}
