// Hand-written native mutations (round "native"), written from HCL's native syntax and
// Terraform's documented language, not from the checker: syntax errors, comments in odd places,
// heredocs, template directives, labels, names, numbers, block and attribute syntax swapped,
// overrides across the two syntaxes, files that are or are not read, and `.tftest.hcl` files
// beside the module (terraform validate reads them). Each changes one of the native bases
// (native-bases.mjs) and is applied to the bases it fits.
import { NATIVE_BASES } from "./native-bases.mjs";

const M = [];
/** @param {string} cat @param {string} name @param {(files: Record<string, string>) => Record<string, string> | null} change */
const def = (cat, name, change, bases = ["single", "split"]) => M.push({ cat, name, change, bases });

/** Replaces the first `needle` in the first file that has it. */
const sub = (needle, replacement) => (files) => {
  const name = Object.keys(files).find((n) => files[n].includes(needle));
  if (name === undefined) return null;
  return { ...files, [name]: files[name].replace(needle, () => replacement) };
};
/** Applies several changes in turn. */
const all = (...changes) => (files) => changes.reduce((f, change) => (f === null ? null : change(f)), files);
/** Adds (or replaces) a file. */
const put = (name, text) => (files) => ({ ...files, [name]: text });
/** Changes a whole file (the one named, else main.tf). */
const whole = (fn, name = "main.tf") => (files) => (name in files ? { ...files, [name]: fn(files[name]) } : null);
const append = (text, name = "main.tf") => whole((t) => t + text, name);

const VPC = `resource "tsdb_vpcs" "main" {`;
const TIMEOUTS = `  timeouts {\n    create = "10m"\n  }`;
const LIFECYCLE = `  lifecycle {\n    ignore_changes        = [name]\n    create_before_destroy = true\n  }`;
const LABELS = `  labels = {\n    team = "data"\n  }`;
const CIDR = `  cidr        = "10.0.0.0/16"`;
const LOCALS = `locals {\n  prefix`;
const OUTPUT = `output "db_hostname" {`;
const NAME_LINE = `  name        = "\${local.prefix}-vpc"`;

