// tsdb_service. Create and update wait for READY (or PAUSED) within timeouts.create; `paused` is
// honoured at create. A generated initial password lands in state only when neither `password`
// nor `password_wo` is given; `password_wo` never reaches state (the framework nulls it) and is
// applied when `password_wo_version` changes. Endpoints are unknown in a plan only when what
// they depend on changes: hostname/port on `vpc_id`, the pooler endpoint also on
// `connection_pooler_enabled` (null without the pooler), the replica endpoint also on
// `ha_replicas` (null without HA).
import { model } from "../../generated/models/resource.tsdb_service.js";
import { RESTART_SETTINGS } from "../../generated/settings.js";
import type { Service, ServiceInput, ServicePatch } from "../../platform/types.js";
import { LOG_EXPORTER_RESTART_NOTE } from "../../platform/core/services.js";
import { DEFAULT_SERVICE_REGION } from "../../language/schema/region-rules.js";
import type { Value } from "../codec.js";
import { type Body, type CallContext, HandlerError, type Path, type ResourceHandler } from "../framework/types.js";
import {
  type TsdbClient,
  UNKNOWN,
  call,
  changedAttributes,
  diagnose,
  firstFound,
  isNotFound,
  isSet,
  matchImport,
  orNull,
  owned,
  passWarnings,
  same,
  text,
  timeoutMs,
  waitFor,
  warn,
  withinTimeout,
} from "./common.js";

/** What the platform reports (everything but passwords and timeouts). */
const OWNED = [
  "id",
  "name",
  "milli_cpu",
  "memory_gb",
  "region_code",
  "storage_gb",
  "enable_ha_replica",
  "ha_replicas",
  "sync_replicas",
  "connection_pooler_enabled",
  "environment_tag",
  "paused",
  "vpc_id",
  "log_exporter_id",
  "metric_exporter_id",
  "read_replica_source",
  "read_replica_nodes",
  "password_wo_version",
  "deletion_protection",
  "parameters",
  "hostname",
  "port",
  "username",
  "pooler_hostname",
  "pooler_port",
  "replica_hostname",
  "replica_port",
] as const;

/** Attributes an update sends when their planned value differs from the prior one. */
const UPDATABLE = [
  "name",
  "milli_cpu",
  "memory_gb",
  "storage_gb",
  "enable_ha_replica",
  "ha_replicas",
  "sync_replicas",
  "connection_pooler_enabled",
  "environment_tag",
  "paused",
  "vpc_id",
  "log_exporter_id",
  "metric_exporter_id",
  "read_replica_nodes",
  "deletion_protection",
  "parameters",
] as const;

const INPUTS = [...UPDATABLE, "region_code", "read_replica_source", "password", "password_wo", "password_wo_version"] as const;

const SETTLED = ["READY", "PAUSED"] as const;

/**
 * The restart note of a log exporter is shown once per Terraform command: at plan time under
 * `terraform plan`; under `terraform apply`, whose apply walk re-plans and would show it again,
 * only when the update is applied (the platform's warning, in the same wording).
 */
const shownAtPlan = (request: CallContext<TsdbClient>) => (path: Path) => path[0] === "log_exporter_id" && !request.applying?.();

function waitReady(request: CallContext<TsdbClient>, operation: "create" | "update", timeout: number, first: Service): Promise<Service> {
  const { client, signal } = request;
  return waitFor({
    poll: () => client.platform.services.get(client.projectId, first.id),
    status: (s) => s.status,
    target: SETTLED,
    // the data plane could not run it (port taken, initdb failing, disk full): its cause
    failed: ["ERROR"],
    failure: (s) => s.status_message ?? "the data plane could not run the service",
    // a poll of the embedded platform is a local read: a database that is up is seen at once
    maxIntervalMs: client.platform.mode === "embedded" ? 250 : undefined,
    timeoutMs: timeout,
    signal,
    what: `service ${first.id}`,
    operation,
    stateOf: (s) => toState(s),
  }, first);
}

function toState(remote: Service): Body {
  return owned(remote, OWNED);
}

/**
 * Plan-time check that something a service is being attached to (an exporter, a VPC) exists and
 * is in the service's region, so the apply does not fail after other resources were created.
 */
