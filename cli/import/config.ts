// From live resources to the configuration that describes them: which attributes to write
// (driven by the type models: no computed-only attributes, no values equal to their default),
// references between imported resources instead of copied ids, variables for secrets, and names.
// The result is format-neutral; emit-hcl.ts and emit-cdktf.ts write it out.

import type { AttributeModel, BlockModel } from "../../language/schema/model-types.js";
import { MODELS } from "./ids.js";
import { assignNames, identifier } from "./naming.js";
import type { ImportType, LiveResource, ProviderName } from "./types.js";

/** A reference to an attribute of another imported resource (`${tsdb_vpcs.main.vpcs_id}`). */
export class Ref {
  constructor(
    readonly target: PlannedResource,
    readonly attribute: string,
  ) {}
}

/** A reference to an input variable (`${var.db_password}`). */
export class VarRef {
  constructor(readonly variable: PlannedVariable) {}
}

/** The attributes of a resource or of a nested object, with the model that describes them. */
export class Fields {
  /** Arguments left out because their value is the default: put back if a rule needs them. */
  readonly omittedDefaults: Record<string, Value> = {};
  constructor(
    readonly block: BlockModel,
    readonly values: Record<string, Value>,
  ) {}
}

/**
 * A configuration value. Strings are the values themselves (not escaped: the emitters escape
 * them); plain objects are maps (keys are data, not attribute names).
 */
export type Value = string | number | boolean | Ref | VarRef | Fields | Value[] | { [key: string]: Value };

export interface PlannedVariable {
  name: string;
  description: string;
  /** the resource it is for, and the attribute path, e.g. "password" or "pullmon.password" */
  resource: PlannedResource;
  attribute: string;
}

export interface PlannedResource {
  type: ImportType;
  provider: ProviderName;
  name: string;
  importId: string;
  live: Record<string, unknown>;
  body: Fields;
  /**
   * Secrets kept in state that the platform never returns (`connection_string`,
   * `cloudmon.secret_key`, a service's `password`, …): after an import their state is null, so a
   * configured value would plan an in-place update. Listed in `lifecycle.ignore_changes` (unless
   * `manageSecrets`), so that adopting a resource neither plans a change nor rewrites a secret;
   * the value still applies when the resource is created or replaced.
   */
  ignoreChanges: string[];
}

export interface ImportPlan {
  /** in dependency order: a resource comes after the resources it references */
  resources: PlannedResource[];
  variables: PlannedVariable[];
  /** whether secrets are managed right away (no `ignore_changes`) */
  manageSecrets: boolean;
  /** providers used, with the settings to write (those not supplied by the environment) */
  providers: Partial<Record<ProviderName, Record<string, string>>>;
  warnings: string[];
}

export interface PlanOptions {
  /** the containerbackup provider's project: a restore channel in it leaves `project` out */
  containerbackupProject?: string;
  providerSettings: Record<ProviderName, Record<string, string>>;
  /**
   * Checks a resource body (canonical: references and variables as unknown values) and returns
   * the paths of errors. An argument left out for being the default is put back when an error
   * points at it (a rule that needs it stated). Without it, defaults are always left out.
   */
  validate?: (type: ImportType, body: unknown) => Array<(string | number)[]>;
  /**
   * Manage secrets from the configuration right away: no `lifecycle.ignore_changes` for them.
   * The first plan then shows an in-place update per secret (state has none after an import),
   * and `apply` sets each secret to its variable's value.
   */
  manageSecrets?: boolean;
}

/** Types in dependency order (referenced types first). */
const ORDER: ImportType[] = [
  "tsdb_log_exporter",
  "tsdb_metric_exporter",
  "tsdb_vpcs",
  "tsdb_peering_connection",
  "tsdb_service",
  "tsdb_connector_obj_store",
  "tsdb_connector_src_db",
  "containerbackup_restore_channel",
];

/** The word used when a resource has no usable name. */
const FALLBACK: Record<ImportType, string> = {
  tsdb_service: "service",
  tsdb_vpcs: "vpc",
  tsdb_peering_connection: "peering",
  tsdb_log_exporter: "log_exporter",
  tsdb_metric_exporter: "metric_exporter",
  tsdb_connector_obj_store: "connector",
  tsdb_connector_src_db: "connector",
  containerbackup_restore_channel: "restore_channel",
};

const NOUN: Record<ImportType, string> = {
  tsdb_service: "service",
  tsdb_vpcs: "VPC",
  tsdb_peering_connection: "peering connection",
  tsdb_log_exporter: "log exporter",
  tsdb_metric_exporter: "metric exporter",
  tsdb_connector_obj_store: "object-store connector",
  tsdb_connector_src_db: "source-database connector",
  containerbackup_restore_channel: "restore channel",
};

