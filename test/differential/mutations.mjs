// Mutations of a valid base, per category. Each changes the model (or, for JSON-level syntax, the
// written text of one file) into something Terraform may accept or reject: the recording decides,
// not the name of the mutation. A mutation returns false when it does not apply to the base.
import { addModuleCall } from "./base.mjs";
import { DUP, raw } from "./serialize.mjs";

// ---- helpers over the model ----

/** The body of a block, wherever it lives (root module files). */
export function find(m, kind, type, name) {
  for (const root of Object.values(m.files)) {
    const group = root[kind]?.[type];
    if (group && name === undefined) return group;
    if (group && group[name]) return group[name];
  }
  return undefined;
}
export const db = (m) => find(m, "resource", "tsdb_service", "db");
export const vpc = (m) => find(m, "resource", "tsdb_vpcs", "main");
/** The root object of the file holding `kind` (or main.tf.json). */
export function rootOf(m, kind) {
  for (const root of Object.values(m.files)) if (root[kind]) return root;
  return (m.files["main.tf.json"] ??= {});
}
/** The tsdb provider blocks of the root module, as a list. */
export function tsdbProviders(m) {
  const root = rootOf(m, "provider");
  if (!Array.isArray(root.provider.tsdb)) root.provider.tsdb = [root.provider.tsdb];
  return root.provider.tsdb;
}
/** A tsdb provider configuration with alias "east" (added once). */
export function eastAlias(m) {
  const list = tsdbProviders(m);
  if (!list.some((p) => p.alias === "east")) list.push({ alias: "east", project_id: "proj-east" });
}
/** The root module's call of ./modules/net (added when the base has none). */
export function netCall(m, r) {
  if (!m.modules.net) addModuleCall(m, r, "net");
  return find(m, "module", "net") ?? (m.put("module", "net", { source: "./modules/net", cidr: "10.250.0.0/16" }), find(m, "module", "net"));
}
/** A block `kind.type.name` with `body`, in the file holding `kind`. */
export function addBlock(m, kind, type, name, body) {
  const root = rootOf(m, kind);
  ((root[kind] ??= {})[type] ??= {})[name] = body;
  return body;
}
function group(m, kind) {
  const root = rootOf(m, kind);
  return (root[kind] ??= {});
}
function addRes(m, type, name, body, kind = "resource") {
  const root = rootOf(m, kind);
  ((root[kind] ??= {})[type] ??= {})[name] = body;
  return body;
}
function otherFile(m, r) {
  const names = Object.keys(m.files);
  return r.chance(0.5) && names.length > 1 ? names[names.length - 1] : "extra.tf.json";
}
function addToFile(m, file, kind, key, value) {
  const root = (m.files[file] ??= {});
  (root[kind] ??= {})[key] = value;
}
function ensureNet(m, r) {
  if (!m.modules.net || !find(m, "module", "net")) {
    if (!m.modules.net) addModuleCall(m, r, "net");
    else m.put("module", "net", { source: "./modules/net", cidr: "10.250.0.0/16" });
  }
  return find(m, "module", "net");
}
function setLocal(m, key, value) {
  rootOf(m, "locals").locals[key] = value;
}
function providerList(m) {
  const root = rootOf(m, "provider");
  const p = root.provider.tsdb;
  if (!Array.isArray(p)) root.provider.tsdb = [p];
  return root.provider.tsdb;
}
/** The root object of the file that declares tsdb_vpcs.main. */
function vpcRoot(m) {
  for (const root of Object.values(m.files)) if (root.resource?.tsdb_vpcs?.main) return root;
  throw new Error("every base declares tsdb_vpcs.main");
}
/** Sets a module's moved or import blocks to just these (in the file that held them). */
function replaceList(m, kind, ...items) {
  rootOf(m, kind)[kind] = items;
}
const lifecycle = (body) => (body.lifecycle ??= {});

// ---- categories ----

const M = [];
const def = (cat, name, apply) => M.push({ cat, name, apply });

// module-calls
def("module-calls", "missing-required-variable", (m, r) => void delete ensureNet(m, r).cidr);
def("module-calls", "unknown-argument", (m, r) => void (ensureNet(m, r).nope = "x"));
def("module-calls", "argument-type-mismatch", (m, r) => void (ensureNet(m, r).cidr = { a: 1 }));
def("module-calls", "argument-null-required", (m, r) => void (ensureNet(m, r).cidr = null));
def("module-calls", "argument-null-optional", (m, r) => void (ensureNet(m, r).label = null));
def("module-calls", "source-missing-dir", (m, r) => void (ensureNet(m, r).source = "./modules/absent"));
def("module-calls", "source-template", (m, r) => void (ensureNet(m, r).source = "${var.name_prefix}"));
def("module-calls", "source-missing", (m, r) => void delete ensureNet(m, r).source);
def("module-calls", "version-with-local-source", (m, r) => void (ensureNet(m, r).version = "1.0.0"));
def("module-calls", "count-and-for-each", (m, r) => void Object.assign(ensureNet(m, r), { count: 1, for_each: { a: 1 } }));
def("module-calls", "count-valid", (m, r) => {
  ensureNet(m, r).count = 2;
  for (const root of Object.values(m.files)) for (const o of Object.values(root.output ?? {})) if (typeof o.value === "string") o.value = o.value.replace("module.net.", "module.net[0].");
});
def("module-calls", "count-unindexed-output", (m, r) => void (ensureNet(m, r).count = 2));
def("module-calls", "for-each-valid", (m, r) => {
  Object.assign(ensureNet(m, r), { for_each: { a: "10.1.0.0/16", b: "10.2.0.0/16" }, cidr: "${each.value}" });
  for (const root of Object.values(m.files)) for (const o of Object.values(root.output ?? {})) if (typeof o.value === "string") o.value = o.value.replace("module.net.", 'module.net["a"].');
});
def("module-calls", "depends-on-resource", (m, r) => void (ensureNet(m, r).depends_on = ["tsdb_vpcs.main"]));
def("module-calls", "providers-undeclared-alias", (m, r) => void (ensureNet(m, r).providers = { tsdb: "tsdb.nope" }));
def("module-calls", "providers-unknown-local-name", (m, r) => void (ensureNet(m, r).providers = { nope: "tsdb" }));
def("module-calls", "undeclared-output", (m, r) => {
  ensureNet(m, r);
  m.put("output", "bad", { value: "${module.net.nope}" });
});
def("module-calls", "undeclared-module", (m) => void m.put("output", "ghost", { value: "${module.ghost.vpc_id}" }));
def("module-calls", "whole-module-output", (m, r) => {
  ensureNet(m, r);
  m.put("output", "all", { value: "${module.net}" });
});
def("module-calls", "child-missing-required-argument", (m, r) => {
  ensureNet(m, r);
  delete m.modules.net["main.tf.json"].resource.tsdb_vpcs.this.cidr;
});
def("module-calls", "child-value-rule", (m, r) => {
  ensureNet(m, r);
  m.modules.net["main.tf.json"].resource.tsdb_vpcs.this.region_code = "az-1";
});
def("module-calls", "child-undeclared-variable", (m, r) => {
  ensureNet(m, r);
  m.modules.net["main.tf.json"].resource.tsdb_vpcs.this.name = "${var.nope}";
});
def("module-calls", "child-duplicate-variable", (m, r) => {
  ensureNet(m, r);
  m.modules.net["extra.tf.json"] = { variable: { cidr: { type: "string" } } };
});
def("module-calls", "child-output-from-root", (m, r) => {
  ensureNet(m, r);
  m.modules.net["outputs.tf.json"].output.leak = { value: "${var.name_prefix}" };
});
def("module-calls", "child-provider-block-with-count", (m, r) => {
  ensureNet(m, r).count = 1;
  m.modules.net["main.tf.json"].provider = { tsdb: { project_id: "child" } };
});
def("module-calls", "child-import-block", (m, r) => {
  ensureNet(m, r);
  m.modules.net["main.tf.json"].import = [{ to: "tsdb_vpcs.this", id: "1" }];
});
def("module-calls", "invalid-name", (m, r) => {
  const call = ensureNet(m, r);
  m.put("module", "1net", { ...call });
});
def("module-calls", "self-recursive-source", (m, r) => {
  ensureNet(m, r);
  m.modules.net["main.tf.json"].module = { again: { source: "./", cidr: "10.0.0.0/16" } };
});
def("module-calls", "child-variable-validation-fails-on-literal", (m, r) => {
  const call = ensureNet(m, r);
  m.modules.net["main.tf.json"].variable.cidr.validation = [{ condition: '${can(cidrhost(var.cidr, 0))}', error_message: "cidr must be a CIDR block." }];
  call.cidr = "not-a-cidr";
});
def("module-calls", "child-sensitive-output", (m, r) => {
  ensureNet(m, r);
  m.modules.net["main.tf.json"].variable.pw = { type: "string", sensitive: true, default: "x" };
  m.modules.net["outputs.tf.json"].output.pw = { value: "${var.pw}" };
});
def("module-calls", "two-calls-same-source", (m, r) => {
  const call = ensureNet(m, r);
  m.put("module", "net_b", { ...call, cidr: "10.251.0.0/16" });
});

// multi-file duplicates
def("multi-file-duplicates", "resource-in-two-files", (m, r) => void addToFile(m, otherFile(m, r) === "main.tf.json" ? "extra.tf.json" : "extra.tf.json", "resource", "tsdb_vpcs", { main: { cidr: "10.1.0.0/16", region_code: "us-east-1" } }));
def("multi-file-duplicates", "variable-in-two-files", (m) => void addToFile(m, "extra.tf.json", "variable", "cpu", { type: "number" }));
def("multi-file-duplicates", "local-in-two-files", (m) => void addToFile(m, "extra.tf.json", "locals", "cpu", 2000));
def("multi-file-duplicates", "output-in-two-files", (m) => void addToFile(m, "extra.tf.json", "output", "db_hostname", { value: "x" }));
def("multi-file-duplicates", "default-provider-in-two-files", (m) => void addToFile(m, "extra.tf.json", "provider", "tsdb", { project_id: "other" }));
def("multi-file-duplicates", "alias-in-two-files", (m) => void addToFile(m, "extra.tf.json", "provider", "tsdb", { alias: "east", project_id: "other" }));
def("multi-file-duplicates", "second-alias-in-other-file", (m) => void addToFile(m, "extra.tf.json", "provider", "tsdb", { alias: "west", project_id: "other" }));
def("multi-file-duplicates", "module-in-two-files", (m, r) => {
  const call = ensureNet(m, r);
  addToFile(m, "extra.tf.json", "module", "net", { ...call });
});
def("multi-file-duplicates", "data-in-two-files", (m) => {
  addRes(m, "tsdb_vpcs", "dup", {}, "data");
  addToFile(m, "extra.tf.json", "data", "tsdb_vpcs", { dup: {} });
});
def("multi-file-duplicates", "data-and-resource-same-name", (m) => void addToFile(m, "extra.tf.json", "data", "tsdb_vpcs", { main: {} }));
def("multi-file-duplicates", "check-in-two-files", (m) => {
  m.put("check", "twice", { assert: { condition: "${var.cpu > 0}", error_message: "x" } });
  addToFile(m, "extra.tf.json", "check", "twice", { assert: { condition: "${var.cpu > 1}", error_message: "y" } });
});
def("multi-file-duplicates", "required-providers-in-two-files", (m) => void ((m.files["extra.tf.json"] ??= {}).terraform = { required_providers: { tsdb: { source: "schemaform/tsdb" } } }));
def("multi-file-duplicates", "required-providers-conflicting", (m) => void ((m.files["extra.tf.json"] ??= {}).terraform = { required_providers: { tsdb: { source: "example/tsdb" } } }));
def("multi-file-duplicates", "import-twice", (m) => {
  (rootOf(m, "import").import ??= []).push({ to: "tsdb_vpcs.main", id: "1" });
  (m.files["extra.tf.json"] ??= {}).import = [{ to: "tsdb_vpcs.main", id: "2" }];
});
def("multi-file-duplicates", "moved-twice", (m) => {
  (rootOf(m, "moved").moved ??= []).push({ from: "tsdb_vpcs.a", to: "tsdb_vpcs.main" });
  (m.files["extra.tf.json"] ??= {}).moved = [{ from: "tsdb_vpcs.a", to: "tsdb_vpcs.main" }];
});
def("multi-file-duplicates", "override-file-valid", (m) => void ((m.files["main_override.tf.json"] ??= {}).resource = { tsdb_vpcs: { main: { cidr: "10.77.0.0/16" } } }));
def("multi-file-duplicates", "override-without-base", (m) => void ((m.files["main_override.tf.json"] ??= {}).resource = { tsdb_vpcs: { absent: { cidr: "10.77.0.0/16" } } }));
def("multi-file-duplicates", "override-variable-default", (m) => void ((m.files["override.tf.json"] ??= {}).variable = { cpu: { default: 2000 } }));
def("multi-file-duplicates", "duplicate-within-file-arrays", (m) => {
  const root = rootOf(m, "variable");
  root.variable = [root.variable, { cpu: { type: "number" } }];
});
def("multi-file-duplicates", "locals-twice-same-file", (m) => {
  const root = rootOf(m, "locals");
  root[`locals${DUP}2`] = { extra: 1 };
});
def("multi-file-duplicates", "locals-twice-same-name", (m) => {
  const root = rootOf(m, "locals");
  root[`locals${DUP}2`] = { cpu: 1 };
});

// addresses: moved / import / removed
// a base may have its own import or moved block to the same target: the mutation's block replaces them
const importTo = (to, extra = {}) => (m) => void replaceList(m, "import", { to, id: "4242", ...extra });
def("addresses", "import-to-instance-key", importTo("tsdb_vpcs.main[0]"));
def("addresses", "import-to-string-key", importTo('tsdb_vpcs.main["a"]'));
def("addresses", "import-to-counted-instance", (m, r) => {
  addRes(m, "tsdb_vpcs", "many", { count: 2, cidr: "10.3.${count.index}.0/24", region_code: "us-east-1" });
  importTo("tsdb_vpcs.many[1]")(m, r);
});
def("addresses", "import-to-missing-resource", importTo("tsdb_vpcs.absent"));
def("addresses", "import-to-data", importTo("data.tsdb_vpcs.all"));
def("addresses", "import-to-module-resource", (m, r) => {
  ensureNet(m, r);
  importTo("module.net.tsdb_vpcs.this")(m, r);
});
def("addresses", "import-provider-undeclared", importTo("tsdb_vpcs.main", { provider: "tsdb.nope" }));
def("addresses", "import-provider-declared", (m, r) => {
  if (!m.features.has("alias:east")) providerList(m).push({ alias: "east" });
  importTo("tsdb_vpcs.main", { provider: "tsdb.east" })(m, r);
});
def("addresses", "import-without-id", (m) => void replaceList(m, "import", { to: "tsdb_vpcs.main" }));
def("addresses", "import-id-template", importTo("tsdb_vpcs.main", { id: "${var.name_prefix}-1" }));
def("addresses", "import-to-template", importTo("${tsdb_vpcs.main}"));
def("addresses", "import-for-each", (m) => {
  addRes(m, "tsdb_vpcs", "keyed", { for_each: { a: 1, b: 2 }, cidr: "10.4.0.0/16", region_code: "us-east-1" });
  replaceList(m, "import", { for_each: { a: "1", b: "2" }, to: "tsdb_vpcs.keyed[each.key]", id: "${each.value}" });
});
def("addresses", "import-unknown-argument", importTo("tsdb_vpcs.main", { nope: 1 }));
def("addresses", "moved-from-module", (m, r) => {
  ensureNet(m, r);
  replaceList(m, "moved", { from: "module.old", to: "module.net" });
});
def("addresses", "moved-from-module-resource", (m) => void replaceList(m, "moved", { from: "module.old.tsdb_vpcs.this", to: "tsdb_vpcs.main" }));
def("addresses", "moved-resource-to-module", (m, r) => {
  ensureNet(m, r);
  replaceList(m, "moved", { from: "tsdb_vpcs.old", to: "module.net" });
});
def("addresses", "moved-type-mismatch", (m) => void replaceList(m, "moved", { from: "tsdb_service.old", to: "tsdb_vpcs.main" }));
def("addresses", "moved-same-address", (m) => void replaceList(m, "moved", { from: "tsdb_vpcs.main", to: "tsdb_vpcs.main" }));
def("addresses", "moved-from-existing", (m) => void replaceList(m, "moved", { from: "tsdb_service.db", to: "tsdb_service.renamed" }));
def("addresses", "moved-to-missing", (m) => void replaceList(m, "moved", { from: "tsdb_vpcs.before", to: "tsdb_vpcs.after" }));
def("addresses", "moved-instance-keys", (m) => {
  addRes(m, "tsdb_vpcs", "many", { count: 2, cidr: "10.3.${count.index}.0/24", region_code: "us-east-1" });
  replaceList(m, "moved", { from: "tsdb_vpcs.many[5]", to: "tsdb_vpcs.many[1]" });
});
def("addresses", "moved-data-source", (m) => void replaceList(m, "moved", { from: "data.tsdb_vpcs.old", to: "data.tsdb_vpcs.all" }));
def("addresses", "moved-template", (m) => void replaceList(m, "moved", { from: "${tsdb_vpcs.old}", to: "tsdb_vpcs.main" }));
def("addresses", "moved-missing-to", (m) => void replaceList(m, "moved", { from: "tsdb_vpcs.old" }));
def("addresses", "moved-chain", (m) => void replaceList(m, "moved", { from: "tsdb_vpcs.a", to: "tsdb_vpcs.b" }, { from: "tsdb_vpcs.b", to: "tsdb_vpcs.main" }));
def("addresses", "moved-cycle", (m) => void replaceList(m, "moved", { from: "tsdb_vpcs.a", to: "tsdb_vpcs.b" }, { from: "tsdb_vpcs.b", to: "tsdb_vpcs.a" }));
def("addresses", "removed-still-declared", (m) => void (rootOf(m, "removed").removed ??= []).push({ from: "tsdb_vpcs.main", lifecycle: { destroy: false } }));
def("addresses", "removed-instance-key", (m) => void (rootOf(m, "removed").removed ??= []).push({ from: "tsdb_vpcs.gone[0]", lifecycle: { destroy: false } }));
def("addresses", "removed-module", (m) => void (rootOf(m, "removed").removed ??= []).push({ from: "module.old", lifecycle: { destroy: false } }));
def("addresses", "removed-module-still-called", (m, r) => {
  ensureNet(m, r);
  (rootOf(m, "removed").removed ??= []).push({ from: "module.net", lifecycle: { destroy: false } });
});
def("addresses", "removed-data", (m) => void (rootOf(m, "removed").removed ??= []).push({ from: "data.tsdb_vpcs.old", lifecycle: { destroy: false } }));
def("addresses", "removed-without-lifecycle", (m) => void (rootOf(m, "removed").removed ??= []).push({ from: "tsdb_vpcs.gone" }));
def("addresses", "removed-destroy-true", (m) => void (rootOf(m, "removed").removed ??= []).push({ from: "tsdb_vpcs.gone", lifecycle: { destroy: true } }));
def("addresses", "removed-destroy-template", (m) => void (rootOf(m, "removed").removed ??= []).push({ from: "tsdb_vpcs.gone", lifecycle: { destroy: "${var.cpu > 0}" } }));
def("addresses", "removed-with-provisioner", (m) => void (rootOf(m, "removed").removed ??= []).push({ from: "tsdb_vpcs.gone", lifecycle: { destroy: true }, provisioner: { "local-exec": { command: "echo gone", when: "destroy" } } }));
def("addresses", "removed-and-moved-same", (m) => {
  (rootOf(m, "removed").removed ??= []).push({ from: "tsdb_vpcs.legacy2", lifecycle: { destroy: false } });
  replaceList(m, "moved", { from: "tsdb_vpcs.legacy2", to: "tsdb_vpcs.main" });
});

// variables and outputs
const variable = (name, body) => (m) => void m.put("variable", name, body);
def("variables-outputs", "object-type-bad-attribute-type", variable("o", { type: "object({ a = strin })" }));
def("variables-outputs", "object-type-attribute-without-type", variable("o", { type: "object({ a })" }));
def("variables-outputs", "object-type-not-object", variable("o", { type: "object(string)" }));
def("variables-outputs", "optional-outside-object", variable("o", { type: "list(optional(string))" }));
def("variables-outputs", "optional-default-wrong-type", variable("o", { type: 'object({ a = optional(number, "x") })' }));
def("variables-outputs", "unknown-type-keyword", variable("o", { type: "strng" }));
def("variables-outputs", "type-template", variable("o", { type: "${string}" }));
def("variables-outputs", "legacy-type-list", variable("o", { type: "list", default: ["a"] }));
def("variables-outputs", "legacy-type-map", variable("o", { type: "map", default: { a: "b" } }));
def("variables-outputs", "legacy-type-string-quoted", variable("o", { type: '"string"' }));
def("variables-outputs", "default-wrong-type", variable("o", { type: "number", default: "abc" }));
def("variables-outputs", "default-convertible", variable("o", { type: "number", default: "12" }));
def("variables-outputs", "default-object-missing-attribute", variable("o", { type: "object({ a = string, b = number })", default: { a: "x" } }));
def("variables-outputs", "default-object-extra-attribute", variable("o", { type: "object({ a = string })", default: { a: "x", b: 1 } }));
def("variables-outputs", "default-object-comment-key", variable("o", { type: "object({ a = string })", default: { a: "x", "//": "note" } }));
def("variables-outputs", "default-list-of-objects", variable("o", { type: "list(object({ name = string, size = optional(number, 1) }))", default: [{ name: "a" }, { name: "b", size: 3 }] }));
def("variables-outputs", "default-list-of-objects-bad", variable("o", { type: "list(object({ name = string }))", default: [{ size: 3 }] }));
def("variables-outputs", "null-default-not-nullable", variable("o", { type: "string", default: null, nullable: false }));
def("variables-outputs", "null-default-nullable", variable("o", { type: "string", default: null }));
def("variables-outputs", "nullable-template", variable("o", { type: "string", nullable: "${true}" }));
def("variables-outputs", "sensitive-string-true", variable("o", { type: "string", sensitive: "true" }));
def("variables-outputs", "sensitive-not-bool", variable("o", { type: "string", sensitive: "yes" }));
def("variables-outputs", "description-number", variable("o", { type: "string", description: 42 }));
def("variables-outputs", "description-template", variable("o", { type: "string", description: "${var.cpu}" }));
def("variables-outputs", "default-references-variable", variable("o", { type: "number", default: "${var.cpu}" }));
def("variables-outputs", "reserved-name-count", variable("count", { type: "number" }));
def("variables-outputs", "reserved-name-source", variable("source", { type: "string" }));
def("variables-outputs", "reserved-name-providers", variable("providers", { type: "string" }));
def("variables-outputs", "unknown-variable-argument", variable("o", { type: "string", color: "blue" }));
def("variables-outputs", "validation-not-self", variable("o", { type: "string", validation: { condition: "${var.cpu > 0}", error_message: "x" } }));
def("variables-outputs", "validation-other-variable-too", variable("o", { type: "number", default: 1, validation: { condition: "${var.o <= var.cpu}", error_message: "o must not exceed cpu." } }));
def("variables-outputs", "validation-without-message", variable("o", { type: "string", validation: { condition: '${var.o != ""}' } }));
def("variables-outputs", "validation-fails-on-default", variable("o", { type: "number", default: 5, validation: { condition: "${var.o > 10}", error_message: "must exceed 10." } }));
def("variables-outputs", "ephemeral-and-sensitive", variable("o", { type: "string", ephemeral: true, sensitive: true }));
def("variables-outputs", "ephemeral-variable-in-resource", (m) => {
  m.put("variable", "eph", { type: "string", ephemeral: true, default: "x" });
  db(m).name = "${var.eph}";
});
def("variables-outputs", "ephemeral-variable-in-provider", (m) => {
  m.put("variable", "eph", { type: "string", ephemeral: true, default: "x" });
  providerList(m)[0].access_token = "${var.eph}";
});
def("variables-outputs", "ephemeral-variable-in-local", (m) => {
  m.put("variable", "eph", { type: "string", ephemeral: true, default: "x" });
  setLocal(m, "eph_copy", "${var.eph}");
});
def("variables-outputs", "ephemeral-output-root", (m) => void m.put("output", "eph", { value: "${var.name_prefix}", ephemeral: true }));
def("variables-outputs", "ephemeral-value-output-not-marked", (m) => {
  m.put("variable", "eph", { type: "string", ephemeral: true, default: "x" });
  m.put("output", "eph", { value: "${var.eph}" });
});
def("variables-outputs", "sensitive-output-not-marked", (m) => void m.put("output", "leak", { value: "${var.secret}" }));
def("variables-outputs", "sensitive-output-through-local", (m) => {
  setLocal(m, "secret_copy", "${var.secret}");
  m.put("output", "leak", { value: "${local.secret_copy}" });
});
def("variables-outputs", "sensitive-attribute-output", (m) => void m.put("output", "pw", { value: "${tsdb_service.db.password}" }));
def("variables-outputs", "sensitive-output-nonsensitive", (m) => void m.put("output", "leak", { value: "${nonsensitive(var.secret)}" }));
def("variables-outputs", "output-without-value", (m) => void m.put("output", "empty", { description: "nothing" }));
def("variables-outputs", "output-unknown-argument", (m) => void m.put("output", "x", { value: 1, type: "number" }));
def("variables-outputs", "output-precondition", (m) => void m.put("output", "x", { value: "${var.cpu}", precondition: { condition: "${var.cpu > 0}", error_message: "positive" } }));
def("variables-outputs", "output-sensitive-template", (m) => void m.put("output", "x", { value: 1, sensitive: "${true}" }));
def("variables-outputs", "variable-type-tuple", variable("o", { type: "tuple([string, number])", default: ["a", 1] }));
def("variables-outputs", "variable-type-set-objects", variable("o", { type: "set(object({ a = string }))", default: [{ a: "x" }] }));
def("variables-outputs", "variable-attribute-reference", (m) => {
  if (!m.features.has("var:settings")) m.put("variable", "settings", { type: "object({ size = number })", default: { size: 2 } });
  setLocal(m, "size", "${var.settings.size}");
});
def("variables-outputs", "variable-missing-attribute-reference", (m) => {
  if (!m.features.has("var:settings")) m.put("variable", "settings", { type: "object({ size = number })", default: { size: 2 } });
  setLocal(m, "size", "${var.settings.nope}");
});

