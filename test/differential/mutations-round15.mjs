// Fifteenth round (independent): kinds written from the Terraform language as documented, the HCL
// JSON specification and our provider schemas, without looking at the checker, aimed at what an
// outside corpus writer produces and the earlier rounds left alone: a whole child module split
// over versions/variables/main/outputs files with *_override.tf.json files, moved and removed
// blocks and a check inside it, terraform_data wired between resources, pre- and postconditions
// over self/each/count, for_each over maps of objects shaped with lookup/try/coalesce/merge,
// optional() defaults, sensitive and ephemeral values flowing into outputs, templatefile/file over
// files of the module, numbers at cty's precision edges, Unicode in keys and lengths, our
// providers' nested attributes in the wrong JSON shape, wrong types in the remaining schema
// positions, and core functions failing on known arguments. About half are shapes Terraform
// accepts. Each is a model mutation (round 15) appended after round 14.
import { addBlock, db, netCall, rootOf, vpc } from "./mutations.mjs";
import { raw } from "./serialize.mjs";

export const ROUND = 15;
const M = [];
const def = (cat, name, apply) => M.push({ cat, name: `r15-${name}`, apply, round: ROUND });

const setLocal = (m, key, value) => void (rootOf(m, "locals").locals[key] = value);
const variable = (m, name, body) => void m.put("variable", name, body);
const output = (m, name, body) => void m.put("output", name, body);
const channel = (m, extra = {}) =>
  addBlock(m, "resource", "containerbackup_restore_channel", "ch15", { destination_project: "projects/restore-target", location: "us-central1", project: "my-project", ...extra });
const service = (m, extra = {}) => addBlock(m, "resource", "tsdb_service", "s15", { name: "svc15", milli_cpu: 1000, memory_gb: 4, region_code: "us-east-1", ...extra });
const srcDb = (m, extra = {}) =>
  addBlock(m, "resource", "tsdb_connector_src_db", "src15", {
    service_id: "${tsdb_service.db.id}",
    display_name: "orders15",
    connection_string: "postgres://replicator@db.example.com:5432/orders",
    ...extra,
  });
const objStore = (m, extra = {}) =>
  addBlock(m, "resource", "tsdb_connector_obj_store", "obj15", {
    service_id: "${tsdb_service.db.id}",
    bucket: "bucket-fifteen",
    pattern: "in/*.parquet",
    credentials: { type: "Public" },
    definition: { type: "PARQUET", parquet: { auto_column_mapping: true } },
    table_identifier: { table_name: "t15" },
    ...extra,
  });
const cloudmon = (extra = {}) => ({ region: "us-east-1", log_group_name: "/tsdb/15", log_stream_name: "pg", role_arn: "arn:aws:iam::123456789012:role/logs", ...extra });
const logExporter = (m, extra = {}) => addBlock(m, "resource", "tsdb_log_exporter", "l15", { region: "us-east-1", cloudmon: cloudmon(), ...extra });
const metricExporter = (m, extra = {}) => addBlock(m, "resource", "tsdb_metric_exporter", "x15", { region: "us-east-1", ...extra });

