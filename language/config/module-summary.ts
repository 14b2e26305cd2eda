// What a called local module declares, as its callers' rules need it: variables (required or not,
// literal type, validation rules), outputs, its first provider block, required_providers and
// configuration_aliases, the modules it calls in turn, and the providers its types imply. Read
// from the child's parsed files; the directories are read by load/local-modules.ts.
import { dirname } from "node:path";
import { parseJson, forObjects, JsonDoc, K_FALSE, K_TRUE } from "../syntax/json-parser.js";
import { type ValidationRule, validationRules } from "./variable-validation.js";
import { hasTemplate } from "../expr/templates.js";
import { LineMap } from "../syntax/positions.js";
import { configurationAliases as aliasesIn } from "./required-providers.js";
import type { NativeSource } from "../syntax/native/lower.js";

/** A parsed file of a module (the shape module.ts works on). */
export interface ParsedFile {
  file: { name: string; text: string; replaced?: number[]; contextOnly?: boolean };
  result: ReturnType<typeof parseJson>;
  /** a native (`.tf`) file: its own text and how positions of `result`'s lowered JSON map into it */
  native?: NativeSource;
  /** a native file's syntax errors, offsets into its own text */
  nativeProblems?: { summary: string; detail: string; offset: number; endOffset: number }[];
  /** a `.tf.json` file's syntax error when `result` is the rest of it as Terraform reads it anyway (json-repair.ts) */
  jsonProblem?: { summary: string; detail: string; offset: number; endOffset: number };
  /** a native file that stopped: what HCL reads past its problems (load/parse-file.ts); only its module calls are read */
  recovered?: JsonDoc;
}

/** What a local module call leads to. */
export interface ChildModule {
  /** resolved directory (identity) */
  dir: string;
  /** "json": only *.tf.json files, checked; "native": .tf files too (not read); "missing": no such directory; "loop": already being called */
  kind: "json" | "native" | "missing" | "loop";
  files: ParsedFile[];
  /** variable name → whether it is required (no default), its literal type expression, and where it is declared */
  variables: Map<string, ChildVariable>;
  outputs: Set<string>;
  /** the first provider block of the module ("tsdb" and where), which rules out count, for_each and depends_on on its calls */
  providerBlock: { name: string; at: string } | null;
  /** required_providers: local name → source */
  requiredProviders: Map<string, string>;
  /** configuration_aliases of required_providers ("tsdb.peer" → source): each call must pass them in its providers map */
  configurationAliases: Map<string, string>;
  /** this module's own local calls, by `callKey` */
  calls: Map<string, ChildModule>;
}

export interface ChildVariable {
  required: boolean;
  type: string | null;
  validations: ValidationRule[];
  /** declared `ephemeral = true`: the only variables a value derived from an ephemeral one may be passed to */
  ephemeral: boolean;
  /** declared `nullable = false` without a default: a null argument leaves it unset */
  nullRefused: boolean;
  /** "modules/net/main.tf.json:10,5" */
  at: string;
}

/** The local calls of one module: callKey(file, source) → child. */
export type LocalCalls = Map<string, ChildModule>;

export function callKey(fileName: string, source: string): string {
  // by directory: a call merged from an override file finds the module its source names
  return `${dirname(fileName)}\u0000${source}`;
}

export function isLocalSource(source: string): boolean {
  return source.startsWith("./") || source.startsWith("../") || source.startsWith(".\\") || source.startsWith("..\\");
}

export function emptyChild(dir: string, kind: ChildModule["kind"]): ChildModule {
  return { dir, kind, files: [], variables: new Map(), outputs: new Set(), providerBlock: null, requiredProviders: new Map(), configurationAliases: new Map(), calls: new Map() };
}

/**
 * The providers whose default configurations a called module (and the local modules it calls)
 * may inherit: the prefixes of its resource, data and ephemeral types. "*" when that cannot be
 * known (a module we did not read, a file that does not parse, a call of a non-local module).
 */
export function providersUsedBy(child: ChildModule, out: Set<string>, seen = new Set<ChildModule>()): void {
  if (seen.has(child)) return;
  seen.add(child);
  if (child.kind !== "json") {
    out.add("*");
    return;
  }
  for (const p of child.files) {
    if (!p.result.ok) {
      out.add("*");
      continue;
    }
    const doc = p.result.doc;
    forObjects(doc, 0, (top) => {
      for (const k of doc.members(top)) {
        const kind = doc.str(k);
        if (kind === "resource" || kind === "data" || kind === "ephemeral") {
          forObjects(doc, k + 1, (types) => {
            for (const t of doc.members(types)) {
              const type = doc.str(t);
              const underscore = type.indexOf("_");
              out.add(underscore > 0 ? type.slice(0, underscore) : type);
            }
          });
        } else if (kind === "module") {
          forObjects(doc, k + 1, (calls) => {
            for (const c of doc.members(calls)) {
              forObjects(doc, c + 1, (body) => {
                const source = literalSource(doc, body);
                if (source === null || !isLocalSource(source)) out.add("*");
              });
            }
          });
        }
      }
    });
  }
  for (const c of child.calls.values()) providersUsedBy(c, out, seen);
}

