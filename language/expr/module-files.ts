// file() and templatefile() as `terraform validate` evaluates them: Terraform reads the file when
// the path is known, relative to the directory it runs in (the root module's), so a missing file,
// a directory, a file that is not UTF-8, a template naming a variable it is not given, are errors
// at validate; a file that is there is a known value (a template rendered with its variables).
// Only what Terraform would read is read, and less: relative paths inside the root module's
// directory (never an absolute path, `~`, or a path or symbolic link leading out of it), regular
// files up to a size bound; anything else is left unknown. Without a module on disk (a document
// validated from memory) nothing is read.

import { readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, posix, relative, resolve, sep } from "node:path";
import { parseTemplate } from "./template-parser.js";
import { UNKNOWN, EvaluationError, badArgument, callFailed, type Known, type Locals } from "./known.js";
import { withBindings } from "./for-expressions.js";
import type { Expr, ParseResult } from "./syntax-tree.js";

/** The module whose expressions are being evaluated, as far as files go. */
export interface ModuleFiles {
  /** the root module's directory: Terraform runs there, and relative paths are read from it */
  root: string;
  /** `path.module`: the module's directory relative to the root ("." for the root module) */
  modulePath: string;
  /** what was read, by absolute path (a module names the same file many times) */
  cache: Map<string, FileContent>;
}

type FileContent = { kind: "text"; text: string } | { kind: "missing" } | { kind: "directory" } | { kind: "not-utf8" } | { kind: "unread" };

/** Larger files are not read (their value stays unknown). */
export const MAX_FILE_BYTES = 1 << 20;

let current: ModuleFiles | null = null;

/** Runs `run` with the module's files readable by file() and templatefile(). */
export function withModuleFiles<R>(files: ModuleFiles | null, run: () => R): R {
  const saved = current;
  current = files;
  try {
    return run();
  } finally {
    current = saved;
  }
}

export function moduleFilesAt(root: string, moduleDir: string): ModuleFiles {
  const own = relative(root, moduleDir).split(sep).join("/");
  return { root, modulePath: own === "" ? "." : own, cache: new Map() };
}

/** `path.module` and `path.root` ("." for the root module); `path.cwd` is an absolute path, left unknown. */
export function pathValue(name: string): Known {
  if (current === null) return UNKNOWN;
  if (name === "module") return current.modulePath;
  if (name === "root") return ".";
  return UNKNOWN;
}

type Evaluate = (e: Expr, locals: Locals) => Known;

/** Whether `name` is one of the functions read here. */
export function isFileFunction(name: string): boolean {
  return name === "file" || name === "templatefile";
}

/** A call to file() or templatefile() with known arguments (unknown where nothing is read). */
export function fileFunction(name: string, values: Known[], evaluate: Evaluate): Known {
  const files = current;
  const [path, vars] = values;
  // templatefile reads nothing until both arguments are known
  if (files === null || typeof path !== "string" || (name === "templatefile" && vars === UNKNOWN)) return UNKNOWN;
  if (name === "templatefile" && rendering > 0) callFailed(name, "cannot recursively call templatefile from inside another template function");
  const content = read(files, path);
  switch (content.kind) {
    case "unread":
      return UNKNOWN;
    case "missing":
      return badArgument(
        "path",
        `no file exists at ${JSON.stringify(path)}; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource`,
      );
    case "directory":
      return badArgument("path", `failed to read file: read ${cleanPath(path)}: is a directory`);
    case "not-utf8":
      return callFailed(
        name,
        `contents of ${JSON.stringify(path)} are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead`,
      );
  }
  if (name === "file") return content.text;
  return render(path, content.text, vars!, evaluate);
}

/** Go's filepath.Join(".", path): the path cleaned, as Terraform's read error names it. */
function cleanPath(path: string): string {
  const clean = posix.normalize(path);
  return clean.length > 1 && clean.endsWith("/") ? clean.slice(0, -1) : clean;
}