// ---- a whole child module written over several files, as teams write them ----
/** ./modules/app15: versions, variables (optional attributes, validation, nullable, sensitive), main, outputs. */
function appModule(m, change = () => {}) {
  const mod = {
    "versions.tf.json": {
      terraform: { required_version: ">= 1.9", required_providers: { tsdb: { source: "schemaform/tsdb" }, containerbackup: { source: "schemaform/containerbackup" } } },
    },
    "variables.tf.json": {
      variable: {
        env: {
          type: "string",
          default: "dev",
          validation: [{ condition: '${contains(["dev", "prod"], var.env)}', error_message: "env must be dev or prod." }],
        },
        networks: { type: 'map(object({ cidr = string, region = optional(string, "us-east-1"), label = optional(string) }))', default: {} },
        settings: { type: "object({ replicas = optional(number, 0), pooler = optional(bool, false), tags = optional(map(string), {}) })", default: {} },
        replicas: { type: "number", default: 0, nullable: false },
        password: { type: "string", sensitive: true, default: "change-me-please" },
      },
    },
    "main.tf.json": {
      locals: {
        env_tag: "${upper(var.env)}",
        nets: '${{ for k, n in var.networks : k => merge(n, { label = coalesce(n.label, "net-${k}") }) }}',
        tags: "${merge({ env = var.env }, var.settings.tags)}",
      },
      resource: {
        tsdb_vpcs: {
          this: { for_each: "${local.nets}", cidr: "${each.value.cidr}", region_code: '${lookup(each.value, "region", "us-east-1")}', name: "${each.value.label}" },
        },
        tsdb_service: {
          this: {
            name: "app-${var.env}",
            milli_cpu: 1000,
            memory_gb: 4,
            region_code: "us-east-1",
            ha_replicas: "${var.replicas}",
            environment_tag: "${local.env_tag}",
            connection_pooler_enabled: "${var.settings.pooler}",
            vpc_id: "${try(values(tsdb_vpcs.this)[0].vpcs_id, null)}",
            lifecycle: { postcondition: [{ condition: '${self.hostname != ""}', error_message: "The service needs a hostname." }] },
          },
        },
        terraform_data: { release: { input: "${{ env = var.env, vpcs = keys(local.nets) }}", triggers_replace: ["${tsdb_service.this.id}"] } },
      },
      check: {
        service_up: {
          data: { tsdb_service: { probe: { id: "${tsdb_service.this.id}" } } },
          assert: [{ condition: '${data.tsdb_service.probe.name != ""}', error_message: "The service cannot be read back." }],
        },
      },
    },
    "outputs.tf.json": {
      output: {
        service_id: { value: "${tsdb_service.this.id}" },
        vpc_ids: { value: "${{ for k, v in tsdb_vpcs.this : k => v.vpcs_id }}" },
        release: { value: "${terraform_data.release.output}" },
        password: { value: "${var.password}", sensitive: true },
      },
    },
  };
  change(mod);
  m.modules.app15 = mod;
}
const appCall = (m, extra = {}) =>
  void m.put("module", "app15", {
    source: "./modules/app15",
    env: "prod",
    networks: { primary: { cidr: "10.60.0.0/16" }, secondary: { cidr: "10.61.0.0/16", region: "eu-west-1", label: "second" } },
    settings: { pooler: true },
    ...extra,
  });
const appCase = (name, change, call = {}, root = () => {}) =>
  def("modules", `app-${name}`, (m) => {
    appModule(m, change);
    appCall(m, call);
    root(m);
  });
appCase("module-valid", undefined, {}, (m) => output(m, "app15_vpcs", { value: "${module.app15.vpc_ids}" }));
appCase("override-file-valid", (mod) => {
  mod["main_override.tf.json"] = { locals: { env_tag: "PROD" }, resource: { tsdb_service: { this: { ha_replicas: 2, sync_replicas: 1 } } } };
});
appCase("override-breaks-provider-rule", (mod) => {
  mod["main_override.tf.json"] = { resource: { tsdb_service: { this: { ha_replicas: 1, sync_replicas: 1 } } } };
});
appCase("override-output-loses-sensitive", (mod) => {
  mod["outputs_override.tf.json"] = { output: { release: { value: "${var.password}" } } };
});
appCase("override-variable-type-misfits-caller", (mod) => {
  mod["variables_override.tf.json"] = { variable: { networks: { type: "map(string)" } } };
});
appCase("caller-attribute-wrong-type", undefined, { networks: { primary: { cidr: ["10.60.0.0/16"] } } });
appCase("caller-value-fails-child-validation", undefined, { env: "qa" });
appCase("caller-null-for-non-nullable-with-default", undefined, { replicas: null });
appCase(
  "caller-null-for-non-nullable-without-default",
  (mod) => void (mod["variables.tf.json"].variable.zone = { type: "string", nullable: false }),
  { zone: null },
);
appCase("refactoring-blocks-in-child", (mod) => {
  mod["refactor.tf.json"] = {
    moved: [{ from: "tsdb_vpcs.legacy", to: "tsdb_vpcs.this" }],
    removed: [{ from: "tsdb_service.old", lifecycle: { destroy: false } }],
  };
});
appCase("removed-in-child-still-declared", (mod) => {
  mod["refactor.tf.json"] = { removed: [{ from: "terraform_data.release", lifecycle: { destroy: false } }] };
});
appCase("root-output-path-into-terraform-data-output", undefined, {}, (m) => output(m, "app15_env", { value: "${module.app15.release.env}" }));
appCase("child-ephemeral-output-into-write-only", (mod) => {
  mod["variables.tf.json"].variable.token = { type: "string", ephemeral: true, default: "token-0123456789" };
  mod["outputs.tf.json"].output.token = { value: "${var.token}", ephemeral: true };
}, {}, (m) => {
  setLocal(m, "token15", "${module.app15.token}");
  service(m, { password_wo: "${local.token15}", password_wo_version: 1 });
});
def("modules", "app-for-each-over-module-calls", (m) => {
  appModule(m);
  m.put("module", "app15", {
    source: "./modules/app15",
    for_each: { blue: { cidr: "10.62.0.0/16" }, green: { cidr: "10.63.0.0/16", region: "us-west-2" } },
    env: "dev",
    networks: "${{ main = each.value }}",
  });
  output(m, "app15_ids", { value: "${{ for k, a in module.app15 : k => a.service_id }}" });
});

