// containerbackup_restore_channel: a restore channel limits where backups may be restored.
// - id / full name `projects/{project}/locations/{location}/restoreChannels/{name}`;
// - `etag` changes on every change; update and delete take the etag that was read, and a stale
//   one fails with `conflict` without changing anything;
// - labels are non-authoritative: all labels live in `effective_labels`; an update sets the keys
//   the caller manages and removes only the keys it says it stopped managing;
// - `destination_project_id` is the project id even when `destination_project` names a number.

import { PlatformError, invalid, notFound, precondition } from "../errors.js";
import { newEtag, newUuid, randomString } from "../secrets.js";
import type {
  CreateRestoreChannelOptions,
  DeletionPolicy,
  LabelView,
  Labels,
  Mutation,
  RestoreChannel,
  RestoreChannelInput,
  RestoreChannelPatch,
} from "../types.js";
import type { Tx } from "../storage.js";
import { checkBody } from "../validation.js";
import { compact, parseJson, type Ctx } from "./context.js";
import { Projects, isProjectRef } from "./projects.js";

export const CHANNEL_NAME_RE = /^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;
const LOCATION_RE = /^[a-z][a-z0-9-]*[a-z0-9]$/;
const DESTINATION_RE = /^projects\/([^/]+)$/;
const FULL_NAME_RE = /^projects\/([^/]+)\/locations\/([^/]+)\/restoreChannels\/([^/]+)$/;

export interface ChannelName {
  project: string;
  location: string;
  name: string;
}

/** Parses `projects/{p}/locations/{l}/restoreChannels/{n}`; `invalid` otherwise. */
export function parseRestoreChannelName(fullName: string): ChannelName {
  const m = FULL_NAME_RE.exec(fullName);
  if (!m) {
    throw invalid(["id"], `'${fullName}' is not a restore channel name: expected projects/{project}/locations/{location}/restoreChannels/{name}`);
  }
  return { project: m[1]!, location: m[2]!, name: m[3]! };
}

export function restoreChannelFullName(n: ChannelName): string {
  return `projects/${n.project}/locations/${n.location}/restoreChannels/${n.name}`;
}

/**
 * Turns any accepted import identifier into the full name:
 * `projects/{p}/locations/{l}/restoreChannels/{n}`, `{p}/{l}/{n}` or `{l}/{n}` (project from
 * `defaultProject`).
 */
export function restoreChannelIdFromImport(importId: string, defaultProject?: string): string {
  if (FULL_NAME_RE.test(importId)) return importId;
  const parts = importId.split("/");
  if (parts.length === 3 && parts.every((p) => p.length > 0)) return restoreChannelFullName({ project: parts[0]!, location: parts[1]!, name: parts[2]! });
  if (parts.length === 2 && parts.every((p) => p.length > 0)) {
    if (!defaultProject) throw invalid(["id"], `import id '${importId}' has no project and no default project is configured`);
    return restoreChannelFullName({ project: defaultProject, location: parts[0]!, name: parts[1]! });
  }
  throw invalid(
    ["id"],
    `import id '${importId}' doesn't match any of the accepted formats: projects/{project}/locations/{location}/restoreChannels/{name}, {project}/{location}/{name}, {location}/{name}`,
  );
}

interface ChannelRow {
  project_id: string;
  location: string;
  name: string;
  project_ref: string;
  uid: string;
  etag: string;
  destination_project: string;
  destination_project_id: string;
  description: string | null;
  labels: string;
  deletion_policy: DeletionPolicy;
  created: string;
  updated: string;
}

const DELETION_POLICIES: readonly DeletionPolicy[] = ["DELETE", "PREVENT", "ABANDON"];

function checkDeletionPolicy(policy: unknown): void {
  if (policy === undefined || policy === null) return;
  if (!DELETION_POLICIES.includes(policy as DeletionPolicy)) {
    throw invalid(["deletion_policy"], `must be one of ${DELETION_POLICIES.join(", ")}, got ${JSON.stringify(policy)}`);
  }
}

