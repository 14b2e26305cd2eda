// A module stores its state through one `backend` block or one `cloud` block, never both:
// terraform init refuses the pair ("Both a backend and cloud configuration are present"),
// pointing at the backend's body and naming where each is configured.
import type { Ctx } from "./context.js";
import { forObjects } from "../syntax/json-parser.js";

interface Found {
  file: number;
  /** the body object node (the backend's, under its type label; the cloud block's) */
  body: number;
}

export function checkBackendAndCloud(ctx: Ctx): void {
  let backend: Found | null = null;
  let cloud: Found | null = null;
  ctx.files.forEach((file, index) => {
    if (!file.doc || file.override) return;
    const doc = file.doc;
    forObjects(doc, 0, (top) => {
      for (const k of doc.members(top)) {
        if (doc.str(k) !== "terraform") continue;
        forObjects(doc, k + 1, (terraform) => {
          for (const t of doc.members(terraform)) {
            const name = doc.str(t);
            if (name === "cloud") forObjects(doc, t + 1, (body) => (cloud ??= { file: index, body }));
            if (name === "backend") {
              forObjects(doc, t + 1, (labels) => {
                for (const l of doc.members(labels)) forObjects(doc, l + 1, (body) => (backend ??= { file: index, body }));
              });
            }
          }
        });
      }
    });
  });
  if (!backend || !cloud) return;
  const b: Found = backend;
  const c: Found = cloud;
  if (ctx.files[b.file]!.contextOnly && ctx.files[c.file]!.contextOnly) return;
  const at = (f: Found) => {
    const file = ctx.files[f.file]!;
    const p = file.lines.position(file.doc!.start(f.body));
    return `${file.name}:${p.line},${p.column}-${p.column + 1}`;
  };
  const shown = ctx.files[b.file]!.contextOnly ? c : b;
  ctx.use(shown.file);
  ctx.error(
    "duplicate-block",
    `Both a backend and cloud configuration are present: A module may declare either one 'cloud' block OR one 'backend' block configuring a state backend. The 'cloud' block is configured at ${at(c)}; a backend is configured at ${at(b)}. Remove the backend block to configure HCP Terraform or Terraform Enteprise.`,
    shown.body,
    "terraform",
    "backend",
  );
}
