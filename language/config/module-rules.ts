// The rules of a whole module that `terraform validate` applies once every block is declared
// and checked on its own: local module calls, import/moved/removed addresses, variables and
// outputs, override files, required_providers (cycles are checked at the end, module.ts). Each lives in its own file; this runs them in turn.
import type { Ctx } from "./context.js";
import { checkAddresses } from "./moved-import-removed.js";
import { checkModuleCalls } from "./module-calls.js";
import { checkOverrideBases } from "./overrides.js";
import { checkProviderSources, checkRequiredProvidersOnce, checkVersionConstraints } from "./required-providers.js";
import { checkVariablesAndOutputs } from "./variables-outputs.js";
import { checkBackendAndCloud } from "./state-storage.js";

export function checkModuleLevelRules(ctx: Ctx): void {
  checkModuleCalls(ctx);
  checkAddresses(ctx);
  checkVariablesAndOutputs(ctx);
  checkOverrideBases(ctx);
  checkRequiredProvidersOnce(ctx);
  checkVersionConstraints(ctx);
  checkProviderSources(ctx);
  checkBackendAndCloud(ctx);
}