// ---- syntax errors ----
def("native-syntax", "unclosed-last-block", whole((t) => t.replace(/\}\n$/, "\n")));
def("native-syntax", "unclosed-nested-block", sub(TIMEOUTS, `  timeouts {\n    create = "10m"\n`));
def("native-syntax", "extra-closing-brace", sub(TIMEOUTS, `${TIMEOUTS}\n  }`));
def("native-syntax", "stray-token-top-level", sub(VPC, `@\n${VPC}`));
def("native-syntax", "stray-word-top-level", sub(VPC, `oops\n${VPC}`));
def("native-syntax", "stray-token-after-value", sub(CIDR, `${CIDR} ,`));
def("native-syntax", "second-value-on-line", sub(CIDR, `${CIDR} "10.1.0.0/16"`));
def("native-syntax", "two-arguments-on-a-line", sub(CIDR, `${CIDR} region = "x"`));
def("native-syntax", "block-on-line-of-closing-brace", sub(`}\n\nresource "tsdb_service" "db" {`, `} resource "tsdb_service" "db" {`));
def("native-syntax", "equals-in-block-header", sub(VPC, `resource "tsdb_vpcs" "main" = {`));
def("native-syntax", "equals-in-nested-block-header", sub(`  timeouts {\n`, `  timeouts = {\n    create = "10m"\n  }\n  timeouts2 {\n`));
def("native-syntax", "missing-equals", sub(CIDR, `  cidr        "10.0.0.0/16"`));
def("native-syntax", "colon-for-equals", sub(CIDR, `  cidr:        "10.0.0.0/16"`));
def("native-syntax", "quoted-argument-name", sub(CIDR, `  "cidr"      = "10.0.0.0/16"`));
def("native-syntax", "single-quoted-string", sub(CIDR, `  cidr        = '10.0.0.0/16'`));
def("native-syntax", "unterminated-string", sub(CIDR, `  cidr        = "10.0.0.0/16`));
def("native-syntax", "string-over-two-lines", sub(CIDR, `  cidr        = "10.0.0.0\n/16"`));
def("native-syntax", "invalid-escape", sub(CIDR, `  cidr        = "10.0.0.0\\/16"`));
def("native-syntax", "block-brace-on-next-line", sub(VPC, `resource "tsdb_vpcs" "main"\n{`));
def("native-syntax", "one-line-block-two-arguments", sub(TIMEOUTS, `  timeouts { create = "10m", delete = "5m" }`));
def("native-syntax", "one-line-block-two-arguments-no-comma", sub(TIMEOUTS, `  timeouts { create = "10m" delete = "5m" }`));
def("native-syntax", "one-line-block-closed-next-line", sub(TIMEOUTS, `  timeouts { create = "10m"\n  }`));
def("native-syntax", "nested-block-in-one-line-block", sub(LIFECYCLE, `  lifecycle { precondition { condition = true } }`));
def("native-syntax", "missing-value", sub(CIDR, `  cidr        =`));
def("native-syntax", "value-on-next-line", sub(CIDR, `  cidr        =\n    "10.0.0.0/16"`));
def("native-syntax", "operator-on-next-line", sub(`  memory_gb   = 4`, `  memory_gb   = 4\n    + 1`));
def("native-syntax", "operator-at-line-end", sub(`  memory_gb   = 4`, `  memory_gb   = 4 +\n    1`));
def("native-syntax", "unclosed-paren", sub(`  memory_gb   = 4`, `  memory_gb   = (4`));
def("native-syntax", "unclosed-bracket", sub(`  sizes  = [500, 1000, 2000]`, `  sizes  = [500, 1000, 2000`));
def("native-syntax", "unclosed-object", sub(`  tags   = { team = "data", env = "dev" }`, `  tags   = { team = "data", env = "dev"`));
def("native-syntax", "object-missing-separator", sub(`  tags   = { team = "data", env = "dev" }`, `  tags   = { team = "data" env = "dev" }`));
def("native-syntax", "tuple-missing-comma", sub(`  sizes  = [500, 1000, 2000]`, `  sizes  = [500 1000, 2000]`));
def("native-syntax", "tuple-trailing-comma", sub(`  sizes  = [500, 1000, 2000]`, `  sizes  = [500, 1000, 2000,]`));
def("native-syntax", "object-trailing-comma", sub(`  tags   = { team = "data", env = "dev" }`, `  tags   = { team = "data", env = "dev", }`));
def("native-syntax", "object-colons", sub(`  tags   = { team = "data", env = "dev" }`, `  tags   = { "team": "data", "env": "dev" }`));
def("native-syntax", "object-newlines", sub(`  tags   = { team = "data", env = "dev" }`, `  tags   = {\n    team = "data"\n    env = "dev"\n  }`));
def("native-syntax", "object-duplicate-key", sub(`  tags   = { team = "data", env = "dev" }`, `  tags   = { team = "data", team = "dev" }`));
def("native-syntax", "function-trailing-comma", sub(`length(var.name_prefix) > 0`, `length(\n      var.name_prefix,\n    ) > 0`));
def("native-syntax", "invalid-character", sub(CIDR, `  cidr        = "10.0.0.0/16" ^`));
def("native-syntax", "bitwise-operator", sub(`  memory_gb   = 4`, `  memory_gb   = 4 & 4`));
def("native-syntax", "double-equals-assignment", sub(`  memory_gb   = 4`, `  memory_gb   == 4`));
def("native-syntax", "nul-byte", sub(CIDR, `${CIDR}\u0000`));
def("native-syntax", "json-in-tf-file", put("extra.tf", `{\n  "locals": { "x": 1 }\n}\n`));
def("native-syntax", "native-in-tf-json-file", put("extra.tf.json", `locals {\n  x = 1\n}\n`));
def("native-syntax", "end-of-file-in-expression", append(`locals {\n  late = [\n    1,\n`));
def("native-syntax", "end-of-file-after-equals", append(`locals {\n  late =`));
def("native-syntax", "legacy-splat-and-index", sub(`  value = [for k, v in tsdb_vpcs.regional : v.vpcs_id]`, `  value = [[1, 2]].0.1`));

// ---- comments in odd places ----
def("native-comments", "between-labels", sub(VPC, `resource /* type */ "tsdb_vpcs" # name follows\n"main" {`));
def("native-comments", "block-comment-between-labels", sub(VPC, `resource /* type */ "tsdb_vpcs" /* name */ "main" {`));
def("native-comments", "between-equals-and-value", sub(CIDR, `  cidr        = /* the range */ "10.0.0.0/16"`));
def("native-comments", "after-value", sub(CIDR, `${CIDR} # the range\n  // and more`));
def("native-comments", "inside-tuple", sub(`  sizes  = [500, 1000, 2000]`, `  sizes  = [\n    500, # small\n    1000, // medium\n    /* large */ 2000,\n  ]`));
def("native-comments", "inside-object", sub(`  tags   = { team = "data", env = "dev" }`, `  tags   = {\n    # who\n    team = "data" // owner\n    /* where */ env = "dev"\n  }`));
def("native-comments", "after-opening-brace", sub(VPC, `${VPC} # the main network`));
def("native-comments", "after-closing-brace", sub(TIMEOUTS, `${TIMEOUTS} // creation only`));
def("native-comments", "unclosed-block-comment", append(`/* nothing closes this\nlocals {\n  z = 1\n}\n`));
def("native-comments", "block-comment-spanning-attribute", sub(CIDR, `  /*\n  cidr        = "10.9.0.0/16"\n  */\n${CIDR}`));
def("native-comments", "comment-at-end-without-newline", whole((t) => `${t}# the end`));
def("native-comments", "hash-inside-string", sub(NAME_LINE, `  name        = "vpc#1 // not a comment"`));
def("native-comments", "comment-in-heredoc", sub(`  description = "Prefix of every name."`, `  description = <<EOT\n# not a comment\n// nor this\nEOT`));
def("native-comments", "comment-inside-interpolation", sub(NAME_LINE, `  name        = "\${local.prefix /* p */}-vpc"`));
def("native-comments", "comment-only-file", put("notes.tf", `# nothing but comments\n/* here */\n// either\n`));
def("native-comments", "empty-file", put("empty.tf", ``));

