// What every handler shares: the clients the two providers configure, platform errors turned
// into diagnostics, import identifiers matched against the type's import formats, waiting for a
// status within a timeout, and warnings for Terraform.
import { UNKNOWN, type Value } from "../codec.js";
import { type Body, type CallContext, HandlerError, type Issue, type Path } from "../framework/types.js";
import { identical } from "../framework/values.js";
import type { ImportFormat, TypeModel } from "../../language/schema/model-types.js";
import type { Warning } from "../../platform/errors.js";
import type { Labels, PlatformClient } from "../../platform/types.js";
import { withCallBudget } from "../../platform/call-budget.js";
import { parseDuration } from "../../platform/config.js";
import { log } from "../log.js";

export { UNKNOWN };

/** What the tsdb provider's handlers get: the platform and the project every resource is in. */
export interface TsdbClient {
  platform: PlatformClient;
  projectId: string;
}

/** What the containerbackup provider's handlers get. */
export interface ContainerbackupClient {
  platform: PlatformClient;
  /** The provider's `project` (or CONTAINERBACKUP_PROJECT); resources may set their own. */
  project?: string;
  /** The provider's `default_labels`. */
  defaultLabels: Labels;
}

// ---------------------------------------------------------------------------------------------
// platform errors

interface PlatformErrorLike {
  code: string;
  message: string;
  issues?: Issue[];
}

export function isPlatformError(error: unknown): error is PlatformErrorLike {
  return error instanceof Error && error.name === "PlatformError" && typeof (error as { code?: unknown }).code === "string";
}

export function isNotFound(error: unknown): boolean {
  return isPlatformError(error) && error.code === "not_found";
}

/** Runs a platform call; a `not_found` answer becomes null (the object is gone). */
export async function orNull<T>(call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/**
 * Turns a platform error into a diagnostic that points at the attribute it is about. Other
 * errors pass through (the framework reports them as "<action> failed").
 */
export function diagnose(error: unknown, what: string, state?: Body): never {
  if (error instanceof HandlerError) throw error;
  if (!isPlatformError(error)) throw error;
  const path = error.issues?.[0]?.path;
  const summary: Record<string, string> = {
    conflict: `${what}: conflict`,
    not_found: `${what}: not found`,
    invalid: `${what}: invalid configuration`,
    failed_precondition: `${what}: not possible in the current state`,
    unauthenticated: `${what}: not authorized`,
    timeout: `${what}: timed out`,
  };
  throw new HandlerError(summary[error.code] ?? `${what} failed`, {
    detail: error.message,
    path: path && path.length > 0 ? path : undefined,
    state,
    cause: error,
  });
}

/** Wraps a platform call with `diagnose`. */
export async function call<T>(what: string, fn: () => Promise<T>, state?: Body): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    diagnose(error, what, state);
  }
}

// ---------------------------------------------------------------------------------------------
// warnings

/**
 * Shows a warning in Terraform's output. The framework collects them from `request.warnings`
 * (see provider/resources/README.md); where it does not, they go to the provider log.
 */
export function warn(request: CallContext<unknown>, path: Path, message: string): void {
  const sink = (request as { warnings?: Issue[] }).warnings;
  if (Array.isArray(sink)) sink.push({ severity: "warning", path, message });
  else log("warn", message, { path });
}

/** Passes the platform's warnings on, except those the plan already showed. */
export function passWarnings(request: CallContext<unknown>, warnings: Warning[], shownAtPlan: (path: Path) => boolean = () => false): void {
  for (const w of warnings) if (!shownAtPlan(w.path)) warn(request, w.path, w.message);
}

// ---------------------------------------------------------------------------------------------
// import identifiers

export interface ImportMatch {
  format: string;
  /** attribute name → value taken from the identifier */
  parts: Record<string, string>;
}

/**
 * Every import format of the type that `id` matches, in the model's order. An identifier that
 * matches none is an error listing the accepted formats.
 */
export function matchImport(model: Pick<TypeModel, "type" | "importFormats">, id: string): ImportMatch[] {
  const matches: ImportMatch[] = [];
  for (const format of model.importFormats as ImportFormat[]) {
    const m = new RegExp(format.regex).exec(id);
    if (!m) continue;
    const parts: Record<string, string> = {};
    format.parts.forEach((name, i) => (parts[name] = m[i + 1]!));
    matches.push({ format: format.format, parts });
  }
  if (matches.length === 0) {
    const accepted = (model.importFormats as ImportFormat[]).map((f) => f.format).join(", ");
    throw new HandlerError(`Invalid import identifier for ${model.type}`, {
      detail: `Import id "${id}" doesn't match any of the accepted formats: ${accepted}.`,
    });
  }
  return matches;
}

