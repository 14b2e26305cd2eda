// tsdb_metric_exporter: exports a service's metrics to one of `saasmon`, `pullmon` or `cloudmon`.
import { model } from "../../generated/models/resource.tsdb_metric_exporter.js";
import { exporterHandler } from "./exporter.js";

export const metricExporter = exporterHandler({
  model,
  label: "metric exporter",
  blocks: ["saasmon", "pullmon", "cloudmon"],
  api: (client) => client.platform.metricExporters,
});
