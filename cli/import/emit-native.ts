// The plan as native HCL (`*.tf`): the same document as emit-hcl.ts, written in the syntax most
// Terraform users read and write. The provider schemas decide what is a nested block and what an
// attribute holding an object (language/format/native-configuration.ts).

import { configurationToHcl } from "../../language/format/native-configuration.js";
import { model as tsdbProvider } from "../../generated/models/provider.tsdb.js";
import { model as containerbackupProvider } from "../../generated/models/provider.containerbackup.js";
import type { ImportPlan } from "./config.js";
import { hclDocument } from "./emit-hcl.js";
import { MODELS } from "./ids.js";

export function emitNativeHcl(plan: ImportPlan): string {
  return configurationToHcl(hclDocument(plan), [tsdbProvider, containerbackupProvider, ...Object.values(MODELS)]);
}
