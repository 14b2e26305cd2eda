// The project registry: a project has an id (`my-project`) and a number (`24240755850`), and
// `projects/{project}` may name either. A project seen for the first time is registered
// deterministically: an id gets a number derived from a hash of the id, a number gets the id
// `project-<number>`, so every data directory agrees on the pairs it invents.

import { createHash } from "node:crypto";
import { invalid } from "../errors.js";
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
  find(ref: string): ProjectRecord | undefined {
    const column = PROJECT_NUMBER_RE.test(ref) ? "number" : "id";
    return this.ctx.db.prepare(`SELECT id, number FROM projects WHERE ${column} = ?`).get(ref) as ProjectRecord | undefined;
  }

  /** Looks a project up, registering it on first use. Call inside a write transaction. */
  resolve(ref: string, path: (string | number)[] = ["project"]): ProjectRecord {
    if (!isProjectRef(ref)) {
      throw invalid(path, "must be a project id (6-30 lowercase letters, digits and dashes, starting with a letter) or a project number");
    }
    const found = this.find(ref);
    if (found) return found;
    const insert = this.ctx.db.prepare("INSERT OR IGNORE INTO projects (id, number, created) VALUES (?, ?, ?)");
    for (let attempt = 0; attempt < 100; attempt++) {
      const record = PROJECT_NUMBER_RE.test(ref)
        ? { id: attempt === 0 ? `project-${ref}` : `project-${ref}-${attempt}`, number: ref }
        : { id: ref, number: numberFor(ref, attempt) };
      if (insert.run(record.id, record.number, this.ctx.iso()).changes === 1) return record;
    }
    throw new Error(`could not register project ${ref}`);
  }

  /** Whether two references (ids or numbers) name the same project, without registering either. */
  same(a: string, b: string): boolean {
    if (a === b) return true;
    const ra = this.find(a);
    const rb = this.find(b);
    return ra !== undefined && rb !== undefined && ra.id === rb.id;
  }
}
