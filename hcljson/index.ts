// Public entry of the HCL-JSON layer: validate Terraform JSON configuration (`*.tf.json`)
// against the language rules and our providers' schemas.
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join, normalize, resolve } from "node:path";
import { loadType } from "./body.js";
import type { Diagnostic } from "./diagnostics.js";
import { validateModule, validateModuleSync, type ModuleFile, type ModuleResult } from "./module.js";
import { decodeUtf8 } from "./utf8.js";
import { typeKeys } from "../generated/registry.js";
import { forOpenTofu, isOpenTofuModule, openTofuFiles, type Engine } from "./opentofu.js";

export type { Diagnostic, DiagnosticSource, Severity } from "./diagnostics.js";
export { sourceOf } from "./diagnostics.js";
export type { ModuleFile, ModuleResult } from "./module.js";
export type { TypeSource } from "./resource.js";
export { validateModule, validateModuleSync, typeKeysOf, generatedTypes } from "./module.js";
export { formatHuman, formatJson, formatSarif, summary } from "./format.js";
export { parseJson, JsonDoc } from "./parser.js";
export { hasTemplate } from "./templates.js";
export { decodeUtf8 } from "./utf8.js";

export interface ValidateOptions {
  /** shown in diagnostics; default "main.tf.json" */
  filename?: string;
}

/** Validates one `*.tf.json` document. Loads the models and validators of the types it uses. */
export async function validateHclJson(text: string, options: ValidateOptions = {}): Promise<Diagnostic[]> {
  const result = await validateModule([{ name: options.filename ?? "main.tf.json", text }]);
  return result.diagnostics;
}

/** Synchronous variant: the types must be loaded first (`await preloadTypes()`). */
export function validateHclJsonSync(text: string, options: ValidateOptions = {}): Diagnostic[] {
  return validateModuleSync([{ name: options.filename ?? "main.tf.json", text }]).diagnostics;
}

/** Loads every type's model and validator, so that the synchronous variants can run. */
export async function preloadTypes(): Promise<void> {
  await Promise.all(typeKeys.map((k) => loadType(k)));
}

/** A file of a module, by its name in a directory listing: Terraform ignores names starting with "." (editors' and tools' hidden files). */
export const TF_JSON = /^[^.].*\.tf\.json$/;

/**
 * Validates files and directories the way Terraform reads modules: a directory is its `*.tf.json`
 * files, read together; files named directly are read together with the other `*.tf.json` files
 * of their directory, which lend their declarations only (their bodies are not checked, their
 * problems not reported), so references across files resolve.
 */
export async function validateFiles(paths: string[], options: { engine?: Engine } = {}): Promise<ModuleResult> {
  const groups = await groupModules(paths, options);
  const diagnostics: Diagnostic[] = [];
  const sources: ModuleResult["sources"] = new Map();
  for (const files of groups.values()) {
    const result = await validateModule(files, undefined, { localModules: true });
    const tofu = options.engine === "opentofu" || isOpenTofuModule(files.map((f) => f.name));
    // one by one: spreading 100,000+ diagnostics into push() overflows the stack
    for (const d of tofu ? forOpenTofu(result.diagnostics) : result.diagnostics) diagnostics.push(d);
    for (const [k, v] of result.sources) if (!files.find((f) => f.name === k)?.contextOnly) sources.set(k, v);
  }
  return { diagnostics, sources };
}

/** A file read as Terraform reads it (bytes that are not UTF-8 become U+FFFD, and are noted). */
export async function readModuleFile(name: string): Promise<ModuleFile> {
  const { text, replaced } = decodeUtf8(await readFile(name));
  return replaced.length > 0 ? { name, text, replaced } : { name, text };
}

/** Reads paths into modules (by directory). Throws on I/O problems. */
export async function groupModules(paths: string[], options: { engine?: Engine } = {}): Promise<Map<string, ModuleFile[]>> {
  // OpenTofu (asked for, or a directory with a *.tofu.json) also reads *.tofu.json, which shadow *.tf.json
  const configurationFiles = (names: string[]) =>
    options.engine === "opentofu" || isOpenTofuModule(names) ? openTofuFiles(names) : names.filter((n) => TF_JSON.test(n)).sort();
  // modules by resolved directory; files by resolved path (a file named twice is read once)
  const groups = new Map<string, Map<string, ModuleFile>>();
  const named = new Map<string, { shown: string; names: Set<string> }>();
  const add = (dir: string, file: ModuleFile) => {
    const key = resolve(dir);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = new Map()));
    const id = resolve(file.name);
    const existing = g.get(id);
    if (!existing || existing.contextOnly) g.set(id, file);
  };
  for (const path of paths) {
    const info = await stat(path);
    if (info.isDirectory()) {
      const names = configurationFiles(await readdir(path));
      for (const n of names) {
        const file = join(path, n);
        add(path, await readModuleFile(file));
      }
    } else {
      const dir = dirname(path);
      add(dir, await readModuleFile(normalize(path)));
      const key = resolve(dir);
      let entry = named.get(key);
      if (!entry) named.set(key, (entry = { shown: dir, names: new Set() }));
      entry.names.add(basename(path));
    }
  }
  // siblings of files named directly: context only
  for (const [key, { shown, names }] of named) {
    let siblings: string[] = [];
    try {
      siblings = configurationFiles(await readdir(shown)).filter((n) => !names.has(n));
    } catch {
      siblings = [];
    }
    for (const n of siblings) {
      const file = join(shown, n);
      if (groups.get(key)?.has(resolve(file))) continue;
      try {
        add(shown, { ...(await readModuleFile(file)), contextOnly: true });
      } catch {
        // an unreadable sibling only loses context
      }
    }
  }
  const out = new Map<string, ModuleFile[]>();
  for (const [dir, g] of groups) out.set(dir, [...g.values()]);
  return out;
}