// ---- heredocs ----
def("native-heredoc", "plain", sub(`  description = "Prefix of every name."`, `  description = <<EOT\nPrefix of every name.\nSecond line.\nEOT`));
def("native-heredoc", "indented", sub(`  description = "Prefix of every name."`, `  description = <<-EOT\n    Prefix of every name.\n      Indented more.\n    EOT`));
def("native-heredoc", "indented-marker-without-dash", sub(`  description = "Prefix of every name."`, `  description = <<EOT\n    Prefix of every name.\n    EOT`));
def("native-heredoc", "unterminated", append(`locals {\n  text = <<EOT\nnever closed\n}\n`));
def("native-heredoc", "marker-with-trailing-text", sub(`  description = "Prefix of every name."`, `  description = <<EOT\nPrefix.\nEOT still\nEOT`));
def("native-heredoc", "crlf-file", whole((t) => t.replace(`  description = "Prefix of every name."`, `  description = <<-EOT\n    Prefix.\n    EOT`).replace(/\n/g, "\r\n")));
def("native-heredoc", "crlf-in-interpolation", sub(NAME_LINE, `  name        = "\${trimspace(<<EOT\r\nvpc\r\nEOT\r\n)}"`));
def("native-heredoc", "with-interpolation-and-directive", sub(`  description = "Prefix of every name."`, `  description = <<EOT\nPrefix \${"of"} every name.\n%{ for s in ["a", "b"] }\${s}%{ endfor }\nEOT`));
def("native-heredoc", "in-function-call", sub(NAME_LINE, `  name        = trimspace(<<EOT\n  vpc-main\nEOT\n  )`));
def("native-heredoc", "marker-lowercase", sub(`  description = "Prefix of every name."`, `  description = <<end_of_text\nx\nend_of_text`));
def("native-heredoc", "no-marker", sub(`  description = "Prefix of every name."`, `  description = <<\nx\n`));
def("native-heredoc", "quoted-marker", sub(`  description = "Prefix of every name."`, `  description = <<"EOT"\nx\nEOT`));
def("native-heredoc", "escapes-are-literal", sub(`  description = "Prefix of every name."`, `  description = <<EOT\nback\\slash \\n stays $\${literal}\nEOT`));

// ---- templates and directives ----
def("native-template", "if-else", sub(NAME_LINE, `  name        = "%{ if var.name_prefix != "" }\${var.name_prefix}%{ else }none%{ endif }-vpc"`));
def("native-template", "for-with-strip", sub(NAME_LINE, `  name        = "%{ for r in ["a", "b"] ~}\${r}-%{~ endfor }vpc"`));
def("native-template", "if-unclosed", sub(NAME_LINE, `  name        = "%{ if true }vpc"`));
def("native-template", "else-twice", sub(NAME_LINE, `  name        = "%{ if true }a%{ else }b%{ else }c%{ endif }"`));
def("native-template", "endfor-without-for", sub(NAME_LINE, `  name        = "vpc%{ endfor }"`));
def("native-template", "for-over-number", sub(NAME_LINE, `  name        = "%{ for x in 3 }\${x}%{ endfor }"`));
def("native-template", "escaped-sequences", sub(NAME_LINE, `  name        = "vpc-$\${literal}-%%{literal}"`));
def("native-template", "nested-quotes", sub(NAME_LINE, `  name        = "\${upper("\${local.prefix}-vpc")}"`));
def("native-template", "unclosed-interpolation", sub(NAME_LINE, `  name        = "\${local.prefix-vpc"`));
def("native-template", "empty-interpolation", sub(NAME_LINE, `  name        = "\${}-vpc"`));
def("native-template", "unicode-escapes", sub(NAME_LINE, `  name        = "vpc-\\u00e9-\\U0001F600"`));
def("native-template", "bare-name-in-template", sub(NAME_LINE, `  name        = "\${upper(prefix)}"`));

