// Round "native2", the language inside one module: layout and whitespace, comments, numbers,
// strings, heredocs, templates, operators, for expressions, splats and indexes, and our
// providers' arguments written right and wrong (see native-round2.mjs).
import { after, append, every, on, sub } from "./native-round2-edits.mjs";

const M = "main.tf";
const NET_END = `  region_code = "eu-central-1"\n}`;
const NET_REGION = `  region_code = "eu-central-1"`;
const TIMEOUTS = `  timeouts {\n    create = "30m"\n  }`;
const REPLICAS = `  ha_replicas = each.value.replicas`;
const LABELS = `  labels              = local.common_labels`;
const LOCALS_END = `    managed-by  = "terraform"\n  }\n}`;
const NIGHTLY_NAME = `  name                = "nightly-\${var.environment}"`;
const VALUE_OUT = `  value = tsdb_vpcs.network.vpcs_id`;

/** a case on app that sets one argument of the network VPC */
const netArg = (text) => on("app", after(M, NET_REGION, `\n${text}`));
/** a case on app that adds a local `probe` and an output that shows it */
const probe = (expr) => on("app", after(M, LOCALS_END, `\n\nlocals {\n  probe = ${expr}\n}\n`), append("outputs.tf", `\noutput "probe" {\n  value = local.probe\n}\n`));
/** a case on app whose channel's description is the expression */
const describe = (expr) => on("app", after(M, NIGHTLY_NAME, `\n  description         = ${expr}`));