// ---- override files of the root module ----
def("multi-file-duplicates", "override-adds-precondition", (m) => {
  m.files["db_override.tf.json"] = { resource: { tsdb_service: { db: { lifecycle: { precondition: [{ condition: "${var.cpu >= 500}", error_message: "Too small." }] } } } } };
});
def("multi-file-duplicates", "override-local-wrong-type-for-argument", (m) => void (m.files["locals_override.tf.json"] = { locals: { cpu: "lots" } }));
def("multi-file-duplicates", "override-module-call-argument-breaks-child", (m, r) => {
  netCall(m, r);
  m.files["net_override.tf.json"] = { module: { net: { cidr: "10.250.0.0/40" } } };
});

// ---- terraform_data wired between resources ----
def("builtin-types", "terraform-data-chain-triggers", (m) => {
  addBlock(m, "resource", "terraform_data", "a15", { input: "${tsdb_service.db.id}" });
  addBlock(m, "resource", "terraform_data", "b15", { triggers_replace: ["${terraform_data.a15.output}", "${terraform_data.a15.id}"], input: { a: "${terraform_data.a15.output}" } });
  output(m, "b15", { value: "${terraform_data.b15.output.a}" });
});
def("builtin-types", "terraform-data-triggers-replace-ephemeral", (m) => {
  variable(m, "tok15", { type: "string", ephemeral: true, default: "t" });
  addBlock(m, "resource", "terraform_data", "e15", { triggers_replace: "${var.tok15}" });
});
def("builtin-types", "terraform-data-for-each-map-of-objects", (m) => {
  setLocal(m, "jobs15", { nightly: { cron: "0 2 * * *", retries: 3 }, hourly: { cron: "0 * * * *" } });
  addBlock(m, "resource", "terraform_data", "job15", { for_each: "${local.jobs15}", input: '${{ cron = each.value.cron, retries = try(each.value.retries, 1), name = "job-${each.key}" }}' });
  output(m, "jobs15", { value: "${{ for k, j in terraform_data.job15 : k => j.output.retries }}" });
});

// ---- checks with data sources ----
def("checks", "scoped-data-can-in-assert", (m) =>
  void m.put("check", "svc15", {
    data: { tsdb_service: { probe15: { id: "svc-15" } } },
    assert: [
      { condition: "${can(data.tsdb_service.probe15.spec.hostname)}", error_message: "No hostname." },
      { condition: '${data.tsdb_service.probe15.region_code == "us-east-1"}', error_message: "Wrong region: ${data.tsdb_service.probe15.region_code}." },
    ],
  }));