// ---- labels and names ----
def("native-names", "bare-labels", sub(VPC, `resource tsdb_vpcs main {`));
def("native-names", "mixed-labels", sub(VPC, `resource "tsdb_vpcs" main {`));
def("native-names", "dash-in-label", all(sub(VPC, `resource "tsdb_vpcs" "main-net" {`), sub(`tsdb_vpcs.main.vpcs_id`, `tsdb_vpcs.main-net.vpcs_id`)));
def("native-names", "bare-label-with-dash", all(sub(VPC, `resource "tsdb_vpcs" main-net {`), sub(`tsdb_vpcs.main.vpcs_id`, `tsdb_vpcs.main-net.vpcs_id`)));
def("native-names", "label-starting-with-digit", sub(VPC, `resource "tsdb_vpcs" "1main" {`));
def("native-names", "number-as-label", sub(VPC, `resource "tsdb_vpcs" 1 {`));
def("native-names", "label-with-space", sub(VPC, `resource "tsdb_vpcs" "main net" {`));
def("native-names", "label-escape", sub(VPC, `resource "tsdb_vpcs" "m\\u0061in" {`));
def("native-names", "template-in-label", sub(VPC, `resource "tsdb_vpcs" "\${var.name_prefix}" {`));
def("native-names", "empty-label", sub(VPC, `resource "tsdb_vpcs" "" {`));
def("native-names", "missing-label", sub(VPC, `resource "tsdb_vpcs" {`));
def("native-names", "extra-label", sub(VPC, `resource "tsdb_vpcs" "main" "extra" {`));
def("native-names", "label-on-lifecycle", sub(`  lifecycle {\n`, `  lifecycle "x" {\n`));
def("native-names", "dash-in-local-name", all(sub(LOCALS, `locals {\n  my-prefix = "p"\n  prefix`), sub(NAME_LINE, `  name        = "\${local.my-prefix}-vpc"`)));
def("native-names", "unicode-local-name", all(sub(LOCALS, `locals {\n  größe = "p"\n  prefix`), sub(NAME_LINE, `  name        = "\${local.größe}-vpc"`)));
def("native-names", "unicode-string", sub(NAME_LINE, `  name        = "größe ✓ 🚀"`));
def("native-names", "argument-name-with-dash", sub(CIDR, `${CIDR}\n  region-code = "us-east-1"`));
def("native-names", "duplicate-argument", sub(CIDR, `${CIDR}\n  cidr        = "10.1.0.0/16"`));
def("native-names", "duplicate-argument-in-nested-block", sub(`    create = "10m"\n`, `    create = "10m"\n    create = "20m"\n`));
def("native-names", "duplicate-local-across-blocks", append(`\nlocals {\n  prefix = "again"\n}\n`));
def("native-names", "byte-order-mark", whole((t) => `\ufeff${t}`));

// ---- numbers ----
const MEMORY = `  memory_gb   = 4`;
def("native-numbers", "exponent", sub(MEMORY, `  memory_gb   = 4e0`));
def("native-numbers", "fraction-whole", sub(MEMORY, `  memory_gb   = 4.0`));
def("native-numbers", "fraction", sub(MEMORY, `  memory_gb   = 4.5`));
def("native-numbers", "hex", sub(MEMORY, `  memory_gb   = 0x4`));
def("native-numbers", "leading-zero", sub(MEMORY, `  memory_gb   = 04`));
def("native-numbers", "leading-dot", sub(MEMORY, `  memory_gb   = .4`));
def("native-numbers", "trailing-dot", sub(MEMORY, `  memory_gb   = 4.`));
def("native-numbers", "underscore", sub(MEMORY, `  memory_gb   = 4_000`));
def("native-numbers", "negative", sub(MEMORY, `  memory_gb   = -4`));
def("native-numbers", "huge", sub(MEMORY, `  memory_gb   = 123456789012345678901234567890`));
def("native-numbers", "string-number", sub(MEMORY, `  memory_gb   = "4"`));
def("native-numbers", "count-fraction", sub(VPC, `resource "tsdb_vpcs" "counted" {\n  count       = 1.5\n  cidr        = "10.9.0.0/16"\n  region_code = "us-east-1"\n}\n\n${VPC}`));

