// Terraform's test files (`*.tftest.hcl` in the module directory and in its `tests/` directory),
// read as `terraform validate` 1.11 reads them: their syntax, and the block structure its
// test-file loader decodes (which blocks and arguments go where, their labels, the few arguments
// it checks while decoding). Assertions are not evaluated and references are not resolved:
// `terraform validate` does neither (they need a plan).
import { parseNative, type NativeAttribute, type NativeBlock, type NativeBody, type NativeFile, type Range } from "../syntax/native/parser.js";
import { compareDiagnostics, type Diagnostic } from "../syntax/diagnostics.js";
import { suggest } from "../syntax/suggest.js";
import { statSync } from "node:fs";
import { bareRelativePathDetail, looksLikeBareRelativePath } from "../config/module-source.js";
import { join, normalize } from "node:path";
import { fileNamesIn } from "./config-files.js";
import { isIdentifier } from "../expr/lexer.js";

/** A test file's name in a directory listing (hidden files are not read, as for configuration files). */
export const TEST_FILE = /^[^.].*\.tftest\.hcl$/;

/** Terraform's default test directory, relative to the module (`terraform validate -test-directory`). */
export const TEST_DIRECTORY = "tests";

export function isTestFileName(name: string): boolean {
  return name.endsWith(".tftest.hcl");
}

/** The test files of a module directory, as paths relative to it: its own, then those of `tests/` (sorted). */
export async function testFilesIn(dir: string): Promise<string[]> {
  const own = (await fileNamesIn(dir)).filter((n) => TEST_FILE.test(n));
  let inTests: string[] = [];
  try {
    inTests = (await fileNamesIn(join(dir, TEST_DIRECTORY))).filter((n) => TEST_FILE.test(n)).map((n) => join(TEST_DIRECTORY, n));
  } catch {
    // no tests directory (or not a directory): no test files there
  }
  return [...own, ...inTests];
}

/** What one block type's body holds, as the test-file loader's schema says. */
interface BlockSpec {
  /** the label names, e.g. ["name"] for `run "x"` */
  labels?: string[];
  /** argument names, true when required */
  attributes?: Record<string, boolean>;
  blocks?: Record<string, BlockSpec>;
  /** any attribute, no block (a `variables` block) */
  justAttributes?: true;
  /** not checked here (a `provider` block is a provider configuration) */
  anything?: true;
}

const OVERRIDE_RESOURCE: BlockSpec = { attributes: { target: false, values: false } };
const OVERRIDE_MODULE: BlockSpec = { attributes: { target: false, outputs: false } };
const VARIABLES: BlockSpec = { justAttributes: true };
const MOCK_TYPE: BlockSpec = { labels: ["type"], attributes: { defaults: false } };

const TEST_FILE_SPEC: BlockSpec = {
  blocks: {
    run: {
      labels: ["name"],
      attributes: { command: false, providers: false, expect_failures: false, state_key: false },
      blocks: {
        plan_options: { attributes: { mode: false, refresh: false, replace: false, target: false } },
        variables: VARIABLES,
        module: { attributes: { source: false, version: false } },
        assert: { attributes: { condition: true, error_message: true } },
        override_resource: OVERRIDE_RESOURCE,
        override_data: OVERRIDE_RESOURCE,
        override_module: OVERRIDE_MODULE,
      },
    },
    variables: VARIABLES,
    provider: { labels: ["name"], anything: true },
    mock_provider: {
      labels: ["name"],
      attributes: { alias: false, source: false },
      blocks: { mock_resource: MOCK_TYPE, mock_data: MOCK_TYPE, override_resource: OVERRIDE_RESOURCE, override_data: OVERRIDE_RESOURCE },
    },
    override_resource: OVERRIDE_RESOURCE,
    override_data: OVERRIDE_RESOURCE,
    override_module: OVERRIDE_MODULE,
  },
};

/**
 * The diagnostics of one test file, Terraform's words and positions. `root` is the module's
 * directory on disk (a run's local module source is read from it), null when not read from disk.
 */