def("checks", "assert-over-counted-splat", (m) => {
  addBlock(m, "resource", "tsdb_vpcs", "c15", { count: 2, cidr: "10.8${count.index}.0.0/16", region_code: "us-east-1" });
  m.put("check", "vpcs15", { assert: [{ condition: '${alltrue([for c in tsdb_vpcs.c15[*].cidr : endswith(c, "/16")])}', error_message: "Every VPC is a /16." }] });
});
def("checks", "scoped-data-products-for-expression", (m) =>
  void m.put("check", "catalog15", {
    data: { tsdb_products: { all15: {} } },
    assert: [{ condition: '${length([for p in data.tsdb_products.all15.products : p if p.name == "timescale"]) > 0}', error_message: "No product." }],
  }));

// ---- pre- and postconditions over self, each and count ----
def("meta-arguments", "postcondition-self-and-each-key", (m) =>
  void addBlock(m, "resource", "tsdb_vpcs", "fe15", {
    for_each: { a: "10.91.0.0/16", b: "10.92.0.0/16" },
    cidr: "${each.value}",
    region_code: "us-east-1",
    lifecycle: { postcondition: [{ condition: "${self.cidr == each.value}", error_message: "VPC ${each.key} changed its CIDR." }] },
  }));
def("meta-arguments", "precondition-count-index", (m) =>
  void addBlock(m, "resource", "tsdb_vpcs", "ct15", {
    count: 3,
    cidr: "10.9${count.index}.0.0/16",
    region_code: "us-east-1",
    lifecycle: { precondition: [{ condition: "${count.index < 3}", error_message: "Only three networks (index ${count.index})." }] },
  }));
def("meta-arguments", "postcondition-count-index-without-count", (m) =>
  void (vpc(m).lifecycle = { postcondition: [{ condition: "${count.index >= 0}", error_message: "Never." }] }));
def("meta-arguments", "precondition-each-value-data-for-each", (m) =>
  void addBlock(m, "data", "tsdb_service", "fe15", {
    for_each: { primary: "svc-1", standby: "svc-2" },
    id: "${each.value}",
    lifecycle: { precondition: [{ condition: '${startswith(each.value, "svc-")}', error_message: "Bad id for ${each.key}." }] },
  }));
def("meta-arguments", "module-call-lifecycle-block", (m, r) => void (netCall(m, r).lifecycle = { create_before_destroy: true }));

// ---- for_each over maps of objects shaped with lookup/try/coalesce/merge ----
def("meta-arguments", "for-each-objects-merged-with-defaults", (m) => {
  setLocal(m, "nets15", { core: { cidr: "10.101.0.0/16" }, edge: { cidr: "10.102.0.0/16", region: "eu-west-1", name: null } });
  setLocal(m, "nets15_full", '${{ for k, n in local.nets15 : k => merge({ region = "us-east-1", name = null }, n) }}');
  addBlock(m, "resource", "tsdb_vpcs", "n15", {
    for_each: "${local.nets15_full}",
    cidr: "${each.value.cidr}",
    region_code: "${each.value.region}",
    name: '${coalesce(each.value.name, "vpc-${each.key}")}',
  });
});
def("meta-arguments", "for-each-filtered-for-with-if", (m) => {
  variable(m, "svc15", { type: "map(object({ size = number, enabled = optional(bool, true) }))", default: { a: { size: 4 }, b: { size: 8, enabled: false } } });
  addBlock(m, "resource", "tsdb_service", "fe15", {
    for_each: "${{ for k, s in var.svc15 : k => s if s.enabled }}",
    memory_gb: "${each.value.size}",
    milli_cpu: "${each.value.size * 250}",
    region_code: "us-east-1",
  });
});
def("meta-arguments", "for-each-set-of-objects", (m) =>
  void addBlock(m, "resource", "tsdb_vpcs", "so15", { for_each: '${toset([{ cidr = "10.103.0.0/16" }])}', cidr: "${each.value.cidr}", region_code: "us-east-1" }));
def("meta-arguments", "for-each-map-with-null-element", (m) =>
  void addBlock(m, "resource", "tsdb_vpcs", "mn15", { for_each: { a: "10.104.0.0/16", b: null }, cidr: '${coalesce(each.value, "10.105.0.0/16")}', region_code: "us-east-1" }));
