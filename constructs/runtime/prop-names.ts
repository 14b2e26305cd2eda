// Validation messages speak Terraform (`sync_replicas`), the language of the schema, the provider
// and `schemaform validate`; a CDKTF user wrote `syncReplicas`. At synth, each attribute path a
// message mentions is followed by the prop path where the two differ:
// `sync_replicas (syncReplicas) = 1 requires ha_replicas (haReplicas) = 2`.
import type { PathSegment } from "../../language/schema/attribute-path.js";
import type { AttributeModel, BlockModel, NestedBlockModel } from "../../language/schema/model-types.js";

// A quoted value (left alone: values, suggestions, map keys), or an attribute path candidate
// such as `tables[0].table_mapping.schema_name` that is not part of a longer word or address.
const TOKEN = /"(?:[^"\\]|\\.)*"|(?<![\w$./{-])[a-z][a-z0-9_]*(?:\[\d+\])*(?:\.[a-z][a-z0-9_]*(?:\[\d+\])*)*/g;

/**
 * The message with prop paths added. A path is looked up in the blocks along the path,
 * innermost first (a rule on a nested object names its fields relative to that object), then
 * from the root; what is no attribute path, or reads the same in camelCase, is left as it is.
 * Each path is annotated once per message.
 */
export function withPropNames(message: string, path: readonly PathSegment[], root: BlockModel): string {
  const scopes = blocksAlong(root, path);
  const done = new Set<string>();
  return message.replace(TOKEN, (text) => {
    if (text.startsWith('"') || done.has(text)) return text;
    for (const scope of scopes) {
      const props = propPath(scope, text);
      if (props === undefined) continue;
      done.add(text);
      return props === text ? text : `${text} (${props})`;
    }
    return text;
  });
}

/** The blocks a path passes through, innermost first, ending with the root. */
function blocksAlong(root: BlockModel, path: readonly PathSegment[]): BlockModel[] {
  const blocks = [root];
  let block: BlockModel | undefined = root;
  for (const segment of path) {
    if (typeof segment === "number" || !block) continue;
    block = block.attributes[segment]?.nested?.block ?? block.blocks[segment]?.block;
    if (block) blocks.unshift(block);
  }
  return blocks;
}

/**
 * `table_mapping.schema_name` → `tableMapping.schemaName` within `block`, or undefined when the
 * first name is no attribute or block of it. Past a leaf attribute (a map, say) the rest is a
 * key or an element and is kept as written.
 */
function propPath(block: BlockModel, text: string): string | undefined {
  const parts = text.split(".");
  let current: BlockModel | undefined = block;
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (!current) {
      out.push(...parts.slice(i));
      break;
    }
    const [name, indices] = splitIndices(part);
    const attribute: AttributeModel | undefined = current.attributes[name];
    const nested: NestedBlockModel | undefined = attribute ? undefined : current.blocks[name];
    if (attribute) {
      out.push(attribute.camel + indices);
      current = attribute.nested?.block;
    } else if (nested) {
      out.push(nested.camel + indices);
      current = nested.block;
    } else {
      return undefined;
    }
  }
  return out.join(".");
}

function splitIndices(part: string): [string, string] {
  const at = part.indexOf("[");
  return at < 0 ? [part, ""] : [part.slice(0, at), part.slice(at)];
}
