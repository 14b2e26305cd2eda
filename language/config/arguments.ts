// An argument's value by its kind (body-specs.ts AttrKind): literal strings, version constraints,
// bools, type expressions, static references (depends_on, ignore_changes, replace_triggered_by,
// provider references, providers maps), provisioner keywords, count and for_each.
import { Ctx, quote, joinPath } from "./context.js";
import { invalidExpression, STATIC_REF_DETAIL, invalidLocalName } from "./common-errors.js";
import { hasTemplate, parseTraversal, keywordOf, analyzeTemplate } from "../expr/templates.js";
import { type AttrKind } from "./body-specs.js";
import { checkExpression, LITERAL_WORDS } from "./expression-check.js";
import { K_NULL, K_OBJECT, K_ARRAY, K_TRUE, K_FALSE } from "../syntax/json-parser.js";
import { isVersionConstraint } from "./versions.js";
import { parseBoolString, parseTypeExpression } from "../expr/type-expressions.js";
import { checkCount, checkForEach } from "./repetition.js";
import { undeclaredAlias, providerAddress } from "./provider-references.js";
import { isName } from "./block-shapes.js";
import { type Reference } from "../expr/syntax-tree.js";

/** Checks a bare reference string; returns the traversal when valid. */
function checkRef(ctx: Ctx, node: number, address: string | null, path: string | null, dynamicIndex = false) {
  const doc = ctx.doc;
  if (!doc.isString(node)) {
    invalidExpression(ctx, node, address, path, "A reference is required here, written as a JSON string such as \"aws_instance.example\" (without ${ }).");
    return null;
  }
  const s = doc.str(node);
  const t = hasTemplate(s) ? null : parseTraversal(s, dynamicIndex);
  if (!t) {
    invalidExpression(ctx, node, address, path, hasTemplate(s) ? `${STATIC_REF_DETAIL} Write the reference without "\${ }".` : STATIC_REF_DETAIL);
    return null;
  }
  return t;
}