def("meta-arguments", "for-each-over-data-list-attribute", (m) => {
  addBlock(m, "data", "tsdb_vpcs", "all15", {});
  addBlock(m, "resource", "tsdb_peering_connection", "pe15", {
    for_each: "${data.tsdb_vpcs.all15.vpcs}",
    platform_vpc_id: "${each.value.id}",
    peer_account_id: "123456789012",
    peer_region_code: "us-east-1",
    peer_vpc_id: "vpc-0a1b2c3d4e",
  });
});

// ---- optional() defaults in variable types ----
def("variable-types", "optional-default-used-in-validation", (m) =>
  variable(m, "o15", {
    type: "object({ retries = optional(number, 3), mode = optional(string, \"fast\") })",
    default: {},
    validation: [{ condition: '${var.o15.retries > 0 && contains(["fast", "safe"], var.o15.mode)}', error_message: "Bad settings." }],
  }));
def("variable-types", "optional-list-of-objects-into-nested-attribute", (m) => {
  variable(m, "tables15", { type: "list(object({ name = string, schema = optional(string, \"public\") }))", default: [{ name: "orders" }, { name: "events", schema: "raw" }] });
  srcDb(m, { tables: "${[for t in var.tables15 : { schema_name = t.schema, table_name = t.name }]}" });
});
def("variable-types", "optional-default-null-second-argument", (m) => variable(m, "o15", { type: "object({ a = optional(string, null) })", default: {} }));
def("variable-types", "optional-bool-default-unconvertible-string", (m) => variable(m, "o15", { type: 'object({ on = optional(bool, "maybe") })', default: {} }));

// ---- sensitive and ephemeral values flowing into outputs ----
def("variables-outputs", "sensitive-variable-through-for-into-output", (m) => {
  variable(m, "keys15", { type: "map(string)", sensitive: true, default: { a: "1" } });
  output(m, "keys15", { value: '${[for k, v in var.keys15 : "${k}=${v}"]}' });
});
def("variables-outputs", "ephemeralasnull-into-output", (m) => {
  variable(m, "tok15", { type: "string", ephemeral: true, default: "t" });
  output(m, "tok15", { value: "${ephemeralasnull(var.tok15)}" });
});
def("variables-outputs", "sensitive-variable-into-count", (m) => {
  variable(m, "n15", { type: "number", sensitive: true, default: 1 });
  addBlock(m, "resource", "tsdb_vpcs", "sn15", { count: "${var.n15}", cidr: "10.110.0.0/16", region_code: "us-east-1" });
});
def("variables-outputs", "ephemeral-variable-into-for-each", (m) => {
  variable(m, "ids15", { type: "set(string)", ephemeral: true, default: ["a"] });
  addBlock(m, "resource", "terraform_data", "ef15", { for_each: "${var.ids15}" });
});

// ---- templatefile and file over the module's own files ----
const withFile = (m, path, text) => void (m.files[path] = raw(text.replace(/\n$/, "")));
def("functions", "templatefile-present-with-for-directive", (m) => {
  withFile(m, "templates/motd.tftpl", "Welcome to ${name}\n%{ for r in regions ~}\n- ${r}\n%{ endfor ~}\n");
  channel(m, { description: '${templatefile("${path.module}/templates/motd.tftpl", { name = "analytics", regions = ["us-east-1", "eu-west-1"] })}' });
});
def("functions", "templatefile-missing-variable", (m) => {
  withFile(m, "templates/motd.tftpl", "Welcome to ${name} in ${region}\n");
  setLocal(m, "motd15", '${templatefile("${path.module}/templates/motd.tftpl", { name = "analytics" })}');
});
def("functions", "templatefile-missing-file", (m) => setLocal(m, "motd15", '${templatefile("${path.module}/templates/absent.tftpl", {})}'));
def("functions", "jsondecode-file-into-sizes", (m) => {
  withFile(m, "sizes.json", '{ "cpu": 2000, "memory": 8 }\n');
  setLocal(m, "sizes15", '${jsondecode(file("${path.module}/sizes.json"))}');
  service(m, { milli_cpu: "${local.sizes15.cpu}", memory_gb: "${local.sizes15.memory}" });
});
def("functions", "fileset-of-templates", (m) => {
  withFile(m, "templates/a.tftpl", "a\n");
  withFile(m, "templates/b.tftpl", "b\n");
  addBlock(m, "resource", "terraform_data", "fs15", { for_each: '${fileset(path.module, "templates/*.tftpl")}', input: "${filemd5(each.value)}" });
});
def("templates", "indented-heredoc-in-local", (m) => setLocal(m, "h15", "${<<-EOT\n    first ${var.name_prefix}\n      second\n    EOT\n}"));

