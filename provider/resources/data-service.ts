// data.tsdb_service: one service of the project, read live, in the lookup's shape.
import type { DataSourceHandler } from "../framework/types.js";
import { type TsdbClient, call, isNotFound, text } from "./common.js";
import { HandlerError } from "../framework/types.js";

export const dataService: DataSourceHandler<TsdbClient> = {
  async read({ client, config }) {
    const id = text(config.id);
    if (!id) throw new HandlerError("The service id is not known", { path: ["id"] });
    try {
      return (await client.platform.lookups.service(client.projectId, id)) as never;
    } catch (error) {
      if (isNotFound(error)) {
        throw new HandlerError("No such service", { path: ["id"], detail: `Project ${client.projectId} has no service with id "${id}".` });
      }
      return call("Reading service", () => Promise.reject(error));
    }
  },
};
