// What each core block's body may hold (Terraform 1.11's schemas of the language's own blocks):
// arguments with the kind of value each takes, nested blocks with their labels, and which bodies
// are conditions or see `self`. checkBody (bodies.ts) reads a body against one of these.
import { Ctx } from "./context.js";
import { K_NULL } from "../syntax/json-parser.js";

export type AttrKind =
  | "expr" // any expression
  | "string" // literal string (templates are not interpreted)
  | "constraint" // literal version constraint string, e.g. ">= 1.5, < 2.0"
  | "bool" // literal bool (with cty's string conversion)
  | "literal" // any literal JSON value
  | "type" // a type constraint
  | "ref" // one bare reference
  | "refs" // an array of bare references
  | "ref-index" // a bare resource address whose index may be an expression (import.to)
  | "provider-ref" // provider or provider.alias
  | "ignore_changes"
  | "replace_triggered_by"
  | "count"
  | "for_each"
  | "providers" // module providers map
  | "when"
  | "on_failure"
  | "ident"; // a bare identifier (dynamic.iterator)

interface AttrSpec {
  kind: AttrKind;
  required?: boolean;
}

export interface BlockSpec {
  labels: number;
  body: BodySpec | "literal";
  /** at most one block */
  single?: boolean;
}

export interface BodySpec {
  attrs: Map<string, AttrSpec>;
  blocks: Map<string, BlockSpec>;
  /** what other properties are: module inputs are expressions; otherwise unknown names are errors */
  other?: "expr";
  /** a condition block (validation, precondition, postcondition, assert): see checkConditionRefers */
  isCondition?: boolean;
  /** a body where `self` means the resource: provisioners, connections and postconditions */
  allowsSelf?: boolean;
}

function spec(attrs: Record<string, AttrKind | AttrSpec>, blocks: Record<string, BlockSpec> = {}, other?: "expr"): BodySpec {
  const a = new Map<string, AttrSpec>();
  for (const [name, s] of Object.entries(attrs)) a.set(name, typeof s === "string" ? { kind: s } : s);
  return { attrs: a, blocks: new Map(Object.entries(blocks)), other };
}

export const CONDITION: BodySpec = { ...spec({ condition: { kind: "expr", required: true }, error_message: { kind: "expr", required: true } }), isCondition: true };

const postcondition: BodySpec = { ...CONDITION, allowsSelf: true };

const connection: BodySpec = { ...spec({ type: "string" }, {}, "expr"), allowsSelf: true };

const provisioner: BodySpec = { ...spec({ when: "when", on_failure: "on_failure" }, { connection: { labels: 0, body: connection, single: true } }, "expr"), allowsSelf: true };

/**
 * A connection where a provisioner will use it: validate decodes it (merged with the resource's
 * own connection) with the superset of every communicator's arguments, so others are errors.
 * `host` is required of the merged body (see checkConnectionHost).
 */
const CONNECTION_ARGUMENTS = ["host", "user", "password", "port", "timeout", "script_path", "target_platform", "private_key", "certificate", "host_key", "agent", "agent_identity", "bastion_host", "bastion_host_key", "bastion_port", "bastion_user", "bastion_password", "bastion_private_key", "bastion_certificate", "https", "insecure", "cacert", "use_ntlm"];

export const CONNECTION_USED: BodySpec = { ...spec({ type: "string", ...Object.fromEntries(CONNECTION_ARGUMENTS.map((a) => [a, "expr" as const])) }), allowsSelf: true };

export const LIFECYCLE_RESOURCE = spec(
  { create_before_destroy: "bool", prevent_destroy: "bool", ignore_changes: "ignore_changes", replace_triggered_by: "replace_triggered_by" },
  { precondition: { labels: 0, body: CONDITION }, postcondition: { labels: 0, body: postcondition }, action_trigger: { labels: 0, body: spec({}, {}, "expr") } },
);

export const LIFECYCLE_DATA = spec({}, { precondition: { labels: 0, body: CONDITION }, postcondition: { labels: 0, body: postcondition } });

export const PROVISIONER = provisioner;

/**
 * The built-in provisioners' own arguments (Terraform 1.11's schemas of local-exec, remote-exec
 * and file), beside when, on_failure and connection: validate decodes the rest of the body with
 * them, so an unknown argument or a missing command/destination is an error there.
 */
