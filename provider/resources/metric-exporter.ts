// tsdb_metric_exporter: exports a service's metrics to one of `saasmon`, `pullmon` or `cloudmon`;
// a pullmon exporter's scrape URL is the computed `endpoint`.
import { model } from "../../generated/models/resource.tsdb_metric_exporter.js";
import { exporterHandler } from "./exporter.js";

export const metricExporter = exporterHandler({
  model,
  label: "metric exporter",
  blocks: ["saasmon", "pullmon", "cloudmon"],
  hasEndpoint: true,
  api: (client) => client.platform.metricExporters,
});
