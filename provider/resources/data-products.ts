// data.tsdb_products: the platform's catalog of products and plans (sizes and prices per region).
import type { DataSourceHandler } from "../framework/types.js";
import { type TsdbClient, call } from "./common.js";

export const dataProducts: DataSourceHandler<TsdbClient> = {
  async read({ client }) {
    return (await call("Reading products", () => client.platform.lookups.products())) as never;
  },
};