export function checkTestFile(file: { name: string; text: string }, root: string | null = null): Diagnostic[] {
  const parsed = parseNative(file.text, file.name);
  const reader = new TestFileReader(parsed.file, root);
  for (const p of parsed.problems) reader.error("syntax", p.summary, p.detail, p.range, null);
  // an argument set twice leaves the structure known (the parser reads on); after any other
  // syntax error the tree is cut short and decoding it would report what is not there
  if (parsed.problems.every((p) => p.summary === "Attribute redefined")) reader.file();
  return reader.diagnostics.sort(compareDiagnostics);
}

class TestFileReader {
  readonly diagnostics: Diagnostic[] = [];
  /** per block read against its spec, its nested blocks whose labels fit */
  private readonly nested = new Map<NativeBlock, NativeBlock[]>();

  constructor(
    private readonly native: NativeFile,
    private readonly root: string | null,
  ) {}

  error(code: string, summary: string, detail: string, range: Range, address: string | null): void {
    const start = this.native.lines.position(range.start);
    const end = this.native.lines.position(Math.max(range.end, range.start));
    this.diagnostics.push({
      severity: "error",
      message: `${summary}: ${detail}`,
      file: this.native.filename,
      line: start.line,
      column: start.column,
      endLine: end.line,
      endColumn: end.column,
      address,
      path: null,
      code,
      source: "terraform",
    });
  }

  /** HCL's own way of writing a range in a detail: `file:line,col-endcol`. */
  private rangeText(range: Range): string {
    const start = this.native.lines.position(range.start);
    const end = this.native.lines.position(range.end);
    const tail = start.line === end.line ? `${end.column}` : `${end.line},${end.column}`;
    return `${this.native.filename}:${start.line},${start.column}-${tail}`;
  }

  file(): void {
    const blocks = this.body(this.native.body, TEST_FILE_SPEC, null);
    const runs = new Map<string, NativeBlock>();
    const providers = new Map<string, Range>();
    let variables: NativeBlock | null = null;
    for (const block of blocks) {
      const name = block.labels[0] ?? "";
      if (block.type === "run") {
        const first = runs.get(name);
        if (first) this.error("test-file", `Duplicate "run" block names`, `This test file already has a run named ${name} block defined at ${this.rangeText(defRange(first))}.`, defRange(block), null);
        else runs.set(name, block);
        this.run(block);
      } else if (block.type === "variables") {
        if (variables) this.error("test-file", `Multiple "variables" blocks`, `This test file already has a variables block defined at ${this.rangeText(defRange(variables))}.`, defRange(block), null);
        else variables = block;
      } else if (block.type === "provider" || block.type === "mock_provider") {
        // providers are told apart by name and alias
        const alias = block.body.items.find((i) => i.kind === "attribute" && i.name === "alias");
        const key = alias && alias.kind === "attribute" ? `${name}.${alias.source.trim().replace(/^"|"$/g, "")}` : name;
        const first = providers.get(key);
        if (first) this.error("test-file", "Duplicate provider block", `A provider for ${key} is already defined at ${this.rangeText(first)}.`, defRange(block), null);
        else providers.set(key, block.labelRanges[0]!);
        for (const inner of this.nested.get(block) ?? []) this.overrideTarget(inner, block);
      } else this.overrideTarget(block, null);
    }
  }