/** Where one resource's attribute points at another resource: attribute → (type, attribute matched). */
const REFERENCES: Partial<Record<ImportType, Record<string, { type: ImportType; attribute: string }>>> = {
  tsdb_service: {
    vpc_id: { type: "tsdb_vpcs", attribute: "vpcs_id" },
    log_exporter_id: { type: "tsdb_log_exporter", attribute: "id" },
    metric_exporter_id: { type: "tsdb_metric_exporter", attribute: "id" },
    read_replica_source: { type: "tsdb_service", attribute: "id" },
  },
  tsdb_peering_connection: {
    platform_vpc_id: { type: "tsdb_vpcs", attribute: "vpcs_id" },
  },
  tsdb_connector_obj_store: { service_id: { type: "tsdb_service", attribute: "id" } },
  tsdb_connector_src_db: { service_id: { type: "tsdb_service", attribute: "id" } },
};

/**
 * Attributes whose empty value means "not set": the restore channel's labels are
 * non-authoritative, and a channel without labels is imported with none managed (null).
 */
const EMPTY_MEANS_UNSET: Partial<Record<ImportType, string[]>> = {
  containerbackup_restore_channel: ["labels"],
  tsdb_connector_src_db: ["tables"],
};

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : undefined;
}

/** The free-form name a resource's Terraform name is derived from. */
function baseName(resource: LiveResource, all: LiveResource[]): string {
  const b = resource.body;
  switch (resource.type) {
    case "tsdb_peering_connection": {
      const vpc = all.find((r) => r.type === "tsdb_vpcs" && r.body.vpcs_id === b.platform_vpc_id);
      const from = str(vpc?.body.name) ?? `vpc_${String(b.platform_vpc_id)}`;
      const to = str(b.peer_vpc_id) ?? str(b.peer_tgw_id) ?? str(b.peering_connection_id) ?? "";
      return `${from}_to_${to}`;
    }
    case "tsdb_connector_src_db":
      return str(b.name) ?? str(b.display_name) ?? "";
    default:
      return str(b.name) ?? "";
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => sameValue(a[k], b[k]));
  }
  return false;
}

function isEmptyCollection(value: unknown): boolean {
  return (Array.isArray(value) && value.length === 0) || (isPlainObject(value) && Object.keys(value).length === 0);
}

