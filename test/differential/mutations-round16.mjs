// Sixteenth round (independent): kinds written from the Terraform language as documented, the HCL
// JSON specification, CDKTF's synthesized output and our provider schemas, without looking at the
// checker, aimed at what an outside corpus generator most likely produced: whole stacks as
// `cdktf synth` writes them with our constructs (a "//" metadata object at the top and in every
// resource and data source, providers as arrays, a local backend, terraform_remote_state, tokens
// rendered as "${toset(var.x)}", "${lookup(...)}", "${element(...)}", "${jsonencode(...)}"),
// iterators (for_each and dynamic blocks over each.value), addOverride results (wrong types,
// "//" junk, null), lifecycle settings with attribute paths, outputs and variables as
// TerraformOutput/TerraformVariable write them, leaked tokens, numbers and booleans as strings,
// and each rule of our schemas (types, shapes, enums, ranges, patterns, conflicts, required-
// together) reached through values a stack computes. About half are shapes Terraform accepts.
// Each is a model mutation (round 16) appended after round 15.
import { addBlock, db, rootOf, vpc } from "./mutations.mjs";

export const ROUND = 16;
const M = [];
const def = (cat, name, apply) => M.push({ cat, name: `r16-${name}`, apply, round: ROUND });

const REGIONS = ["us-east-1", "eu-west-1", "us-west-2", "ap-south-1"];
const SIZES = [
  [1000, 4],
  [2000, 8],
  [4000, 16],
];
const meta = (id) => ({ metadata: { path: `stack16/${id}`, uniqueId: id } });

// ---- a whole stack as `cdktf synth` writes it ----
/** cdk.tf.json of a stack built with our constructs; `r` varies names and sizes, never the verdict. */
function cdkStack(r) {
  const region = r.pick(REGIONS);
  const [cpu, mem] = r.pick(SIZES);
  return {
    "//": { metadata: { backend: "local", stackName: "stack16", version: "0.21.0" }, outputs: { stack16: { db_host: "db_host", regions_out: "regions_out" } } },
    data: {
      terraform_remote_state: { shared: { backend: "local", config: { path: "../shared/terraform.tfstate" } } },
      tsdb_vpcs: { all: { "//": meta("all") } },
    },
    locals: {
      cfg: { net: { cidr: "10.16.0.0/16", tags: ["a", "b"] }, size: { cpu, mem } },
      first_region: "${element(var.regions, 0)}",
    },
    output: {
      db_host: { value: "${tsdb_service.db.hostname}" },
      regions_out: { value: "${toset(var.regions)}" },
    },
    provider: {
      containerbackup: [{ project: "my-project" }],
      tsdb: [{ project_id: "stack-project" }, { alias: "east", project_id: "stack-east" }],
    },
    resource: {
      tsdb_vpcs: {
        net: {
          "//": meta("net"),
          cidr: "${local.cfg.net.cidr}",
          for_each: "${toset(var.regions)}",
          name: "net-${each.key}",
          provider: "tsdb.east",
          region_code: "${each.value}",
        },
      },
      tsdb_service: {
        db: {
          "//": meta("db"),
          depends_on: ["tsdb_vpcs.net"],
          memory_gb: "${local.cfg.size.mem}",
          milli_cpu: "${local.cfg.size.cpu}",
          name: '${lookup(var.names, "db", "db16")}',
          region_code: region,
        },
      },
      containerbackup_restore_channel: {
        ch: {
          "//": meta("ch"),
          description: '${jsonencode({"stack" = "stack16"})}',
          destination_project: "projects/restore-target",
          labels: { team: "data" },
          location: "us-central1",
        },
      },
    },
    terraform: {
      backend: { local: { path: "terraform.stack16.tfstate" } },
      required_providers: {
        containerbackup: { source: "schemaform/containerbackup", version: "0.1.0" },
        tsdb: { source: "schemaform/tsdb", version: "0.1.0" },
      },
    },
    variable: {
      names: { default: { db: "db16" }, type: "map(string)" },
      regions: {
        default: [region],
        nullable: false,
        type: "list(string)",
        validation: [{ condition: "${length(var.regions) > 0}", error_message: "At least one region." }],
      },
    },
  };
}
/** A stack case: the model's files become one cdk.tf.json, changed by `change`. */
const stack = (cat, name, change) =>
  def(cat, name, (m, r) => {
    const s = cdkStack(r);
    change(s, r);
    m.files = { "cdk.tf.json": s };
    m.modules = {};
  });
