// tsdb_connector_obj_store: loads files from an object-store bucket into a table of a service.
// `service_id` replaces it; everything else changes in place (the platform pauses the connector
// around the change). Import: `<service_id>:<connector_id>` or the connector id.
import { model } from "../../generated/models/resource.tsdb_connector_obj_store.js";
import type { ObjStoreConnector, ObjStoreConnectorInput, ObjStoreConnectorPatch } from "../../platform/types.js";
import type { ResourceHandler } from "../framework/types.js";
import { type TsdbClient, call, changedAttributes, diagnose, firstFound, isNotFound, matchImport, orNull, owned, pick, text } from "./common.js";

const INPUTS = ["service_id", "bucket", "pattern", "credentials", "definition", "table_identifier", "name", "enabled", "frequency", "on_conflict_do_nothing"] as const;
const UPDATABLE = INPUTS.filter((name) => name !== "service_id");
const OWNED = ["id", ...INPUTS, "created_at", "updated_at"] as const;

const toState = (c: ObjStoreConnector) => owned(c, OWNED);

export const connectorObjStore: ResourceHandler<TsdbClient> = {
  async create({ client, desired }) {
    const body = pick<ObjStoreConnectorInput>(desired, INPUTS);
    const { body: created } = await call("Creating object store connector", () => client.platform.objStoreConnectors.create(client.projectId, body));
    return toState(created);
  },

  async read({ client, state }) {
    const id = text(state.id);
    if (!id) return null;
    const remote = await call("Reading object store connector", () => orNull(() => client.platform.objStoreConnectors.get(client.projectId, id)));
    return remote && toState(remote);
  },

  async update({ client, prior, desired }) {
    const patch = changedAttributes(desired, prior, UPDATABLE) as ObjStoreConnectorPatch;
    const { body } = await call("Updating object store connector", () => client.platform.objStoreConnectors.update(client.projectId, String(prior.id), patch));
    return toState(body);
  },

  async delete({ client, state }) {
    try {
      await client.platform.objStoreConnectors.delete(client.projectId, String(state.id));
    } catch (error) {
      if (!isNotFound(error)) diagnose(error, "Deleting object store connector");
    }
  },

  async importState({ client, id }) {
    return firstFound(matchImport(model, id), async ({ parts }) => {
      const remote = await call("Importing object store connector", () => orNull(() => client.platform.objStoreConnectors.get(client.projectId, parts.id!)));
      if (remote && parts.service_id !== undefined && remote.service_id !== parts.service_id) return null;
      return remote && toState(remote);
    });
  },
};
