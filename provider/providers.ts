// The provider definitions (provider/definitions/), by name. Only the runtime loads this module.
import type { ProviderDefinition } from "./framework/types.js";
import type { ProviderName } from "./names.js";

export const PROVIDERS: Record<ProviderName, () => Promise<ProviderDefinition<any>>> = {
  tsdb: () => import("./definitions/tsdb.js").then((m) => m.default as ProviderDefinition<any>),
  containerbackup: () => import("./definitions/containerbackup.js").then((m) => m.default as ProviderDefinition<any>),
};
