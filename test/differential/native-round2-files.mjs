// Round "native2", blocks and files: every block kind of the language (terraform, provider,
// variable, output, locals, module, moved/import/removed, check, data, ephemeral, lifecycle,
// provisioners, meta-arguments), mixed .tf/.tf.json modules, override files, local modules and
// .tftest.hcl files (see native-round2.mjs).
import { after, append, drop, on, put, sub } from "./native-round2-edits.mjs";

const M = "main.tf";
const V = "variables.tf";
const O = "outputs.tf";
const TF = "versions.tf";
const NET_OPEN = `resource "tsdb_vpcs" "network" {`;
const NET_END = `  region_code = "eu-central-1"\n}`;
const REPLICAS = `  ha_replicas = each.value.replicas`;
const TIMEOUTS = `  timeouts {\n    create = "30m"\n  }`;
const VALUE_OUT = `  value = tsdb_vpcs.network.vpcs_id`;
const REQUIRED_VERSION = `  required_version = ">= 1.9.0"`;
const ENV_VALIDATION_END = `    error_message = "Environment must be dev, staging or prod."\n  }\n}`;

/** a variable added to app's variables.tf, and an output that uses it */
const variable = (name, body, use = `var.${name}`) => on("app", append(V, `\nvariable "${name}" {\n${body}\n}\n`), append(O, `\noutput "${name}_seen" {\n  value = ${use}\n}\n`));
/** app with lines added inside the network VPC's lifecycle block */
const lifecycle = (body) => on("app", sub(M, NET_END, `${NET_END.slice(0, -1)}\n  lifecycle {\n${body}\n  }\n}`));

