// containerbackup_restore_channel. Labels are non-authoritative: `labels` holds the keys the
// configuration manages, `tool_labels` = provider default_labels ∪ labels (known at plan time),
// `effective_labels` every label on the channel (unknown in a plan only when tool_labels change).
// Updates and deletes send the etag that was read: a change made elsewhere in between is a
// conflict, never silently overwritten.
import { model } from "../../generated/models/resource.containerbackup_restore_channel.js";
import type { Labels, RestoreChannel, RestoreChannelInput, RestoreChannelPatch } from "../../platform/types.js";
import type { Value } from "../codec.js";
import { type Body, HandlerError, type ResourceHandler } from "../framework/types.js";
import { type ContainerbackupClient, UNKNOWN, call, diagnose, firstFound, isPlatformError, matchImport, orNull, owned, same, text, warn } from "./common.js";

const OWNED = ["id", "name", "project", "location", "destination_project", "destination_project_id", "description", "deletion_policy", "effective_labels", "etag", "uid"] as const;

function labelsOf(value: Value | undefined): Labels | undefined {
  if (value === null || value === undefined || value === UNKNOWN || typeof value !== "object" || Array.isArray(value)) return undefined;
  return value as Labels;
}

function hasUnknown(value: Value | undefined): boolean {
  if (value === UNKNOWN) return true;
  if (value && typeof value === "object") return Object.values(value).some(hasUnknown);
  return false;
}

/** The channel as state: labels restricted to the managed keys (null when none are). */
function toState(remote: RestoreChannel, managed: string[] | undefined, defaults: Labels, keepEmpty = false): Body {
  const effective = remote.effective_labels ?? {};
  let keys = managed;
  if (keys === undefined) {
    // Import: every label is managed except those that the provider's defaults explain.
    keys = Object.keys(effective).filter((k) => defaults[k] !== effective[k]);
  }
  const labels: Labels = {};
  for (const k of keys) if (k in effective) labels[k] = effective[k]!;
  const tool: Labels = {};
  for (const k of new Set([...Object.keys(defaults), ...keys])) if (k in effective) tool[k] = effective[k]!;
  return {
    ...owned(remote, OWNED),
    labels: Object.keys(labels).length > 0 || keepEmpty ? labels : null,
    tool_labels: tool,
  };
}

