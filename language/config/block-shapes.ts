// Block shapes in the JSON syntax: a block is an object, an array of objects, [] or null at every
// level; labels are object keys (at least one per level); names follow HCL's identifier rules.
import { Ctx, quote } from "./context.js";
import { K_OBJECT, K_ARRAY, K_NULL, K_STRING } from "../syntax/json-parser.js";
import { type BlockDecl, addressOf } from "./declarations.js";

/**
 * Calls `each` for every block body a nested-block value holds: an object (one block), an array
 * of objects or nulls (several; a null is an empty body), `null` or `[]` (none). Anything else is
 * an error.
 */
export function forEachInstance(ctx: Ctx, value: number, what: string, address: string | null, path: string | null, each: (body: number) => void): void {
  const doc = ctx.doc;
  const kind = doc.kinds[value];
  if (kind === K_OBJECT) each(value);
  else if (kind === K_ARRAY) {
    const end = doc.nexts[value]!;
    for (let c = value + 1; c < end; c = doc.nexts[c]!) {
      const element = doc.kinds[c];
      // a null element is a block with an empty body (a null in place of the whole value is none)
      if (element === K_OBJECT || element === K_NULL) each(c);
      else if (element === K_ARRAY) forEachInstance(ctx, c, what, address, path, each); // Terraform flattens nested arrays
      else blockElementError(ctx, c, address, path);
    }
  } else if (kind !== K_NULL) blockShapeError(ctx, value, what, address, path);
}

/** A block given as something other than an object or an array (Terraform's wording). */
export function blockShapeError(ctx: Ctx, node: number, what: string, address: string | null, path: string | null): void {
  ctx.error("block-shape", `Incorrect JSON value type: Either a JSON object or a JSON array is required, representing the contents of one or more "${what}" blocks.`, node, address, path);
}

/** An element of an array of blocks that is not an object (Terraform's wording). */
export function blockElementError(ctx: Ctx, node: number, address: string | null, path: string | null): void {
  ctx.error("block-shape", "Incorrect JSON value type: Either a JSON object or JSON array of objects is required here, to define arguments and child blocks.", node, address, path);
}

/**
 * Walks `remaining` levels of label objects, then the bodies. `each` gets the labels above the
 * last one (a shared array: copy it to keep it), the last label ("" when the block has none),
 * the node to report the block at, and the body.
 */
type LabelVisitor = (prefix: readonly string[], last: string, header: number, body: number) => void;

export function walkLabels(ctx: Ctx, value: number, blockType: string, remaining: number, labels: string[], header: number, each: LabelVisitor): void {
  const doc = ctx.doc;
  if (remaining === 0) {
    // several bodies in an array: each is reported at its own opening brace
    const inArray = doc.kinds[value] === K_ARRAY;
    forEachInstance(ctx, value, blockType, null, null, (body) => each(labels, "", inArray ? body : header, body));
    return;
  }
  forEachLabel(ctx, value, blockType, labels.length, null, null, (k) => {
    const label = doc.str(k);
    if (remaining > 1) {
      labels.push(label);
      walkLabels(ctx, k + 1, blockType, remaining - 1, labels, k, each);
      labels.pop();
      return;
    }
    const v = k + 1;
    const vk = doc.kinds[v];
    if (vk === K_OBJECT) each(labels, label, k, v);
    // bodies in an array (arrays of arrays flattened, as Terraform does): each at its own brace
    else if (vk === K_ARRAY) forEachInstance(ctx, v, blockType, null, null, (body) => each(labels, label, body, body));
    else if (vk !== K_NULL) blockShapeError(ctx, v, blockType, null, null);
  });
}

/** The labels of each labelled block type, in the words of Terraform's messages: "the resource block's type", "Invalid data source name". */
const LABELS: Record<string, { noun: string; kinds: string[] }> = {
  resource: { noun: "resource", kinds: ["type", "name"] },
  data: { noun: "data source", kinds: ["type", "name"] },
  ephemeral: { noun: "ephemeral resource", kinds: ["type", "name"] },
  action: { noun: "action", kinds: ["type", "name"] },
  provider: { noun: "provider", kinds: ["name"] },
  variable: { noun: "variable", kinds: ["name"] },
  output: { noun: "output", kinds: ["name"] },
  module: { noun: "module", kinds: ["name"] },
  check: { noun: "check", kinds: ["name"] },
  provisioner: { noun: "provisioner", kinds: ["type"] },
  dynamic: { noun: "dynamic block", kinds: ["type"] },
  backend: { noun: "backend", kinds: ["type"] },
  provider_meta: { noun: "provider_meta", kinds: ["provider"] },
};

