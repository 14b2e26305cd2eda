// tsdb_log_exporter: ships a service's logs to a cloud log group (`cloudmon`). Attaching one to a
// service completes after the service restarts (the service handler warns at plan time).
import { model } from "../../generated/models/resource.tsdb_log_exporter.js";
import { exporterHandler } from "./exporter.js";

export const logExporter = exporterHandler({
  model,
  label: "log exporter",
  blocks: ["cloudmon"],
  api: (client) => client.platform.logExporters,
});