const res = (s, type, name) => s.resource[type][name];
const addRes = (s, type, name, body) => void ((s.resource[type] ??= {})[name] = { "//": meta(name), ...body });
const addData = (s, type, name, body) => void ((s.data[type] ??= {})[name] = { "//": meta(name), ...body });
const stackLocal = (s, key, value) => void (s.locals[key] = value);

stack("cdktf-stack", "stack-valid", () => {});
stack("cdktf-stack", "remote-state-output-attribute", (s) => void (s.output.shared_vpc = { value: "${data.terraform_remote_state.shared.outputs.vpc_id}" }));
stack("cdktf-stack", "remote-state-defaults-and-workspace", (s) =>
  void Object.assign(s.data.terraform_remote_state.shared, { defaults: { vpc_id: 7 }, workspace: "${terraform.workspace}" }));
stack("cdktf-stack", "remote-state-unknown-backend", (s) => void (s.data.terraform_remote_state.shared.backend = "nope"));
stack("cdktf-stack", "remote-state-config-misspelled", (s) => void (s.data.terraform_remote_state.shared.config = { paht: "../shared/terraform.tfstate" }));
stack("cdktf-stack", "remote-state-without-backend", (s) => void delete s.data.terraform_remote_state.shared.backend);
stack("cdktf-stack", "remote-state-config-comment-key", (s) => void (s.data.terraform_remote_state.shared.config["//"] = "shared state"));
stack("cdktf-stack", "backend-s3-strings", (s) =>
  void (s.terraform.backend = { s3: { bucket: "state-bucket", key: "stack16/terraform.tfstate", region: "us-east-1", encrypt: true } }));
stack("cdktf-stack", "dynamic-timeouts-from-iterator", (s) =>
  void (res(s, "tsdb_service", "db").dynamic = { timeouts: { for_each: '${toset(["30m"])}', iterator: "t", content: { create: "${t.value}", delete: "10m" } } }));
stack("cdktf-stack", "dynamic-label-level-comment", (s) =>
  void (res(s, "tsdb_service", "db").dynamic = { "//": "rendered by an iterator", timeouts: { for_each: '${toset(["30m"])}', content: { create: "${timeouts.value}" } } }));
stack("cdktf-stack", "dynamic-iterator-named-each", (s) =>
  void (res(s, "tsdb_vpcs", "net").dynamic = { timeouts: { for_each: '${toset(["10m"])}', iterator: "each", content: { create: "${each.value}" } } }));
