// Shared state of one validation run over a module (one or more *.tf.json files).
import type { ModuleFiles } from "../expr/module-files.js";
import type { BlockNames } from "./block-names.js";
import type { RawDiagnostic, Severity } from "../syntax/diagnostics.js";
import type { AttributeModel, CtyType, TypeModel } from "../schema/model-types.js";
import { K_STRING, K_STRING_ESC, rawOffset, type JsonDoc } from "../syntax/json-parser.js";
import { LineMap } from "../syntax/positions.js";
import { MappedLineMap, type NativeSource } from "../syntax/native/lower.js";
import type { Reference } from "../expr/templates.js";
import { type BlockDecl, type RegionCheck, addressOf } from "./declarations.js";

export interface SourceFile {
  name: string;
  text: string;
  doc: JsonDoc | null;
  lines: LineMap;
  /** start, end, start, end, …: [start, end) offsets of values of sensitive attributes, masked in code frames */
  sensitive: number[];
  /** loaded only so that declarations in it count (a sibling of a file the user named) */
  contextOnly: boolean;
  /** an override file (`override.tf.json`, `*_override.tf.json`): merged into other blocks */
  override: boolean;
  /** a native (`.tf`) file: `text` is its lowered JSON, this its own text and the way back to it */
  native?: NativeSource;
  /** offsets in `text` of property names that were blocks in a native file (`timeouts {…}`, not `timeouts = {…}`) */
  blockKeys: Set<number> | null;
  /** a merged text of both syntaxes (below): offsets of the property names that came from JSON, where block and argument are written alike */
  jsonKeys?: Set<number>;
  /**
   * Bodies not checked alone (load/merge-overrides.ts): an override file's blocks merged into a
   * primary file's, and overridden provider configurations (Terraform 1.11 validate skips them).
   */
  unchecked?: Set<number>;
  /** a primary file read with override files merged in: the file and offset each offset of `text` came from */
  origin?: (offset: number) => { file: number; offset: number };
  /** a merged file: offsets of the property names of its merged bodies (Terraform ignores names there that it does not know) */
  mergedKeys?: Set<number>;
  /** a merged file: offsets of the property names an override file added to a body that lacked them */
  addedKeys?: Set<number>;
}

/** A reference to another object found in an expression. */
export interface FoundReference {
  file: number;
  /** the string node holding it */
  node: number;
  ref: Reference;
  /** the whole string is exactly this reference */
  whole: boolean;
  /** where it was found */
  address: string | null;
  path: string | null;
  /** the block holding the reference, and the attribute of our model it is the value of */
  from?: BlockDecl;
  attribute?: string;
  /** the cty type the position expects, when it is an attribute of our model */
  expects?: CtyType;
}

/** The blocks of one type, with what resolving references to them needs (built on first use). */
export interface DeclaredType {
  kind: "resource" | "data";
  type: string;
  names: BlockNames;
  /** the last reference's verdict: from where, to which attribute, and whether that is allowed */
  verdict: { from: TypeModel | undefined; attribute: string | undefined; expects: CtyType | undefined; target: AttributeModel; ok: boolean } | null;
}

