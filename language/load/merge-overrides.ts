// Override files merged into the blocks they override, before any rule reads a body. Terraform
// decodes each file's block structure, merges an override file's resource, data, provider,
// module and output blocks into the primary block of the same address (module_merge.go,
// module_merge_body.go), and only then decodes the merged body against the provider's schema and
// evaluates it. So a primary file whose blocks are overridden is read here as a new JSON text: its
// own text with each such block's body replaced by the merged body, every piece of which maps back
// to the file (and offset) it came from, so that diagnostics point where the value was written.
// The override blocks merged away are then not checked on their own (module.ts).
//
// What is merged, as Terraform merges it: arguments replace arguments of the same name, blocks of
// a type replace every block of that type (a `dynamic` block counts as a block of its label's
// type); a resource's lifecycle takes only create_before_destroy, prevent_destroy and
// ignore_changes from the override; an output takes value, description and sensitive;
// `depends_on`, preconditions and postconditions in an override are refused. Variables and local
// values are not merged here: a variable is checked per file and then merged (variable.ts), an
// override's local value replaces the primary one (local-names.ts).
import { forObjects, parseJson, K_ARRAY, type JsonDoc } from "../syntax/json-parser.js";
import { LineMap, type Position } from "../syntax/positions.js";
import type { RawDiagnostic } from "../syntax/diagnostics.js";
import type { SourceFile } from "../config/context.js";

/** A property of one file's body: its name node (`key`; its value is `key + 1`), or an object built from several. */
type Entry = { name: string; file: number; key: number; inner: Entry[] | null; added?: boolean };

type Kind = "resource" | "data" | "provider" | "module" | "output";

/** A merged body being built: the base block's properties with the overrides applied. */
interface MergedBlock {
  file: number;
  body: number;
  kind: Kind;
  entries: Entry[];
}

const RESOURCE_LIFECYCLE_OVERRIDES = new Set(["create_before_destroy", "prevent_destroy", "ignore_changes"]);
const OUTPUT_OVERRIDES = new Set(["value", "description", "sensitive"]);

const UNSUPPORTED_OVERRIDE = "Unsupported override: The depends_on argument may not be overridden.";

/**
 * The module's files with override files merged in: a primary file that has overridden blocks
 * is replaced by its merged reading (`origin` maps its offsets back); an override file notes the
 * bodies it merged away. Returns the same array when there is nothing to merge. `problems` gets
 * the merge's own errors (an overridden depends_on).
 */
export function mergeOverrides(sources: SourceFile[], problems: RawDiagnostic[]): SourceFile[] {
  if (!sources.some((s) => s.override && s.doc)) return sources;
  const bases = new Map<string, MergedBlock>();
  sources.forEach((s, file) => {
    if (!s.override && s.doc) blocksOf(s.doc, (kind, address, body) => void (bases.has(address) || bases.set(address, { file, body, kind, entries: propertiesOf(s.doc!, body, file) })));
  });
  const touched = new Set<MergedBlock>();
  const overriddenProviders = new Set<string>();
  // override files in name order, as Terraform reads a directory; each merges into what the last left
  const overrides = sources.map((s, file) => ({ s, file })).filter(({ s }) => s.override && s.doc).sort((a, b) => (a.s.name < b.s.name ? -1 : a.s.name > b.s.name ? 1 : 0));
  for (const { s, file } of overrides) {
    const doc = s.doc!;
    blocksOf(doc, (kind, address, body) => {
      const base = bases.get(address);
      if (!base) return;
      (s.unchecked ??= new Set()).add(body);
      // Terraform 1.11's validate does not decode an overridden provider configuration at all (base nor override)
      if (kind === "provider") return void overriddenProviders.add(address);
      touched.add(base);
      mergeBlock(base, doc, body, file, sources, problems);
    });
  }
  const out = sources.slice();
  const byFile = new Map<number, MergedBlock[]>();
  for (const block of touched) byFile.set(block.file, [...(byFile.get(block.file) ?? []), block]);
  for (const [file, blocks] of byFile) out[file] = mergedSource(sources, file, blocks);
  if (overriddenProviders.size > 0) {
    out.forEach((s) => {
      if (s.override || !s.doc) return;
      blocksOf(s.doc, (kind, address, body) => void (kind === "provider" && overriddenProviders.has(address) && (s.unchecked ??= new Set()).add(body)));
    });
  }
  return out;
}

