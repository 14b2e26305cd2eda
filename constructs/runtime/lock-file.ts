// Our providers' entries in a synthesized stack's .terraform.lock.hcl, written at synth (after the
// stack's own files, by a wrapper around the stack's synthesizer: lockProviderPackage).
//
// Why: before `terraform init`, `cdktf deploy` / `diff` check the stack's lock file, and when it is
// missing or lacks a required provider they follow init with `terraform providers lock
// -platform=linux_amd64`, which ignores the CLI configuration's mirrors and asks each provider's
// registry: no registry has schemaform's providers, so the first deploy failed. The packages
// `schemaform provider install` writes are a function of the build, so their h1: hashes are known
// when the package is built (dist/provider/lock.json, written by scripts/bundle-provider.mjs);
// with the entries `terraform init` itself would record, the lock file is complete for our
// providers, cdktf skips that step, and init checks the mirror's packages against the hashes.
//
// Only our own entries are touched; other providers' entries and the rest of the file stay as
// they are. An entry of ours for the same version keeps its hashes and gains this build's; one
// for another version is replaced (the construct pins the version it was generated for, as
// `terraform init -upgrade` would after an upgrade). Nothing is written when the lock data is
// not found (an unbuilt checkout) or belongs to another version of the package than the
// construct's: the stack is then as cdktf would leave it.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { TerraformProvider, TerraformStack, type ISynthesisSession } from "cdktf";
import { missingProviderWarning } from "./mirror-check.js";

export const LOCK_FILE = ".terraform.lock.hcl";
/** Where the build puts the lock data, from the package root (PROVIDER_LOCK_DATA in scripts/bundle-provider.mjs). */
const LOCK_DATA = ["dist", "provider", "lock.json"];
const REGISTRY = "registry.terraform.io";
const OPENTOFU_REGISTRY = "registry.opentofu.org";
/** App context key naming the registry hostname a stack's lock file is for (`registry.opentofu.org` under OpenTofu). */
export const REGISTRY_HOST_CONTEXT = "schemaform:registryHost";

/**
 * The hostname a short source (`schemaform/tsdb`) stands for where the stack is deployed:
 * OpenTofu reads it as registry.opentofu.org, Terraform as registry.terraform.io. Chosen by the
 * app's context `schemaform:registryHost`, else by cdktf's `TERRAFORM_BINARY_NAME` (`tofu`
 * means OpenTofu), else Terraform's. The package and its h1: hash are the same under both.
 */
export function registryHost(stack: TerraformStack, env: NodeJS.ProcessEnv = process.env): string {
  const configured = stack.node.tryGetContext(REGISTRY_HOST_CONTEXT) as unknown;
  if (typeof configured === "string" && configured !== "") return configured;
  const binary = (env.TERRAFORM_BINARY_NAME ?? "").split(/[\\/]/).pop() ?? "";
  return /^tofu(\.exe)?$/.test(binary) ? OPENTOFU_REGISTRY : REGISTRY;
}

export interface LockData {
  version: string;
  /** h1: hash of each provider package, by address ("registry.terraform.io/schemaform/tsdb"). */
  hashes: Record<string, string>;
}

export interface LockEntry {
  address: string;
  version: string;
  constraints: string;
  hashes: string[];
}

let found: LockData | null | undefined;

/**
 * The package's lock data, found through the package itself (no path of this module, which is
 * compiled to more than one place): this module's `require` finds the installed package from
 * inside it (CommonJS builds); the app's directory finds it as the app's dependency, or the
 * repository's own build through its self-reference.
 */
export function lockData(): LockData | undefined {
  if (found !== undefined) return found ?? undefined;
  found = null;
  const resolvers = [...(typeof require === "function" ? [require] : []), createRequire(join(process.cwd(), "package.json"))];
  for (const resolver of resolvers) {
    let manifest: string;
    try {
      manifest = resolver.resolve("schemaform/package.json");
    } catch {
      continue;
    }
    const file = join(dirname(manifest), ...LOCK_DATA);
    if (existsSync(file)) {
      found = JSON.parse(readFileSync(file, "utf8")) as LockData;
      break;
    }
  }
  return found ?? undefined;
}

const extended = new WeakSet<TerraformStack>();
const warnedMissing = new Set<string>();

/**
 * Makes the stack of `provider` write the lock-file entries of its providers when it is
 * synthesized, after the stack itself: the stack's synthesizer (public and replaceable in cdktf)
 * is wrapped once per stack, however many provider configurations it has.
 */