export class Ctx {
  readonly diagnostics: RawDiagnostic[] = [];
  readonly blocks: BlockDecl[] = [];
  /** references to input variables, local values and module calls found before all are declared */
  readonly namedReferences: FoundReference[] = [];
  /** once set, references to variables, local values and module calls are handed to it as they are found */
  namedReferenceSink: ((found: FoundReference) => void) | null = null;
  /** file, body, file, body, …: the locals blocks, whose values are checked after every name is declared */
  readonly localsBodies: number[] = [];
  /** references found before every block was declared (resolved at the end) */
  readonly references: FoundReference[] = [];
  /** once set, references are handed to it as they are found */
  referenceSink: ((found: FoundReference) => void) | null = null;
  /** resources and data sources by kind, type and name */
  readonly declared = { resource: new Map<string, BlockNames>(), data: new Map<string, BlockNames>() };
  /** ephemeral resources by "type.name" (few: a plain map, outside the hashed look-ups above) */
  readonly ephemeralBlocks = new Map<string, BlockDecl>();
  /** region checks waiting for the other block to be converted */
  readonly pendingRegions: { from: BlockDecl; check: RegionCheck }[] = [];
  /** the last type looked up by register(): most blocks come in runs of one type */
  lastType: { blockType: string; type: string; model: TypeModel | null; names: BlockNames | null } | null = null;
  /** type hash → the type's names, null when two types share a hash */
  readonly hashedTypes = { resource: new Map<number, DeclaredType | null>(), data: new Map<number, DeclaredType | null>() };
  /** the types literal references went to last, most recent first: references come in runs */
  readonly recentlyReferenced: DeclaredType[] = [];
  /** one conversion at a time: its state object is reused */
  convertState: unknown = null;
  /** block type → type name → model (null: not ours) */
  readonly models = new Map<string, Map<string, TypeModel | null>>();
  /** resource, data and provider blocks, checked once every file has been read */
  readonly pending: BlockDecl[] = [];
  /**
   * file, start, end, …: the values in the content of dynamic blocks whose for_each validate does
   * not know, which Terraform evaluates only at plan (see dynamic-blocks.ts deferUnexpandedContent)
   */
  readonly unexpandedValues: number[] = [];
  /** import blocks' targets in this module (for "not declared" warnings) */
  readonly imports: { file: number; node: number; type: string; name: string; to: string; module: string | null }[] = [];
  /** the module's directory and the root's, for file() and templatefile() (null: not read from disk) */
  moduleFiles: ModuleFiles | null = null;
  /** `${…}` references are collected only for these roots (our providers' types, and data) */
  fileIndex = 0;
  doc!: JsonDoc;
  text = "";
  /**
   * While a resource, data, module or import block is checked: its `each` and `count` references,
   * judged once the block's count / for_each is known. null elsewhere, where neither may be used.
   */
  repetitionRefs: FoundReference[] | null = null;
  /** the list repetitionRefs is while a resource or data block is checked (one block at a time) */
  readonly blockRepetitionRefs: FoundReference[] = [];
  /** the local modules this module calls are read (module-calls.ts holds them, setLocalCalls) */
  readsLocalCalls = false;
  /** a module called by another: root-only rules (outputs) do not apply */
  isChild = false;
  /** the resource, data or provider block being checked (module.ts), to which the references found belong */
  currentBlock: BlockDecl | null = null;
  /** records each reference as an edge of the dependency graph (cycles.ts) */
  dependencies: {
    add(ctx: Ctx, found: FoundReference): void;
    edge(from: BlockDecl, to: BlockDecl): void;
    localEdge(from: BlockDecl, name: string): void;
    edgeAt(ctx: Ctx, address: string | null, path: string | null, to: BlockDecl): void;
    hasValidatedVariables(ctx: Ctx): boolean;
    bare(ctx: Ctx, root: string, steps: Reference["steps"], address: string | null): void;
  } | null = null;
  constructor(readonly files: SourceFile[]) {}
  use(file: number): void {
    this.fileIndex = file;
    this.doc = this.files[file]!.doc!;
    this.text = this.files[file]!.text;
  }
  report(severity: Severity, code: string, message: string, start: number, end: number, address: string | null, path: string | null, file = this.fileIndex): void {
    this.diagnostics.push({ severity, code, message, file, start, end, address, path });
  }
  /** Error at a node (its whole range). */
  error(code: string, message: string, node: number, address: string | null, path: string | null): void {
    this.report("error", code, message, this.doc.start(node), this.doc.end(node), address, path);
  }
  warning(code: string, message: string, node: number, address: string | null, path: string | null): void {
    this.report("warning", code, message, this.doc.start(node), this.doc.end(node), address, path);
  }
  /**
   * Error at a character of a string's value (`offset` counts the decoded value's characters, as
   * Terraform's columns in a JSON string do; a native expression lowered into a JSON string maps
   * through its escapes back to the .tf text).
   */
  errorInString(code: string, message: string, node: number, offset: number, address: string | null, path: string | null): void {
    const doc = this.doc;
    const body = doc.start(node) + 1;
    const start = doc.kinds[node] === K_STRING || this.files[this.fileIndex]!.native === undefined ? body + offset : rawOffset(doc.text, body, offset);
    this.report("error", code, message, start, start + 1, address, path);
  }
  /** Error covering a property: from its name to the end of its value. */
  errorAtProperty(code: string, message: string, keyNode: number, address: string | null, path: string | null): void {
    this.report("error", code, message, this.doc.start(keyNode), this.doc.end(keyNode + 1), address, path);
  }
  /** Error at a reference: its own characters when the string has no escapes, else the whole string. */
  errorAtReference(found: FoundReference, code: string, message: string): void {
    this.use(found.file);
    const doc = this.doc;
    let start = doc.start(found.node);
    let end = doc.end(found.node);
    if (doc.kinds[found.node] === K_STRING || (doc.kinds[found.node] === K_STRING_ESC && this.files[found.file]!.native === undefined)) {
      // Terraform's columns in a JSON string count the decoded value's characters (escapes as one)
      end = start + 1 + found.ref.end;
      start = start + 1 + found.ref.start;
    } else if (doc.kinds[found.node] === K_STRING_ESC) {
      // a native expression lowered into a JSON string: through its escapes, back to the .tf text
      end = rawOffset(doc.text, start + 1, found.ref.end);
      start = rawOffset(doc.text, start + 1, found.ref.start);
    }
    this.report("error", code, message, start, end, found.address ?? (found.from ? addressOf(found.from) : null), found.path, found.file);
  }
  addNamedReference(found: FoundReference): void {
    this.dependencies?.add(this, found);
    if (this.namedReferenceSink) this.namedReferenceSink(found);
    else this.namedReferences.push(found);
  }
  addReference(found: FoundReference): void {
    this.dependencies?.add(this, found);
    if (this.referenceSink) this.referenceSink(found);
    else this.references.push(found);
  }
  markSensitive(node: number): void {
    this.files[this.fileIndex]!.sensitive.push(this.doc.starts[node]!, this.doc.ends[node]!);
  }
}