stack("cdktf-stack", "each-value-in-nested-attribute", (s) => {
  s.variable.tables = { type: "map(object({ schema = string }))", default: { orders: { schema: "public" }, events: { schema: "raw" } } };
  addRes(s, "tsdb_connector_src_db", "src", {
    for_each: "${var.tables}",
    service_id: "${tsdb_service.db.id}",
    display_name: "sync-${each.key}",
    connection_string: "postgres://replicator@db.example.com:5432/app",
    tables: [{ schema_name: "${each.value.schema}", table_name: "${each.key}" }],
  });
});
stack("cdktf-stack", "leaked-token-string", (s) => void (res(s, "tsdb_service", "db").name = "${TfToken[TOKEN.12]}"));
stack("cdktf-stack", "leaked-number-token", (s) => void (res(s, "tsdb_service", "db").ha_replicas = -1.8881545897087626e289));
stack("cdktf-stack", "leaked-number-token-count", (s) => void (res(s, "tsdb_service", "db").count = -1.8881545897087626e289));
stack("cdktf-stack", "leaked-list-token", (s) => void (res(s, "tsdb_vpcs", "net").for_each = ["#{TfToken[TOKEN.4]}"]));
stack("cdktf-stack", "jsonencode-number-into-cpu", (s) => Object.assign(res(s, "tsdb_service", "db"), { milli_cpu: "${jsonencode(1000)}", memory_gb: "${jsonencode(4)}" }));
stack("cdktf-stack", "jsonencode-number-into-cpu-off-enum", (s) => Object.assign(res(s, "tsdb_service", "db"), { milli_cpu: "${jsonencode(1001)}", memory_gb: 4 }));
stack("cdktf-stack", "lookup-without-default-missing-key", (s) => void (res(s, "tsdb_service", "db").name = '${lookup(var.names, "replica")}'));
stack("cdktf-stack", "element-wraps-around", (s) => void (s.locals.first_region = "${element(var.regions, 5)}"));
stack("cdktf-stack", "local-nested-index-out-of-range", (s) => void (res(s, "tsdb_vpcs", "net").name = "${local.cfg.net.tags[5]}"));
stack("cdktf-stack", "output-precondition", (s) =>
  void (s.output.db_host.precondition = [{ condition: '${tsdb_service.db.hostname != ""}', error_message: "The service has no hostname yet." }]));
stack("cdktf-stack", "output-precondition-self", (s) => void (s.output.db_host.precondition = [{ condition: '${self.value != ""}', error_message: "Empty." }]));

// ---- addOverride results ----
stack("cdktf-overrides", "override-replicas-word", (s) => void (res(s, "tsdb_service", "db").ha_replicas = "two"));
stack("cdktf-overrides", "override-required-null", (s) => void (res(s, "containerbackup_restore_channel", "ch").location = null));
stack("cdktf-overrides", "override-comment-in-timeouts", (s) => void (res(s, "tsdb_service", "db").timeouts = { "//": "from addOverride", create: "30m" }));
stack("cdktf-overrides", "override-prevent-destroy-string", (s) => void (res(s, "tsdb_service", "db").lifecycle = { prevent_destroy: "true" }));
stack("cdktf-overrides", "override-create-before-destroy-variable", (s) => {
  s.variable.cbd = { type: "bool", default: true };
  res(s, "tsdb_service", "db").lifecycle = { create_before_destroy: "${var.cbd}" };
});
stack("cdktf-overrides", "override-depends-on-string", (s) => void (res(s, "tsdb_service", "db").depends_on = "tsdb_vpcs.net"));
stack("cdktf-overrides", "override-labels-list", (s) => void (res(s, "containerbackup_restore_channel", "ch").labels = ["team=data"]));
stack("cdktf-overrides", "override-provider-on-data-alias", (s) => void (s.data.tsdb_vpcs.all.provider = "tsdb.east"));

// ---- lifecycle as CDKTF writes it ----
stack("cdktf-lifecycle", "ignore-changes-nested-path", (s) => {
  addRes(s, "tsdb_connector_src_db", "src", {
    service_id: "${tsdb_service.db.id}",
    display_name: "sync",
    connection_string: "postgres://replicator@db.example.com:5432/app",
    tables: [{ schema_name: "public", table_name: "orders" }],
    lifecycle: { ignore_changes: ["tables[0].table_name", "ssh_tunnel.port"] },
  });
});
stack("cdktf-lifecycle", "ignore-changes-all-string", (s) => void (res(s, "tsdb_service", "db").lifecycle = { ignore_changes: "all" }));
stack("cdktf-lifecycle", "ignore-changes-all-in-list", (s) => void (res(s, "tsdb_service", "db").lifecycle = { ignore_changes: ["all"] }));
stack("cdktf-lifecycle", "ignore-changes-nested-unknown-attribute", (s) =>
  void addRes(s, "tsdb_log_exporter", "logs", {
    region: "us-east-1",
    cloudmon: { region: "us-east-1", log_group_name: "/tsdb", log_stream_name: "pg", role_arn: "arn:aws:iam::123456789012:role/logs" },
    lifecycle: { ignore_changes: ["cloudmon.role"] },
  }));