  private run(block: NativeBlock): void {
    const address = `run.${block.labels[0]}`;
    const name = block.labels[0] ?? "";
    if (!isIdentifier(name)) {
      this.error("test-file", "Invalid run block name", "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.", block.labelRanges[0]!, address);
    }
    // a run holds at most one of each of these
    const single = new Map<string, NativeBlock>();
    for (const item of block.body.items) {
      if (item.kind !== "attribute" || item.name !== "command") continue;
      if (!/^(?:apply|plan)$/.test(item.source.trim())) {
        this.error("test-file", `Invalid "command" keyword`, `The "command" argument requires one of the following keywords without quotes: apply or plan.`, item.exprRange, address);
      }
    }
    for (const inner of this.nested.get(block) ?? []) {
      if (inner.type === "variables" || inner.type === "plan_options" || inner.type === "module") {
        const first = single.get(inner.type);
        // the later one is reported and still read
        if (first) this.error("test-file", `Multiple "${inner.type}" blocks`, `This run block already has a ${inner.type} block defined at ${this.rangeText(defRange(first))}.`, defRange(inner), address);
        else single.set(inner.type, inner);
      }
      if (inner.type === "plan_options") this.planOptions(inner, address);
      else if (inner.type === "module") {
        const source = inner.body.items.find((i) => i.kind === "attribute" && i.name === "source");
        if (source === undefined) {
          this.error("test-file", `Missing "source" attribute for module block`, "You must specify a source attribute when executing alternate modules during test executions.", defRange(inner), address);
        } else this.moduleSource(source as NativeAttribute, address);
      } else if (inner.type === "assert") {
        for (const item of inner.body.items) {
          // an assertion that refers to nothing checks nothing (evaluated only by `terraform test`)
          if (item.kind === "attribute" && item.name === "condition" && item.refs.length === 0) {
            this.error("test-file", "Invalid assert expression", "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.", item.exprRange, address);
          }
        }
      } else this.overrideTarget(inner, block);
    }
  }

  /**
   * A run's module source, as terraform init reads it: a literal, local (a directory of the module
   * that exists) or from a registry (not looked up: that needs the network), no other remote kind.
   */
  private moduleSource(source: NativeAttribute, address: string): void {
    if (source.refs.length > 0) {
      this.error("test-file", "Variables not allowed", "Variables may not be used here.", source.exprRange, address);
      this.error("test-file", "Unsuitable value type", "Unsuitable value: value must be known", source.exprRange, address);
      return;
    }
    const value = source.expr.t === "lit" ? source.expr.v : null;
    if (typeof value !== "string") return;
    if (value === "") {
      this.error("test-file", "Invalid module source address", "Failed to parse module source address: invalid source address: .", source.exprRange, address);
    } else if (/^\.\.?\//.test(value)) {
      if (this.root !== null && !isDirectory(join(this.root, value))) {
        // terraform init stops at it (its first words, which carry no position: shown at the source); validate would say "Module not installed"
        this.error("test-file", "Unreadable module directory", `Unable to evaluate directory symlink: lstat ${normalize(value)}: no such file or directory`, source.exprRange, address);
      }
    } else if (looksLikeBareRelativePath(value)) {
      this.error("test-file", "Invalid module source address", bareRelativePathDetail(value), source.exprRange, address);
    } else if (REMOTE_SOURCE.test(value)) {
      this.error("test-file", "Invalid module source address", "Only local or registry module sources are currently supported from within test run blocks.", source.exprRange, address);
    }
  }

  /** A run's plan_options: `mode` is a keyword, and a refresh-only plan cannot skip the refresh. */
  private planOptions(block: NativeBlock, address: string): void {
    let mode: string | null = null;
    for (const item of block.body.items) {
      if (item.kind !== "attribute" || item.name !== "mode") continue;
      mode = item.source.trim();
      if (mode !== "normal" && mode !== "refresh-only") {
        this.error("test-file", `Invalid "mode" keyword`, `The "mode" argument requires one of the following keywords without quotes: normal or refresh-only`, item.exprRange, address);
      }
    }
    if (mode !== "refresh-only") return;
    for (const item of block.body.items) {
      if (item.kind === "attribute" && item.name === "refresh" && item.source.trim() === "false") {
        this.error("test-file", "Incompatible plan options", `The "refresh" option cannot be set to false when running a test in "refresh-only" mode.`, item.range, address);
      }
    }
  }

  /** override_resource, override_data and override_module blocks name what they override. */
  private overrideTarget(block: NativeBlock, parent: NativeBlock | null): void {
    if (!block.type.startsWith("override_")) return;
    if (block.body.items.some((i) => i.kind === "attribute" && i.name === "target")) return;
    this.error("test-file", "Missing target attribute", `${block.type} blocks must specify a target address.`, defRange(block), parent ? blockAddress(parent) : null);
  }