// meta-arguments
def("meta-arguments", "count-and-for-each", (m) => void Object.assign(vpc(m), { count: 1, for_each: { a: 1 } }));
def("meta-arguments", "count-text", (m) => void (vpc(m).count = "two"));
def("meta-arguments", "count-negative", (m) => void (vpc(m).count = -1));
def("meta-arguments", "count-fraction", (m) => void (vpc(m).count = 1.5));
def("meta-arguments", "count-numeric-string", (m) => void (vpc(m).count = "2"));
def("meta-arguments", "for-each-list", (m) => void (vpc(m).for_each = ["a", "b"]));
def("meta-arguments", "for-each-toset", (m) => void (vpc(m).for_each = '${toset(["a", "b"])}'));
def("meta-arguments", "for-each-string", (m) => void (vpc(m).for_each = "abc"));
def("meta-arguments", "each-without-for-each", (m) => void (vpc(m).name = "${each.key}"));
def("meta-arguments", "count-index-without-count", (m) => void (vpc(m).name = "vpc-${count.index}"));
def("meta-arguments", "depends-on-variable", (m) => void (vpc(m).depends_on = ["var.cpu"]));
def("meta-arguments", "depends-on-local", (m) => void (vpc(m).depends_on = ["local.cpu"]));
def("meta-arguments", "depends-on-missing", (m) => void (vpc(m).depends_on = ["tsdb_service.absent"]));
def("meta-arguments", "depends-on-attribute", (m) => void (vpc(m).depends_on = ["tsdb_service.db.id"]));
def("meta-arguments", "depends-on-data", (m) => void (vpc(m).depends_on = ["data.tsdb_products.x"]));
def("meta-arguments", "depends-on-module", (m, r) => {
  ensureNet(m, r);
  db(m).depends_on = ["module.net"];
});
def("meta-arguments", "provider-undeclared-alias", (m) => void (vpc(m).provider = "tsdb.nope"));
def("meta-arguments", "data-provider-undeclared-alias", (m) => void addRes(m, "tsdb_products", "aliased", { provider: "tsdb.west" }, "data"));
def("meta-arguments", "provider-template", (m) => void (vpc(m).provider = "${tsdb.east}"));
def("meta-arguments", "provider-other-type", (m) => void (vpc(m).provider = "containerbackup"));
def("meta-arguments", "lifecycle-unknown", (m) => void (lifecycle(vpc(m)).nope = true));
def("meta-arguments", "ignore-changes-unknown-attribute", (m) => void (lifecycle(vpc(m)).ignore_changes = ["nope"]));
def("meta-arguments", "ignore-changes-index", (m) => void (lifecycle(db(m)).ignore_changes = ["name[0]"]));
def("meta-arguments", "ignore-changes-map-key", (m, r) => {
  const ch = find(m, "resource", "containerbackup_restore_channel", "channel") ?? addRes(m, "containerbackup_restore_channel", "channel", { destination_project: "projects/restore-target", location: "us-central1", project: "my-project", labels: { a: "b" } });
  lifecycle(ch).ignore_changes = ['labels["a"]'];
});
def("meta-arguments", "ignore-changes-all-string", (m) => void (lifecycle(vpc(m)).ignore_changes = "all"));
def("meta-arguments", "ignore-changes-all-in-list", (m) => void (lifecycle(vpc(m)).ignore_changes = ["all"]));
def("meta-arguments", "ignore-changes-computed-only", (m) => void (lifecycle(vpc(m)).ignore_changes = ["vpcs_id"]));
def("meta-arguments", "replace-triggered-by-variable", (m) => void (lifecycle(db(m)).replace_triggered_by = ["var.cpu"]));
def("meta-arguments", "replace-triggered-by-count-index", (m) => {
  const b = addRes(m, "tsdb_vpcs", "pair", { count: 2, cidr: "10.5.${count.index}.0/24", region_code: "us-east-1" });
  lifecycle(b).replace_triggered_by = ["${count.index}"];
});
def("meta-arguments", "replace-triggered-by-count-index-bare", (m) => {
  const b = addRes(m, "tsdb_vpcs", "pair", { count: 2, cidr: "10.5.${count.index}.0/24", region_code: "us-east-1" });
  lifecycle(b).replace_triggered_by = ["count.index"];
});
def("meta-arguments", "replace-triggered-by-attribute", (m) => void (lifecycle(db(m)).replace_triggered_by = ["tsdb_vpcs.main.cidr"]));
def("meta-arguments", "replace-triggered-by-self", (m) => void (lifecycle(db(m)).replace_triggered_by = ["tsdb_service.db"]));
def("meta-arguments", "precondition-self", (m) => void (lifecycle(db(m)).precondition = [{ condition: '${self.name != ""}', error_message: "x" }]));
def("meta-arguments", "postcondition-self", (m) => void (lifecycle(db(m)).postcondition = [{ condition: '${self.name != ""}', error_message: "x" }]));
def("meta-arguments", "condition-without-reference", (m) => void (lifecycle(db(m)).precondition = [{ condition: "${true}", error_message: "x" }]));
def("meta-arguments", "create-before-destroy-text", (m) => void (lifecycle(vpc(m)).create_before_destroy = "yes"));
def("meta-arguments", "create-before-destroy-string-bool", (m) => void (lifecycle(vpc(m)).create_before_destroy = "true"));
def("meta-arguments", "prevent-destroy-variable", (m) => void (lifecycle(vpc(m)).prevent_destroy = "${var.cpu > 0}"));
def("meta-arguments", "data-lifecycle-ignore-changes", (m) => void addRes(m, "tsdb_products", "lc", { lifecycle: { ignore_changes: ["id"] } }, "data"));
def("meta-arguments", "data-lifecycle-postcondition", (m) => void addRes(m, "tsdb_products", "lc", { lifecycle: { postcondition: { condition: "${length(self.products) >= 0}", error_message: "x" } } }, "data"));
def("meta-arguments", "data-count", (m) => void addRes(m, "tsdb_products", "counted", { count: 2 }, "data"));
def("meta-arguments", "dynamic-unknown-block", (m) => void (db(m).dynamic = { nope: { for_each: [1], content: {} } }));
def("meta-arguments", "dynamic-nested-attribute", (m) => {
  const b = find(m, "resource", "tsdb_log_exporter", "logs") ?? addRes(m, "tsdb_log_exporter", "logs", { region: "us-east-1", cloudmon: { region: "us-east-1", log_group_name: "g", log_stream_name: "s" } });
  const cloud = b.cloudmon;
  delete b.cloudmon;
  b.dynamic = { cloudmon: { for_each: "${[1]}", content: cloud } };
});
def("meta-arguments", "dynamic-without-content", (m) => void (db(m).dynamic = { timeouts: { for_each: '${["45m"]}' } }));
def("meta-arguments", "dynamic-with-iterator", (m) => void (db(m).dynamic = { timeouts: { for_each: '${["45m"]}', iterator: "t", content: { create: "${t.value}" } } }));
def("meta-arguments", "dynamic-wrong-iterator-name", (m) => void (db(m).dynamic = { timeouts: { for_each: '${["45m"]}', iterator: "t", content: { create: "${timeouts.value}" } } }));
def("meta-arguments", "dynamic-labels", (m) => void (db(m).dynamic = { timeouts: { for_each: '${["45m"]}', labels: ["x"], content: { create: "45m" } } }));
def("meta-arguments", "dynamic-lifecycle", (m) => void (db(m).dynamic = { lifecycle: { for_each: "${[1]}", content: { create_before_destroy: true } } }));
def("meta-arguments", "local-exec-provisioner", (m) => void (vpc(m).provisioner = { "local-exec": { command: "echo ${self.cidr}" } }));
def("meta-arguments", "provisioner-unknown-type", (m) => void (vpc(m).provisioner = { "nope-exec": { command: "echo" } }));
def("meta-arguments", "connection-block", (m) => void Object.assign(vpc(m), { connection: { type: "ssh", host: "${self.cidr}" }, provisioner: { "remote-exec": { inline: ["echo hi"] } } }));
def("meta-arguments", "provisioner-when-create-text", (m) => void (vpc(m).provisioner = { "local-exec": { command: "echo", when: "sometimes" } }));
def("meta-arguments", "depends-on-self", (m) => void (vpc(m).depends_on = ["tsdb_vpcs.main"]));

// references
const localRef = (name, expr) => (m) => void setLocal(m, name, expr);
def("references", "path-nope", localRef("p", "${path.nope}"));
def("references", "path-module", localRef("p", "${path.module}/files"));
def("references", "terraform-nope", localRef("t", "${terraform.nope}"));
def("references", "terraform-workspace", localRef("t", "${terraform.workspace}"));
def("references", "self-in-local", localRef("s", "${self.id}"));
def("references", "self-in-resource-argument", (m) => void (db(m).name = "${self.id}"));
def("references", "self-in-local-exec", (m) => void (vpc(m).provisioner = { "local-exec": { command: "echo ${self.id}" } }));
def("references", "variable-attribute-of-string", localRef("v", "${var.name_prefix.length}"));
def("references", "variable-index-of-string", localRef("v", "${var.name_prefix[0]}"));
def("references", "count-nope", (m) => void addRes(m, "tsdb_vpcs", "many", { count: 2, cidr: "10.6.0.0/24", region_code: "us-east-1", name: "${count.nope}" }));
def("references", "each-nope", (m) => void addRes(m, "tsdb_vpcs", "keyed", { for_each: { a: 1 }, cidr: "10.6.0.0/24", region_code: "us-east-1", name: "${each.nope}" }));
def("references", "count-index-in-output", (m) => void m.put("output", "c", { value: "${count.index}" }));
def("references", "each-in-local", localRef("e", "${each.key}"));
def("references", "undeclared-variable", localRef("u", "${var.nope}"));
def("references", "undeclared-local", localRef("u", "${local.nope}"));
def("references", "undeclared-resource", localRef("u", "${tsdb_vpcs.nope.id}"));
def("references", "undeclared-data", localRef("u", "${data.tsdb_vpcs.nope.id}"));
def("references", "unknown-attribute-of-resource", localRef("u", "${tsdb_vpcs.main.nope}"));
def("references", "unknown-attribute-of-data", (m) => {
  addRes(m, "tsdb_products", "cat2", {}, "data");
  setLocal(m, "u", "${data.tsdb_products.cat2.nope}");
});
def("references", "nested-attribute-of-data", (m) => {
  addRes(m, "tsdb_vpcs", "list2", {}, "data");
  setLocal(m, "u", "${data.tsdb_vpcs.list2.vpcs[0].peering_connections[0].peer_cidr_blocks}");
});
def("references", "index-of-single-resource", localRef("u", "${tsdb_vpcs.main[0].id}"));
def("references", "attribute-of-counted-without-index", (m) => {
  addRes(m, "tsdb_vpcs", "many", { count: 2, cidr: "10.6.${count.index}.0/24", region_code: "us-east-1" });
  setLocal(m, "u", "${tsdb_vpcs.many.id}");
});
def("references", "splat-of-counted", (m) => {
  addRes(m, "tsdb_vpcs", "many", { count: 2, cidr: "10.6.${count.index}.0/24", region_code: "us-east-1" });
  setLocal(m, "u", "${tsdb_vpcs.many[*].id}");
});
def("references", "legacy-splat", (m) => {
  addRes(m, "tsdb_vpcs", "many", { count: 2, cidr: "10.6.${count.index}.0/24", region_code: "us-east-1" });
  setLocal(m, "u", "${tsdb_vpcs.many.*.id}");
});
def("references", "resource-without-attribute", localRef("u", "${tsdb_vpcs.main}"));
def("references", "bare-resource-type", localRef("u", "${tsdb_vpcs}"));
def("references", "bare-var", localRef("u", "${var}"));
def("references", "module-without-name", localRef("u", "${module}"));
def("references", "data-without-name", localRef("u", "${data.tsdb_vpcs}"));
def("references", "provider-config-references-resource", (m) => void (providerList(m)[0].endpoint = "https://${tsdb_vpcs.main.id}.example.com"));
def("references", "provider-config-references-local", (m) => void (providerList(m)[0].project_id = "${local.prefix}"));
def("references", "reference-to-check-data-outside", (m) => {
  m.put("check", "probe2", { data: { tsdb_products: { inside: {} } }, assert: { condition: "${length(data.tsdb_products.inside.products) >= 0}", error_message: "x" } });
  setLocal(m, "u", "${data.tsdb_products.inside.id}");
});
def("references", "output-to-output", (m) => void m.put("output", "o2", { value: "${output.db_hostname}" }));
def("references", "resource-prefix", localRef("u", "${resource.tsdb_vpcs.main.id}"));
def("references", "ephemeral-resource-reference", localRef("u", "${ephemeral.tsdb_vpcs.main.id}"));
def("references", "count-of-self-type", (m) => void addRes(m, "tsdb_vpcs", "sized", { count: "${length(tsdb_vpcs.main.cidr)}", cidr: "10.7.0.0/24", region_code: "us-east-1" }));
def("references", "for-each-of-local", (m) => void addRes(m, "tsdb_vpcs", "by_tag", { for_each: "${local.tags}", cidr: "10.8.0.0/16", region_code: "us-east-1", name: "${each.key}-${each.value}" }));
def("references", "for-each-of-resource-attribute", (m) => void addRes(m, "tsdb_vpcs", "by_attr", { for_each: "${toset([tsdb_vpcs.main.id])}", cidr: "10.8.0.0/16", region_code: "us-east-1" }));

// static values
def("static-values", "depends-on-template", (m) => void (vpc(m).depends_on = ["${tsdb_service.db}"]));
def("static-values", "depends-on-whole-template", (m) => void (vpc(m).depends_on = "${[tsdb_service.db]}"));
def("static-values", "prevent-destroy-template", (m) => void (lifecycle(vpc(m)).prevent_destroy = "${false}"));
def("static-values", "prevent-destroy-string", (m) => void (lifecycle(vpc(m)).prevent_destroy = "false"));
def("static-values", "create-before-destroy-template", (m) => void (lifecycle(vpc(m)).create_before_destroy = "${true}"));
def("static-values", "count-template-text", (m) => void (vpc(m).count = "${\"two\"}"));
def("static-values", "count-template-number", (m) => void (vpc(m).count = "${1 + 1}"));
def("static-values", "count-local", (m) => void (vpc(m).count = "${local.cpu > 0 ? 1 : 0}"));
def("static-values", "ignore-changes-template", (m) => void (lifecycle(vpc(m)).ignore_changes = ["${name}"]));
def("static-values", "ignore-changes-whole-template", (m) => void (lifecycle(vpc(m)).ignore_changes = "${[name]}"));
def("static-values", "provider-whole-template", (m) => void (vpc(m).provider = "${tsdb}"));
def("static-values", "required-version-template", (m) => void (rootOf(m, "terraform").terraform.required_version = "${var.name_prefix}"));
def("static-values", "required-providers-source-template", (m) => void (rootOf(m, "terraform").terraform.required_providers.tsdb.source = "${local.prefix}"));
def("static-values", "alias-template", (m) => void providerList(m).push({ alias: "${var.name_prefix}" }));
def("static-values", "backend-local", (m) => void (rootOf(m, "terraform").terraform.backend = { local: { path: "state/terraform.tfstate" } }));
def("static-values", "backend-template", (m) => void (rootOf(m, "terraform").terraform.backend = { local: { path: "${var.name_prefix}.tfstate" } }));
def("static-values", "variable-validation-message-template", variable("o", { type: "string", default: "x", validation: { condition: '${var.o != ""}', error_message: "got ${var.o}" } }));
def("static-values", "module-providers-template", (m, r) => void (ensureNet(m, r).providers = "${{ tsdb = tsdb }}"));
def("static-values", "for-each-template-literal", (m) => void (vpc(m).for_each = '${{ a = "x" }}'));
def("static-values", "moved-to-template", (m) => void replaceList(m, "moved", { from: "tsdb_vpcs.old", to: "${tsdb_vpcs.main}" }));
def("static-values", "removed-from-template", (m) => void (rootOf(m, "removed").removed ??= []).push({ from: "${tsdb_vpcs.gone}", lifecycle: { destroy: false } }));
def("static-values", "import-provider-template", importTo("tsdb_vpcs.main", { provider: "${tsdb}" }));

// nulls
def("nulls", "depends-on-null", (m) => void (vpc(m).depends_on = null));
def("nulls", "depends-on-null-element", (m) => void (vpc(m).depends_on = [null]));
def("nulls", "ignore-changes-null", (m) => void (lifecycle(vpc(m)).ignore_changes = null));
def("nulls", "prevent-destroy-null", (m) => void (lifecycle(vpc(m)).prevent_destroy = null));
def("nulls", "create-before-destroy-null", (m) => void (lifecycle(vpc(m)).create_before_destroy = null));
def("nulls", "dynamic-for-each-null", (m) => void (db(m).dynamic = { timeouts: { for_each: null, content: { create: "45m" } } }));
def("nulls", "dynamic-content-null", (m) => void (db(m).dynamic = { timeouts: { for_each: '${["45m"]}', content: null } }));
def("nulls", "count-null", (m) => void (vpc(m).count = null));
def("nulls", "for-each-null", (m) => void (vpc(m).for_each = null));
def("nulls", "provider-null", (m) => void (vpc(m).provider = null));
def("nulls", "lifecycle-null", (m) => void (vpc(m).lifecycle = null));
def("nulls", "required-argument-null", (m) => void (vpc(m).cidr = null));
def("nulls", "required-argument-null-second", (m) => void (vpc(m).region_code = null));
def("nulls", "optional-argument-null", (m) => void (db(m).name = null));
def("nulls", "nested-required-null", (m) => {
  const b = find(m, "resource", "tsdb_log_exporter", "logs") ?? addRes(m, "tsdb_log_exporter", "logs", { region: "us-east-1", cloudmon: { region: "us-east-1", log_group_name: "g", log_stream_name: "s" } });
  b.cloudmon.log_group_name = null;
});
def("nulls", "nested-object-null", (m) => {
  const b = find(m, "resource", "tsdb_log_exporter", "logs") ?? addRes(m, "tsdb_log_exporter", "logs", { region: "us-east-1", cloudmon: { region: "us-east-1", log_group_name: "g", log_stream_name: "s" } });
  b.cloudmon = null;
});
def("nulls", "resource-body-null", (m) => void addRes(m, "tsdb_vpcs", "nothing", null));
def("nulls", "timeouts-null", (m) => void (vpc(m).timeouts = null));
def("nulls", "timeouts-create-null", (m) => void (vpc(m).timeouts = { create: null }));
def("nulls", "module-source-null", (m, r) => void (ensureNet(m, r).source = null));
def("nulls", "output-value-null", (m) => void m.put("output", "n", { value: null }));
def("nulls", "local-null", localRef("n", null));
def("nulls", "provider-argument-null", (m) => void (providerList(m)[0].project_id = null));
def("nulls", "variable-type-null", variable("o", { type: null }));
def("nulls", "list-element-null", (m) => {
  const b = find(m, "resource", "tsdb_peering_connection", "peer") ?? addRes(m, "tsdb_peering_connection", "peer", { platform_vpc_id: 7, peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_tgw_id: "tgw-0123456789abcdef0" });
  b.peer_cidr_blocks = ["10.1.0.0/16", null];
  delete b.peer_vpc_id;
  b.peer_tgw_id = "tgw-0123456789abcdef0";
});
def("nulls", "condition-null", (m) => void (lifecycle(db(m)).precondition = [{ condition: null, error_message: "x" }]));
def("nulls", "import-id-null", importTo("tsdb_vpcs.main", { id: null }));

// templates and expressions
def("templates", "unknown-function", localRef("f", "${nope(1)}"));
def("templates", "unknown-function-in-resource", (m) => void (db(m).name = "${frobnicate(var.name_prefix)}"));
def("templates", "function-arity-too-few", localRef("f", "${upper()}"));
def("templates", "function-arity-too-many", localRef("f", '${upper("a", "b")}'));
def("templates", "function-bad-argument-type", localRef("f", '${abs("x")}'));
def("templates", "provider-function-unknown", localRef("f", '${provider::tsdb::nope("x")}'));
def("templates", "namespaced-core-function", localRef("f", '${core::upper("x")}'));
def("templates", "syntax-missing-operand", localRef("f", "${1 +}"));
def("templates", "syntax-unterminated", localRef("f", "${var.cpu"));
def("templates", "syntax-empty-interpolation", localRef("f", "${}"));
def("templates", "syntax-if-without-endif", localRef("f", "%{ if var.cpu > 0 }yes"));
def("templates", "syntax-for-without-endfor", localRef("f", "%{ for x in [1] }${x}"));
def("templates", "syntax-endif-alone", localRef("f", "a%{ endif }"));
def("templates", "syntax-else-after-for", localRef("f", "%{ for x in [1] }${x}%{ else }%{ endfor }"));
def("templates", "if-directive-valid", localRef("f", '%{ if var.cpu > 0 }big%{ else }small%{ endif }'));
def("templates", "for-directive-valid", localRef("f", '%{ for k, v in local.tags }${k}=${v} %{ endfor }'));
def("templates", "strip-markers", localRef("f", "a ${~ var.name_prefix ~} b %{~ if true ~}c%{~ endif ~}"));
def("templates", "escapes", localRef("f", "$${literal} %%{literal} $$ %% $"));
def("templates", "for-expression", localRef("f", "${[for i, v in [1, 2] : v * i if v > 0]}"));
def("templates", "for-object-grouping", localRef("f", '${{ for k, v in local.tags : v => k... }}'));
def("templates", "conditional", localRef("f", '${var.cpu > 1 ? "big" : "small"}'));
def("templates", "conditional-type-mismatch-literal", localRef("f", '${true ? "a" : {}}'));
def("templates", "operator-type-error-literal", localRef("f", '${"a" + 1}'));
def("templates", "operator-type-error-local", localRef("f", '${local.prefix * 2}'));
def("templates", "division-by-zero", localRef("f", "${1 / 0}"));
def("templates", "index-out-of-range-literal", localRef("f", "${[1, 2][5]}"));
def("templates", "heredoc-in-json", localRef("f", "${<<EOT\nhello\nEOT\n}"));
def("templates", "string-escape-in-template", localRef("f", '${"tab\\there"}'));
def("templates", "bad-escape-in-template", localRef("f", '${"\\q"}'));
def("templates", "nested-template", localRef("f", '${"inner ${var.name_prefix} text"}'));
def("templates", "unbalanced-brackets", localRef("f", "${[1, 2}"));
def("templates", "unicode-identifier", localRef("f", "${var.näme}"));
def("templates", "splat-on-list-literal", localRef("f", '${[{ a = 1 }][*].a}'));
def("templates", "try-function", localRef("f", '${try(local.tags.nope, "default")}'));
def("templates", "jsonencode-in-resource", (m) => void (db(m).name = '${jsonencode({ a = 1 })}'));
def("templates", "interpolation-only-number-in-string-attr", (m) => void (db(m).name = "${var.cpu}"));
def("templates", "template-in-key", (m) => void (rootOf(m, "locals").locals["${var.name_prefix}"] = 1));
def("templates", "template-in-label", (m) => void addRes(m, "tsdb_vpcs", "${var.name_prefix}", { cidr: "10.9.0.0/16", region_code: "us-east-1" }));
def("templates", "ternary-missing-colon", localRef("f", "${true ? 1}"));
def("templates", "bare-traversal-no-template", (m) => void (db(m).name = "var.name_prefix"));
def("templates", "sensitive-function", (m) => void m.put("output", "s", { value: '${sensitive("x")}' }));

// dependency cycles
def("cycles", "locals-cycle", (m) => {
  setLocal(m, "a", "${local.b}");
  setLocal(m, "b", "${local.a}");
});
def("cycles", "local-self-reference", localRef("a", "${local.a}"));
def("cycles", "locals-cycle-three", (m) => {
  setLocal(m, "a", "${local.b}");
  setLocal(m, "b", "${local.c}");
  setLocal(m, "c", "${upper(local.a)}");
});
def("cycles", "resources-reference-each-other", (m) => {
  db(m).name = "${tsdb_vpcs.main.name}";
  vpc(m).name = "${tsdb_service.db.name}";
});
def("cycles", "depends-on-each-other", (m) => {
  db(m).depends_on = ["tsdb_vpcs.main"];
  vpc(m).depends_on = ["tsdb_service.db"];
});
def("cycles", "resource-self-reference", (m) => void (db(m).name = "${tsdb_service.db.id}"));
def("cycles", "resource-local-cycle", (m) => {
  setLocal(m, "vpc_name", "${tsdb_vpcs.main.id}");
  vpc(m).name = "${local.vpc_name}";
});
def("cycles", "data-resource-cycle", (m) => {
  addRes(m, "tsdb_service", "looked_up", { id: "${tsdb_service.db.id}" }, "data");
  db(m).name = "${data.tsdb_service.looked_up.name}";
});
def("cycles", "module-output-cycle", (m, r) => {
  ensureNet(m, r).cidr = "${module.net.cidr}";
});
def("cycles", "replace-triggered-by-cycle", (m) => {
  lifecycle(db(m)).replace_triggered_by = ["tsdb_vpcs.main"];
  lifecycle(vpc(m)).replace_triggered_by = ["tsdb_service.db"];
});
def("cycles", "provider-config-cycle", (m) => {
  providerList(m)[0].project_id = "${tsdb_vpcs.main.project_id}";
});
def("cycles", "count-depends-on-own-attribute", (m) => void addRes(m, "tsdb_vpcs", "looped", { count: "${length(tsdb_vpcs.looped)}", cidr: "10.7.0.0/24", region_code: "us-east-1" }));
def("cycles", "no-cycle-chain", (m) => {
  setLocal(m, "a", "${local.b}-x");
  setLocal(m, "b", "${local.c}-y");
  setLocal(m, "c", "z");
});

