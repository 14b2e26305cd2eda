// Twelfth round (independent, "long tail"): kinds written without looking at the checker, from
// the classes a fresh corpus found (issue 21) and beyond: values merged in by override files,
// template directives, escapes inside interpolations, number precision in count, for_each over
// odd collections, indexes into sets and single blocks, scope rules of nested blocks, cycles
// between validations, malformed inputs that must not crash, and shapes Terraform accepts at
// validate that a checker may refuse. Each is a model mutation (round 12) appended after the
// earlier rounds so their cases keep their bases.
import { find } from "./mutations.mjs";
import { DUP, raw } from "./serialize.mjs";

export const ROUND = 12;
const M = [];
const def = (cat, name, apply) => M.push({ cat, name, apply, round: ROUND });

const vpc = (m) => find(m, "resource", "tsdb_vpcs", "main");
const db = (m) => find(m, "resource", "tsdb_service", "db");
function rootOf(m, kind) {
  for (const root of Object.values(m.files)) if (root[kind]) return root;
  return (m.files["main.tf.json"] ??= {});
}
function addRes(m, type, name, body, kind = "resource") {
  const root = rootOf(m, kind);
  ((root[kind] ??= {})[type] ??= {})[name] = body;
  return body;
}
const setLocal = (m, key, value) => void (rootOf(m, "locals").locals[key] = value);
const local = (name, expr) => (m) => setLocal(m, name, expr);
const override = (file, content) => (m) => void (m.files[file] = content);
function eastAlias(m) {
  const root = rootOf(m, "provider");
  if (!Array.isArray(root.provider.tsdb)) root.provider.tsdb = [root.provider.tsdb];
  if (!root.provider.tsdb.some((p) => p.alias === "east")) root.provider.tsdb.push({ alias: "east", project_id: "proj-east" });
}

// ---- override files: the merged result is what Terraform checks ----
def("multi-file-duplicates", "lt-override-argument-wrong-type", override("main_override.tf.json", { resource: { tsdb_vpcs: { main: { cidr: { a: 1 } } } } }));
def("multi-file-duplicates", "lt-override-breaks-value-rule", override("main_override.tf.json", { resource: { tsdb_service: { db: { milli_cpu: 3 } } } }));
def("multi-file-duplicates", "lt-override-required-to-null", override("main_override.tf.json", { resource: { tsdb_vpcs: { main: { cidr: null } } } }));
def("multi-file-duplicates", "lt-override-default-misfits-type", override("override.tf.json", { variable: { cpu: { default: "many" } } }));
def("multi-file-duplicates", "lt-override-type-misfits-default", override("override.tf.json", { variable: { cpu: { type: "bool" } } }));
def("multi-file-duplicates", "lt-override-region-pattern", override("network_override.tf.json", { resource: { tsdb_vpcs: { main: { region_code: "az-9" } } } }));
def("multi-file-duplicates", "lt-override-output-undeclared-reference", override("outputs_override.tf.json", { output: { db_hostname: { value: "${var.nope}" } } }));

// ---- template directives ----
def("templates", "lt-directive-else-twice", local("t", "%{if true}a%{else}b%{else}c%{endif}"));
def("templates", "lt-directive-for-over-number", local("t", "%{for x in 5}${x}%{endfor}"));
def("templates", "lt-directive-endif-missing", local("t", "%{if true}a"));
def("templates", "lt-directive-endfor-alone", local("t", "a%{endfor}"));
def("templates", "lt-directive-for-with-else", local("t", "%{for x in [1]}${x}%{else}none%{endfor}"));
def("templates", "lt-directive-if-number-condition", local("t", "%{if 1}a%{endif}"));
def("templates", "lt-bare-name-in-function", (m) => void (vpc(m).name = "${upper(bar)}"));
def("templates", "lt-bare-name-in-conditional", local("t", '${true ? bar : "x"}'));

// ---- escapes inside ${ } ----
def("syntax", "lt-hcl-surrogate-escape-pair", local("t", '${"\\ud83d\\ude00"}'));
def("syntax", "lt-hcl-surrogate-escape-lone", local("t", '${"\\udc00x"}'));
def("syntax", "lt-json-surrogate-pair-in-interpolation", local("t", raw('"${\\"\\ud83d\\ude00\\"}"')));
def("syntax", "lt-json-lone-surrogate-in-interpolation", local("t", raw('"${\\"\\ud83d\\"}"')));
def("syntax", "lt-hcl-big-u-escape-out-of-range", local("t", '${"\\U00110000"}'));