/** Every top-level `blockType` block with one label: its name and body. */
function forEachLabelled(doc: JsonDoc, blockType: string, each: (name: string, body: number) => void): void {
  forObjects(doc, 0, (top) => {
    for (const k of doc.members(top)) {
      if (doc.str(k) !== blockType) continue;
      forObjects(doc, k + 1, (labels) => {
        for (const l of doc.members(labels)) forObjects(doc, l + 1, (body) => each(doc.str(l), body));
      });
    }
  });
}

export function forEachModuleCall(doc: JsonDoc, each: (name: string, body: number) => void): void {
  forEachLabelled(doc, "module", each);
}

export function literalSource(doc: JsonDoc | null, body: number): string | null {
  if (!doc) return null;
  for (const k of doc.members(body)) {
    if (doc.str(k) === "source" && doc.isString(k + 1)) {
      const s = doc.str(k + 1);
      return hasTemplate(s) ? null : s;
    }
  }
  return null;
}

export function declarationsOf(doc: JsonDoc, child: ChildModule, file: string, lines: LineMap): void {
  const at = (node: number) => {
    const p = lines.position(doc.start(node));
    return `${file}:${p.line},${p.column}`;
  };
  forEachLabelled(doc, "variable", (name, body) => {
    let required = true;
    let type: string | null = null;
    let ephemeral = false;
    let nullable = true;
    for (const k of doc.members(body)) {
      if (doc.str(k) === "default") required = false;
      else if (doc.str(k) === "nullable") nullable = !(doc.kinds[k + 1] === K_FALSE || (doc.isString(k + 1) && doc.str(k + 1) === "false"));
      else if (doc.str(k) === "type" && doc.isString(k + 1)) type = doc.str(k + 1);
      else if (doc.str(k) === "ephemeral") ephemeral = doc.kinds[k + 1] === K_TRUE;
    }
    // a variable declared twice is an error of the child; the first declaration counts
    if (!child.variables.has(name)) child.variables.set(name, { required, type, validations: validationRules(doc, body, at), ephemeral, nullRefused: required && !nullable, at: at(body) });
  });
  forEachLabelled(doc, "output", (name) => child.outputs.add(name));
  forEachLabelled(doc, "provider", (name, body) => {
    child.providerBlock ??= { name, at: at(body) };
  });
  const aliases = new Map<string, string>();
  for (const [name, source] of requiredProviders(doc, aliases)) if (!child.requiredProviders.has(name)) child.requiredProviders.set(name, source);
  for (const [alias, source] of aliases) if (!child.configurationAliases.has(alias)) child.configurationAliases.set(alias, source);
}

/**
 * terraform.required_providers of a file: local name → source ("" when not given); each of an
 * entry's configuration_aliases ("tsdb.peer") is a name too, with the entry's source.
 */
export function requiredProviders(doc: JsonDoc, configurationAliases?: Map<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  forObjects(doc, 0, (top) => {
    for (const k of doc.members(top)) {
      if (doc.str(k) !== "terraform") continue;
      forObjects(doc, k + 1, (terraform) => {
        for (const t of doc.members(terraform)) {
          if (doc.str(t) !== "required_providers") continue;
          forObjects(doc, t + 1, (required) => {
            for (const r of doc.members(required)) {
              let source = "";
              const aliases: string[] = [];
              if (doc.isString(r + 1)) source = ""; // a bare version constraint
              else forObjects(doc, r + 1, (entry) => {
                for (const e of doc.members(entry)) {
                  if (doc.str(e) === "source" && doc.isString(e + 1)) source = doc.str(e + 1);
                  if (doc.str(e) === "configuration_aliases") aliases.push(...aliasesIn(doc, e + 1, doc.str(r)));
                }
              });
              out.set(doc.str(r), source);
              for (const alias of aliases) {
                if (!out.has(alias)) out.set(alias, source);
                if (configurationAliases && !configurationAliases.has(alias)) configurationAliases.set(alias, source);
              }
            }
          });
        }
      });
    }
  });
  return out;
}

/** Every child module reachable from `calls`, each once (in the order they are first called). */
export function childModules(calls: LocalCalls, out = new Map<string, ChildModule>()): Map<string, ChildModule> {
  for (const child of calls.values()) {
    if (child.kind !== "json" || out.has(child.dir)) continue;
    out.set(child.dir, child);
    childModules(child.calls, out);
  }
  return out;
}