/** Each resource, data, provider, module and output block of a document, by its address. */
function blocksOf(doc: JsonDoc, each: (kind: Kind, address: string, body: number) => void): void {
  const labelled = (node: number, depth: number, prefix: string, done: (address: string, body: number) => void) => {
    forObjects(doc, node, (object) => {
      if (depth === 0) return done(prefix, object);
      for (const k of doc.members(object)) labelled(k + 1, depth - 1, `${prefix}.${doc.str(k)}`, done);
    });
  };
  forObjects(doc, 0, (top) => {
    for (const k of doc.members(top)) {
      const blockType = doc.str(k);
      if (blockType === "resource" || blockType === "data") labelled(k + 1, 2, blockType, (address, body) => each(blockType, address, body));
      else if (blockType === "module" || blockType === "output") labelled(k + 1, 1, blockType, (address, body) => each(blockType, address, body));
      else if (blockType === "provider") labelled(k + 1, 1, blockType, (address, body) => each("provider", `${address}\u0000${aliasOf(doc, body)}`, body));
    }
  });
}

function aliasOf(doc: JsonDoc, body: number): string {
  for (const k of doc.members(body)) if (doc.str(k) === "alias" && doc.isString(k + 1)) return doc.str(k + 1);
  return "";
}

function propertiesOf(doc: JsonDoc, object: number, file: number): Entry[] {
  return doc.members(object).map((key) => ({ name: doc.str(key), file, key, inner: null }));
}

function mergeBlock(base: MergedBlock, doc: JsonDoc, body: number, file: number, sources: SourceFile[], problems: RawDiagnostic[]): void {
  const overriding = propertiesOf(doc, body, file);
  const dependsOn = overriding.find((e) => e.name === "depends_on");
  if (dependsOn) {
    const value = dependsOn.key + 1;
    const first = doc.kinds[value] === K_ARRAY && doc.count(value) > 0 ? value + 1 : value;
    problems.push({ severity: "error", code: "override", message: UNSUPPORTED_OVERRIDE, file, start: doc.start(first), end: doc.end(first), address: null, path: "depends_on" });
  }
  // conditions belong to the primary block: an override may not bring its own
  const refuseConditions = (object: number) => {
    for (const m of doc.members(object)) {
      const name = doc.str(m);
      if (name === "precondition" || name === "postcondition") {
        problems.push({ severity: "error", code: "override", message: `Can't override ${name} blocks: Override files cannot override ${JSON.stringify(name)} blocks.`, file, start: doc.start(m), end: doc.end(m), address: null, path: name });
      }
    }
  };
  if (base.kind === "output") refuseConditions(body);
  if (base.kind === "resource" || base.kind === "data") for (const l of overriding) if (l.name === "lifecycle") forObjects(doc, l.key + 1, refuseConditions);
  let taken = overriding.filter((e) => e.name !== "depends_on");
  if (base.kind === "output") taken = taken.filter((e) => OUTPUT_OVERRIDES.has(e.name));
  if (base.kind === "data") taken = taken.filter((e) => e.name !== "lifecycle");
  if (base.kind === "resource") {
    const lifecycle = taken.filter((e) => e.name === "lifecycle");
    taken = taken.filter((e) => e.name !== "lifecycle");
    if (lifecycle.length > 0) mergeLifecycle(base, lifecycle, doc, sources);
  }
  const dynamic = taken.filter((e) => e.name === "dynamic");
  taken = taken.filter((e) => e.name !== "dynamic");
  // blocks of a type hide the base's blocks of that type, written as blocks or generated by dynamic
  const replaced = new Set(taken.map((e) => e.name));
  const dynamicLabels: Entry[] = [];
  for (const d of dynamic) forObjects(doc, d.key + 1, (object) => dynamicLabels.push(...propertiesOf(doc, object, file)));
  for (const label of dynamicLabels) replaced.add(label.name);
  const kept: Entry[] = [];
  const inserted = new Set<string>();
  let baseDynamic: Entry | null = null;
  for (const entry of base.entries) {
    if (entry.name === "dynamic") {
      const labels = entry.inner ?? dynamicEntries(sources, entry);
      const left = labels.filter((l) => !replaced.has(l.name));
      if (left.length > 0) kept.push((baseDynamic = { ...entry, inner: left }));
      continue;
    }
    if (replaced.has(entry.name)) {
      // in place of the first one it replaces
      if (!inserted.has(entry.name)) kept.push(...taken.filter((t) => t.name === entry.name));
      inserted.add(entry.name);
      continue;
    }
    kept.push(entry);
  }
  // an argument the base does not have: Terraform's provider diagnostics cannot point at it
  for (const t of taken) if (!kept.includes(t)) kept.push({ ...t, added: true });
  if (dynamicLabels.length > 0) {
    if (baseDynamic) baseDynamic.inner!.push(...dynamicLabels);
    else kept.push({ name: "dynamic", file, key: dynamic[0]!.key, inner: dynamicLabels });
  }
  base.entries = kept;
}