export function checkAttribute(ctx: Ctx, value: number, kind: AttrKind, name: string, address: string | null, path: string | null): void {
  const doc = ctx.doc;
  const vk = doc.kinds[value];
  switch (kind) {
    case "expr":
      checkExpression(ctx, value, address, path);
      return;
    case "literal":
      return;
    case "string":
      // decoded into a Go string: numbers and bools convert, null and collections do not
      if (vk === K_NULL) ctx.error("value-type", "Unsuitable value type: Unsuitable value: null value is not allowed", value, address, path);
      else if (vk === K_OBJECT || vk === K_ARRAY) ctx.error("value-type", "Unsuitable value type: Unsuitable value: string required", value, address, path);
      return;
    case "constraint":
      if (vk === K_NULL) return;
      if (!doc.isString(value)) ctx.error("value-type", `Incorrect attribute value type: Inappropriate value for attribute ${quote(name)}: a string is required.`, value, address, path);
      else if (!isVersionConstraint(doc.str(value))) ctx.error("version-constraint", "Invalid version constraint: This string does not use correct version constraint syntax.", value, address, path);
      return;
    case "bool":
      if (vk === K_TRUE || vk === K_FALSE) return;
      // a literal is required: Terraform decodes these without evaluating, so null and templates are refused
      if (vk === K_NULL) {
        ctx.error("value-type", "Unsuitable value type: Unsuitable value: null value is not allowed", value, address, path);
        return;
      }
      if (doc.isString(value)) {
        const s = doc.str(value);
        if (hasTemplate(s)) {
          ctx.error("value-type", "Unsuitable value type: Unsuitable value: a bool is required", value, address, path);
          return;
        }
        if (parseBoolString(s) !== undefined) return;
        const hint = s.toLowerCase() === "true" || s.toLowerCase() === "false" ? `; to convert from string, use lowercase "${s.toLowerCase()}"` : "";
        ctx.error("value-type", `Unsuitable value type: Unsuitable value for ${quote(name)}: a bool is required${hint}.`, value, address, path);
        return;
      }
      ctx.error("value-type", `Unsuitable value type: Unsuitable value for ${quote(name)}: a bool is required.`, value, address, path);
      return;
    case "type": {
      if (!doc.isString(value)) {
        ctx.error("variable-type", "Invalid type specification: The type must be given as a string holding a type expression, such as \"list(string)\".", value, address, path);
        return;
      }
      const parsed = parseTypeExpression(doc.str(value));
      if ("error" in parsed) ctx.error("variable-type", `Invalid type specification: ${parsed.error}.`, value, address, path);
      return;
    }
    case "ref":
      checkRef(ctx, value, address, path);
      return;
    case "ref-index":
      checkRef(ctx, value, address, path, true);
      return;
    case "provider-ref": {
      const t = checkRef(ctx, value, address, path);
      if (t && (t.steps.length > 1 || t.steps.some((s) => s.kind !== "attr"))) {
        ctx.error("reference-only", 'Invalid provider configuration reference: The provider argument requires a provider type name, optionally followed by a period and then a configuration alias, such as "tsdb.eu".', value, address, path);
      } else if (t && t.root !== t.root.toLowerCase()) invalidLocalName(ctx, t.root, value);
      return;
    }
    case "refs":
      if (vk === K_NULL) {
        invalidExpression(ctx, value, address, path, "A static list expression is required.");
        return;
      }
      if (vk !== K_ARRAY) {
        invalidExpression(ctx, value, address, path, `A JSON array of references is required for ${quote(name)}, e.g. ["aws_instance.example"].`);
        return;
      }
      for (const e of doc.elements(value)) {
        const t = checkRef(ctx, e, address, path);
        if (t && name === "depends_on") checkDependency(ctx, e, t, address, path);
        if (t) ctx.dependencies?.bare(ctx, t.root, t.steps, address); // an edge of the dependency graph (cycles.ts)
      }
      return;
    case "replace_triggered_by":
      checkReplaceTriggeredBy(ctx, value, address, path);
      return;
    case "ignore_changes":
      if (vk === K_NULL) {
        invalidExpression(ctx, value, address, path, "A static list expression is required.");
        return;
      }
      if (doc.isString(value)) {
        if (doc.str(value) !== "all") invalidExpression(ctx, value, address, path, 'The ignore_changes argument is either the keyword "all" or an array of attribute names.');
        return;
      }
      if (vk !== K_ARRAY) {
        invalidExpression(ctx, value, address, path, 'The ignore_changes argument is either the keyword "all" or an array of attribute names.');
        return;
      }
      for (const e of doc.elements(value)) {
        const t = checkRef(ctx, e, address, path);
        if (t && t.root === "all" && t.steps.length === 0) {
          ctx.error("reference-only", 'Invalid ignore_changes wildcard: The "all" keyword is not allowed inside the array: use "ignore_changes": "all".', e, address, path);
        }
      }
      return;
    case "count":
      checkCount(ctx, value, address, path);
      return;
    case "for_each":
      checkForEach(ctx, value, address, path);
      return;
    case "providers":
      if (vk !== K_OBJECT) {
        ctx.error("value-type", 'Invalid providers argument: The providers argument is an object mapping the module\'s provider names to provider references, e.g. {"aws": "aws.usw2"}.', value, address, path);
        return;
      }
      for (const k of doc.members(value)) {
        const t = checkRef(ctx, k + 1, address, joinPath(path, doc.str(k)));
        const alias = t ? undeclaredAlias(ctx, t) : null;
        // Terraform's whole message (it has no detail): the alias passed is configured by no provider block
        if (alias) ctx.error("provider-reference", `missing provider ${providerAddress(t!.root, alias)}`, k + 1, address, joinPath(path, doc.str(k)));
      }
      return;
    case "when":
    case "on_failure": {
      const allowed = kind === "when" ? ["create", "destroy"] : ["continue", "fail"];
      const s = doc.isString(value) ? doc.str(value) : null;
      const keyword = s === null ? null : keywordOf(s);
      if (keyword === null || !allowed.includes(keyword)) {
        // Terraform's words; a template gets a hint of ours after them
        ctx.error("keyword", `Invalid ${quote(name)} keyword: The ${quote(name)} argument requires one of the following keywords: ${allowed.join(" or ")}.${hasTemplate(s ?? "") ? " Write it as a bare keyword, not a template." : ""}`, value, address, path);
      }
      return;
    }
    case "ident": {
      const s = doc.isString(value) ? doc.str(value) : "";
      if (!isName(s)) invalidExpression(ctx, value, address, path, "The iterator name must be a bare identifier, such as \"item\".");
      return;
    }
  }
}

/**
 * One depends_on entry naming a resource or data source: it must be the whole object (an
 * instance key at most), and declared.
 */
