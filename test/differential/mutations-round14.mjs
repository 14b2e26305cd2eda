// Fourteenth round (independent): kinds written from the Terraform language as documented, the
// HCL JSON specification and our provider schemas, without looking at the checker, aimed at what
// an outside corpus writer produces: whole modules written the way people write them (variables
// with validation feeding several resources, locals built with merge/concat/for, outputs with
// conditionals and splats, count/for_each on data sources and exporters, module calls over maps of
// objects, provider aliases handed to modules), JSON-specific shapes ("//" comments in every
// position, block arrays against objects, numbers and booleans as strings, null and empty values),
// conversions of variable defaults, and string and collection functions on known values. About
// half are shapes Terraform accepts. Each is a model mutation (round 14) appended after round 13.
import { addBlock, db, eastAlias, find, netCall, rootOf, vpc } from "./mutations.mjs";

export const ROUND = 14;
const M = [];
const def = (cat, name, apply) => M.push({ cat, name: `r14-${name}`, apply, round: ROUND });

const setLocal = (m, key, value) => void (rootOf(m, "locals").locals[key] = value);
const variable = (m, name, body) => void m.put("variable", name, body);
const output = (m, name, body) => void m.put("output", name, body);
const channel = (m, extra = {}) =>
  addBlock(m, "resource", "containerbackup_restore_channel", "ch14", { destination_project: "projects/restore-target", location: "us-central1", project: "my-project", ...extra });
const srcDb = (m, extra = {}) =>
  addBlock(m, "resource", "tsdb_connector_src_db", "src14", {
    service_id: "${tsdb_service.db.id}",
    display_name: "orders14",
    connection_string: "postgres://replicator@db.example.com:5432/orders",
    ...extra,
  });
const objStore = (m, extra = {}) =>
  addBlock(m, "resource", "tsdb_connector_obj_store", "obj14", {
    service_id: "${tsdb_service.db.id}",
    bucket: "bucket-fourteen",
    pattern: "in/*.csv",
    credentials: { type: "Public" },
    definition: { type: "CSV", csv: { delimiter: ",", skip_header: true } },
    table_identifier: { table_name: "t14" },
    ...extra,
  });

