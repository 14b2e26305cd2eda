// What tsdb_log_exporter and tsdb_metric_exporter share. The configuration is one block
// (`cloudmon`, `saasmon` or `pullmon`); `type` is the name of that block and therefore known at
// plan time. The platform never returns the block's secret (`secret_key`, `api_key`,
// `password`): state keeps the configured value. `region` replaces the exporter. A metric
// exporter's `endpoint` (pullmon only) is known after create and kept while it stays pullmon.
import type { ExporterPatch, ExportersApi } from "../../platform/types.js";
import type { Value } from "../codec.js";
import type { Body, ResourceHandler } from "../framework/types.js";
import type { TypeModel } from "../../language/schema/model-types.js";
import { type TsdbClient, UNKNOWN, call, diagnose, firstFound, isNotFound, isSet, matchImport, orNull, owned, text } from "./common.js";

export const SECRET_OF: Record<string, string> = { cloudmon: "secret_key", saasmon: "api_key", pullmon: "password" };

interface ExporterBody {
  id: string;
  region: string;
  name: string;
  created: string;
  type: string;
  endpoint?: string;
}

export interface ExporterKind {
  model: Pick<TypeModel, "type" | "importFormats">;
  /** "log exporter" */
  label: string;
  blocks: readonly string[];
  /** the pullmon scrape URL (metric exporters) */
  hasEndpoint?: boolean;
  api(client: TsdbClient): ExportersApi<any, ExporterBody>;
}

/** The remote exporter as state, with each secret taken from `previous` (config or state). */
function toState(kind: ExporterKind, remote: ExporterBody, previous: Body | null): Body {
  const out = owned(remote, ["id", "region", "name", "created", "type", ...(kind.hasEndpoint ? ["endpoint"] : []), ...kind.blocks]);
  for (const block of kind.blocks) {
    const value = out[block];
    if (value === null || typeof value !== "object" || Array.isArray(value)) continue;
    const before = previous?.[block];
    const secret = SECRET_OF[block]!;
    const kept: Value = before !== null && typeof before === "object" && !Array.isArray(before) ? (before[secret] ?? null) : null;
    out[block] = { ...value, [secret]: kept };
  }
  return out;
}

export function exporterHandler(kind: ExporterKind): ResourceHandler<TsdbClient> {
  return {
    modifyPlan({ config, planned, prior }) {
      const configured = kind.blocks.filter((b) => isSet(config[b]));
      planned.type = configured.length === 1 ? configured[0]! : configured.length === 0 ? null : UNKNOWN;
      if (kind.hasEndpoint) {
        // the port is chosen when the exporter becomes pullmon and kept while it stays pullmon
        const kept = prior?.type === "pullmon" && typeof prior.endpoint === "string";
        planned.endpoint = planned.type === "pullmon" ? (kept ? prior!.endpoint! : UNKNOWN) : planned.type === UNKNOWN ? UNKNOWN : null;
      }
      return planned;
    },

    async create({ client, desired, planned }) {
      const body: Record<string, unknown> = { region: desired.region };
      if (isSet(desired.name)) body.name = desired.name;
      for (const b of kind.blocks) if (isSet(desired[b])) body[b] = desired[b];
      const { body: created } = await call(`Creating ${kind.label}`, () => kind.api(client).create(client.projectId, body));
      return toState(kind, created, planned);
    },

    async read({ client, state }) {
      const id = text(state.id);
      if (!id) return null;
      const remote = await call(`Reading ${kind.label}`, () => orNull(() => kind.api(client).get(client.projectId, id)));
      return remote && toState(kind, remote, state);
    },

    async update({ client, prior, desired, planned }) {
      const patch: ExporterPatch<Record<string, unknown>> = {};
      if (isSet(desired.name)) patch.name = desired.name;
      for (const b of kind.blocks) patch[b] = isSet(desired[b]) ? desired[b] : null;
      const { body } = await call(`Updating ${kind.label}`, () => kind.api(client).update(client.projectId, String(prior.id), patch));
      return toState(kind, body, planned);
    },

    async delete({ client, state }) {
      try {
        await kind.api(client).delete(client.projectId, String(state.id));
      } catch (error) {
        if (!isNotFound(error)) diagnose(error, `Deleting ${kind.label}`);
      }
    },

    async importState({ client, id }) {
      return firstFound(matchImport(kind.model, id), async ({ parts }) => {
        const remote = await call(`Importing ${kind.label}`, () => orNull(() => kind.api(client).get(client.projectId, parts.id!)));
        return remote && toState(kind, remote, null);
      });
    },
  };
}
