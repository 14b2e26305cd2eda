// Local module calls ("./x", "../x") read from disk, recursively: each called directory's
// *.tf.json files are parsed and summarised (config/module-summary.ts). A directory that does not
// exist or holds native .tf files, and a call back into a module being read (a loop), are recorded
// as such; a directory read once serves every call of it.
import { type ParsedFile, type ChildModule, type LocalCalls, forEachModuleCall, literalSource, isLocalSource, callKey, emptyChild, declarationsOf } from "../config/module-summary.js";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, resolve } from "node:path";
import { decodeUtf8 } from "../syntax/utf8.js";
import { isNativeName, parseSource } from "./parse-file.js";
import { MappedLineMap } from "../syntax/native/lower.js";
import { LineMap } from "../syntax/positions.js";

/**
 * Reads the local modules that `files` call, recursively. `stack` holds the directories being
 * read (a module that calls one of them is a loop: recorded, not read again); `cache` shares
 * the modules read once between calls of the same directory.
 */
export function loadLocalCalls(files: ParsedFile[], stack: string[] = [], cache = new Map<string, ChildModule>()): LocalCalls {
  const calls: LocalCalls = new Map();
  for (const p of files) {
    // a context-only file lends declarations: the modules it calls are not read
    // (a native file with syntax errors still calls the modules HCL reads past them)
    const doc = p.result.ok ? p.result.doc : (p.recovered ?? null);
    if (doc === null || p.file.contextOnly) continue;
    forEachModuleCall(doc, (_name, body) => {
      const source = literalSource(doc, body);
      if (source === null || !isLocalSource(source)) return;
      const key = callKey(p.file.name, source);
      if (calls.has(key)) return;
      // Terraform reads a local path's backslashes as slashes
      const shown = normalize(join(dirname(p.file.name), source.replace(/\\/g, "/")));
      const dir = resolve(shown);
      if (stack.includes(dir)) {
        calls.set(key, emptyChild(dir, "loop"));
        return;
      }
      let child = cache.get(dir);
      if (!child) {
        child = readChild(dir, shown);
        cache.set(dir, child);
        if (child.kind === "json") {
          stack.push(dir);
          child.calls = loadLocalCalls(child.files, stack, cache);
          stack.pop();
        }
      }
      calls.set(key, child);
    });
  }
  return calls;
}

function readChild(dir: string, shown: string): ChildModule {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) return emptyChild(dir, "missing");
    names = readdirSync(dir).sort();
  } catch {
    return emptyChild(dir, "missing");
  }
  const child = emptyChild(dir, "json");
  for (const n of names) {
    // Terraform ignores hidden files (a name starting with ".")
    if (!(n.endsWith(".tf.json") || isNativeName(n)) || n.startsWith(".")) continue;
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(dir, n));
    } catch {
      continue;
    }
    const { text, replaced } = decodeUtf8(bytes);
    const name = join(shown, n);
    const file = replaced.length > 0 ? { name, text, replaced } : { name, text };
    const parsed = parseSource(n, text);
    const result = parsed.result;
    child.files.push({ file, ...parsed });
    if (result.ok) declarationsOf(result.doc, child, name, parsed.native ? new MappedLineMap(text, parsed.native.toNative) : new LineMap(text));
  }
  return child;
}