// ---- a service module written the way people write one ----
/** ./modules/svc14: variables with validation and types, locals, a counted VPC, a service, outputs. */
function svcModule(m, change = () => {}) {
  const mod = {
    "variables.tf.json": {
      variable: {
        name: {
          type: "string",
          description: "Service name.",
          validation: [{ condition: '${can(regex("^[a-z][a-z0-9-]*$", var.name))}', error_message: "The name must be lowercase letters, digits and dashes." }],
        },
        size: {
          type: "object({ cpu = number, memory = number })",
          default: { cpu: 1000, memory: 4 },
          validation: [{ condition: "${var.size.cpu == var.size.memory * 250}", error_message: "cpu must be 250 times memory." }],
        },
        regions: { type: "list(string)", default: ["us-east-1"] },
        tags: { type: "map(string)", default: {} },
        replicas: { type: "number", default: 0, validation: [{ condition: "${contains([0, 1, 2], var.replicas)}", error_message: "replicas must be 0, 1 or 2." }] },
      },
    },
    "main.tf.json": {
      terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" } } },
      locals: {
        base_name: "${lower(var.name)}",
        all_tags: '${merge({ managed_by = "terraform" }, var.tags)}',
        vpc_names: '${[for i, r in var.regions : "${local.base_name}-${r}-${i}"]}',
      },
      resource: {
        tsdb_vpcs: {
          this: { count: "${length(var.regions)}", cidr: "10.${count.index}.0.0/16", region_code: "${var.regions[count.index]}", name: "${local.vpc_names[count.index]}" },
        },
        tsdb_service: {
          this: {
            name: "${local.base_name}",
            milli_cpu: "${var.size.cpu}",
            memory_gb: "${var.size.memory}",
            region_code: "${var.regions[0]}",
            ha_replicas: "${var.replicas}",
            vpc_id: "${length(tsdb_vpcs.this) > 0 ? tsdb_vpcs.this[0].vpcs_id : null}",
          },
        },
      },
      output: {
        hostname: { value: "${tsdb_service.this.hostname}" },
        vpc_ids: { value: "${tsdb_vpcs.this[*].vpcs_id}" },
        summary: { value: '${{ name = local.base_name, tags = local.all_tags, vpcs = length(tsdb_vpcs.this) }}' },
      },
    },
  };
  change(mod);
  m.modules.svc14 = mod;
}
def("modules", "svc-module-for-each-map-of-objects", (m) => {
  svcModule(m);
  variable(m, "services14", {
    type: "map(object({ cpu = optional(number, 1000), memory = optional(number, 4), regions = optional(list(string), [\"us-east-1\"]) }))",
    default: { orders: {}, billing: { cpu: 2000, memory: 8, regions: ["eu-west-1", "us-west-2"] } },
  });
  m.put("module", "svc14", {
    source: "./modules/svc14",
    for_each: "${var.services14}",
    name: "${each.key}",
    size: "${{ cpu = each.value.cpu, memory = each.value.memory }}",
    regions: "${each.value.regions}",
    tags: "${local.tags}",
  });
  output(m, "svc14_hosts", { value: "${{ for k, s in module.svc14 : k => s.hostname }}" });
  output(m, "svc14_vpcs", { value: "${flatten([for s in values(module.svc14) : s.vpc_ids])}" });
});
def("modules", "svc-module-output-attribute-of-object", (m) => {
  svcModule(m);
  m.put("module", "svc14", { source: "./modules/svc14", name: "single" });
  output(m, "svc14_vpc_count", { value: "${module.svc14.summary.vpcs > 0 ? module.svc14.vpc_ids[0] : null}" });
});
def("modules", "svc-module-output-missing-attribute", (m) => {
  svcModule(m);
  m.put("module", "svc14", { source: "./modules/svc14", name: "single" });
  output(m, "svc14_nope", { value: "${module.svc14.summary.owner}" });
});
def("modules", "svc-module-map-of-objects-wrong-element", (m) => {
  svcModule(m);
  m.put("module", "svc14", { source: "./modules/svc14", for_each: { a: { cpu: 1000 }, b: { cpu: "lots" } }, name: "${each.key}", size: "${{ cpu = each.value.cpu * 1, memory = 4 }}" });
});
def("modules", "svc-module-child-splat-of-single", (m) => {
  svcModule(m, (mod) => void (mod["main.tf.json"].output.names = { value: "${tsdb_service.this[*].name}" }));
  m.put("module", "svc14", { source: "./modules/svc14", name: "single" });
});
def("modules", "svc-module-child-index-without-count", (m) => {
  svcModule(m, (mod) => void (mod["main.tf.json"].output.first = { value: "${tsdb_service.this[0].name}" }));
  m.put("module", "svc14", { source: "./modules/svc14", name: "single" });
});
def("modules", "svc-module-name-literal-fails-validation", (m) => {
  svcModule(m);
  m.put("module", "svc14", { source: "./modules/svc14", name: "Not_Valid" });
});
def("modules", "svc-module-count-zero-output-conditional", (m) => {
  svcModule(m);
  m.put("module", "svc14", { source: "./modules/svc14", count: 0, name: "off" });
  output(m, "svc14_host", { value: "${length(module.svc14) > 0 ? module.svc14[0].hostname : \"\"}" });
});

// ---- provider aliases handed to modules ----
function aliasModule(m, resourceProvider = "tsdb.east", aliases = ["tsdb.east"]) {
  m.modules.east14 = {
    "main.tf.json": {
      terraform: { required_providers: { tsdb: { source: "schemaform/tsdb", configuration_aliases: aliases } } },
      resource: { tsdb_vpcs: { east: { provider: resourceProvider, cidr: "10.77.0.0/16", region_code: "us-east-1" } } },
      output: { id: { value: "${tsdb_vpcs.east.vpcs_id}" } },
    },
  };
}
def("provider-aliases", "module-configuration-aliases-passed", (m) => {
  eastAlias(m);
  aliasModule(m);
  m.put("module", "east14", { source: "./modules/east14", providers: { "tsdb.east": "tsdb.east", tsdb: "tsdb" } });
});
def("provider-aliases", "module-configuration-aliases-not-passed", (m) => {
  eastAlias(m);
  aliasModule(m);
  m.put("module", "east14", { source: "./modules/east14" });
});
def("provider-aliases", "module-alias-used-not-declared-in-child", (m) => {
  eastAlias(m);
  aliasModule(m, "tsdb.west", ["tsdb.east"]);
  m.put("module", "east14", { source: "./modules/east14", providers: { "tsdb.east": "tsdb.east" } });
});
def("provider-aliases", "module-alias-passed-to-default-name", (m) => {
  eastAlias(m);
  aliasModule(m, "tsdb", []);
  m.put("module", "east14", { source: "./modules/east14", providers: { tsdb: "tsdb.east" } });
});

