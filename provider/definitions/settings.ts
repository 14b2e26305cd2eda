// Provider settings with their environment-variable fallbacks (DESIGN.md section 1). A value in
// the configuration wins over the environment; an empty string counts as unset.
import { UNKNOWN, type Value } from "../codec.js";
import { HandlerError } from "../framework/types.js";

export function setting(config: Record<string, Value>, name: string, env: string | undefined, environment: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = config[name];
  if (value === UNKNOWN) {
    throw new HandlerError(`The provider setting ${name} is not known yet`, {
      path: [name],
      detail: `${name} depends on a value that is known only after apply; provider settings must be known when Terraform plans.`,
    });
  }
  if (typeof value === "string" && value !== "") return value;
  const fromEnv = env ? environment[env] : undefined;
  return fromEnv !== undefined && fromEnv !== "" ? fromEnv : undefined;
}
