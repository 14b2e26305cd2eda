// The blocks of a module as they are declared: one lean record per block (BlockDecl), its labels
// and Terraform address, and the visitor the loader hands the root walk for the blocks it checks
// itself (resources, data sources, providers).
import { type TypeModel } from "../schema/model-types.js";

/**
 * A block of the module: resource, data source, provider, … One object per block, kept for the
 * whole run, so it is lean: labels and address are built only when asked for (labelsOf,
 * addressOf). Plain data made by newBlockDecl, not a class: see there.
 */
export interface BlockDecl {
  /** "resource", "data", "ephemeral", "provider", "variable", … */
  readonly blockType: string;
  /** the first label (resource type, provider name, variable name, …), "" when none */
  readonly type: string;
  /** the last label (resource name; provider alias once known), "" when none */
  name: string;
  /** every label; null when they are [type, name] */
  labelList: string[] | null;
  /** the address when it is not the one the labels make (a check block's scoped data source) */
  readonly addressText: string | null;
  readonly file: number;
  /** node of the last label's property name (or the block's key), where "the block" is reported */
  readonly header: number;
  /** the body object node */
  readonly body: number;
  /** a data block scoped to a check block: not visible outside it */
  readonly scoped: boolean;
  /** count / for_each set (instances need a key); undefined until known (see repetitionOf) */
  repetition: "count" | "for_each" | null | undefined;
  /** our types: the TypeModel */
  model: TypeModel | undefined;
  /** the literal region (tsdb_service region_code, exporters' region), null when unset or unknown */
  region: string | null | undefined;
  /** the body has been checked (its region is known) */
  done: boolean;
  /** region checks of references made from this block, run once it is converted */
  regionChecks: RegionCheck[] | undefined;
  /** its node in the run's dependency graph (cycles.ts), -1 until it has one */
  graphNode: number;
}

export function newBlockDecl(blockType: string, type: string, name: string, labels: string[] | null, file: number, header: number, body: number, address: string | null, scoped = false): BlockDecl {
  // An object literal: V8 notes where literals are allocated, sees that nearly all of these
  // outlive a young-generation collection, and then allocates them in the old generation
  // directly. Instances of a class are copied by the scavenger, twice, and a 10 MB module has
  // tens of thousands of blocks (measured there: scavenges took 9-10 ms per run, now 5-6.5 ms).
  return { blockType, type, name, labelList: labels, addressText: address, file, header, body, scoped, repetition: undefined, model: undefined, region: undefined, done: false, regionChecks: undefined, graphNode: -1 };
}

export function labelsOf(decl: BlockDecl): string[] {
  return decl.labelList ?? [decl.type, decl.name];
}

/** "tsdb_service.db", "data.tsdb_vpcs.all", "provider.tsdb", "var.x", … (built when asked, not kept) */
export function addressOf(decl: BlockDecl): string {
  return decl.addressText ?? addressFor(decl.blockType, decl.labelList ?? [decl.type, decl.name]);
}

export function addressFor(blockType: string, labels: string[]): string {
  switch (blockType) {
    case "resource":
      return `${labels[0]}.${labels[1]}`;
    case "data":
    case "ephemeral":
    case "action":
      return `${blockType}.${labels[0]}.${labels[1]}`;
    case "variable":
      return `var.${labels[0]}`;
    case "provider":
    case "output":
    case "module":
    case "check":
      return `${blockType}.${labels[0]}`;
    default:
      return blockType;
  }
}

/** A region rule to check once both blocks are converted: `from.attribute` references `target`. */
export interface RegionCheck {
  file: number;
  /** the string node holding the reference, and the reference's offsets inside the decoded string */
  node: number;
  start: number;
  end: number;
  attribute: string;
  target: BlockDecl;
}

export interface BlockVisitor {
  /** resource, data and ephemeral blocks, and provider blocks */
  resource(decl: BlockDecl): void;
  provider(decl: BlockDecl): void;
}
