// Props (camelCase, as users write them) → Terraform attributes (snake_case), driven by the
// type's model rather than one hand-emitted mapper per attribute. Tokens pass through untouched:
// CDKTF resolves them after this, at synth.
import { Token } from "cdktf";
import type { AttributeModel, BlockModel, NestedBlockModel } from "../../language/schema/model-types.js";

type Props = Record<string, unknown>;

// Per block, the attributes and blocks as arrays (the model stores them as objects): built once.
interface Plan {
  attributes: AttributeModel[];
  blocks: NestedBlockModel[];
}
const plans = new WeakMap<BlockModel, Plan>();

function plan(block: BlockModel): Plan {
  let p = plans.get(block);
  if (!p) plans.set(block, (p = { attributes: Object.values(block.attributes), blocks: Object.values(block.blocks) }));
  return p;
}

export function toTerraform(block: BlockModel, object: object | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!object) return out;
  const props = object as Props;
  const { attributes, blocks } = plan(block);
  for (let i = 0; i < attributes.length; i++) {
    const attribute = attributes[i]!;
    const value = props[attribute.camel];
    if (value !== undefined) out[attribute.name] = attribute.nested ? attributeValue(attribute, value) : value;
  }
  for (let i = 0; i < blocks.length; i++) {
    const nested = blocks[i]!;
    const value = props[nested.camel];
    if (value !== undefined) out[nested.name] = blockValue(nested, value);
  }
  return out;
}

function attributeValue(attribute: AttributeModel, value: unknown): unknown {
  const nested = attribute.nested;
  if (!nested || Token.isUnresolved(value)) return value;
  if (nested.nesting === "single") return toTerraform(nested.block, value as Props);
  return (value as Props[]).map((item) => (Token.isUnresolved(item) ? item : toTerraform(nested.block, item)));
}

function blockValue(nested: NestedBlockModel, value: unknown): unknown {
  if (Token.isUnresolved(value)) return value;
  if (nested.nesting === "single") return toTerraform(nested.block, value as Props);
  return (value as Props[]).map((item) => toTerraform(nested.block, item));
}

export interface HclAttribute {
  value: unknown;
  isBlock: boolean;
  type: "simple" | "list" | "set" | "map";
  storageClassType: string;
}

/** The same attributes in the annotated form CDKTF's HCL output (`synth --hcl`) needs. */
export function toHclTerraform(block: BlockModel, props: object | undefined): Record<string, HclAttribute> {
  const plain = toTerraform(block, props);
  const out: Record<string, HclAttribute> = {};
  for (const [name, value] of Object.entries(plain)) {
    const attribute = block.attributes[name];
    const nested = block.blocks[name];
    if (nested) {
      out[name] = { value, isBlock: true, type: nested.nesting === "single" ? "list" : nested.nesting, storageClassType: `${nested.camel}List` };
    } else if (attribute) {
      out[name] = { value, isBlock: false, ...hclKind(attribute) };
    }
  }
  return out;
}

function hclKind(attribute: AttributeModel): Pick<HclAttribute, "type" | "storageClassType"> {
  if (attribute.nested) {
    // CDKTF's HCL renderer prints a "list" whose value is one object as `name = { ... }`: the
    // attribute syntax a nested attribute needs (a "struct" would print `[object Object]`).
    return attribute.nested.nesting === "single"
      ? { type: "list", storageClassType: attribute.camel }
      : { type: attribute.nested.nesting, storageClassType: `${attribute.camel}List` };
  }
  const t = attribute.type;
  if (t === "string") return { type: "simple", storageClassType: "string" };
  if (t === "number") return { type: "simple", storageClassType: "number" };
  if (t === "bool") return { type: "simple", storageClassType: "boolean" };
  const [kind, element] = t as [string, unknown];
  const elementName = element === "number" ? "number" : element === "bool" ? "boolean" : "string";
  if (kind === "map") return { type: "map", storageClassType: `${elementName}Map` };
  return { type: kind === "set" ? "set" : "list", storageClassType: `${elementName}List` };
}
