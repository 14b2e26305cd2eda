// A module call's literal argument against the called module's `validation` rules, as `terraform
// validate` checks them: with the value known, each condition is evaluated with `var.NAME` set to
// it (every other reference unknown), and a condition that is false is Terraform's "Invalid value
// for variable" at the argument. A condition that is unknown, or that fails to evaluate, is not
// judged here. Root module variables are unknown at validate time, so their rules wait for plan.

import type { Ctx } from "./context.js";
import { evaluate, EvaluationError, UNKNOWN, asNumber, asString, type Known } from "../expr/evaluate.js";
import { forObjects, K_NULL, type JsonDoc } from "../syntax/json-parser.js";
import { analyzeTemplate, hasTemplate } from "../expr/templates.js";
import { jsonValue } from "./known-values.js";

/** One `validation` block of a child's variable. */
export interface ValidationRule {
  condition: string;
  errorMessage: string;
  /** where the rule is, for the detail: "modules/net/main.tf.json:13,21" */
  at: string;
}

/** The validation blocks of a variable's body (those with a string condition). */
export function validationRules(doc: JsonDoc, body: number, at: (node: number) => string): ValidationRule[] {
  const rules: ValidationRule[] = [];
  for (const k of doc.members(body)) {
    if (doc.str(k) !== "validation") continue;
    // Terraform names where the validation blocks start (the array's bracket)
    const where = at(k + 1);
    forObjects(doc, k + 1, (block) => {
      let condition: string | null = null;
      let errorMessage = "";
      for (const m of doc.members(block)) {
        const key = doc.str(m);
        if (key === "condition" && doc.isString(m + 1)) condition = doc.str(m + 1);
        else if (key === "error_message" && doc.isString(m + 1)) errorMessage = doc.str(m + 1);
      }
      if (condition !== null) rules.push({ condition, errorMessage, at: where });
    });
  }
  return rules;
}

/**
 * Checks the literal at `node` (no template anywhere in it) for the variable `name` declared with
 * `type` and `rules`.
 */
export function checkValidationRules(ctx: Ctx, name: string, type: string | null, rules: readonly ValidationRule[], node: number, address: string): void {
  if (rules.length === 0 || ctx.doc.kinds[node] === K_NULL) return;
  const value = converted(jsonValue(ctx, ctx.doc, node), type);
  if (value === UNKNOWN) return;
  const scope = (root: string, ref: string): Known => (root === "var" && ref === name ? value : UNKNOWN);
  for (const rule of rules) {
    if (known(rule.condition, scope) !== false) continue;
    const message = hasTemplate(rule.errorMessage) ? known(rule.errorMessage, scope) : rule.errorMessage;
    const text = typeof message === "string" ? message : rule.errorMessage;
    ctx.error("module-argument", `Invalid value for variable: ${text}\n\nThis was checked by the validation rule at ${rule.at}.`, node, address, null);
  }
}

/** The value of a condition or message template, or UNKNOWN (also when it fails to evaluate). */
function known(template: string, scope: (root: string, name: string) => Known): Known {
  const info = analyzeTemplate(template);
  if (info.problem !== null || info.expr === null) return UNKNOWN;
  try {
    return evaluate(info.expr, scope);
  } catch (error) {
    if (error instanceof EvaluationError) return UNKNOWN;
    throw error;
  }
}

/**
 * The literal as the variable's type makes it: primitives convert; lists, maps and `any` keep
 * their elements; sets (which dedupe and sort), objects and tuples (optional attributes, defaults)
 * are left unknown.
 */
function converted(value: Known, type: string | null): Known {
  if (value === UNKNOWN || type === null) return type === null ? value : UNKNOWN;
  const t = type.replace(/\s+/g, "");
  if (t === "string") return value !== null && typeof value === "object" ? UNKNOWN : asString(value);
  if (t === "number") return asNumber(value);
  if (t === "bool") return typeof value === "boolean" ? value : value === "true" ? true : value === "false" ? false : UNKNOWN;
  if (t === "any") return value;
  // a collection whose elements are already of the element type (a conversion would change them)
  const collection = /^(list|map)\((string|number|bool)\)$/.exec(t);
  if (collection === null || value === null || typeof value !== "object") return UNKNOWN;
  const elements = Array.isArray(value) ? value : Object.values(value);
  if (Array.isArray(value) !== (collection[1] === "list")) return UNKNOWN;
  const kind = collection[2] === "bool" ? "boolean" : collection[2];
  return elements.every((e) => typeof e === kind) ? value : UNKNOWN;
}
