// Thirteenth round (independent): kinds written from the Terraform language as documented and our
// provider schemas, without looking at the checker, aimed at what an outside corpus writer reaches
// for and the earlier rounds left alone: the rarely used arguments of each block kind (cloud,
// experiments, provider_meta, module calls, nullable/optional types), the ephemeral resource of
// the tsdb provider and where its values may flow, functions that fail on known arguments (core
// and provider-defined), operators and conditionals over mixed types, splats over non-lists,
// escapes, references in the wrong places and provider/depends_on in odd shapes. About a third are
// shapes Terraform accepts. Each is a model mutation (round 13) appended after the earlier rounds.
import { addBlock, db, eastAlias, find, netCall, rootOf, tsdbProviders, vpc } from "./mutations.mjs";
import { raw } from "./serialize.mjs";

export const ROUND = 13;
const M = [];
const def = (cat, name, apply) => M.push({ cat, name: `r13-${name}`, apply, round: ROUND });

const terraformBlock = (m) => rootOf(m, "terraform").terraform;
const setLocal = (m, key, value) => void (rootOf(m, "locals").locals[key] = value);
const local = (name, expr) => (m) => setLocal(m, name, expr);
const netMain = (m) => m.modules.net["main.tf.json"];
const variable = (name, body) => (m) => void m.put("variable", name, body);

// ---- the terraform block's rarely used arguments ----
def("terraform-json", "cloud-block", (m) => void (terraformBlock(m).cloud = { organization: "example-org", workspaces: { name: "analytics" } }));
def("terraform-json", "cloud-workspaces-name-and-tags", (m) => void (terraformBlock(m).cloud = { organization: "example-org", workspaces: { name: "analytics", tags: ["data"] } }));
def("terraform-json", "experiments-concluded", (m) => void (terraformBlock(m).experiments = ["module_variable_optional_attrs"]));
def("terraform-json", "provider-meta-undeclared-provider", (m) => void (terraformBlock(m).provider_meta = { nope: { hello: "world" } }));
def("terraform-json", "configuration-aliases-in-root", (m) => {
  eastAlias(m);
  terraformBlock(m).required_providers.tsdb.configuration_aliases = ["tsdb.east"];
});

// ---- module call arguments ----
def("module-calls", "providers-key-not-in-child", (m, r) => void (netCall(m, r).providers = { containerbackup: "containerbackup" }));
def("module-calls", "for-each-map-each-value", (m, r) => {
  netCall(m, r);
  m.put("module", "nets13", { source: "./modules/net", for_each: { a: "10.31.0.0/16", b: "10.32.0.0/16" }, cidr: "${each.value}", label: "net-${each.key}" });
});
def("module-calls", "count-with-each-key", (m, r) => {
  netCall(m, r);
  m.put("module", "nets13", { source: "./modules/net", count: 2, cidr: "10.33.0.0/16", label: "${each.key}" });
});
def("module-calls", "optional-object-argument", (m, r) => {
  netCall(m, r).opts = {};
  netMain(m).variable.opts = { type: 'object({ size = optional(number, 1), tier = optional(string, "basic") })', default: {} };
});
def("module-calls", "optional-object-argument-wrong-type", (m, r) => {
  netCall(m, r).opts = { size: "big" };
  netMain(m).variable.opts = { type: "object({ size = optional(number, 1) })", default: {} };
});
def("module-calls", "depends-on-variable", (m, r) => void (netCall(m, r).depends_on = ["var.cpu"]));

// ---- type constraints and variable arguments ----
def("variables-outputs", "optional-nested-default-object", variable("o13", { type: "object({ a = optional(object({ b = optional(number, 2) }), {}) })", default: {} }));
def("variables-outputs", "optional-three-arguments", variable("o13", { type: 'object({ a = optional(string, "x", "y") })' }));
def("variables-outputs", "optional-nested-required-missing", variable("o13", { type: "object({ a = optional(object({ b = string })) })", default: { a: {} } }));
def("variables-outputs", "tuple-default-wrong-element", variable("o13", { type: "tuple([string, number])", default: ["a", "b"] }));
def("variables-outputs", "map-of-lists-coercible-default", variable("o13", { type: "map(list(number))", default: { a: [1, "2"] } }));
def("variables-outputs", "list-of-optional-objects-coerced", variable("o13", { type: "list(object({ n = optional(number, 1) }))", default: [{}, { n: "2" }] }));
def("variables-outputs", "nullable-null", variable("o13", { type: "string", default: "x", nullable: null }));
def("variables-outputs", "validation-references-local", variable("o13", { type: "string", default: "x", validation: [{ condition: "${var.o13 != local.prefix}", error_message: "The value must differ from the prefix." }] }));
def("variables-outputs", "default-path-reference", variable("o13", { type: "string", default: "${path.module}" }));

