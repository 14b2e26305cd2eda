// Synth-time validation: the construct's attributes go through the same generated validator as
// `schemaform validate`, the provider and the platform use. Unresolved tokens (references,
// variables) are unknown values: they pass value checks and count as present.
import { Annotations, Token, type TerraformElement } from "cdktf";
import { formatPath } from "../../hcljson/attribute-path.js";
import { loadTypeSync, validateBody } from "../../hcljson/body.js";
import type { TypeModel } from "../../hcljson/model-types.js";

const UNKNOWN = "${unknown}";

/** Set SCHEMAFORM_SKIP_VALIDATION=1 (or the CDKTF `skipValidation` app option) to turn it off. */
export function addSchemaValidation(element: TerraformElement, model: TypeModel, attributes: () => Record<string, unknown>): void {
  if (process.env.SCHEMAFORM_SKIP_VALIDATION === "1") return;
  element.node.addValidation({
    validate: () => {
      loadTypeSync(model.key, model);
      const address = `${model.kind === "data" ? "data." : ""}${model.type}.${element.friendlyUniqueId}`;
      const errors: string[] = [];
      for (const issue of validateBody(model.key, withUnknowns(attributes()))) {
        const where = issue.path.length && !issue.message.startsWith(formatPath(issue.path)) ? ` (${formatPath(issue.path)})` : "";
        const text = `${model.kind === "provider" ? `provider ${model.type}` : address}: ${issue.message}${where}`;
        if (issue.severity === "error") errors.push(text);
        else Annotations.of(element).addWarning(text);
      }
      return errors;
    },
  });
}

/** Replaces every unresolved token with an unknown marker, leaving literal values as they are. */
export function withUnknowns(value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (Token.isUnresolved(value)) return UNKNOWN;
  if (Array.isArray(value)) return value.map(withUnknowns);
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = withUnknowns(v);
    return out;
  }
  return value;
}