function read(files: ModuleFiles, given: string): FileContent {
  if (given === "" || isAbsolute(given) || given.startsWith("~")) return { kind: "unread" };
  const full = resolve(files.root, given);
  const inside = relative(files.root, full);
  if (inside.startsWith("..") || isAbsolute(inside)) return { kind: "unread" };
  const cached = files.cache.get(full);
  if (cached !== undefined) return cached;
  const content = readUncached(files.root, `${files.root}${sep}${given}`);
  files.cache.set(full, content);
  return content;
}

function readUncached(root: string, path: string): FileContent {
  try {
    // the path as given ("sub/../x" needs "sub"), as the operating system resolves it for Terraform
    const info = statSync(path);
    if (info.isDirectory()) return { kind: "directory" };
    if (!info.isFile() || info.size > MAX_FILE_BYTES) return { kind: "unread" };
    // a symbolic link out of the module's directory is not followed
    const real = relative(realpathSync(root), realpathSync(path));
    if (real.startsWith("..") || isAbsolute(real)) return { kind: "unread" };
    const bytes = readFileSync(path);
    try {
      return { kind: "text", text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
    } catch {
      return { kind: "not-utf8" };
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? { kind: "missing" } : { kind: "unread" };
  }
}

/** templatefile calls being rendered (a template may not call templatefile). */
let rendering = 0;

/** Parsed templates by their text: a module renders one template file many times. */
const parsedTemplates = new Map<string, ParseResult>();

/**
 * A template file rendered with its variables, as templatefile does: every name it refers to must
 * be one of them; its syntax and evaluation errors are the call's, named by file and position.
 */
function render(path: string, text: string, vars: Known, evaluate: Evaluate): Known {
  if (vars === UNKNOWN || vars === null) return UNKNOWN;
  if (typeof vars !== "object" || Array.isArray(vars)) return badArgument("vars", "invalid vars value: must be a map");
  let parsed = parsedTemplates.get(text);
  if (parsed === undefined) {
    if (parsedTemplates.size > 64) parsedTemplates.clear();
    parsedTemplates.set(text, (parsed = parseTemplate(text)));
  }
  if (!parsed.ok) {
    const p = parsed.problem;
    callFailed("templatefile", `${path}:${rangeText(text, p.offset, p.end ?? Math.min(p.offset + 1, text.length))}: ${p.summary}; ${p.detail}`);
  }
  for (const ref of parsed.refs) {
    if (!Object.prototype.hasOwnProperty.call(vars, ref.root)) {
      badArgument("vars", `vars map does not contain key ${JSON.stringify(ref.root)}, referenced at ${path}:${rangeText(text, ref.start, ref.start + ref.root.length)}`);
    }
  }
  const names = Object.keys(vars);
  const values = names.map((n) => vars[n]!);
  const expr = parsed.expr;
  rendering++;
  try {
    // the template sees its variables only (not the names of a for expression around the call)
    return withBindings(names, values, () => evaluate(expr, () => UNKNOWN), true);
  } catch (error) {
    if (!(error instanceof EvaluationError)) throw error;
    // where in the template is not tracked by evaluation: the file is named
    return callFailed("templatefile", `${path}: ${error.summary}; ${error.detail}`);
  } finally {
    rendering--;
  }
}

/** HCL's "line,column-column" (or "line,column-line,column") of a range in a text, columns in characters. */
function rangeText(text: string, start: number, end: number): string {
  const at = (offset: number) => {
    let line = 1;
    let lineStart = 0;
    for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) {
      line++;
      lineStart = i + 1;
    }
    return { line, column: [...text.slice(lineStart, offset)].length + 1 };
  };
  const a = at(start);
  const b = at(end);
  return a.line === b.line ? `${a.line},${a.column}-${b.column}` : `${a.line},${a.column}-${b.line},${b.column}`;
}