// ---- the tsdb provider's ephemeral resource ----
const creds = (extra = {}) => (m) => addBlock(m, "ephemeral", "tsdb_service_credentials", "c13", { service_id: "${tsdb_service.db.id}", ...extra });
const withCreds = (after, extra) => (m) => {
  creds(extra)(m);
  after(m);
};
def("ephemeral", "credentials-into-local", withCreds(local("conn13", "${ephemeral.tsdb_service_credentials.c13.username}@${ephemeral.tsdb_service_credentials.c13.hostname}")));
def("ephemeral", "credentials-missing-service-id", (m) => void addBlock(m, "ephemeral", "tsdb_service_credentials", "c13", { ttl: "15m" }));
def("ephemeral", "credentials-unknown-argument", withCreds(() => {}, { nope: 1 }));
def("ephemeral", "credentials-ttl-invalid", withCreds(() => {}, { ttl: "forever" }));
def("ephemeral", "credentials-into-resource-argument", withCreds((m) => void (vpc(m).name = "${ephemeral.tsdb_service_credentials.c13.username}")));
def("ephemeral", "credentials-into-write-only", withCreds((m) => void Object.assign(db(m), { password_wo: "${ephemeral.tsdb_service_credentials.c13.password}", password_wo_version: 2 })));
def("ephemeral", "credentials-into-provider-config", withCreds((m) => void tsdbProviders(m).push({ alias: "eph13", project_id: "proj-eph", access_token: "${ephemeral.tsdb_service_credentials.c13.password}" })));
def("ephemeral", "credentials-count-indexed", withCreds(local("user13", "${ephemeral.tsdb_service_credentials.c13[1].username}"), { count: 2 }));
def("ephemeral", "credentials-unknown-attribute", withCreds(local("user13", "${ephemeral.tsdb_service_credentials.c13.nope}")));
def("ephemeral", "credentials-into-root-output", withCreds((m) => void m.put("output", "pw13", { value: "${ephemeral.tsdb_service_credentials.c13.password}", sensitive: true })));
def("ephemeral", "resource-depends-on-credentials", withCreds((m) => void (vpc(m).depends_on = ["ephemeral.tsdb_service_credentials.c13"])));

// ---- check blocks ----
def("checks", "assert-condition-string-true", (m) => void m.put("check", "c13", { assert: [{ condition: "true", error_message: "never" }] }));
def("checks", "second-assert-undeclared-variable", (m) => void m.put("check", "c13", {
  assert: [
    { condition: "${var.cpu > 0}", error_message: "cpu" },
    { condition: "${var.nope13 > 0}", error_message: "nope" },
  ],
}));
def("checks", "scoped-data-in-error-message", (m) => void m.put("check", "c13", {
  data: { tsdb_products: { p13: {} } },
  assert: [{ condition: "${length(data.tsdb_products.p13.products) >= 0}", error_message: "Products: ${length(data.tsdb_products.p13.products)}." }],
}));

// ---- moved, removed, import ----
const setList = (m, kind, ...items) => void (rootOf(m, kind)[kind] = items);
def("addresses", "moved-splat", (m) => setList(m, "moved", { from: "tsdb_vpcs.legacy[*]", to: "tsdb_vpcs.main" }));
def("addresses", "moved-module-to-resource", (m) => setList(m, "moved", { from: "module.old13", to: "tsdb_vpcs.main" }));
def("addresses", "moved-to-counted-instance", (m) => {
  addBlock(m, "resource", "tsdb_vpcs", "many13", { count: 2, cidr: "10.34.${count.index}.0/24", region_code: "us-east-1" });
  setList(m, "moved", { from: "tsdb_vpcs.legacy", to: "tsdb_vpcs.many13[1]" });
});
def("addresses", "removed-module-with-provisioner", (m) => setList(m, "removed", { from: "module.gone13", lifecycle: { destroy: true }, provisioner: { "local-exec": { command: "echo gone", when: "destroy" } } }));
def("addresses", "import-id-from-function", (m) => setList(m, "import", { to: "tsdb_vpcs.main", id: '${join("", ["42", "42"])}' }));

