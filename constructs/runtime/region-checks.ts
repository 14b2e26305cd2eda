// The region rules across resources at synth (language/schema/region-rules.ts, the same ones
// `schemaform validate` applies): a service whose `vpcId`, exporter ids or `readReplicaSource`
// is another construct's reference (`vpc.vpcsId`) is checked against that construct's literal
// region, so a mismatch fails `app.synth()` instead of an apply halfway through. A reference
// token names its target by Terraform address (`tsdb_vpcs.<friendlyUniqueId>.vpcs_id`) and
// stack; the constructs of the region types are looked up by that address when the service is
// validated (after every construct exists, and after any overrideLogicalId).
import { Token, Tokenization, TerraformStack, type IResolvable, type TerraformElement } from "cdktf";
import type { IConstruct } from "constructs";
import type { Issue, TypeModel } from "../../language/schema/model-types.js";
import { REGION_REFERENCES, regionMismatch, regionOf } from "../../language/schema/region-rules.js";

interface Tracked {
  element: TerraformElement;
  model: TypeModel;
  props: () => object;
}

const TRACKED_TYPES = new Set(Object.values(REGION_REFERENCES).flat());
const trackedByStack = new WeakMap<IConstruct, Tracked[]>();

/** Remembers a construct whose region another construct's rule may read. */
export function trackRegion(element: TerraformElement, model: TypeModel, props: () => object): void {
  if (model.kind !== "resource" || !TRACKED_TYPES.has(model.type)) return;
  const stack = TerraformStack.of(element);
  let list = trackedByStack.get(stack);
  if (!list) trackedByStack.set(stack, (list = []));
  list.push({ element, model, props });
}

/** The region rules of one construct's references (tsdb_service only), as issues on the referencing argument. */
export function regionIssues(element: TerraformElement, model: TypeModel, props: object, address: string): Issue[] {
  if (model.kind !== "resource" || model.type !== "tsdb_service") return [];
  const own = regionOf(model.type, terraformNamed(model, props));
  if (typeof own !== "string" || Token.isUnresolved(own)) return [];
  const issues: Issue[] = [];
  for (const [attribute, types] of Object.entries(REGION_REFERENCES)) {
    const camel = model.block.attributes[attribute]?.camel ?? attribute;
    const reference = referenceOf((props as Record<string, unknown>)[camel]);
    if (!reference || !types.includes(reference.type)) continue;
    const target = (trackedByStack.get(reference.stack ?? TerraformStack.of(element)) ?? []).find(
      (t) => t.model.type === reference.type && t.element.friendlyUniqueId === reference.name,
    );
    if (!target) continue;
    const region = regionOf(target.model.type, terraformNamed(target.model, target.props()));
    if (typeof region !== "string" || Token.isUnresolved(region) || region === own) continue;
    const targetAddress = `${reference.type}.${reference.name}`;
    issues.push({ severity: "error", path: [attribute], message: regionMismatch(attribute, targetAddress, region, address, own) });
  }
  return issues;
}

/** The arguments region rules read, by Terraform name, from a construct's camelCase props. */
function terraformNamed(model: TypeModel, props: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of ["region_code", "region", "read_replica_source"]) {
    const attribute = model.block.attributes[name];
    const value = attribute ? (props as Record<string, unknown>)[attribute.camel] : undefined;
    if (value !== undefined && value !== null) out[name] = value;
  }
  return out;
}

/** The construct a prop refers to when the whole value is one reference to a single instance's attribute. */
function referenceOf(value: unknown): { type: string; name: string; stack?: IConstruct } | undefined {
  let token: IResolvable | undefined;
  if (typeof value === "number") token = Tokenization.reverseNumber(value);
  else if (typeof value === "string" && Token.isUnresolved(value)) {
    const fragments = Tokenization.reverseString(value);
    if (fragments.length === 1) token = fragments.firstToken;
  }
  const { identifier, originStack } = (token ?? {}) as { identifier?: unknown; originStack?: IConstruct };
  if (typeof identifier !== "string") return undefined;
  const parts = identifier.split(".");
  // TYPE.NAME.ATTRIBUTE exactly: `for_each` instances (TYPE.NAME.*.ATTRIBUTE) have no one region
  if (parts.length !== 3) return undefined;
  return { type: parts[0]!, name: parts[1]!, stack: originStack };
}