// names
const resName = (name) => (m) => void addRes(m, "tsdb_vpcs", name, { cidr: "10.9.0.0/16", region_code: "us-east-1" });
def("names", "resource-name-zwj", resName("main\u200dx"));
def("names", "resource-name-zwnj", resName("main\u200cx"));
def("names", "resource-name-digit-first", resName("1vpc"));
def("names", "resource-name-dot", resName("a.b"));
def("names", "resource-name-space", resName("a b"));
def("names", "resource-name-dash", resName("my-vpc"));
def("names", "resource-name-leading-dash", resName("-vpc"));
def("names", "resource-name-underscore-first", resName("_vpc"));
def("names", "resource-name-upper", resName("MainVpc"));
def("names", "resource-name-unicode-letters", resName("größe"));
def("names", "resource-name-cjk", resName("网络"));
def("names", "resource-name-emoji", resName("vpc🙂"));
def("names", "resource-name-empty", resName(""));
def("names", "resource-name-combining-mark", resName("e\u0301t\u00e9"));
def("names", "resource-type-upper", (m) => void addRes(m, "TSDB_vpcs", "x", { cidr: "10.9.0.0/16", region_code: "us-east-1" }));
def("names", "resource-type-unknown", (m) => void addRes(m, "tsdb_nope", "x", {}));
def("names", "resource-type-data-only", (m) => void addRes(m, "tsdb_products", "x", {}));
def("names", "data-type-resource-only", (m) => void addRes(m, "tsdb_peering_connection", "x", {}, "data"));
def("names", "provider-local-name-upper", (m) => {
  rootOf(m, "terraform").terraform.required_providers.TSDB = { source: "schemaform/tsdb" };
});
def("names", "provider-local-name-other", (m) => {
  rootOf(m, "terraform").terraform.required_providers.mytsdb = { source: "schemaform/tsdb" };
  addRes(m, "tsdb_vpcs", "other", { provider: "mytsdb", cidr: "10.9.0.0/16", region_code: "us-east-1" });
  rootOf(m, "provider").provider.mytsdb = { project_id: "p" };
});
def("names", "variable-name-digit", variable("1v", { type: "string", default: "x" }));
def("names", "variable-name-dash", variable("my-var", { type: "string", default: "x" }));
def("names", "variable-name-unicode", variable("größe", { type: "string", default: "x" }));
def("names", "local-name-invalid", localRef("1l", 1));
def("names", "local-name-dash", localRef("my-local", 1));
def("names", "output-name-invalid", (m) => void m.put("output", "1o", { value: 1 }));
def("names", "output-name-zwj", (m) => void m.put("output", "o\u200dx", { value: 1 }));
def("names", "check-name-invalid", (m) => void m.put("check", "1c", { assert: { condition: "${var.cpu > 0}", error_message: "x" } }));
def("names", "alias-invalid", (m) => void providerList(m).push({ alias: "1east" }));
def("names", "alias-non-ascii-letters", (m) => {
  providerList(m).push({ alias: "öst" });
  vpc(m).provider = "tsdb.öst";
});
def("names", "alias-dash", (m) => {
  providerList(m).push({ alias: "us-west" });
  vpc(m).provider = "tsdb.us-west";
});
def("names", "alias-upper", (m) => {
  providerList(m).push({ alias: "West" });
  vpc(m).provider = "tsdb.West";
});
def("names", "module-name-dash", (m, r) => {
  const call = ensureNet(m, r);
  m.put("module", "net-b", { ...call });
});
def("names", "provider-block-name-upper", (m) => void (rootOf(m, "provider").provider.TSDB = { project_id: "x" }));
def("names", "reserved-resource-name-count", resName("count"));
def("names", "dynamic-block-name-upper", (m) => void (db(m).dynamic = { TIMEOUTS: { for_each: "${[1]}", content: { create: "45m" } } }));

// timeouts
def("timeouts", "dynamic-and-static", (m) => Object.assign(db(m), { timeouts: { create: "45m" }, dynamic: { timeouts: { for_each: '${["1h"]}', content: { create: "${timeouts.value}" } } } }));
def("timeouts", "two-static-blocks", (m) => void (db(m).timeouts = [{ create: "45m" }, { create: "1h" }]));
def("timeouts", "unknown-key", (m) => void (vpc(m).timeouts = { delete: "10m" }));
def("timeouts", "unknown-key-service", (m) => void (db(m).timeouts = { update: "10m" }));
def("timeouts", "bad-duration", (m) => void (vpc(m).timeouts = { create: "10 minutes" }));
def("timeouts", "duration-template", (m) => void (vpc(m).timeouts = { create: "${var.cpu}m" }));
def("timeouts", "duration-number", (m) => void (vpc(m).timeouts = { create: 10 }));
def("timeouts", "timeouts-on-type-without", (m) => void addRes(m, "tsdb_peering_connection", "t", { platform_vpc_id: 3, peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_vpc_id: "vpc-0a1b2c3d4e", timeouts: { create: "5m" } }));
def("timeouts", "timeouts-as-string", (m) => void (vpc(m).timeouts = "10m"));
def("timeouts", "timeouts-in-data", (m) => void addRes(m, "tsdb_vpcs", "t", { timeouts: { read: "1m" } }, "data"));
def("timeouts", "channel-all-keys", (m) => void addRes(m, "containerbackup_restore_channel", "t", { destination_project: "projects/restore-target", location: "us-central1", project: "my-project", timeouts: { create: "1m", update: "2m", delete: "3m" } }));
def("timeouts", "channel-read-key", (m) => void addRes(m, "containerbackup_restore_channel", "t", { destination_project: "projects/restore-target", location: "us-central1", project: "my-project", timeouts: { read: "1m" } }));
def("timeouts", "dynamic-two-elements-literal", (m) => void (db(m).dynamic = { timeouts: { for_each: '${["1h", "2h"]}', content: { create: "${timeouts.value}" } } }));
def("timeouts", "empty-timeouts", (m) => void (vpc(m).timeouts = {}));
def("timeouts", "timeouts-array-empty", (m) => void (vpc(m).timeouts = []));

// provider aliases
def("provider-aliases", "resource-uses-undeclared-alias", (m) => void (db(m).provider = "tsdb.east2"));
def("provider-aliases", "resource-uses-declared-alias", (m) => {
  if (!m.features.has("alias:east")) providerList(m).push({ alias: "east", project_id: "p" });
  vpc(m).provider = "tsdb.east";
});
def("provider-aliases", "duplicate-alias", (m) => void providerList(m).push({ alias: "dup" }, { alias: "dup" }));
def("provider-aliases", "two-defaults", (m) => void providerList(m).push({ project_id: "second" }));
def("provider-aliases", "alias-empty", (m) => void providerList(m).push({ alias: "" }));
def("provider-aliases", "alias-null", (m) => void providerList(m).push({ alias: null, project_id: "x" }));
def("provider-aliases", "alias-number", (m) => void providerList(m).push({ alias: 5 }));
def("provider-aliases", "containerbackup-alias", (m) => {
  rootOf(m, "provider").provider.containerbackup = [{ project: "my-project" }, { alias: "eu", project: "eu-project" }];
  addRes(m, "containerbackup_restore_channel", "eu", { provider: "containerbackup.eu", destination_project: "projects/restore-target", location: "europe-west4" });
});
def("provider-aliases", "tsdb-alias-for-channel", (m) => {
  if (!m.features.has("alias:east")) providerList(m).push({ alias: "east" });
  addRes(m, "containerbackup_restore_channel", "wrong", { provider: "tsdb.east", destination_project: "projects/restore-target", location: "us-central1", project: "my-project" });
});
def("provider-aliases", "provider-version-argument", (m) => void (providerList(m)[0].version = "0.1.0"));
def("provider-aliases", "provider-unknown-argument", (m) => void (providerList(m)[0].nope = "x"));
def("provider-aliases", "provider-value-rule", (m) => void (providerList(m)[0].endpoint = "ftp://example.com"));
def("provider-aliases", "provider-access-key-alone", (m) => void (providerList(m)[0].access_key = "AK"));
def("provider-aliases", "provider-token-and-key", (m) => void Object.assign(providerList(m)[0], { access_token: "t", access_key: "a", secret_key: "s" }));
def("provider-aliases", "provider-alias-reference-form", (m) => {
  if (!m.features.has("alias:east")) providerList(m).push({ alias: "east" });
  vpc(m).provider = "tsdb.east.extra";
});
def("provider-aliases", "provider-with-count", (m) => void (providerList(m)[0].count = 2));
def("provider-aliases", "provider-with-depends-on", (m) => void (providerList(m)[0].depends_on = ["tsdb_vpcs.main"]));
def("provider-aliases", "provider-without-required-providers-entry", (m) => {
  delete rootOf(m, "terraform").terraform.required_providers.containerbackup;
  rootOf(m, "provider").provider.containerbackup = { project: "my-project" };
});
def("provider-aliases", "module-passes-alias", (m, r) => {
  if (!m.features.has("alias:east")) providerList(m).push({ alias: "east" });
  ensureNet(m, r).providers = { tsdb: "tsdb.east" };
});
def("provider-aliases", "module-passes-alias-to-missing-config-alias", (m, r) => {
  if (!m.features.has("alias:east")) providerList(m).push({ alias: "east" });
  ensureNet(m, r).providers = { "tsdb.peer": "tsdb.east" };
});

// value rules (our schemas), directly and through locals/templates
const dbSet = (values) => (m) => void Object.assign(db(m), values);
def("value-rules", "cpu-not-in-enum", dbSet({ milli_cpu: 3 }));
def("value-rules", "cpu-through-local", (m) => {
  setLocal(m, "cpu", 3);
  db(m).milli_cpu = "${local.cpu}";
});
def("value-rules", "cpu-through-local-template", (m) => {
  setLocal(m, "cpu", 3);
  db(m).milli_cpu = "${local.cpu * 1}";
});
def("value-rules", "cpu-memory-mismatch-literal", dbSet({ milli_cpu: 1000, memory_gb: 8 }));
def("value-rules", "cpu-memory-mismatch-locals", (m) => {
  setLocal(m, "cpu", 1000);
  setLocal(m, "mem", 8);
  Object.assign(db(m), { milli_cpu: "${local.cpu}", memory_gb: "${local.mem}" });
});
def("value-rules", "cpu-through-variable-default", (m) => {
  m.put("variable", "bad_cpu", { type: "number", default: 3 });
  db(m).milli_cpu = "${var.bad_cpu}";
});
def("value-rules", "cpu-through-local-object", (m) => {
  setLocal(m, "sizes", { small: { cpu: 3 } });
  db(m).milli_cpu = "${local.sizes.small.cpu}";
});
def("value-rules", "cpu-through-function", dbSet({ milli_cpu: "${max(1, 2)}", memory_gb: 4 }));
def("value-rules", "cpu-string-number", dbSet({ milli_cpu: "1000", memory_gb: "4" }));
def("value-rules", "cpu-exponent", dbSet({ milli_cpu: 1e3, memory_gb: 4 }));
def("value-rules", "cpu-exponent-raw", dbSet({ milli_cpu: raw("1.0e3"), memory_gb: raw("4.0") }));
def("value-rules", "cpu-text", dbSet({ milli_cpu: "abc" }));
def("value-rules", "cpu-bool", dbSet({ milli_cpu: true }));
def("value-rules", "cpu-list", dbSet({ milli_cpu: [1000] }));
def("value-rules", "sync-without-ha", dbSet({ sync_replicas: 1, ha_replicas: 0 }));
def("value-rules", "sync-without-ha-local", (m) => {
  setLocal(m, "ha", 1);
  Object.assign(db(m), { sync_replicas: 1, ha_replicas: "${local.ha}" });
});
def("value-rules", "ha-out-of-range", dbSet({ ha_replicas: 3 }));
def("value-rules", "environment-lowercase", dbSet({ environment_tag: "prod" }));
def("value-rules", "environment-through-function", dbSet({ environment_tag: '${lower("PROD")}' }));
def("value-rules", "environment-through-template", (m) => {
  setLocal(m, "env", "prod");
  db(m).environment_tag = "${upper(local.env)}";
});
def("value-rules", "environment-string-concat", (m) => {
  setLocal(m, "env", "pro");
  db(m).environment_tag = "${local.env}d";
});
def("value-rules", "region-az-prefix", (m) => void (vpc(m).region_code = "az-east-1"));
def("value-rules", "region-through-local", (m) => {
  setLocal(m, "bad_region", "us_east_1");
  vpc(m).region_code = "${local.bad_region}";
});
def("value-rules", "cidr-invalid", (m) => void (vpc(m).cidr = "10.0.0.0/33"));
def("value-rules", "cidr-through-local", (m) => {
  setLocal(m, "cidr", "300.0.0.0/16");
  vpc(m).cidr = "${local.cidr}";
});
def("value-rules", "cidr-through-cidrsubnet", (m) => void (vpc(m).cidr = '${cidrsubnet("10.0.0.0/8", 8, 1)}'));
def("value-rules", "vpc-id-from-id", dbSet({ vpc_id: "${tsdb_vpcs.main.id}" }));
def("value-rules", "vpc-id-zero", dbSet({ vpc_id: 0 }));
def("value-rules", "readonly-attribute-set", dbSet({ hostname: "db.example.com" }));
def("value-rules", "unknown-attribute", dbSet({ nope: 1 }));
def("value-rules", "deprecated-attribute", dbSet({ storage_gb: 10 }));
def("value-rules", "password-wo-without-ephemeral", dbSet({ password_wo: "literal", password_wo_version: 1 }));
def("value-rules", "read-replica-nodes-out-of-range", dbSet({ read_replica_source: "${tsdb_vpcs.main.id}", read_replica_nodes: 11 }));
const peering = (values) => (m) => {
  const b = find(m, "resource", "tsdb_peering_connection", "peer") ?? addRes(m, "tsdb_peering_connection", "peer", { platform_vpc_id: "${tsdb_vpcs.main.vpcs_id}", peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_vpc_id: "vpc-0a1b2c3d4e" });
  for (const [k, v] of Object.entries(values)) if (v === undefined) delete b[k];
  else b[k] = v;
};
def("value-rules", "peering-both-targets", peering({ peer_vpc_id: "vpc-0a1b2c3d4e", peer_tgw_id: "tgw-0123456789abcdef0", peer_cidr_blocks: ["10.1.0.0/16"] }));
def("value-rules", "peering-no-target", peering({ peer_vpc_id: undefined, peer_tgw_id: undefined, peer_cidr_blocks: undefined }));
def("value-rules", "peering-tgw-without-cidrs", peering({ peer_vpc_id: undefined, peer_tgw_id: "tgw-0123456789abcdef0", peer_cidr_blocks: undefined }));
def("value-rules", "peering-account-short", peering({ peer_account_id: "12345" }));
def("value-rules", "peering-account-through-local", (m) => {
  setLocal(m, "account", "12345");
  peering({ peer_account_id: "${local.account}" })(m);
});
def("value-rules", "peering-empty-cidr-list", peering({ peer_vpc_id: undefined, peer_tgw_id: "tgw-0123456789abcdef0", peer_cidr_blocks: [] }));
def("value-rules", "peering-vpc-id-literal-zero", peering({ platform_vpc_id: 0 }));
const exporter = (values) => (m) => {
  const b = find(m, "resource", "tsdb_metric_exporter", "metrics") ?? addRes(m, "tsdb_metric_exporter", "metrics", { region: "us-east-1", saasmon: { api_key: "k", site: "datadoghq.com" } });
  for (const k of ["saasmon", "pullmon", "cloudmon"]) delete b[k];
  Object.assign(b, values);
};
def("value-rules", "metric-exporter-none", exporter({}));
def("value-rules", "metric-exporter-two", exporter({ saasmon: { api_key: "k", site: "datadoghq.com" }, pullmon: { username: "u", password: "p" } }));
def("value-rules", "metric-exporter-missing-nested", exporter({ cloudmon: { region: "us-east-1", log_group_name: "g", log_stream_name: "s" } }));
def("value-rules", "metric-exporter-site-invalid", exporter({ saasmon: { api_key: "k", site: "not a site" } }));
def("value-rules", "metric-exporter-nested-unknown", exporter({ pullmon: { username: "u", password: "p", port: 9 } }));
def("value-rules", "metric-exporter-nested-block-syntax", exporter({ pullmon: [{ username: "u", password: "p" }] }));
def("value-rules", "log-exporter-region-through-local", (m) => {
  setLocal(m, "log_region", "az-1");
  const b = find(m, "resource", "tsdb_log_exporter", "logs") ?? addRes(m, "tsdb_log_exporter", "logs", { region: "us-east-1", cloudmon: { region: "us-east-1", log_group_name: "g", log_stream_name: "s" } });
  b.region = "${local.log_region}";
});
def("value-rules", "log-exporter-role-arn-invalid", (m) => {
  const b = find(m, "resource", "tsdb_log_exporter", "logs") ?? addRes(m, "tsdb_log_exporter", "logs", { region: "us-east-1", cloudmon: { region: "us-east-1", log_group_name: "g", log_stream_name: "s" } });
  b.cloudmon = { ...b.cloudmon, role_arn: "not-an-arn" };
});
const channel = (values) => (m) => {
  const b = find(m, "resource", "containerbackup_restore_channel", "channel") ?? addRes(m, "containerbackup_restore_channel", "channel", { destination_project: "projects/restore-target", location: "us-central1", project: "my-project" });
  Object.assign(b, values);
};
def("value-rules", "channel-destination-invalid", channel({ destination_project: "restore-target" }));
def("value-rules", "channel-location-invalid", channel({ location: "US-Central1" }));
def("value-rules", "channel-location-through-local", (m) => {
  setLocal(m, "loc", "US");
  channel({ location: "${local.loc}" })(m);
});
def("value-rules", "channel-labels-number", channel({ labels: { a: 1 } }));
def("value-rules", "channel-labels-object", channel({ labels: { a: { b: "c" } } }));
def("value-rules", "channel-name-invalid", channel({ name: "Bad_Name" }));
def("value-rules", "channel-missing-location", (m) => {
  channel({})(m);
  delete find(m, "resource", "containerbackup_restore_channel", "channel").location;
});
const objStore = (change) => (m) => {
  const b = find(m, "resource", "tsdb_connector_obj_store", "files") ?? addRes(m, "tsdb_connector_obj_store", "files", { service_id: "${tsdb_service.db.id}", bucket: "my-data-bucket", pattern: "*.csv", credentials: { type: "Public" }, definition: { type: "CSV", csv: { column_names: ["a"] } }, table_identifier: { table_name: "t" } });
  change(b);
};
def("value-rules", "obj-store-bucket-invalid", objStore((b) => void (b.bucket = "UPPER_bucket")));
def("value-rules", "obj-store-credentials-empty", objStore((b) => void (b.credentials = {})));
def("value-rules", "obj-store-type-invalid", objStore((b) => void (b.credentials = { type: "Private" })));
def("value-rules", "obj-store-frequency-invalid", objStore((b) => void (b.frequency = "@minutely")));
def("value-rules", "obj-store-column-names-empty", objStore((b) => void (b.definition = { type: "CSV", csv: { column_names: [] } })));
def("value-rules", "obj-store-missing-table", objStore((b) => void delete b.table_identifier));
def("value-rules", "obj-store-mapping-missing-destination", objStore((b) => void (b.definition = { type: "PARQUET", parquet: { column_mappings: [{ source: "a" }] } })));
const srcDb = (change) => (m) => {
  const b = find(m, "resource", "tsdb_connector_src_db", "replication") ?? addRes(m, "tsdb_connector_src_db", "replication", { service_id: "${tsdb_service.db.id}", display_name: "orders", connection_string: "postgres://u:p@h:5432/d" });
  change(b);
};
def("value-rules", "src-db-workers-too-many", srcDb((b) => void (b.table_sync_workers = 100)));
def("value-rules", "src-db-workers-through-local", (m) => {
  setLocal(m, "workers", 0);
  srcDb((b) => void (b.table_sync_workers = "${local.workers}"))(m);
});
def("value-rules", "src-db-connection-string-invalid", srcDb((b) => void (b.connection_string = "mysql://x")));
def("value-rules", "src-db-ssh-port", srcDb((b) => void (b.ssh_tunnel = { name: "t", port: 70000 })));
def("value-rules", "src-db-table-missing-name", srcDb((b) => void (b.tables = [{ schema_name: "public" }])));
def("value-rules", "src-db-hypertable-partitions-zero", srcDb((b) => void (b.tables = [{ schema_name: "p", table_name: "t", hypertable_spec: { primary_dimension: { column_name: "time", partition_interval: "1d" }, secondary_dimensions: [{ hash: { column_name: "d", number_partitions: 0 } }] } }])));
def("value-rules", "src-db-tables-object", srcDb((b) => void (b.tables = { schema_name: "public", table_name: "t" })));
def("value-rules", "data-service-missing-id", (m) => void addRes(m, "tsdb_service", "lookup", {}, "data"));
def("value-rules", "data-service-env-invalid", (m) => void addRes(m, "tsdb_service", "lookup", { id: "x", environment_tag: "QA" }, "data"));
def("value-rules", "data-vpcs-readonly-set", (m) => void addRes(m, "tsdb_vpcs", "lookup", { vpcs: [] }, "data"));
def("value-rules", "missing-required-argument", (m) => void delete vpc(m).cidr);
def("value-rules", "missing-two-required-arguments", (m) => {
  delete vpc(m).cidr;
  delete vpc(m).region_code;
});
def("value-rules", "value-through-conditional-local", (m) => {
  setLocal(m, "cpu", "${true ? 3 : 5}");
  db(m).milli_cpu = "${local.cpu}";
});
def("value-rules", "value-through-variable-nullable-default", (m) => {
  m.put("variable", "size", { type: "number", default: null });
  db(m).milli_cpu = "${var.size}";
});

// false-positive shapes: unusual but (maybe) valid forms
def("false-positive-shapes", "resource-body-nested-arrays", (m) => {
  const root = vpcRoot(m);
  const body = root.resource.tsdb_vpcs.main;
  root.resource.tsdb_vpcs.main = [[body]];
});
def("false-positive-shapes", "label-level-array", (m) => {
  const root = vpcRoot(m);
  root.resource.tsdb_vpcs = [root.resource.tsdb_vpcs];
});
def("false-positive-shapes", "label-level-nested-arrays", (m) => {
  const root = vpcRoot(m);
  root.resource = [[root.resource]];
});
def("false-positive-shapes", "root-array-of-objects", (m) => {
  const file = Object.keys(m.files)[0];
  m.files[file] = raw(`[${JSON.stringify(m.files[file], null, 2)}]`);
});
def("false-positive-shapes", "timeouts-nested-arrays", (m) => void (db(m).timeouts = [[{ create: "45m" }]]));
def("false-positive-shapes", "lifecycle-array", (m) => void (vpc(m).lifecycle = [{ create_before_destroy: true }]));
def("false-positive-shapes", "lifecycle-nested-arrays", (m) => void (vpc(m).lifecycle = [[{ create_before_destroy: true }]]));
def("false-positive-shapes", "deep-nesting-local-300", localRef("deep", nest(300)));
def("false-positive-shapes", "deep-nesting-local-100", localRef("deep", nest(100)));
def("false-positive-shapes", "deep-nesting-labels-array", localRef("deep", nestArrays(280)));
def("false-positive-shapes", "comment-key-in-resource", (m) => void (vpc(m)["//"] = "a comment"));
def("false-positive-shapes", "comment-key-object", (m) => void (vpc(m)["//"] = { note: "structured comment" }));
def("false-positive-shapes", "comment-key-at-root", (m) => void (rootOf(m, "resource")["//"] = "root comment"));
def("false-positive-shapes", "comment-key-in-labels", (m) => void (vpcRoot(m).resource.tsdb_vpcs["//"] = "label-level"));
def("false-positive-shapes", "comment-key-in-variable", (m) => void (rootOf(m, "variable").variable.cpu["//"] = "note"));
def("false-positive-shapes", "comment-key-in-locals", localRef("//", "not a comment here?"));
def("false-positive-shapes", "number-description", (m) => void (rootOf(m, "variable").variable.cpu.description = 7));
def("false-positive-shapes", "bool-description", (m) => void (rootOf(m, "output").output.db_hostname.description = true));
def("false-positive-shapes", "number-default-for-string", variable("o", { type: "string", default: 5 }));
def("false-positive-shapes", "bool-string-default", variable("o", { type: "bool", default: "true" }));
def("false-positive-shapes", "vpc-id-string-reference", dbSet({ vpc_id: "${tsdb_vpcs.main.id}" }));
def("false-positive-shapes", "bool-as-string", dbSet({ connection_pooler_enabled: "true", paused: "0" }));
def("false-positive-shapes", "number-as-string-with-spaces", dbSet({ ha_replicas: " 2", sync_replicas: 1 }));
def("false-positive-shapes", "number-huge", dbSet({ vpc_id: raw("123456789012345678901234567890") }));
def("false-positive-shapes", "number-negative-zero", dbSet({ ha_replicas: raw("-0") }));
def("false-positive-shapes", "empty-resource-group", (m) => void (rootOf(m, "resource").resource.tsdb_log_exporter = {}));
def("false-positive-shapes", "empty-variable-body", variable("o", {}));
def("false-positive-shapes", "empty-locals", (m) => void ((m.files["extra.tf.json"] ??= {}).locals = {}));
def("false-positive-shapes", "empty-file-object", (m) => void (m.files["empty.tf.json"] = {}));
def("false-positive-shapes", "output-value-object", (m) => void m.put("output", "obj", { value: { a: "${var.cpu}", b: [1, "two"] } }));
def("false-positive-shapes", "labels-with-comment-key", channel({ labels: { team: "data", "//": "a label" } }));
def("false-positive-shapes", "required-providers-version-only", (m) => void (rootOf(m, "terraform").terraform.required_providers.tsdb = { source: "schemaform/tsdb", version: ">= 0.1.0" }));
def("false-positive-shapes", "required-providers-string", (m) => void (rootOf(m, "terraform").terraform.required_providers.tsdb = "0.1.0"));
def("false-positive-shapes", "terraform-block-array", (m) => {
  const root = rootOf(m, "terraform");
  root.terraform = [root.terraform];
});
def("false-positive-shapes", "variable-block-array", (m) => {
  const root = rootOf(m, "variable");
  root.variable = [root.variable];
});
def("false-positive-shapes", "locals-array", (m) => {
  const root = rootOf(m, "locals");
  root.locals = [root.locals, { more: 1 }];
});
def("false-positive-shapes", "provisioner-array-order", (m) => void (vpc(m).provisioner = [{ "local-exec": { command: "echo 1" } }, { "local-exec": { command: "echo 2" } }]));
def("false-positive-shapes", "unicode-escapes-in-values", (m) => void (db(m).name = raw('"caf\\u00e9-\\ud83d\\ude00"')));
def("false-positive-shapes", "sensitive-output-nested", (m) => void m.put("output", "nested", { value: { s: "${var.secret}" }, sensitive: true }));

