// Reads schemas/ into memory, in a stable order, with local `$ref`s resolved, so every emitter
// sees the same fully expanded tree.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { TypeKind } from "../language/schema/model-types.js";

/** A JSON Schema node of our dialect (loosely typed: the emitters read known keywords). */
export type SchemaNode = { [keyword: string]: any };

export interface TerraformRoot {
  kind: TypeKind;
  type: string;
  className: string;
  version: number;
  importFormats?: (string | { format: string; parts?: Record<string, string> })[];
  timeouts?: Record<string, string>;
  rules?: SchemaNode[];
  /** provider functions (a provider schema only; generator/emit-functions.ts) */
  functions?: Record<string, SchemaNode>;
}

export interface SchemaDocument {
  /** "resource.tsdb_service" */
  key: string;
  provider: string;
  root: TerraformRoot;
  schema: SchemaNode;
}

export function loadSchemas(dir: string): SchemaDocument[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".schema.json"))
    .sort();
  return files.map((file) => schemaDocument(file, JSON.parse(readFileSync(join(dir, file), "utf8")) as SchemaNode));
}

/** One schema file's document; `file` is its name (`resource.tsdb_service.schema.json`). */
export function schemaDocument(file: string, raw: SchemaNode): SchemaDocument {
  const key = file.replace(/\.schema\.json$/, "");
  const root = raw["x-terraform"] as TerraformRoot;
  if (!root || `${root.kind}.${root.type}` !== key) {
    throw new Error(`${file}: x-terraform.kind/type must match the file name (${key})`);
  }
  const schema = resolveRefs(raw, raw, file);
  const provider = root.kind === "provider" ? root.type : root.type.split("_")[0]!;
  return { key, provider, root, schema };
}

function resolveRefs(node: any, root: SchemaNode, file: string): any {
  if (Array.isArray(node)) return node.map((n) => resolveRefs(n, root, file));
  if (!node || typeof node !== "object") return node;
  if (typeof node.$ref === "string") {
    const match = /^#\/\$defs\/([^/]+)$/.exec(node.$ref);
    const target = match ? root.$defs?.[match[1]!] : undefined;
    if (!target) throw new Error(`${file}: cannot resolve ${node.$ref}`);
    const { $ref: _ref, ...rest } = node;
    return resolveRefs({ ...target, ...rest }, root, file);
  }
  const out: SchemaNode = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "$defs") continue;
    out[k] = resolveRefs(v, root, file);
  }
  return out;
}

export function xt(node: SchemaNode): SchemaNode {
  return (node["x-terraform"] as SchemaNode | undefined) ?? {};
}