/** Tries each match in order; the first object found wins, null when none exists. */
export async function firstFound<T>(matches: ImportMatch[], lookup: (match: ImportMatch) => Promise<T | null>): Promise<T | null> {
  for (const match of matches) {
    const found = await lookup(match);
    if (found !== null) return found;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// bodies

/** The attributes the remote owns, with `null` for those it did not return (so drift shows). */
export function owned(remote: object, names: readonly string[]): Body {
  const source = remote as Record<string, unknown>;
  const out: Body = {};
  for (const name of names) out[name] = (source[name] ?? null) as Value;
  return out;
}

/** The request body for the platform: the given keys of `desired` that are set. */
export function pick<T>(desired: Body, names: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const name of names) if (desired[name] !== undefined && desired[name] !== null) out[name] = desired[name];
  return out as T;
}

/** Deep equality of two body values (key order ignored; UNKNOWN equals only UNKNOWN). */
export function same(a: Value | undefined, b: Value | undefined): boolean {
  return identical(a ?? null, b ?? null) || canonical(a ?? null) === canonical(b ?? null);
}

function canonical(value: Value): string {
  if (value === UNKNOWN) return "?";
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value)
      .filter((k) => value[k] !== null && value[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k]!)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/** A patch of the attributes whose planned value differs from the prior one (`null` clears). */
export function changedAttributes(planned: Body, prior: Body, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) if (!same(planned[name], prior[name])) out[name] = planned[name] ?? null;
  return out;
}

export function isKnown(value: Value | undefined): boolean {
  return value !== UNKNOWN && value !== undefined;
}

/** True for a value that is set: non-null, known or not. */
export function isSet(value: Value | undefined): boolean {
  return value !== null && value !== undefined;
}

export function text(value: Value | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function num(value: Value | undefined): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && /^-?[0-9]+(\.[0-9]+)?$/.test(value)) return Number(value);
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// waiting

/** The timeout of an operation: the resource's `timeouts` block, else the type's default. */
export function timeoutMs(state: Body, operation: string, model: Pick<TypeModel, "timeouts">, fallback = "10m"): number {
  const block = state.timeouts;
  const configured = block !== null && typeof block === "object" && !Array.isArray(block) ? text(block[operation]) : undefined;
  return parseDuration(configured ?? model.timeouts?.[operation] ?? fallback);
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error("stopped"));
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error("stopped"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export interface WaitOptions<T> {
  /** Reads the object once. */
  poll: () => Promise<T>;
  /** The status of what was read. */
  status: (value: T) => string;
  /** Statuses that end the wait successfully. */
  target: readonly string[];
  /** Statuses that end it with an error. */
  failed?: readonly string[];
  timeoutMs: number;
  signal: AbortSignal;
  /** "service d1k5vk7hf2" */
  what: string;
  /** What a failed wait leaves: after a create the object is tainted (the next apply replaces it). */
  operation: "create" | "update";
  /** The state to keep (tainted) when the wait fails: the object exists. */
  stateOf: (value: T) => Body;
  /** Extra text for a failure, e.g. the platform's error message. */
  failure?: (value: T) => string;
  /** the longest pause between polls (default 2 s) */
  maxIntervalMs?: number;
}

/**
 * Polls until the object reaches a target status. Polls quickly at first (the embedded platform
 * with short transitions settles in milliseconds) and backs off to 2 s.
 */
export async function waitFor<T>(options: WaitOptions<T>, first?: T): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  // The platform client retries transient failures of each poll until the operation's deadline
  // (or Terraform's Stop); what still fails after that ends the wait like a timeout does.
  const poll = () => withCallBudget({ deadline, signal: options.signal }, options.poll);
  let value = first ?? (await poll());
  let delay = 100;
  for (;;) {
    const status = options.status(value);
    if (options.target.includes(status)) return value;
    if (options.failed?.includes(status)) {
      const extra = options.failure?.(value);
      throw new HandlerError(`${options.what} failed: status ${status}`, {
        detail: `${extra ? `${extra}. ` : ""}${keptInState(options.operation)}`,
        state: options.stateOf(value),
      });
    }
    if (Date.now() >= deadline) {
      throw new HandlerError(`Timed out waiting for ${options.what}`, {
        detail: `It is still ${status} after ${Math.round(options.timeoutMs / 1000)}s (waiting for ${options.target.join(" or ")}); the platform goes on with it. ${keptInState(options.operation)} To wait longer, raise timeouts.${options.operation}.`,
        state: options.stateOf(value),
      });
    }
    try {
      await sleep(Math.min(delay, Math.max(0, deadline - Date.now())), options.signal);
    } catch {
      throw new HandlerError(`Stopped while waiting for ${options.what}`, {
        detail: `It was ${status}. ${keptInState(options.operation)}`,
        state: options.stateOf(value),
      });
    }
    delay = Math.min(delay * 2, options.maxIntervalMs ?? 2000);
    try {
      value = await poll();
    } catch (error) {
      // Gone while we waited (deleted outside Terraform): nothing to keep.
      if (isNotFound(error)) diagnose(error, `Waiting for ${options.what}`);
      const reason = error instanceof Error ? error.message : String(error);
      const summary = isPlatformError(error) ? `Reading ${options.what} failed while waiting for it` : `Lost contact with the platform while waiting for ${options.what}`;
      throw new HandlerError(summary, {
        detail: `${reason}. It was ${status} when last seen. ${keptInState(options.operation)}`,
        state: options.stateOf(value),
        cause: error,
      });
    }
  }
}

function keptInState(operation: "create" | "update"): string {
  return operation === "create"
    ? "The object exists and is kept in state as tainted: the next apply destroys it and creates a new one. To keep it instead, run `terraform untaint` on its address once it is ready."
    : "The object is kept in state as it was last read: the next plan shows whatever is still to change.";
}

/** Runs an operation's requests under its deadline, so their retries stop when the operation would. */
export function withinTimeout<T>(timeoutMs: number, signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
  return withCallBudget({ deadline: Date.now() + timeoutMs, signal }, fn);
}
