// tsdb_vpcs (one VPC per resource). Create waits for CREATED within timeouts.create; update and
// delete retry transient failures within timeouts.update / timeouts.delete; only `name`
// changes in place (cidr and region_code replace it). Import by id or by name.
import { model } from "../../generated/models/resource.tsdb_vpcs.js";
import type { Vpc, VpcInput } from "../../platform/types.js";
import type { ResourceHandler } from "../framework/types.js";
import { type TsdbClient, call, diagnose, firstFound, isNotFound, isSet, matchImport, num, orNull, owned, pick, same, text, timeoutMs, waitFor, warn, withinTimeout } from "./common.js";

const OWNED = ["id", "vpcs_id", "name", "cidr", "region_code", "project_id", "provisioned_id", "status", "error_message", "created", "updated"] as const;

const toState = (vpc: Vpc) => owned(vpc, OWNED);

export const vpcs: ResourceHandler<TsdbClient> = {
  // A replaced VPC is destroyed first by default, which the platform refuses while services use
  // it: say so at plan, with the pattern that works, instead of failing halfway through apply.
  async modifyPlan(request) {
    const { client, prior, config, requiresReplace } = request;
    if (prior === null || requiresReplace.length === 0) return;
    const vpcId = num(prior.vpcs_id) ?? num(prior.id);
    if (vpcId === undefined) return;
    let attached: string[];
    try {
      attached = (await client.platform.services.list(client.projectId)).filter((s) => s.vpc_id === vpcId).map((s) => s.id);
    } catch {
      return; // the apply reports what is wrong with the platform
    }
    if (attached.length === 0) return;
    // Already done what the warning recommends: the new VPC is created first.
    if (await request.createsBeforeDestroying?.(config)) return;
    const changing = requiresReplace.map((path) => String(path[0])).join(" and ");
    const keepsName = isSet(config.name) && same(config.name, prior.name);
    warn(
      request,
      requiresReplace[0]!,
      `Changing ${changing} replaces VPC ${vpcId}, which service${attached.length > 1 ? "s" : ""} ${attached.join(", ")} use${attached.length > 1 ? "" : "s"}. ` +
        "By default Terraform destroys the old VPC first, and the platform refuses to delete a VPC that services use. " +
        "Add lifecycle { create_before_destroy = true } to this VPC so that the new one is created and the services move to it before the old one is deleted" +
        (keepsName ? `; VPC names are unique in a project, so also change or remove name (${JSON.stringify(config.name)}).` : "."),
    );
  },

  async create({ client, planned, desired, signal }) {
    const body = pick<VpcInput>(desired, ["cidr", "region_code", "name"]);
    const timeout = timeoutMs(planned, "create", model, "5m");
    const { body: created } = await call("Creating VPC", () => withinTimeout(timeout, signal, () => client.platform.vpcs.create(client.projectId, body)));
    const ready = await waitFor(
      {
        poll: () => client.platform.vpcs.get(client.projectId, created.vpcs_id),
        status: (v) => v.status,
        target: ["CREATED"],
        failed: ["ERROR"],
        failure: (v) => v.error_message,
        timeoutMs: timeout,
        signal,
        what: `VPC ${created.name} (${created.vpcs_id})`,
        operation: "create",
        stateOf: toState,
      },
      created,
    );
    return toState(ready);
  },

  async read({ client, state }) {
    const id = num(state.vpcs_id) ?? num(state.id);
    if (id === undefined) return null;
    const remote = await call("Reading VPC", () => orNull(() => client.platform.vpcs.get(client.projectId, id)));
    return remote && toState(remote);
  },

  async update({ client, prior, planned, signal }) {
    const id = num(prior.vpcs_id) ?? String(prior.id);
    const name = text(planned.name);
    const timeout = timeoutMs(planned, "update", model, "5m");
    const { body } = await call("Updating VPC", () =>
      withinTimeout(timeout, signal, () => client.platform.vpcs.update(client.projectId, id, name === undefined ? {} : { name })),
    );
    return toState(body);
  },

  async delete({ client, state, signal }) {
    const timeout = timeoutMs(state, "delete", model, "5m");
    try {
      await withinTimeout(timeout, signal, () => client.platform.vpcs.delete(client.projectId, num(state.vpcs_id) ?? String(state.id)));
    } catch (error) {
      if (!isNotFound(error)) diagnose(error, "Deleting VPC");
    }
  },

  // `{id}` (all digits) is tried first, then `{name}`.
  async importState({ client, id }) {
    return firstFound(matchImport(model, id), async ({ parts }) => {
      const remote =
        parts.id !== undefined
          ? await call("Importing VPC", () => orNull(() => client.platform.vpcs.get(client.projectId, parts.id!)))
          : await call("Importing VPC", () => orNull(() => client.platform.vpcs.getByName(client.projectId, parts.name!)));
      return remote && toState(remote);
    });
  },
};
