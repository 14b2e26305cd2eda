// Reading live resources from the platform: by import identifier (every format of every type)
// and by discovery (everything in the configured projects).

import type { PlatformClient } from "../../platform/types.js";
import { canonicalImportId, isImportType, malformedIdMessage, matchImportId, unknownTypeMessage, type ParsedImportId } from "./ids.js";
import { ImportError, type ImportRequest, type ImportType, type LiveResource } from "./types.js";

export interface ReadContext {
  client: PlatformClient;
  /** the client for restore channels (defaults to `client`) */
  containerbackupClient?: PlatformClient;
  tsdbProject?: string;
  containerbackupProject?: string;
}

/** A platform `not_found` error (both clients throw `PlatformError` with a `code`). */
function isNotFound(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "not_found";
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const NOUN: Record<ImportType, string> = {
  tsdb_service: "service",
  tsdb_vpcs: "VPC",
  tsdb_peering_connection: "peering connection",
  tsdb_log_exporter: "log exporter",
  tsdb_metric_exporter: "metric exporter",
  tsdb_connector_obj_store: "object-store connector",
  tsdb_connector_src_db: "source-database connector",
  containerbackup_restore_channel: "restore channel",
};

type Body = Record<string, unknown>;

/** Reads one resource by the parts of a matched format; `undefined` when it does not exist. */
async function readByParts(ctx: ReadContext, type: ImportType, match: ParsedImportId): Promise<Body | undefined> {
  const p = match.parts;
  const project = ctx.tsdbProject!;
  const c = ctx.client;
  try {
    switch (type) {
      case "containerbackup_restore_channel": {
        const client = ctx.containerbackupClient ?? ctx.client;
        const owner = p.project ?? ctx.containerbackupProject!;
        return (await client.restoreChannels.get(`projects/${owner}/locations/${p.location}/restoreChannels/${p.name}`)) as unknown as Body;
      }
      case "tsdb_service":
        return (await c.services.get(project, p.id!)) as unknown as Body;
      case "tsdb_vpcs":
        return (p.id !== undefined ? await c.vpcs.get(project, p.id) : await c.vpcs.getByName(project, p.name!)) as unknown as Body;
      case "tsdb_peering_connection": {
        const vpc = p.platform_vpc_id !== undefined ? Number(p.platform_vpc_id) : undefined;
        const id = p.peering_connection_id ?? p.id!;
        return (await c.peering.get(project, vpc, id)) as unknown as Body;
      }
      case "tsdb_log_exporter":
        return (await c.logExporters.get(project, p.id!)) as unknown as Body;
      case "tsdb_metric_exporter":
        return (await c.metricExporters.get(project, p.id!)) as unknown as Body;
      case "tsdb_connector_obj_store":
      case "tsdb_connector_src_db": {
        const api = type === "tsdb_connector_obj_store" ? c.objStoreConnectors : c.srcDbConnectors;
        const body = (await api.get(project, p.id!)) as unknown as Body;
        // `<service_id>:<id>` names the service too: a connector of another service is not it.
        if (p.service_id !== undefined && body.service_id !== p.service_id) return undefined;
        return body;
      }
    }
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

function where(ctx: ReadContext, type: ImportType, match: ParsedImportId): string {
  if (type === "containerbackup_restore_channel") return `project "${match.parts.project ?? ctx.containerbackupProject}"`;
  return `project "${ctx.tsdbProject}"`;
}

/**
 * Reads the resources named by `TYPE ID` requests. Every request is checked before failing: the
 * error lists every unknown type, malformed identifier and missing resource.
 */
export async function readRequests(ctx: ReadContext, requests: ImportRequest[]): Promise<LiveResource[]> {
  const problems: string[] = [];
  const found: LiveResource[] = [];
  for (const request of requests) {
    const at = request.origin ? `${request.origin}: ` : "";
    if (!isImportType(request.type)) {
      problems.push(`${at}${unknownTypeMessage(request.type)}`);
      continue;
    }
    const type = request.type;
    const matches = matchImportId(type, request.id);
    if (matches.length === 0) {
      problems.push(`${at}${malformedIdMessage(type, request.id)}`);
      continue;
    }
    if (type === "containerbackup_restore_channel") {
      if (matches.every((m) => m.parts.project === undefined) && !ctx.containerbackupProject) {
        problems.push(
          `${at}${type} "${request.id}" has no project ("{location}/{name}"): give the project with --project or CONTAINERBACKUP_PROJECT, or use "projects/{project}/locations/{location}/restoreChannels/{name}"`,
        );
        continue;
      }
    } else if (!ctx.tsdbProject) {
      problems.push(`${at}${type} "${request.id}": no tsdb project is configured: give it with --project or TSDB_PROJECT_ID`);
      continue;
    }
    let body: Body | undefined;
    try {
      // The first matching format wins; a VPC name made of digits is tried as a name as well.
      for (const match of matches) {
        body = await readByParts(ctx, type, match);
        if (body) break;
      }
    } catch (error) {
      // Refused credentials fail every request alike: one message that says which to set.
      if ((error as { code?: string }).code === "unauthenticated") throw error;
      problems.push(`${at}${type} "${request.id}": could not be read: ${errorText(error)}`);
      continue;
    }
    if (!body) {
      const m = matches[0]!;
      const extra = m.parts.service_id !== undefined ? ` (of service "${m.parts.service_id}")` : "";
      problems.push(`${at}${type} "${request.id}" (format "${m.format}") matches no existing ${NOUN[type]}${extra} in ${where(ctx, type, m)}`);
      continue;
    }
    found.push({ type, importId: canonicalImportId(type, body), body });
  }
  if (problems.length > 0) throw new ImportError(problems);
  return dedupe(found);
}

export interface DiscoverOptions {
  /** restore channel locations; empty or undefined: every location of the project */
  locations?: string[];
}

/**
 * Lists everything in the configured projects: services, VPCs and their peering connections,
 * exporters and the connectors of each service (tsdb project), and restore channels in the given
 * locations (containerbackup project). A provider without a project is skipped.
 */
export async function discover(ctx: ReadContext, options: DiscoverOptions = {}): Promise<LiveResource[]> {
  const out: LiveResource[] = [];
  const add = (type: ImportType, items: unknown[]) => {
    for (const item of items) {
      const body = item as Body;
      out.push({ type, importId: canonicalImportId(type, body), body });
    }
  };
  if (ctx.tsdbProject) {
    const project = ctx.tsdbProject;
    const c = ctx.client;
    const [services, vpcs, logs, metrics] = await Promise.all([
      c.services.list(project),
      c.vpcs.list(project),
      c.logExporters.list(project),
      c.metricExporters.list(project),
    ]);
    add("tsdb_vpcs", vpcs);
    for (const vpc of vpcs) add("tsdb_peering_connection", await c.peering.list(project, vpc.vpcs_id));
    add("tsdb_log_exporter", logs);
    add("tsdb_metric_exporter", metrics);
    add("tsdb_service", services);
    for (const service of services) {
      add("tsdb_connector_obj_store", await c.objStoreConnectors.list(project, service.id));
      add("tsdb_connector_src_db", await c.srcDbConnectors.list(project, service.id));
    }
  }
  if (ctx.containerbackupProject) {
    const client = ctx.containerbackupClient ?? ctx.client;
    const locations = options.locations && options.locations.length > 0 ? [...new Set(options.locations)] : [undefined];
    for (const location of locations) add("containerbackup_restore_channel", await client.restoreChannels.list(ctx.containerbackupProject, location));
  } else if (options.locations && options.locations.length > 0) {
    throw new ImportError(["--location lists restore channels, but no containerbackup project is configured: give it with --project or CONTAINERBACKUP_PROJECT"]);
  }
  return dedupe(out);
}

/** Drops repeats of the same resource (same type and canonical identifier), keeping the first. */
export function dedupe(resources: LiveResource[]): LiveResource[] {
  const seen = new Set<string>();
  return resources.filter((r) => {
    const key = `${r.type}\u0000${r.importId}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