/** The labels of a `dynamic` property as entries (its value may be an object or an array of them). */
function dynamicEntries(sources: SourceFile[], entry: Entry): Entry[] {
  const doc = sources[entry.file]!.doc!;
  const out: Entry[] = [];
  forObjects(doc, entry.key + 1, (object) => out.push(...propertiesOf(doc, object, entry.file)));
  return out;
}

/** A resource's lifecycle: the override's create_before_destroy, prevent_destroy and ignore_changes replace the base's. */
function mergeLifecycle(base: MergedBlock, lifecycle: Entry[], doc: JsonDoc, sources: SourceFile[]): void {
  const settings: Entry[] = [];
  for (const l of lifecycle) forObjects(doc, l.key + 1, (object) => settings.push(...propertiesOf(doc, object, l.file).filter((e) => RESOURCE_LIFECYCLE_OVERRIDES.has(e.name))));
  if (settings.length === 0) return;
  const names = new Set(settings.map((s) => s.name));
  const at = base.entries.findIndex((e) => e.name === "lifecycle");
  if (at < 0) {
    base.entries.push({ name: "lifecycle", file: lifecycle[0]!.file, key: lifecycle[0]!.key, inner: settings });
    return;
  }
  const existing = base.entries[at]!;
  // only the first lifecycle object of the base is merged into (a second one is an error anyway)
  const inner = existing.inner ?? firstObjectEntries(sources, existing);
  if (inner === null) return;
  base.entries[at] = { ...existing, inner: [...inner.filter((e) => !names.has(e.name)), ...settings] };
}

function firstObjectEntries(sources: SourceFile[], entry: Entry): Entry[] | null {
  const doc = sources[entry.file]!.doc!;
  let first: number | null = null;
  forObjects(doc, entry.key + 1, (object) => void (first ??= object));
  return first === null ? null : propertiesOf(doc, first, entry.file);
}

/** Pieces of merged text and where each came from. */
class OriginWriter {
  readonly parts: string[] = [];
  length = 0;
  readonly at: number[] = [];
  readonly files: number[] = [];
  readonly offsets: number[] = [];
  /** whether the piece's characters advance through its source (false: each maps to the one offset) */
  readonly advances: boolean[] = [];

  put(s: string, file: number, offset: number, advances: boolean): void {
    if (s.length === 0) return;
    this.parts.push(s);
    this.at.push(this.length);
    this.files.push(file);
    this.offsets.push(offset);
    this.advances.push(advances);
    this.length += s.length;
  }

