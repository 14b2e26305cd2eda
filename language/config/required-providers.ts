// A module has one required_providers configuration: a second `terraform.required_providers`,
// in the same file or another, is "Duplicate required providers configuration" (Terraform 1.11),
// reported at the second one. When only a sibling of a file named alone repeats it, the error is
// given at the named file's own block, so that the file is not passed as valid.
import type { Ctx } from "./context.js";
import { isVersionConstraint, ourProviderVersion, satisfiesAll } from "./versions.js";
import { forObjects, K_ARRAY, K_NULL, type JsonDoc } from "../syntax/json-parser.js";
import { parseTraversal } from "../expr/templates.js";
import { type BlockDecl } from "./declarations.js";
import { suggest } from "../syntax/suggest.js";

export function checkRequiredProvidersOnce(ctx: Ctx): void {
  const found: { file: number; key: number }[] = [];
  ctx.files.forEach((file, index) => {
    if (file.doc && !file.override) forRequiredProviders(file.doc, (key) => found.push({ file: index, key }));
  });
  if (found.length < 2) return;
  const position = (at: { file: number; key: number }) => {
    const file = ctx.files[at.file]!;
    const p = file.lines.position(file.doc!.start(at.key));
    return `${file.name}:${p.line},${p.column}`;
  };
  const first = found[0]!;
  const later = found.slice(1).filter((f) => !ctx.files[f.file]!.contextOnly);
  const report = (at: { file: number; key: number }, other: { file: number; key: number }, word: string) => {
    ctx.use(at.file);
    ctx.error("duplicate-block", `Duplicate required providers configuration: A module may have only one required providers configuration. The required providers were ${word} configured at ${position(other)}.`, at.key, "terraform", "required_providers");
  };
  if (later.length > 0) for (const at of later) report(at, first, "previously");
  else if (!ctx.files[first.file]!.contextOnly) report(first, found[1]!, "also");
}

/**
 * Each required_providers entry's version constraint must parse as Terraform's (hashicorp/go-version):
 * comma-separated, each an optional operator and a version ("~> 1.2", ">= 0.1.0, < 2").
 * terraform init refuses anything else, at the string.
 */
export function checkVersionConstraints(ctx: Ctx): void {
  ctx.files.forEach((file, index) => {
    if (!file.doc || file.contextOnly) return;
    const doc = file.doc;
    forRequiredProviders(doc, (key) => {
      forObjects(doc, key + 1, (required) => {
        for (const r of doc.members(required)) {
          const name = doc.str(r);
          // required_providers is read as plain attributes, where "//" is a comment
          if (name === "//") continue;
          // an entry may be a bare version constraint string (the form of Terraform 0.12)
          if (doc.isString(r + 1)) report(index, r + 1, name);
          else forObjects(doc, r + 1, (entry) => {
            for (const e of doc.members(entry)) {
              const key = doc.str(e);
              if (key === "version" && doc.isString(e + 1)) report(index, e + 1, name);
              else if (key === "version" && doc.kinds[e + 1] !== K_NULL) {
                ctx.use(index);
                ctx.error("provider-version", "Invalid version constraint: Version must be specified as a string.", e + 1, "terraform", `required_providers.${name}`);
              }
              else if (key === "configuration_aliases") checkConfigurationAliases(index, e + 1, name);
              // an entry's object is a value, not a body: "//" in it is a key like any other
              else if (key !== "version" && key !== "source" && key !== "configuration_aliases") {
                ctx.use(index);
                ctx.error(
                  "required-providers",
                  'Invalid required_providers object: required_providers objects can only contain "version", "source" and "configuration_aliases" attributes. To configure a provider, use a "provider" block.',
                  e,
                  "terraform",
                  `required_providers.${name}`,
                );
              }
            }
          });
        }
      });
    });
  });
  function checkConfigurationAliases(file: number, node: number, name: string): void {
    const doc = ctx.files[file]!.doc!;
    const fail = (at: number, message: string) => {
      ctx.use(file);
      ctx.error("required-providers", message, at, "terraform", `required_providers.${name}`);
    };
    if (doc.kinds[node] !== K_ARRAY) return fail(node, "Invalid expression: A static list expression is required.");
    for (const e of doc.elements(node)) {
      const alias = doc.isString(e) ? configurationAlias(doc.str(e)) : null;
      if (alias === null) fail(e, "Invalid expression: A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.");
      // Terraform puts these at the whole list
      else if (alias.alias === "") fail(node, "Invalid configuration_aliases value: Configuration aliases can only contain references to local provider configuration names in the format of provider.alias");
      else if (alias.name !== name) fail(node, `Invalid configuration_aliases value: Configuration aliases must be prefixed with the provider name. Expected "${name}", but found "${alias.name}".`);
    }
  }
  function report(file: number, node: number, name: string): void {
    const doc = ctx.files[file]!.doc!;
    if (isVersionConstraint(doc.str(node))) return;
    ctx.use(file);
    ctx.error("provider-version", "Invalid version constraint: This string does not use correct version constraint syntax.", node, "terraform", `required_providers.${name}`);
  }
}

