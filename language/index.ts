// Public entry of the HCL-JSON layer: validate Terraform JSON configuration (`*.tf.json`)
// against the language rules and our providers' schemas.
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join, normalize, resolve } from "node:path";
import { loadType } from "./schema/body.js";
import type { Diagnostic } from "./syntax/diagnostics.js";
import { validateModule, validateModuleSync, type ModuleFile, type ModuleResult } from "./load/module.js";
import { decodeUtf8 } from "./syntax/utf8.js";
import { typeKeys } from "../generated/registry.js";
import { forOpenTofu, isOpenTofuModule, openTofuFiles, type Engine } from "./load/opentofu.js";
import { CONFIG_FILE, fileNamesIn } from "./load/config-files.js";
import { testFilesIn } from "./load/test-files.js";

export type { Diagnostic, DiagnosticSource, Severity } from "./syntax/diagnostics.js";
export { sourceOf } from "./syntax/diagnostics.js";
export type { ModuleFile, ModuleResult } from "./load/module.js";
export type { TypeSource } from "./schema/convert-state.js";
export { validateModule, validateModuleSync, typeKeysOf, generatedTypes } from "./load/module.js";
export { formatHuman, formatJson, formatSarif, summary } from "./format/output.js";
export { parseJson, JsonDoc } from "./syntax/json-parser.js";
export { hasTemplate } from "./expr/templates.js";
export { decodeUtf8 } from "./syntax/utf8.js";

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

export { TF_JSON, CONFIG_FILE, configFilesIn } from "./load/config-files.js";

/**
 * Validates files and directories the way Terraform reads modules: a directory is its `*.tf` and
 * `*.tf.json` files, read together; files named directly are read together with the other files
 * of their directory, which lend their declarations only (their bodies are not checked, their
 * problems not reported), so references across files resolve.
 */
export async function validateFiles(paths: string[], options: { engine?: Engine } = {}): Promise<ModuleResult> {
  const groups = await groupModules(paths, options);
  const diagnostics: Diagnostic[] = [];
  const sources: ModuleResult["sources"] = new Map();
  for (const files of groups.values()) {
    const result = await validateModule(files, undefined, { localModules: true, files: true });
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
  const configurationFiles = async (dir: string) => {
    const names = await fileNamesIn(dir);
    return options.engine === "opentofu" || isOpenTofuModule(names) ? openTofuFiles(names) : names.filter((n) => CONFIG_FILE.test(n));
  };
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
      // terraform validate reads the module's test files too (load/test-files.ts)
      const names = [...(await configurationFiles(path)), ...(await testFilesIn(path))];
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
      siblings = (await configurationFiles(shown)).filter((n) => !names.has(n));
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