async function checkAttachment(
  request: CallContext<TsdbClient>,
  attachment: { attribute: string; noun: string; id: string | number; regionOf: () => Promise<string> },
  region: Value,
): Promise<void> {
  const { client } = request;
  const { attribute, noun, id } = attachment;
  let found: string;
  try {
    found = await attachment.regionOf();
  } catch (error) {
    if (isNotFound(error)) {
      throw new HandlerError(`The ${noun} does not exist`, {
        path: [attribute],
        detail: `${attribute} is ${JSON.stringify(id)}, but project ${client.projectId} has no ${noun} with that id.`,
      });
    }
    return; // the apply will report anything else
  }
  if (typeof region === "string" && found !== region) {
    throw new HandlerError(`The ${noun} is in another region`, {
      path: [attribute],
      detail: `${noun} ${id} is in ${found}, but the service is in ${region}: a service can only use a ${noun} in its own region.`,
    });
  }
}

function checkExporter(request: CallContext<TsdbClient>, kind: "log" | "metric", id: string, region: Value): Promise<void> {
  const { client } = request;
  const api = kind === "log" ? client.platform.logExporters : client.platform.metricExporters;
  return checkAttachment(request, { attribute: `${kind}_exporter_id`, noun: `${kind} exporter`, id, regionOf: async () => (await api.get(client.projectId, id)).region }, region);
}

function checkVpc(request: CallContext<TsdbClient>, id: number, region: Value): Promise<void> {
  const { client } = request;
  return checkAttachment(request, { attribute: "vpc_id", noun: "VPC", id, regionOf: async () => (await client.platform.vpcs.get(client.projectId, id)).region_code }, region);
}