stack("cdktf-lifecycle", "replace-triggered-by-each-key", (s) => {
  addRes(s, "terraform_data", "rev", { for_each: "${toset(var.regions)}", input: "${each.value}" });
  res(s, "tsdb_vpcs", "net").lifecycle = { replace_triggered_by: ["terraform_data.rev[each.key]"] };
});
stack("cdktf-lifecycle", "replace-triggered-by-variable", (s) => void (res(s, "tsdb_service", "db").lifecycle = { replace_triggered_by: ["var.regions"] }));
stack("cdktf-lifecycle", "precondition-each-and-local", (s) =>
  void (res(s, "tsdb_vpcs", "net").lifecycle = {
    create_before_destroy: true,
    precondition: [{ condition: '${contains(var.regions, each.value)}', error_message: "Region ${each.key} is not listed." }],
    postcondition: [{ condition: "${self.region_code == each.value}", error_message: "Wrong region." }],
  }));

// ---- TerraformVariable and TerraformOutput ----
stack("cdktf-variables", "variable-ephemeral-into-output", (s) => {
  s.variable.token = { type: "string", ephemeral: true, sensitive: true, default: "tok-0123456789" };
  s.output.token = { value: "${var.token}", sensitive: true };
});
stack("cdktf-variables", "variable-ephemeral-into-write-only", (s) => {
  s.variable.token = { type: "string", ephemeral: true, sensitive: true, default: "tok-0123456789" };
  Object.assign(res(s, "tsdb_service", "db"), { password_wo: "${var.token}", password_wo_version: 1 });
});
stack("cdktf-variables", "variable-nullable-as-string", (s) => void (s.variable.regions.nullable = "false"));
stack("cdktf-variables", "variable-sensitive-default-short-password", (s) => {
  s.variable.pw = { type: "string", sensitive: true, default: "short" };
  res(s, "tsdb_service", "db").password = "${var.pw}";
});
stack("cdktf-variables", "variable-map-of-objects-optional-region", (s) => {
  s.variable.nets = { type: 'map(object({ cidr = string, region = optional(string, "us-east-1") }))', default: { a: { cidr: "10.30.0.0/16" }, b: { cidr: "10.31.0.0/16", region: "eu-west-1" } } };
  addRes(s, "tsdb_vpcs", "more", { for_each: "${var.nets}", cidr: "${each.value.cidr}", region_code: "${each.value.region}" });
});
stack("cdktf-variables", "variable-map-of-objects-region-off-enum", (s) => {
  s.variable.nets = { type: 'map(object({ cidr = string, region = optional(string, "us-east-1") }))', default: { a: { cidr: "10.30.0.0/16", region: "eu-north-9" } } };
  addRes(s, "tsdb_vpcs", "more", { for_each: "${var.nets}", cidr: "${each.value.cidr}", region_code: "${each.value.region}" });
});
stack("cdktf-variables", "output-sensitive-as-string", (s) => void (s.output.db_host.sensitive = "true"));
stack("cdktf-variables", "output-description-number", (s) => void (s.output.db_host.description = 5));