// ---- count and for_each on data sources and exporters ----
def("meta-arguments", "data-service-count-splat", (m) => {
  addBlock(m, "data", "tsdb_service", "s14", { count: 2, id: "svc-${count.index}" });
  output(m, "s14_hosts", { value: "${data.tsdb_service.s14[*].spec.hostname}" });
});
def("meta-arguments", "data-service-for-each-variable-set", (m) => {
  variable(m, "ids14", { type: "set(string)", default: ["svc-1", "svc-2"] });
  addBlock(m, "data", "tsdb_service", "s14", { for_each: "${var.ids14}", id: "${each.key}" });
  output(m, "s14_regions", { value: "${{ for id, s in data.tsdb_service.s14 : id => s.region_code }}" });
});
def("meta-arguments", "log-exporter-for-each-regions", (m) =>
  void addBlock(m, "resource", "tsdb_log_exporter", "l14", {
    for_each: { "us-east-1": "/a", "eu-west-1": "/b" },
    region: "${each.key}",
    cloudmon: { region: "${each.key}", log_group_name: "${each.value}", log_stream_name: "pg", role_arn: "arn:aws:iam::123456789012:role/logs" },
  }));
def("meta-arguments", "metric-exporter-count-from-local-list", (m) => {
  setLocal(m, "sites14", ["datadoghq.com", "datadoghq.eu"]);
  addBlock(m, "resource", "tsdb_metric_exporter", "x14", { count: "${length(local.sites14)}", region: "us-east-1", saasmon: { api_key: "${var.secret}", site: "${local.sites14[count.index]}" } });
});
def("meta-arguments", "metric-exporter-two-kinds", (m) =>
  void addBlock(m, "resource", "tsdb_metric_exporter", "x14", { region: "us-east-1", saasmon: { api_key: "k", site: "datadoghq.com" }, pullmon: { username: "u", password: "p" } }));
def("meta-arguments", "log-exporter-for-each-region-outside-enum", (m) =>
  void addBlock(m, "resource", "tsdb_log_exporter", "l14", {
    for_each: { "mars-north-1": "/a" },
    region: "${each.key}",
    cloudmon: { region: "${each.key}", log_group_name: "${each.value}", log_stream_name: "pg", role_arn: "arn:aws:iam::123456789012:role/logs" },
  }));

// ---- dynamic blocks ----
def("dynamic-blocks", "timeouts-from-variable-map", (m) => {
  variable(m, "t14", { type: "map(string)", default: { create: "10m" } });
  const ch = channel(m);
  ch.dynamic = { timeouts: { for_each: "${[var.t14]}", content: { create: '${lookup(timeouts.value, "create", null)}' } } };
});
def("dynamic-blocks", "nested-attribute-as-dynamic", (m) =>
  void srcDb(m, { dynamic: { tables: { for_each: '${["orders"]}', content: { schema_name: "public", table_name: "${tables.value}" } } } }));
def("dynamic-blocks", "timeouts-content-bad-duration-literal", (m) => {
  const ch = channel(m);
  ch.dynamic = { timeouts: { for_each: "${[1]}", content: { create: "ten minutes" } } };
});
def("dynamic-blocks", "timeouts-for-each-map-of-objects", (m) => {
  const ch = channel(m);
  ch.dynamic = { timeouts: { for_each: '${{ a = { c = "5m", d = "1m" } }}', content: { create: "${timeouts.value.c}", delete: "${timeouts.value.d}", update: "${timeouts.key}" } } };
});