function pick(labels: Labels, keys: Iterable<string>): Labels {
  const out: Labels = {};
  for (const k of keys) if (Object.prototype.hasOwnProperty.call(labels, k)) out[k] = labels[k]!;
  return out;
}

/**
 * A channel's labels (its own and the provider's defaults, merged) and description against the
 * schema's rules: at most 64 labels, keys and values as GCP allows them, no control characters
 * (schemas/resource.containerbackup_restore_channel.schema.json; the provider checks the same at plan).
 */
function checkLabelRules(channel: { destination_project: string; location: string }, labels: Labels, description: string | null | undefined): void {
  checkBody("resource.containerbackup_restore_channel", { destination_project: channel.destination_project, location: channel.location, labels, ...(description == null ? {} : { description }) });
}

function checkLabels(labels: unknown, path: string): void {
  if (labels === undefined) return;
  if (!labels || typeof labels !== "object" || Array.isArray(labels)) throw invalid([path], "must be a map of strings");
  for (const [k, v] of Object.entries(labels)) {
    if (k.length === 0) throw invalid([path], "label keys cannot be empty");
    if (typeof v !== "string") throw invalid([path, k], "label values must be strings");
  }
}

export class RestoreChannels {
  private readonly projects: Projects;
  constructor(private readonly ctx: Ctx) {
    this.projects = new Projects(ctx);
  }

