// A configuration built as an HCL-JSON document (a reference page's example, what `schemaform
// import` generates), written again in native HCL (`.tf`). The provider schemas decide what becomes a nested block (`timeouts { … }`)
// and what stays an attribute holding an object (`credentials = { … }`); HCL-JSON strings are
// templates, so a `${…}` reference turns into a bare expression and literal text stays literal.
import type { BlockModel, TypeModel } from "../schema/model-types.js";
import { attribute, block, comment, expression, fromTemplate, renderHcl, type BodyItem, type HclValue } from "../syntax/native/writer.js";

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Top-level keys of an example document, in the order Terraform users expect to read them. */
const TOP_LEVEL = ["terraform", "variable", "provider", "resource", "data", "ephemeral", "output", "import"];

export function configurationToHcl(config: Record<string, unknown>, models: TypeModel[]): string {
  const byKey = new Map(models.map((m) => [m.key, m]));
  const model = (key: string): BlockModel => {
    const found = byKey.get(key);
    if (!found) throw new Error(`an example uses ${key}, which has no schema`);
    return found.block;
  };
  const items: BodyItem[] = [];
  for (const key of Object.keys(config)) if (!TOP_LEVEL.includes(key)) throw new Error(`an example has top-level key ${key}, which the HCL writer does not know`);
  for (const key of TOP_LEVEL) {
    const section = config[key] as Json | undefined;
    if (section === undefined) continue;
    switch (key) {
      case "terraform": {
        const settings = section as JsonObject;
        const required = settings.required_providers as JsonObject;
        items.push(block("terraform", [], [block("required_providers", [], Object.entries(required).map(([name, v]) => attribute(name, value(v))))]));
        break;
      }
      case "variable":
        for (const [name, v] of Object.entries(section as JsonObject)) {
          const { type, ...rest } = v as JsonObject;
          items.push(block("variable", [name], [attribute("type", expression(String(type))), ...Object.entries(rest).map(([k, x]) => attribute(k, value(x)))]));
        }
        break;
      case "provider":
        for (const [name, body] of Object.entries(section as JsonObject)) items.push(block("provider", [name], bodyItems(body as JsonObject, model(`provider.${name}`))));
        break;
      case "resource":
      case "data":
      case "ephemeral":
        for (const [type, named] of Object.entries(section as JsonObject)) {
          for (const [name, body] of Object.entries(named as JsonObject)) items.push(block(key, [type, name], resourceItems(body as JsonObject, model(`${key}.${type}`))));
        }
        break;
      case "output":
        for (const [name, v] of Object.entries(section as JsonObject)) items.push(block("output", [name], [attribute("value", value((v as JsonObject).value!))]));
        break;
      case "import":
        for (const v of section as JsonObject[]) {
          // `to` is a reference-only position: a bare address in HCL-JSON as in native HCL.
          items.push(block("import", [], [attribute("to", expression(String(v.to))), attribute("id", value(v.id!))]));
        }
        break;
    }
  }
  return renderHcl(items);
}

/**
 * A resource's body: its `"//"` comment as a comment, `lifecycle` as the meta-argument block
 * (`ignore_changes` names attributes: bare in native HCL), the rest by its schema.
 */
function resourceItems(body: JsonObject, model: BlockModel): BodyItem[] {
  const comments: BodyItem[] = [];
  const lifecycle: BodyItem[] = [];
  const rest: JsonObject = {};
  for (const [name, v] of Object.entries(body)) {
    if (name === "//") comments.push(comment(String(v)));
    else if (name === "lifecycle") {
      const { ignore_changes, ...others } = v as JsonObject;
      if (Object.keys(others).length > 0) throw new Error(`lifecycle sets ${Object.keys(others).join(", ")}, which the HCL writer does not know`);
      const ignored = Array.isArray(ignore_changes) ? ignore_changes.map((n) => expression(String(n))) : [];
      lifecycle.push(block("lifecycle", [], [attribute("ignore_changes", ignored)]));
    } else rest[name] = v;
  }
  // lifecycle after the arguments, as Terraform users write it
  return [...comments, ...bodyItems(rest, model), ...lifecycle];
}

/** A resource, data source or provider body: nested blocks as blocks, everything else as attributes. */
function bodyItems(body: JsonObject, model: BlockModel): BodyItem[] {
  const items: BodyItem[] = [];
  for (const [name, v] of Object.entries(body)) {
    const nested = model.blocks[name];
    if (nested) {
      const bodies = Array.isArray(v) ? (v as JsonObject[]) : [v as JsonObject];
      for (const b of bodies) items.push(block(name, [], bodyItems(b, nested.block)));
      continue;
    }
    if (!model.attributes[name]) throw new Error(`an example sets ${name}, which its schema does not have`);
    items.push(attribute(name, value(v)));
  }
  return items;
}

function value(v: Json): HclValue {
  if (typeof v === "string") return fromTemplate(v);
  if (Array.isArray(v)) return v.map(value);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, value(x)]));
  return v;
}
