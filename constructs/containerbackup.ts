// The `schemaform/containerbackup` entry point: the containerbackup provider and restore channels.
// Each class loads its validator only when a stack that uses it is synthesized.

export * from "../generated/constructs/containerbackup/provider.js";
export * from "../generated/constructs/containerbackup/restore-channel.js";