// ---- numbers at cty's precision edges ----
def("numbers", "cpu-times-almost-one", (m) => void service(m, { milli_cpu: "${1000 * 1.0000000000000001}" }));
def("numbers", "count-beyond-double-precision", (m) =>
  void addBlock(m, "resource", "tsdb_vpcs", "big15", { count: "${9007199254740993 - 9007199254740992 == 1 ? 1 : -1}", cidr: "10.120.0.0/16", region_code: "us-east-1" }));
def("numbers", "count-decimal-sum-equality", (m) =>
  void addBlock(m, "resource", "tsdb_vpcs", "dec15", { count: "${0.1 + 0.2 == 0.3 ? 1 : -1}", cidr: "10.121.0.0/16", region_code: "us-east-1" }));
def("numbers", "count-from-log", (m) => void addBlock(m, "resource", "tsdb_vpcs", "log15", { count: "${log(1000, 10)}", cidr: "10.122.0.0/16", region_code: "us-east-1" }));
def("numbers", "cidr-octet-from-division", (m) => void addBlock(m, "resource", "tsdb_vpcs", "div15", { cidr: "10.${10 / 4}.0.0/16", region_code: "us-east-1" }));
def("numbers", "name-with-huge-number", (m) => void channel(m, { name: "ch-${1e21}" }));
def("numbers", "port-from-parseint-too-big", (m) => void srcDb(m, { ssh_tunnel: { name: "b", port: '${parseint("fffff", 16)}' } }));
def("numbers", "cpu-json-literal-beyond-double", (m) => void service(m, { milli_cpu: raw("1000.000000000000000001") }));
def("numbers", "memory-json-literal-exponent", (m) => void service(m, { memory_gb: raw("4e0"), milli_cpu: raw("1.0E3") }));
def("numbers", "replicas-string-with-fraction-zero", (m) => void service(m, { ha_replicas: "2.0", sync_replicas: "1e0" }));

// ---- Unicode in keys, values and lengths ----
def("unicode", "labels-international-lowercase", (m) => void channel(m, { labels: { "équipe": "données", "团队": "数据" } }));
def("unicode", "labels-key-uppercase-accented", (m) => void channel(m, { labels: { "Équipe": "data" } }));
def("unicode", "replicas-from-flag-emoji-length", (m) => void service(m, { ha_replicas: '${length("🇺🇸🇬🇧")}' }));
def("unicode", "sync-replicas-from-upper-sharp-s", (m) => void service(m, { ha_replicas: 2, sync_replicas: '${length(upper("ß"))}' }));
def("unicode", "labels-nfc-and-nfd-keys", (m) => void channel(m, { labels: { "\u00e9quipe": "a", "e\u0301quipe": "b" } }));
def("unicode", "for-each-unicode-keys", (m) =>
  void addBlock(m, "resource", "tsdb_vpcs", "u15", { for_each: { "zürich": "10.130.0.0/16", "münchen": "10.131.0.0/16" }, cidr: "${each.value}", region_code: "eu-central-1", name: "vpc-${each.key}" }));

// ---- our providers' nested attributes in the wrong JSON shape ----
def("json-shapes", "cloudmon-as-array", (m) => void logExporter(m, { cloudmon: [cloudmon()] }));
def("json-shapes", "hypertable-spec-as-array", (m) =>
  void srcDb(m, { tables: [{ schema_name: "public", table_name: "m", hypertable_spec: [{ primary_dimension: { column_name: "time", partition_interval: "1d" } }] }] }));