// shapes that Terraform's own configuration tests use, written for our types
const counted = (m) => {
  addRes(m, "tsdb_vpcs", "a", { count: 1, cidr: "10.11.0.0/16", region_code: "us-east-1" });
  return addRes(m, "tsdb_vpcs", "b", { count: 1, cidr: "10.12.0.0/16", region_code: "us-east-1" });
};
def("terraform-json", "replace-triggered-by-count-index-inside", (m) => void (lifecycle(counted(m)).replace_triggered_by = ["tsdb_vpcs.a[count.index].cidr"]));
def("terraform-json", "replace-triggered-by-object-element", (m) => void (lifecycle(counted(m)).replace_triggered_by = [{ "tsdb_vpcs.a[count.index].cidr": "nope" }]));
def("terraform-json", "replace-triggered-by-template-element", (m) => void (lifecycle(counted(m)).replace_triggered_by = ["${tsdb_vpcs.a[count.index].cidr}"]));
def("terraform-json", "import-to-array", (m) => {
  addRes(m, "tsdb_vpcs", "keyed", { for_each: { a: "a", b: "b" }, cidr: "10.13.0.0/16", region_code: "us-east-1" });
  rootOf(m, "import").import = { for_each: '["a", "b"]', to: ["tsdb_vpcs.keyed[wrong]"], id: "${each.value}" };
});
def("terraform-json", "import-for-each-template", (m) => {
  addRes(m, "tsdb_vpcs", "keyed", { for_each: { a: "a", b: "b" }, cidr: "10.13.0.0/16", region_code: "us-east-1" });
  rootOf(m, "import").import = { for_each: '${["a", "b"]}', to: "tsdb_vpcs.keyed[each.value]", id: "${each.value}" };
});
def("terraform-json", "import-object-not-array", (m) => void (rootOf(m, "import").import = { to: "tsdb_vpcs.main", id: "77" }));
def("terraform-json", "import-identity", importTo("tsdb_vpcs.main", { identity: { id: "1" } }));
def("terraform-json", "moved-object-not-array", (m) => void (rootOf(m, "moved").moved = { from: "tsdb_vpcs.old", to: "tsdb_vpcs.main" }));
def("terraform-json", "removed-object-not-array", (m) => void (rootOf(m, "removed").removed = { from: "tsdb_vpcs.old", lifecycle: { destroy: false } }));
def("terraform-json", "variables-of-every-shape", (m) => {
  const v = group(m, "variable");
  Object.assign(v, { foo: {}, bar: { default: "hello" }, baz: { type: "list" }, "bar-baz": { default: [], type: "list" }, cheese_pizza: { description: "Nothing special" }, "π": { default: 3.14159265359 }, sensitive_value: { default: { a: 1, b: 2 }, sensitive: true } });
});
def("terraform-json", "validation-two-rules", variable("o", { type: "number", default: 3, validation: [{ condition: "${var.o > 0}", error_message: "positive" }, { condition: "${var.o < 100}", error_message: "small" }] }));
def("terraform-json", "locals-dashed-key", localRef("a-b", 1));
def("terraform-json", "ephemeral-resource-block", (m) => void ((m.files["extra.tf.json"] ??= {}).ephemeral = { tsdb_vpcs: { e: {} } }));
def("terraform-json", "action-block", (m) => void ((m.files["extra.tf.json"] ??= {}).action = { tsdb_vpcs: { a: {} } }));
def("terraform-json", "required-version-unsatisfied", (m) => void (rootOf(m, "terraform").terraform.required_version = ">= 9.0"));
def("terraform-json", "required-version-tilde", (m) => void (rootOf(m, "terraform").terraform.required_version = "~> 1.11.0"));
def("terraform-json", "required-version-invalid", (m) => void (rootOf(m, "terraform").terraform.required_version = "latest"));
def("terraform-json", "experiments-empty", (m) => void (rootOf(m, "terraform").terraform.experiments = []));
def("terraform-json", "experiments-unknown", (m) => void (rootOf(m, "terraform").terraform.experiments = ["nope"]));
def("terraform-json", "terraform-unknown-argument", (m) => void (rootOf(m, "terraform").terraform.color = "blue"));
def("terraform-json", "backend-unknown-type", (m) => void (rootOf(m, "terraform").terraform.backend = { nope: {} }));
def("terraform-json", "cloud-and-backend", (m) => void Object.assign(rootOf(m, "terraform").terraform, { backend: { local: {} }, cloud: { organization: "o", workspaces: { name: "w" } } }));
def("terraform-json", "provider-meta", (m) => void (rootOf(m, "terraform").terraform.provider_meta = { tsdb: { hello: "world" } }));
def("terraform-json", "required-providers-version-constraint-bad", (m) => void (rootOf(m, "terraform").terraform.required_providers.tsdb.version = "one"));
def("terraform-json", "required-providers-version-unsatisfied", (m) => void (rootOf(m, "terraform").terraform.required_providers.tsdb.version = ">= 5.0"));
def("terraform-json", "configuration-aliases-child", (m, r) => {
  if (!m.features.has("alias:east")) providerList(m).push({ alias: "east" });
  const call = ensureNet(m, r);
  m.modules.net["main.tf.json"].terraform.required_providers.tsdb.configuration_aliases = ["tsdb.peer"];
  call.providers = { tsdb: "tsdb", "tsdb.peer": "tsdb.east" };
});
def("terraform-json", "configuration-aliases-not-passed", (m, r) => {
  ensureNet(m, r);
  m.modules.net["main.tf.json"].terraform.required_providers.tsdb.configuration_aliases = ["tsdb.peer"];
});
def("terraform-json", "module-providers-array", (m, r) => void (ensureNet(m, r).providers = [{ tsdb: "tsdb" }]));
def("terraform-json", "child-ephemeral-output", (m, r) => {
  ensureNet(m, r);
  m.modules.net["outputs.tf.json"].output.eph = { value: "${var.cidr}", ephemeral: true };
});
def("terraform-json", "output-depends-on-module", (m, r) => {
  ensureNet(m, r);
  m.put("output", "after", { value: 1, depends_on: ["module.net"] });
});
def("terraform-json", "data-depends-on-module", (m, r) => {
  ensureNet(m, r);
  addRes(m, "tsdb_products", "after", { depends_on: ["module.net"] }, "data");
});
def("terraform-json", "check-assert-array-two", (m) => void m.put("check", "two", { assert: [{ condition: "${var.cpu > 0}", error_message: "a" }, { condition: "${var.cpu < 99999}", error_message: "b" }] }));
def("terraform-json", "check-without-assert", (m) => void m.put("check", "empty", { data: { tsdb_products: { p: {} } } }));
def("terraform-json", "check-two-data", (m) => void m.put("check", "two", { data: { tsdb_products: { p: {} }, tsdb_vpcs: { q: {} } }, assert: { condition: "${length(data.tsdb_vpcs.q.vpcs) >= 0}", error_message: "x" } }));
def("terraform-json", "check-nested-resource", (m) => void m.put("check", "bad", { resource: { tsdb_vpcs: { x: {} } }, assert: { condition: "${var.cpu > 0}", error_message: "x" } }));
def("terraform-json", "resource-level-connection", (m) => void Object.assign(vpc(m), { connection: { host: "example.com" }, provisioner: [{ "local-exec": { command: "echo a" } }, { "local-exec": { command: "echo b", when: "destroy" } }] }));
def("terraform-json", "provisioner-on-failure-invalid", (m) => void (vpc(m).provisioner = { "local-exec": { command: "echo", on_failure: "explode" } }));
def("terraform-json", "provisioner-self-in-destroy", (m) => void (vpc(m).provisioner = { "local-exec": { command: "echo ${self.cidr}", when: "destroy" } }));
def("terraform-json", "provisioner-var-in-destroy", (m) => void (vpc(m).provisioner = { "local-exec": { command: "echo ${var.name_prefix}", when: "destroy" } }));

// value rules when the value is an expression Terraform can resolve at validate time (or not)
def("value-rules", "cpu-literal-template", dbSet({ milli_cpu: "${1000}", memory_gb: "${2 * 2}" }));
def("value-rules", "cpu-arithmetic-invalid", dbSet({ milli_cpu: "${1000 + 1}", memory_gb: 4 }));
def("value-rules", "cpu-local-chain", (m) => {
  setLocal(m, "base_cpu", 3);
  setLocal(m, "cpu", "${local.base_cpu}");
  db(m).milli_cpu = "${local.cpu}";
});
def("value-rules", "cpu-local-string-number", (m) => {
  setLocal(m, "cpu", "1000");
  setLocal(m, "mem", "4");
  Object.assign(db(m), { milli_cpu: "${local.cpu}", memory_gb: "${local.mem}" });
});
def("value-rules", "cpu-local-list-index", (m) => {
  setLocal(m, "sizes", [3, 1000]);
  db(m).milli_cpu = "${local.sizes[0]}";
});
def("value-rules", "cpu-local-lookup", (m) => {
  setLocal(m, "sizes", { small: 3 });
  db(m).milli_cpu = '${lookup(local.sizes, "small", 500)}';
});
def("value-rules", "cpu-through-each-value", (m) => void addRes(m, "tsdb_service", "sized", { for_each: { a: 3 }, milli_cpu: "${each.value}" }));
def("value-rules", "cpu-through-count-index", (m) => void addRes(m, "tsdb_service", "sized", { count: 1, milli_cpu: "${count.index + 3}" }));
def("value-rules", "credentials-through-local-object", (m) => {
  setLocal(m, "creds", { type: "Private" });
  objStore((b) => void (b.credentials = "${local.creds}"))(m);
});
def("value-rules", "cidr-list-through-local", (m) => {
  setLocal(m, "cidrs", []);
  peering({ peer_vpc_id: undefined, peer_tgw_id: "tgw-0123456789abcdef0", peer_cidr_blocks: "${local.cidrs}" })(m);
});
def("value-rules", "region-template-valid", (m) => {
  // The same region, written as a template: the VPC stays in the region of the service using it.
  const [, area, number] = /^([a-z]+-[a-z]+)-(\d+)$/.exec(vpc(m).region_code) ?? [undefined, "us-east", "1"];
  setLocal(m, "area", area);
  vpc(m).region_code = `\${local.area}-${number}`;
});
def("value-rules", "region-template-invalid", (m) => void (vpc(m).region_code = "AZ-${1}"));
def("value-rules", "region-through-sensitive-variable", (m) => {
  m.put("variable", "hidden_region", { type: "string", sensitive: true, default: "az-1" });
  vpc(m).region_code = "${var.hidden_region}";
});
def("value-rules", "cpu-through-data-source", (m) => {
  addRes(m, "tsdb_service", "peek", { id: "svc-1" }, "data");
  db(m).milli_cpu = "${data.tsdb_service.peek.resources[0].spec.milli_cpu}";
});
def("value-rules", "env-through-conditional-on-variable", dbSet({ environment_tag: '${var.cpu > 0 ? "prod" : "dev"}' }));
def("value-rules", "workers-through-tonumber", srcDb((b) => void (b.table_sync_workers = '${tonumber("100")}')));
def("module-calls", "child-value-through-argument", (m, r) => void (ensureNet(m, r).cidr = "300.0.0.0/16"));
def("module-calls", "child-value-through-default", (m, r) => {
  const call = ensureNet(m, r);
  delete call.region;
  m.modules.net["main.tf.json"].variable.region.default = "az-1";
});
def("module-calls", "child-value-through-local", (m, r) => {
  ensureNet(m, r);
  m.modules.net["main.tf.json"].locals = { region: "az-1" };
  m.modules.net["main.tf.json"].resource.tsdb_vpcs.this.region_code = "${local.region}";
});
def("module-calls", "child-required-variable-type-object", (m, r) => {
  const call = ensureNet(m, r);
  m.modules.net["main.tf.json"].variable.cidr.type = "object({ block = string })";
  m.modules.net["main.tf.json"].resource.tsdb_vpcs.this.cidr = "${var.cidr.block}";
  call.cidr = { block: "10.250.0.0/16", extra: 1 };
});
def("module-calls", "child-required-variable-object-missing-attribute", (m, r) => {
  const call = ensureNet(m, r);
  m.modules.net["main.tf.json"].variable.cidr.type = "object({ block = string, size = number })";
  m.modules.net["main.tf.json"].resource.tsdb_vpcs.this.cidr = "${var.cidr.block}";
  call.cidr = { block: "10.250.0.0/16" };
});