/**
 * The provider configurations a configuration_aliases value names ("tsdb" or "tsdb.eu"), as
 * Terraform reads each entry: a bare reference ("${tsdb.eu}" is none), whitespace around it allowed,
 * naming the requirement's own provider `name` (Terraform refuses the others).
 */
export function configurationAliases(doc: JsonDoc, node: number, name: string): string[] {
  if (doc.kinds[node] !== K_ARRAY) return [];
  const aliases: string[] = [];
  for (const e of doc.elements(node)) {
    const alias = doc.isString(e) ? configurationAlias(doc.str(e)) : null;
    if (alias && alias.alias !== "" && alias.name === name) aliases.push(alias.alias === null ? alias.name : `${alias.name}.${alias.alias}`);
  }
  return aliases;
}

/** One configuration_aliases entry: null when it is no bare reference, alias "" when its first step is no attribute. */
function configurationAlias(text: string): { name: string; alias: string | null } | null {
  const t = parseTraversal(text);
  if (!t) return null;
  const first = t.steps[0];
  return { name: t.root, alias: first === undefined ? null : first.kind === "attr" ? first.name : "" };
}

/** The local names a module's files declare in required_providers (what provider functions may name). */
export function requiredProviderNames(docs: readonly (JsonDoc | null)[]): Set<string> {
  const names = new Set<string>();
  for (const doc of docs) {
    if (!doc) continue;
    forRequiredProviders(doc, (key) => forObjects(doc, key + 1, (entries) => {
      for (const e of doc.members(entries)) names.add(doc.str(e));
    }));
  }
  return names;
}

/** The property-name node of each terraform.required_providers of a file, in order. */
function forRequiredProviders(doc: JsonDoc, each: (key: number) => void): void {
  forObjects(doc, 0, (top) => {
    for (const k of doc.members(top)) {
      if (doc.str(k) !== "terraform") continue;
      forObjects(doc, k + 1, (terraform) => {
        for (const t of doc.members(terraform)) if (doc.str(t) === "required_providers") forObjects(doc, t + 1, () => each(t));
      });
    }
  });
}

/**
 * A provider the module needs (a provider block, or the prefix of a resource or data type) that is
 * one of ours but has no source in required_providers: Terraform implies `hashicorp/<name>`, which
 * the registry does not have, so `terraform init` fails before validate can run. Only for modules
 * read from disk (native `.tf` files and `.tf.json` files alike).
 */
