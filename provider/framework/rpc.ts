// Binds ProviderServer methods to gRPC method paths, with protobuf decoding and encoding.
// Methods not listed here (ephemeral resources, functions, MoveResourceState, go-plugin's
// stdio and broker streams) are answered UNIMPLEMENTED by the transport.
import { methodTypes } from "../protocol/messages.js";
import { ProviderServer } from "./server.js";
import type { ProviderDefinition } from "./types.js";

type Handler = (request: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>;

export type UnaryCall = (request: Uint8Array) => Promise<Uint8Array>;

const PROVIDER = "/tfplugin6.Provider/";

function handlers(server: ProviderServer<unknown>): Record<string, Handler> {
  return {
    GetMetadata: () => server.getMetadata(),
    GetProviderSchema: () => server.getProviderSchema(),
    ValidateProviderConfig: (r) => server.validateProviderConfig(r),
    ValidateResourceConfig: (r) => server.validateResourceConfig(r),
    ValidateDataResourceConfig: (r) => server.validateDataResourceConfig(r),
    UpgradeResourceState: (r) => server.upgradeResourceState(r),
    ConfigureProvider: (r) => server.configureProvider(r),
    ReadResource: (r) => server.readResource(r),
    PlanResourceChange: (r) => server.planResourceChange(r),
    ApplyResourceChange: (r) => server.applyResourceChange(r),
    ImportResourceState: (r) => server.importResourceState(r),
    ReadDataSource: (r) => server.readDataSource(r),
    StopProvider: () => server.stopProvider(),
  };
}

/** Resolves a method path to a bytes-in, bytes-out call, or undefined when we do not serve it. */
export function providerRouter(server: ProviderServer<unknown>): (path: string) => UnaryCall | undefined {
  const table = handlers(server);
  return (path) => {
    if (!path.startsWith(PROVIDER)) return undefined;
    const handler = table[path.slice(PROVIDER.length)];
    const types = methodTypes(path);
    if (!handler || !types) return undefined;
    return async (bytes) => {
      const request = types.request.decode(bytes) as unknown as Record<string, unknown>;
      const response = await handler(request);
      return types.response.encode(response).finish();
    };
  };
}

/** The router of a provider definition: what a provider's runtime module hands the transport. */
export function routerFor(definition: ProviderDefinition<any>): (path: string) => UnaryCall | undefined {
  return providerRouter(new ProviderServer(definition));
}
