// Runs every emitter over the loaded schemas and returns path → content, in memory.
import type { TypeModel } from "../hcljson/model-types.js";
import { emitModel } from "./emit-models.js";
import { emitRegistry } from "./emit-registry.js";
import { emitValidator } from "./emit-validators.js";
import { buildModel } from "./model.js";
import { loadSchemas } from "./schema-source.js";

export async function generate(schemaDir: string): Promise<Map<string, string>> {
  const docs = loadSchemas(schemaDir);
  const models: TypeModel[] = docs.map(buildModel);
  const files = new Map<string, string>();
  docs.forEach((doc, i) => {
    files.set(`models/${doc.key}.ts`, emitModel(models[i]!));
    files.set(`validators/${doc.key}.ts`, emitValidator(doc));
  });
  files.set("registry.ts", emitRegistry(models));
  return new Map([...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