export const service: ResourceHandler<TsdbClient> = {
  deletionRefusal(state) {
    if (state.deletion_protection !== true) return undefined;
    return {
      attribute: "deletion_protection",
      summary: `Service ${String(state.id)} has deletion_protection = true`,
      detail: "Set deletion_protection = false and apply first, then destroy or replace the service.",
    };
  },

  async modifyPlan(request) {
    const { prior, config, planned, requiresReplace } = request;
    const creating = prior === null || requiresReplace.length > 0;
    // An unknown source still means "a replica" (the value is set, just not known yet).
    const replica = isSet(config.read_replica_source);

    // Passwords: password_wo wins and keeps `password` out of state; a replica shares its
    // source's password; otherwise a generated one appears after create.
    if (isSet(config.password_wo)) planned.password = null;
    else if (!isSet(config.password) && creating) planned.password = replica ? null : UNKNOWN;

    if (!isSet(config.read_replica_nodes) && creating) planned.read_replica_nodes = replica ? 1 : null;

    // A replica without sizes of its own gets its source's; the schema defaults (500/2) do not apply.
    if (replica && !isSet(config.milli_cpu) && !isSet(config.memory_gb)) {
      planned.milli_cpu = creating ? UNKNOWN : prior!.milli_cpu ?? null;
      planned.memory_gb = creating ? UNKNOWN : prior!.memory_gb ?? null;
    }
    // The deprecated enable_ha_replica = true means one HA replica when ha_replicas is not set.
    if (!isSet(config.ha_replicas) && config.enable_ha_replica === true) planned.ha_replicas = 1;

    // The region the checks below compare with: a new service without region_code is in the
    // platform's default region (planned as unknown, being computed), a new replica in its source's.
    const region = isSet(config.region_code) || !creating ? planned.region_code : replica ? UNKNOWN : DEFAULT_SERVICE_REGION;

    // Endpoints.
    const vpcChanged = !creating && !same(planned.vpc_id, prior!.vpc_id);
    if ((creating || vpcChanged) && typeof planned.vpc_id === "number") await checkVpc(request, planned.vpc_id, region);
    if (creating || vpcChanged) {
      planned.hostname = UNKNOWN;
      planned.port = UNKNOWN;
    }
    const pooler = planned.connection_pooler_enabled;
    if (creating || vpcChanged || !same(pooler, prior!.connection_pooler_enabled)) {
      const value = pooler === false ? null : UNKNOWN;
      planned.pooler_hostname = value;
      planned.pooler_port = value;
    }
    const ha = planned.ha_replicas;
    const hadHa = prior ? typeof prior.ha_replicas === "number" && prior.ha_replicas > 0 : false;
    const hasHa = ha === UNKNOWN ? undefined : typeof ha === "number" && ha > 0;
    if (creating || vpcChanged || hasHa !== hadHa) {
      const value = hasHa === false ? null : UNKNOWN;
      planned.replica_hostname = value;
      planned.replica_port = value;
    }

    // Database parameters that take effect only after a restart: say so when they change.
    if (!creating) {
      const before = prior!.parameters ?? {};
      const after = planned.parameters ?? {};
      if (after !== UNKNOWN && before !== UNKNOWN && typeof before === "object" && typeof after === "object" && !Array.isArray(before) && !Array.isArray(after)) {
        const changed = (RESTART_SETTINGS["resource.tsdb_service"]?.parameters ?? []).filter((name) => !same(before[name], after[name]));
        if (changed.length) {
          warn(request, ["parameters"], `Changing ${changed.join(", ")}: PostgreSQL applies ${changed.length === 1 ? "it" : "them"} only after the service restarts, which an update does not do. To restart it, set paused = true and apply, then remove paused (or set it to false) and apply again.`);
        }
      }
    }

    // Exporters being attached: plan-time checks, and the restart note for logs.
    for (const kind of ["log", "metric"] as const) {
      const attribute = `${kind}_exporter_id`;
      const id = planned[attribute];
      if (!isSet(id) || (!creating && same(id, prior![attribute]))) continue;
      if (typeof id === "string") await checkExporter(request, kind, id, region);
      // Only an existing service needs a restart: a new one starts with the exporter attached.
      if (kind === "log" && !creating && !request.applying?.()) warn(request, [attribute], LOG_EXPORTER_RESTART_NOTE);
    }
    return planned;
  },

  async create(request) {
    const { client, planned, desired, signal } = request;
    const body = pickInput(desired);
    const timeout = timeoutMs(planned, "create", model, "45m");
    const { body: created, warnings } = await call("Creating service", () =>
      withinTimeout(timeout, signal, () => client.platform.services.create(client.projectId, body)),
    );
    passWarnings(request, warnings, shownAtPlan(request));
    const ready = await waitReady(request, "create", timeout, created);
    // The generated password is in the create response only (a planned password wins anyway).
    return { ...toState(ready), password: created.password ?? null };
  },

  async read({ client, state }) {
    const id = text(state.id);
    if (!id) return null;
    const remote = await call("Reading service", () => orNull(() => client.platform.services.get(client.projectId, id)));
    return remote && toState(remote);
  },

  async update(request) {
    const { client, prior, planned, config, signal } = request;
    const timeout = timeoutMs(planned, "update", model, "45m");
    const deadline = Date.now() + timeout;
    const id = String(prior.id);
    const patch = changedAttributes(planned, prior, UPDATABLE) as ServicePatch;
    if (isSet(config.password) && !isSet(config.password_wo) && !same(planned.password, prior.password)) patch.password = text(planned.password);
    if (!same(planned.password_wo_version, prior.password_wo_version)) {
      patch.password_wo_version = typeof planned.password_wo_version === "number" ? planned.password_wo_version : null;
      if (typeof config.password_wo === "string") patch.password_wo = config.password_wo;
    }
    let current: Service;
    if (Object.keys(patch).length > 0) {
      const { body, warnings } = await call("Updating service", () => withinTimeout(timeout, signal, () => client.platform.services.update(client.projectId, id, patch)));
      passWarnings(request, warnings, shownAtPlan(request));
      current = body;
    } else {
      current = await call("Reading service", () => withinTimeout(timeout, signal, () => client.platform.services.get(client.projectId, id)));
    }
    const ready = await waitReady(request, "update", Math.max(0, deadline - Date.now()), current);
    return toState(ready);
  },

  async delete({ client, state, signal }) {
    const id = String(state.id);
    const timeout = timeoutMs(state, "delete", model, "10m");
    try {
      await withinTimeout(timeout, signal, () => client.platform.services.delete(client.projectId, id));
    } catch (error) {
      if (!isNotFound(error)) diagnose(error, "Deleting service");
    }
  },

  async importState({ client, id }) {
    return firstFound(matchImport(model, id), async ({ parts }) => {
      const remote = await call("Importing service", () => orNull(() => client.platform.services.get(client.projectId, parts.id!)));
      return remote && toState(remote);
    });
  },
};

function pickInput(desired: Body): ServiceInput {
  const out: Record<string, unknown> = {};
  for (const name of INPUTS) if (isSet(desired[name])) out[name] = desired[name];
  return out as ServiceInput;
}
