// Terraform's static check of a traversal into a resource's schema, made at validate on every
// reference to a resource and every lifecycle.ignore_changes path: a block (the resource's body,
// a single nested block, an element of a list of blocks) takes only attribute access (no index,
// not even a string key), and an
// attribute's steps are HCL's traversal of an unknown value of its type (a set has no indexes).
import type { CtyType, NestedBlockModel } from "./model-types.js";
import type { TraversalStep } from "../expr/syntax-tree.js";

export const INDEX_AT_BLOCK = "Invalid index operation: Only attribute access is allowed here, using the dot operator.";

export const INDEX_INTO_SET =
  "Invalid index: Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.";

/** A step that is a constant index (not `[*]`, not an index computed by an expression, which the static check does not see). */
function constantIndex(step: TraversalStep | undefined): step is { kind: "index"; key: string | number } {
  return step !== undefined && step.kind === "index" && step.key !== null;
}

/** Why an index step cannot be taken on a value of type t (a set), or null. */
export function indexProblem(t: CtyType | undefined, step: TraversalStep): string | null {
  return constantIndex(step) && t !== undefined && typeof t !== "string" && t[0] === "set" ? INDEX_INTO_SET : null;
}

/** Why a step cannot be taken on a block (any index: a string key is an attribute written the wrong way), or null. */
export function blockStepProblem(step: TraversalStep): string | null {
  if (!constantIndex(step)) return null;
  return typeof step.key === "number" ? INDEX_AT_BLOCK : `Invalid index operation: Only attribute access is allowed here. Did you mean to access attribute ${JSON.stringify(step.key)} using the dot operator?`;
}

/**
 * Why the steps after an attribute of a type cannot be taken (Terraform's words), or null:
 * a primitive has neither attributes nor indices, a set has no indices.
 */
export function attributeTraversalProblem(type: CtyType, steps: readonly TraversalStep[]): string | null {
  let t: CtyType | undefined = type;
  for (const step of steps) {
    // the static check sees the traversal up to a splat only
    if (t === undefined || step.kind === "splat") return null;
    if (typeof t === "string") {
      return step.kind === "attr" ? `Unsupported attribute: Can't access attributes on a primitive-typed value (${t}).` : "Invalid index: This value does not have any indices.";
    }
    const problem = indexProblem(t, step);
    if (problem) return problem;
    const collection = collectionStepProblem(t, step);
    if (collection) return collection;
    const [kind, inner]: [string, unknown] = t;
    if (kind === "object") {
      const attributes = inner as Record<string, CtyType>;
      // an object type without attributes stands for a dynamic value (builtin-types.ts): any traversal
      if (Object.keys(attributes).length === 0) return null;
      // HCL refuses an attribute an object type lacks, even on an unknown value; a missing key in an index is not judged
      if (step.kind === "attr" && !Object.prototype.hasOwnProperty.call(attributes, step.name)) return `Unsupported attribute: This object does not have an attribute named ${JSON.stringify(step.name)}.`;
      t = step.kind === "attr" || (step.kind === "index" && typeof step.key === "string") ? attributes[step.kind === "attr" ? step.name : (step.key as string)] : undefined;
    } else if (step.kind === "attr" && kind !== "map") {
      return attributesOfCollectionProblem(kind, inner as CtyType, step.name);
    } else t = inner as CtyType;
  }
  return null;
}

/** HCL's words for an attribute taken on a list or set (a map's attribute is a key). */
function attributesOfCollectionProblem(kind: string, element: CtyType, name: string): string {
  const ofObjects = typeof element !== "string" && element[0] === "object";
  if (ofObjects && kind === "list") {
    return `Unsupported attribute: Can't access attributes on a list of objects. Did you mean to access attribute ${JSON.stringify(name)} for a specific element of the list, or across all elements of the list?`;
  }
  if (ofObjects && kind === "set") return "Unsupported attribute: Can't access attributes on a set of objects. Did you mean to access an attribute across all elements of the set?";
  return "Unsupported attribute: This value does not have any attributes.";
}

/**
 * Why a step cannot be taken on a list or set value, or null: an attribute of the collection
 * (the element was meant), a list index that is a string but no number.
 */
export function collectionStepProblem(t: CtyType | undefined, step: TraversalStep): string | null {
  if (t === undefined || typeof t === "string" || (t[0] !== "list" && t[0] !== "set")) return null;
  if (step.kind === "attr") return collectionAttributeProblem(t[0], t[1] as CtyType, step.name);
  // a list's index is a number: a string converts only when it is one
  if (t[0] === "list" && step.kind === "index" && typeof step.key === "string" && !/^-?[0-9]+(\.[0-9]+)?$/.test(step.key.trim())) {
    return "Invalid index: The given key does not identify an element in this collection value: a number is required.";
  }
  return null;
}

/** hcl's words for an attribute taken of a list or set (of objects: the element was meant). */
function collectionAttributeProblem(kind: "list" | "set", element: CtyType, name: string): string {
  const objects = Array.isArray(element) && element[0] === "object";
  if (!objects) return "Unsupported attribute: This value does not have any attributes.";
  return kind === "list"
    ? `Unsupported attribute: Can't access attributes on a list of objects. Did you mean to access attribute ${JSON.stringify(name)} for a specific element of the list, or across all elements of the list?`
    : "Unsupported attribute: Can't access attributes on a set of objects. Did you mean to access an attribute for a specific element of the set, or across all elements of the set?";
}

/**
 * Why the steps after a nested block's name cannot be taken: a single block is a block (no
 * index), an element of a list of blocks too; what lies further inside is left to the caller's
 * other checks (null).
 */
export function nestedBlockTraversalProblem(nested: NestedBlockModel, steps: readonly TraversalStep[]): string | null {
  let at = 0;
  if (nested.nesting === "list") {
    if (!constantIndex(steps[0])) return null;
    at = 1;
  } else if (nested.nesting !== "single") return null;
  const step = steps[at];
  if (step === undefined) return null;
  const problem = blockStepProblem(step);
  if (problem) return problem;
  if (step.kind !== "attr") return null;
  const attribute = Object.prototype.hasOwnProperty.call(nested.block.attributes, step.name) ? nested.block.attributes[step.name]! : undefined;
  if (attribute) return attributeTraversalProblem(attribute.type, steps.slice(at + 1));
  const inner = Object.prototype.hasOwnProperty.call(nested.block.blocks, step.name) ? nested.block.blocks[step.name]! : undefined;
  return inner ? nestedBlockTraversalProblem(inner, steps.slice(at + 1)) : null;
}