// ---- block syntax and attribute syntax ----
def("native-blocks", "timeouts-as-attribute", sub(TIMEOUTS, `  timeouts = {\n    create = "10m"\n  }`));
def("native-blocks", "timeouts-as-empty-attribute", sub(TIMEOUTS, `  timeouts = {}`));
def("native-blocks", "timeouts-empty-block", sub(TIMEOUTS, `  timeouts {}`));
def("native-blocks", "timeouts-twice", sub(TIMEOUTS, `${TIMEOUTS}\n  timeouts {\n    delete = "5m"\n  }`));
def("native-blocks", "lifecycle-as-attribute", sub(LIFECYCLE, `  lifecycle = {\n    create_before_destroy = true\n  }`));
def("native-blocks", "lifecycle-twice", sub(LIFECYCLE, `${LIFECYCLE}\n  lifecycle {\n    prevent_destroy = false\n  }`));
def("native-blocks", "map-attribute-as-block", sub(LABELS, `  labels {\n    team = "data"\n  }`));
def("native-blocks", "object-attribute-as-block", sub(`  cloudmon = {`, `  cloudmon {`));
def("native-blocks", "required-providers-as-attribute", sub(`  required_providers {\n    tsdb = {\n      source = "schemaform/tsdb"\n    }\n    containerbackup = {\n      source = "schemaform/containerbackup"\n    }\n  }`, `  required_providers = {\n    tsdb            = { source = "schemaform/tsdb" }\n    containerbackup = { source = "schemaform/containerbackup" }\n  }`));
def("native-blocks", "provider-entry-as-block", sub(`    tsdb = {\n      source = "schemaform/tsdb"\n    }`, `    tsdb {\n      source = "schemaform/tsdb"\n    }`));
def("native-blocks", "validation-as-attribute", sub(`  validation {\n    condition     = length(var.name_prefix) > 0\n    error_message = "The prefix must not be empty."\n  }`, `  validation = {\n    condition     = length(var.name_prefix) > 0\n    error_message = "The prefix must not be empty."\n  }`));
def("native-blocks", "locals-as-attribute", sub(LOCALS, `locals = {\n  prefix`));
def("native-blocks", "dynamic-timeouts", sub(TIMEOUTS, `  dynamic "timeouts" {\n    for_each = toset(["10m"])\n    content {\n      create = timeouts.value\n    }\n  }`));
def("native-blocks", "dynamic-for-attribute", sub(LABELS, `  dynamic "labels" {\n    for_each = { team = "data" }\n    content {\n      team = labels.value\n    }\n  }`));
def("native-blocks", "dynamic-without-content", sub(TIMEOUTS, `  dynamic "timeouts" {\n    for_each = toset(["10m"])\n  }`));
def("native-blocks", "provisioner", sub(TIMEOUTS, `${TIMEOUTS}\n\n  provisioner "local-exec" {\n    command = "echo \${self.cidr}"\n    when    = create\n  }`));
def("native-blocks", "provisioner-quoted-when", sub(TIMEOUTS, `${TIMEOUTS}\n\n  provisioner "local-exec" {\n    command = "echo"\n    when    = "destroy"\n  }`));
def("native-blocks", "quoted-type-constraint", sub(`  type        = string\n  default     = "demo"`, `  type        = "string"\n  default     = "demo"`));
def("native-blocks", "quoted-depends-on", sub(`  value       = tsdb_service.db.hostname`, `  value       = tsdb_service.db.hostname\n  depends_on  = ["tsdb_vpcs.main"]`));
def("native-blocks", "bare-depends-on", sub(`  value       = tsdb_service.db.hostname`, `  value       = tsdb_service.db.hostname\n  depends_on  = [tsdb_vpcs.main]`));
def("native-blocks", "quoted-ignore-changes", sub(`    ignore_changes        = [name]`, `    ignore_changes        = ["name"]`));
def("native-blocks", "quoted-provider-reference", sub(`  milli_cpu   = local.sizes[1]`, `  milli_cpu   = local.sizes[1]\n  provider    = "tsdb.east"`));
def("native-blocks", "bare-provider-reference", sub(`  milli_cpu   = local.sizes[1]`, `  milli_cpu   = local.sizes[1]\n  provider    = tsdb.east`));
def("native-blocks", "interpolated-reference", sub(`  vpc_id      = tsdb_vpcs.main.vpcs_id`, `  vpc_id      = "\${tsdb_vpcs.main.vpcs_id}"`));
def("native-blocks", "unknown-argument", sub(CIDR, `${CIDR}\n  colour      = "blue"`));
def("native-blocks", "unknown-block", sub(TIMEOUTS, `${TIMEOUTS}\n\n  settings {\n    size = 1\n  }`));
def("native-blocks", "missing-required-argument", sub(CIDR, ``));
def("native-blocks", "wrong-type", sub(MEMORY, `  memory_gb   = "lots"`));
def("native-blocks", "moved-import-removed", append(`\nmoved {\n  from = tsdb_vpcs.legacy\n  to   = tsdb_vpcs.main\n}\n\nimport {\n  to = tsdb_vpcs.main\n  id = "4242"\n}\n\nremoved {\n  from = tsdb_vpcs.retired\n  lifecycle {\n    destroy = false\n  }\n}\n`));
def("native-blocks", "moved-quoted-addresses", append(`\nmoved {\n  from = "tsdb_vpcs.legacy"\n  to   = "tsdb_vpcs.main"\n}\n`));
def("native-blocks", "check-block", append(`\ncheck "health" {\n  data "tsdb_vpcs" "probe" {}\n\n  assert {\n    condition     = length(data.tsdb_vpcs.probe.vpcs) >= 0\n    error_message = "The VPC list cannot be read."\n  }\n}\n`));
def("native-blocks", "conditions", sub(LIFECYCLE, `  lifecycle {\n    precondition {\n      condition     = var.name_prefix != ""\n      error_message = "A prefix is needed."\n    }\n    postcondition {\n      condition     = self.hostname != ""\n      error_message = "The service needs a hostname."\n    }\n  }`));
def("native-blocks", "undeclared-reference", sub(`  vpc_id      = tsdb_vpcs.main.vpcs_id`, `  vpc_id      = tsdb_vpcs.mian.vpcs_id`));
def("native-blocks", "undeclared-provider-alias", sub(`  milli_cpu   = local.sizes[1]`, `  milli_cpu   = local.sizes[1]\n  provider    = tsdb.west`));

