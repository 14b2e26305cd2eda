// A map of strings whose keys are an allow-list of settings (`x-terraform.settings` on a map
// property: the `parameters` of tsdb_service, PostgreSQL's settings). Each setting declares its
// type (integer, real, bool, enum, memory, time, string), its range in its base unit, its unit
// and whether a change needs a restart. Lowered to standard JSON Schema (the keys as `properties`
// with `additionalProperties: false`, the syntax as `enum`/`pattern`) plus the `x-setting` range
// keyword (generator/keywords.ts), with a message for each check and the keys for "did you mean".
import { SETTING, UNKNOWN_OR } from "./keywords.js";
import type { SchemaNode } from "./schema-source.js";

export interface SettingDeclaration {
  type: "integer" | "real" | "bool" | "enum" | "memory" | "time" | "string";
  description: string;
  /** in the base unit (kB for memory, ms for time) */
  minimum?: number;
  maximum?: number;
  enum?: string[];
  pattern?: string;
  /** a change takes effect only after the database restarts (PostgreSQL context `postmaster`) */
  restart?: boolean;
}

/** PostgreSQL's units, as factors of the base unit of memory (kB) and time (ms) settings. */
const UNITS: Record<"memory" | "time", { base: string; units: Record<string, number> }> = {
  memory: { base: "kB", units: { B: 1 / 1024, kB: 1, MB: 1024, GB: 1024 ** 2, TB: 1024 ** 3 } },
  time: { base: "ms", units: { us: 0.001, ms: 1, s: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 } },
};

const BOOLEANS = ["on", "off", "true", "false", "yes", "no", "1", "0"];

interface Lowering {
  messages: Record<string, string>;
  keys: Record<string, string[]>;
}

/** The lowered schema of a settings map at schema path `at`. */
export function lowerSettings(settings: Record<string, SettingDeclaration>, at: string, out: Lowering): SchemaNode {
  const properties: SchemaNode = {};
  for (const [name, setting] of Object.entries(settings)) {
    const where = `${at}/properties/${name}/${UNKNOWN_OR}`;
    properties[name] = { [UNKNOWN_OR]: settingValue(name, setting, where, out) };
  }
  out.keys[`${at}/additionalProperties`] = Object.keys(settings);
  return { type: "object", properties, additionalProperties: false };
}

function settingValue(name: string, setting: SettingDeclaration, at: string, out: Lowering): SchemaNode {
  const value: SchemaNode = { type: "string" };
  const range = (units?: Record<string, number>) => {
    if (setting.minimum === undefined && setting.maximum === undefined) return;
    value[SETTING] = { ...(setting.minimum !== undefined ? { minimum: setting.minimum } : {}), ...(setting.maximum !== undefined ? { maximum: setting.maximum } : {}), ...(units ? { units } : {}) };
    out.messages[`${at}/${SETTING}`] = `must be ${rangeWords(setting)}`;
  };
  switch (setting.type) {
    case "bool":
      value.enum = BOOLEANS;
      break;
    case "enum":
      value.enum = setting.enum ?? [];
      break;
    case "integer":
      value.pattern = "^-?[0-9]+$";
      out.messages[`${at}/pattern`] = "must be a whole number";
      range();
      break;
    case "real":
      value.pattern = "^-?[0-9]+(\\.[0-9]+)?$";
      out.messages[`${at}/pattern`] = "must be a number";
      range();
      break;
    case "memory":
    case "time": {
      const { base, units } = UNITS[setting.type];
      value.pattern = `^-?[0-9]+ ?(${Object.keys(units).join("|")})?$`;
      out.messages[`${at}/pattern`] = `must be a whole number of ${base}, or one with a unit (${Object.keys(units).join(", ")}), such as ${setting.type === "memory" ? "64MB" : "30s"}`;
      range(units);
      break;
    }
    case "string":
      if (setting.pattern) {
        value.pattern = setting.pattern;
        out.messages[`${at}/pattern`] = `is not a valid ${name}`;
      }
      break;
    default:
      throw new Error(`setting ${name}: unknown type ${JSON.stringify((setting as { type: unknown }).type)}`);
  }
  return value;
}

function baseUnit(setting: SettingDeclaration): string {
  return setting.type === "memory" || setting.type === "time" ? ` ${UNITS[setting.type].base}` : "";
}

function rangeWords(setting: SettingDeclaration): string {
  const unit = baseUnit(setting);
  if (setting.minimum !== undefined && setting.maximum !== undefined) return `from ${setting.minimum}${unit} to ${setting.maximum}${unit}`;
  if (setting.minimum !== undefined) return `at least ${setting.minimum}${unit}`;
  return `at most ${setting.maximum}${unit}`;
}

/** The reference pages' list of the allowed settings. */
export function settingsDocLines(settings: Record<string, SettingDeclaration>): string {
  const lines = Object.entries(settings).map(([name, s]) => {
    const kind =
      s.type === "bool" ? "on/off" : s.type === "enum" ? `one of ${(s.enum ?? []).map((v) => `\`${v}\``).join(", ")}` : s.type === "memory" || s.type === "time" ? `${s.type}, in ${UNITS[s.type].base} or with a unit` : s.type;
    const range = s.minimum !== undefined || s.maximum !== undefined ? `, ${rangeWords(s)}` : "";
    return `\`${name}\` (${kind}${range}${s.restart ? "; needs a restart" : ""}): ${s.description}`;
  });
  return `Allowed settings: ${lines.join("; ")}.`;
}

/**
 * generated/settings.ts: the settings that need a restart, per type key and attribute, for the
 * consumers that warn about them at run time (the provider at plan, the platform on update).
 */
export function emitSettingsModule(docs: { key: string; schema: SchemaNode }[]): string {
  const restart: Record<string, Record<string, string[]>> = {};
  for (const doc of docs) {
    for (const [name, prop] of Object.entries<SchemaNode>(doc.schema.properties ?? {})) {
      const settings = (prop["x-terraform"]?.settings ?? undefined) as Record<string, SettingDeclaration> | undefined;
      if (!settings) continue;
      (restart[doc.key] ??= {})[name] = Object.entries(settings).filter(([, s]) => s.restart).map(([n]) => n);
    }
  }
  return [
    "// Generated by `npm run generate` from schemas/; do not edit.",
    "/** Type key → settings map attribute → the settings whose change needs a restart. */",
    `export const RESTART_SETTINGS: Record<string, Record<string, string[]>> = ${JSON.stringify(restart, null, 2)};`,
    "",
  ].join("\n");
}