// ---- block arrays against objects, nested attribute shapes ----
def("json-shapes", "timeouts-block-as-array", (m) => void (vpc(m).timeouts = [{ create: "10m" }]));
def("json-shapes", "timeouts-block-array-two", (m) => void (vpc(m).timeouts = [{ create: "10m" }, { delete: "5m" }]));
def("json-shapes", "lifecycle-as-array", (m) => void (vpc(m).lifecycle = [{ create_before_destroy: true }]));
def("json-shapes", "nested-list-attribute-as-object", (m) => void srcDb(m, { tables: { schema_name: "public", table_name: "orders" } }));
def("json-shapes", "single-nested-attribute-as-array", (m) => void srcDb(m, { ssh_tunnel: [{ name: "bastion", host: "b.example.com" }] }));
def("json-shapes", "nested-list-null-element", (m) => void srcDb(m, { tables: [{ schema_name: "public", table_name: "a" }, null] }));
def("json-shapes", "variable-validation-as-object", (m) =>
  void variable(m, "v14", { type: "number", default: 2, validation: { condition: "${var.v14 > 0}", error_message: "Must be positive." } }));

// ---- "//" comments in every position ----
def("json-comments", "comment-in-resource-body", (m) => void (vpc(m)["//"] = "the main network"));
def("json-comments", "comment-in-nested-attribute-object", (m) => void objStore(m, { credentials: { "//": "public bucket", type: "Public" } }));
def("json-comments", "comment-in-map-argument", (m) => void channel(m, { labels: { "//": "team label", team: "data" } }));
def("json-comments", "comment-at-resource-type-level", (m) => void (rootOf(m, "resource").resource["//"] = "resources of this file"));
def("json-comments", "comment-in-locals", (m) => setLocal(m, "//", "computed names"));
def("json-comments", "comment-in-module-call", (m, r) => void (netCall(m, r)["//"] = "shared network"));
def("json-comments", "comment-in-required-providers", (m) => void (rootOf(m, "terraform").terraform.required_providers["//"] = "pinned by the platform team"));

// ---- numbers, booleans and null as strings or literals ----
def("conversions", "bool-argument-as-string", (m) => void (db(m).connection_pooler_enabled = "true"));
def("conversions", "bool-argument-as-word", (m) => void (db(m).paused = "yes"));
def("conversions", "number-argument-as-string", (m) => void (srcDb(m).table_sync_workers = "8"));
def("conversions", "map-argument-number-values", (m) => void channel(m, { labels: { tier: 1, on: true } }));
def("conversions", "map-argument-list-value", (m) => void channel(m, { labels: { tier: [1] } }));
def("conversions", "list-argument-from-toset", (m) => void srcDb(m, { tables: '${[for t in toset(["a", "b"]) : { schema_name = "public", table_name = t }]}' }));
def("conversions", "column-names-empty-through-local", (m) => {
  setLocal(m, "cols14", []);
  objStore(m, { definition: { type: "CSV", csv: { column_names: "${local.cols14}" } } });
});
def("conversions", "ssh-port-out-of-range-through-variable-default", (m) => {
  variable(m, "port14", { type: "number", default: 70000 });
  srcDb(m, { ssh_tunnel: { name: "b", port: "${var.port14}" } });
});
def("conversions", "ssh-port-out-of-range-through-local", (m) => {
  setLocal(m, "port14", 70000);
  srcDb(m, { ssh_tunnel: { name: "b", port: "${local.port14}" } });
});
def("conversions", "empty-locals-and-variable-bodies", (m) => {
  (m.files["extra14.tf.json"] ??= {}).locals = {};
  variable(m, "e14", {});
});
def("conversions", "empty-resource-type-group", (m) => void ((m.files["extra14.tf.json"] ??= {}).resource = { tsdb_vpcs: {} }));

// ---- conversions of variable defaults ----
const typed = (name, type, value) => def("variable-types", name, (m) => variable(m, "d14", { type, default: value }));
typed("set-of-lists-duplicates", "set(list(string))", [["a"], ["a"], ["b"]]);
typed("map-of-objects-nested-optional", "map(object({ a = optional(list(number), []), b = optional(object({ c = optional(bool, true) }), {}) }))", { x: {}, y: { a: [1, "2"] } });
typed("any-mixed-tuple", "any", [1, "a", { b: true }]);
typed("list-any-mixed-objects", "list(any)", [1, { a: 1 }]);
typed("map-any-mixed", "map(any)", { a: 1, b: [1] });
typed("object-bool-for-number", "object({ a = number })", { a: true });
def("variable-types", "nullable-false-optional-attribute-null", (m) =>
  variable(m, "d14", { type: "object({ a = optional(string, \"x\") })", default: { a: null }, nullable: false }));
def("variable-types", "nullable-as-string", (m) => variable(m, "d14", { type: "string", default: "x", nullable: "false" }));

