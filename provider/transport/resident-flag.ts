// The command-line flag the launcher starts a resident server with (`--schemaform-resident
// <directory>`; transport/resident.ts). On its own, so the start-up path checks it without
// loading the resident server.
export const RESIDENT_FLAG = "--schemaform-resident";
