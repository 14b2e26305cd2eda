// Everything a provider process needs after the handshake: the framework and the provider
// definitions. provider/main.ts imports this module dynamically, on the first RPC only, and
// the bundle keeps it as a separately compiled unit (scripts/bundle-provider.mjs) so that
// starting the process does not even parse it.
import { routerFor } from "./framework/rpc.js";
import type { ProviderName } from "./names.js";
import { PROVIDERS } from "./providers.js";

export async function createRouter(name: ProviderName) {
  return routerFor(await PROVIDERS[name]());
}