export function round2LanguageCases() {
  const C = [];
  const add = (cat, name, files) => C.push({ cat, name, files });

  // ---- layout and whitespace ----
  add("layout", "crlf-everywhere", on("app", every((t) => t.replace(/\n/g, "\r\n"))));
  add("layout", "tabs-for-indentation", on("app", every((t) => t.replace(/^( {2})+/gm, (s) => "\t".repeat(s.length / 2)))));
  add("layout", "no-final-newline", on("app", every((t) => t.replace(/\n+$/, ""))));
  add("layout", "blank-lines-everywhere", on("app", every((t) => t.replace(/\n/g, "\n\n"))));
  add("layout", "trailing-spaces", on("app", every((t) => t.replace(/\n/g, "   \n"))));
  add("layout", "one-line-blocks", on("app", append(M, `\nvariable "unused" { type = string }\nlocals { one_liner = 1 }\nresource "tsdb_vpcs" "tiny" { cidr = "10.9.0.0/16" }\n`)));
  add("layout", "one-line-block-two-arguments", on("app", append(M, `\nresource "tsdb_vpcs" "tiny" { cidr = "10.9.0.0/16", region_code = "us-east-1" }\n`)));
  add("layout", "one-line-nested-block", on("app", append(M, `\nresource "tsdb_vpcs" "tiny" {\n  cidr        = "10.9.0.0/16"\n  region_code = "us-east-1"\n  timeouts { create = "5m" }\n}\n`)));
  add("layout", "one-line-block-inside-one-line-block", on("app", append(M, `\nresource "tsdb_vpcs" "tiny" { timeouts { create = "5m" } }\n`)));
  add("layout", "empty-one-line-nested-block", on("app", sub(M, TIMEOUTS, `  timeouts {}`)));
  add("layout", "closing-brace-after-argument", on("app", sub(M, `  create = "30m"\n  }`, `  create = "30m" }`)));
  add("layout", "argument-on-opening-line", on("app", sub(M, `resource "tsdb_vpcs" "network" {\n  name`, `resource "tsdb_vpcs" "network" { name`)));
  add("layout", "unquoted-block-labels", on("app", sub(M, `resource "tsdb_vpcs" "network" {`, `resource tsdb_vpcs network {`)));
  add("layout", "semicolon-after-argument", on("app", sub(M, `  cidr        = "10.20.0.0/16"`, `  cidr        = "10.20.0.0/16";`)));
  add("layout", "form-feed-between-blocks", on("app", sub(M, `}\n\nresource "tsdb_service"`, `}\n\f\nresource "tsdb_service"`)));
  add("layout", "non-breaking-space-indent", on("app", sub(M, `  cidr        = "10.20.0.0/16"`, `\u00a0 cidr        = "10.20.0.0/16"`)));
  add("layout", "wide-alignment", on("app", sub(M, `  cidr        = "10.20.0.0/16"`, `  cidr                                            =                      "10.20.0.0/16"`)));

  // ---- comments ----
  add("comments", "all-three-kinds", on("app", every((t) => `# generated layout, reviewed by hand\n// owners: data-platform\n/* keep in sync\n   with the runbook */\n${t}`)));
  add("comments", "between-block-type-and-label", on("app", sub(M, `resource "tsdb_vpcs" "network"`, `resource /* the VPC */ "tsdb_vpcs" "network"`)));
  add("comments", "after-every-argument", on("app", every((t) => t.replace(/^( +[a-z_]+ += [^\n{[(]+)$/gm, "$1 # why")))); 
  add("comments", "inside-type-constraint", on("app", sub("variables.tf", `    size     = optional(string, "small")`, `    size     = optional(string, "small") # t-shirt size\n    // more later`)));
  add("comments", "inside-function-arguments", on("app", sub("variables.tf", `contains(["dev", "staging", "prod"], var.environment)`, `contains(\n      ["dev", "staging", "prod"], # allowed\n      var.environment /* given */\n    )`)));
  add("comments", "inside-for-expression", on("app", sub("outputs.tf", `{ for name, svc in tsdb_service.this : name => svc.hostname }`, `{\n    # every service\n    for name, svc in tsdb_service.this :\n    name => svc.hostname // its host\n  }`)));
  add("comments", "nested-block-comment", on("app", sub(M, NET_END, `${NET_REGION}\n  /* outer /* inner */ still comment? */\n}`)));
  add("comments", "slash-star-inside-string", on("app", sub(M, `  cidr        = "10.20.0.0/16"`, `  cidr        = "10.20.0.0/16" /* "*/ `)));
  add("comments", "double-slash-in-url-string", describe(`"see https://runbooks.example.com/restore // not a comment"`));
  add("comments", "hash-comment-in-directive", describe(`"%{ if true }yes%{ endif } # this is text"`));

  // ---- numbers ----
  const numbers = {
    "exponent-in-enum": "milli_cpu = 1e3\n  memory_gb = 4",
    "exponent-with-sign": "milli_cpu = 2E+3\n  memory_gb = 8",
    "fraction-equal-to-whole": "milli_cpu = 1000.0\n  memory_gb = 4.00",
    "leading-zeros": "milli_cpu = 0500\n  memory_gb = 02",
    "fraction-not-in-enum": "milli_cpu = 1000.5\n  memory_gb = 4",
    "tiny-fraction-above-whole": "milli_cpu = 1000.0000000000000000001\n  memory_gb = 4",
    "negative-exponent": "milli_cpu = 10000e-1\n  memory_gb = 4",
    "hexadecimal": "milli_cpu = 0x3E8\n  memory_gb = 4",
    "unary-plus": "milli_cpu = +1000\n  memory_gb = 4",
    "leading-dot": "milli_cpu = 1000\n  memory_gb = 4\n  storage_gb = .5",
    "trailing-dot": "milli_cpu = 1000\n  memory_gb = 4\n  storage_gb = 5.",
    "exponent-without-digits": "milli_cpu = 1000\n  memory_gb = 4\n  storage_gb = 1e",
    "negative-zero": "milli_cpu = 1000\n  memory_gb = 4\n  storage_gb = -0",
    "huge-storage": "milli_cpu = 1000\n  memory_gb = 4\n  storage_gb = 123456789012345678901234567890",
    "double-negation": "milli_cpu = 1000\n  memory_gb = 4\n  storage_gb = - -10",
    "string-number-in-enum": `milli_cpu = "1000"\n  memory_gb = "4"`,
    "string-with-spaces-as-number": `milli_cpu = " 1000"\n  memory_gb = 4`,
  };
  for (const [name, text] of Object.entries(numbers)) {
    add("numbers", name, on("app", sub(M, `  milli_cpu   = var.sizes[each.value.size].cpu\n  memory_gb   = var.sizes[each.value.size].memory`, `  ${text}`)));
  }
  add("numbers", "count-as-float-literal", on("app", after(M, `resource "tsdb_vpcs" "network" {`, `\n  count = 1.0`), sub("outputs.tf", VALUE_OUT, `  value = tsdb_vpcs.network[0].vpcs_id`)));
  add("numbers", "count-fraction", on("app", after(M, `resource "tsdb_vpcs" "network" {`, `\n  count = 0.5`), sub("outputs.tf", VALUE_OUT, `  value = tsdb_vpcs.network[0].vpcs_id`)));

  // ---- strings, escapes and templates ----
  add("strings", "unicode-escapes", describe(`"caf\\u00e9 \\U0001F600 \\t tab"`));
  add("strings", "hex-escape", describe(`"\\x41"`));
  add("strings", "escaped-interpolation", describe(`"literal $\${not.a.reference} and %%{ not a directive }"`));
  add("strings", "lone-dollar-and-percent", describe(`"costs $5 or 10% less"`));
  add("strings", "backslash-at-end", describe(`"ends with \\\\"`));
  add("strings", "raw-newline-in-quoted", describe(`"line one\nline two"`));
  add("strings", "interpolated-object", describe(`"\${local.common_labels}"`));
  add("strings", "interpolated-bool-and-number", describe(`"\${true}-\${1.5}-\${-2}"`));
  add("strings", "interpolated-null", describe(`"value: \${null}"`));
  add("strings", "nested-template-in-interpolation", describe(`"\${"inner \${var.environment}"}"`));
  add("strings", "directive-if-else", describe(`"%{ if var.environment == "prod" }production%{ else }not production%{ endif }"`));
  add("strings", "directive-strip-markers", describe(`"%{~ for k, v in local.common_labels ~} \${k}=\${v} %{~ endfor ~}"`));
  add("strings", "directive-if-string-condition", describe(`"%{ if "yes" }y%{ endif }"`));
  add("strings", "directive-if-unknown-string", describe(`"%{ if var.environment }y%{ endif }"`));
  add("strings", "directive-for-over-string", describe(`"%{ for c in "abc" }\${c}%{ endfor }"`));
  add("strings", "directive-endif-in-for", describe(`"%{ for x in [1] }\${x}%{ endif }"`));
  add("strings", "directive-else-in-for", describe(`"%{ for x in [1] }\${x}%{ else }none%{ endfor }"`));
  add("strings", "directive-for-three-names", describe(`"%{ for a, b, c in {} }x%{ endfor }"`));
  add("strings", "directive-unknown-keyword", describe(`"%{ while true }x%{ endwhile }"`));
  add("strings", "interpolation-missing-close", describe(`"\${var.environment"`));
  add("strings", "control-character-rejected-by-provider", describe(`"bell \\u0007 here"`));

  // ---- heredocs ----
  add("heredoc", "in-function-call", describe(`trimspace(<<EOT\n    Nightly restores of \${var.environment}.\n    Owned by the data team.\nEOT\n  )`));
  add("heredoc", "indented-with-directives", describe(`<<-EOT\n    Labels:\n    %{ for k, v in local.common_labels ~}\n      \${k} = \${v}\n    %{ endfor ~}\n    EOT`));
  add("heredoc", "empty", describe(`<<EOT\nEOT`));
  add("heredoc", "long-marker", describe(`<<END_OF_DESCRIPTION\nRestores.\nEND_OF_DESCRIPTION`));
  add("heredoc", "in-a-list", probe(`[<<EOT\nfirst\nEOT\n  , "second"]`));
  add("heredoc", "as-object-value", probe(`{\n    motd = <<-EOT\n      hello\n      EOT\n    other = 1\n  }`));
  add("heredoc", "crlf-indented", on("app", after(M, NIGHTLY_NAME, `\r\n  description         = <<-EOT\r\n    two\r\n    lines\r\n    EOT`)));
  add("heredoc", "unclosed-interpolation-inside", describe(`<<EOT\nbroken \${var.environment\nEOT`));
  add("heredoc", "marker-followed-by-text", describe(`<<EOT extra\ntext\nEOT`));
  add("heredoc", "closing-marker-with-suffix", describe(`<<EOT\ntext\nEOTX\nEOT`));
  add("heredoc", "dash-marker-in-tab-indented-file", on("app", every((t) => t.replace(/^( {2})+/gm, (s) => "\t".repeat(s.length / 2))), after(M, NIGHTLY_NAME.replace(/^ {2}/, "\t"), `\n\tdescription = <<-EOT\n\t\ttabbed\n\t\tEOT`)));
  add("heredoc", "directive-unclosed-inside", describe(`<<-EOT\n    %{ if var.environment == "prod" }\n    prod\n    EOT`));
  add("heredoc", "interpolated-marker-name", describe(`<<\${x}\ntext\n\${x}`));

  // ---- operators and precedence ----
  const ops = {
    "arithmetic-precedence": "ha_replicas = 1 + 2 * 3 - 6",
    "parentheses-out-of-range": "ha_replicas = (1 + 2) * 3",
    "modulo": "ha_replicas = 7 % 3",
    "division-to-fraction": "ha_replicas = 3 / 2",
    "string-plus-number": `ha_replicas = "1" + 1`,
    "word-plus-number": `ha_replicas = "one" + 1`,
    "bool-plus-number": "ha_replicas = true + 1",
    "comparison-chain": "enable_ha_replica = 1 < 2 == true",
    "logic-precedence": "enable_ha_replica = !false && true || false",
    "not-on-number": "enable_ha_replica = !1",
    "and-with-string": `enable_ha_replica = true && "true"`,
    "equality-of-different-types": `enable_ha_replica = 1 == "1"`,
    "conditional-string-result-to-number": `ha_replicas = var.environment == "prod" ? "2" : "0"`,
    "conditional-mismatched-collections": `ha_replicas = length(var.environment == "prod" ? ["a"] : { a = 1 })`,
    "conditional-non-bool-condition": `ha_replicas = "maybe" ? 1 : 0`,
    "conditional-nested-without-parens": `ha_replicas = var.environment == "prod" ? 2 : var.environment == "staging" ? 1 : 0`,
    "greater-than-on-strings": `enable_ha_replica = "b" > "a"`,
    "null-arithmetic": "ha_replicas = null + 1",
    "divide-by-zero-literal": "ha_replicas = 1 / 0",
    "arrow-operator": "ha_replicas = 1 => 2",
  };
  for (const [name, text] of Object.entries(ops)) add("operators", name, on("app", sub(M, REPLICAS, `  ${text}`)));

  // ---- for expressions, splats, indexes ----
  add("expressions", "for-with-index-and-filter", probe(`[for i, v in ["a", "b", ""] : "\${i}-\${v}" if v != ""]`));
  add("expressions", "for-object-grouping", probe(`{ for name, svc in var.services : svc.size => name... }`));
  add("expressions", "for-object-duplicate-key", probe(`{ for v in ["a", "a"] : v => 1 }`));
  add("expressions", "for-over-number", probe(`[for x in 5 : x]`));
  add("expressions", "for-filter-not-bool", probe(`[for x in [1, 2] : x if "sometimes"]`));
  add("expressions", "for-missing-colon", probe(`[for x in [1, 2] x]`));
  add("expressions", "for-nested", probe(`flatten([for r in ["a", "b"] : [for n in [1, 2] : "\${r}\${n}"]])`));
  add("expressions", "for-object-key-not-string", probe(`{ for v in [1, 2] : [v] => v }`));
  add("expressions", "for-ellipsis-in-list", probe(`[for v in [1, 2] : v...]`));
  add("expressions", "splat-on-for-each-resource", on("app", append("outputs.tf", `\noutput "hosts" {\n  value = tsdb_service.this[*].hostname\n}\n`)));
  add("expressions", "values-splat-on-for-each-resource", on("app", append("outputs.tf", `\noutput "hosts" {\n  value = values(tsdb_service.this)[*].hostname\n}\n`)));
  add("expressions", "splat-on-single-resource", on("app", append("outputs.tf", `\noutput "cidrs" {\n  value = tsdb_vpcs.network[*].cidr\n}\n`)));
  add("expressions", "legacy-attribute-splat", on("app", append("outputs.tf", `\noutput "cidrs" {\n  value = tsdb_vpcs.network.*.cidr\n}\n`)));
  add("expressions", "index-for-each-resource-with-number", on("app", append("outputs.tf", `\noutput "first" {\n  value = tsdb_service.this[0].hostname\n}\n`)));
  add("expressions", "legacy-numeric-index", probe(`["a", "b"].1`));
  add("expressions", "index-with-string-number", probe(`["a", "b"]["1"]`));
  add("expressions", "index-with-fraction", probe(`["a", "b"][0.5]`));
  add("expressions", "missing-map-key", probe(`{ a = 1 }["b"]`));
  add("expressions", "object-key-from-expression", probe(`{ (var.environment) = 1, "quoted" = 2, bare = 3 }`));
  add("expressions", "object-key-traversal", probe(`{ var.environment = 1 }`));
  add("expressions", "object-colon-separators", probe(`{ a: 1, b: 2 }`));
  add("expressions", "dashed-local-name", on("app", sub(M, `  common_labels = {`, `  app-name = "orders"\n  common_labels = {`), sub(M, `  name        = "\${local.name_prefix}-net"`, `  name        = local.app-name`)));
  add("expressions", "subtraction-without-spaces", on("app", sub(M, `  common_labels = {`, `  base = 2\n  common_labels = {`), sub(M, REPLICAS, `  ha_replicas = local.base-1`)));
  add("expressions", "unicode-identifiers", on("app", sub(M, `  common_labels = {`, `  größe   = "klein"\n  名前    = "orders"\n  common_labels = {`), sub(M, `  name        = "\${local.name_prefix}-net"`, `  name        = "\${local.名前}-\${local.größe}"`)));
  add("expressions", "identifier-starting-with-digit", probe(`local.1st`));
  add("expressions", "attribute-of-typed-variable", on("app", sub(M, REPLICAS, `  ha_replicas = each.value.replica_count`)));
  add("expressions", "optional-attribute-default-used", on("app", sub(M, `  paused      = each.value.paused`, `  paused      = coalesce(each.value.paused, false)`)));
  add("expressions", "type-function-mismatch", probe(`upper(["a"])`));
  add("expressions", "unknown-function", probe(`lowercase("A")`));
  add("expressions", "namespaced-core-function", probe(`core::upper("a")`));
  add("expressions", "provider-function", on("app", after(M, LOCALS_END, `\n\nlocals {\n  import_id = provider::tsdb::peering_import_id(3001, 1001)\n}\n`)));
  add("expressions", "provider-function-bad-argument", on("app", after(M, LOCALS_END, `\n\nlocals {\n  parts = provider::tsdb::parse_peering_import_id("3001-1001")\n}\n`)));
  add("expressions", "provider-function-unknown", on("app", after(M, LOCALS_END, `\n\nlocals {\n  id = provider::tsdb::vpc_import_id(1)\n}\n`)));
  add("expressions", "provider-function-undeclared-provider", on("app", after(M, LOCALS_END, `\n\nlocals {\n  id = provider::platform::peering_import_id(1, 2)\n}\n`)));

  // ---- our schemas' arguments ----
  add("arguments", "nested-attribute-as-block", on("connectors", sub(M, `  table_identifier = {\n    table_name = "landing"\n  }`, `  table_identifier {\n    table_name = "landing"\n  }`)));
  add("arguments", "list-nested-attribute-as-blocks", on("connectors", sub(M, `  tables = [\n    {\n      schema_name = "public"\n      table_name  = "events"`, `  tables {\n    schema_name = "public"\n    table_name  = "orders"\n  }\n\n  tables = [\n    {\n      schema_name = "public"\n      table_name  = "events"`)));
  add("arguments", "nested-missing-required", on("connectors", sub(M, `      schema_name = "public"\n      table_name  = "accounts"`, `      schema_name = "public"`)));
  add("arguments", "nested-wrong-type-deep", on("connectors", sub(M, `number_partitions = 4`, `number_partitions = "four"`)));
  add("arguments", "nested-string-number-deep", on("connectors", sub(M, `number_partitions = 4`, `number_partitions = "4"`)));
  add("arguments", "nested-unknown-attribute", on("connectors", sub(M, `    table_name = "landing"\n`, `    table_name = "landing"\n    owner      = "etl"\n`)));
  add("arguments", "nested-null-object", on("connectors", sub(M, `      table_mapping = {\n        schema_name = "replica"\n        table_name  = "accounts"\n      }`, `      table_mapping = null`)));
  add("arguments", "nested-list-given-object", on("connectors", sub(M, `          { hash = { column_name = "tenant_id", number_partitions = 4 } },\n`, `          hash = { column_name = "tenant_id", number_partitions = 4 }\n`)));
  add("arguments", "nested-list-empty", on("connectors", append(M, `\nresource "tsdb_connector_src_db" "empty" {\n  service_id        = tsdb_service.warehouse.id\n  display_name      = "Nothing yet"\n  connection_string = "postgresql://etl@replica:5432/app"\n  tables            = []\n}\n`)));
  add("arguments", "provider-rule-csv-with-parquet-type", on("connectors", sub(M, `    type = "CSV"`, `    type = "PARQUET"`)));
  add("arguments", "provider-rule-role-arn-missing", on("connectors", sub(M, `    role_arn = "arn:aws:iam::123456789012:role/landing-reader"\n`, ``)));
  add("arguments", "provider-pattern-partition-interval", on("connectors", sub(M, `partition_interval = "1d"`, `partition_interval = "24 hours"`)));
  add("arguments", "provider-enum-frequency", on("connectors", sub(M, `  frequency  = "@hourly"`, `  frequency  = "hourly"`)));
  add("arguments", "provider-mutually-exclusive-csv", on("connectors", sub(M, `      skip_header  = true`, `      skip_header  = true\n      auto_column_mapping = true`)));
  add("arguments", "sensitive-variable-in-sensitive-argument", on("connectors", sub(M, `  display_name       = "App database"`, `  display_name       = "App database"\n  enabled            = true`)));
  add("arguments", "bool-from-string", netArgToService(`  paused = "true"`));
  add("arguments", "bool-from-word", netArgToService(`  paused = "yes"`));
  add("arguments", "map-given-list", on("app", sub(M, LABELS, `  labels              = ["team"]`)));
  add("arguments", "map-values-numbers", on("app", sub(M, LABELS, `  labels              = { team = 1, tier = true }`)));
  add("arguments", "map-label-key-uppercase", on("app", sub(M, LABELS, `  labels              = { Team = "data" }`)));
  add("arguments", "map-null-value", on("app", sub(M, LABELS, `  labels              = { team = null }`)));
  add("arguments", "settings-map-unknown-key", netArgToService(`  parameters = { max_conections = "100" }`));
  add("arguments", "settings-map-known-keys", netArgToService(`  parameters = {\n    max_connections = 200\n    work_mem        = "64MB"\n    jit             = "off"\n  }`));
  add("arguments", "set-given-string", on("exporters", append(M, `\nresource "tsdb_peering_connection" "peer" {\n  platform_vpc_id  = 1\n  peer_account_id  = "123456789012"\n  peer_region_code = "us-east-1"\n  peer_tgw_id      = "tgw-0123456789abcdef0"\n  peer_cidr_blocks = "10.0.0.0/8"\n}\n`)));
  add("arguments", "set-with-duplicates", on("exporters", append(M, `\nresource "tsdb_peering_connection" "peer" {\n  platform_vpc_id  = 1\n  peer_account_id  = "123456789012"\n  peer_region_code = "us-east-1"\n  peer_tgw_id      = "tgw-0123456789abcdef0"\n  peer_cidr_blocks = ["10.0.0.0/8", "10.0.0.0/8"]\n}\n`)));
  add("arguments", "exactly-one-of-both-set", on("exporters", append(M, `\nresource "tsdb_peering_connection" "peer" {\n  platform_vpc_id  = 1\n  peer_account_id  = "123456789012"\n  peer_region_code = "us-east-1"\n  peer_vpc_id      = "vpc-0123456789abcdef0"\n  peer_tgw_id      = "tgw-0123456789abcdef0"\n}\n`)));
  add("arguments", "computed-only-set", netArg(`  vpcs_id     = 5`));
  add("arguments", "timeouts-as-object-attribute", on("app", sub(M, TIMEOUTS, `  timeouts = {\n    create = "30m"\n  }`)));
  add("arguments", "timeouts-bad-duration", on("app", sub(M, `create = "30m"`, `create = "half an hour"`)));
  add("arguments", "timeouts-unknown-argument", on("app", sub(M, `create = "30m"`, `create = "30m"\n    read   = "1m"`)));
  add("arguments", "timeouts-on-resource-without-timeouts", on("exporters", sub(M, `    site    = "datadoghq.eu"\n  }`, `    site    = "datadoghq.eu"\n  }\n\n  timeouts {\n    create = "1m"\n  }`)));
  add("arguments", "dynamic-timeouts-iterator", on("app", sub(M, TIMEOUTS, `  dynamic "timeouts" {\n    for_each = var.environment == "prod" ? ["60m"] : []\n    iterator = limit\n    content {\n      create = limit.value\n    }\n  }`)));
  add("arguments", "dynamic-timeouts-two-known", on("app", sub(M, TIMEOUTS, `  dynamic "timeouts" {\n    for_each = { a = "1m", b = "2m" }\n    content {\n      create = timeouts.value\n    }\n  }`)));
  add("arguments", "dynamic-nested-attribute", on("exporters", sub(M, `  saasmon = {\n    api_key = var.datadog_api_key\n    site    = "datadoghq.eu"\n  }`, `  dynamic "saasmon" {\n    for_each = [1]\n    content {\n      api_key = var.datadog_api_key\n      site    = "datadoghq.eu"\n    }\n  }`)));
  add("arguments", "dynamic-wrong-iterator-name", on("app", sub(M, TIMEOUTS, `  dynamic "timeouts" {\n    for_each = ["60m"]\n    content {\n      create = each.value\n    }\n  }`)));
  add("arguments", "ephemeral-into-write-only", on("exporters", after(M, `  ttl        = "15m"\n}`, `\n\nresource "tsdb_service" "reader" {\n  name                = "reader"\n  password_wo         = ephemeral.tsdb_service_credentials.reader.password\n  password_wo_version = 2\n}`)));
  add("arguments", "ephemeral-into-normal-argument", on("exporters", after(M, `  ttl        = "15m"\n}`, `\n\nresource "tsdb_service" "reader" {\n  name = ephemeral.tsdb_service_credentials.reader.username\n}`)));
  add("arguments", "ephemeral-variable-in-output", on("exporters", append(M, `\noutput "password" {\n  value     = var.admin_password\n  sensitive = true\n}\n`)));
  add("arguments", "ephemeral-bad-ttl", on("exporters", sub(M, `  ttl        = "15m"`, `  ttl        = "15 minutes"`)));
  add("arguments", "sensitive-into-output", on("exporters", append(M, `\noutput "key" {\n  value = var.datadog_api_key\n}\n`)));
  add("arguments", "sensitive-through-function", on("exporters", append(M, `\noutput "key_length" {\n  value = length(nonsensitive(var.datadog_api_key))\n}\n`)));

  return C;
}

/** a case on app that sets one argument of the services */
function netArgToService(text) {
  return on("app", after(M, REPLICAS, `\n${text}`));
}
