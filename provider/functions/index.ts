// Each provider's functions: the implementations (one file each), wrapped so that every call
// first runs the checks its declaration makes (generated/functions.ts, from the provider schema:
// the same checks `schemaform validate` runs on literal arguments, language/expr/provider-functions.ts).
import { argumentProblem, ownFunction } from "../../language/expr/provider-functions.js";
import { FunctionError, type FunctionImplementation } from "../framework/types.js";
import { connectionUri } from "./connection-uri.js";
import { locationFromId } from "./location-from-id.js";
import { nameFromId } from "./name-from-id.js";
import { parsePeeringImportId } from "./parse-peering-import-id.js";
import { peeringImportId } from "./peering-import-id.js";
import { projectFromId } from "./project-from-id.js";

const IMPLEMENTATIONS: Record<string, Record<string, FunctionImplementation>> = {
  containerbackup: { project_from_id: projectFromId, location_from_id: locationFromId, name_from_id: nameFromId },
  tsdb: { peering_import_id: peeringImportId, parse_peering_import_id: parsePeeringImportId, connection_uri: connectionUri },
};

/** The functions of a provider, each checking its arguments against its declaration first. */
export function providerFunctions(provider: string): Record<string, FunctionImplementation> {
  const out: Record<string, FunctionImplementation> = {};
  for (const [name, implementation] of Object.entries(IMPLEMENTATIONS[provider] ?? {})) {
    const declared = ownFunction(provider, name);
    if (!declared) throw new Error(`provider::${provider}::${name} has an implementation but no declaration in the provider schema`);
    out[name] = (args) => {
      const problem = argumentProblem(declared, args, () => false);
      if (problem) throw new FunctionError(problem.text, problem.index);
      return implementation(args);
    };
  }
  return out;
}
