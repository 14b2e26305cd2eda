// References to nested outputs: `service.timeouts`, `lookup.spec.getStringAttribute("hostname")`,
// `vpcs.vpcs.get(0).getNumberAttribute("id")`.
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

  get(index: number): ObjectReference {
    return new ObjectReference(this.terraformResource, this.terraformAttribute, this.wrapsSet, index);
  }
}