/** Builds the plan: names, bodies, references, variables. */
export function planImport(live: LiveResource[], options: PlanOptions): ImportPlan {
  const warnings: string[] = [];
  const sorted = [...live].sort((a, b) => ORDER.indexOf(a.type) - ORDER.indexOf(b.type));

  // Names, unique per type (Terraform addresses are `type.name`).
  const names = new Map<LiveResource, string>();
  for (const type of ORDER) {
    const ofType = sorted.filter((r) => r.type === type);
    const assigned = assignNames(ofType.map((r) => ({ item: r, base: identifier(baseName(r, live), FALLBACK[type]), key: r.importId })));
    for (const [r, name] of assigned) names.set(r, name);
  }

  const planned: PlannedResource[] = sorted.map((r) => ({
    type: r.type,
    provider: MODELS[r.type].provider as ProviderName,
    name: names.get(r)!,
    importId: r.importId,
    live: r.body,
    body: new Fields(MODELS[r.type].block, {}),
    ignoreChanges: [],
  }));
  // Within a type, order by name; read replicas after the services they replicate.
  planned.sort((a, b) => ORDER.indexOf(a.type) - ORDER.indexOf(b.type) || replicaRank(a) - replicaRank(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const index = new Map<string, PlannedResource>();
  for (const p of planned) {
    const keys = p.type === "tsdb_vpcs" ? ["vpcs_id", "id", "name"] : ["id"];
    for (const k of keys) if (p.live[k] !== undefined) index.set(`${p.type}\u0000${k}\u0000${String(p.live[k])}`, p);
  }

  const variableRequests: Array<{ variable: PlannedVariable; base: string }> = [];
  const newVariable = (resource: PlannedResource, path: string[], attribute: AttributeModel): VarRef => {
    const ignored = !attribute.writeOnly && !options.manageSecrets;
    const variable: PlannedVariable = { name: "", description: describeSecret(resource, path, attribute, ignored), resource, attribute: path.join(".") };
    variableRequests.push({ variable, base: identifier(`${resource.name}_${path.join("_")}`, "secret") });
    return new VarRef(variable);
  };

  for (const resource of planned) {
    const model = MODELS[resource.type];
    const refs = REFERENCES[resource.type] ?? {};
    const hooks: WalkHooks = {
      reference(path, value) {
        if (path.length !== 1) return undefined;
        const rule = refs[path[0]!];
        if (!rule) return undefined;
        const target = index.get(`${rule.type}\u0000${rule.attribute}\u0000${String(value)}`);
        if (!target) {
          warnings.push(
            `${resource.type}.${resource.name}: ${path[0]} ${JSON.stringify(value)} refers to a ${NOUN[rule.type]} that is not imported; kept as a literal value`,
          );
          return undefined;
        }
        if (target === resource) return undefined;
        return new Ref(target, rule.attribute);
      },
      secret(path, attribute, container) {
        if (!needsSecret(resource, path, attribute, container)) return undefined;
        // Write-only values are never in state: nothing to ignore.
        if (!attribute.writeOnly && !options.manageSecrets) resource.ignoreChanges.push(traversal(path));
        return newVariable(resource, path, attribute);
      },
      skip(path) {
        // A restore channel in the provider's project leaves `project` to the provider.
        if (resource.type === "containerbackup_restore_channel" && path.length === 1 && path[0] === "project") {
          return options.containerbackupProject !== undefined && resource.live.project === options.containerbackupProject;
        }
        return false;
      },
      emptyMeansUnset(path) {
        return (EMPTY_MEANS_UNSET[resource.type] ?? []).includes(path.join("."));
      },
    };
    resource.body = walk(model.block, resource.live, [], hooks);
    if (options.validate) restoreNeededDefaults(resource, options.validate);
  }

  const variableNames = assignNames(variableRequests.map((v) => ({ item: v.variable, base: v.base, key: `${v.variable.resource.type}.${v.variable.resource.name}.${v.variable.attribute}` })));
  for (const [variable, name] of variableNames) variable.name = name;
  const variables = variableRequests.map((v) => v.variable).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const providers: ImportPlan["providers"] = {};
  for (const p of planned) providers[p.provider] = options.providerSettings[p.provider];
  return { resources: planned, variables, manageSecrets: options.manageSecrets === true, providers, warnings };
}

/** An attribute path as Terraform writes it in `ignore_changes`: `cloudmon.secret_key`, `tables[0].x`. */
function traversal(path: string[]): string {
  return path.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

/** The body a validator sees: literal values as they are, references and variables unknown. */
export function canonicalBody(value: Value): unknown {
  if (value instanceof Ref || value instanceof VarRef) return "${unknown}";
  if (value instanceof Fields) return Object.fromEntries(Object.entries(value.values).map(([k, v]) => [k, canonicalBody(v)]));
  if (Array.isArray(value)) return value.map(canonicalBody);
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, canonicalBody(v)]));
  return value;
}

/** Puts back defaults that a rule needs stated (an error points at them), until none is left. */
function restoreNeededDefaults(resource: PlannedResource, validate: NonNullable<PlanOptions["validate"]>): void {
  for (let round = 0; round < 8; round++) {
    let restored = false;
    for (const path of validate(resource.type, canonicalBody(resource.body))) {
      let node: Value | undefined = resource.body;
      for (const segment of path.slice(0, -1)) {
        if (node instanceof Fields) node = node.values[String(segment)];
        else if (Array.isArray(node)) node = node[Number(segment)];
        else node = undefined;
      }
      const last = String(path[path.length - 1]);
      if (node instanceof Fields && last in node.omittedDefaults && !(last in node.values)) {
        node.values[last] = node.omittedDefaults[last]!;
        // Keep the model's order of arguments.
        for (const name of Object.keys(node.block.attributes)) {
          if (!(name in node.values)) continue;
          const value = node.values[name]!;
          delete node.values[name];
          node.values[name] = value;
        }
        restored = true;
      }
    }
    if (!restored) return;
  }
}

function replicaRank(r: PlannedResource): number {
  return r.type === "tsdb_service" && r.live.read_replica_source !== undefined && r.live.read_replica_source !== null ? 1 : 0;
}

interface WalkHooks {
  /** a reference to use instead of the literal value, if the attribute points at an imported resource */
  reference(path: string[], value: unknown): Ref | undefined;
  /** a variable for a sensitive or write-only attribute, when the configuration needs a value */
  secret(path: string[], attribute: AttributeModel, container: Record<string, unknown>): VarRef | undefined;
  /** attributes to leave out for reasons of the type */
  skip(path: string[]): boolean;
  /** whether an empty list or map means the attribute is not set (left out) */
  emptyMeansUnset(path: string[]): boolean;
}