// ---- core functions on known arguments ----
const fn = (name, expr) => def("functions", name, local("f13", expr));
fn("cidrsubnets-valid", '${cidrsubnets("10.0.0.0/16", 4, 4, 8)}');
fn("cidrsubnets-overflow", '${cidrsubnets("10.0.0.0/30", 4)}');
fn("cidrhost-out-of-range", '${cidrhost("10.0.0.0/30", 8)}');
fn("formatlist-length-mismatch", '${formatlist("%s-%s", ["a"], ["b", "c"])}');
fn("replace-invalid-regex", '${replace("abc", "/(/", "x")}');
fn("csvdecode-ragged", '${csvdecode("a,b\\n1")}');
fn("templatestring-literal", '${templatestring("hello $${name}", { name = "x" })}');
fn("type-function", "${type(1)}");
fn("sort-numbers", "${sort([3, 1])}");
fn("compact-with-null", '${compact(["a", null, ""])}');
def("functions", "templatestring-of-local", (m) => {
  setLocal(m, "tpl13", "hello $${name}");
  setLocal(m, "f13", '${templatestring(local.tpl13, { name = "x" })}');
});

// ---- provider-defined functions ----
fn("provider-connection-uri-valid", '${provider::tsdb::connection_uri("db.example.com", 5432, "tsdbadmin", null, null)}');
fn("provider-connection-uri-too-few", '${provider::tsdb::connection_uri("db.example.com")}');
fn("provider-peering-import-id-string", '${provider::tsdb::peering_import_id("a", 1)}');
fn("provider-peering-import-id-fraction", "${provider::tsdb::peering_import_id(1.5, 1)}");
fn("provider-peering-import-id-below-minimum", "${provider::tsdb::peering_import_id(0, 1)}");
fn("provider-parse-peering-import-id-bad", '${provider::tsdb::parse_peering_import_id("x")}');
fn("provider-location-from-id-valid", '${provider::containerbackup::location_from_id("us-central1/nightly")}');

// ---- operators, conditionals, splats, indexes over mixed types ----
const tpl = (name, expr) => def("templates", name, local("t13", expr));
tpl("op-numeric-string-plus-number", '${"1" + 2}');
tpl("op-word-plus-number", '${"a" + 1}');
tpl("op-string-bool-and", '${"true" && false}');
tpl("op-numeric-string-greater", '${"10" > 9}');
tpl("conditional-objects-different-attributes", "${true ? { a = 1 } : { b = 2 }}");
tpl("conditional-tuples-mismatch", '${true ? [1] : ["a", true]}');
tpl("splat-on-string", '${"abc"[*]}');
tpl("splat-on-null", "${null[*]}");
tpl("for-null-key", '${{ for k in ["a"] : null => 1 }}');
tpl("index-list-numeric-string", '${[1, 2]["1"]}');
def("templates", "attribute-of-null-local", (m) => {
  setLocal(m, "n13", null);
  setLocal(m, "t13", "${local.n13.a}");
});

// ---- escapes ----
def("templates", "escaped-interpolation-in-argument", (m) => void (vpc(m).name = "vpc-$${not_a_reference}"));
def("templates", "escaped-directive-in-argument", (m) => void (vpc(m).name = "vpc-%%{ if }x"));
tpl("unicode-escape-in-interpolation", '${"caf\\u00e9"}');
tpl("short-unicode-escape-in-interpolation", '${"\\u12"}');

// ---- references where they are not allowed (and one where it is) ----
def("references", "each-in-provider-config", (m) => void tsdbProviders(m).push({ alias: "e13", project_id: "${each.key}" }));
def("references", "count-index-in-variable-default", variable("o13", { type: "number", default: "${count.index}" }));
def("references", "self-in-dynamic-for-each", (m) => {
  delete vpc(m).timeouts;
  vpc(m).dynamic = { timeouts: { for_each: "${[self.cidr]}", content: { create: "10m" } } };
});
def("references", "each-in-check-assert", (m) => void m.put("check", "c13", { assert: [{ condition: '${each.key != ""}', error_message: "x" }] }));
def("references", "each-value-in-for-each-precondition", (m) => void addBlock(m, "resource", "tsdb_vpcs", "keyed13", {
  for_each: { a: "10.35.0.0/16" },
  cidr: "${each.value}",
  region_code: "us-east-1",
  lifecycle: { precondition: [{ condition: '${each.key != ""}', error_message: "The key must not be empty." }] },
}));

// ---- provider and depends_on in odd shapes ----
def("meta-arguments", "provider-indexed", (m) => {
  eastAlias(m);
  addBlock(m, "resource", "tsdb_vpcs", "p13", { cidr: "10.36.0.0/16", region_code: "us-east-1", provider: "tsdb.east[0]" });
});
def("meta-arguments", "depends-on-duplicate", (m) => void (db(m).depends_on = ["tsdb_vpcs.main", "tsdb_vpcs.main"]));
def("meta-arguments", "depends-on-resource-inside-module", (m, r) => {
  netCall(m, r);
  db(m).depends_on = ["module.net.tsdb_vpcs.this"];
});

export const ROUND13_MUTATIONS = M;