/** Whether a resource or data block sets count or for_each (found by a scan of its body, once). */
export function repetitionOf(ctx: Ctx, decl: BlockDecl): "count" | "for_each" | null {
  if (decl.repetition !== undefined) return decl.repetition;
  const doc = ctx.files[decl.file]!.doc!;
  let found: "count" | "for_each" | null = null;
  const end = doc.nexts[decl.body]!;
  const text = doc.text;
  for (let k = decl.body + 1; k < end && found === null; k = doc.nexts[k + 1]!) {
    if (doc.kinds[k + 1] === 7 /* null */) continue;
    const from = doc.starts[k]! + 1;
    const length = doc.ends[k]! - from - 1;
    if (length === 5 && text.startsWith("count", from)) found = "count";
    else if (length === 8 && text.startsWith("for_each", from)) found = "for_each";
    else if (doc.kinds[k] === 8 /* escaped */) {
      const name = doc.str(k);
      if (name === "count" || name === "for_each") found = name;
    }
  }
  decl.repetition = found;
  return found;
}

export function newSourceFile(name: string, text: string, doc: JsonDoc | null, contextOnly = false, native?: NativeSource): SourceFile {
  const base = name.replace(/^.*[\\/]/, "");
  const override = base === "override.tf.json" || base.endsWith("_override.tf.json") || base === "override.tf" || base.endsWith("_override.tf");
  return { name, text, doc, lines: native ? new MappedLineMap(native.text, native.toNative) : new LineMap(text), sensitive: [], contextOnly, override, native, blockKeys: native?.blockKeys ?? null };
}

/** Whether a block is not checked on its own: an override merged into its base (checked there), an overridden provider configuration. */
export function unchecked(ctx: Ctx, decl: BlockDecl): boolean {
  return ctx.files[decl.file]!.unchecked?.has(decl.body) === true;
}

/**
 * Whether two nodes of the current file were written in one file: Terraform checks some rules
 * (count beside for_each) per file, before override files are merged in.
 */
export function writtenTogether(ctx: Ctx, a: number, b: number): boolean {
  const origin = ctx.files[ctx.fileIndex]!.origin;
  return !origin || origin(ctx.doc.start(a)).file === origin(ctx.doc.start(b)).file;
}

/** The file name and position an offset of a file stands for (a merged file's offsets came from several files). */
export function sourcePosition(files: SourceFile[], file: number, offset: number): { name: string; line: number; column: number } {
  const origin = files[file]!.origin?.(offset);
  const source = origin ? files[origin.file]! : files[file]!;
  const p = origin ? source.lines.position(origin.offset) : source.lines.position(offset);
  return { name: source.name, line: p.line, column: p.column };
}

/** `a.b`, `tables[0].schema_name`, `labels["x y"]` */
export function joinPath(base: string | null, segment: string | number): string {
  if (typeof segment === "number") return `${base ?? ""}[${segment}]`;
  if (!isIdentifier(segment)) return `${base ?? ""}[${JSON.stringify(segment)}]`;
  return base ? `${base}.${segment}` : segment;
}

function isIdentifier(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  let c = s.charCodeAt(0);
  if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95)) return false;
  for (let i = 1; i < n; i++) {
    c = s.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45)) return false;
  }
  return true;
}

export function quote(s: string): string {
  const shown = s.length > 60 ? `${s.slice(0, 57)}...` : s;
  return JSON.stringify(shown);
}
