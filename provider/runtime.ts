// Everything a provider process needs after the handshake: the framework and the provider
// definitions, for every provider. The executable loads the narrower provider/runtimes/<name>.ts
// of the provider it serves (dynamically, on the first RPC that needs it; the bundle keeps each
// as a separately compiled unit, see scripts/bundle-provider.mjs); this module serves the build,
// which asks it for the static answers of every provider (provider/static-responses.ts).
import { routerFor } from "./framework/rpc.js";
import { PROVIDER_NAMES, type ProviderName } from "./names.js";
import { PROVIDERS } from "./providers.js";

export async function createRouter(name: ProviderName) {
  return routerFor(await PROVIDERS[name]());
}

/** The RPCs whose answer depends on nothing but the build. */
export const STATIC_METHODS = ["/tfplugin6.Provider/GetProviderSchema"] as const;

/**
 * The answers to STATIC_METHODS of every provider, computed once at build time by
 * scripts/bundle-provider.mjs (provider/static-responses.ts): a process that Terraform starts
 * only to read the schema then never compiles this module.
 */
export async function staticResponses(): Promise<Record<string, Record<string, Uint8Array>>> {
  const out: Record<string, Record<string, Uint8Array>> = {};
  for (const name of PROVIDER_NAMES) {
    const route = await createRouter(name);
    out[name] = {};
    for (const method of STATIC_METHODS) out[name][method] = await route(method)!(new Uint8Array(0));
  }
  return out;
}
