// Protobuf message types of the plugin protocol, built from the descriptor on first use.
// protobufjs/light only reflects the descriptor; per-type encoders are generated lazily by
// protobufjs the first time a type is used, so start-up pays for nothing it does not need.
import protobuf from "protobufjs/light.js";
import { protoDescriptor } from "./descriptor.js";

export type MessageType = protobuf.Type;

export interface MethodTypes {
  request: MessageType;
  response: MessageType;
}

let root: protobuf.Root | undefined;
const methods = new Map<string, MethodTypes | null>();

function protoRoot(): protobuf.Root {
  if (!root) {
    // int64 fields (versions, list indexes, item counts) are small: decode them as plain
    // numbers instead of Long objects, whether or not the `long` package is around.
    (protobuf.util as { Long: unknown }).Long = null;
    protobuf.configure();
    root = protobuf.Root.fromJSON(protoDescriptor() as protobuf.INamespace);
  }
  return root;
}

/** The request/response types of a gRPC method path such as "/tfplugin6.Provider/ReadResource". */
export function methodTypes(path: string): MethodTypes | undefined {
  let found = methods.get(path);
  if (found === undefined) {
    found = null;
    const match = /^\/([\w.]+)\/(\w+)$/.exec(path);
    if (match) {
      const service = protoRoot().lookup(match[1]!);
      if (service instanceof protobuf.Service) {
        const method = service.methods[match[2]!];
        if (method && !method.requestStream && !method.responseStream) {
          method.resolve();
          found = { request: method.resolvedRequestType!, response: method.resolvedResponseType! };
        }
      }
    }
    methods.set(path, found);
  }
  return found ?? undefined;
}

export function messageType(name: string): MessageType {
  return protoRoot().lookupType(name);
}

/** Bytes of a decoded `bytes` field; protobufjs leaves an empty array for absent ones. */
export function bytesOf(value: unknown): Uint8Array | undefined {
  return value instanceof Uint8Array && value.length > 0 ? value : undefined;
}