// ---- variables with validation used in several resources ----
def("variable-validation", "validation-alltrue-for", (m) => {
  variable(m, "cidrs14", {
    type: "list(string)",
    default: ["10.1.0.0/16", "10.2.0.0/16"],
    validation: [{ condition: "${alltrue([for c in var.cidrs14 : can(cidrhost(c, 0))])}", error_message: "Every entry must be a CIDR block." }],
  });
  addBlock(m, "resource", "tsdb_vpcs", "v14", { count: "${length(var.cidrs14)}", cidr: "${var.cidrs14[count.index]}", region_code: "us-east-1" });
  output(m, "v14", { value: '${join(",", tsdb_vpcs.v14[*].cidr)}' });
});
def("variable-validation", "validation-default-fails-contains", (m) =>
  variable(m, "tier14", { type: "string", default: "gold", validation: [{ condition: '${contains(["DEV", "PROD"], var.tier14)}', error_message: "tier14 must be DEV or PROD." }] }));
def("variable-validation", "validation-condition-number", (m) =>
  variable(m, "n14", { type: "list(string)", default: ["a"], validation: [{ condition: "${length(var.n14)}", error_message: "Must not be empty." }] }));
def("variable-validation", "variable-into-enum-and-pattern", (m) => {
  variable(m, "env14", { type: "string", default: "staging" });
  db(m).environment_tag = "${upper(var.env14)}";
});

// ---- string and collection functions on known values ----
const fn = (name, expr) => def("functions", name, (m) => setLocal(m, "f14", expr));
fn("format-number-verb-with-string", '${format("%d", "x")}');
fn("formatdate-bad-timestamp", '${formatdate("YYYY", "yesterday")}');
fn("regex-capture-groups", '${regex("^(\\\\d+)-(\\\\w+)$", "12-ab")}');
fn("lookup-missing-without-default", '${lookup({ a = 1 }, "b")}');
fn("zipmap-length-mismatch", '${zipmap(["a"], [1, 2])}');
fn("nonsensitive-plain", '${nonsensitive("plain")}');
fn("title-strrev-replace-group", '${replace(title(strrev("olleh dlrow")), "/(\\\\w+) (\\\\w+)/", "$2 $1")}');
fn("timeadd-bad-duration", '${timeadd("2024-01-01T00:00:00Z", "1 day")}');

// ---- templates: directives and escapes in arguments ----
def("templates", "for-directive-in-description", (m) =>
  void channel(m, { description: '%{ for k, v in local.tags ~}${k}=${v} %{ endfor ~}' }));
def("templates", "control-character-through-template", (m) => void channel(m, { description: '${"a\\u0001b"}' }));
def("templates", "bidi-override-literal", (m) => void channel(m, { description: "caf\u202ee" }));

// appended last: a definition's position picks the bases of every later one
// ---- a variable is an unknown value of its declared type at validate (issue 21) ----
const vpcFrom = (name, variableType, cidr) =>
  def("variable-types", name, (m) => {
    variable(m, "t14", { type: variableType });
    addBlock(m, "resource", "tsdb_vpcs", "t14", { cidr, region_code: "us-east-1" });
  });
vpcFrom("list-variable-for-string", "list(string)", "${var.t14}");
vpcFrom("object-variable-for-string", "object({ a = string })", "${var.t14}");
vpcFrom("list-element-for-string", "list(string)", "${var.t14[0]}");
vpcFrom("object-attribute-for-string", "object({ a = string })", "${var.t14.a}");
vpcFrom("tuple-index-past-length", "tuple([string, number])", "${var.t14[5]}");
vpcFrom("tuple-index-at-length-in-template", "tuple([string, number])", "${var.t14[2]}/16");
def("variable-types", "list-variable-for-map-attribute-through-local", (m) => {
  variable(m, "t14", { type: "list(string)" });
  setLocal(m, "t14", "${var.t14}");
  addBlock(m, "resource", "tsdb_service", "t14", { name: "x", region_code: "us-east-1", parameters: "${local.t14}" });
});
def("variable-types", "number-variable-for-bool", (m) => {
  variable(m, "t14", { type: "number" });
  addBlock(m, "resource", "tsdb_service", "t14", { name: "x", region_code: "us-east-1", paused: "${var.t14}" });
});

export const ROUND14_MUTATIONS = M;