const PROVISIONERS_BY_TYPE: ReadonlyMap<string, BodySpec> = new Map([
  ["local-exec", { ...spec({ when: "when", on_failure: "on_failure", command: { kind: "expr", required: true }, interpreter: "expr", working_dir: "expr", environment: "expr", quiet: "expr" }, { connection: { labels: 0, body: CONNECTION_USED, single: true } }), allowsSelf: true }],
  ["remote-exec", { ...spec({ when: "when", on_failure: "on_failure", inline: "expr", script: "expr", scripts: "expr" }, { connection: { labels: 0, body: CONNECTION_USED, single: true } }), allowsSelf: true }],
  ["file", { ...spec({ when: "when", on_failure: "on_failure", source: "expr", content: "expr", destination: { kind: "expr", required: true } }, { connection: { labels: 0, body: CONNECTION_USED, single: true } }), allowsSelf: true }],
]);

/** The body spec of a provisioner of this type (any argument for a type Terraform does not have: reported as such). */
export function provisionerSpec(type: string): BodySpec {
  return PROVISIONERS_BY_TYPE.get(type) ?? provisioner;
}

/**
 * The provisioners' own validation (ValidateProvisionerConfig), over the arguments set to
 * something other than null: file takes exactly one of source and content, remote-exec exactly
 * one of inline, script and scripts. Terraform gives these no position; we point at the body.
 */
export function checkProvisionerArguments(ctx: Ctx, type: string, seen: ReadonlyMap<string, number>, body: number, address: string, path: string): void {
  const set = (name: string) => seen.has(name) && ctx.doc.kinds[seen.get(name)! + 1] !== K_NULL;
  if (type === "file") {
    if (set("source") && set("content")) ctx.error("provisioner", "Cannot set both 'source' and 'content'", body, address, path);
    else if (!set("source") && !set("content")) ctx.error("provisioner", "Must provide one of 'source' or 'content'", body, address, path);
  } else if (type === "remote-exec") {
    if (["inline", "script", "scripts"].filter(set).length !== 1) ctx.error("provisioner", 'Invalid remote-exec provisioner configuration: Only one of "inline", "script", or "scripts" must be set', body, address, path);
  }
}

export const CONNECTION = connection;

export const VARIABLE = spec(
  { description: "string", default: "literal", type: "type", sensitive: "bool", nullable: "bool", ephemeral: "bool" },
  { validation: { labels: 0, body: CONDITION } },
);

export const OUTPUT = spec(
  { value: { kind: "expr", required: true }, description: "string", sensitive: "bool", ephemeral: "bool", depends_on: "refs" },
  { precondition: { labels: 0, body: CONDITION } },
);

export const MODULE = spec({ source: { kind: "string", required: true }, version: "constraint", providers: "providers", count: "count", for_each: "for_each", depends_on: "refs" }, {}, "expr");

// in an override file a module call is merged into the primary one: it need not repeat the source
export const MODULE_OVERRIDE = spec({ source: "string", version: "constraint", providers: "providers", count: "count", for_each: "for_each", depends_on: "refs" }, {}, "expr");

export const TERRAFORM = spec(
  { required_version: "constraint", experiments: "literal", language: "literal" },
  {
    required_providers: { labels: 0, body: "literal" },
    backend: { labels: 1, body: "literal", single: true },
    cloud: { labels: 0, body: "literal", single: true },
    provider_meta: { labels: 1, body: "literal" },
  },
);

export const MOVED = spec({ from: { kind: "ref", required: true }, to: { kind: "ref", required: true } });

export const REMOVED = spec(
  { from: { kind: "ref", required: true } },
  { lifecycle: { labels: 0, body: spec({ destroy: "bool" }), single: true }, connection: { labels: 0, body: connection, single: true }, provisioner: { labels: 1, body: provisioner } },
);

export const IMPORT = spec({ to: { kind: "ref-index", required: true }, id: "expr", identity: "expr", for_each: "for_each", provider: "provider-ref" });


export const DYNAMIC = spec({ for_each: { kind: "expr", required: true }, iterator: "ident", labels: "expr" });

/** Top-level block types and their number of labels. */
export const TOP_LEVEL: ReadonlyMap<string, number> = new Map([
  ["terraform", 0],
  ["provider", 1],
  ["variable", 1],
  ["locals", 0],
  ["output", 1],
  ["module", 1],
  ["resource", 2],
  ["data", 2],
  ["ephemeral", 2],
  ["moved", 0],
  ["removed", 0],
  ["import", 0],
  ["check", 1],
]);
