// Where the exporters that would send data off the machine deliver instead: files under the data
// directory (nothing ever leaves the machine).
//
//   <data dir>/sinks/metrics/cloudmon/<namespace>/<service id>.jsonl   cloudmon metric exporters
//   <data dir>/sinks/metrics/saasmon/<site>/<service id>.jsonl         saasmon metric exporters
//   <data dir>/sinks/logs/<log_group_name>/<log_stream_name>.log       log exporters (log-sink.ts)
//
// Names taken from the configuration are percent-encoded into one path segment each (as in a
// URL: `/aws/rds/app` is `%2Faws%2Frds%2Fapp`), so no name can reach outside its directory.
//
// A metric line is one sample: {"time","exporter_id","service_id","metric","type","labels","value"}.
// The metric sinks collect every `intervalMs` (60 s by default) when the agent calls `sync`.

import { appendFile, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { AdminConnection } from "../driver.js";
import { collectServiceMetrics } from "./metrics.js";
import type { ExporterRunStatus } from "./pullmon.js";

export const DEFAULT_METRICS_INTERVAL_MS = 60_000;

/** One configuration value as a single safe file-name segment. */
export function sinkSegment(name: string): string {
  const encoded = encodeURIComponent(name);
  // "." and ".." are left alone by encodeURIComponent but mean something to a file system
  return encoded === "." || encoded === ".." ? encoded.replace(/\./g, "%2E") : encoded;
}

export function metricSinkFile(dataDir: string, destination: "cloudmon" | "saasmon", scope: string, serviceId: string): string {
  return join(dataDir, "sinks", "metrics", destination, sinkSegment(scope), `${sinkSegment(serviceId)}.jsonl`);
}

export function logSinkFile(dataDir: string, logGroupName: string, logStreamName: string): string {
  return join(dataDir, "sinks", "logs", sinkSegment(logGroupName), `${sinkSegment(logStreamName)}.log`);
}

export interface SinkService {
  id: string;
  name: string;
  target: AdminConnection;
}

/** One cloudmon or saasmon metric exporter as it should deliver. */
export interface MetricSinkExporter {
  exporterId: string;
  destination: "cloudmon" | "saasmon";
  /** cloudmon: `namespace`; saasmon: `site` */
  scope: string;
  services: SinkService[];
}

export interface MetricSinkOptions {
  dataDir: string;
  /** how often each exporter writes its services' samples; 60 s by default */
  intervalMs?: number;
}

export class MetricSinks {
  private readonly intervalMs: number;
  /** when each exporter last delivered (epoch ms), by exporter id */
  private readonly delivered = new Map<string, number>();

  constructor(private readonly options: MetricSinkOptions) {
    this.intervalMs = options.intervalMs ?? DEFAULT_METRICS_INTERVAL_MS;
  }

  /**
   * Delivers for every desired exporter whose interval has passed (a new one at once); forgets
   * the others. A service whose database does not answer is delivered as `tsdb_up 0`.
   */
  async sync(desired: MetricSinkExporter[], now = Date.now()): Promise<Map<string, ExporterRunStatus>> {
    const ids = new Set(desired.map((e) => e.exporterId));
    for (const id of this.delivered.keys()) if (!ids.has(id)) this.delivered.delete(id);
    const statuses = new Map<string, ExporterRunStatus>();
    await Promise.all(
      desired.map(async (exporter) => {
        const last = this.delivered.get(exporter.exporterId);
        if (last !== undefined && now - last < this.intervalMs) {
          statuses.set(exporter.exporterId, { status: "serving" });
          return;
        }
        try {
          await this.deliver(exporter, now);
          this.delivered.set(exporter.exporterId, now);
          statuses.set(exporter.exporterId, { status: "serving" });
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          statuses.set(exporter.exporterId, { status: "failed", message: `cannot write the metric sink: ${code ?? (error as Error).message}` });
        }
      }),
    );
    return statuses;
  }

  private async deliver(exporter: MetricSinkExporter, now: number): Promise<void> {
    const time = new Date(now).toISOString();
    for (const service of exporter.services) {
      const samples = await collectServiceMetrics(service.target, service);
      const lines = samples.map((s) =>
        JSON.stringify({ time, exporter_id: exporter.exporterId, service_id: service.id, metric: s.family.name, type: s.family.type, labels: s.labels, value: Number.isFinite(s.value) ? s.value : null }),
      );
      const file = metricSinkFile(this.options.dataDir, exporter.destination, exporter.scope, service.id);
      await mkdir(dirname(file), { recursive: true });
      await appendFile(file, lines.map((l) => `${l}\n`).join(""));
    }
  }
}