// ---- files: overrides, mixed syntaxes, modules, tests ----
const TEST_RUN = `run "plan_it" {\n  command = plan\n\n  assert {\n    condition     = tsdb_vpcs.main.cidr == "10.0.0.0/16"\n    error_message = "The VPC has the wrong range."\n  }\n}\n`;
const ALL_BASES = ["single", "split", "module", "mixed"];
def("native-files", "override-native-of-native", put("main_override.tf", `resource "tsdb_vpcs" "main" {\n  cidr = "10.1.0.0/16"\n}\n`), ALL_BASES);
def("native-files", "override-native-wrong-type", put("main_override.tf", `resource "tsdb_vpcs" "main" {\n  cidr = ["10.1.0.0/16"]\n}\n`));
def("native-files", "override-native-missing-base", put("override.tf", `resource "tsdb_vpcs" "elsewhere" {\n  cidr = "10.1.0.0/16"\n}\n`));
def("native-files", "override-json-of-native", put("main_override.tf.json", `{\n  "resource": {\n    "tsdb_vpcs": {\n      "main": { "name": "overridden" }\n    }\n  }\n}\n`), ALL_BASES);
def("native-files", "override-native-of-json", put("generated_override.tf", `resource "tsdb_service" "generated" {\n  memory_gb = 8\n}\n`), ["mixed"]);
def("native-files", "override-native-timeouts-block", put("override.tf", `resource "tsdb_vpcs" "main" {\n  timeouts {\n    delete = "5m"\n  }\n}\n`), ALL_BASES);
def("native-files", "override-native-syntax-error", put("override.tf", `resource "tsdb_vpcs" "main" {\n  cidr = \n}\n`));
def("native-files", "override-locals", put("locals_override.tf", `locals {\n  prefix = "over"\n}\n`), ALL_BASES);
def("native-files", "override-new-unknown-argument", put("override.tf", `resource "tsdb_vpcs" "main" {\n  colour = "blue"\n}\n`));
def("native-files", "duplicate-resource-across-syntaxes", put("dup.tf.json", `{ "resource": { "tsdb_vpcs": { "main": { "cidr": "10.3.0.0/16", "region_code": "us-east-1" } } } }\n`), ALL_BASES);
def("native-files", "json-references-native", put("refs.tf.json", `{\n  "output": {\n    "from_json": { "value": "\${tsdb_vpcs.main.vpcs_id} \${local.prefix} \${var.secret}", "sensitive": true }\n  }\n}\n`), ALL_BASES);
def("native-files", "json-references-missing", put("refs.tf.json", `{\n  "output": {\n    "from_json": { "value": "\${tsdb_vpcs.missing.vpcs_id}" }\n  }\n}\n`), ALL_BASES);
def("native-files", "module-native-called-from-json", all(
  (files) => (files["calls.tf"] ? Object.fromEntries(Object.entries(files).filter(([n]) => n !== "calls.tf")) : null),
  put("calls.tf.json", `{\n  "module": {\n    "net": { "source": "./modules/net", "cidr": "10.250.0.0/16" }\n  },\n  "output": {\n    "net_vpc_id": { "value": "\${module.net.vpc_id}" }\n  }\n}\n`),
), ["module"]);
def("native-files", "module-json-called-from-native", all(
  (files) => Object.fromEntries(Object.entries(files).filter(([n]) => n !== "modules/net/main.tf")),
  put("modules/net/main.tf.json", `{\n  "terraform": { "required_providers": { "tsdb": { "source": "schemaform/tsdb" } } },\n  "variable": { "cidr": { "type": "string" }, "region": { "type": "string", "default": "us-east-1" } },\n  "resource": { "tsdb_vpcs": { "this": { "cidr": "\${var.cidr}", "region_code": "\${var.region}" } } },\n  "output": { "vpc_id": { "value": "\${tsdb_vpcs.this.vpcs_id}" } }\n}\n`),
), ["module"]);
def("native-files", "module-missing-variable", sub(`  cidr   = "10.250.0.0/16"\n`, ``), ["module"]);
def("native-files", "module-unknown-argument", sub(`  cidr   = "10.250.0.0/16"\n`, `  cidr   = "10.250.0.0/16"\n  zone   = "a"\n`), ["module"]);
def("native-files", "module-syntax-error", sub(`variable "region" {`, `variable "region" {{`), ["module"]);
def("native-files", "module-native-and-json-files", put("modules/net/extra.tf.json", `{ "output": { "cidr": { "value": "\${var.cidr}" } } }\n`), ["module"]);
def("native-files", "module-override-file", put("modules/net/main_override.tf", `variable "region" {\n  default = "eu-west-1"\n}\n`), ["module"]);
def("native-files", "ignored-files", all(put("notes.tf.bak", `not { read`), put("terraform.tfvars", `name_prefix = 1 2`), put(".hidden.tf", `broken {`), put("README.md", `# module`)), ALL_BASES);
def("native-files", "uppercase-extension", put("extra.TF", `broken {`));
def("native-files", "directory-named-like-a-file", put("shared.tf/README", `not a configuration file`));
def("native-files", "test-file-valid", put("tests/main.tftest.hcl", TEST_RUN), ALL_BASES);
def("native-files", "test-file-beside-module", put("main.tftest.hcl", `variables {\n  name_prefix = "test"\n}\n\n${TEST_RUN}`));
def("native-files", "test-file-syntax-error", put("tests/main.tftest.hcl", `run "plan_it" {\n  command = plan\n`));
def("native-files", "test-file-unknown-block", put("tests/main.tftest.hcl", `scenario "x" {\n}\n\n${TEST_RUN}`));
def("native-files", "test-file-bad-command", put("tests/main.tftest.hcl", TEST_RUN.replace("command = plan", "command = destroy")));
def("native-files", "test-file-missing-label", put("tests/main.tftest.hcl", TEST_RUN.replace(`run "plan_it" {`, `run {`)));
def("native-files", "test-file-duplicate-run", put("tests/main.tftest.hcl", `${TEST_RUN}\n${TEST_RUN}`));
def("native-files", "test-file-expect-failures", put("tests/main.tftest.hcl", `run "reject_empty" {\n  command = plan\n  variables {\n    name_prefix = ""\n  }\n  expect_failures = [var.name_prefix]\n}\n`));
def("native-files", "test-file-provider-block", put("tests/main.tftest.hcl", `provider "tsdb" {\n  project_id = "test"\n}\n\n${TEST_RUN}`));
def("native-files", "test-file-in-other-folder", put("other/main.tftest.hcl", `run {`));
def("native-files", "tfvars-beside-test", put("tests/main.tftest.hcl", `run "x" {\n  command = plan\n  assert {\n    condition = true\n  }\n}\n`));