/**
 * One label level of a block: an object whose keys are labels, or an array of such objects, with
 * at least one label in all. Terraform's JSON decoder reports `null`, `{}` and `[]` here as a
 * missing label (at a body they mean "no block"), and reads "//" here as a label, not a comment.
 * Calls `each` with every label's property-name node.
 */
export function forEachLabel(ctx: Ctx, value: number, blockType: string, level: number, address: string | null, path: string | null, each: (key: number) => void): void {
  const doc = ctx.doc;
  const labelKind = LABELS[blockType]?.kinds[level] ?? "label";
  let labels = 0;
  const visit = (object: number) => {
    const end = doc.nexts[object]!;
    for (let k = object + 1; k < end; k = doc.nexts[k + 1]!) {
      labels++;
      each(k);
    }
  };
  const kind = doc.kinds[value];
  if (kind === K_OBJECT) visit(value);
  else if (kind === K_ARRAY) {
    const end = doc.nexts[value]!;
    for (let c = value + 1; c < end; c = doc.nexts[c]!) {
      if (doc.kinds[c] === K_OBJECT) visit(c);
      else ctx.error("block-shape", `Incorrect JSON value type: A JSON object is required here, to specify ${labelKind} labels for this block.`, c, address, path);
    }
  } else if (kind !== K_NULL) {
    ctx.error("block-shape", `Incorrect JSON value type: Either a JSON object or JSON array of objects is required here, to specify ${labelKind} labels for this block.`, value, address, path);
  }
  if (labels === 0) ctx.error("missing-label", `Missing block label: At least one object property is required, whose name represents the ${blockType} block's ${labelKind}.`, value, address, path);
}

/** The type-level keys of a resource or data value (an object, or an array of objects), without reporting its shape. */
export function forEachTypeKey(doc: Ctx["doc"], value: number, each: (key: number) => void): void {
  const visit = (object: number) => {
    const end = doc.nexts[object]!;
    for (let k = object + 1; k < end; k = doc.nexts[k + 1]!) each(k);
  };
  const kind = doc.kinds[value];
  if (kind === K_OBJECT) visit(value);
  else if (kind === K_ARRAY) {
    const end = doc.nexts[value]!;
    for (let c = value + 1; c < end; c = doc.nexts[c]!) if (doc.kinds[c] === K_OBJECT) visit(c);
  }
}

/** The type label's key above a resource's name key (found by walking back: only when reporting). */
export function typeKeyOf(ctx: Ctx, nameKey: number): number {
  const doc = ctx.doc;
  for (let n = nameKey - 1; n > 0; n--) {
    if (doc.kinds[n] === K_OBJECT && doc.nexts[n]! > nameKey) {
      // the object holding the names: the type key is just before it (or before the array holding it)
      if (doc.kinds[n - 1] === K_STRING || doc.isString(n - 1)) return n - 1;
      for (let m = n - 1; m > 0; m--) if (doc.kinds[m] === K_ARRAY && doc.nexts[m]! > nameKey) return m - 1;
      return nameKey;
    }
  }
  return nameKey;
}

/**
 * HCL's identifiers: a Unicode letter or "_", then letters, digits, "_" and "-". JavaScript's
 * ID_Continue has the zero-width joiner and non-joiner, HCL's does not.
 */
const UNICODE_NAME = /^[\p{ID_Start}_](?:(?![\u200c\u200d])[\p{ID_Continue}-])*$/u;

export function isName(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  let c = s.charCodeAt(0);
  if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95)) return c > 127 && UNICODE_NAME.test(s);
  for (let i = 1; i < n; i++) {
    c = s.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45)) return c > 127 && UNICODE_NAME.test(s);
  }
  return true;
}

export function checkLabel(ctx: Ctx, decl: BlockDecl, index: number, label: string): void {
  if (isName(label)) return;
  const labels = LABELS[decl.blockType];
  const what = labels && labels.kinds[index] !== undefined ? `${labels.noun} ${labels.kinds[index]}` : "name";
  ctx.error("invalid-name", `Invalid ${what}: A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes (got ${quote(label)}).`, decl.header, addressOf(decl), null);
}

export function walkNestedLabels(ctx: Ctx, value: number, what: string, labels: number, address: string | null, path: string | null, each: (body: number) => void, level = 0): void {
  if (labels === 0) {
    forEachInstance(ctx, value, what, address, path, each);
    return;
  }
  forEachLabel(ctx, value, what, level, address, path, (k) => walkNestedLabels(ctx, k + 1, what, labels - 1, address, path, each, level + 1));
}