function nest(depth) {
  let v = "leaf";
  for (let i = 0; i < depth; i++) v = { k: v };
  return v;
}
function nestArrays(depth) {
  let v = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

// JSON-level syntax: applied to the written text of one file
const T = [];
const text = (name, change) => T.push({ cat: "syntax", name, change });
text("trailing-comma-object", (t) => t.replace(/("[^"\n]*"|\d|true|false|null|[}\]])(\s*\n\s*})/, "$1,$2"));
text("trailing-comma-array", (t) => (t.includes("[") ? t.replace(/("[^"\n]*")(\s*\])/, "$1,$2") : t.replace(/}\s*$/, ',\n"x": [1,]}\n')));
text("missing-comma", (t) => t.replace(/,\n/, "\n"));
text("line-comment", (t) => t.replace(/\n/, "\n// a comment\n"));
text("hash-comment", (t) => t.replace(/\n/, "\n# a comment\n"));
text("block-comment", (t) => t.replace(/\n/, "\n/* a comment */\n"));
text("single-quoted-string", (t) => t.replace(/"([a-z_]+)": "([^"$\\]*)"/, "\"$1\": '$2'"));
text("unquoted-key", (t) => t.replace(/"([a-z_]+)":/, "$1:"));
text("byte-order-mark", (t) => "\ufeff" + t);
text("empty-file", () => "");
text("whitespace-only", () => " \n\t\n");
text("root-array-empty", () => "[]");
text("root-string", () => '"resource"');
text("root-null", () => "null");
text("root-number", () => "42");
text("root-empty-object", () => "{}");
text("truncated", (t) => t.slice(0, Math.floor(t.length / 2)));
text("extra-data-after-root", (t) => t + "{}\n");
text("extra-closing-brace", (t) => t.replace(/\s*$/, "}\n"));
text("nan-value", (t) => t.replace(/: (\d+)/, ": NaN"));
text("infinity-value", (t) => t.replace(/: (\d+)/, ": Infinity"));
text("leading-zero", (t) => t.replace(/: (\d+)/, ": 0$1"));
text("leading-plus", (t) => t.replace(/: (\d+)/, ": +$1"));
text("trailing-dot", (t) => t.replace(/: (\d+)/, ": $1."));
text("leading-dot", (t) => t.replace(/: (\d+)/, ": .$1"));
text("exponent-without-digits", (t) => t.replace(/: (\d+)/, ": $1e"));
text("hex-number", (t) => t.replace(/: (\d+)/, ": 0x10"));
text("invalid-escape", (t) => t.replace(/"([a-z]+)"(\s*[,\n}])/, '"$1\\q"$2'));
text("unicode-escape-short", (t) => t.replace(/"([a-z]+)"(\s*[,\n}])/, '"$1\\u12"$2'));
text("lone-high-surrogate", (t) => t.replace(/"([a-z]+)"(\s*[,\n}])/, '"$1\\ud800"$2'));
text("lone-low-surrogate", (t) => t.replace(/"([a-z]+)"(\s*[,\n}])/, '"$1\\udc00x"$2'));
text("escaped-nul", (t) => t.replace(/"([a-z]+)"(\s*[,\n}])/, '"$1\\u0000"$2'));
text("raw-tab-in-string", (t) => t.replace(/"([a-z]+)"(\s*[,\n}])/, '"$1\tx"$2'));
text("raw-newline-in-string", (t) => t.replace(/"([a-z]+)"(\s*[,\n}])/, '"$1\nx"$2'));
text("raw-del-in-string", (t) => t.replace(/"([a-z]+)"(\s*[,\n}])/, '"$1\u007fx"$2'));
text("form-feed-whitespace", (t) => t.replace(/\n/, "\n\f"));
text("vertical-tab-whitespace", (t) => t.replace(/\n/, "\n\v"));
text("nbsp-whitespace", (t) => t.replace(/\n/, "\n\u00a0"));
text("crlf-line-endings", (t) => t.replace(/\n/g, "\r\n"));
text("cr-line-endings", (t) => t.replace(/\n/g, "\r"));
text("keyword-capitalised", (t) => (/: (true|false|null)/.test(t) ? t.replace(/: (true|false|null)/, (_, k) => `: ${k[0].toUpperCase()}${k.slice(1)}`) : t.replace(/\{/, '{"x": True,')));
text("keyword-truncated", (t) => t.replace(/\{/, '{"x": tru,'));
text("colon-missing", (t) => t.replace(/": /, '" '));
text("equals-instead-of-colon", (t) => t.replace(/": /, '" = '));
text("duplicate-key-in-body", (t) => t.replace(/(\n(\s*)"cidr": ("[^"]*"),)/, '$1\n$2"cidr": $3,'));
text("duplicate-key-different-value", (t) => t.replace(/(\n(\s*)"region_code": "[^"]*"(,?))/, (all, line, pad, comma) => (comma ? `${line}\n${pad}"region_code": "eu-west-1",` : `\n${pad}"region_code": "eu-west-1",${line}`)));
text("duplicate-root-key", (t) => t.replace(/^\{/, '{\n  "locals": { "dup_root": 1 },'));
text("invalid-utf8-byte-marker", (t) => t.replace(/"demo"/, '"de\ufffdmo"'));
text("string-key-number", (t) => t.replace(/\{/, "{ 1: 2,"));
text("array-missing-close", (t) => t.replace(/\]/, ""));
text("object-missing-close", (t) => t.replace(/\}\s*$/, ""));
text("double-comma", (t) => t.replace(/,\n/, ",,\n"));
text("leading-comma", (t) => t.replace(/^\{\s*\n/, "{\n  ,"));
text("deep-nesting-text-10000", (t) => t.replace(/^\{/, `{"locals": {"deep": ${"[".repeat(10000)}${"]".repeat(10000)}},`));
text("long-string", (t) => t.replace(/"demo"/, JSON.stringify("x".repeat(200000))));
T.push({ cat: "terraform-json", name: "native-syntax-as-json", change: () => 'terraform {\n}\n' });
T.push({ cat: "terraform-json", name: "native-resource-as-json", change: () => 'resource "tsdb_vpcs" "a" {\n  cidr = "10.0.0.0/16"\n}\n' });
// a key written with a \u escape is the same key (the file holding a "cidr" is the one changed)
T.push({ cat: "false-positive-shapes", name: "escaped-unicode-key", pick: (files) => Object.keys(files).find((n) => !n.includes("/") && files[n].includes('"cidr":')), change: (t) => t.replace('"cidr":', '"cid\\u0072":') });
text("control-escapes-valid", (t) => t.replace(/"demo"/, '"d\\b\\f\\n\\r\\t\\/\\\\\\"o"'));

// ---- adversarial: shapes an independent author would try (wrong JSON types per argument, empty and
// blank strings, numbers at the edges, every nested block as []/{}/[{}]/null, lifecycle and
// meta-argument variants, functions that fail on known values, "//" in every body, odd text) ----
const conv = (name, values) => def("conversions", name, dbSet(values));
conv("db-name-number", { name: 12345 });
conv("db-name-bool", { name: false });
conv("db-name-object", { name: { a: "b" } });
conv("db-name-list", { name: ["a"] });
conv("db-name-empty", { name: "" });
conv("db-name-spaces", { name: "   " });
conv("db-name-emoji", { name: "db-\u{1F680}" });
conv("db-paused-string-true", { paused: "true" });
conv("db-paused-string-yes", { paused: "yes" });
conv("db-paused-string-one", { paused: "1" });
conv("db-paused-number", { paused: 1 });
conv("db-paused-object", { paused: {} });
conv("db-storage-string-number", { storage_gb: "100" });
conv("db-storage-fraction", { storage_gb: 2.5 });
conv("db-storage-huge", { storage_gb: raw("1e400") });
conv("db-storage-one-point-zero", { storage_gb: raw("100.0") });
conv("db-storage-string-spaces", { storage_gb: " 100 " });
conv("db-storage-string-hex", { storage_gb: "0x10" });
conv("db-storage-string-exponent", { storage_gb: "1e2" });
conv("db-vpc-id-negative", { vpc_id: -1 });
conv("db-vpc-id-negative-zero", { vpc_id: raw("-0") });
conv("db-vpc-id-fraction", { vpc_id: 1.5 });
conv("db-vpc-id-list", { vpc_id: [1] });
conv("db-ha-replicas-string", { ha_replicas: "2", sync_replicas: "1" });
conv("db-ha-replicas-bool", { ha_replicas: true });
conv("db-region-number", { region_code: 1 });
conv("db-region-empty", { region_code: "" });
conv("db-log-exporter-id-number", { log_exporter_id: 42 });
conv("db-timeouts-list-one", { timeouts: [{ create: "10m" }] });
conv("db-timeouts-list-empty-object", { timeouts: [{}] });
conv("db-timeouts-string-list", { timeouts: ["10m"] });
conv("db-timeouts-number", { timeouts: 5 });
conv("db-timeouts-create-bool", { timeouts: { create: true } });
def("conversions", "vpc-cidr-number", (m) => void (vpc(m).cidr = 10));
def("conversions", "vpc-cidr-list", (m) => void (vpc(m).cidr = ["10.0.0.0/16"]));
def("conversions", "vpc-cidr-spaces", (m) => void (vpc(m).cidr = " 10.1.0.0/16 "));
def("conversions", "vpc-region-bool", (m) => void (vpc(m).region_code = true));
def("conversions", "vpc-name-empty", (m) => void (vpc(m).name = ""));
def("conversions", "channel-labels-list", channel({ labels: ["team"] }));
def("conversions", "channel-labels-string", channel({ labels: "team=data" }));
def("conversions", "channel-labels-bool-values", channel({ labels: { a: true } }));
def("conversions", "channel-labels-empty", channel({ labels: {} }));
def("conversions", "channel-labels-null-value", channel({ labels: { a: null } }));
def("conversions", "channel-description-number", channel({ description: 7 }));
def("conversions", "channel-description-empty", channel({ description: "" }));
def("conversions", "peering-cidr-blocks-string", peering({ peer_vpc_id: undefined, peer_tgw_id: "tgw-0123456789abcdef0", peer_cidr_blocks: "10.100.0.0/16" }));
def("conversions", "peering-cidr-blocks-duplicates", peering({ peer_vpc_id: undefined, peer_tgw_id: "tgw-0123456789abcdef0", peer_cidr_blocks: ["10.100.0.0/16", "10.100.0.0/16"] }));
def("conversions", "peering-cidr-blocks-numbers", peering({ peer_vpc_id: undefined, peer_tgw_id: "tgw-0123456789abcdef0", peer_cidr_blocks: [1, 2] }));
def("conversions", "peering-account-number", peering({ peer_account_id: 123456789012 }));
def("conversions", "peering-platform-vpc-id-string", peering({ platform_vpc_id: "77" }));
def("conversions", "peering-platform-vpc-id-word", peering({ platform_vpc_id: "seventy" }));
def("conversions", "obj-store-credentials-list", objStore((b) => void (b.credentials = [{ type: "Public" }])));
def("conversions", "obj-store-credentials-string", objStore((b) => void (b.credentials = "Public")));
def("conversions", "obj-store-credentials-extra-key", objStore((b) => void (b.credentials = { type: "Public", extra: "x" })));
def("conversions", "obj-store-credentials-comment-key", objStore((b) => void (b.credentials = { "//": "note", type: "Public" })));
def("conversions", "obj-store-table-null-name", objStore((b) => void (b.table_identifier = { table_name: null })));
def("conversions", "obj-store-column-names-string", objStore((b) => void (b.definition = { type: "CSV", csv: { column_names: "a,b" } })));
def("conversions", "obj-store-skip-header-string", objStore((b) => void (b.definition = { type: "CSV", csv: { column_names: ["a"], skip_header: "false" } })));
def("conversions", "obj-store-enabled-string", objStore((b) => void (b.enabled = "true")));
def("conversions", "src-db-tables-empty", srcDb((b) => void (b.tables = [])));
def("conversions", "src-db-tables-empty-object", srcDb((b) => void (b.tables = [{}])));
def("conversions", "src-db-ssh-port-string", srcDb((b) => void (b.ssh_tunnel = { name: "t", host: "h", port: "22", username: "u" })));
def("conversions", "src-db-ssh-port-fraction", srcDb((b) => void (b.ssh_tunnel = { name: "t", host: "h", port: 22.5, username: "u" })));
def("conversions", "src-db-ssh-list", srcDb((b) => void (b.ssh_tunnel = [{ name: "t", host: "h", port: 22, username: "u" }])));
def("conversions", "src-db-workers-string", srcDb((b) => void (b.table_sync_workers = "4")));
def("conversions", "src-db-workers-fraction", srcDb((b) => void (b.table_sync_workers = 4.5)));
def("conversions", "metric-saasmon-list", exporter({ saasmon: [{ api_key: "k", site: "datadoghq.com" }] }));
def("conversions", "metric-saasmon-empty-list", exporter({ saasmon: [] }));
def("conversions", "metric-pullmon-null-with-saasmon", exporter({ saasmon: { api_key: "k", site: "datadoghq.com" }, pullmon: null }));
def("conversions", "data-service-id-number", (m) => void addRes(m, "tsdb_service", "lookup", { id: 12345 }, "data"));
def("conversions", "data-service-id-empty", (m) => void addRes(m, "tsdb_service", "lookup", { id: "" }, "data"));
def("conversions", "provider-project-number", (m) => void (providerList(m)[0].project_id = 5));
def("conversions", "provider-project-list", (m) => void (providerList(m)[0].project_id = ["a"]));
def("conversions", "provider-endpoint-empty", (m) => void (providerList(m)[0].endpoint = ""));
def("conversions", "containerbackup-default-labels-list", (m) => void (rootOf(m, "provider").provider.containerbackup = { project: "p", default_labels: ["a"] }));

// meta-arguments, lifecycle
const extraVpc = (extra) => (m) => void addRes(m, "tsdb_vpcs", "extra", { cidr: "10.77.0.0/16", region_code: "us-east-1", ...extra });
def("meta-arguments", "count-zero", extraVpc({ count: 0 }));
def("meta-arguments", "count-bool", extraVpc({ count: true }));
def("meta-arguments", "count-one-point-zero", extraVpc({ count: raw("1.0") }));
def("meta-arguments", "count-huge", extraVpc({ count: raw("1e400") }));
def("meta-arguments", "count-list", extraVpc({ count: [1] }));
def("meta-arguments", "count-string-fraction", extraVpc({ count: "1.5" }));
def("meta-arguments", "count-from-length-literal", extraVpc({ count: '${length(["a", "b"])}', name: "x-${count.index}" }));
def("meta-arguments", "count-negative-local", (m) => {
  setLocal(m, "n", -2);
  extraVpc({ count: "${local.n}" })(m);
});
def("meta-arguments", "for-each-empty-object", extraVpc({ for_each: {} }));
def("meta-arguments", "for-each-empty-list", extraVpc({ for_each: [] }));
def("meta-arguments", "for-each-number", extraVpc({ for_each: 3 }));
def("meta-arguments", "for-each-template-list", extraVpc({ for_each: '${["a", "b"]}' }));
def("meta-arguments", "for-each-set-of-numbers", extraVpc({ for_each: "${toset([1, 2])}", name: "v-${each.key}" }));
def("meta-arguments", "for-each-map-of-objects", extraVpc({ for_each: { a: { c: "10.1.0.0/16" } }, cidr: "${each.value.c}" }));
def("meta-arguments", "for-each-with-count-index", extraVpc({ for_each: { a: 1 }, name: "${count.index}" }));
def("meta-arguments", "count-with-each-key", extraVpc({ count: 1, name: "${each.key}" }));
def("meta-arguments", "for-each-duplicate-set-literal", extraVpc({ for_each: '${toset(["a", "a"])}', name: "${each.value}" }));
def("meta-arguments", "provider-object", (m) => void (db(m).provider = { name: "tsdb" }));
def("meta-arguments", "provider-trailing-dot", (m) => void (db(m).provider = "tsdb."));
def("meta-arguments", "provider-upper-name", (m) => void (db(m).provider = "TSDB"));
def("meta-arguments", "provider-default-explicit", (m) => void (db(m).provider = "tsdb"));
def("meta-arguments", "provider-list", (m) => void (db(m).provider = ["tsdb"]));
def("meta-arguments", "provider-containerbackup-for-tsdb", (m) => void (db(m).provider = "containerbackup"));
def("meta-arguments", "depends-on-not-reference", (m) => void (db(m).depends_on = ["hello world"]));
def("meta-arguments", "depends-on-string", (m) => void (db(m).depends_on = "tsdb_vpcs.main"));
def("meta-arguments", "depends-on-indexed", (m) => void (db(m).depends_on = ["tsdb_vpcs.main[0]"]));
def("meta-arguments", "depends-on-object", (m) => void (db(m).depends_on = {}));
def("meta-arguments", "depends-on-empty", (m) => void (db(m).depends_on = []));
def("meta-arguments", "depends-on-check", (m) => void (db(m).depends_on = ["check.health"]));
def("meta-arguments", "depends-on-output", (m) => void (db(m).depends_on = ["output.db_hostname"]));
def("meta-arguments", "create-before-destroy-number", (m) => void (lifecycle(vpc(m)).create_before_destroy = 1));
def("meta-arguments", "prevent-destroy-string-false", (m) => void (lifecycle(vpc(m)).prevent_destroy = "false"));
def("meta-arguments", "ignore-changes-upper-all", (m) => void (lifecycle(vpc(m)).ignore_changes = "ALL"));
def("meta-arguments", "ignore-changes-string-attribute", (m) => void (lifecycle(vpc(m)).ignore_changes = "name"));
def("meta-arguments", "ignore-changes-empty", (m) => void (lifecycle(vpc(m)).ignore_changes = []));
def("meta-arguments", "ignore-changes-block", (m) => void (lifecycle(vpc(m)).ignore_changes = ["timeouts"]));
def("meta-arguments", "ignore-changes-block-attribute", (m) => void (lifecycle(vpc(m)).ignore_changes = ["timeouts.create"]));
def("meta-arguments", "ignore-changes-nested-attribute", objStore((b) => void (lifecycle(b).ignore_changes = ["credentials.type"])));
def("meta-arguments", "ignore-changes-quoted-all-and-name", (m) => void (lifecycle(vpc(m)).ignore_changes = ["all", "name"]));
def("meta-arguments", "ignore-changes-meta-argument", (m) => void (lifecycle(vpc(m)).ignore_changes = ["count"]));
def("meta-arguments", "precondition-without-error-message", (m) => void (lifecycle(vpc(m)).precondition = [{ condition: "${var.cpu > 0}" }]));
def("meta-arguments", "precondition-without-condition", (m) => void (lifecycle(vpc(m)).precondition = [{ error_message: "x" }]));
def("meta-arguments", "precondition-object", (m) => void (lifecycle(vpc(m)).precondition = { condition: "${var.cpu > 0}", error_message: "x" }));
def("meta-arguments", "precondition-literal-false", (m) => void (lifecycle(vpc(m)).precondition = [{ condition: false, error_message: "x" }]));
def("meta-arguments", "precondition-message-empty", (m) => void (lifecycle(vpc(m)).precondition = [{ condition: "${var.cpu > 0}", error_message: "" }]));
def("meta-arguments", "postcondition-self-unknown-attribute", (m) => void (lifecycle(vpc(m)).postcondition = [{ condition: "${self.nope != \"\"}", error_message: "x" }]));
def("meta-arguments", "postcondition-self-valid", (m) => void (lifecycle(vpc(m)).postcondition = [{ condition: "${self.cidr != \"\"}", error_message: "x" }]));
def("meta-arguments", "replace-triggered-by-data", (m) => void (lifecycle(db(m)).replace_triggered_by = ["data.tsdb_vpcs.all"]));
def("meta-arguments", "replace-triggered-by-local", (m) => void (lifecycle(db(m)).replace_triggered_by = ["local.cpu"]));
def("meta-arguments", "replace-triggered-by-not-reference", (m) => void (lifecycle(db(m)).replace_triggered_by = ["hello"]));
def("meta-arguments", "replace-triggered-by-string", (m) => void (lifecycle(db(m)).replace_triggered_by = "tsdb_vpcs.main"));
def("meta-arguments", "replace-triggered-by-unknown-attribute", (m) => void (lifecycle(db(m)).replace_triggered_by = ["tsdb_vpcs.main.nope"]));
def("meta-arguments", "lifecycle-empty", (m) => void (vpc(m).lifecycle = {}));
def("meta-arguments", "lifecycle-list-empty", (m) => void (vpc(m).lifecycle = []));
def("meta-arguments", "lifecycle-comment-key", (m) => void (vpc(m).lifecycle = { "//": "keep it", prevent_destroy: false }));
def("meta-arguments", "lifecycle-upper-key", (m) => void (vpc(m).lifecycle = { Prevent_destroy: false }));
def("meta-arguments", "count-upper-key", (m) => void (vpc(m).COUNT = 1));
def("meta-arguments", "data-count-two", (m) => void addRes(m, "tsdb_vpcs", "twice", { count: 2 }, "data"));
def("meta-arguments", "data-for-each-map", (m) => void addRes(m, "tsdb_service", "each", { for_each: { a: "svc-1" }, id: "${each.value}" }, "data"));
def("meta-arguments", "data-for-each-list", (m) => void addRes(m, "tsdb_service", "each", { for_each: ["svc-1"], id: "${each.value}" }, "data"));
def("meta-arguments", "data-depends-on-resource", (m) => void addRes(m, "tsdb_vpcs", "after", { depends_on: ["tsdb_service.db"] }, "data"));
def("meta-arguments", "data-provisioner", (m) => void addRes(m, "tsdb_vpcs", "after", { provisioner: { "local-exec": { command: "echo" } } }, "data"));
def("meta-arguments", "data-lifecycle-precondition", (m) => void addRes(m, "tsdb_vpcs", "after", { lifecycle: { precondition: [{ condition: "${var.cpu > 0}", error_message: "x" }] } }, "data"));
def("meta-arguments", "data-lifecycle-create-before-destroy", (m) => void addRes(m, "tsdb_vpcs", "after", { lifecycle: { create_before_destroy: true } }, "data"));
def("meta-arguments", "self-in-connection-host", (m) => void Object.assign(vpc(m), { provisioner: { "local-exec": { command: "echo", connection: { type: "ssh", host: "${self.cidr}" } } } }));
def("meta-arguments", "provisioner-empty-object", (m) => void (vpc(m).provisioner = {}));
def("meta-arguments", "provisioner-local-exec-without-command", (m) => void (vpc(m).provisioner = { "local-exec": {} }));
def("meta-arguments", "provisioner-local-exec-unknown-argument", (m) => void (vpc(m).provisioner = { "local-exec": { command: "echo", nope: 1 } }));
def("meta-arguments", "provisioner-file-without-destination", (m) => void (vpc(m).provisioner = { file: { source: "a.txt" } }));
def("meta-arguments", "provisioner-when-destroy", (m) => void (vpc(m).provisioner = { "local-exec": { command: "echo bye", when: "destroy" } }));

// functions that fail (or not) on values known at validate time
const fn = (name, expr) => def("functions", name, localRef("f", expr));
fn("format-number-verb-on-string", '${format("%d", "abc")}');
fn("format-valid", '${format("%s-%03d", "a", 7)}');
fn("format-too-few-values", '${format("%s %s", "a")}');
fn("jsondecode-invalid", '${jsondecode("{")}');
fn("jsondecode-valid", '${jsondecode("{\\"a\\": 1}").a}');
fn("element-empty-list", "${element([], 0)}");
fn("lookup-missing-key", '${lookup({ a = 1 }, "b")}');
fn("lookup-with-default", '${lookup({ a = 1 }, "b", 2)}');
fn("tonumber-word", '${tonumber("abc")}');
fn("tonumber-valid", '${tonumber("42")}');
fn("tobool-word", '${tobool("maybe")}');
fn("cidrsubnet-too-many-bits", '${cidrsubnet("10.0.0.0/16", 30, 1)}');
fn("cidrsubnet-bad-prefix", '${cidrsubnet("10.0.0.0", 8, 1)}');
fn("cidrhost-valid", '${cidrhost("10.0.0.0/16", 5)}');
fn("regex-no-match", '${regex("x+", "abc")}');
fn("regex-invalid-pattern", '${regex("(", "abc")}');
fn("map-missing-key-index", '${{ a = 1 }["b"]}');
fn("map-missing-key-attribute", "${{ a = 1 }.b}");
fn("upper-of-number", "${upper(123)}");
fn("length-of-number", "${length(5)}");
fn("merge-of-number", "${merge(1)}");
fn("sum-empty", "${sum([])}");
fn("max-no-arguments", "${max()}");
fn("tostring-of-list", "${tostring([])}");
fn("coalesce-all-null", "${coalesce(null, null)}");
fn("coalesce-empty-strings", '${coalesce("", "")}');
fn("timeadd-invalid", '${timeadd("yesterday", "1h")}');
fn("base64decode-invalid", '${base64decode("!!!")}');
fn("file-missing", '${file("${path.module}/absent.txt")}');
fn("templatefile-missing", '${templatefile("${path.module}/absent.tftpl", {})}');
fn("fileexists-missing", '${fileexists("${path.module}/absent.txt")}');
fn("strcontains-valid", '${strcontains("abc", "b")}');
fn("substr-out-of-range", '${substr("abc", 5, 1)}');
fn("split-valid", '${split(",", "a,b")[1]}');
fn("index-function-missing", '${index(["a"], "b")}');
fn("range-too-many", "${range(1, 2, 3, 4)}");
fn("range-negative-step", "${range(5, 0, 1)}");
fn("one-of-two", "${one([1, 2])}");
fn("zipmap-length-mismatch", '${zipmap(["a", "b"], [1])}');
fn("keys-of-list", "${keys([1])}");
fn("tomap-mixed", '${tomap({ a = 1, b = [1] })}');
fn("setproduct-valid", '${setproduct(["a"], [1])}');
fn("pow-string", '${pow("x", 2)}');
fn("parseint-bad-base", '${parseint("10", 99)}');
fn("formatdate-bad-timestamp", '${formatdate("YYYY", "nope")}');
fn("can-of-error", '${can(tonumber("abc"))}');
fn("try-of-missing-key", '${try({ a = 1 }.b, "fallback")}');
fn("sensitive-and-nonsensitive-literal", '${nonsensitive("plain")}');
fn("uuid-call", "${uuid()}");
fn("timestamp-call", "${timestamp()}");
fn("ephemeralasnull-literal", '${ephemeralasnull("x")}');
fn("issensitive-literal", '${issensitive("x")}');

// templates and strings
const tpl = (name, expr) => def("templates", name, localRef("t", expr));
tpl("if-directive-else", '%{ if true }yes%{ else }no%{ endif }');
tpl("for-directive-with-index", '%{ for i, x in ["a", "b"] }${i}=${x} %{ endfor }');
tpl("directive-escape", "%%{ if true }literal");
tpl("interpolation-escape", "$${not.a.reference}");
tpl("escape-then-interpolation", "$${x}${local.cpu}");
tpl("newline-escapes", "line one\nline two\n${local.cpu}");
tpl("lone-dollar", "cost: $5 and 100%");
tpl("dollar-before-escape", "$$${local.cpu}");
tpl("if-directive-non-bool", '%{ if "maybe" }x%{ endif }');
tpl("for-directive-over-string", '%{ for x in "abc" }${x}%{ endfor }');
tpl("interpolation-of-list", '${["a", "b"]} and text');
tpl("interpolation-of-map", '${{ a = 1 }} and text');
tpl("interpolation-of-null-in-text", "x-${null}");
tpl("whole-null-interpolation", "${null}");
tpl("strip-both-sides", 'a ${~ "b" ~} c');
tpl("heredoc-inside-interpolation", '${<<EOT\nhello\nEOT\n}');
tpl("comment-inside-interpolation", "${1 /* one */ + 2}");
tpl("unclosed-directive-brace", "%{ if true }x");
tpl("unclosed-interpolation-then-text", "${local.cpu text");
tpl("nested-quotes", '${"${"inner"}"}');
tpl("conditional-mixed-types", '${true ? 1 : "a"}');
tpl("conditional-list-object", "${true ? [] : {}}");
tpl("splat-on-object", "${{ a = 1 }[*]}");
tpl("for-expression-duplicate-keys", '${{ for x in ["a", "a"] : x => x }}');
tpl("for-expression-grouped-duplicates", '${{ for x in ["a", "a"] : x => x... }}');
tpl("numeric-index-attribute", '${["a", "b"].0}');
tpl("not-of-number", "${!1}");
tpl("negate-string", '${-"a"}');
tpl("string-compare-lt", '${"a" < "b"}');
tpl("equality-different-types", '${1 == "1"}');
tpl("and-with-number", "${true && 1}");
tpl("modulo-by-zero", "${5 % 0}");
tpl("unicode-emoji-in-template", '${upper("caf\u00e9 \u{1F680}")}');
def("templates", "interpolation-in-comment-key", (m) => void (vpc(m)["//"] = "${nope(}"));
def("templates", "directive-in-resource-argument", (m) => void (db(m).name = '%{ if var.cpu > 0 }big%{ else }small%{ endif }'));
def("templates", "for-directive-in-resource-argument", (m) => void (db(m).name = '%{ for x in ["a", "b"] }${x}%{ endfor }'));
def("templates", "cpu-through-if-directive-text", (m) => void (db(m).milli_cpu = "%{ if true }3%{ endif }"));

// locals
def("locals", "chain-of-three", (m) => {
  setLocal(m, "a1", 500);
  setLocal(m, "a2", "${local.a1 * 2}");
  setLocal(m, "a3", "${local.a2}");
  Object.assign(db(m), { milli_cpu: "${local.a3}", memory_gb: 4 });
});
def("locals", "chain-of-three-invalid", (m) => {
  setLocal(m, "a1", 5);
  setLocal(m, "a2", "${local.a1 * 2}");
  setLocal(m, "a3", "${local.a2}");
  db(m).milli_cpu = "${local.a3}";
});
def("locals", "reference-undeclared-in-chain", (m) => {
  setLocal(m, "a1", "${local.a0}");
  setLocal(m, "a2", "${local.a1}");
});
def("locals", "number-keys-object", localRef("nk", { 1: "a", 2: "b" }));
def("locals", "key-with-dot", localRef("nk", { "a.b": 1 }));
def("locals", "key-with-dollar-brace", localRef("nk", { "${local.cpu}": 1 }));
def("locals", "value-array-of-mixed", localRef("mixed", [1, "a", true, null, { a: 1 }]));
def("locals", "value-raw-huge", localRef("big", raw("1e400")));
def("locals", "value-raw-negative-zero", localRef("z", raw("-0")));
def("locals", "empty-name", localRef("", 1));
def("locals", "name-count", localRef("count", 1));
def("locals", "name-unicode-letters", localRef("caf\u00e9", 1));
def("locals", "name-emoji", localRef("\u{1F680}", 1));
def("locals", "local-used-as-provider-argument", (m) => {
  setLocal(m, "project", "proj-x");
  providerList(m)[0].project_id = "${local.project}";
});
def("locals", "local-list-index-out-of-range", (m) => {
  setLocal(m, "sizes", [500, 1000]);
  db(m).milli_cpu = "${local.sizes[5]}";
});
def("locals", "local-object-missing-attribute", (m) => {
  setLocal(m, "svc", { cpu: 1000 });
  db(m).milli_cpu = "${local.svc.nope}";
});
def("locals", "local-string-as-number-arg", (m) => {
  setLocal(m, "svc_cpu", "lots");
  db(m).milli_cpu = "${local.svc_cpu}";
});
def("locals", "local-bool-for-string-arg", (m) => {
  setLocal(m, "flag", true);
  vpc(m).name = "${local.flag}";
});
def("locals", "local-list-for-string-arg", (m) => {
  setLocal(m, "names", ["a"]);
  vpc(m).name = "${local.names}";
});
def("locals", "local-map-for-labels", (m) => {
  setLocal(m, "lbl", { team: "x" });
  channel({ labels: "${local.lbl}" })(m);
});
def("locals", "local-list-for-labels", (m) => {
  setLocal(m, "lbl", ["team"]);
  channel({ labels: "${local.lbl}" })(m);
});
def("locals", "local-null-for-required", (m) => {
  setLocal(m, "nothing", null);
  vpc(m).cidr = "${local.nothing}";
});
def("locals", "local-object-for-nested-attribute", (m) => {
  setLocal(m, "creds", { type: "Public" });
  objStore((b) => void (b.credentials = "${local.creds}"))(m);
});
def("locals", "local-object-bad-nested-attribute", (m) => {
  setLocal(m, "creds", { kind: "Public" });
  objStore((b) => void (b.credentials = "${local.creds}"))(m);
});

// variables and outputs
const vo = (name, body) => def("variables-outputs", name, variable("adv", body));
vo("object-optional-default-mismatch", { type: "object({ size = number, tier = optional(string, \"basic\") })", default: { size: "big" } });
vo("object-optional-default-valid", { type: "object({ size = number, tier = optional(string, \"basic\") })", default: { size: 1 } });
vo("list-number-default-strings", { type: "list(number)", default: ["a"] });
vo("list-number-default-numeric-strings", { type: "list(number)", default: ["1", "2"] });
vo("map-number-default-word", { type: "map(number)", default: { a: "x" } });
vo("tuple-default-too-short", { type: "tuple([string, number])", default: ["a"] });
vo("set-default-duplicates", { type: "set(string)", default: ["a", "a"] });
vo("string-default-bool", { type: "string", default: true });
vo("string-default-object", { type: "string", default: { a: 1 } });
vo("bool-default-yes", { type: "bool", default: "yes" });
vo("bool-default-string-false", { type: "bool", default: "false" });
vo("number-default-exponent-string", { type: "number", default: "1e3" });
vo("number-default-huge", { type: "number", default: raw("1e400") });
vo("any-default-object", { type: "any", default: { a: [1, "b"] } });
vo("list-any-mixed-default", { type: "list(any)", default: [1, "a"] });
vo("list-any-objects-differing", { type: "list(any)", default: [{ a: 1 }, { b: 2 }] });
vo("map-of-optional-objects", { type: "map(object({ a = optional(string) }))", default: { k: {} } });
vo("default-template-literal", { type: "string", default: "${1}" });
vo("default-template-function", { type: "string", default: '${upper("a")}' });
vo("default-local-reference", { type: "string", default: "${local.prefix}" });
vo("sensitive-ephemeral-nullable", { type: "string", sensitive: true, ephemeral: true, nullable: true });
vo("ephemeral-string-true", { type: "string", ephemeral: "true" });
vo("nullable-false-no-default", { type: "string", nullable: false });
vo("validation-without-condition", { type: "string", default: "a", validation: [{ error_message: "x" }] });
vo("validation-other-variable-only", { type: "string", default: "a", validation: [{ condition: "${var.cpu > 0}", error_message: "x" }] });
vo("validation-message-number", { type: "string", default: "a", validation: [{ condition: '${var.adv != ""}', error_message: 5 }] });
vo("validation-condition-string", { type: "string", default: "a", validation: [{ condition: "true", error_message: "x" }] });
vo("validation-fails-on-default-length", { type: "string", default: "", validation: [{ condition: "${length(var.adv) > 0}", error_message: "empty" }] });
vo("validation-object", { type: "string", default: "a", validation: { condition: '${var.adv != ""}', error_message: "x" } });
vo("type-object-empty", { type: "object({})", default: {} });
vo("type-list-no-element", { type: "list()" });
vo("type-map-two-args", { type: "map(string, number)" });
vo("type-optional-top", { type: "optional(string)" });
vo("type-object-trailing-comma", { type: "object({ a = string, })" });
vo("type-object-colon", { type: "object({ a: string })" });
vo("type-string-quoted-object", { type: "\"object\"" });
vo("type-upper", { type: "String" });
vo("type-number-list", { type: ["string"] });
vo("comment-key", { "//": "about", type: "string", default: "x" });
vo("description-list", { type: "string", description: ["a"] });
def("variables-outputs", "output-depends-on-resource", (m) => void m.put("output", "adv", { value: "${var.cpu}", depends_on: ["tsdb_vpcs.main"] }));
def("variables-outputs", "output-precondition-self", (m) => void m.put("output", "adv", { value: "${var.cpu}", precondition: [{ condition: "${self.value > 0}", error_message: "x" }] }));
def("variables-outputs", "output-precondition-without-message", (m) => void m.put("output", "adv", { value: "${var.cpu}", precondition: [{ condition: "${var.cpu > 0}" }] }));
def("variables-outputs", "output-postcondition", (m) => void m.put("output", "adv", { value: "${var.cpu}", postcondition: [{ condition: "${var.cpu > 0}", error_message: "x" }] }));
def("variables-outputs", "output-value-list-of-refs", (m) => void m.put("output", "adv", { value: ["${tsdb_vpcs.main.id}", "${var.cpu}"] }));
def("variables-outputs", "output-value-missing-attribute", (m) => void m.put("output", "adv", { value: "${tsdb_vpcs.main.nope}" }));
def("variables-outputs", "output-sensitive-string", (m) => void m.put("output", "adv", { value: 1, sensitive: "yes" }));
def("variables-outputs", "output-ephemeral-false", (m) => void m.put("output", "adv", { value: 1, ephemeral: false }));
def("variables-outputs", "output-comment-key", (m) => void m.put("output", "adv", { "//": "about", value: 1 }));
def("variables-outputs", "output-count", (m) => void m.put("output", "adv", { value: 1, count: 1 }));
def("variables-outputs", "output-empty-body", (m) => void m.put("output", "adv", {}));
def("variables-outputs", "output-null-body", (m) => void m.put("output", "adv", null));

// addresses
def("addresses", "moved-resource-to-data", (m) => void replaceList(m, "moved", { from: "tsdb_vpcs.legacy", to: "data.tsdb_vpcs.all" }));
def("addresses", "moved-data-to-resource", (m) => void replaceList(m, "moved", { from: "data.tsdb_vpcs.old", to: "tsdb_vpcs.main" }));
def("addresses", "moved-to-resource-attribute", (m) => void replaceList(m, "moved", { from: "tsdb_vpcs.legacy", to: "tsdb_vpcs.main.cidr" }));
def("addresses", "moved-with-spaces", (m) => void replaceList(m, "moved", { from: "tsdb_vpcs.legacy ", to: "tsdb_vpcs.main" }));
def("addresses", "moved-unknown-argument", (m) => void replaceList(m, "moved", { from: "tsdb_vpcs.legacy", to: "tsdb_vpcs.main", by: "me" }));
def("addresses", "import-id-empty", importTo("tsdb_vpcs.main", { id: "" }));
def("addresses", "import-id-number", importTo("tsdb_vpcs.main", { id: 4242 }));
def("addresses", "import-id-from-local", (m) => {
  setLocal(m, "vpc_id", "4242");
  replaceList(m, "import", { to: "tsdb_vpcs.main", id: "${local.vpc_id}" });
});
def("addresses", "import-id-from-resource", importTo("tsdb_vpcs.main", { id: "${tsdb_service.db.id}" }));
def("addresses", "import-to-quoted", importTo('"tsdb_vpcs.main"'));
def("addresses", "import-to-unknown-type", importTo("tsdb_nope.main"));
def("addresses", "import-to-module-call", importTo("module.net"));
def("addresses", "import-two-same-target", (m) => void replaceList(m, "import", { to: "tsdb_vpcs.main", id: "1" }, { to: "tsdb_vpcs.main", id: "2" }));
def("addresses", "removed-destroy-string-false", (m) => void replaceList(m, "removed", { from: "tsdb_vpcs.retired", lifecycle: { destroy: "false" } }));
def("addresses", "removed-destroy-true-explicit", (m) => void replaceList(m, "removed", { from: "tsdb_vpcs.retired", lifecycle: { destroy: true } }));
def("addresses", "removed-lifecycle-unknown", (m) => void replaceList(m, "removed", { from: "tsdb_vpcs.retired", lifecycle: { prevent_destroy: true } }));
def("addresses", "removed-lifecycle-empty", (m) => void replaceList(m, "removed", { from: "tsdb_vpcs.retired", lifecycle: {} }));
def("addresses", "removed-without-from", (m) => void replaceList(m, "removed", { lifecycle: { destroy: false } }));
def("addresses", "removed-from-type-only", (m) => void replaceList(m, "removed", { from: "tsdb_vpcs", lifecycle: { destroy: false } }));
def("addresses", "removed-unknown-argument", (m) => void replaceList(m, "removed", { from: "tsdb_vpcs.retired", to: "tsdb_vpcs.main" }));
def("addresses", "removed-with-connection", (m) => void replaceList(m, "removed", { from: "tsdb_vpcs.retired", lifecycle: { destroy: true }, connection: { host: "h" }, provisioner: { "local-exec": { command: "echo", when: "destroy" } } }));

// checks
def("checks", "scoped-data-referenced-in-assert", (m) => void m.put("check", "adv", { data: { tsdb_products: { p: {} } }, assert: [{ condition: "${length(data.tsdb_products.p.products) >= 0}", error_message: "x" }] }));
def("checks", "assert-without-condition", (m) => void m.put("check", "adv", { assert: [{ error_message: "x" }] }));
def("checks", "assert-without-message", (m) => void m.put("check", "adv", { assert: [{ condition: "${var.cpu > 0}" }] }));
def("checks", "assert-object", (m) => void m.put("check", "adv", { assert: { condition: "${var.cpu > 0}", error_message: "x" } }));
def("checks", "assert-literal-true", (m) => void m.put("check", "adv", { assert: [{ condition: true, error_message: "x" }] }));
def("checks", "scoped-data-with-count", (m) => void m.put("check", "adv", { data: { tsdb_products: { p: { count: 1 } } }, assert: [{ condition: "${var.cpu > 0}", error_message: "x" }] }));
def("checks", "scoped-data-with-depends-on", (m) => void m.put("check", "adv", { data: { tsdb_products: { p: { depends_on: ["tsdb_vpcs.main"] } } }, assert: [{ condition: "${var.cpu > 0}", error_message: "x" }] }));
def("checks", "scoped-data-missing-argument", (m) => void m.put("check", "adv", { data: { tsdb_service: { s: {} } }, assert: [{ condition: "${var.cpu > 0}", error_message: "x" }] }));
def("checks", "check-unknown-argument", (m) => void m.put("check", "adv", { nope: 1, assert: [{ condition: "${var.cpu > 0}", error_message: "x" }] }));
def("checks", "check-self", (m) => void m.put("check", "adv", { assert: [{ condition: "${self.id != \"\"}", error_message: "x" }] }));
def("checks", "check-comment-key", (m) => void m.put("check", "adv", { "//": "about", assert: [{ condition: "${var.cpu > 0}", error_message: "x" }] }));

// terraform block, comments ("//") in every body
def("terraform-json", "backend-local-nested-object", (m) => void (rootOf(m, "terraform").terraform.backend = { local: { path: "x.tfstate", extra: { a: 1 } } }));
def("terraform-json", "backend-two-types", (m) => void (rootOf(m, "terraform").terraform.backend = { local: {}, s3: {} }));
def("terraform-json", "backend-empty", (m) => void (rootOf(m, "terraform").terraform.backend = {}));
def("terraform-json", "terraform-comment-key", (m) => void (rootOf(m, "terraform").terraform["//"] = "about"));
def("terraform-json", "required-providers-comment-key", (m) => void (rootOf(m, "terraform").terraform.required_providers["//"] = "about"));
def("terraform-json", "required-providers-entry-comment-key", (m) => void (rootOf(m, "terraform").terraform.required_providers.tsdb["//"] = "about"));
def("terraform-json", "required-providers-source-upper", (m) => void (rootOf(m, "terraform").terraform.required_providers.tsdb.source = "SchemaForm/TSDB"));
def("terraform-json", "required-providers-full-source", (m) => void (rootOf(m, "terraform").terraform.required_providers.tsdb.source = "registry.terraform.io/schemaform/tsdb"));
def("terraform-json", "required-providers-extra-key", (m) => void (rootOf(m, "terraform").terraform.required_providers.tsdb.nope = "x"));
def("terraform-json", "provider-comment-key", (m) => void (providerList(m)[0]["//"] = "about"));
def("terraform-json", "module-call-comment-key", (m, r) => void (ensureNet(m, r)["//"] = "about"));
def("terraform-json", "dynamic-content-comment-key", (m) => void (db(m).dynamic = { timeouts: { for_each: '${["45m"]}', content: { "//": "about", create: "${timeouts.value}" } } }));
def("terraform-json", "timeouts-comment-key", (m) => void (vpc(m).timeouts = { "//": "about", create: "10m" }));
def("terraform-json", "comment-key-number-value", (m) => void (vpc(m)["//"] = 5));
def("terraform-json", "comment-key-object-in-locals", (m) => void (rootOf(m, "locals").locals["//"] = { a: 1 }));
def("terraform-json", "provisioner-comment-key", (m) => void (vpc(m).provisioner = { "local-exec": { "//": "about", command: "echo" } }));
def("terraform-json", "import-comment-key", (m) => void replaceList(m, "import", { "//": "about", to: "tsdb_vpcs.main", id: "1" }));
def("terraform-json", "moved-comment-key", (m) => void replaceList(m, "moved", { "//": "about", from: "tsdb_vpcs.legacy", to: "tsdb_vpcs.main" }));
def("terraform-json", "duplicate-argument-in-provider", (m) => void Object.assign(providerList(m)[0], { ["project_id" + DUP + "2"]: "other" }));
def("terraform-json", "duplicate-argument-in-lifecycle", (m) => void (vpc(m).lifecycle = { prevent_destroy: false, ["prevent_destroy" + DUP + "2"]: true }));
def("terraform-json", "duplicate-argument-in-variable", (m) => void m.put("variable", "adv", { type: "string", ["type" + DUP + "2"]: "number" }));
def("terraform-json", "duplicate-argument-in-output", (m) => void m.put("output", "adv", { value: 1, ["value" + DUP + "2"]: 2 }));
def("terraform-json", "duplicate-argument-in-module-call", (m, r) => void Object.assign(ensureNet(m, r), { ["cidr" + DUP + "2"]: "10.3.0.0/16" }));
def("terraform-json", "duplicate-nested-attribute-key", objStore((b) => void (b.credentials = { type: "Public", ["type" + DUP + "2"]: "Public" })));
def("terraform-json", "duplicate-key-in-map-argument", channel({ labels: { a: "1", ["a" + DUP + "2"]: "2" } }));
def("terraform-json", "keys-differ-in-case", (m) => void Object.assign(vpc(m), { Cidr: "10.5.0.0/16" }));
def("terraform-json", "meta-argument-differ-in-case", (m) => void Object.assign(vpc(m), { Depends_on: ["tsdb_service.db"] }));
def("terraform-json", "label-emoji-resource-name", (m) => void addRes(m, "tsdb_vpcs", "vpc_\u{1F680}", { cidr: "10.9.0.0/16", region_code: "us-east-1" }));
def("terraform-json", "label-unicode-letters-resource-name", (m) => void addRes(m, "tsdb_vpcs", "r\u00e9seau", { cidr: "10.9.0.0/16", region_code: "us-east-1" }));
def("terraform-json", "label-greek-variable-name", variable("\u03b1\u03b2", { type: "string", default: "x" }));

// second round: repetition values, for expressions, dynamic blocks, module calls, outputs
def("meta-arguments", "count-template-fraction", extraVpc({ count: "${2.5}" }));
def("meta-arguments", "count-template-negative", extraVpc({ count: "${-1}" }));
def("meta-arguments", "count-template-string-number", extraVpc({ count: '${"2"}' }));
def("meta-arguments", "count-template-null", extraVpc({ count: "${null}" }));
def("meta-arguments", "count-template-bool", extraVpc({ count: "${true}" }));
def("meta-arguments", "count-exponent", extraVpc({ count: raw("1e0") }));
def("meta-arguments", "count-local-list", (m) => {
  setLocal(m, "n", [1, 2]);
  extraVpc({ count: "${local.n}" })(m);
});
def("meta-arguments", "for-each-local-list", (m) => {
  setLocal(m, "names", ["a", "b"]);
  extraVpc({ for_each: "${local.names}" })(m);
});
def("meta-arguments", "for-each-local-map", (m) => {
  setLocal(m, "nets", { a: "10.1.0.0/16" });
  extraVpc({ for_each: "${local.nets}", cidr: "${each.value}" })(m);
});
def("meta-arguments", "for-each-local-string", (m) => {
  setLocal(m, "one", "a");
  extraVpc({ for_each: "${local.one}" })(m);
});
def("meta-arguments", "for-each-toset-of-local-list", (m) => {
  setLocal(m, "names", ["a", "b"]);
  extraVpc({ for_each: "${toset(local.names)}", name: "${each.key}" })(m);
});
def("meta-arguments", "for-each-toset-mixed", extraVpc({ for_each: '${toset(["a", 1])}', name: "${each.key}" }));
def("meta-arguments", "for-each-toset-bools", extraVpc({ for_each: "${toset([true])}" }));
def("meta-arguments", "for-each-for-expression-map", extraVpc({ for_each: '${{ for n in ["a", "b"] : n => n }}', name: "${each.value}" }));
def("meta-arguments", "for-each-each-value-attribute-missing", extraVpc({ for_each: { a: "x" }, name: "${each.value.nope}" }));
def("meta-arguments", "dynamic-for-each-list-literal", (m) => void (db(m).dynamic = { timeouts: { for_each: ["45m"], content: { create: "${timeouts.value}" } } }));
def("meta-arguments", "dynamic-for-each-string", (m) => void (db(m).dynamic = { timeouts: { for_each: "45m", content: { create: "45m" } } }));
def("meta-arguments", "dynamic-for-each-local-map", (m) => {
  setLocal(m, "t", { create: "45m" });
  db(m).dynamic = { timeouts: { for_each: "${[local.t]}", content: { create: "${timeouts.value.create}" } } };
});
def("meta-arguments", "dynamic-content-each-key", (m) => void (db(m).dynamic = { timeouts: { for_each: '${["45m"]}', content: { create: "${each.key}" } } }));
def("meta-arguments", "dynamic-content-unknown-argument", (m) => void (db(m).dynamic = { timeouts: { for_each: '${["45m"]}', content: { create: "45m", nope: "x" } } }));
def("meta-arguments", "dynamic-content-bad-duration", (m) => void (db(m).dynamic = { timeouts: { for_each: '${["45m"]}', content: { create: "soon" } } }));
def("meta-arguments", "dynamic-iterator-key-used", (m) => void (db(m).dynamic = { timeouts: { for_each: '${{ a = "45m" }}', content: { create: "${timeouts.value}", delete: "${timeouts.key}" } } }));
def("meta-arguments", "dynamic-unknown-meta-key", (m) => void (db(m).dynamic = { timeouts: { for_each: '${["45m"]}', content: { create: "45m" }, nope: 1 } }));
def("templates", "for-expression-over-number", localRef("t", "${[for x in 5 : x]}"));
def("templates", "for-expression-string-condition", localRef("t", '${[for x in ["a"] : x if "yes"]}'));
def("templates", "for-expression-valid-filter", localRef("t", '${[for x in [1, 2, 3] : x if x > 1]}'));
def("templates", "for-expression-object-from-map", localRef("t", "${{ for k, v in local.tags : v => k }}"));
def("templates", "splat-on-resource", (m) => void m.put("output", "adv", { value: "${tsdb_vpcs.main[*].id}" }));
def("templates", "splat-full-on-local", localRef("t", "${local.tags[*]}"));
def("templates", "attribute-of-number-variable", localRef("t", "${var.cpu.x}"));
def("templates", "index-of-number-variable", localRef("t", "${var.cpu[0]}"));
def("templates", "true-plus-one", localRef("t", "${1 + true}"));
def("templates", "string-equals-number", localRef("t", '${"a" == 1}'));
def("templates", "upper-no-arguments", localRef("t", "${upper()}"));
def("templates", "nested-function-error", localRef("t", '${upper(element([], 0))}'));
def("templates", "error-inside-try", localRef("t", '${try(element([], 0), "x")}'));
def("templates", "error-in-unused-branch", localRef("t", '${true ? "a" : element([], 0)}'));
def("templates", "error-in-output", (m) => void m.put("output", "adv", { value: '${lookup({ a = 1 }, "b")}' }));
def("templates", "error-in-resource-argument", (m) => void (vpc(m).name = '${format("%d", "x")}'));
def("templates", "error-in-count", extraVpc({ count: "${length(5)}" }));
def("templates", "error-in-variable-validation", variable("adv", { type: "string", default: "a", validation: [{ condition: '${var.adv != "" && length(5) > 0}', error_message: "x" }] }));
def("templates", "error-in-precondition", (m) => void (lifecycle(vpc(m)).precondition = [{ condition: "${var.cpu > 0 && sum([]) > 0}", error_message: "x" }]));
def("templates", "error-in-provider-config", (m) => void (providerList(m)[0].project_id = '${element([], 0)}'));
def("templates", "error-in-module-argument", (m, r) => void (ensureNet(m, r).cidr = '${element([], 0)}'));
def("templates", "error-in-check-assert", (m) => void m.put("check", "adv", { assert: [{ condition: "${var.cpu > 0 && one([1, 2]) > 0}", error_message: "x" }] }));
def("templates", "cidrsubnet-valid-into-cidr", (m) => void (vpc(m).cidr = '${cidrsubnet("10.0.0.0/8", 8, 3)}'));
def("templates", "cidrsubnet-valid-into-bad-cidr", (m) => void (vpc(m).cidr = '${cidrsubnet("10.0.0.0/8", 8, 300)}'));
def("templates", "jsondecode-number-into-cpu", (m) => void (db(m).milli_cpu = '${jsondecode("3")}'));
def("module-calls", "count-zero", (m, r) => void (ensureNet(m, r).count = 0));
def("module-calls", "for-each-toset", (m, r) => {
  Object.assign(ensureNet(m, r), { for_each: '${toset(["10.1.0.0/16"])}', cidr: "${each.value}" });
  for (const root of Object.values(m.files)) for (const o of Object.values(root.output ?? {})) if (typeof o.value === "string") o.value = o.value.replace("module.net.", 'module.net["10.1.0.0/16"].');
});
def("module-calls", "for-each-list-template", (m, r) => void Object.assign(ensureNet(m, r), { for_each: '${["a"]}' }));
def("module-calls", "source-trailing-slash", (m, r) => void (ensureNet(m, r).source = "./modules/net/"));
def("module-calls", "source-without-dot", (m, r) => void (ensureNet(m, r).source = "modules/net"));
def("module-calls", "source-backslashes", (m, r) => void (ensureNet(m, r).source = ".\\modules\\net"));
def("module-calls", "argument-list-for-string", (m, r) => void (ensureNet(m, r).cidr = ["10.0.0.0/16"]));
def("module-calls", "argument-number-for-string", (m, r) => void (ensureNet(m, r).cidr = 10));
def("module-calls", "argument-from-local-list", (m, r) => {
  setLocal(m, "cidrs", ["10.0.0.0/16"]);
  ensureNet(m, r).cidr = "${local.cidrs}";
});
def("module-calls", "each-without-for-each", (m, r) => void (ensureNet(m, r).cidr = "${each.value}"));
def("module-calls", "count-index-without-count", (m, r) => void (ensureNet(m, r).cidr = "10.${count.index}.0.0/16"));
def("module-calls", "providers-default-explicit", (m, r) => void (ensureNet(m, r).providers = { tsdb: "tsdb" }));
def("module-calls", "output-of-counted-module-unindexed-splat", (m, r) => {
  ensureNet(m, r).count = 1;
  for (const root of Object.values(m.files)) for (const o of Object.values(root.output ?? {})) if (typeof o.value === "string") o.value = o.value.replace("module.net.", "module.net[*].");
});
def("variables-outputs", "output-of-each", (m) => void m.put("output", "adv", { value: "${each.key}" }));
def("variables-outputs", "output-value-function-error-object", (m) => void m.put("output", "adv", { value: { a: '${element([], 0)}' } }));
def("variables-outputs", "output-description-template", (m) => void m.put("output", "adv", { value: 1, description: "${var.name_prefix}" }));
def("variables-outputs", "variable-default-null-typed", vo_("adv", { type: "number", default: null }));
def("variables-outputs", "variable-validation-uses-function-error", vo_("adv", { type: "string", default: "a", validation: [{ condition: "${length(var.adv) > 0 && tobool(\"maybe\")}", error_message: "x" }] }));
function vo_(name, body) {
  return variable(name, body);
}
def("provider-aliases", "unused-alias-wrong-type", (m) => void providerList(m).push({ alias: "west", project_id: ["x"] }));
def("provider-aliases", "unused-alias-unknown-argument", (m) => void providerList(m).push({ alias: "west", nope: 1 }));
def("provider-aliases", "unused-alias-undeclared-variable", (m) => void providerList(m).push({ alias: "west", project_id: "${var.nope}" }));
def("provider-aliases", "unused-alias-function-error", (m) => void providerList(m).push({ alias: "west", project_id: "${element([], 0)}" }));
def("provider-aliases", "used-alias-unknown-argument", (m) => {
  providerList(m).push({ alias: "west", nope: 1 });
  addRes(m, "tsdb_vpcs", "west", { provider: "tsdb.west", cidr: "10.8.0.0/16", region_code: "us-west-2" });
});
def("provider-aliases", "alias-used-by-data-only", (m) => {
  providerList(m).push({ alias: "west", project_id: ["x"] });
  addRes(m, "tsdb_products", "west", { provider: "tsdb.west" }, "data");
});
def("provider-aliases", "containerbackup-unused-bad-project", (m) => void (rootOf(m, "provider").provider.containerbackup = { project: "BAD PROJECT" }));

// third round: references with types validate knows (resource and data attributes), map keys, odd values
def("references", "string-attribute-into-map", channel({ labels: "${tsdb_vpcs.main.name}" }));
def("references", "string-attribute-into-set", peering({ peer_vpc_id: undefined, peer_tgw_id: "tgw-0123456789abcdef0", peer_cidr_blocks: "${tsdb_vpcs.main.cidr}" }));
def("references", "list-attribute-into-number", dbSet({ vpc_id: "${data.tsdb_vpcs.all.vpcs}" }));
def("references", "object-attribute-into-string", dbSet({ name: "${data.tsdb_service.existing.spec}" }));
def("references", "number-attribute-into-string", dbSet({ name: "${tsdb_vpcs.main.vpcs_id}" }));
def("references", "string-attribute-into-number", dbSet({ storage_gb: "${tsdb_vpcs.main.name}" }));
def("references", "string-attribute-into-bool", dbSet({ paused: "${tsdb_vpcs.main.name}" }));
def("references", "whole-resource-into-string", dbSet({ name: "${tsdb_vpcs.main}" }));
def("references", "whole-resource-into-nested-object", objStore((b) => void (b.credentials = "${tsdb_vpcs.main}")));
def("references", "nested-list-index-attribute", dbSet({ name: "${data.tsdb_products.catalog.products[0].plans[0].region_code}" }));
def("references", "nested-list-attribute-without-index", dbSet({ name: "${data.tsdb_products.catalog.products.name}" }));
def("references", "splat-into-string", dbSet({ name: "${data.tsdb_products.catalog.products[*].name}" }));
def("references", "splat-into-set", peering({ peer_vpc_id: undefined, peer_tgw_id: "tgw-0123456789abcdef0", peer_cidr_blocks: "${data.tsdb_vpcs.all.vpcs[*].cidr}" }));
def("references", "map-attribute-key", channel({ description: '${containerbackup_restore_channel.channel.effective_labels["team"]}' }));
def("references", "self-reference-attribute", dbSet({ name: "${tsdb_service.db.hostname}" }));
def("references", "counted-resource-splat-into-list", (m) => {
  addRes(m, "tsdb_vpcs", "many", { count: 2, cidr: "10.6.${count.index}.0/24", region_code: "us-east-1" });
  peering({ peer_vpc_id: undefined, peer_tgw_id: "tgw-0123456789abcdef0", peer_cidr_blocks: "${tsdb_vpcs.many[*].cidr}" })(m);
});
def("references", "for-each-resource-values", (m) => {
  addRes(m, "tsdb_vpcs", "keyed", { for_each: { a: "10.7.0.0/16" }, cidr: "${each.value}", region_code: "us-east-1" });
  m.put("output", "adv", { value: "${[for v in values(tsdb_vpcs.keyed) : v.cidr]}" });
});
def("references", "for-each-resource-index-number", (m) => {
  addRes(m, "tsdb_vpcs", "keyed", { for_each: { a: "10.7.0.0/16" }, cidr: "${each.value}", region_code: "us-east-1" });
  m.put("output", "adv", { value: "${tsdb_vpcs.keyed[0].cidr}" });
});
def("references", "counted-resource-index-string", (m) => {
  addRes(m, "tsdb_vpcs", "many", { count: 2, cidr: "10.6.${count.index}.0/24", region_code: "us-east-1" });
  m.put("output", "adv", { value: '${tsdb_vpcs.many["a"].cidr}' });
});
def("references", "counted-resource-index-out-of-range", (m) => {
  addRes(m, "tsdb_vpcs", "many", { count: 2, cidr: "10.6.${count.index}.0/24", region_code: "us-east-1" });
  m.put("output", "adv", { value: "${tsdb_vpcs.many[5].cidr}" });
});
def("conversions", "labels-template-keys", channel({ labels: { "${var.name_prefix}": "x" } }));
def("conversions", "labels-number-keys", channel({ labels: { 1: "a" } }));
def("conversions", "labels-empty-key", channel({ labels: { "": "x" } }));
def("conversions", "labels-upper-key", channel({ labels: { Team: "x" } }));
def("conversions", "labels-long-value", channel({ labels: { team: "x".repeat(100) } }));
def("conversions", "read-replica-nodes-exponent", dbSet({ read_replica_source: "${tsdb_vpcs.main.id}", read_replica_nodes: raw("1e0") }));
def("conversions", "ha-replicas-negative", dbSet({ ha_replicas: -1 }));
def("conversions", "password-empty", dbSet({ password: "" }));
def("conversions", "environment-tag-empty", dbSet({ environment_tag: "" }));
def("conversions", "environment-tag-number", dbSet({ environment_tag: 1 }));
def("conversions", "name-very-long", dbSet({ name: "n".repeat(300) }));
def("conversions", "name-newline", dbSet({ name: "a\nb" }));
def("conversions", "name-template-only-spaces", dbSet({ name: "${\" \"}" }));
def("conversions", "cidr-ipv6", (m) => void (vpc(m).cidr = "2001:db8::/32"));
def("conversions", "cidr-host-bits-set", (m) => void (vpc(m).cidr = "10.0.0.1/16"));
def("conversions", "cidr-slash-33", (m) => void (vpc(m).cidr = "10.0.0.0/33"));
def("conversions", "region-uppercase", (m) => void (vpc(m).region_code = "US-EAST-1"));
def("conversions", "timeouts-create-hours-minutes", (m) => void (vpc(m).timeouts = { create: "1h30m" }));
def("conversions", "timeouts-create-days", (m) => void (vpc(m).timeouts = { create: "1d" }));
def("conversions", "timeouts-create-negative", (m) => void (vpc(m).timeouts = { create: "-5m" }));
def("conversions", "timeouts-create-fraction", (m) => void (vpc(m).timeouts = { create: "1.5h" }));
def("conversions", "timeouts-create-empty", (m) => void (vpc(m).timeouts = { create: "" }));

// fourth round: variable types and defaults, block shapes of resources, refactoring between module calls
vo("list-string-default-string", { type: "list(string)", default: "a" });
vo("map-any-default-mixed", { type: "map(any)", default: { a: [1], b: "x" } });
vo("map-any-default-numbers-strings", { type: "map(any)", default: { a: 1, b: "x" } });
vo("object-default-null-attribute", { type: "object({ a = string })", default: { a: null } });
vo("set-number-default-strings", { type: "set(number)", default: ["1", "2"] });
vo("list-object-default-missing-attribute", { type: "list(object({ a = string, b = number }))", default: [{ a: "x" }] });
vo("optional-with-default-null", { type: "object({ a = optional(string, null) })", default: {} });
vo("validation-message-references-variable", { type: "string", default: "a", validation: [{ condition: '${var.adv != ""}', error_message: "Got ${var.adv}." }] });
vo("validation-message-other-variable", { type: "string", default: "a", validation: [{ condition: '${var.adv != ""}', error_message: "Prefix ${var.name_prefix}." }] });
vo("validation-condition-function-error-on-default", { type: "string", default: "abc", validation: [{ condition: '${can(regex("^x", var.adv))}', error_message: "must start with x" }] });
vo("type-any-default-null", { type: "any", default: null });
vo("nullable-false-with-default", { type: "string", nullable: false, default: "x" });
vo("sensitive-null", { type: "string", sensitive: null, default: "x" });
vo("ephemeral-with-default-used-in-output", { type: "string", ephemeral: true, default: "x" });
def("false-positive-shapes", "resource-group-empty-array", (m) => void (vpcRoot(m).resource.tsdb_vpcs.extra_empty = []));
def("false-positive-shapes", "resource-type-empty-array", (m) => void (rootOf(m, "resource").resource.tsdb_peering_connection = []));
def("false-positive-shapes", "resource-root-array-of-groups", (m) => {
  const root = vpcRoot(m);
  root.resource = [root.resource, { tsdb_vpcs: { second: { cidr: "10.40.0.0/16", region_code: "us-east-1" } } }];
});
def("false-positive-shapes", "resource-duplicate-across-array-groups", (m) => {
  const root = vpcRoot(m);
  root.resource = [root.resource, { tsdb_vpcs: { main: { cidr: "10.40.0.0/16", region_code: "us-east-1" } } }];
});
def("false-positive-shapes", "variable-group-array", (m) => {
  const root = rootOf(m, "variable");
  root.variable = [root.variable, { adv: { type: "string", default: "x" } }];
});
def("false-positive-shapes", "output-group-array-duplicate", (m) => {
  const root = rootOf(m, "output");
  root.output = [root.output, { db_hostname: { value: "x" } }];
});
def("false-positive-shapes", "argument-key-trailing-space", (m) => void (vpc(m)["cidr "] = "10.0.0.0/16"));
def("false-positive-shapes", "argument-key-empty", (m) => void (vpc(m)[""] = "x"));
def("false-positive-shapes", "locals-key-empty", localRef("", 1));
def("addresses", "moved-between-module-calls", (m, r) => {
  ensureNet(m, r);
  replaceList(m, "moved", { from: "module.old_net", to: "module.net" });
});
def("addresses", "moved-module-to-undeclared-module", (m, r) => {
  ensureNet(m, r);
  replaceList(m, "moved", { from: "module.net", to: "module.other" });
});
def("addresses", "moved-resource-into-module-call", (m, r) => {
  ensureNet(m, r);
  replaceList(m, "moved", { from: "tsdb_vpcs.legacy", to: "module.net.tsdb_vpcs.this" });
});
def("addresses", "import-for-each-list-each-value", (m) => {
  addRes(m, "tsdb_vpcs", "keyed", { for_each: { a: "10.30.0.0/16", b: "10.31.0.0/16" }, cidr: "${each.value}", region_code: "us-east-1" });
  rootOf(m, "import").import = [{ for_each: '${["a", "b"]}', to: "tsdb_vpcs.keyed[each.value]", id: "${each.value}" }];
});
def("addresses", "import-for-each-map", (m) => {
  addRes(m, "tsdb_vpcs", "keyed", { for_each: { a: "10.30.0.0/16" }, cidr: "${each.value}", region_code: "us-east-1" });
  rootOf(m, "import").import = [{ for_each: { a: "1" }, to: "tsdb_vpcs.keyed[each.key]", id: "${each.value}" }];
});
def("addresses", "import-to-data-in-module", importTo("module.net.data.tsdb_vpcs.all"));
def("addresses", "removed-module-resource", (m) => void replaceList(m, "removed", { from: "module.net.tsdb_vpcs.this", lifecycle: { destroy: false } }));
def("checks", "scoped-data-provider-alias", (m) => {
  if (!m.features.has("alias:east")) providerList(m).push({ alias: "east" });
  m.put("check", "adv", { data: { tsdb_products: { p: { provider: "tsdb.east" } } }, assert: [{ condition: "${length(data.tsdb_products.p.products) >= 0}", error_message: "x" }] });
});
def("checks", "assert-references-resource", (m) => void m.put("check", "adv", { assert: [{ condition: '${tsdb_vpcs.main.cidr != ""}', error_message: "x" }] }));
def("checks", "scoped-data-referenced-outside", (m) => {
  m.put("check", "adv", { data: { tsdb_products: { p: {} } }, assert: [{ condition: "${length(data.tsdb_products.p.products) >= 0}", error_message: "x" }] });
  m.put("output", "adv", { value: "${data.tsdb_products.p.id}" });
});
def("checks", "assert-message-template", (m) => void m.put("check", "adv", { assert: [{ condition: "${var.cpu > 0}", error_message: "cpu is ${var.cpu}" }] }));

// fifth round: self and iterators, validation scopes
def("meta-arguments", "self-unknown-attribute-in-provisioner", (m) => void (vpc(m).provisioner = { "local-exec": { command: "echo ${self.nope}" } }));
def("meta-arguments", "self-unknown-attribute-in-connection", (m) => void Object.assign(vpc(m), { connection: { host: "${self.nope}" }, provisioner: { "remote-exec": { inline: ["echo"] } } }));
def("meta-arguments", "self-nested-block-in-postcondition", (m) => void (lifecycle(vpc(m)).postcondition = [{ condition: "${self.timeouts == null}", error_message: "x" }]));
def("meta-arguments", "self-in-data-postcondition", (m) => void addRes(m, "tsdb_vpcs", "after", { lifecycle: { postcondition: [{ condition: "${length(self.vpcs) >= 0}", error_message: "x" }] } }, "data"));
def("meta-arguments", "self-unknown-in-data-postcondition", (m) => void addRes(m, "tsdb_vpcs", "after", { lifecycle: { postcondition: [{ condition: "${self.nope != null}", error_message: "x" }] } }, "data"));
def("meta-arguments", "data-lifecycle-prevent-destroy", (m) => void addRes(m, "tsdb_vpcs", "after", { lifecycle: { prevent_destroy: true } }, "data"));
def("meta-arguments", "dynamic-for-each-empty-map", (m) => void (db(m).dynamic = { timeouts: { for_each: {}, content: { create: "${timeouts.value}" } } }));
def("meta-arguments", "dynamic-iterator-unknown-attribute", (m) => void (db(m).dynamic = { timeouts: { for_each: '${["45m"]}', content: { create: "${timeouts.nope}" } } }));
def("meta-arguments", "dynamic-iterator-named-each", (m) => void (db(m).dynamic = { timeouts: { for_each: '${["45m"]}', iterator: "each", content: { create: "${each.value}" } } }));
def("meta-arguments", "every-meta-argument-valid", extraVpc({ count: 1, provider: "tsdb", depends_on: ["tsdb_service.db"], lifecycle: { create_before_destroy: true, prevent_destroy: false, ignore_changes: ["name"], replace_triggered_by: ["tsdb_service.db"] } }));
vo("validation-references-local", { type: "string", default: "a", validation: [{ condition: "${var.adv != local.prefix}", error_message: "x" }] });
vo("validation-references-data-source", { type: "string", default: "a", validation: [{ condition: "${var.adv != data.tsdb_products.catalog.id}", error_message: "x" }] });
vo("validation-references-resource", { type: "string", default: "a", validation: [{ condition: "${var.adv != tsdb_vpcs.main.id}", error_message: "x" }] });
vo("validation-self", { type: "string", default: "a", validation: [{ condition: '${self != ""}', error_message: "x" }] });
def("variables-outputs", "output-sensitive-and-ephemeral", (m) => void m.put("output", "adv", { value: "x", sensitive: true, ephemeral: true }));
def("variables-outputs", "output-precondition-references-resource", (m) => void m.put("output", "adv", { value: "${tsdb_vpcs.main.id}", precondition: [{ condition: '${tsdb_vpcs.main.cidr != ""}', error_message: "x" }] }));
def("references", "workspace-in-name", (m) => void (vpc(m).name = "vpc-${terraform.workspace}"));
def("references", "count-from-variable-length", (m) => {
  if (!m.features.has("var:counts")) m.put("variable", "counts", { type: "list(number)", default: [1, 2] });
  extraVpc({ count: "${length(var.counts)}" })(m);
});
def("references", "path-root-and-cwd", localRef("p", "${path.root}/${path.cwd}"));
def("references", "terraform-applying", localRef("p", "${terraform.applying}"));

// sixth round: which files are part of the module
def("multi-file-duplicates", "hidden-file-duplicate-resource", (m) => void (m.files[".backup.tf.json"] = { resource: { tsdb_vpcs: { main: { cidr: "10.0.0.0/16", region_code: "us-east-1" } } } }));
def("multi-file-duplicates", "hidden-file-invalid-json", (m) => void (m.files[".draft.tf.json"] = raw("{ not json")));
def("multi-file-duplicates", "plain-json-file-ignored", (m) => void (m.files["settings.json"] = { resource: { tsdb_vpcs: { main: {} } } }));
def("multi-file-duplicates", "upper-case-extension-file", (m) => void (m.files["extra.TF.JSON"] = { resource: { tsdb_vpcs: { main: {} } } }));
def("multi-file-duplicates", "override-suffix-file", (m) => void (m.files["network_override.tf.json"] = { resource: { tsdb_vpcs: { main: { name: "overridden" } } } }));
def("multi-file-duplicates", "override-adds-unknown-argument", (m) => void (m.files["override.tf.json"] = { resource: { tsdb_vpcs: { main: { nope: 1 } } } }));

text("crlf-with-trailing-comma", (t) => t.replace(/("[^"\n]*"|\d|true|false|null|[}\]])(\s*\n\s*})/, "$1,$2").replace(/\n/g, "\r\n"));
text("crlf-with-missing-comma", (t) => t.replace(/,\n/, "\n").replace(/\n/g, "\r\n"));
text("tabs-indentation", (t) => t.replace(/^( {2})+/gm, (s) => "\t".repeat(s.length / 2)));
text("no-trailing-newline", (t) => t.replace(/\s+$/, ""));
text("leading-blank-lines", (t) => "\n\n\n" + t);
text("minified-one-line", (t) => JSON.stringify(JSON.parse(t)));
text("minified-with-trailing-comma", (t) => JSON.stringify(JSON.parse(t)).replace(/}$/, ",}"));
text("byte-order-mark-crlf", (t) => "\ufeff" + t.replace(/\n/g, "\r\n"));
text("exponent-upper", (t) => t.replace(/: (\d+)(,?\n)/, ": $1E0$2"));
text("exponent-negative", (t) => t.replace(/: (\d+)(,?\n)/, ": $1e-0$2"));
text("number-plus-exponent", (t) => t.replace(/: (\d+)(,?\n)/, ": $1e+0$2"));
text("escaped-solidus-comment-key", (t) => t.replace(/^\{/, '{\n  "\\/\\/": "comment written with escapes",'));
text("escaped-key-dollar-brace", (t) => t.replace(/"demo"/, '"\\u0024{var.cpu}"'));
text("trailing-block-comment", (t) => t + "/* end */\n");
text("nul-byte-outside-string", (t) => t.replace(/\n/, "\n\u0000"));
text("second-object-after-crlf", (t) => t.replace(/\n/g, "\r\n") + "{}\r\n");
text("emoji-in-value-raw", (t) => t.replace(/"demo"/, '"demo-\u{1F680}"'));
text("escaped-emoji-surrogates", (t) => t.replace(/"demo"/, '"demo-\\ud83d\\ude80"'));

text("crlf-with-missing-argument", (t) => t.replace(/\n(\s*)"cidr": "[^"]*",?/, "").replace(/\n/g, "\r\n"));
text("tabs-in-strings-escaped", (t) => t.replace(/"demo"/, '"de\\tmo"'));

// seventh round (independent): Terraform's built-in provider (terraform_data, terraform_remote_state),
// our data sources' arguments, computed-only attributes set, refactoring chains, module outputs
const tfData = (name, body) => (m) => void addRes(m, "terraform_data", name, body);
const remoteState = (name, body) => (m) => void addRes(m, "terraform_remote_state", name, body, "data");
def("builtin-types", "terraform-data-valid", tfData("marker", { input: "${tsdb_vpcs.main.id}" }));
def("builtin-types", "terraform-data-empty", tfData("marker", {}));
def("builtin-types", "terraform-data-unknown-argument", tfData("marker", { input: "x", bogus: 1 }));
def("builtin-types", "terraform-data-triggers-replace-list", tfData("marker", { triggers_replace: ["${tsdb_service.db.id}", "${var.cpu}"] }));
def("builtin-types", "terraform-data-input-object", tfData("marker", { input: { a: [1, "b"], c: { d: true } } }));
def("builtin-types", "terraform-data-output-set", tfData("marker", { input: "x", output: "y" }));
def("builtin-types", "terraform-data-id-set", tfData("marker", { id: "x" }));
def("builtin-types", "terraform-data-nested-block", tfData("marker", { input: "x", triggers: { a: 1 } }));
/** db replaced when terraform_data.marker (or the part of it named) changes */
const markerTriggers = (target) => (m) => {
  tfData("marker", { input: "${var.cpu}" })(m);
  lifecycle(db(m)).replace_triggered_by = [target];
};
def("builtin-types", "terraform-data-replace-triggered-by", markerTriggers("terraform_data.marker"));
def("builtin-types", "terraform-data-replace-triggered-by-output", markerTriggers("terraform_data.marker.output"));
def("builtin-types", "terraform-data-depends-on", (m) => {
  tfData("marker", { input: "x" })(m);
  db(m).depends_on = ["terraform_data.marker"];
});
def("builtin-types", "terraform-data-output-referenced", (m) => {
  tfData("marker", { input: { a: 1 } })(m);
  m.put("output", "adv", { value: "${terraform_data.marker.output}" });
});
def("builtin-types", "terraform-data-output-deep-traversal", (m) => {
  tfData("marker", { input: { a: { b: 1 } } })(m);
  m.put("output", "adv", { value: "${terraform_data.marker.output.a.b}" });
});
def("builtin-types", "terraform-data-unknown-attribute-referenced", (m) => {
  tfData("marker", { input: "x" })(m);
  m.put("output", "adv", { value: "${terraform_data.marker.nope}" });
});
def("builtin-types", "terraform-data-count-indexed", (m) => {
  tfData("marker", { count: 2, input: "${count.index}" })(m);
  m.put("output", "adv", { value: "${terraform_data.marker[0].output}" });
});
def("builtin-types", "terraform-data-count-unindexed", (m) => {
  tfData("marker", { count: 2, input: "${count.index}" })(m);
  m.put("output", "adv", { value: "${terraform_data.marker.output}" });
});
def("builtin-types", "terraform-data-into-resource-argument", (m) => {
  tfData("marker", { input: "db-name" })(m);
  db(m).name = "${terraform_data.marker.output}";
});
def("builtin-types", "terraform-data-provisioner-self", tfData("marker", { input: "x", provisioner: { "local-exec": { command: "echo ${self.output}" } } }));
def("builtin-types", "terraform-data-input-function-error", tfData("marker", { input: "${element([], 0)}" }));
def("builtin-types", "terraform-data-input-null", tfData("marker", { input: null }));
def("builtin-types", "terraform-data-as-data-source", (m) => void addRes(m, "terraform_data", "marker", {}, "data"));
def("builtin-types", "terraform-data-timeouts-block", tfData("marker", { input: "x", timeouts: { create: "5m" } }));
def("builtin-types", "terraform-data-ignore-changes-input", tfData("marker", { input: "x", lifecycle: { ignore_changes: ["input"] } }));
def("builtin-types", "terraform-data-ignore-changes-unknown", tfData("marker", { input: "x", lifecycle: { ignore_changes: ["nope"] } }));
def("builtin-types", "terraform-data-duplicate-in-other-file", (m) => {
  tfData("marker", { input: "x" })(m);
  addToFile(m, "extra.tf.json", "resource", "terraform_data", { marker: { input: "y" } });
});
def("builtin-types", "remote-state-valid", remoteState("net", { backend: "local", config: { path: "net.tfstate" } }));
def("builtin-types", "remote-state-missing-backend", remoteState("net", { config: { path: "net.tfstate" } }));
def("builtin-types", "remote-state-unknown-argument", remoteState("net", { backend: "local", bogus: 1 }));
def("builtin-types", "remote-state-unknown-backend", remoteState("net", { backend: "nope" }));
def("builtin-types", "remote-state-config-unknown-key", remoteState("net", { backend: "local", config: { nope: 1 } }));
def("builtin-types", "remote-state-defaults-and-workspace", remoteState("net", { backend: "local", config: { path: "net.tfstate" }, defaults: { vpc_id: "1" }, workspace: "staging" }));
def("builtin-types", "remote-state-workspace-number", remoteState("net", { backend: "local", workspace: 5 }));
def("builtin-types", "remote-state-backend-number", remoteState("net", { backend: 5 }));
def("builtin-types", "remote-state-outputs-set", remoteState("net", { backend: "local", outputs: {} }));
def("builtin-types", "remote-state-outputs-referenced", (m) => {
  remoteState("net", { backend: "local", config: { path: "net.tfstate" } })(m);
  db(m).name = "${data.terraform_remote_state.net.outputs.name}";
});
def("builtin-types", "remote-state-unknown-attribute-referenced", (m) => {
  remoteState("net", { backend: "local", config: { path: "net.tfstate" } })(m);
  m.put("output", "adv", { value: "${data.terraform_remote_state.net.vpc_id}" });
});
def("builtin-types", "remote-state-as-resource", (m) => void addRes(m, "terraform_remote_state", "net", { backend: "local" }));
def("builtin-types", "remote-state-config-template", remoteState("net", { backend: "local", config: { path: "${path.module}/net.tfstate" } }));

// our data sources: arguments wrong, missing, extra, computed-only
const dataSvc = (body) => (m) => void addRes(m, "tsdb_service", "lookup", body, "data");
def("value-rules", "data-service-extra-argument", dataSvc({ id: "svc-1", bogus: 1 }));
def("value-rules", "data-service-computed-name-set", dataSvc({ id: "svc-1", name: "x" }));
def("value-rules", "data-service-computed-spec-set", dataSvc({ id: "svc-1", spec: {} }));
def("value-rules", "data-service-vpc-id-word", dataSvc({ id: "svc-1", vpc_id: "abc" }));
def("value-rules", "data-products-id-set", (m) => void addRes(m, "tsdb_products", "lookup", { id: "x" }, "data"));
def("value-rules", "data-products-products-set", (m) => void addRes(m, "tsdb_products", "lookup", { products: [] }, "data"));
def("value-rules", "data-vpcs-unknown-argument", (m) => void addRes(m, "tsdb_vpcs", "lookup", { region_code: "us-east-1" }, "data"));
def("references", "data-service-count-indexed", (m) => {
  dataSvc({ count: 2, id: "svc-${count.index}" })(m);
  db(m).name = "${data.tsdb_service.lookup[0].name}";
});
def("references", "data-service-count-unindexed", (m) => {
  dataSvc({ count: 2, id: "svc-${count.index}" })(m);
  db(m).name = "${data.tsdb_service.lookup.name}";
});
def("references", "data-service-for-each-unindexed", (m) => {
  dataSvc({ for_each: { a: "svc-1" }, id: "${each.value}" })(m);
  m.put("output", "adv", { value: "${data.tsdb_service.lookup.name}" });
});
def("references", "data-service-for-each-keyed", (m) => {
  dataSvc({ for_each: { a: "svc-1" }, id: "${each.value}" })(m);
  m.put("output", "adv", { value: '${data.tsdb_service.lookup["a"].region_code}' });
});
def("references", "data-service-unknown-attribute", (m) => {
  dataSvc({ id: "svc-1" })(m);
  m.put("output", "adv", { value: "${data.tsdb_service.lookup.hostname}" });
});
def("references", "data-vpcs-element-attribute", (m) => void m.put("output", "adv", { value: "${data.tsdb_vpcs.all.vpcs[0].nope}" }));
def("value-rules", "vpc-computed-vpcs-id-set", (m) => void (vpc(m).vpcs_id = 5));
def("value-rules", "vpc-computed-status-set", (m) => void (vpc(m).status = "ready"));
def("value-rules", "vpc-id-set", (m) => void (vpc(m).id = "x"));
def("value-rules", "db-computed-hostname-set", (m) => void (db(m).hostname = "h"));
def("value-rules", "db-computed-port-set", (m) => void (db(m).port = 5432));
def("value-rules", "channel-computed-etag-set", channel({ etag: "abc" }));
def("value-rules", "channel-computed-effective-labels-set", channel({ effective_labels: { a: "b" } }));
def("value-rules", "db-computed-set-null", (m) => void (db(m).hostname = null));
def("variables-outputs", "output-object-holding-sensitive-variable", (m) => void m.put("output", "adv", { value: { pw: "${var.secret}" } }));
def("variables-outputs", "output-list-holding-sensitive-attribute", (m) => void m.put("output", "adv", { value: ["${tsdb_service.db.password}"] }));
def("variables-outputs", "output-sensitive-in-template-text", (m) => void m.put("output", "adv", { value: "pw=${var.secret}" }));
def("variables-outputs", "output-sensitive-through-function", (m) => void m.put("output", "adv", { value: "${upper(var.secret)}" }));

// addresses: import with for_each and aliases, moved into missing module calls, chains and cycles
def("addresses", "import-for-each-provider-alias", (m) => {
  if (!m.features.has("alias:east")) providerList(m).push({ alias: "east" });
  addRes(m, "tsdb_vpcs", "keyed", { for_each: { a: "10.30.0.0/16" }, cidr: "${each.value}", region_code: "us-east-1", provider: "tsdb.east" });
  replaceList(m, "import", { for_each: { a: "1" }, to: "tsdb_vpcs.keyed[each.key]", id: "${each.value}", provider: "tsdb.east" });
});
def("addresses", "import-for-each-to-without-key", (m) => replaceList(m, "import", { for_each: { a: "1" }, to: "tsdb_vpcs.main", id: "${each.value}" }));
def("addresses", "import-each-without-for-each", (m) => replaceList(m, "import", { to: "tsdb_vpcs.main", id: "${each.value}" }));
def("addresses", "import-for-each-list-literal", (m) => {
  addRes(m, "tsdb_vpcs", "keyed", { for_each: { a: "10.30.0.0/16" }, cidr: "${each.value}", region_code: "us-east-1" });
  replaceList(m, "import", { for_each: ["a"], to: "tsdb_vpcs.keyed[each.value]", id: "${each.value}" });
});
def("addresses", "import-id-from-variable", importTo("tsdb_vpcs.main", { id: "${var.name_prefix}" }));
def("addresses", "moved-into-missing-module-call", (m) => void replaceList(m, "moved", { from: "tsdb_vpcs.legacy", to: "module.ghost.tsdb_vpcs.this" }));
def("addresses", "moved-chain-three", (m) => void replaceList(m, "moved", { from: "tsdb_vpcs.a", to: "tsdb_vpcs.b" }, { from: "tsdb_vpcs.b", to: "tsdb_vpcs.c" }, { from: "tsdb_vpcs.c", to: "tsdb_vpcs.main" }));
def("addresses", "moved-cycle-three", (m) => void replaceList(m, "moved", { from: "tsdb_vpcs.a", to: "tsdb_vpcs.b" }, { from: "tsdb_vpcs.b", to: "tsdb_vpcs.c" }, { from: "tsdb_vpcs.c", to: "tsdb_vpcs.a" }));
def("addresses", "moved-module-cycle", (m) => void replaceList(m, "moved", { from: "module.a", to: "module.b" }, { from: "module.b", to: "module.a" }));
def("addresses", "moved-two-from-same", (m) => void replaceList(m, "moved", { from: "tsdb_vpcs.a", to: "tsdb_vpcs.main" }, { from: "tsdb_vpcs.a", to: "tsdb_vpcs.b" }));
def("addresses", "moved-two-to-same", (m) => void replaceList(m, "moved", { from: "tsdb_vpcs.a", to: "tsdb_vpcs.main" }, { from: "tsdb_vpcs.b", to: "tsdb_vpcs.main" }));
def("addresses", "removed-module-instance", (m) => void replaceList(m, "removed", { from: "module.old[0]", lifecycle: { destroy: false } }));
def("addresses", "removed-terraform-data", (m) => void replaceList(m, "removed", { from: "terraform_data.gone", lifecycle: { destroy: false } }));
def("addresses", "import-terraform-data", importTo("terraform_data.marker"));

// module outputs across calls
const countNet = (m, r, count, index) => {
  ensureNet(m, r).count = count;
  for (const root of Object.values(m.files)) for (const o of Object.values(root.output ?? {})) if (typeof o.value === "string") o.value = o.value.replace("module.net.", `module.net[${index}].`);
};
def("module-calls", "count-output-index-out-of-range", (m, r) => countNet(m, r, 2, 5));
def("module-calls", "count-output-string-key", (m, r) => countNet(m, r, 2, '"a"'));
def("module-calls", "for-each-output-missing-key", (m, r) => {
  Object.assign(ensureNet(m, r), { for_each: { a: "10.1.0.0/16" }, cidr: "${each.value}" });
  for (const root of Object.values(m.files)) for (const o of Object.values(root.output ?? {})) if (typeof o.value === "string") o.value = o.value.replace("module.net.", 'module.net["zz"].');
});
def("module-calls", "for-each-output-number-index", (m, r) => {
  Object.assign(ensureNet(m, r), { for_each: { a: "10.1.0.0/16" }, cidr: "${each.value}" });
  for (const root of Object.values(m.files)) for (const o of Object.values(root.output ?? {})) if (typeof o.value === "string") o.value = o.value.replace("module.net.", "module.net[0].");
});
def("module-calls", "child-sensitive-output-in-root-output", (m, r) => {
  ensureNet(m, r);
  m.modules.net["main.tf.json"].variable.pw = { type: "string", sensitive: true, default: "x" };
  m.modules.net["outputs.tf.json"].output.pw = { value: "${var.pw}", sensitive: true };
  m.put("output", "adv", { value: "${module.net.pw}" });
});
def("module-calls", "child-sensitive-output-in-root-output-marked", (m, r) => {
  ensureNet(m, r);
  m.modules.net["main.tf.json"].variable.pw = { type: "string", sensitive: true, default: "x" };
  m.modules.net["outputs.tf.json"].output.pw = { value: "${var.pw}", sensitive: true };
  m.put("output", "adv", { value: "${module.net.pw}", sensitive: true });
});
def("module-calls", "child-output-attribute-of-string", (m, r) => {
  ensureNet(m, r);
  m.put("output", "adv", { value: "${module.net.cidr.nope}" });
});
def("module-calls", "child-output-referencing-missing-child-output", (m, r) => {
  ensureNet(m, r);
  m.modules.net["outputs.tf.json"].output.again = { value: "${module.inner.x}" };
});
def("module-calls", "child-output-into-resource-argument", (m, r) => {
  ensureNet(m, r);
  vpc(m).name = "${module.net.cidr}";
});
def("module-calls", "module-output-in-depends-on", (m, r) => {
  ensureNet(m, r);
  db(m).depends_on = ["module.net.vpc_id"];
});
def("module-calls", "child-terraform-data", (m, r) => {
  ensureNet(m, r);
  m.modules.net["main.tf.json"].resource.terraform_data = { marker: { input: "${var.cidr}", bogus: 1 } };
});

// names and encoding
def("names", "resource-name-not-nfc", (m) => void addRes(m, "tsdb_vpcs", "re\u0301seau", { cidr: "10.9.0.0/16", region_code: "us-east-1" }));
def("names", "resource-name-nfc-and-not-nfc", (m) => {
  addRes(m, "tsdb_vpcs", "r\u00e9seau", { cidr: "10.9.0.0/16", region_code: "us-east-1" });
  addRes(m, "tsdb_vpcs", "re\u0301seau", { cidr: "10.10.0.0/16", region_code: "us-east-1" });
});
const secondFile = (files) => Object.keys(files).filter((n) => !n.includes("/"))[1];
T.push({ cat: "syntax", name: "byte-order-mark-second-file", pick: secondFile, change: (t) => "\ufeff" + t });
T.push({ cat: "syntax", name: "whitespace-only-second-file", pick: secondFile, change: () => "\r\n  \t\r\n" });
T.push({ cat: "syntax", name: "json-string-second-file", pick: secondFile, change: () => '"just a string"\n' });
T.push({ cat: "syntax", name: "crlf-second-file", pick: secondFile, change: (t) => t.replace(/\n/g, "\r\n") });
text("crlf-with-unknown-argument", (t) => t.replace(/\n(\s*)"cidr": /, '\n$1"bogus": 1,\n$1"cidr": ').replace(/\n/g, "\r\n"));
text("cr-only-with-unknown-argument", (t) => t.replace(/\n(\s*)"cidr": /, '\n$1"bogus": 1,\n$1"cidr": ').replace(/\n/g, "\r"));

// eighth round (independent): the built-in provider's types in more positions
def("builtin-types", "terraform-data-for-each", tfData("marker", { for_each: { a: "x", b: "y" }, input: "${each.value}" }));
def("builtin-types", "terraform-data-for-each-unindexed", (m) => {
  tfData("marker", { for_each: { a: "x" }, input: "${each.value}" })(m);
  m.put("output", "adv", { value: "${terraform_data.marker.output}" });
});
def("builtin-types", "terraform-data-replace-triggered-by-input", markerTriggers("terraform_data.marker.input"));
def("builtin-types", "terraform-data-replace-triggered-by-unknown-attribute", markerTriggers("terraform_data.marker.nope"));
def("builtin-types", "terraform-data-triggers-undeclared-resource", tfData("marker", { triggers_replace: "${tsdb_vpcs.absent.id}" }));
def("builtin-types", "terraform-data-provider-terraform", tfData("marker", { input: "x", provider: "terraform" }));
def("builtin-types", "terraform-data-dynamic-block", tfData("marker", { input: "x", dynamic: { timeouts: { for_each: ["5m"], content: { create: "5m" } } } }));
def("builtin-types", "terraform-data-input-twice", tfData("marker", { input: "x", ["input" + DUP + "2"]: "y" }));
def("builtin-types", "terraform-data-override-file", (m) => {
  tfData("marker", { input: "x" })(m);
  m.files["main_override.tf.json"] = { resource: { terraform_data: { marker: { input: "y" } } } };
});
def("builtin-types", "terraform-data-override-unknown-argument", (m) => {
  tfData("marker", { input: "x" })(m);
  m.files["main_override.tf.json"] = { resource: { terraform_data: { marker: { bogus: "y" } } } };
});
def("builtin-types", "terraform-data-postcondition-self-output", tfData("marker", { input: "x", lifecycle: { postcondition: [{ condition: '${self.output != ""}', error_message: "empty" }] } }));
def("builtin-types", "terraform-data-postcondition-self-unknown", tfData("marker", { input: "x", lifecycle: { postcondition: [{ condition: '${self.nope != ""}', error_message: "empty" }] } }));
def("builtin-types", "terraform-data-sensitive-input-output", (m) => {
  tfData("marker", { input: "${var.secret}" })(m);
  m.put("output", "adv", { value: "${terraform_data.marker.output}" });
});
def("builtin-types", "terraform-data-ignore-changes-output-path", tfData("marker", { input: { a: 1 }, lifecycle: { ignore_changes: ["input.a"] } }));
def("builtin-types", "terraform-data-ignore-changes-id-path", tfData("marker", { input: "x", lifecycle: { ignore_changes: ["id.x"] } }));
def("builtin-types", "terraform-data-unknown-builtin-type", (m) => void addRes(m, "terraform_nope", "marker", {}));
def("builtin-types", "terraform-data-upper-type", (m) => void addRes(m, "Terraform_data", "marker", {}));
def("builtin-types", "terraform-data-moved", (m) => {
  tfData("marker", { input: "x" })(m);
  replaceList(m, "moved", { from: "terraform_data.old", to: "terraform_data.marker" });
});
def("builtin-types", "terraform-data-moved-from-other-type", (m) => {
  tfData("marker", { input: "x" })(m);
  replaceList(m, "moved", { from: "tsdb_vpcs.old", to: "terraform_data.marker" });
});
def("builtin-types", "terraform-data-in-child-module-valid", (m, r) => {
  ensureNet(m, r);
  m.modules.net["main.tf.json"].resource.terraform_data = { marker: { input: "${var.cidr}" } };
  m.modules.net["outputs.tf.json"].output.marker = { value: "${terraform_data.marker.output}" };
});
def("builtin-types", "terraform-data-count-each", tfData("marker", { count: 1, input: "${each.key}" }));
def("builtin-types", "terraform-data-check-block-data", (m) => void m.put("check", "adv", { data: { terraform_remote_state: { s: { backend: "local" } } }, assert: [{ condition: "${data.terraform_remote_state.s.outputs != null}", error_message: "x" }] }));
def("builtin-types", "remote-state-count", (m) => {
  remoteState("net", { count: 2, backend: "local", config: { path: "net-${count.index}.tfstate" } })(m);
  m.put("output", "adv", { value: "${data.terraform_remote_state.net[0].outputs}" });
});
def("builtin-types", "remote-state-backend-s3-without-bucket", remoteState("net", { backend: "s3", config: { key: "x" } }));
def("builtin-types", "remote-state-backend-s3-complete", remoteState("net", { backend: "s3", config: { bucket: "b", key: "k", region: "us-east-1" } }));
def("builtin-types", "remote-state-backend-removed", remoteState("net", { backend: "etcd" }));
def("builtin-types", "remote-state-backend-upper", remoteState("net", { backend: "LOCAL" }));
def("builtin-types", "remote-state-backend-template", remoteState("net", { backend: "${var.name_prefix}" }));
def("builtin-types", "remote-state-backend-null", remoteState("net", { backend: null }));
def("builtin-types", "remote-state-config-string", remoteState("net", { backend: "local", config: "path=x" }));
def("builtin-types", "remote-state-config-path-number", remoteState("net", { backend: "local", config: { path: 5 } }));
def("builtin-types", "remote-state-config-path-object", remoteState("net", { backend: "local", config: { path: { a: 1 } } }));
def("builtin-types", "remote-state-config-workspace-dir", remoteState("net", { backend: "local", config: { workspace_dir: "ws" } }));
def("builtin-types", "remote-state-config-null", remoteState("net", { backend: "local", config: null }));
def("builtin-types", "remote-state-outputs-deep", (m) => {
  remoteState("net", { backend: "local" })(m);
  m.put("output", "adv", { value: '${data.terraform_remote_state.net.outputs.a["b"][0]}' });
});
def("builtin-types", "remote-state-defaults-used", (m) => {
  remoteState("net", { backend: "local", defaults: { name: "fallback" } })(m);
  vpc(m).name = "${data.terraform_remote_state.net.outputs.name}";
});
def("builtin-types", "remote-state-depends-on", remoteState("net", { backend: "local", depends_on: ["tsdb_vpcs.main"] }));
def("builtin-types", "remote-state-lifecycle-postcondition", remoteState("net", { backend: "local", lifecycle: { postcondition: [{ condition: "${self.outputs != null}", error_message: "x" }] } }));
def("builtin-types", "remote-state-timeouts", remoteState("net", { backend: "local", timeouts: { read: "1m" } }));
def("builtin-types", "remote-state-duplicate", (m) => {
  remoteState("net", { backend: "local" })(m);
  addToFile(m, "extra.tf.json", "data", "terraform_remote_state", { net: { backend: "local" } });
});

// ninth round (independent): computed attributes elsewhere, sensitive whole objects, module interplay, duplicates in children
def("value-rules", "peering-computed-status-set", peering({ status: "active" }));
def("value-rules", "log-exporter-computed-type-set", (m) => void (find(m, "resource", "tsdb_log_exporter", "logs") ? (find(m, "resource", "tsdb_log_exporter", "logs").type = "cloudmon") : addRes(m, "tsdb_log_exporter", "logs", { region: "us-east-1", cloudmon: { region: "us-east-1", log_group_name: "g", log_stream_name: "s", role_arn: "arn:aws:iam::123456789012:role/logs" }, type: "cloudmon" })));
def("value-rules", "vpc-computed-created-template", (m) => void (vpc(m).created = "${timestamp()}"));
def("value-rules", "data-service-id-list", dataSvc({ id: ["svc-1"] }));
def("value-rules", "data-service-environment-number", dataSvc({ id: "svc-1", environment_tag: 5 }));
def("references", "data-service-vpc-id-into-db", (m) => {
  dataSvc({ id: "svc-1" })(m);
  db(m).vpc_id = "${data.tsdb_service.lookup.vpc_id}";
});
def("references", "timeouts-block-attribute", (m) => void m.put("output", "adv", { value: "${tsdb_vpcs.main.timeouts.create}" }));
def("references", "products-element-unknown-attribute", (m) => void m.put("output", "adv", { value: "${data.tsdb_products.catalog.products[0].nope}" }));
def("references", "write-only-attribute-reference", (m) => void m.put("output", "adv", { value: "${tsdb_service.db.password_wo}", sensitive: true }));
def("references", "object-variable-string-index", (m) => {
  if (!m.features.has("var:settings")) m.put("variable", "settings", { type: "object({ size = number })", default: { size: 2 } });
  setLocal(m, "size", '${var.settings["size"]}');
});
def("references", "object-variable-missing-string-index", (m) => {
  if (!m.features.has("var:settings")) m.put("variable", "settings", { type: "object({ size = number })", default: { size: 2 } });
  setLocal(m, "size", '${var.settings["nope"]}');
});
def("references", "local-object-nested-missing", (m) => {
  setLocal(m, "obj", { a: { b: 1 } });
  setLocal(m, "deep", "${local.obj.a.c}");
});
def("references", "map-variable-attribute-access", (m) => {
  if (!m.features.has("var:regions")) m.put("variable", "regions", { type: "map(string)", default: { a: "us-east-1" } });
  setLocal(m, "r", "${var.regions.a}");
});
def("references", "list-variable-attribute-access", (m) => {
  if (!m.features.has("var:counts")) m.put("variable", "counts", { type: "list(number)", default: [1, 2] });
  setLocal(m, "r", "${var.counts.first}");
});
def("variables-outputs", "output-whole-resource-with-sensitive", (m) => void m.put("output", "adv", { value: "${tsdb_service.db}" }));
def("variables-outputs", "output-whole-resource-with-sensitive-marked", (m) => void m.put("output", "adv", { value: "${tsdb_service.db}", sensitive: true }));
def("variables-outputs", "output-sensitive-variable-in-conditional", (m) => void m.put("output", "adv", { value: '${var.cpu > 0 ? var.secret : ""}' }));
def("variables-outputs", "output-sensitive-length", (m) => void m.put("output", "adv", { value: "${length(var.secret)}" }));
def("module-calls", "child-sensitive-output-into-resource", (m, r) => {
  ensureNet(m, r);
  m.modules.net["main.tf.json"].variable.pw = { type: "string", sensitive: true, default: "x" };
  m.modules.net["outputs.tf.json"].output.pw = { value: "${var.pw}", sensitive: true };
  vpc(m).name = "${module.net.pw}";
});
def("module-calls", "child-output-unknown-resource-attribute", (m, r) => {
  ensureNet(m, r);
  m.modules.net["outputs.tf.json"].output.bad = { value: "${tsdb_vpcs.this.nope}" };
});
def("module-calls", "module-argument-from-other-module", (m, r) => {
  const call = ensureNet(m, r);
  m.put("module", "net_b", { ...call, cidr: "${module.net.cidr}" });
});
def("module-calls", "module-depends-on-module", (m, r) => {
  const call = ensureNet(m, r);
  m.put("module", "net_b", { ...call, depends_on: ["module.net"] });
});
def("module-calls", "module-depends-on-module-output", (m, r) => {
  const call = ensureNet(m, r);
  m.put("module", "net_b", { ...call, depends_on: ["module.net.vpc_id"] });
});
def("module-calls", "for-each-unindexed-output", (m, r) => void Object.assign(ensureNet(m, r), { for_each: { a: "10.1.0.0/16" }, cidr: "${each.value}" }));
def("module-calls", "child-ephemeral-output", (m, r) => {
  ensureNet(m, r);
  m.modules.net["outputs.tf.json"].output.eph = { value: "${var.cidr}", ephemeral: true };
});
def("module-calls", "child-ephemeral-output-used-in-resource", (m, r) => {
  ensureNet(m, r);
  m.modules.net["outputs.tf.json"].output.eph = { value: "${var.cidr}", ephemeral: true };
  vpc(m).name = "${module.net.eph}";
});
def("multi-file-duplicates", "child-local-in-two-files", (m, r) => {
  ensureNet(m, r);
  m.modules.net["main.tf.json"].locals = { x: 1 };
  m.modules.net["outputs.tf.json"].locals = { x: 2 };
});
def("multi-file-duplicates", "child-output-in-two-files", (m, r) => {
  ensureNet(m, r);
  m.modules.net["main.tf.json"].output = { cidr: { value: "${var.cidr}" } };
});
def("multi-file-duplicates", "child-resource-in-two-files", (m, r) => {
  ensureNet(m, r);
  m.modules.net["outputs.tf.json"].resource = { tsdb_vpcs: { this: { cidr: "${var.cidr}", region_code: "us-east-1" } } };
});
def("multi-file-duplicates", "child-required-providers-in-two-files", (m, r) => {
  ensureNet(m, r);
  m.modules.net["outputs.tf.json"].terraform = { required_providers: { tsdb: { source: "schemaform/tsdb" } } };
});
def("multi-file-duplicates", "output-in-override-and-base", (m) => void (m.files["outputs_override.tf.json"] = { output: { db_hostname: { value: "overridden" } } }));
def("multi-file-duplicates", "locals-override-new-name", (m) => void (m.files["override.tf.json"] = { locals: { brand_new: 1 } }));
def("multi-file-duplicates", "variable-override-new-name", (m) => void (m.files["override.tf.json"] = { variable: { brand_new: { type: "string" } } }));
def("multi-file-duplicates", "ephemeral-and-resource-same-name", (m) => void addToFile(m, "extra.tf.json", "ephemeral", "tsdb_vpcs", { main: {} }));
def("addresses", "moved-count-index-to-plain", (m) => {
  addRes(m, "tsdb_vpcs", "many", { count: 2, cidr: "10.3.${count.index}.0/24", region_code: "us-east-1" });
  replaceList(m, "moved", { from: "tsdb_vpcs.many[0]", to: "tsdb_vpcs.main" });
});
def("addresses", "moved-plain-to-for-each-key", (m) => {
  addRes(m, "tsdb_vpcs", "keyed", { for_each: { a: "10.30.0.0/16" }, cidr: "${each.value}", region_code: "us-east-1" });
  replaceList(m, "moved", { from: "tsdb_vpcs.legacy", to: 'tsdb_vpcs.keyed["a"]' });
});
def("addresses", "moved-module-instance-keys", (m, r) => {
  ensureNet(m, r).count = 1;
  for (const root of Object.values(m.files)) for (const o of Object.values(root.output ?? {})) if (typeof o.value === "string") o.value = o.value.replace("module.net.", "module.net[0].");
  replaceList(m, "moved", { from: "module.net", to: "module.net[0]" });
});
def("addresses", "import-to-module-resource-with-alias", (m, r) => {
  ensureNet(m, r);
  if (!m.features.has("alias:east")) providerList(m).push({ alias: "east" });
  replaceList(m, "import", { to: "module.net.tsdb_vpcs.this", id: "1", provider: "tsdb.east" });
});
def("addresses", "import-id-from-data-source", importTo("tsdb_vpcs.main", { id: "${data.tsdb_products.catalog.id}" }));
def("addresses", "import-for-each-count-target", (m) => {
  addRes(m, "tsdb_vpcs", "many", { count: 2, cidr: "10.3.${count.index}.0/24", region_code: "us-east-1" });
  replaceList(m, "import", { for_each: { a: "1" }, to: "tsdb_vpcs.many[each.key]", id: "${each.value}" });
});
def("addresses", "removed-for-each-resource-declared", (m) => {
  addRes(m, "tsdb_vpcs", "keyed", { for_each: { a: "10.30.0.0/16" }, cidr: "${each.value}", region_code: "us-east-1" });
  replaceList(m, "removed", { from: "tsdb_vpcs.keyed", lifecycle: { destroy: false } });
});

// tenth round (independent): the built-in provider's functions and configuration, overrides of other blocks
fn("builtin-encode-tfvars", '${provider::terraform::encode_tfvars({ a = 1 })}');
fn("builtin-decode-tfvars", '${provider::terraform::decode_tfvars("a = 1").a}');
fn("builtin-encode-expr", '${provider::terraform::encode_expr([1, "a"])}');
fn("builtin-unknown-function", '${provider::terraform::nope(1)}');
fn("builtin-encode-tfvars-no-arguments", "${provider::terraform::encode_tfvars()}");
fn("builtin-encode-tfvars-string", '${provider::terraform::encode_tfvars("x")}');
fn("builtin-decode-tfvars-invalid", '${provider::terraform::decode_tfvars("a = ")}');
fn("builtin-without-function-name", "${provider::terraform(1)}");
def("builtin-types", "provider-block-terraform", (m) => void (rootOf(m, "provider").provider.terraform = {}));
def("builtin-types", "required-providers-terraform-builtin", (m) => void (rootOf(m, "terraform").terraform.required_providers.terraform = { source: "terraform.io/builtin/terraform" }));
def("builtin-types", "terraform-data-provider-alias", tfData("marker", { input: "x", provider: "terraform.other" }));
def("builtin-types", "terraform-data-provider-tsdb", tfData("marker", { input: "x", provider: "tsdb" }));
def("builtin-types", "terraform-data-moved-to-tsdb", (m) => replaceList(m, "moved", { from: "terraform_data.old", to: "tsdb_vpcs.main" }));
def("builtin-types", "terraform-data-removed-still-declared", (m) => {
  tfData("marker", { input: "x" })(m);
  replaceList(m, "removed", { from: "terraform_data.marker", lifecycle: { destroy: false } });
});
def("builtin-types", "terraform-data-import-declared", (m) => {
  tfData("marker", { input: "x" })(m);
  replaceList(m, "import", { to: "terraform_data.marker", id: "x" });
});
def("builtin-types", "terraform-data-input-sensitive-attribute", tfData("marker", { input: "${tsdb_service.db.password}" }));
def("builtin-types", "terraform-data-input-ephemeral-variable", (m) => {
  m.put("variable", "eph", { type: "string", ephemeral: true, default: "x" });
  tfData("marker", { input: "${var.eph}" })(m);
});
def("builtin-types", "terraform-data-cycle", (m) => {
  tfData("a", { input: "${terraform_data.b.output}" })(m);
  tfData("b", { input: "${terraform_data.a.output}" })(m);
});
def("builtin-types", "terraform-data-self-reference", tfData("marker", { input: "${terraform_data.marker.id}" }));
def("builtin-types", "terraform-data-connection", tfData("marker", { input: "x", connection: { host: "h" }, provisioner: { "remote-exec": { inline: ["echo"] } } }));
def("builtin-types", "terraform-data-escape-block", tfData("marker", { _: { input: "x" } }));
def("builtin-types", "terraform-data-escape-block-unknown", tfData("marker", { _: { bogus: "x" } }));
def("builtin-types", "terraform-data-comment-key", tfData("marker", { "//": "about", input: "x" }));
def("builtin-types", "remote-state-escape-block", remoteState("net", { _: { backend: "local" } }));
def("builtin-types", "remote-state-for-each", (m) => {
  remoteState("net", { for_each: { a: "a.tfstate" }, backend: "local", config: { path: "${each.value}" } })(m);
  m.put("output", "adv", { value: '${data.terraform_remote_state.net["a"].outputs}' });
});
def("builtin-types", "remote-state-config-local-null-path", remoteState("net", { backend: "local", config: { path: null } }));
def("builtin-types", "remote-state-config-list", remoteState("net", { backend: "local", config: [{ path: "x" }] }));
def("builtin-types", "remote-state-backend-remote-empty", remoteState("net", { backend: "remote", config: {} }));
def("builtin-types", "remote-state-backend-http", remoteState("net", { backend: "http", config: { address: "https://example.com/state" } }));
def("builtin-types", "remote-state-backend-gcs-empty", remoteState("net", { backend: "gcs", config: {} }));
def("builtin-types", "remote-state-backend-cloud", remoteState("net", { backend: "cloud", config: {} }));
def("builtin-types", "remote-state-backend-s3-unknown-key", remoteState("net", { backend: "s3", config: { bucket: "b", key: "k", region: "us-east-1", nope: 1 } }));
def("multi-file-duplicates", "locals-override-existing-name", (m) => void (m.files["override.tf.json"] = { locals: { prefix: "overridden" } }));
def("multi-file-duplicates", "module-override-new-name", (m) => void (m.files["override.tf.json"] = { module: { ghost: { source: "./modules/ghost" } } }));
def("multi-file-duplicates", "module-override-existing", (m, r) => {
  ensureNet(m, r);
  m.files["override.tf.json"] = { module: { net: { cidr: "10.99.0.0/16" } } };
});
def("multi-file-duplicates", "output-override-new-name", (m) => void (m.files["override.tf.json"] = { output: { brand_new: { value: 1 } } }));
def("multi-file-duplicates", "provider-override-new-alias", (m) => void (m.files["override.tf.json"] = { provider: { tsdb: { alias: "brand_new" } } }));
def("multi-file-duplicates", "check-override-new-name", (m) => void (m.files["override.tf.json"] = { check: { brand_new: { assert: [{ condition: "${var.cpu > 0}", error_message: "x" }] } } }));

// eleventh round (independent): provider functions against each module's required_providers
fn("provider-function-undeclared-provider", '${provider::aws::arn_parse("arn:aws:iam::123456789012:role/x")}');
fn("provider-function-upper-namespace", '${Provider::terraform::encode_expr(1)}');
fn("provider-function-core-namespace", '${core::upper("a")}');
fn("provider-function-core-unknown", '${core::nope("a")}');
def("functions", "builtin-function-declared-encode-tfvars", (m) => {
  rootOf(m, "terraform").terraform.required_providers.terraform = { source: "terraform.io/builtin/terraform" };
  setLocal(m, "f", '${provider::terraform::encode_tfvars({ a = 1 })}');
});
def("functions", "builtin-function-declared-unknown-name", (m) => {
  rootOf(m, "terraform").terraform.required_providers.terraform = { source: "terraform.io/builtin/terraform" };
  setLocal(m, "f", "${provider::terraform::nope(1)}");
});
def("functions", "builtin-function-declared-in-resource-argument", (m) => {
  rootOf(m, "terraform").terraform.required_providers.terraform = { source: "terraform.io/builtin/terraform" };
  vpc(m).name = '${provider::terraform::encode_expr("x")}';
});
def("functions", "builtin-function-declared-in-other-file", (m) => {
  m.files["extra.tf.json"] = { locals: { f: "${provider::terraform::encode_expr(1)}" } };
  rootOf(m, "terraform").terraform.required_providers.terraform = { source: "terraform.io/builtin/terraform" };
});
def("functions", "builtin-function-in-child-declared-by-root-only", (m, r) => {
  ensureNet(m, r);
  rootOf(m, "terraform").terraform.required_providers.terraform = { source: "terraform.io/builtin/terraform" };
  m.modules.net["main.tf.json"].locals = { f: "${provider::terraform::encode_expr(1)}" };
});
def("functions", "builtin-function-in-child-declared-by-child", (m, r) => {
  ensureNet(m, r);
  m.modules.net["main.tf.json"].terraform.required_providers.terraform = { source: "terraform.io/builtin/terraform" };
  m.modules.net["main.tf.json"].locals = { f: "${provider::terraform::encode_expr(1)}" };
});
def("functions", "provider-function-of-our-declared-provider", (m) => void setLocal(m, "f", "${provider::tsdb::anything(1)}"));
def("functions", "builtin-function-in-output", (m) => void m.put("output", "adv", { value: '${provider::terraform::encode_tfvars({ a = 1 })}' }));
def("functions", "builtin-function-in-variable-validation", variable("adv", { type: "string", default: "a", validation: [{ condition: '${provider::terraform::encode_expr(var.adv) != ""}', error_message: "x" }] }));

// version constraints, keywords and configuration_aliases as Terraform reads them
def("terraform-json", "required-version-prerelease", (m) => void (rootOf(m, "terraform").terraform.required_version = ">= 1.10.0-beta1"));
def("terraform-json", "required-version-prerelease-no-hyphen", (m) => void (rootOf(m, "terraform").terraform.required_version = ">= 1.2beta"));
def("terraform-json", "required-version-build-metadata", (m) => void (rootOf(m, "terraform").terraform.required_version = ">= 1.2.0+build, < 2"));
def("terraform-json", "required-version-segment-overflow", (m) => void (rootOf(m, "terraform").terraform.required_version = ">= 99999999999999999999"));
def("terraform-json", "provisioner-when-destroy-template", (m) => void (vpc(m).provisioner = { "local-exec": { command: "echo ${var.name_prefix}", when: "${destroy}" } }));
def("terraform-json", "provisioner-when-destroy-spaced", (m) => void (vpc(m).provisioner = { "local-exec": { command: "echo ${var.name_prefix}", when: " destroy " } }));
def("terraform-json", "provisioner-on-failure-spaced", (m) => void (vpc(m).provisioner = { "local-exec": { command: "echo hi", on_failure: "continue " } }));
def("module-calls", "configuration-aliases-template-entry", (m) => {
  if (!m.modules.net) return false;
  m.modules.net["main.tf.json"].terraform.required_providers.tsdb.configuration_aliases = ["${tsdb.peer}"];
});
def("module-calls", "configuration-aliases-other-provider", (m) => {
  if (!m.modules.net) return false;
  m.modules.net["main.tf.json"].terraform.required_providers.tsdb.configuration_aliases = ["containerbackup.peer"];
});
def("module-calls", "configuration-aliases-not-a-list", (m) => {
  if (!m.modules.net) return false;
  m.modules.net["main.tf.json"].terraform.required_providers.tsdb.configuration_aliases = "tsdb.peer";
});

export const MUTATIONS = M;
export const TEXT_MUTATIONS = T;