export const restoreChannel: ResourceHandler<ContainerbackupClient> = {
  deletionRefusal(state) {
    if (state.deletion_policy !== "PREVENT") return undefined;
    return {
      attribute: "deletion_policy",
      summary: `Restore channel ${String(state.id)} has deletion_policy = "PREVENT"`,
      detail: 'Set deletion_policy = "DELETE" (or "ABANDON" to keep the channel on the platform) and apply first, then destroy or replace it.',
    };
  },

  modifyPlan({ client, prior, config, planned, requiresReplace }) {
    // project: from the configuration, else the provider's.
    if (config.project === null || config.project === undefined) {
      if (client.project === undefined) {
        throw new HandlerError("No project for the restore channel", {
          path: ["project"],
          detail: "Set project on the resource, or project on the containerbackup provider (or the CONTAINERBACKUP_PROJECT environment variable).",
        });
      }
      planned.project = client.project;
      if (prior && !same(prior.project, planned.project)) requiresReplace.push(["project"]);
    }

    // tool_labels: default_labels with the resource's labels over them.
    const configured = config.labels;
    if (configured === UNKNOWN || hasUnknown(configured)) {
      planned.tool_labels = UNKNOWN;
    } else {
      planned.tool_labels = { ...client.defaultLabels, ...(labelsOf(configured) ?? {}) };
    }

    // effective_labels: on create they are exactly the tool labels; on update they change only
    // when the tool labels do (then other clients' labels are kept, so the result is known only
    // after apply).
    const replacing = requiresReplace.length > 0;
    if (prior === null || replacing) {
      planned.effective_labels = planned.tool_labels;
    } else if (!same(planned.tool_labels, prior.tool_labels)) {
      planned.effective_labels = UNKNOWN;
      planned.etag = UNKNOWN;
    } else {
      planned.effective_labels = prior.effective_labels;
    }
    if (prior === null || replacing) {
      planned.etag = UNKNOWN;
      planned.uid = UNKNOWN;
      planned.id = UNKNOWN;
      planned.destination_project_id = UNKNOWN;
    }
    return planned;
  },

  async create({ client, planned, desired }) {
    const body: RestoreChannelInput = {
      destination_project: String(desired.destination_project),
      location: String(desired.location),
    };
    if (text(desired.description) !== undefined) body.description = text(desired.description);
    if (labelsOf(desired.labels)) body.labels = labelsOf(desired.labels);
    if (text(desired.name) !== undefined) body.name = text(desired.name);
    if (text(planned.project) !== undefined) body.project = text(planned.project);
    if (text(desired.deletion_policy) !== undefined) body.deletion_policy = text(desired.deletion_policy) as RestoreChannelInput["deletion_policy"];
    const { body: created } = await call("Creating restore channel", () =>
      client.platform.restoreChannels.create(body, { defaultProject: client.project, defaultLabels: client.defaultLabels }),
    );
    return toState(created, Object.keys(body.labels ?? {}), client.defaultLabels, body.labels !== undefined);
  },

  async read({ client, state }) {
    const managed = Object.keys(labelsOf(state.labels) ?? {});
    const id = text(state.id);
    if (!id) return null;
    const remote = await call("Reading restore channel", () =>
      orNull(() => client.platform.restoreChannels.get(id, { labelKeys: managed, defaultLabels: client.defaultLabels })),
    );
    if (!remote) return null;
    // A configuration without labels stays without labels (not an empty map), and `{}` stays `{}`.
    return toState(remote, managed, client.defaultLabels, state.labels !== null && state.labels !== undefined);
  },

  async update({ client, prior, planned, config }) {
    const id = String(prior.id);
    const labels = labelsOf(config.labels) ?? {};
    const patch: RestoreChannelPatch = {};
    if (!same(planned.description, prior.description)) patch.description = text(planned.description) ?? null;
    if (!same(planned.deletion_policy, prior.deletion_policy)) patch.deletion_policy = (text(planned.deletion_policy) ?? "DELETE") as RestoreChannelPatch["deletion_policy"];
    if (!same(planned.tool_labels, prior.tool_labels) || !same(planned.labels, prior.labels)) {
      const next = labelsOf(planned.tool_labels) ?? {};
      patch.labels = labels;
      patch.remove_labels = Object.keys(labelsOf(prior.tool_labels) ?? {}).filter((k) => !(k in next));
    }
    const view = { labelKeys: Object.keys(labels), defaultLabels: client.defaultLabels };
    let remote: RestoreChannel;
    if (Object.keys(patch).length === 0) {
      remote = await call("Reading restore channel", () => client.platform.restoreChannels.get(id, view));
    } else {
      try {
        ({ body: remote } = await client.platform.restoreChannels.update(id, patch, text(prior.etag), view));
      } catch (error) {
        if (isPlatformError(error) && error.code === "conflict") {
          throw new HandlerError("Restore channel changed since Terraform read it", {
            detail: `${error.message}. Nothing was changed. Run terraform plan (or apply) again to refresh the channel, review the difference, and apply.`,
          });
        }
        diagnose(error, "Updating restore channel");
      }
    }
    return toState(remote, Object.keys(labels), client.defaultLabels, config.labels !== null && config.labels !== undefined);
  },

  async delete(request) {
    const { client, state } = request;
    const id = String(state.id);
    if (state.deletion_policy === "ABANDON") {
      warn(request, ["deletion_policy"], `Restore channel ${id} was abandoned (deletion_policy = "ABANDON"): it is removed from the Terraform state and still exists on the platform.`);
      return;
    }
    try {
      await client.platform.restoreChannels.delete(id, text(state.etag));
    } catch (error) {
      if (isPlatformError(error) && error.code === "not_found") return;
      if (isPlatformError(error) && error.code === "conflict") {
        throw new HandlerError("Restore channel changed since Terraform read it", {
          detail: `${error.message}. It was not deleted. Run terraform plan (or destroy) again to refresh it first.`,
        });
      }
      diagnose(error, "Deleting restore channel");
    }
  },

  async importState({ client, id }) {
    const matches = matchImport(model, id);
    return firstFound(matches, async ({ parts }) => {
      const project = parts.project ?? client.project;
      if (!project) {
        throw new HandlerError("No project in the import identifier", {
          detail: `"${id}" has no project and the provider has none: use projects/{project}/locations/{location}/restoreChannels/{name}, or set project on the provider.`,
        });
      }
      const fullName = `projects/${project}/locations/${parts.location}/restoreChannels/${parts.name}`;
      const remote = await call("Importing restore channel", () =>
        orNull(() => client.platform.restoreChannels.get(fullName, { defaultLabels: client.defaultLabels })),
      );
      return remote && toState(remote, undefined, client.defaultLabels);
    });
  },
};