def("json-shapes", "secondary-dimensions-as-object", (m) =>
  void srcDb(m, {
    tables: [{ schema_name: "public", table_name: "m", hypertable_spec: { primary_dimension: { column_name: "time", partition_interval: "1d" }, secondary_dimensions: { hash: { column_name: "d", number_partitions: 2 } } } }],
  }));
def("json-shapes", "deep-src-db-with-range-dimension", (m) =>
  void srcDb(m, {
    tables: [
      {
        schema_name: "public",
        table_name: "metrics",
        publication_name: "pub15",
        table_mapping: null,
        hypertable_spec: {
          primary_dimension: { column_name: "time", partition_interval: "7d" },
          secondary_dimensions: [{ range: { column_name: "seq", partition_interval: 1000 } }, { hash: { column_name: "device", number_partitions: 8 } }],
        },
      },
    ],
  }));
def("json-shapes", "csv-names-and-mappings-together", (m) =>
  void objStore(m, { definition: { type: "CSV", csv: { column_names: ["a"], column_mappings: [{ source: "a", destination: "b" }] } } }));

// ---- wrong and right types in the remaining schema positions ----
def("value-rules", "parameters-number-value", (m) => void service(m, { parameters: { max_connections: 200 } }));
def("value-rules", "parameters-unknown-setting", (m) => void service(m, { parameters: { shared_buffers: "1GB" } }));
def("value-rules", "parameters-below-minimum", (m) => void service(m, { parameters: { max_connections: "10" } }));
def("value-rules", "parameters-memory-with-unit", (m) => void service(m, { parameters: { work_mem: "64MB", statement_timeout: "30s" } }));
def("value-rules", "delimiter-tab", (m) => void objStore(m, { definition: { type: "CSV", csv: { delimiter: "\t" } } }));
def("value-rules", "cloudmon-secret-key-short", (m) => void logExporter(m, { cloudmon: { region: "us-east-1", log_group_name: "/tsdb/15", log_stream_name: "pg", access_key: "AKIAEXAMPLEEXAMPL", secret_key: "short" } }));
def("value-rules", "peer-cidr-blocks-nested-list", (m) =>
  void addBlock(m, "resource", "tsdb_peering_connection", "p15", {
    platform_vpc_id: "${tsdb_vpcs.main.vpcs_id}",
    peer_account_id: "123456789012",
    peer_region_code: "us-east-1",
    peer_tgw_id: "tgw-0123456789abcdef0",
    peer_cidr_blocks: [["10.0.0.0/16"]],
  }));
def("value-rules", "platform-vpc-id-numeric-string", (m) =>
  void addBlock(m, "resource", "tsdb_peering_connection", "p15", { platform_vpc_id: "12", peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_vpc_id: "vpc-0a1b2c3d4e" }));
def("value-rules", "provider-endpoint-ftp", (m) => void (rootOf(m, "provider").provider.containerbackup = { project: "my-project", endpoint: "ftp://backup.example.com" }));

// ---- core functions on known arguments ----
const fn = (name, expr) => def("functions", name, (m) => setLocal(m, "f15", expr));
fn("cidrsubnet-netnum-overflow", '${cidrsubnet("10.0.0.0/16", 8, 300)}');
fn("element-of-empty-list", "${element([], 0)}");
fn("range-step-zero", "${range(1, 10, 0)}");
fn("type-console-only", "${type(1)}");
fn("chunklist-size-zero", "${chunklist([1, 2, 3], 0)}");
fn("tolist-mixed-primitives", '${tolist([1, "a", true])}');
fn("transpose-and-setproduct", '${{ t = transpose({ a = ["1", "2"], b = ["2"] }), p = setproduct(["x"], [1, 2]) }}');
fn("yamldecode-valid", '${yamldecode("a: 1\\nb: [x, y]\\n")}');
fn("matchkeys-length-mismatch", '${matchkeys(["a"], ["x", "y"], ["x"])}');

export const ROUND15_MUTATIONS = M;