export function lockProviderPackage(provider: TerraformProvider): void {
  const data = lockData();
  const source = provider.terraformProviderSource;
  const version = provider.terraformGeneratorMetadata?.providerVersion;
  if (data && source && version === data.version && source.split("/").length === 2) {
    const address = `${registryHost(TerraformStack.of(provider))}/${source}`;
    // Once per process and provider version: an app may configure a provider many times.
    const warning = warnedMissing.has(`${address}@${version}`) ? undefined : missingProviderWarning(address, version);
    if (warning) {
      warnedMissing.add(`${address}@${version}`);
      process.stderr.write(warning);
    }
  }
  const stack = TerraformStack.of(provider);
  if (extended.has(stack)) return;
  extended.add(stack);
  const inner = stack.synthesizer;
  stack.synthesizer = {
    synthesize(session: ISynthesisSession) {
      inner.synthesize(session);
      writeStackLockEntries(stack, session);
    },
  };
}

/** The lock-file entry of each of our providers the stack configures, in its working directory. */
function writeStackLockEntries(stack: TerraformStack, session: ISynthesisSession): void {
  const data = lockData();
  if (!data) return;
  const entries = new Map<string, LockEntry>();
  const host = registryHost(stack);
  for (const node of stack.node.findAll()) {
    if (!TerraformProvider.isTerraformProvider(node)) continue;
    const source = node.terraformProviderSource;
    const version = node.terraformGeneratorMetadata?.providerVersion;
    if (!source || version !== data.version) continue;
    const address = source.split("/").length === 2 ? `${host}/${source}` : source;
    // The lock data is keyed by Terraform's addresses; the package is the same under any host.
    const hash = data.hashes[address.replace(/^[^/]+\//, `${REGISTRY}/`)];
    if (hash) entries.set(address, { address, version, constraints: version, hashes: [hash] });
  }
  if (entries.size === 0) return;
  const path = join(session.outdir, session.manifest.forStack(stack).workingDirectory, LOCK_FILE);
  for (const entry of entries.values()) writeLockEntry(path, entry);
}

/** Merges `entry` into the lock file at `path`; writes (whole, by rename) only when that changes it. */
export function writeLockEntry(path: string, entry: LockEntry): void {
  const before = existsSync(path) ? readFileSync(path, "utf8") : "";
  const after = mergeLockEntry(before, entry);
  if (after === before) return;
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, after);
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}

const HEADER = '# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n';

/** The lock file `text` with `entry` merged in, in Terraform's own layout. */
export function mergeLockEntry(text: string, entry: LockEntry): string {
  const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
  const blocks = providerBlocks(lines);
  const existing = blocks.find((block) => block.address === entry.address);
  let hashes = [...entry.hashes];
  if (existing) {
    const body = lines.slice(existing.start, existing.end + 1);
    const version = body.map((line) => /^\s*version\s*=\s*"([^"]*)"/.exec(line)?.[1]).find((v) => v !== undefined);
    const constraints = body.map((line) => /^\s*constraints\s*=\s*"([^"]*)"/.exec(line)?.[1]).find((v) => v !== undefined);
    const locked = body.map((line) => /^\s*"((?:h1|zh):[^"]+)"/.exec(line)?.[1]).filter((h): h is string => h !== undefined);
    if (version === entry.version) {
      if (constraints === entry.constraints && entry.hashes.every((h) => locked.includes(h))) return text;
      hashes = [...new Set([...locked, ...entry.hashes])].sort();
    }
    lines.splice(existing.start, existing.end - existing.start + 1, ...renderEntry({ ...entry, hashes }));
    return `${lines.join("\n")}\n`;
  }
  // A new entry goes where Terraform would put it: provider blocks are sorted by address.
  const next = blocks.find((block) => block.address > entry.address);
  const rendered = renderEntry(entry);
  if (lines.length === 0) return `${HEADER}\n${rendered.join("\n")}\n`;
  if (next) lines.splice(next.start, 0, ...rendered, "");
  else lines.push(...(lines[lines.length - 1] === "" ? [] : [""]), ...rendered);
  return `${lines.join("\n")}\n`;
}

/** The `provider "<address>" { … }` blocks of a lock file, as line ranges (Terraform writes `}` alone at column 0). */
function providerBlocks(lines: string[]): { address: string; start: number; end: number }[] {
  const blocks: { address: string; start: number; end: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const address = /^provider\s+"([^"]+)"\s*\{\s*$/.exec(lines[i]!)?.[1];
    if (address === undefined) continue;
    let end = i + 1;
    while (end < lines.length && lines[end] !== "}") end++;
    blocks.push({ address, start: i, end });
    i = end;
  }
  return blocks;
}

function renderEntry(entry: LockEntry): string[] {
  return [
    `provider ${JSON.stringify(entry.address)} {`,
    `  version     = ${JSON.stringify(entry.version)}`,
    `  constraints = ${JSON.stringify(entry.constraints)}`,
    "  hashes = [",
    ...entry.hashes.map((hash) => `    ${JSON.stringify(hash)},`),
    "  ]",
    "}",
  ];
}
