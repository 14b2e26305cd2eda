// Binds ProviderServer methods to gRPC method paths, with protobuf decoding and encoding
// (protocol/wire.ts).
// Methods not listed here (MoveResourceState, go-plugin's stdio and broker streams) are
// answered UNIMPLEMENTED by the transport.
import { protoDescriptor } from "../protocol/descriptor.js";
import { WireTypes } from "../protocol/wire.js";
import { ProviderServer, type ConnectionOptions } from "./server.js";
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
    GetFunctions: () => server.getFunctions(),
    ValidateEphemeralResourceConfig: (r) => server.validateEphemeralResourceConfig(r),
    OpenEphemeralResource: (r) => server.openEphemeralResource(r),
    RenewEphemeralResource: (r) => server.renewEphemeralResource(r),
    CloseEphemeralResource: (r) => server.closeEphemeralResource(r),
    CallFunction: (r) => server.callFunction(r),
    StopProvider: () => server.stopProvider(),
  };
}

let wire: WireTypes | undefined;

/** Resolves a method path to a bytes-in, bytes-out call, or undefined when we do not serve it. */
export function providerRouter(server: ProviderServer<unknown>): (path: string) => UnaryCall | undefined {
  const table = handlers(server);
  return (path) => {
    if (!path.startsWith(PROVIDER)) return undefined;
    const name = path.slice(PROVIDER.length);
    const handler = Object.prototype.hasOwnProperty.call(table, name) ? table[name] : undefined;
    if (!handler) return undefined;
    wire ??= new WireTypes(protoDescriptor() as ConstructorParameters<typeof WireTypes>[0]);
    const types = wire.method(path);
    if (!types) return undefined;
    return async (bytes) => {
      const request = types.request.decode(bytes) as unknown as Record<string, unknown>;
      const response = await handler(request);
      return types.response.encode(response);
    };
  };
}

/** A router with the end of its connection: `close` stops its work and releases its client. */
export type ConnectionRouter = ((path: string) => UnaryCall | undefined) & { close(): Promise<void> };

/**
 * The router of a provider definition: what a provider's runtime module hands the transport.
 * One per connection: each has its own server (configuration, client, Stop).
 */
export function routerFor(definition: ProviderDefinition<any>, connection: ConnectionOptions = {}): ConnectionRouter {
  const server = new ProviderServer(definition, connection);
  return Object.assign(providerRouter(server), { close: () => server.close() });
}
