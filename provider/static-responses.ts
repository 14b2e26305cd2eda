// Answers that never change for a build, per provider and gRPC method path, as base64 protobuf
// bytes: the transport serves them without loading the runtime (provider/runtime.ts).
//
// This file is the development path (nothing precomputed: every RPC goes to the runtime).
// scripts/bundle-provider.mjs replaces it in the bundle with what the runtime's
// `staticResponses()` answers at build time.
export const staticResponses: Record<string, Record<string, string>> | undefined = undefined;
