// The plan as HCL-JSON (`*.tf.json`): `terraform.required_providers`, provider blocks, sensitive
// variables, one `import` block per resource and the matching `resource` blocks.

import { escapeTemplate } from "./escape.js";
import { Fields, Ref, VarRef, type ImportPlan, type PlannedResource, type Value } from "./config.js";

export const PROVIDER_SOURCES = { tsdb: "schemaform/tsdb", containerbackup: "schemaform/containerbackup" } as const;

/** A value in an expression position: literal strings escaped, references as templates. */
export function hclValue(value: Value): unknown {
  if (value instanceof Ref) return `\${${value.target.type}.${value.target.name}.${value.attribute}}`;
  if (value instanceof VarRef) return `\${var.${value.variable.name}}`;
  if (value instanceof Fields) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value.values)) out[k] = hclValue(v);
    return out;
  }
  if (typeof value === "string") return escapeTemplate(value);
  if (Array.isArray(value)) return value.map(hclValue);
  if (typeof value === "object" && value !== null) {
    // A map: its keys are templates too.
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[escapeTemplate(k)] = hclValue(v);
    return out;
  }
  return value;
}

/** A resource block: its arguments, and `lifecycle.ignore_changes` for secrets the platform never returns. */
function resourceBody(r: PlannedResource): Record<string, unknown> {
  const body = hclValue(r.body) as Record<string, unknown>;
  if (r.ignoreChanges.length === 0) return body;
  return {
    "//": `The platform never returns ${r.ignoreChanges.join(", ")}: ignore_changes keeps the import from rewriting ${r.ignoreChanges.length === 1 ? "it" : "them"}. Remove an entry to manage that value from this configuration.`,
    ...body,
    lifecycle: { ignore_changes: r.ignoreChanges },
  };
}

export function address(resource: PlannedResource): string {
  return `${resource.type}.${resource.name}`;
}

/** The document as a JSON value (key order is the order Terraform users expect to read). */
export function hclDocument(plan: ImportPlan): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  const providers = Object.keys(plan.providers).sort() as Array<keyof typeof PROVIDER_SOURCES>;
  if (providers.length > 0) {
    doc.terraform = { required_providers: Object.fromEntries(providers.map((p) => [p, { source: PROVIDER_SOURCES[p] }])) };
    doc.provider = Object.fromEntries(
      providers.map((p) => [p, Object.fromEntries(Object.entries(plan.providers[p] ?? {}).map(([k, v]) => [k, escapeTemplate(v)]))]),
    );
  }
  if (plan.variables.length > 0) {
    // `type` and `description` are not templates: written as they are.
    doc.variable = Object.fromEntries(plan.variables.map((v) => [v.name, { type: "string", sensitive: true, description: v.description }]));
  }
  if (plan.resources.length > 0) {
    doc.import = plan.resources.map((r) => ({ to: address(r), id: escapeTemplate(r.importId) }));
    const resource: Record<string, Record<string, unknown>> = {};
    for (const r of plan.resources) (resource[r.type] ??= {})[r.name] = resourceBody(r);
    doc.resource = resource;
  }
  return doc;
}

export function emitHclJson(plan: ImportPlan): string {
  return `${JSON.stringify(hclDocument(plan), null, 2)}\n`;
}
