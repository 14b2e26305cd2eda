// Plan metadata and validation from generated/ (through language/schema/body.ts), in the shape a
// provider definition takes. Both load a type's model and validator on first use only.
import { loadType, validateBody } from "../language/schema/body.js";
import type { Body, Issue, PlanTypeModel } from "./framework/types.js";

export const generatedTypes = {
  async model(key: string): Promise<PlanTypeModel | undefined> {
    try {
      return (await loadType(key)).model;
    } catch {
      return undefined;
    }
  },
  async validate(key: string, body: Body): Promise<Issue[]> {
    await loadType(key);
    return validateBody(key, body);
  },
};
