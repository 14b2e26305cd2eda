// The tsdb provider's runtime: provider/runtime.ts narrowed to one provider. The executable
// loads only the runtime of the provider it serves, and scripts/bundle-provider.mjs leaves the
// other provider's generated validators and models out of it, so there is less to compile.
import definition from "../definitions/tsdb.js";
import { routerFor } from "../framework/rpc.js";
import type { ConnectionOptions } from "../framework/server.js";

export function createRouter(connection?: ConnectionOptions) {
  return routerFor(definition, connection);
}