/**
 * The configuration of one object: every argument (required or optional) with a live value,
 * except values equal to the attribute's default; computed-only attributes never; sensitive and
 * write-only attributes only as variables. Nested blocks (`timeouts`) are not live values.
 */
function walk(block: BlockModel, live: Record<string, unknown>, path: string[], hooks: WalkHooks): Fields {
  const fields = new Fields(block, {});
  const values = fields.values;
  for (const attribute of Object.values(block.attributes)) {
    const at = [...path, attribute.name];
    if (!attribute.required && !attribute.optional) continue; // computed-only
    if (hooks.skip(at)) continue;
    if (attribute.sensitive || attribute.writeOnly) {
      // Never a literal, whatever the platform returned.
      const variable = hooks.secret(at, attribute, live);
      if (variable) values[attribute.name] = variable;
      continue;
    }
    const value = live[attribute.name];
    if (value === undefined || value === null) continue;
    const ref = hooks.reference(at, value);
    if (ref) {
      values[attribute.name] = ref;
      continue;
    }
    if (attribute.nested) {
      const nested = attribute.nested;
      if (nested.nesting === "single") {
        if (isPlainObject(value)) values[attribute.name] = walk(nested.block, value, at, hooks);
      } else if (Array.isArray(value)) {
        if (value.length === 0 && !attribute.required && (attribute.computed || hooks.emptyMeansUnset(at))) continue;
        values[attribute.name] = value.filter(isPlainObject).map((item, i) => walk(nested.block, item, [...at, String(i)], hooks));
      }
      continue;
    }
    if (attribute.default !== undefined && attribute.computed && sameValue(value, attribute.default)) {
      fields.omittedDefaults[attribute.name] = literal(value);
      continue;
    }
    // An empty list or map is a value like any other (the provider's state holds it too), except
    // where emptiness means "not managed" (a restore channel's non-authoritative labels).
    if (isEmptyCollection(value) && !attribute.required && (attribute.computed || hooks.emptyMeansUnset(at))) continue;
    values[attribute.name] = literal(value);
  }
  return fields;
}

function literal(value: unknown): Value {
  if (Array.isArray(value)) return value.map(literal);
  if (isPlainObject(value)) {
    const out: Record<string, Value> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = literal(v);
    return out;
  }
  return value as string | number | boolean;
}

/**
 * Whether the configuration needs a value for a sensitive or write-only attribute (which the
 * platform never returns): required ones always; `password` of a service that is not a read
 * replica and has no write-only password; `password_wo` of a service that has a
 * `password_wo_version`; a cloudmon `secret_key` when its `access_key` is set; any other one that
 * the platform did return (its value is still never written).
 */
function needsSecret(resource: PlannedResource, path: string[], attribute: AttributeModel, container: Record<string, unknown>): boolean {
  const name = attribute.name;
  if (resource.type === "tsdb_service" && path.length === 1) {
    const replica = resource.live.read_replica_source !== undefined && resource.live.read_replica_source !== null;
    const writeOnly = resource.live.password_wo_version !== undefined && resource.live.password_wo_version !== null;
    if (name === "password") return !replica && !writeOnly;
    if (name === "password_wo") return !replica && writeOnly;
  }
  if (attribute.required) return true;
  if (name === "secret_key") return typeof container.access_key === "string" && container.access_key !== "";
  return container[name] !== undefined && container[name] !== null;
}

function describeSecret(resource: PlannedResource, path: string[], attribute: AttributeModel, ignored: boolean): string {
  const address = `${resource.type}.${resource.name}`;
  const label = str(resource.live.name) ?? str(resource.live.display_name);
  const what = `${NOUN[resource.type]}${label ? ` "${label}"` : ""} (${address}, import id ${resource.importId})`;
  const attr = traversal(path);
  const note = ignored
    ? ` It is used when the resource is created or replaced; lifecycle.ignore_changes keeps a changed value from being applied until you remove "${attr}" from it.`
    : "";
  if (resource.type === "tsdb_service" && attribute.name === "password") {
    return `Current password of the database user of ${what}. The platform never returns it: give the password in use.${note}`;
  }
  if (resource.type === "tsdb_service" && attribute.name === "password_wo") {
    return `Write-only password of ${what}: the password in use. It is applied again only when password_wo_version changes.`;
  }
  const description = attribute.description.trim().replace(/\s+/g, " ");
  return `${attr} of ${what}: ${description}${/[.!?]$/.test(description) ? "" : "."} The platform never returns it: give the value in use.${note}`;
}