// ---- values computed by functions, reaching our providers' rules ----
stack("cdktf-values", "region-upper-off-enum", (s) => void (res(s, "tsdb_service", "db").region_code = '${upper("us-east-1")}'));
stack("cdktf-values", "cidr-host-bits-prefix-too-long", (s) => void (s.locals.cfg.net.cidr = '${cidrsubnet("10.0.0.0/30", 4, 1)}'));
stack("cdktf-values", "channel-name-title-case", (s) => void (res(s, "containerbackup_restore_channel", "ch").name = '${title("nightly restores")}'));
stack("cdktf-values", "labels-merged-uppercase-key", (s) => void (res(s, "containerbackup_restore_channel", "ch").labels = '${merge({ team = "data" }, { Owner = "ops" })}'));
stack("cdktf-values", "peer-account-format-padded", (s) =>
  void addRes(s, "tsdb_peering_connection", "peer", {
    platform_vpc_id: "${tsdb_vpcs.net[var.regions[0]].vpcs_id}",
    peer_account_id: '${format("%012d", 42)}',
    peer_region_code: "us-east-1",
    peer_vpc_id: "vpc-0a1b2c3d4e",
  }));
stack("cdktf-values", "peer-account-format-unpadded", (s) =>
  void addRes(s, "tsdb_peering_connection", "peer", {
    platform_vpc_id: 12,
    peer_account_id: '${format("%d", 42)}',
    peer_region_code: "us-east-1",
    peer_vpc_id: "vpc-0a1b2c3d4e",
  }));
stack("cdktf-values", "timeouts-joined-duration", (s) => void (res(s, "tsdb_service", "db").timeouts = { create: '${join("", ["1", "h", "30", "m"])}', delete: '${format("%dm", 90)}' }));
stack("cdktf-values", "timeouts-days-through-local", (s) => {
  s.locals.wait = "2d";
  res(s, "tsdb_service", "db").timeouts = { create: "${local.wait}" };
});
stack("cdktf-values", "size-from-map-variable-mismatch", (s) => {
  s.variable.sizes = { type: "map(number)", default: { cpu: 2000, mem: 4 } };
  Object.assign(res(s, "tsdb_service", "db"), { milli_cpu: "${var.sizes.cpu}", memory_gb: '${var.sizes["mem"]}' });
});
stack("cdktf-values", "bucket-replace-underscore-upper", (s) =>
  void addRes(s, "tsdb_connector_obj_store", "files", {
    service_id: "${tsdb_service.db.id}",
    bucket: '${replace("My_Bucket", "_", "-")}',
    pattern: "in/*.csv",
    credentials: { type: "Public" },
    definition: { type: "CSV", csv: { delimiter: '${substr(";;", 0, 1)}' } },
    table_identifier: { table_name: "t16" },
  }));
stack("cdktf-values", "csv-delimiter-two-characters-from-local", (s) => {
  s.locals.delim = ";;";
  addRes(s, "tsdb_connector_obj_store", "files", {
    service_id: "${tsdb_service.db.id}",
    bucket: "bucket-sixteen",
    pattern: "in/*.csv",
    credentials: { type: "Public" },
    definition: { type: "CSV", csv: { delimiter: "${local.delim}" } },
    table_identifier: { table_name: "t16" },
  });
});

// ---- booleans and numbers as strings (hand edits, addOverride) ----
const objStore = (extra = {}) => ({
  service_id: "${tsdb_service.db.id}",
  bucket: "bucket-sixteen",
  pattern: "in/*.parquet",
  credentials: { type: "Public" },
  definition: { type: "PARQUET", parquet: { auto_column_mapping: true } },
  table_identifier: { table_name: "t16" },
  ...extra,
});
const srcDb = (extra = {}) => ({
  service_id: "${tsdb_service.db.id}",
  display_name: "orders16",
  connection_string: "postgres://replicator@db.example.com:5432/orders",
  ...extra,
});
stack("cdktf-strings", "bool-string-one", (s) => void addRes(s, "tsdb_connector_obj_store", "files", objStore({ enabled: "1", on_conflict_do_nothing: "0" })));
stack("cdktf-strings", "bool-string-upper-true", (s) => void addRes(s, "tsdb_connector_obj_store", "files", objStore({ enabled: "TRUE" })));
stack("cdktf-strings", "port-string-over-max", (s) => void addRes(s, "tsdb_connector_src_db", "src", srcDb({ ssh_tunnel: { name: "b", host: "bastion", port: "65536" } })));
stack("cdktf-strings", "workers-string-exponent", (s) => void addRes(s, "tsdb_connector_src_db", "src", srcDb({ table_sync_workers: "6.4e1" })));
stack("cdktf-strings", "workers-string-hex", (s) => void addRes(s, "tsdb_connector_src_db", "src", srcDb({ table_sync_workers: "0x10" })));
stack("cdktf-strings", "memory-string-leading-space", (s) => void (res(s, "tsdb_service", "db").memory_gb = " 4"));
stack("cdktf-strings", "vpc-id-string-beyond-double", (s) => void (res(s, "tsdb_service", "db").vpc_id = "9007199254740993"));
stack("cdktf-strings", "partitions-string-fraction", (s) =>
  void addRes(s, "tsdb_connector_src_db", "src", srcDb({
    tables: [{ schema_name: "public", table_name: "m", hypertable_spec: { primary_dimension: { column_name: "time", partition_interval: "1d" }, secondary_dimensions: [{ hash: { column_name: "d", number_partitions: "2.5" } }] } }],
  })));

