// tsdb_peering_connection: VPC or transit-gateway peering from a platform VPC. Every input but
// `peer_cidr_blocks` replaces it. `peering_type` follows from which peer id is set and is known
// at plan time. Create returns once the request is PENDING (waiting for the accepter) or ACTIVE;
// a failed request (INVALID, TIMEOUT, DISABLED) is an error that keeps the object tainted.
// Import: `<peering_connection_id>,<platform_vpc_id>` or the id alone.
import { model } from "../../generated/models/resource.tsdb_peering_connection.js";
import type { PeeringConnection, PeeringInput } from "../../platform/types.js";
import type { ResourceHandler } from "../framework/types.js";
import { type TsdbClient, call, diagnose, firstFound, isNotFound, isSet, matchImport, num, orNull, owned, pick, waitFor, withinTimeout } from "./common.js";

const OWNED = [
  "id",
  "peering_connection_id",
  "platform_vpc_id",
  "peer_account_id",
  "peer_region_code",
  "peer_vpc_id",
  "peer_tgw_id",
  "peer_cidr_blocks",
  "peering_type",
  "provisioned_id",
  "accepter_provisioned_id",
  "status",
  "error_message",
  "vpc_id",
  "peer_cidr",
] as const;

const toState = (p: PeeringConnection) => owned(p, OWNED);

/** A fixed bound like the reference provider's; the platform settles within seconds. */
const CREATE_TIMEOUT_MS = 10 * 60_000;

export const peeringConnection: ResourceHandler<TsdbClient> = {
  modifyPlan({ prior, config, planned, requiresReplace }) {
    if (prior === null || requiresReplace.length > 0) {
      planned.peering_type = isSet(config.peer_tgw_id) ? "tgw" : isSet(config.peer_vpc_id) ? "vpc" : planned.peering_type ?? null;
      planned.peer_cidr = "deprecated";
    }
    return planned;
  },

  async create({ client, desired, signal }) {
    const body = pick<PeeringInput>(desired, ["platform_vpc_id", "peer_account_id", "peer_region_code", "peer_vpc_id", "peer_tgw_id", "peer_cidr_blocks"]);
    const { body: created } = await call("Creating peering connection", () =>
      withinTimeout(CREATE_TIMEOUT_MS, signal, () => client.platform.peering.create(client.projectId, body)),
    );
    const settled = await waitFor(
      {
        poll: () => client.platform.peering.get(client.projectId, created.platform_vpc_id, created.peering_connection_id),
        status: (p) => (p.provisioned_id ? p.status : "PROVISIONING"),
        target: ["PENDING", "ACTIVE"],
        failed: ["INVALID", "TIMEOUT", "DISABLED"],
        failure: (p) => p.error_message,
        timeoutMs: CREATE_TIMEOUT_MS,
        signal,
        what: `peering connection ${created.peering_connection_id}`,
        operation: "create",
        stateOf: toState,
      },
      created,
    );
    return toState(settled);
  },

  async read({ client, state }) {
    const id = num(state.peering_connection_id) ?? num(state.id);
    if (id === undefined) return null;
    const remote = await call("Reading peering connection", () => orNull(() => client.platform.peering.get(client.projectId, num(state.platform_vpc_id), id)));
    return remote && toState(remote);
  },

  async update({ client, prior, planned }) {
    const id = num(prior.peering_connection_id) ?? String(prior.id);
    const blocks = Array.isArray(planned.peer_cidr_blocks) ? (planned.peer_cidr_blocks as string[]) : undefined;
    const { body } = await call("Updating peering connection", () =>
      client.platform.peering.update(client.projectId, num(prior.platform_vpc_id), id, blocks ? { peer_cidr_blocks: blocks } : {}),
    );
    return toState(body);
  },

  async delete({ client, state }) {
    try {
      await client.platform.peering.delete(client.projectId, num(state.platform_vpc_id), num(state.peering_connection_id) ?? String(state.id));
    } catch (error) {
      if (!isNotFound(error)) diagnose(error, "Deleting peering connection");
    }
  },

  async importState({ client, id }) {
    return firstFound(matchImport(model, id), async ({ parts }) => {
      const pcx = parts.peering_connection_id ?? parts.id!;
      const vpc = parts.platform_vpc_id !== undefined ? Number(parts.platform_vpc_id) : undefined;
      const remote = await call("Importing peering connection", () => orNull(() => client.platform.peering.get(client.projectId, vpc, pcx)));
      return remote && toState(remote);
    });
  },
};
