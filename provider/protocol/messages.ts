// Protobuf message types of the plugin protocol as protobufjs reflection objects, built from the
// descriptor on first use: what the tests' clients and tools use. The provider's own RPC path
// encodes and decodes with protocol/wire.ts instead, which needs no code generation at run time
// (and gives the same bytes and the same decoded messages).
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

export { bytesOf } from "./wire.js";