  /** The file and offset a merged offset stands for. */
  origin(offset: number): { file: number; offset: number } {
    let lo = 0;
    let hi = this.at.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.at[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { file: this.files[lo]!, offset: this.advances[lo] ? this.offsets[lo]! + offset - this.at[lo]! : this.offsets[lo]! };
  }
}

function mergedSource(sources: SourceFile[], file: number, blocks: MergedBlock[]): SourceFile {
  const source = sources[file]!;
  const doc = source.doc!;
  const w = new OriginWriter();
  blocks.sort((a, b) => doc.start(a.body) - doc.start(b.body));
  let from = 0;
  const topKeys = new Set<number>();
  const addedKeys = new Set<number>();
  for (const block of blocks) {
    const start = doc.start(block.body);
    w.put(source.text.slice(from, start), file, from, true);
    writeObject(w, sources, block.entries, file, start, doc.end(block.body) - 1, topKeys, addedKeys);
    from = doc.end(block.body);
  }
  w.put(source.text.slice(from), file, from, true);
  const text = w.parts.join("");
  const parsed = parseJson(text);
  if (!parsed.ok) throw new Error(`internal: a merged configuration is not JSON (${parsed.problem.summary})`);
  const origin = (offset: number) => w.origin(offset);
  return {
    name: source.name,
    text,
    doc: parsed.doc,
    lines: new OriginLineMap(text, origin, sources),
    sensitive: [],
    contextOnly: source.contextOnly,
    override: false,
    ...syntaxKeys(parsed.doc, origin, sources),
    origin,
    mergedKeys: topKeys,
    addedKeys,
  };
}

/** `{…}` of entries; its braces stand for `open` and `close` of `file`. */
function writeObject(w: OriginWriter, sources: SourceFile[], entries: Entry[], file: number, open: number, close: number, keys: Set<number> | null, added: Set<number>): void {
  w.put("{", file, open, false);
  entries.forEach((entry, i) => {
    const doc = sources[entry.file]!.doc!;
    const text = sources[entry.file]!.text;
    if (i > 0) w.put(",", entry.file, doc.start(entry.key), false);
    keys?.add(w.length);
    if (keys !== null && entry.added) added.add(w.length);
    if (entry.inner === null) {
      w.put(text.slice(doc.start(entry.key), doc.end(entry.key + 1)), entry.file, doc.start(entry.key), true);
      return;
    }
    w.put(text.slice(doc.start(entry.key), doc.end(entry.key)), entry.file, doc.start(entry.key), true);
    w.put(":", entry.file, doc.end(entry.key), false);
    writeObject(w, sources, entry.inner, entry.file, doc.start(entry.key + 1), doc.end(entry.key + 1) - 1, null, added);
  });
  w.put("}", file, close, false);
}

/**
 * The property names that were blocks in a native file, at their offsets in the merged text; when
 * the merged text mixes both syntaxes, the names that came from JSON (where either is allowed).
 */
function syntaxKeys(doc: JsonDoc, origin: (offset: number) => { file: number; offset: number }, sources: SourceFile[]): { blockKeys: Set<number> | null; jsonKeys?: Set<number> } {
  if (!sources.some((s) => s.blockKeys)) return { blockKeys: null };
  const blockKeys = new Set<number>();
  const jsonKeys = new Set<number>();
  for (let n = 0; n < doc.size; n++) {
    if (!doc.isString(n)) continue;
    const o = origin(doc.start(n));
    const keys = sources[o.file]!.blockKeys;
    if (keys === null) jsonKeys.add(doc.start(n));
    else if (keys.has(o.offset)) blockKeys.add(doc.start(n));
  }
  return jsonKeys.size > 0 ? { blockKeys, jsonKeys } : { blockKeys };
}

/** Lines of a merged text: those of the file each offset came from. */
export class OriginLineMap extends LineMap {
  constructor(
    text: string,
    private readonly originOf: (offset: number) => { file: number; offset: number },
    private readonly sources: SourceFile[],
  ) {
    super(text);
  }

  override position(offset: number): Position {
    const o = this.originOf(offset);
    return this.sources[o.file]!.lines.position(o.offset);
  }
}
