// data.tsdb_vpcs: every VPC of the project with its peering connections, read live.
import type { DataSourceHandler } from "../framework/types.js";
import { type TsdbClient, call } from "./common.js";

export const dataVpcs: DataSourceHandler<TsdbClient> = {
  async read({ client }) {
    return (await call("Reading VPCs", () => client.platform.lookups.vpcs(client.projectId))) as never;
  },
};