// ---- the rules of our schemas, each once ----
stack("cdktf-rules", "src-db-secondary-dimension-both-kinds", (s) =>
  void addRes(s, "tsdb_connector_src_db", "src", srcDb({
    tables: [
      {
        schema_name: "public",
        table_name: "m",
        hypertable_spec: {
          primary_dimension: { column_name: "time", partition_interval: "7d" },
          secondary_dimensions: [{ hash: { column_name: "d", number_partitions: 2 }, range: { column_name: "seq", partition_interval: "1h" } }],
        },
      },
    ],
  })));
stack("cdktf-rules", "src-db-partition-interval-zero", (s) =>
  void addRes(s, "tsdb_connector_src_db", "src", srcDb({ tables: [{ schema_name: "public", table_name: "m", hypertable_spec: { primary_dimension: { column_name: "time", partition_interval: "0d" } } }] })));
stack("cdktf-rules", "metric-exporter-saasmon-site-upper", (s) => void addRes(s, "tsdb_metric_exporter", "m", { region: "us-east-1", saasmon: { api_key: "k", site: "DatadogHQ.com" } }));
stack("cdktf-rules", "log-exporter-access-key-alone", (s) =>
  void addRes(s, "tsdb_log_exporter", "logs", { region: "us-east-1", cloudmon: { region: "us-east-1", log_group_name: "/tsdb", log_stream_name: "pg", access_key: "AKIAEXAMPLEEXAMPLE" } }));
stack("cdktf-rules", "log-exporter-azure-region", (s) =>
  void addRes(s, "tsdb_log_exporter", "logs", { region: "az-eastus", cloudmon: { region: "eastus1", log_group_name: "/tsdb", log_stream_name: "pg", role_arn: "arn:aws:iam::123456789012:role/logs" } }));
stack("cdktf-rules", "peering-cidrs-duplicate-in-set", (s) =>
  void addRes(s, "tsdb_peering_connection", "peer", {
    platform_vpc_id: 12,
    peer_account_id: "123456789012",
    peer_region_code: "us-east-1",
    peer_tgw_id: "tgw-0123456789abcdef0",
    peer_cidr_blocks: ["10.0.0.0/16", "10.0.0.0/16"],
  }));
stack("cdktf-rules", "peering-azure-peer-region", (s) =>
  void addRes(s, "tsdb_peering_connection", "peer", { platform_vpc_id: 12, peer_account_id: "123456789012", peer_region_code: "az-eastus2", peer_vpc_id: "vpc-0a1b2c3d4e" }));
stack("cdktf-rules", "service-read-replica-with-ha", (s) =>
  void addRes(s, "tsdb_service", "replica", { read_replica_source: "${tsdb_service.db.id}", read_replica_nodes: 1, ha_replicas: 1 }));
