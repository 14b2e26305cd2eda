// The `schemaform/tsdb` entry point: the tsdb provider, its resources and data sources.
// Each class loads its validator only when a stack that uses it is synthesized.

export * from "../generated/constructs/tsdb/provider.js";
export * from "../generated/constructs/tsdb/service.js";
export * from "../generated/constructs/tsdb/vpcs.js";
export * from "../generated/constructs/tsdb/peering-connection.js";
export * from "../generated/constructs/tsdb/connector-obj-store.js";
export * from "../generated/constructs/tsdb/connector-src-db.js";
export * from "../generated/constructs/tsdb/log-exporter.js";
export * from "../generated/constructs/tsdb/metric-exporter.js";
export * from "../generated/constructs/tsdb/data-service.js";
export * from "../generated/constructs/tsdb/data-products.js";
export * from "../generated/constructs/tsdb/data-vpcs.js";
