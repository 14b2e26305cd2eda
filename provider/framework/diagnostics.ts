// Diagnostics in the protocol's shape, with attribute paths Terraform can point at in the
// user's file, and with every sensitive value scrubbed from the text.
import { CodecError } from "../codec.js";
import type { SchemaBlock } from "../schema.js";
import { HandlerError, type Issue, type Path } from "./types.js";

export const SEVERITY_ERROR = 1;
export const SEVERITY_WARNING = 2;

export interface AttributePathStep {
  attribute_name?: string;
  element_key_string?: string;
  element_key_int?: number;
}

export interface Diagnostic {
  severity: number;
  summary: string;
  detail?: string;
  attribute?: { steps: AttributePathStep[] };
}

/**
 * Renders a body path as protocol steps. Names are attribute steps and numbers list indexes,
 * except inside maps (keys are element_key_string) and sets (which cannot be indexed: the path
 * stops at the set). Walking the schema tells which is which.
 */
export function attributePath(path: Path, block: SchemaBlock | undefined): { steps: AttributePathStep[] } | undefined {
  if (path.length === 0) return undefined;
  const steps: AttributePathStep[] = [];
  let current: SchemaBlock | undefined = block;
  // The kind of collection we are inside, once we stepped into an attribute or block.
  let collection: "object" | "list" | "set" | "map" | "opaque" = "object";
  for (const step of path) {
    if (collection === "set") break;
    if (collection === "list" || collection === "map") {
      steps.push(typeof step === "number" ? { element_key_int: step } : { element_key_string: String(step) });
      collection = current ? "object" : "opaque";
      continue;
    }
    if (typeof step === "number") {
      steps.push({ element_key_int: step });
      continue;
    }
    if (collection === "opaque" || !current) {
      steps.push({ attribute_name: step });
      continue;
    }
    steps.push({ attribute_name: step });
    const attribute = current.attributes?.[step];
    const blockType = current.block_types?.[step];
    if (attribute?.nested_type) {
      current = { attributes: attribute.nested_type.attributes };
      collection = nestingCollection(attribute.nested_type.nesting_mode);
    } else if (blockType) {
      current = blockType.block;
      collection = nestingCollection(blockType.nesting_mode);
    } else {
      // A primitive or a collection of primitives: the rest of the path follows the value.
      current = undefined;
      collection = collectionOfType(attribute?.type);
    }
  }
  return { steps };
}

function nestingCollection(mode: string): "object" | "list" | "set" | "map" {
  return mode === "single" || mode === "group" ? "object" : (mode as "list" | "set" | "map");
}

function collectionOfType(type: unknown): "list" | "set" | "map" | "opaque" {
  if (Array.isArray(type) && (type[0] === "list" || type[0] === "set" || type[0] === "map")) return type[0];
  return "opaque";
}

export function issueDiagnostic(issue: Issue, block: SchemaBlock | undefined, secrets: Iterable<string>): Diagnostic {
  return {
    severity: issue.severity === "warning" ? SEVERITY_WARNING : SEVERITY_ERROR,
    summary: redact(issue.message, secrets),
    attribute: attributePath(issue.path, block),
  };
}

export function errorDiagnostic(summary: string, detail?: string): Diagnostic {
  return { severity: SEVERITY_ERROR, summary, detail };
}

/** Any thrown value as a diagnostic; `action` says what failed ("Creating tsdb_service"). */
export function exceptionDiagnostic(error: unknown, action: string, block: SchemaBlock | undefined, secrets: Iterable<string>): Diagnostic {
  if (error instanceof HandlerError) {
    return {
      severity: SEVERITY_ERROR,
      summary: redact(error.message, secrets),
      detail: error.detail ? redact(error.detail, secrets) : undefined,
      attribute: error.path ? attributePath(error.path, block) : undefined,
    };
  }
  if (error instanceof CodecError) {
    return {
      severity: SEVERITY_ERROR,
      summary: `${action}: invalid value`,
      detail: redact(error.message, secrets),
      attribute: attributePath(error.path, block),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { severity: SEVERITY_ERROR, summary: `${action} failed`, detail: redact(message, secrets) };
}

const SHORTEST_SECRET = 3;

/**
 * Replaces every sensitive value in a message. Values shorter than 3 characters are left alone:
 * they identify nothing and would garble every message they occur in.
 */
export function redact(text: string, secrets: Iterable<string>): string {
  let out = text;
  // Longest first, so a secret that contains another is replaced whole.
  const sorted = [...secrets].filter((s) => s.length >= SHORTEST_SECRET).sort((a, b) => b.length - a.length);
  for (const secret of sorted) out = out.split(secret).join("(sensitive value)");
  return out;
}

export function hasErrors(diagnostics: Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === SEVERITY_ERROR);
}