// ---- count precision and arithmetic ----
const counted = (count) => (m) => void addRes(m, "tsdb_vpcs", "lt", { count, cidr: "10.77.0.0/16", region_code: "us-east-1" });
def("meta-arguments", "lt-count-almost-whole", counted(raw("1.0000000000000000001")));
def("meta-arguments", "lt-count-underflow", counted(raw("1e-400")));
def("meta-arguments", "lt-count-divide-by-zero", counted("${2 / 0}"));
def("meta-arguments", "lt-count-whole-exponent", counted(raw("2.0e0")));
def("meta-arguments", "lt-count-template-fraction", counted("${3 / 2}"));
def("meta-arguments", "lt-count-huge", counted(raw("1e400")));

// ---- for_each over odd collections ----
const keyed = (forEach, extra = {}) => (m) => void addRes(m, "tsdb_vpcs", "lt", { for_each: forEach, cidr: "10.78.0.0/16", region_code: "us-east-1", ...extra });
def("meta-arguments", "lt-for-each-set-with-null", keyed('${toset(["a", null])}'));
def("meta-arguments", "lt-for-each-list-string-variable", (m) => {
  m.put("variable", "names", { type: "list(string)", default: ["a", "b"] });
  keyed("${var.names}")(m);
});
def("meta-arguments", "lt-for-each-sensitive-literal", keyed("${sensitive({ a = 1 })}"));
def("meta-arguments", "lt-for-each-sensitive-variable", (m) => {
  m.put("variable", "zones", { type: "map(string)", sensitive: true, default: { a: "x" } });
  keyed("${var.zones}")(m);
});
def("meta-arguments", "lt-for-each-grouping", keyed('${{ for k in ["a", "b", "a"] : k => k... }}'));
def("meta-arguments", "lt-for-each-set-of-numbers", keyed("${toset([1, 2])}"));

// ---- indexes into sets and single blocks ----
const peer = (m) => addRes(m, "tsdb_peering_connection", "lt", { platform_vpc_id: "${tsdb_vpcs.main.vpcs_id}", peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_tgw_id: "tgw-0123456789abcdef0", peer_cidr_blocks: ["10.100.0.0/16"] });
def("references", "lt-index-into-set-reference", (m) => {
  peer(m);
  m.put("output", "lt", { value: "${tsdb_peering_connection.lt.peer_cidr_blocks[0]}" });
});
def("references", "lt-index-into-set-ignore-changes", (m) => void (peer(m).lifecycle = { ignore_changes: ["peer_cidr_blocks[0]"] }));
def("references", "lt-index-into-single-block-reference", (m) => void m.put("output", "lt", { value: "${tsdb_vpcs.main.timeouts[0]}" }));
def("references", "lt-index-into-single-block-ignore-changes", (m) => void (vpc(m).lifecycle = { ignore_changes: ["timeouts[0]"] }));
def("references", "lt-attribute-of-set-element-splat", (m) => {
  peer(m);
  m.put("output", "lt", { value: "${tsdb_peering_connection.lt.peer_cidr_blocks.*.x}" });
});

// ---- scope rules of nested blocks ----
def("checks", "lt-check-data-lifecycle", (m) => void m.put("check", "lt", {
  data: { tsdb_vpcs: { probe: { lifecycle: { postcondition: [{ condition: "${self.id != \"\"}", error_message: "x" }] } } } },
  assert: [{ condition: "${var.cpu > 0}", error_message: "x" }],
}));
def("checks", "lt-check-data-depends-on", (m) => void m.put("check", "lt", {
  data: { tsdb_vpcs: { probe: { depends_on: ["tsdb_vpcs.main"] } } },
  assert: [{ condition: "${var.cpu > 0}", error_message: "x" }],
}));
def("addresses", "lt-import-to-count-index", (m) => {
  addRes(m, "tsdb_vpcs", "lt", { count: 2, cidr: "10.79.${count.index}.0/24", region_code: "us-east-1" });
  rootOf(m, "import").import = [{ to: "tsdb_vpcs.lt[count.index]", id: "x" }];
});
def("addresses", "lt-removed-provisioner-without-when", (m) => void (rootOf(m, "removed").removed = [{ from: "tsdb_vpcs.retired", lifecycle: { destroy: true }, provisioner: { "local-exec": { command: "echo gone" } } }]));
def("addresses", "lt-removed-provisioner-when-create", (m) => void (rootOf(m, "removed").removed = [{ from: "tsdb_vpcs.retired", lifecycle: { destroy: true }, provisioner: { "local-exec": { command: "echo gone", when: "create" } } }]));

