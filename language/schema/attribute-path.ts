// Attribute paths: walking a TypeModel along a body path, and printing paths as Terraform does.
import type { AttributeModel, BlockModel, NestedBlockModel } from "./model-types.js";

export type PathSegment = string | number;

/** `tables[0].table_mapping.schema_name` */
export function formatPath(path: readonly PathSegment[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

export interface PathTarget {
  /** The block that holds the last named segment. */
  block: BlockModel;
  attribute?: AttributeModel;
  nestedBlock?: NestedBlockModel;
  /** True when the path went through a sensitive attribute. */
  sensitive: boolean;
}

/** Follows a body path through the model; undefined where the path leaves the schema. */
export function resolvePath(root: BlockModel, path: readonly PathSegment[]): PathTarget | undefined {
  let block = root;
  let target: PathTarget = { block, sensitive: false };
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    if (typeof segment === "number") continue;
    const attribute = block.attributes[segment];
    if (attribute) {
      target = { block, attribute, sensitive: target.sensitive || Boolean(attribute.sensitive) };
      if (attribute.nested) block = attribute.nested.block;
      else return target; // a primitive, list, set or map: anything deeper is an element of it
      continue;
    }
    const nestedBlock = block.blocks[segment];
    if (nestedBlock) {
      target = { block, nestedBlock, sensitive: target.sensitive };
      block = nestedBlock.block;
      continue;
    }
    return i === path.length - 1 ? { block, sensitive: target.sensitive } : undefined;
  }
  return target;
}

/** The block whose members a path's last segment is chosen among (for "did you mean"). */
export function blockAt(root: BlockModel, path: readonly PathSegment[]): BlockModel | undefined {
  if (path.length === 0) return root;
  const target = resolvePath(root, path);
  if (!target) return undefined;
  if (target.attribute?.nested) return target.attribute.nested.block;
  if (target.nestedBlock) return target.nestedBlock.block;
  return undefined;
}