export function checkProviderSources(ctx: Ctx): void {
  if (!ctx.readsLocalCalls && !ctx.isChild) return;
  const sources = new Map<string, string | null>();
  ctx.files.forEach((file, index) => {
    const doc = file.doc;
    if (!doc) return;
    forRequiredProviders(doc, (key) => {
      forObjects(doc, key + 1, (required) => {
        for (const r of doc.members(required)) {
          let source: string | null = null;
          let version = -1;
          forObjects(doc, r + 1, (entry) => {
            for (const e of doc.members(entry)) {
              if (doc.str(e) === "source" && doc.isString(e + 1)) source = doc.str(e + 1);
              else if (doc.str(e) === "version" && doc.isString(e + 1)) version = e + 1;
            }
          });
          if (source !== null || !sources.has(doc.str(r))) sources.set(doc.str(r), source);
          if (source !== null && version >= 0 && !file.contextOnly) checkOurVersion(ctx, index, doc.str(r), source, version);
        }
      });
    });
  });
  // the blocks that need a provider: provider blocks, and the first resource or data source of each type
  const needing: { name: string; decl: BlockDecl }[] = [];
  for (const decl of ctx.blocks) if (decl.blockType === "provider") needing.push({ name: decl.type, decl });
  for (const byType of [ctx.declared.resource, ctx.declared.data]) {
    for (const [type, names] of byType) {
      const decl = names.first;
      if (decl !== undefined) needing.push({ name: type.slice(0, Math.max(0, type.indexOf("_"))) || type, decl });
    }
  }
  const reported = new Set<string>();
  for (const { name, decl } of needing) {
    if (sources.get(name) != null || reported.has(name) || ctx.files[decl.file]!.contextOnly) continue;
    if (!OUR_PROVIDER_NAMES.has(name)) {
      // another provider is not ours to judge, but a name one letter or two from ours is a typo:
      // hashicorp/<name> is not in the registry either
      const meant = suggest(name, OUR_PROVIDER_NAMES);
      if (meant === undefined || ctx.files.some((f) => f.doc === null)) continue;
      reported.add(name);
      ctx.use(decl.file);
      ctx.error(
        "provider-source",
        `Failed to query available provider packages: Could not retrieve the list of available versions for provider hashicorp/${name}: provider registry.terraform.io/hashicorp/${name} was not found. Did you mean "${meant}"?`,
        decl.header,
        decl.blockType === "provider" ? `provider.${name}` : `${decl.blockType}.${decl.type}`,
        null,
      );
      continue;
    }
    // a file that could not be read may hold the entry: nothing is said then
    if (reported.size === 0 && ctx.files.some((f) => f.doc === null)) return;
    reported.add(name);
    ctx.use(decl.file);
    ctx.error(
      "provider-source",
      `Failed to query available provider packages: Without a source in terraform.required_providers, Terraform looks for hashicorp/${name} in the public registry, which has no such provider, and terraform init fails. Declare "${name}": { "source": "schemaform/${name}" } in terraform.required_providers.`,
      decl.header,
      decl.blockType === "provider" ? `provider.${name}` : `${decl.blockType}.${decl.type}`,
      null,
    );
  }
}

const OUR_PROVIDER_NAMES = new Set(["tsdb", "containerbackup"]);

/**
 * A version constraint on one of our providers that this release does not satisfy: the mirror
 * `schemaform provider install` writes holds this version only, so terraform init finds none.
 */
function checkOurVersion(ctx: Ctx, file: number, name: string, source: string, node: number): void {
  const type = /^(?:registry\.terraform\.io\/)?schemaform\/([a-z]+)$/i.exec(source)?.[1]?.toLowerCase();
  if (type === undefined || !OUR_PROVIDER_NAMES.has(type)) return;
  const doc = ctx.files[file]!.doc!;
  const constraints = doc.str(node);
  const version = ourProviderVersion();
  if (version === null || !isVersionConstraint(constraints) || satisfiesAll(constraints, version)) return;
  ctx.use(file);
  ctx.error(
    "provider-version",
    `Failed to query available provider packages: Could not retrieve the list of available versions for provider schemaform/${type}: no available releases match the given constraints ${constraints.trim()}. This release of schemaform installs version ${version.join(".")}.`,
    node,
    "terraform",
    `required_providers.${name}`,
  );
}