// ---- validations, providers, dependencies, defaults ----
def("variables-outputs", "lt-validation-cycle", (m) => {
  m.put("variable", "a", { type: "string", default: "x", validation: [{ condition: "${var.a != var.b}", error_message: "x" }] });
  m.put("variable", "b", { type: "string", default: "y", validation: [{ condition: "${var.b != var.a}", error_message: "x" }] });
});
def("variables-outputs", "lt-validation-other-variable", (m) => {
  m.put("variable", "a", { type: "string", default: "x", validation: [{ condition: "${var.a != var.cpu}", error_message: "x" }] });
});
def("provider-aliases", "lt-provider-version-invalid", (m) => {
  const root = rootOf(m, "provider");
  const p = Array.isArray(root.provider.tsdb) ? root.provider.tsdb[0] : root.provider.tsdb;
  p.version = "not a version";
});
def("provider-aliases", "lt-provider-version-valid", (m) => {
  const root = rootOf(m, "provider");
  const p = Array.isArray(root.provider.tsdb) ? root.provider.tsdb[0] : root.provider.tsdb;
  p.version = ">= 0.1";
});
def("meta-arguments", "lt-depends-on-bare-type", (m) => void (db(m).depends_on = ["tsdb_vpcs"]));
def("meta-arguments", "lt-depends-on-data-bare-type", (m) => void (db(m).depends_on = ["data.tsdb_vpcs"]));
def("variables-outputs", "lt-default-duplicate-key", (m) => void m.put("variable", "lt", { type: "map(string)", default: { a: "1", [`a${DUP}2`]: "2" } }));
def("variables-outputs", "lt-default-duplicate-nested-key", (m) => void m.put("variable", "lt", { default: { o: { a: 1, [`a${DUP}2`]: 2 } } }));

// ---- shapes Terraform accepts at validate ----
def("false-positive-shapes", "lt-heredoc-crlf-in-interpolation", local("t", "${<<EOT\r\nhello\r\nEOT\r\n}"));
def("false-positive-shapes", "lt-heredoc-lf-in-interpolation", local("t", "${<<-EOT\n  hello\n  EOT\n}"));
def("false-positive-shapes", "lt-issensitive-unmarked-output", (m) => void m.put("output", "lt", { value: "${issensitive(var.secret)}" }));
def("false-positive-shapes", "lt-import-for-each-null", (m) => void (rootOf(m, "import").import = [{ for_each: null, to: "tsdb_vpcs.main", id: "x" }]));
def("false-positive-shapes", "lt-provider-reference-space", (m) => {
  eastAlias(m);
  addRes(m, "tsdb_vpcs", "lt", { cidr: "10.80.0.0/16", region_code: "us-east-1", provider: "tsdb .east" });
});
def("false-positive-shapes", "lt-sensitive-map-key-local", local("t", "${{ (var.secret) = 1 }}"));
def("false-positive-shapes", "lt-sensitive-map-key-output", (m) => void m.put("output", "lt", { value: { "${var.secret}": "x" }, sensitive: true }));

// ---- inputs that must not crash ----
def("syntax", "lt-directory-named-tf-json", (m) => void (m.files["x.tf.json/README"] = raw("not a file of the module")));
def("syntax", "lt-long-sum", local("t", "${" + Array(5000).fill("1").join(" + ") + "}"));
def("syntax", "lt-long-string-concat", local("t", "${" + Array(3000).fill('"a"').join(" == ") + "}"));
def("syntax", "lt-deep-parentheses", local("t", "${" + "(".repeat(1500) + "1" + ")".repeat(1500) + "}"));
def("syntax", "lt-deep-list", local("t", "${" + "[".repeat(1500) + "1" + "]".repeat(1500) + "}"));

export const LONG_TAIL_MUTATIONS = M;