export function round2FileCases() {
  const C = [];
  const add = (cat, name, files) => C.push({ cat, name, files });

  // ---- terraform block ----
  add("terraform", "backend-local", on("app", after(TF, REQUIRED_VERSION, `\n\n  backend "local" {\n    path = "state/app.tfstate"\n  }`)));
  add("terraform", "backend-and-cloud", on("app", after(TF, REQUIRED_VERSION, `\n\n  backend "local" {}\n\n  cloud {\n    organization = "acme"\n    workspaces {\n      name = "app"\n    }\n  }`)));
  add("terraform", "two-backends", on("app", after(TF, REQUIRED_VERSION, `\n\n  backend "local" {}\n  backend "s3" {}`)));
  add("terraform", "backend-without-label", on("app", after(TF, REQUIRED_VERSION, `\n\n  backend {\n    path = "x"\n  }`)));
  add("terraform", "required-version-garbage", on("app", sub(TF, REQUIRED_VERSION, `  required_version = "at least one point nine"`)));
  add("terraform", "required-version-future", on("app", sub(TF, REQUIRED_VERSION, `  required_version = ">= 2.0.0"`)));
  add("terraform", "required-version-list", on("app", sub(TF, REQUIRED_VERSION, `  required_version = [">= 1.9.0"]`)));
  add("terraform", "second-terraform-block", on("app", append(M, `\nterraform {\n  required_version = "< 2.0.0"\n}\n`)));
  add("terraform", "provider-version-not-matching", on("app", sub(TF, `      version = "~> 0.1"`, `      version = "~> 2.0"`)));
  add("terraform", "provider-source-uppercase", on("app", sub(TF, `      source  = "schemaform/containerbackup"`, `      source  = "Schemaform/Containerbackup"`)));
  add("terraform", "unknown-terraform-argument", on("app", after(TF, REQUIRED_VERSION, `\n  required_terraform = "1.9"`)));
  add("terraform", "experiments-empty", on("app", after(TF, REQUIRED_VERSION, `\n  experiments      = []`)));
  add("terraform", "provider-meta-block", on("app", after(TF, REQUIRED_VERSION, `\n\n  provider_meta "tsdb" {\n    module_name = "app"\n  }`)));

  // ---- provider blocks ----
  add("providers", "alias-used", on("app", after(TF, `provider "tsdb" {\n  project_id = var.project_id\n}`, `\n\nprovider "tsdb" {\n  alias      = "dr"\n  project_id = "proj-dr"\n}`), after(M, NET_OPEN, `\n  provider    = tsdb.dr`)));
  add("providers", "unknown-argument", on("app", sub(TF, `  project_id = var.project_id\n}`, `  project_id = var.project_id\n  region     = "us-east-1"\n}`)));
  add("providers", "endpoint-not-a-url", on("app", sub(TF, `  project_id = var.project_id\n}`, `  project_id = var.project_id\n  endpoint   = "ftp://api.example.com"\n}`)));
  add("providers", "conflicting-credentials", on("app", sub(TF, `  project_id = var.project_id\n}`, `  project_id   = var.project_id\n  access_token = "t0k3n"\n  access_key   = "AKIAEXAMPLE"\n}`)));
  add("providers", "duplicate-default-provider", on("app", append(TF, `\nprovider "tsdb" {\n  project_id = "other"\n}\n`)));
  add("providers", "alias-with-dash", on("app", after(TF, `provider "tsdb" {\n  project_id = var.project_id\n}`, `\n\nprovider "tsdb" {\n  alias = "eu-west"\n}`)));
  add("providers", "provider-for-undeclared-name", on("app", append(TF, `\nprovider "tsdbx" {\n}\n`)));
  add("providers", "bad-label-pattern-on-provider", on("app", sub(TF, `provider "containerbackup" {\n  project = "acme-backups"\n}`, `provider "containerbackup" {\n  project = "acme-backups"\n  default_labels = {\n    "Cost Center" = "42"\n  }\n}`)));

  // ---- variables ----
  add("variables", "optional-with-bad-default", variable("limits", `  type = object({\n    max = optional(number, "many")\n  })\n  default = {}`));
  add("variables", "nested-optional-objects", variable("backup", `  type = object({\n    enabled = optional(bool, true)\n    window  = optional(object({\n      start = string\n      hours = optional(number, 4)\n    }), { start = "02:00" })\n  })\n  default = {}`));
  add("variables", "default-not-matching-list-of-objects", variable("members", `  type = list(object({ name = string, admin = bool }))\n  default = [{ name = "ann" }]`));
  add("variables", "default-with-extra-attribute", variable("owner", `  type    = object({ name = string })\n  default = { name = "ann", email = "ann@example.com" }`));
  add("variables", "non-nullable-null-default", variable("tier", `  type     = string\n  nullable = false\n  default  = null`));
  add("variables", "legacy-bare-map-type", variable("tags", `  type    = map\n  default = { a = "b" }`));
  add("variables", "tuple-type", variable("pair", `  type    = tuple([string, number])\n  default = ["a", 1]`));
  add("variables", "tuple-type-wrong-default", variable("pair", `  type    = tuple([string, number])\n  default = ["a", "b"]`));
  add("variables", "call-syntax-on-primitive", variable("label", `  type = string()`));
  add("variables", "misspelled-type", variable("label", `  type = strng`));
  add("variables", "optional-outside-object", variable("label", `  type = optional(string)`));
  add("variables", "any-in-collection", variable("anything", `  type    = list(any)\n  default = [1, "two"]`));
  add("variables", "validation-references-other-variable", on("app", sub(V, ENV_VALIDATION_END, `${ENV_VALIDATION_END}\n\nvariable "replica_count" {\n  type    = number\n  default = 0\n\n  validation {\n    condition     = var.environment == "prod" || var.replica_count == 0\n    error_message = "Replicas are for production only."\n  }\n}`)));
  add("variables", "validation-default-fails", on("app", sub(V, `  default = "dev"`, `  default = "test"`)));
  add("variables", "validation-error-message-template", on("app", sub(V, `    error_message = "Environment must be dev, staging or prod."`, `    error_message = "Environment must be dev, staging or prod, not \${var.environment}."`)));
  add("variables", "validation-condition-not-bool", on("app", sub(V, `    condition     = contains(["dev", "staging", "prod"], var.environment)`, `    condition     = var.environment`)));
  add("variables", "validation-missing-message", on("app", sub(V, `    error_message = "Environment must be dev, staging or prod."\n`, ``)));
  add("variables", "variable-named-count", variable("count", `  type    = number\n  default = 1`));
  add("variables", "sensitive-default-in-plain-output", variable("token", `  type      = string\n  sensitive = true\n  default   = "abc"`));
  add("variables", "ephemeral-in-resource-argument", on("app", append(V, `\nvariable "session" {\n  type      = string\n  ephemeral = true\n  default   = "s"\n}\n`), sub(M, `  name        = "\${local.name_prefix}-net"`, `  name        = var.session`)));
  add("variables", "description-heredoc", on("app", sub(V, `  description = "Services to run, by name"`, `  description = <<-EOT\n    Services to run, by name.\n    Each may set size, replicas and paused.\n  EOT`)));
  add("variables", "unknown-variable-argument", variable("zone", `  type    = string\n  default = "a"\n  secret  = true`));

  // ---- outputs and locals ----
  add("outputs", "precondition", on("app", sub(O, VALUE_OUT, `${VALUE_OUT}\n\n  precondition {\n    condition     = length(var.services) > 0\n    error_message = "At least one service is needed."\n  }`)));
  add("outputs", "precondition-without-message", on("app", sub(O, VALUE_OUT, `${VALUE_OUT}\n\n  precondition {\n    condition = true\n  }`)));
  add("outputs", "postcondition-in-output", on("app", sub(O, VALUE_OUT, `${VALUE_OUT}\n\n  postcondition {\n    condition     = true\n    error_message = "x"\n  }`)));
  add("outputs", "missing-value", on("app", sub(O, VALUE_OUT, `  description = "The VPC"`)));
  add("outputs", "ephemeral-root-output", on("app", sub(O, VALUE_OUT, `${VALUE_OUT}\n  ephemeral = true`)));
  add("outputs", "depends-on-module-and-resource", on("app", sub(O, VALUE_OUT, `${VALUE_OUT}\n  depends_on = [tsdb_service.this, containerbackup_restore_channel.nightly]`)));
  add("outputs", "duplicate-across-files", on("app", append(M, `\noutput "vpc_id" {\n  value = 1\n}\n`)));
  add("outputs", "sensitive-false-on-plain", on("app", sub(O, VALUE_OUT, `${VALUE_OUT}\n  sensitive = false`)));
  add("locals", "self-reference", on("app", sub(M, `  common_labels = {`, `  loop = local.loop\n  common_labels = {`)));
  add("locals", "cycle-between-two", on("app", sub(M, `  common_labels = {`, `  a = local.b\n  b = local.a\n  common_labels = {`)));
  add("locals", "local-using-resource-and-var", on("app", sub(M, `  common_labels = {`, `  summary = "\${tsdb_vpcs.network.cidr} in \${var.environment}"\n  common_labels = {`)));
  add("locals", "empty-locals-block", on("app", append(M, `\nlocals {\n}\n`)));
  add("locals", "nested-block-in-locals", on("app", append(M, `\nlocals {\n  group {\n    a = 1\n  }\n}\n`)));

  // ---- meta-arguments and lifecycle ----
  add("meta", "count-conditional", on("app", after(M, NET_OPEN, `\n  count = var.environment == "prod" ? 1 : 0`), sub(O, VALUE_OUT, `  value = one(tsdb_vpcs.network[*].vpcs_id)`), sub(M, `tsdb_vpcs.network.region_code`, `"eu-central-1"`), sub(M, `tsdb_vpcs.network.vpcs_id`, `null`)));
  add("meta", "count-negative", on("app", after(M, NET_OPEN, `\n  count = -1`)));
  add("meta", "count-and-for-each", on("app", after(M, NET_OPEN, `\n  count    = 1\n  for_each = toset(["a"])`)));
  add("meta", "for-each-list-of-strings", on("app", sub(M, `  for_each = var.services`, `  for_each = ["api", "jobs"]`)));
  add("meta", "for-each-tuple-through-toset", on("app", sub(M, `  for_each = var.services`, `  for_each = toset(["api", "jobs"])`), sub(M, `  milli_cpu   = var.sizes[each.value.size].cpu\n  memory_gb   = var.sizes[each.value.size].memory\n${REPLICAS}\n  paused      = each.value.paused`, `  milli_cpu   = 500`)));
  add("meta", "each-without-for-each", on("app", sub(M, `  name        = "\${local.name_prefix}-net"`, `  name        = each.key`)));
  add("meta", "count-index-without-count", on("app", sub(M, `  name        = "\${local.name_prefix}-net"`, `  name        = "net-\${count.index}"`)));
  add("meta", "self-outside-provisioner", on("app", sub(M, `  name        = "\${local.name_prefix}-net"`, `  name        = self.cidr`)));
  add("meta", "provisioner-and-connection", on("app", sub(M, NET_END, `${NET_END.slice(0, -1)}\n  connection {\n    type = "ssh"\n    host = self.name\n  }\n\n  provisioner "local-exec" {\n    command     = "echo \${self.cidr} >> cidrs.txt"\n    on_failure  = continue\n  }\n\n  provisioner "local-exec" {\n    when    = destroy\n    command = "echo gone"\n  }\n}`)));
  add("meta", "depends-on-data-and-module", on("stack", after(M, `  name   = "orders"`, `\n  depends_on = [module.network, data.tsdb_products.all]`), append(M, `\ndata "tsdb_products" "all" {}\n`)));
  add("meta", "depends-on-attribute", on("app", after(M, NET_OPEN, `\n  depends_on = [containerbackup_restore_channel.nightly.name]`)));
  add("lifecycle", "everything", lifecycle(`    prevent_destroy       = true\n    create_before_destroy = true\n    ignore_changes        = [name, timeouts]\n    replace_triggered_by  = [containerbackup_restore_channel.nightly.id]`));
  add("lifecycle", "ignore-all", lifecycle(`    ignore_changes = all`));
  add("lifecycle", "ignore-quoted-all", lifecycle(`    ignore_changes = "all"`));
  add("lifecycle", "ignore-unknown-attribute", lifecycle(`    ignore_changes = [nmae]`));
  add("lifecycle", "ignore-map-key", on("app", sub(M, `  labels              = local.common_labels\n}`, `  labels              = local.common_labels\n\n  lifecycle {\n    ignore_changes = [labels["managed-by"]]\n  }\n}`)));
  add("lifecycle", "replace-triggered-by-local", lifecycle(`    replace_triggered_by = [local.name_prefix]`));
  add("lifecycle", "prevent-destroy-from-variable", lifecycle(`    prevent_destroy = var.environment == "prod"`));
  add("lifecycle", "create-before-destroy-string", lifecycle(`    create_before_destroy = "true"`));
  add("lifecycle", "precondition-and-postcondition", lifecycle(`    precondition {\n      condition     = can(cidrhost("10.20.0.0/16", 1))\n      error_message = "Bad CIDR."\n    }\n\n    postcondition {\n      condition     = self.status != "error"\n      error_message = "The VPC failed: \${self.error_message}."\n    }`));

  // ---- moved / import / removed / check / data ----
  add("refactoring", "moved-into-module", on("stack", append(M, `\nmoved {\n  from = tsdb_vpcs.main\n  to   = module.network["us-east-1"].tsdb_vpcs.this\n}\n`)));
  add("refactoring", "moved-between-types", on("app", append(M, `\nmoved {\n  from = tsdb_vpcs.old\n  to   = tsdb_service.legacy\n}\n`)));
  add("refactoring", "moved-instance-keys", on("app", append(M, `\nmoved {\n  from = tsdb_service.api\n  to   = tsdb_service.this["api"]\n}\n`)));
  add("refactoring", "import-for-each", on("app", append(M, `\nimport {\n  for_each = var.services\n  to       = tsdb_service.this[each.key]\n  id       = "svc-\${each.key}"\n}\n`)));
  add("refactoring", "import-number-id", on("app", append(M, `\nimport {\n  to = tsdb_vpcs.network\n  id = 4242\n}\n`)));
  add("refactoring", "import-missing-id", on("app", append(M, `\nimport {\n  to = tsdb_vpcs.network\n}\n`)));
  add("refactoring", "import-into-undeclared", on("app", append(M, `\nimport {\n  to = tsdb_vpcs.backup\n  id = "17"\n}\n`)));
  add("refactoring", "import-with-provider", on("app", after(TF, `provider "tsdb" {\n  project_id = var.project_id\n}`, `\n\nprovider "tsdb" {\n  alias = "legacy"\n}`), append(M, `\nimport {\n  provider = tsdb.legacy\n  to       = tsdb_vpcs.network\n  id       = "4242"\n}\n`)));
  add("refactoring", "removed-not-destroyed", on("app", append(M, `\nremoved {\n  from = tsdb_vpcs.retired\n\n  lifecycle {\n    destroy = false\n  }\n}\n`)));
  add("refactoring", "removed-still-declared", on("app", append(M, `\nremoved {\n  from = tsdb_vpcs.network\n}\n`)));
  add("refactoring", "removed-instance-key", on("app", append(M, `\nremoved {\n  from = tsdb_vpcs.retired[0]\n}\n`)));
  add("refactoring", "removed-module", on("app", append(M, `\nremoved {\n  from = module.legacy_network\n\n  lifecycle {\n    destroy = false\n  }\n}\n`)));
  add("checks", "check-scoped-data-used-outside", on("exporters", append(M, `\noutput "probe_name" {\n  value = data.tsdb_service.probe.name\n}\n`)));
  add("checks", "check-with-resource", on("exporters", sub(M, `  assert {\n    condition     = data.tsdb_service.probe.spec.port > 0`, `  resource "tsdb_vpcs" "inner" {\n    cidr        = "10.1.0.0/16"\n    region_code = "us-east-1"\n  }\n\n  assert {\n    condition     = data.tsdb_service.probe.spec.port > 0`)));
  add("checks", "check-without-assert", on("exporters", append(M, `\ncheck "empty" {\n  data "tsdb_products" "p" {}\n}\n`)));
  add("checks", "two-asserts-and-template-message", on("exporters", append(M, `\ncheck "exporters" {\n  assert {\n    condition     = tsdb_metric_exporter.datadog.type != ""\n    error_message = "No type for \${tsdb_metric_exporter.datadog.name}."\n  }\n\n  assert {\n    condition     = tsdb_log_exporter.cloudwatch.id != null\n    error_message = "No log exporter."\n  }\n}\n`)));
  add("data", "data-missing-required", on("exporters", append(M, `\ndata "tsdb_service" "other" {}\n`)));
  add("data", "data-nested-splat", on("exporters", append(M, `\ndata "tsdb_products" "all" {}\n\noutput "prices" {\n  value = flatten(data.tsdb_products.all.products[*].plans[*].price)\n}\n`)));
  add("data", "data-unknown-attribute-of-object", on("exporters", append(M, `\ndata "tsdb_products" "all" {}\n\noutput "first" {\n  value = data.tsdb_products.all.products[0].tier\n}\n`)));
  add("data", "data-enum-argument", on("exporters", append(M, `\ndata "tsdb_service" "other" {\n  id              = "svc-1"\n  environment_tag = "QA"\n}\n`)));
  add("data", "data-with-count-and-lifecycle", on("exporters", append(M, `\ndata "tsdb_vpcs" "all" {\n  count = 2\n\n  lifecycle {\n    postcondition {\n      condition     = length(self.vpcs) >= 0\n      error_message = "No list."\n    }\n  }\n}\n`)));
  add("data", "ephemeral-with-count", on("exporters", sub(M, `ephemeral "tsdb_service_credentials" "reader" {`, `ephemeral "tsdb_service_credentials" "reader" {\n  count = 1`)));
  add("data", "ephemeral-unknown-argument", on("exporters", sub(M, `  ttl        = "15m"`, `  ttl        = "15m"\n  role       = "reader"`)));

  // ---- mixed modules, overrides and local modules ----
  add("modules", "stack-json-only-generated", on("stack", drop("main.tf.json"), put("main.tf.json", `{"resource":{"tsdb_service":{"reporting":{"name":"reporting","vpc_id":"\${module.database.hostname == \\"\\" ? 0 : 1}"}}}}`)));
  add("modules", "json-references-missing-native-module", on("stack", sub("main.tf.json", `module.network[\\"eu-west-1\\"].vpc_id`, `module.netwrk[\\"eu-west-1\\"].vpc_id`)));
  add("modules", "native-output-from-json-resource", on("stack", append(M, `\noutput "reporting_port" {\n  value = tsdb_service.reporting.port\n}\n`)));
  add("modules", "duplicate-variable-across-syntaxes", on("stack", sub("main.tf.json", `  "output": {`, `  "variable": { "regions": { "type": "list(string)" } },\n  "output": {`)));
  add("modules", "json-override-of-native-module-call", on("stack", put("main_override.tf.json", `{ "module": { "database": { "high_availability": true } } }\n`)));
  add("modules", "native-override-of-json-wrong-type", on("stack", put("reporting_override.tf", `resource "tsdb_service" "reporting" {\n  memory_gb = "plenty"\n}\n`)));
  add("modules", "native-override-adds-block", on("stack", put("reporting_override.tf", `resource "tsdb_service" "reporting" {\n  timeouts {\n    create = "1h"\n  }\n}\n`)));
  add("modules", "override-of-variable-type", on("app", put("variables_override.tf", `variable "environment" {\n  type = number\n}\n`)));
  add("modules", "override-of-output", on("app", put("override.tf", `output "vpc_id" {\n  value     = tsdb_vpcs.network.id\n  sensitive = true\n}\n`)));
  add("modules", "override-in-child-module", on("stack", put("modules/database/main_override.tf", `variable "high_availability" {\n  default = true\n}\n`)));
  add("modules", "module-for-each-over-list", on("stack", sub(M, `  for_each = var.regions`, `  for_each = ["us-east-1", "eu-west-1"]`)));
  add("modules", "module-count-and-for-each", on("stack", sub(M, `  for_each = var.regions`, `  for_each = var.regions\n  count    = 2`)));
  add("modules", "module-version-on-local-source", on("stack", after(M, `  source = "./modules/database"`, `\n  version = "1.0.0"`)));
  add("modules", "module-missing-argument", on("stack", sub(M, `  name   = "orders"\n`, ``)));
  add("modules", "module-wrong-argument-type", on("stack", sub(M, `  name   = "orders"`, `  name   = "orders"\n  high_availability = "sometimes"`)));
  add("modules", "module-unknown-output", on("stack", sub(M, `  value = module.database.hostname`, `  value = module.database.host`)));
  add("modules", "module-instance-without-key", on("stack", sub(M, `  vpc_id = module.network["us-east-1"].vpc_id`, `  vpc_id = module.network.vpc_id`)));
  add("modules", "module-source-missing-dir", on("stack", sub(M, `  source = "./modules/database"`, `  source = "./modules/databases"`)));
  add("modules", "module-providers-map", on("stack", sub(M, `  source = "./modules/database"`, `  source = "./modules/database"\n  providers = {\n    tsdb = tsdb\n  }`)));
  add("modules", "child-without-required-providers", on("stack", sub("modules/database/main.tf", `terraform {\n  required_providers {\n    tsdb = {\n      source = "schemaform/tsdb"\n    }\n  }\n}\n\n`, ``)));
  add("modules", "child-error-in-nested-attribute", on("stack", sub("modules/network/main.tf", `  region_code = var.region`, `  region_code = var.region\n  vpcs_id     = 1`)));
  add("modules", "child-sensitive-output", on("stack", sub("modules/database/main.tf", `variable "name" {\n  type = string\n}`, `variable "name" {\n  type      = string\n  sensitive = true\n}`), sub("modules/database/main.tf", `  value = tsdb_service.this.hostname`, `  value = "\${var.name}.\${tsdb_service.this.hostname}"`)));
  add("modules", "child-ephemeral-output", on("stack", append("modules/database/main.tf", `\noutput "token" {\n  value     = "t"\n  ephemeral = true\n}\n`)));
  add("modules", "nested-module-call", on("stack", append("modules/database/main.tf", `\nmodule "inner_network" {\n  source = "../network"\n  region = "eu-west-1"\n  cidr   = "10.99.0.0/16"\n}\n`)));
  add("modules", "module-in-json-calling-native", on("stack", sub("main.tf.json", `  "output": {`, `  "module": { "extra_db": { "source": "./modules/database", "name": "extra" } },\n  "output": {`)));

  // ---- .tftest.hcl files ----
  const T = "tests/service.tftest.hcl";
  const RUN_END = `    error_message = "The name is not passed through."\n  }\n}`;
  add("tests", "mock-provider", on("tested", sub(T, `variables {`, `mock_provider "tsdb" {\n  mock_resource "tsdb_service" {\n    defaults = {\n      hostname = "db.test"\n    }\n  }\n}\n\nvariables {`)));
  add("tests", "override-resource", on("tested", sub(T, RUN_END, `${RUN_END.slice(0, -1)}\n  override_resource {\n    target = tsdb_service.db\n    values = {\n      hostname = "db.test"\n    }\n  }\n}`)));
  add("tests", "run-with-setup-module", on("tested", put("tests/setup/main.tf", `output "suffix" {\n  value = "x1"\n}\n`), append(T, `\nrun "setup" {\n  module {\n    source = "./tests/setup"\n  }\n}\n\nrun "uses_setup" {\n  command = plan\n  variables {\n    name = "svc-\${run.setup.suffix}"\n  }\n}\n`)));
  add("tests", "plan-options", on("tested", append(T, `\nrun "refresh" {\n  command = plan\n  plan_options {\n    mode    = refresh-only\n    refresh = true\n  }\n}\n`)));
  add("tests", "assert-without-message", on("tested", sub(T, `    error_message = "The name is not passed through."\n`, ``)));
  add("tests", "run-unknown-attribute", on("tested", sub(T, `  command = plan\n\n  assert {`, `  command = plan\n  timeout = "5m"\n\n  assert {`)));
  add("tests", "quoted-command", on("tested", sub(T, `  command = plan\n\n  assert {`, `  command = "plan"\n\n  assert {`)));
  add("tests", "test-block-parallel", on("tested", sub(T, `variables {`, `test {\n  parallel = true\n}\n\nvariables {`)));
  add("tests", "run-providers-alias", on("tested", sub(T, `variables {`, `provider "tsdb" {\n  alias      = "test"\n  project_id = "proj-test"\n}\n\nvariables {`), sub(T, `  command = plan\n\n  assert {`, `  command = plan\n\n  providers = {\n    tsdb = tsdb.test\n  }\n\n  assert {`)));
  add("tests", "expect-failures-on-check-and-output", on("tested", append(T, `\nrun "checks" {\n  command         = plan\n  expect_failures = [output.name, tsdb_service.db]\n}\n`)));
  add("tests", "syntax-error-in-heredoc", on("tested", append(T, `\nrun "x" {\n  assert {\n    condition     = true\n    error_message = <<EOT\n  not closed\n}\n`)));
  add("tests", "test-json-file", on("tested", put("tests/extra.tftest.json", `{ "run": { "json_run": { "command": "plan" } } }\n`)));
  add("tests", "test-file-in-root-and-tests", on("tested", put("root.tftest.hcl", `run "root_level" {\n  command = plan\n}\n`)));
  add("tests", "run-references-undeclared-variable-in-assert", on("tested", sub(T, `    condition     = tsdb_service.db.name == "unit"`, `    condition     = var.missing == "unit"`)));
  add("tests", "variables-block-twice", on("tested", append(T, `\nvariables {\n  replicas = 1\n}\n`)));
  add("tests", "run-state-key-and-parallel", on("tested", sub(T, `run "defaults" {\n  command = plan`, `run "defaults" {\n  command   = plan\n  state_key = "main"`)));
  add("tests", "mock-provider-with-alias-and-data", on("tested", sub(T, `variables {`, `mock_provider "tsdb" {\n  alias = "fake"\n\n  mock_data "tsdb_products" {\n    defaults = {\n      products = []\n    }\n  }\n}\n\nvariables {`)));
  add("tests", "override-module-unknown-target", on("tested", append(T, `\noverride_module {\n  target  = module.missing\n  outputs = {}\n}\n`)));

  return C;
}
