// Our providers' functions (`provider::tsdb::…`, `provider::containerbackup::…`), as declared in
// the provider schemas (x-terraform.functions, lowered by the generator to generated/functions.ts):
// which exist, how many arguments they take, and the checks a known argument must pass. Terraform
// calls a provider function with literal arguments already at validate time; these checks give
// `schemaform validate` the same answer, and the provider plugin runs the same checks before it
// calls a function (provider/functions/), so both report one error for one bad argument.
import { FUNCTIONS } from "../../generated/functions.js";
import type { CtyType } from "../schema/model-types.js";

export interface FunctionParameterModel {
  name: string;
  type: CtyType;
  description: string;
  /** null is a valid argument (Terraform passes it on instead of refusing the call) */
  nullable?: true;
  pattern?: string;
  /** what a failed `pattern` means, after the quoted value */
  message?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
}

export interface FunctionModel {
  provider: string;
  name: string;
  summary: string;
  description: string;
  parameters: FunctionParameterModel[];
  returnType: CtyType;
  examples: { call: string; result: string }[];
}

/** A bad argument: its index and Terraform's FunctionError text (never the value of an unpatterned string). */
export interface ArgumentProblem {
  index: number;
  text: string;
}

/** The declared function, or undefined when the provider is not ours or offers no such function. */
export function ownFunction(provider: string, name: string): FunctionModel | undefined {
  const functions = Object.prototype.hasOwnProperty.call(FUNCTIONS, provider) ? FUNCTIONS[provider]! : undefined;
  return functions && Object.prototype.hasOwnProperty.call(functions, name) ? functions[name] : undefined;
}

/**
 * What Terraform says of a call `provider::<provider>::<name>(…)` with `argc` arguments to one
 * of our providers (declared in the module): an unknown function or a wrong count, else null;
 * undefined when the provider is not ours.
 */
export function ownFunctionCallProblem(provider: string, name: string, argc: number, expand: boolean): { summary: string; detail: string; at: "name" | "close" | "extra"; extra?: number } | null | undefined {
  if (!Object.prototype.hasOwnProperty.call(FUNCTIONS, provider)) return undefined;
  const fn = ownFunction(provider, name);
  // A provider that offers functions, asked for one it does not offer: Terraform's words.
  if (!fn) return { summary: "Unknown provider function", detail: `The function ${JSON.stringify(name)} is not available from the provider ${JSON.stringify(provider)}.`, at: "name" };
  if (expand) return null;
  const full = `provider::${provider}::${name}`;
  const count = fn.parameters.length;
  if (argc < count) {
    return { summary: "Not enough function arguments", detail: `Function "${full}" expects ${count} argument(s). Missing value for "${fn.parameters[argc]!.name}".`, at: "close" };
  }
  if (argc > count) return { summary: "Too many function arguments", detail: `Function "${full}" expects only ${count} argument(s).`, at: "extra", extra: count };
  return null;
}

/** The first argument that fails its parameter's checks; `isUnknown` tells a value not known yet (skipped). */
export function argumentProblem(fn: FunctionModel, args: readonly unknown[], isUnknown: (value: unknown) => boolean): ArgumentProblem | null {
  for (let index = 0; index < fn.parameters.length && index < args.length; index++) {
    const param = fn.parameters[index]!;
    const value = args[index];
    if (isUnknown(value)) continue;
    if (value === null || value === undefined) {
      if (param.nullable) continue;
      return { index, text: "argument must not be null" };
    }
    if (param.type === "string" && typeof value === "string") {
      if (param.minLength !== undefined && value.length < param.minLength) return { index, text: "must not be empty" };
      if (param.pattern !== undefined && !new RegExp(param.pattern).test(value)) return { index, text: `${JSON.stringify(value)} ${param.message ?? `does not match ${param.pattern}`}` };
    }
    if (param.type === "number") {
      const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      if (typeof n !== "number" || Number.isNaN(n)) continue; // a type mismatch is Terraform's own conversion error
      if (param.minimum !== undefined && n < param.minimum) return { index, text: `must be at least ${param.minimum}, got ${n}` };
      if (param.maximum !== undefined && n > param.maximum) return { index, text: `must be at most ${param.maximum}, got ${n}` };
      if (param.minimum !== undefined && !Number.isInteger(n)) return { index, text: `must be a whole number, got ${n}` };
    }
  }
  return null;
}

/**
 * For a call of one of our functions with its arguments evaluated as far as validate can: the
 * error Terraform reports when the provider refuses a known argument (its words for a
 * FunctionError with an argument index), else null.
 */
export function ownFunctionArgumentError(fullName: string, args: readonly unknown[], isUnknown: (value: unknown) => boolean): { summary: string; detail: string } | null {
  const m = /^provider::([^:]+)::(.+)$/.exec(fullName);
  const fn = m ? ownFunction(m[1]!, m[2]!) : undefined;
  if (!fn) return null;
  // Terraform converts each known argument to its parameter's type before the provider sees it
  const converted: unknown[] = [];
  for (let index = 0; index < args.length; index++) {
    const param = fn.parameters[index];
    const value = args[index];
    const conversion = param && !isUnknown(value) ? convertArgument(param.type, value) : { value };
    if ("problem" in conversion) return { summary: "Invalid function argument", detail: `Invalid value for "${param!.name}" parameter: ${conversion.problem}.` };
    converted.push(conversion.value);
  }
  const problem = argumentProblem(fn, converted, isUnknown);
  if (!problem) return null;
  return { summary: "Invalid function argument", detail: `Invalid value for "${fn.parameters[problem.index]!.name}" parameter: ${problem.text}.` };
}

/** A known argument converted to a primitive parameter type as go-cty does (its words when it cannot be). */
function convertArgument(type: CtyType, value: unknown): { value: unknown } | { problem: string } {
  if (value === null || value === undefined) return { value };
  if (type === "string") {
    if (typeof value === "number" || typeof value === "boolean") return { value: String(value) };
    return typeof value === "object" ? { problem: "string required" } : { value };
  }
  if (type === "number") {
    if (typeof value === "string") {
      const n = value.trim() === value && value !== "" ? Number(value) : NaN;
      return Number.isNaN(n) ? { problem: "a number is required" } : { value: n };
    }
    return typeof value === "number" ? { value } : { problem: "number required" };
  }
  return { value };
}