function checkDependency(ctx: Ctx, node: number, t: { root: string; steps: Reference["steps"] }, address: string | null, path: string | null): void {
  if (t.root === "module" && t.steps[0]?.kind === "attr") {
    // a call, an instance of it, or one output of either ("module.net.vpc_id"); anything deeper
    // (a resource inside the call, an attribute of an output) is not a whole object
    let rest = t.steps.slice(1);
    if (rest[0]?.kind === "index") rest = rest.slice(1);
    if (rest[0]?.kind === "attr") rest = rest.slice(1);
    if (rest.length > 0) ctx.error("reference-only", "Invalid depends_on reference: References in depends_on must be to a whole object (resource, etc), not to an attribute of an object.", node, address, path);
    else {
      // the call must be declared (resolved with the other references to module calls)
      const text = ctx.doc.str(node);
      const start = text.length - text.trimStart().length;
      ctx.addNamedReference({ file: ctx.fileIndex, node, ref: { root: "module", steps: t.steps.slice(0, 1), start, end: text.trimEnd().length }, whole: false, address, path });
    }
    return;
  }
  if (t.root === "ephemeral" && t.steps[0]?.kind === "attr" && t.steps[1]?.kind === "attr") {
    // the ephemeral resource itself (an instance of it at most), and declared
    const rest = t.steps[2]?.kind === "index" ? t.steps.slice(3) : t.steps.slice(2);
    if (rest.length > 0) ctx.error("reference-only", "Invalid depends_on reference: References in depends_on must be to a whole object (resource, etc), not to an attribute of an object.", node, address, path);
    else if (!ctx.ephemeralBlocks.has(`${t.steps[0].name}.${t.steps[1].name}`)) {
      ctx.error("undeclared-reference", `Reference to undeclared resource: An ephemeral resource ${quote(t.steps[0].name)} ${quote(t.steps[1].name)} has not been declared in the root module.`, node, address, path);
    }
    return;
  }
  if (NON_RESOURCE_ROOTS.has(t.root) || t.root === "resource" || t.root === "ephemeral") return;
  const nameAt = t.root === "data" ? 1 : 0;
  if (t.steps.length === nameAt) {
    // a bare type ("tsdb_vpcs", "data.tsdb_vpcs") names no object
    const kind = t.root === "data" ? "data source" : "resource";
    ctx.error("invalid-reference", `Invalid reference: A reference to a ${kind} type must be followed by at least one attribute access, specifying the ${kind} name.`, node, address, path);
    return;
  }
  if (t.steps.length <= nameAt) return;
  for (let i = 0; i <= nameAt; i++) if (t.steps[i]!.kind !== "attr") return;
  // after the name, an instance key at most (indexes, not copies of the steps: one reference per block of a generated file)
  let rest = nameAt + 1;
  if (t.steps[rest]?.kind === "index") rest++;
  if (rest < t.steps.length) {
    ctx.error("reference-only", "Invalid depends_on reference: References in depends_on must be to a whole object (resource, etc), not to an attribute of an object.", node, address, path);
    return;
  }
  const text = ctx.doc.str(node);
  const start = text.length - text.trimStart().length;
  ctx.addReference({ file: ctx.fileIndex, node, ref: { root: t.root, steps: t.steps, start, end: text.trimEnd().length }, whole: false, address, path });
}

/** Roots of references that are not resources: what replace_triggered_by may not name (count.index and each.key aside). */
const NON_RESOURCE_ROOTS = new Set(["var", "local", "module", "path", "terraform", "self", "count", "each"]);

/**
 * replace_triggered_by: a static array of strings, each an expression (not a template) that refers
 * to at least one resource or data source, and otherwise only to count.index and each.key (an
 * index such as "tsdb_vpcs.a[count.index]" is allowed; Terraform's words).
 */
function checkReplaceTriggeredBy(ctx: Ctx, value: number, address: string | null, path: string | null): void {
  const doc = ctx.doc;
  if (doc.kinds[value] !== K_ARRAY) {
    invalidExpression(ctx, value, address, path, "A static list expression is required.");
    return;
  }
  for (const e of doc.elements(value)) {
    if (!doc.isString(e)) {
      ctx.error("reference-only", "Invalid reference expression: A single reference string is required.", e, address, path);
      continue;
    }
    const text = doc.str(e);
    if (hasTemplate(text)) {
      // read as an expression, "${" is no token at all
      ctx.error("template-syntax", "Invalid character: This character is not used within the language.", e, address, path);
      invalidExpression(ctx, e, address, path, "Expected the start of an expression, but found an invalid expression token.");
      continue;
    }
    const info = analyzeTemplate(`\${${text}}`);
    if (info.problem) {
      invalidExpression(ctx, e, address, path, "Expected the start of an expression, but found an invalid expression token.");
      continue;
    }
    let resources = 0;
    for (const r of info.references) {
      if (LITERAL_WORDS.has(r.root)) continue;
      const first = r.steps[0];
      const name = first?.kind === "attr" ? first.name : null;
      if (r.root === "each" && name !== "key") {
        ctx.error("replace-triggered-by", "Invalid each reference in replace_triggered_by expression: Only each.key may be used in replace_triggered_by.", e, address, path);
      } else if (r.root === "count" && name === "index") {
        // allowed
      } else if (r.root === "each") {
        // each.key: allowed
      } else if (NON_RESOURCE_ROOTS.has(r.root)) {
        ctx.error("replace-triggered-by", "Invalid reference in replace_triggered_by expression: Only resources, count.index, and each.key may be used in replace_triggered_by.", e, address, path);
      } else if (r.root !== "data" && (r.steps.length === 0 || r.steps[0]!.kind !== "attr")) {
        // a bare word is a resource type without its name
        ctx.error("invalid-reference", "Invalid reference: A reference to a resource type must be followed by at least one attribute access, specifying the resource name.", e, address, path);
        resources++;
      } else {
        resources++;
        ctx.dependencies?.bare(ctx, r.root, r.steps, address); // an edge of the dependency graph (cycles.ts)
      }
    }
    if (resources === 0) ctx.error("replace-triggered-by", "Invalid replace_triggered_by expression: Missing resource reference in replace_triggered_by expression.", e, address, path);
  }
}