stack("cdktf-rules", "service-enable-ha-deprecated-true", (s) => Object.assign(res(s, "tsdb_service", "db"), { enable_ha_replica: true, ha_replicas: 1 }));
stack("cdktf-rules", "service-parameters-valid-units", (s) =>
  void (res(s, "tsdb_service", "db").parameters = { statement_timeout: "1min", work_mem: "4MB", random_page_cost: "1.5", jit: "off", max_connections: "${tostring(300)}" }));
stack("cdktf-rules", "service-parameters-work-mem-below-minimum", (s) => void (res(s, "tsdb_service", "db").parameters = { work_mem: "63kB" }));
stack("cdktf-rules", "channel-destination-numeric-project", (s) => void (res(s, "containerbackup_restore_channel", "ch").destination_project = "projects/123456789012"));
stack("cdktf-rules", "channel-description-bell-character", (s) => void (res(s, "containerbackup_restore_channel", "ch").description = "ring\u0007"));
stack("cdktf-rules", "channel-description-tab-and-newline", (s) => void (res(s, "containerbackup_restore_channel", "ch").description = "line one\n\tline two"));
stack("cdktf-rules", "provider-tsdb-token-and-key", (s) => void Object.assign(s.provider.tsdb[0], { access_token: "tok", access_key: "AK", secret_key: "SK" }));
stack("cdktf-rules", "provider-containerbackup-label-upper", (s) => void (s.provider.containerbackup[0].default_labels = { Team: "data" }));
stack("cdktf-rules", "data-service-environment-tag-lower", (s) => void addData(s, "tsdb_service", "existing", { id: "svc-12345", environment_tag: "dev" }));
stack("cdktf-rules", "data-products-read-only-id", (s) => void addData(s, "tsdb_products", "catalog", { id: "x" }));
stack("cdktf-rules", "ephemeral-credentials-ttl-days", (s) => {
  s.ephemeral = { tsdb_service_credentials: { creds: { "//": meta("creds"), service_id: "${tsdb_service.db.id}", ttl: "1d" } } };
});
stack("cdktf-rules", "ephemeral-credentials-into-write-only", (s) => {
  s.ephemeral = { tsdb_service_credentials: { creds: { "//": meta("creds"), service_id: "svc-12345", ttl: "90m" } } };
  Object.assign(res(s, "tsdb_service", "db"), { password_wo: "${ephemeral.tsdb_service_credentials.creds.password}", password_wo_version: 2 });
});

// ---- hand edits on the bases: CDKTF metadata on an existing module ----
/** Adds CDKTF's "//" metadata to every file and block of the root module and turns providers into arrays. */
function cdkify(m) {
  for (const [name, root] of Object.entries(m.files)) {
    if (!root || typeof root !== "object" || Array.isArray(root) || root.constructor !== Object) continue;
    root["//"] = { metadata: { backend: "local", stackName: name.replace(/\.tf\.json$/, ""), version: "0.21.0" } };
    for (const kind of ["resource", "data"]) {
      for (const [type, group] of Object.entries(root[kind] ?? {})) {
        if (type === "//") continue;
        for (const [label, body] of Object.entries(group)) if (body && typeof body === "object" && !Array.isArray(body)) body["//"] = meta(label);
      }
    }
    for (const [type, conf] of Object.entries(root.provider ?? {})) if (!Array.isArray(conf) && type !== "//") root.provider[type] = [conf];
  }
  return m;
}
def("cdktf-edits", "base-with-metadata", (m) => void cdkify(m));
def("cdktf-edits", "base-metadata-service-name-from-element", (m) => {
  cdkify(m);
  db(m).name = '${element(["a", "b"], 3)}-db';
});
def("cdktf-edits", "base-metadata-terraform-data-for-each", (m) => {
  cdkify(m);
  addBlock(m, "resource", "terraform_data", "cfg16", { "//": meta("cfg16"), for_each: '${toset(["a", "b"])}', input: '${{ key = each.key, tags = jsonencode(local.tags) }}' });
});

export const ROUND16_MUTATIONS = M;