// ---- the long tail of issue 21 (each checked against terraform validate 1.11.4 by hand first) ----
const IMPORT_DB = (provider) => `\nimport {\n  to       = tsdb_service.db\n  id       = "4242"\n  provider = ${provider}\n}\n`;
def("native-blocks", "import-provider-without-resource-provider", append(IMPORT_DB("tsdb")));
def("native-blocks", "import-provider-as-resource-provider", all(sub(`  milli_cpu   = local.sizes[1]`, `  milli_cpu   = local.sizes[1]\n  provider    = tsdb . east`), append(IMPORT_DB("tsdb.east"))));
def("native-blocks", "import-provider-other-than-resource-provider", all(sub(`  milli_cpu   = local.sizes[1]`, `  milli_cpu   = local.sizes[1]\n  provider    = tsdb.east`), append(IMPORT_DB("tsdb"))));
// HCL reads on past an argument's bad value: the module called after it is loaded and its own errors reported
const BAD_ESCAPE_LOCAL = `locals {\n  t = "\\udc00x"\n}\n\nmodule "net" {`;
def("native-files", "module-called-after-syntax-error", all(sub(`module "net" {`, BAD_ESCAPE_LOCAL), sub(`variable "region" {`, `variable "region" { type = string\n`)), ["module"]);
def("native-files", "module-called-after-unclosed-paren", all(sub(`module "net" {`, `locals {\n  t = (4\n}\n\nmodule "net" {`), sub(`variable "region" {`, `variable "region" { type = string\n`)), ["module"]);
// core functions on known arguments that Terraform refuses at validate (and a few it accepts)
const FUNCTION_CALLS = {
  "yamldecode-unclosed-flow": `yamldecode("a: [1, 2")`,
  "yamldecode-two-documents": `yamldecode("a: 1\\n---\\nb: 2")`,
  "yamldecode-empty": `yamldecode("")`,
  "yamldecode-unterminated-quote": `yamldecode("a: 'x\\nb: 1\\n")`,
  "yamldecode-valid": `yamldecode("a: [1, 2]\\nb: 'it''s'\\nc: {d: \\"e: f\\"}\\n")`,
  "textencodebase64-unknown-encoding": `textencodebase64("x", "NOPE")`,
  "textencodebase64-not-in-latin1": `textencodebase64("€", "latin1")`,
  "textencodebase64-alias": `textencodebase64("é", " csISOLatin1 ")`,
  "textdecodebase64-unpadded": `textdecodebase64("YQ", "UTF-8")`,
  "textdecodebase64-odd-utf16": `textdecodebase64("YQ==", "UTF-16LE")`,
  "string-function-null": `upper(null)`,
  "join-null-element": `join(",", ["a", null])`,
  "distinct-of-string": `distinct("a")`,
  "compact-nested-list": `compact(["a", ["b"]])`,
  "tolist-mixed-tuple": `tolist(["a", { b = 1 }])`,
  "contains-of-string": `contains("abc", "a")`,
  "setunion-of-number": `setunion(["a"], 1)`,
  "log-not-a-number": `log(1, 1)`,
  "indent-negative": `indent(-2, "x")`,
  "regexall-unbalanced": `regexall("(a", "abc")`,
  "regex-unclosed-class": `regex("a[b", "abc")`,
  "regex-bracket-first-in-class": `regex("[^]a]", "abc")`,
  "rsadecrypt-not-a-key": `rsadecrypt("eA==", "not a key")`,
  "length-of-null": `length(null)`,
  "merge-of-null": `merge(null, { a = 1 })`,
  "lookup-of-list": `lookup(["a"], "x", "d")`,
  "format-fraction-for-integer-verb": `format("%d", 1.5)`,
  "element-negative-multiple-of-length": `element(["a", "b"], -2)`,
  "element-negative-index": `element(["a", "b"], -3)`,
};
for (const [name, call] of Object.entries(FUNCTION_CALLS)) def("native-functions", name, append(`\nlocals {\n  checked = ${call}\n}\n\noutput "checked" {\n  value = local.checked\n}\n`), ["single"]);