  async create(body: RestoreChannelInput, options: CreateRestoreChannelOptions = {}): Promise<Mutation<RestoreChannel>> {
    const projectRef = body.project ?? options.defaultProject;
    if (!projectRef) throw invalid(["project"], "project is required: set project on the resource or a default project on the provider");
    if (!isProjectRef(projectRef)) throw invalid(["project"], "must be a project id (6-30 lowercase letters, digits and dashes, starting with a letter) or a project number");
    if (typeof body.location !== "string" || !LOCATION_RE.test(body.location)) throw invalid(["location"], "must be a region name such as us-central1");
    const destination = DESTINATION_RE.exec(body.destination_project ?? "");
    if (!destination || !isProjectRef(destination[1]!)) {
      throw invalid(["destination_project"], "must be projects/{project} with a project id (6-30 lowercase letters, digits and dashes, starting with a letter) or a project number");
    }
    if (body.name !== undefined && !CHANNEL_NAME_RE.test(body.name)) {
      throw invalid(["name"], "must be 1-63 lowercase letters, digits and dashes, starting with a letter and ending with a letter or digit");
    }
    checkLabels(body.labels, "labels");
    checkLabels(options.defaultLabels, "default_labels");
    checkDeletionPolicy(body.deletion_policy);
    const effective: Labels = { ...(options.defaultLabels ?? {}), ...(body.labels ?? {}) };
    checkLabelRules({ destination_project: body.destination_project!, location: body.location }, effective, body.description);

    const row = await this.ctx.write(async (tx) => {
      const project = await this.projects.resolve(tx, projectRef, ["project"]);
      const dest = await this.projects.resolve(tx, destination[1]!, ["destination_project"]);
      const exists = (name: string) => tx.get("SELECT 1 FROM restore_channels WHERE project_id = ? AND location = ? AND name = ?", project.id, body.location, name);
      let name = body.name;
      if (name !== undefined) {
        if (await exists(name)) {
          throw new PlatformError(
            "conflict",
            `restore channel ${restoreChannelFullName({ project: projectRef, location: body.location, name })} already exists: to manage it, import it (terraform import <address> ${restoreChannelFullName({ project: projectRef, location: body.location, name })}, or schemaform import), or choose another name`,
          );
        }
      } else {
        do name = `channel-${randomString(8)}`;
        while (await exists(name));
      }
      const now = this.ctx.iso();
      const record: ChannelRow = {
        project_id: project.id,
        location: body.location,
        name,
        project_ref: projectRef,
        uid: newUuid(),
        etag: newEtag(),
        destination_project: body.destination_project,
        destination_project_id: dest.id,
        description: body.description ?? null,
        labels: JSON.stringify(effective),
        deletion_policy: body.deletion_policy ?? "DELETE",
        created: now,
        updated: now,
      };
      await tx.run(
        `INSERT INTO restore_channels (project_id, location, name, project_ref, uid, etag, destination_project, destination_project_id, description, labels, deletion_policy, created, updated)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        record.project_id, record.location, record.name, record.project_ref, record.uid, record.etag, record.destination_project,
        record.destination_project_id, record.description, record.labels, record.deletion_policy, record.created, record.updated,
      );
      await this.ctx.event(tx, project.id, "containerbackup_restore_channel", restoreChannelFullName({ project: projectRef, location: body.location, name }), "created", "restore channel created");
      return record;
    });
    return { body: this.toBody(row, { labelKeys: Object.keys(body.labels ?? {}), defaultLabels: options.defaultLabels }), warnings: [] };
  }

  async get(fullName: string, view?: LabelView): Promise<RestoreChannel> {
    const n = parseRestoreChannelName(fullName);
    const row = await this.ctx.read((tx) => this.find(tx, n));
    if (!row) throw notFound(`restore channel ${fullName}`);
    return this.toBody(row, view);
  }

  async update(fullName: string, patch: RestoreChannelPatch, etag: string | undefined, view: LabelView = {}): Promise<Mutation<RestoreChannel>> {
    const n = parseRestoreChannelName(fullName);
    if (patch.description !== undefined && patch.description !== null && typeof patch.description !== "string") throw invalid(["description"], "must be a string");
    checkLabels(patch.labels ?? undefined, "labels");
    checkLabels(view.defaultLabels, "default_labels");
    if (patch.remove_labels !== undefined && (!Array.isArray(patch.remove_labels) || patch.remove_labels.some((k) => typeof k !== "string"))) {
      throw invalid(["remove_labels"], "must be a list of label keys");
    }
    checkDeletionPolicy(patch.deletion_policy);
    const row = await this.ctx.write(async (tx) => {
      const current = await this.find(tx, n);
      if (!current) throw notFound(`restore channel ${fullName}`);
      this.checkEtag(fullName, current, etag);
      for (const field of ["name", "location", "destination_project"] as const) {
        const value = patch[field];
        if (value !== undefined && value !== null && value !== current[field]) {
          throw precondition([field], `${field} of a restore channel cannot change (it is ${current[field]}): the channel must be replaced`);
        }
      }
      if (patch.project !== undefined && patch.project !== null && !(await this.projects.same(tx, patch.project, current.project_ref))) {
        throw precondition(["project"], `project of a restore channel cannot change (it is ${current.project_ref}): the channel must be replaced`);
      }
      let description = current.description;
      if (patch.description !== undefined) description = patch.description;
      let labels = parseJson<Labels>(current.labels);
      if (patch.labels !== undefined || patch.remove_labels !== undefined) {
        const next: Labels = { ...labels };
        for (const key of patch.remove_labels ?? []) delete next[key];
        Object.assign(next, view.defaultLabels ?? {}, patch.labels ?? {});
        labels = next;
      }
      const labelsJson = JSON.stringify(labels);
      const policy = patch.deletion_policy ?? current.deletion_policy;
      if (description === current.description && labelsJson === current.labels && policy === current.deletion_policy) return current; // nothing changed
      checkLabelRules(current, labels, description);
      const updated: ChannelRow = { ...current, description, labels: labelsJson, deletion_policy: policy, etag: newEtag(), updated: this.ctx.iso() };
      await tx.run(
        "UPDATE restore_channels SET description = ?, labels = ?, deletion_policy = ?, etag = ?, updated = ? WHERE project_id = ? AND location = ? AND name = ?",
        updated.description, updated.labels, updated.deletion_policy, updated.etag, updated.updated, current.project_id, current.location, current.name,
      );
      await this.ctx.event(tx, current.project_id, "containerbackup_restore_channel", fullName, "updated", "restore channel updated");
      return updated;
    });
    const labelKeys = view.labelKeys ?? (patch.labels ? Object.keys(patch.labels) : undefined);
    return { body: this.toBody(row, { ...view, labelKeys }), warnings: [] };
  }

  async delete(fullName: string, etag: string | undefined): Promise<void> {
    const n = parseRestoreChannelName(fullName);
    await this.ctx.write(async (tx) => {
      const current = await this.find(tx, n);
      if (!current) throw notFound(`restore channel ${fullName}`);
      this.checkEtag(fullName, current, etag);
      if (current.deletion_policy === "PREVENT") {
        throw precondition(["deletion_policy"], `restore channel ${fullName} has deletion_policy = PREVENT: set deletion_policy to DELETE (or ABANDON) first`);
      }
      await tx.run("DELETE FROM restore_channels WHERE project_id = ? AND location = ? AND name = ?", current.project_id, current.location, current.name);
      await this.ctx.event(tx, current.project_id, "containerbackup_restore_channel", fullName, "deleted", "restore channel deleted");
    });
  }

  async list(project: string, location?: string): Promise<RestoreChannel[]> {
    return await this.ctx.read(async (tx) => {
      const record = await this.projects.find(tx, project);
      if (!record) return [];
      const rows = (
        location === undefined
          ? (await tx.all("SELECT * FROM restore_channels WHERE project_id = ? ORDER BY location, name", record.id))
          : (await tx.all("SELECT * FROM restore_channels WHERE project_id = ? AND location = ? ORDER BY name", record.id, location))
      ) as ChannelRow[];
      return rows.map((row) => this.toBody(row));
    });
  }

  async resolveProject(ref: string): Promise<{ project_id: string; project_number: string }> {
    const record = await this.ctx.write((tx) => this.projects.resolve(tx, ref));
    return { project_id: record.id, project_number: record.number };
  }

  private async find(tx: Tx, n: ChannelName): Promise<ChannelRow | undefined> {
    const project = await this.projects.find(tx, n.project);
    if (!project) return undefined;
    return await tx.get<ChannelRow>("SELECT * FROM restore_channels WHERE project_id = ? AND location = ? AND name = ?", project.id, n.location, n.name);
  }

  private checkEtag(fullName: string, current: ChannelRow, etag: string | undefined): void {
    if (etag === undefined || etag === "" || etag === current.etag) return;
    throw new PlatformError(
      "conflict",
      `restore channel ${fullName} was changed after it was read: the etag sent ("${etag}") is not the current one ("${current.etag}"); read it again and retry`,
    );
  }

  private toBody(row: ChannelRow, view: LabelView = {}): RestoreChannel {
    const effective = parseJson<Labels>(row.labels);
    const labels = view.labelKeys ? pick(effective, view.labelKeys) : { ...effective };
    const toolKeys = view.labelKeys ? new Set([...view.labelKeys, ...Object.keys(view.defaultLabels ?? {})]) : undefined;
    const tool = toolKeys ? pick(effective, toolKeys) : { ...labels };
    return compact({
      id: restoreChannelFullName({ project: row.project_ref, location: row.location, name: row.name }),
      name: row.name,
      project: row.project_ref,
      location: row.location,
      destination_project: row.destination_project,
      destination_project_id: row.destination_project_id,
      description: row.description ?? undefined,
      deletion_policy: row.deletion_policy ?? "DELETE",
      labels,
      effective_labels: effective,
      tool_labels: tool,
      etag: row.etag,
      uid: row.uid,
    });
  }
}
