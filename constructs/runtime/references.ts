// Bases of the generated `…OutputReference` and `…List` classes: references to nested outputs,
// e.g. `service.timeouts.create`, `vpcs.vpcs.get(0).peeringConnections.get(0).id`. Every
// getter of a generated subclass returns a token that resolves to a Terraform expression.
import { ComplexList, ComplexObject, type IInterpolatingParent } from "cdktf";

export class ObjectReference extends ComplexObject {
  constructor(parent: IInterpolatingParent, attribute: string, fromSet = false, index?: number) {
    super(parent, attribute, fromSet, index);
  }
}

export class ObjectListReference extends ComplexList {
  constructor(parent: IInterpolatingParent, attribute: string, isSet = false) {
    super(parent, attribute, isSet);
  }

  /** The element at `index` (of a set: of `tolist(set)`). */
  get(index: number): ObjectReference {
    return new ObjectReference(this.terraformResource, this.terraformAttribute, this.wrapsSet, index);
  }
}