  /**
   * A body read against its spec, as HCL's Content reads it: unknown arguments and block types,
   * missing required arguments, labels; returns the blocks whose labels fit (the others are not
   * read further).
   */
  private body(body: NativeBody, spec: BlockSpec, owner: NativeBlock | null): NativeBlock[] {
    const address = owner ? blockAddress(owner) : null;
    const attributes = spec.attributes ?? {};
    const blockSpecs = spec.blocks ?? {};
    const blocks: NativeBlock[] = [];
    const seen = new Set<string>();
    for (const item of body.items) {
      if (item.kind === "attribute") {
        seen.add(item.name);
        if (spec.justAttributes || item.name in attributes) continue;
        const detail = item.name in blockSpecs ? ` Did you mean to define a block of type "${item.name}"?` : didYouMean(item.name, Object.keys(attributes));
        this.error("test-file", "Unsupported argument", `An argument named "${item.name}" is not expected here.${detail}`, item.nameRange, address);
        continue;
      }
      if (spec.justAttributes) {
        this.error("test-file", `Unexpected "${item.type}" block`, "Blocks are not allowed here.", item.typeRange, address);
        continue;
      }
      const inner = blockSpecs[item.type];
      if (!inner) {
        const detail = item.type in attributes ? ` Did you mean to define argument "${item.type}"? If so, use the equals sign to assign it a value.` : didYouMean(item.type, Object.keys(blockSpecs));
        this.error("test-file", "Unsupported block type", `Blocks of type "${item.type}" are not expected here.${detail}`, item.typeRange, address);
        continue;
      }
      if (this.labelsFit(item, inner.labels ?? [])) {
        blocks.push(item);
        if (!inner.anything) this.nested.set(item, this.body(item.body, inner, item));
      }
    }
    if (owner) {
      for (const [name, required] of Object.entries(attributes)) {
        if (required && !seen.has(name)) {
          const at = owner.openBraceRange.start;
          this.error("test-file", "Missing required argument", `The argument "${name}" is required, but no definition was found.`, { start: at, end: at }, address);
        }
      }
    }
    return blocks;
  }

  private labelsFit(block: NativeBlock, names: string[]): boolean {
    const address = blockAddress(block);
    if (block.labels.length < names.length) {
      const detail = `All ${block.type} blocks must have ${names.length} labels (${names.join(", ")}).`;
      this.error("test-file", `Missing ${names[block.labels.length]} for ${block.type}`, detail, block.openBraceRange, address);
      return false;
    }
    if (block.labels.length > names.length) {
      const detail = names.length === 0 ? `No labels are expected for ${block.type} blocks.` : `Only ${names.length} labels (${names.join(", ")}) are expected for ${block.type} blocks.`;
      this.error("test-file", `Extraneous label for ${block.type}`, detail, block.labelRanges[names.length]!, address);
      return false;
    }
    return true;
  }
}

function didYouMean(name: string, candidates: string[]): string {
  const hint = suggest(name, candidates);
  return hint ? ` Did you mean "${hint}"?` : "";
}

/** A block's type and labels: where HCL points at a block as a whole. */
/** A module source go-getter fetches (a forced getter, a URL, a known host's shorthand): neither local nor a registry's. */
const REMOTE_SOURCE = /^(?:[A-Za-z0-9]+::|(?:https?|s3|gcs):\/\/|github\.com\/|bitbucket\.org\/|git@)/;

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function defRange(block: NativeBlock): Range {
  const labels = block.labelRanges;
  return { start: block.typeRange.start, end: labels.length > 0 ? labels[labels.length - 1]!.end : block.typeRange.end };
}

function blockAddress(block: NativeBlock): string {
  return block.labels.length > 0 ? `${block.type}.${block.labels.join(".")}` : block.type;
}

