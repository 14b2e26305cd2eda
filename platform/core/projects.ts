// The project registry: a project has an id (`my-project`) and a number (`24240755850`), and
// `projects/{project}` may name either. A project seen for the first time is registered
// deterministically: an id gets a number derived from a hash of the id, a number gets the id
// `project-<number>`, so every data directory agrees on the pairs it invents.
//
// One project, one namespace: every object is stored under the project's id, whichever name the
// caller used (`projectKey`, `claimProject`), as credentials are authorized (`same`). Stores
// written before that kept tsdb objects under the number they were created with:
// `mergeNumberedProjects` moves them to the id once, when such a store is first opened.

import { createHash } from "node:crypto";
import { invalid } from "../errors.js";
import type { Tx } from "../storage.js";
import type { Ctx } from "./context.js";

export const PROJECT_ID_RE = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
export const PROJECT_NUMBER_RE = /^[0-9]+$/;

export interface ProjectRecord {
  id: string;
  number: string;
}

export function isProjectRef(ref: string): boolean {
  return PROJECT_ID_RE.test(ref) || PROJECT_NUMBER_RE.test(ref);
}

function numberFor(id: string, attempt: number): string {
  const digest = createHash("sha256").update(`${id}#${attempt}`).digest();
  const n = digest.readBigUInt64BE(0) % 900_000_000_000n + 100_000_000_000n;
  return n.toString();
}

export class Projects {
  constructor(private readonly ctx: Ctx) {}

  /** Looks a project up by id or number without registering it. */
  find(tx: Tx, ref: string): Promise<ProjectRecord | undefined> {
    const column = PROJECT_NUMBER_RE.test(ref) ? "number" : "id";
    return tx.get<ProjectRecord>(`SELECT id, number FROM projects WHERE ${column} = ?`, ref);
  }

  /** Looks a project up, registering it on first use. Call inside a write transaction. */
  async resolve(tx: Tx, ref: string, path: (string | number)[] = ["project"]): Promise<ProjectRecord> {
    if (!isProjectRef(ref)) {
      throw invalid(path, "must be a project id (6-30 lowercase letters, digits and dashes, starting with a letter) or a project number");
    }
    const found = await this.find(tx, ref);
    if (found) return found;
    for (let attempt = 0; attempt < 100; attempt++) {
      const record = PROJECT_NUMBER_RE.test(ref)
        ? { id: attempt === 0 ? `project-${ref}` : `project-${ref}-${attempt}`, number: ref }
        : { id: ref, number: numberFor(ref, attempt) };
      const inserted = await tx.run("INSERT INTO projects (id, number, created) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", record.id, record.number, this.ctx.iso());
      if (inserted === 1) return record;
    }
    throw new Error(`could not register project ${ref}`);
  }

  /** Whether two references (ids or numbers) name the same project, without registering either. */
  async same(tx: Tx, a: string, b: string): Promise<boolean> {
    if (a === b) return true;
    const ra = await this.find(tx, a);
    const rb = await this.find(tx, b);
    return ra !== undefined && rb !== undefined && ra.id === rb.id;
  }
}

/**
 * The key a project's objects are stored under: its id, for an id or a registered number. A
 * number nobody registered has no objects, and names that are no project reference (tsdb accepts
 * any name without slashes or spaces) have no number: both are their own key.
 */
export async function projectKey(ctx: Ctx, ref: string): Promise<string> {
  if (!PROJECT_NUMBER_RE.test(ref)) return ref;
  return (await ctx.read((tx) => new Projects(ctx).find(tx, ref)))?.id ?? ref;
}

/**
 * `projectKey` for a create: an id or number seen for the first time is registered, so that the
 * other name finds the object too from then on.
 */
export async function claimProject(ctx: Ctx, ref: string): Promise<string> {
  if (!isProjectRef(ref)) return ref;
  const projects = new Projects(ctx);
  return ((await ctx.read((tx) => projects.find(tx, ref))) ?? (await ctx.write((tx) => projects.resolve(tx, ref)))).id;
}

/** Tables whose `project` column holds the project's storage key (restore channels keep their own). */
const PROJECT_TABLES = ["services", "vpcs", "peerings", "exporters", "connectors", "events"] as const;
const MERGED_KEY = "projects_merged";

/**
 * Moves objects stored under a project number to the project's id (registering the number when
 * nothing did), once per store. A VPC whose name is taken under the id is renamed
 * `<name>-<vpcs_id>` (VPC names are unique in a project), with an event saying so.
 */
export async function mergeNumberedProjects(ctx: Ctx): Promise<void> {
  const done = async (tx: Tx) => (await tx.get("SELECT 1 FROM meta WHERE key = ?", MERGED_KEY)) !== undefined;
  if (await ctx.read(done)) return;
  await ctx.write(async (tx) => {
    if (await done(tx)) return;
    const numbers = new Set<string>();
    for (const table of PROJECT_TABLES) {
      for (const row of await tx.all<{ project: string }>(`SELECT DISTINCT project FROM ${table}`)) {
        if (PROJECT_NUMBER_RE.test(row.project)) numbers.add(row.project);
      }
    }
    const projects = new Projects(ctx);
    for (const number of numbers) {
      const id = (await projects.resolve(tx, number)).id;
      const clashes = (await tx.all("SELECT n.id, n.name FROM vpcs n JOIN vpcs i ON i.project = ? AND i.name = n.name WHERE n.project = ?", id, number)) as { id: number; name: string }[];
      for (const vpc of clashes) {
        const renamed = `${vpc.name}-${vpc.id}`;
        await tx.run("UPDATE vpcs SET name = ? WHERE id = ?", renamed, vpc.id);
        await ctx.event(tx, id, "tsdb_vpcs", String(vpc.id), "renamed", `VPC renamed from ${vpc.name} to ${renamed}: project ${number} and ${id} are one project, and ${id} has a VPC named ${vpc.name}`);
      }
      for (const table of PROJECT_TABLES) await tx.run(`UPDATE ${table} SET project = ? WHERE project = ?`, id, number);
    }
    await tx.run("INSERT INTO meta (key, value) VALUES (?, ?)", MERGED_KEY, ctx.iso());
  });
}
