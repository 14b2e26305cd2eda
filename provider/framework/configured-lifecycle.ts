// Whether the configuration Terraform runs gives a resource `lifecycle { create_before_destroy =
// true }`. The plugin protocol never tells a provider a resource's lifecycle (nor its address), so
// a plan-time warning that recommends create_before_destroy would be given again after the user
// added it. The configuration is read from Terraform's working directory instead: the root
// module's `*.tf` and `*.tf.json` files (a CDKTF stack's `cdk.tf.json` among them) and the local
// modules it calls. A block is this resource's when its literal arguments agree with the planned
// configuration (a non-literal argument agrees with anything); the answer is yes only when at
// least one block of the type agrees and every one that agrees sets create_before_destroy, so an
// unreadable or unfamiliar configuration keeps the warning.
import { readdir, readFile, readlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { forObjects, parseJson, type JsonDoc } from "../../language/syntax/json-parser.js";
import { UNKNOWN } from "../codec.js";
import type { Body } from "./types.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Arguments that are Terraform's, not the resource type's: never compared with the configuration. */
const META = new Set(["count", "for_each", "provider", "depends_on", "lifecycle", "provisioner", "connection", "timeouts", "//"]);

/** How deep local module calls are followed (a module calling itself stops there too). */
const MAX_MODULE_DEPTH = 8;

/** The working directory of the Terraform process `pid` (its plugins inherit it; a resident server may not). */
export async function terraformDirectory(pid: number | undefined): Promise<string> {
  if (pid !== undefined) {
    try {
      return await readlink(`/proc/${pid}/cwd`);
    } catch {
      // No /proc (macOS): a plugin Terraform started itself runs in Terraform's directory.
    }
  }
  return process.cwd();
}

export async function configuredCreateBeforeDestroy(dir: string, type: string, config: Body): Promise<boolean> {
  const blocks: JsonObject[] = [];
  await collectBlocks(resolve(dir), type, blocks, new Set(), 0);
  const agreeing = blocks.filter((block) => agrees(block, config));
  return agreeing.length > 0 && agreeing.every(createsBeforeDestroying);
}

async function collectBlocks(dir: string, type: string, into: JsonObject[], seen: Set<string>, depth: number): Promise<void> {
  if (seen.has(dir) || depth > MAX_MODULE_DEPTH) return;
  seen.add(dir);
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile() && /^[^.].*\.tf(?:\.json)?$/.test(e.name)).map((e) => e.name);
  } catch {
    return;
  }
  const calls: string[] = [];
  for (const name of names.sort()) {
    const doc = await readConfiguration(join(dir, name));
    if (doc === null) continue;
    // Members one by one: a native file lowers each block to its own top-level key, so "resource" repeats.
    for (const top of members(doc, 0)) {
      const key = doc.str(top);
      if (key === "resource") {
        for (const byType of members(doc, top + 1)) {
          if (doc.str(byType) !== type) continue;
          for (const byName of members(doc, byType + 1)) forObjects(doc, byName + 1, (body) => into.push(doc.toValue(body) as JsonObject));
        }
      } else if (key === "module") {
        for (const call of members(doc, top + 1)) {
          forObjects(doc, call + 1, (body) => {
            const source = (doc.toValue(body) as JsonObject).source;
            if (typeof source === "string" && /^\.\.?\//.test(source)) calls.push(resolve(dir, source));
          });
        }
      }
    }
  }
  for (const child of calls) await collectBlocks(child, type, into, seen, depth + 1);
}

/** The property names of each object at a block level (one object, or a list of them), duplicates included. */
function members(doc: JsonDoc, node: number): number[] {
  const out: number[] = [];
  forObjects(doc, node, (object) => out.push(...doc.members(object)));
  return out;
}

/** A file's configuration in the JSON syntax's tree: native files lowered as `schemaform validate` reads them; null when unreadable. */
async function readConfiguration(path: string): Promise<JsonDoc | null> {
  try {
    const text = await readFile(path, "utf8");
    let json = text;
    if (!path.endsWith(".json")) {
      // Loaded only for a native file: most plans never need the parser.
      const [{ parseNative }, { lowerNative }] = await Promise.all([import("../../language/syntax/native/parser.js"), import("../../language/syntax/native/lower.js")]);
      const parsed = parseNative(text, path);
      if (parsed.problems.length > 0) return null;
      json = lowerNative(parsed.file).json;
    }
    const result = parseJson(json);
    return result.ok && result.doc.isObject(0) ? result.doc : null;
  } catch {
    return null;
  }
}

function asObject(value: Json | undefined): JsonObject | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value : null;
}

/** A block level in the JSON syntax: one object, or a list of objects. */
function blocksOf(value: Json | undefined): JsonObject[] {
  if (Array.isArray(value)) return value.map(asObject).filter((v): v is JsonObject => v !== null);
  const object = asObject(value);
  return object ? [object] : [];
}

/** A literal argument that differs from the planned configuration's known value rules a block out. */
function agrees(block: JsonObject, config: Body): boolean {
  for (const [key, written] of Object.entries(block)) {
    if (META.has(key)) continue;
    const planned = config[key];
    if (planned === undefined || planned === null || planned === UNKNOWN) continue;
    if (typeof written === "string" && /[$%]\{/.test(written)) continue;
    if (typeof written === "string" || typeof written === "number" || typeof written === "boolean") {
      if (typeof planned === "object" || String(planned) !== String(written)) return false;
    }
  }
  return true;
}

function createsBeforeDestroying(block: JsonObject): boolean {
  return blocksOf(block.lifecycle).some((lifecycle) => lifecycle.create_before_destroy === true || lifecycle.create_before_destroy === "true");
}
