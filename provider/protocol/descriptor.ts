// The protocol descriptor (tfplugin6 + go-plugin's GRPCController) as protobufjs JSON.
//
// This file is the development path: it parses the .proto files with the full protobufjs at
// run time. The provider bundle never runs it: scripts/bundle-provider.mjs replaces this module
// with the same descriptor precompiled at build time, so a launched provider neither reads
// .proto files nor loads the protobuf parser.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

export const PROTO_FILES = ["tfplugin6.proto", "grpc_controller.proto"] as const;

export function protoDescriptor(): Record<string, unknown> {
  const require = createRequire(import.meta.url);
  const protobuf = require("protobufjs") as typeof import("protobufjs");
  const files = PROTO_FILES.map((file) => fileURLToPath(new URL(file, import.meta.url)));
  // keepCase: field names stay snake_case, as written in the .proto files.
  const root = new protobuf.Root().loadSync(files, { keepCase: true });
  return root.toJSON() as Record<string, unknown>;
}