// a tuple-typed variable's index, known from its type alone
const PAIR = (index) => `\nvariable "pair" {\n  type    = tuple([string, number])\n  default = ["a", 1]\n}\n\noutput "pair_element" {\n  value = var.pair[${index}]\n}\n`;
def("native-values", "tuple-variable-negative-index", append(PAIR("-1")), ["single"]);
def("native-values", "tuple-variable-string-index", append(PAIR(`"x"`)), ["single"]);
def("native-values", "tuple-variable-numeric-string-index", append(PAIR(`"1"`)), ["single"]);
// for_each over what a sensitive variable derives: a splat is marked, some functions drop the mark at validate
const SECRET_SET = (forEach) => `\nvariable "secrets" {\n  type      = list(string)\n  sensitive = true\n  default   = ["a"]\n}\n\nresource "terraform_data" "per_secret" {\n  for_each = ${forEach}\n}\n`;
def("native-values", "for-each-splat-of-sensitive", append(SECRET_SET("toset(var.secrets[*])")), ["single"]);
def("native-values", "for-each-legacy-splat-of-sensitive", append(SECRET_SET("toset(var.secrets.*)")), ["single"]);
def("native-values", "for-each-flatten-of-sensitive-in-tuple", append(SECRET_SET("toset(flatten([var.secrets]))")), ["single"]);
def("native-values", "for-each-concat-of-sensitive", append(SECRET_SET("toset(concat(var.secrets, []))")), ["single"]);
// a test run's alternate module: its source as terraform init reads it
const RUN_MODULE = (source) => `run "alternate" {\n  command = plan\n\n  module {\n    source = ${source}\n  }\n}\n`;
for (const [name, source] of Object.entries({ local: `"./modules/net"`, empty: `""`, "missing-directory": `"./modules/missing"`, variable: "var.where", "remote-git": `"git::https://example.com/net.git"`, "bare-relative": `"modules/net"` })) {
  def("native-files", `test-file-run-module-source-${name}`, put("tests/alternate.tftest.hcl", RUN_MODULE(source)), ["module"]);
}

/** The hand-written cases: each mutation on (at most two of) the bases it names that it changes. */
export function nativeMutationCases() {
  const cases = [];
  for (const m of M) {
    let used = 0;
    for (const base of m.bases) {
      if (used >= 2) break;
      const files = m.change({ ...NATIVE_BASES[base] });
      if (files === null) continue;
      used++;
      cases.push({ id: `${m.cat}/${m.name}/${base}`, category: m.cat, files });
    }
    if (used === 0) throw new Error(`native mutation ${m.cat}/${m.name} changes none of its bases`);
  }
  for (const [name, files] of Object.entries(NATIVE_BASES)) cases.push({ id: `native-valid/base/${name}`, category: "native-valid", files: { ...files } });
  return cases;
}
