// The keywords our lowered schemas add to JSON Schema, compiled by Ajv into the standalone
// validators like its own keywords.
//
// Why not plain JSON Schema: the natural guard, `{ if: { const: UNKNOWN_VALUE }, else: … }`,
// fails its `if` for every known value, and Ajv records each failure inside `if`, `not` or
// `anyOf` as a placeholder error that it allocates and then throws away. A cross-field rule
// written as `{ if: <broken>, then: false }` paid several of those even when it held. On a valid
// body that was most of a validator's time. These keywords compile to plain comparisons and
// allocate nothing unless a value is unknown or a rule is broken.
import type { CodeKeywordDefinition, KeywordCxt } from "ajv";
import { _, and, getProperty, not, or, str, type Code } from "ajv/dist/compile/codegen/index.js";
import { useFunc } from "ajv/dist/compile/util.js";
import equalModule from "ajv/dist/runtime/equal.js";
import { UNKNOWN_VALUE } from "../language/schema/model-types.js";

/** `{ "x-unknown-or": <schema> }`: the unknown value passes; any other value must match <schema>. */
export const UNKNOWN_OR = "x-unknown-or";

/**
 * `{ "x-rule": { holds: <schema>, reads: ["a", "b"] } }`: fails, with one error at this keyword,
 * when <schema> does not hold for the object, unless property a or b holds the unknown value (a
 * rule that reads a value cannot be judged before the value is known). <schema> is standard
 * JSON Schema limited to the keywords rules need (see ruleHolds).
 */
export const RULE = "x-rule";

/**
 * `{ "x-unique": true }` on an array: no two equal elements, as `uniqueItems`, except that a set
 * holding an unknown value (at any depth) is not judged: unknowns may turn out equal or not, so
 * even its length is unknown until apply, as Terraform has it.
 */
export const UNIQUE = "x-unique";

type SchemaNode = boolean | { [keyword: string]: any };

/**
 * Whether a value holds UNKNOWN_VALUE anywhere. Standalone validators get this source text, and
 * the generator runs the same text, so the two cannot drift apart.
 */
const HOLDS_UNKNOWN_SOURCE = `(function holdsUnknown(value) {
  if (value === ${JSON.stringify(UNKNOWN_VALUE)}) return true;
  if (value === null || typeof value !== "object") return false;
  for (const item of Object.values(value)) if (holdsUnknown(item)) return true;
  return false;
})`;
const holdsUnknown = Object.assign(new Function(`return ${HOLDS_UNKNOWN_SOURCE}`)() as (value: unknown) => boolean, { code: HOLDS_UNKNOWN_SOURCE });

const unknownOr: CodeKeywordDefinition = {
  keyword: UNKNOWN_OR,
  schemaType: ["object", "boolean"],
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const valid = gen.name("valid");
    gen.if(
      _`${data} !== ${UNKNOWN_VALUE}`,
      () => {
        const schemaCxt = cxt.subschema({ keyword: UNKNOWN_OR }, valid);
        cxt.mergeValidEvaluated(schemaCxt, valid);
      },
      () => gen.var(valid, true),
    );
    cxt.ok(valid);
  },
};

const rule: CodeKeywordDefinition = {
  keyword: RULE,
  type: "object",
  schemaType: "object",
  code(cxt: KeywordCxt) {
    const { data, schema } = cxt;
    const { holds, reads = [] } = schema as { holds: SchemaNode; reads?: string[] };
    const known = reads.map((field) => _`${data}${getProperty(field)} !== ${UNKNOWN_VALUE}`);
    cxt.fail(and(...known, not(ruleHolds(holds, data, true))));
  },
};

const unique: CodeKeywordDefinition = {
  keyword: UNIQUE,
  type: "array",
  schemaType: "boolean",
  error: {
    message: ({ params: { i, j } }) => str`must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
    params: ({ params: { i, j } }) => _`{i: ${i}, j: ${j}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data, schema } = cxt;
    if (!schema) return;
    // Ajv's own deep equality (what `uniqueItems` uses). A CommonJS module with an `__esModule`
    // default: Node hands us its exports object, esbuild-style loaders the function itself.
    const loaded = equalModule as unknown as { code?: string; default?: { code: string } };
    const equal = loaded.code !== undefined ? (loaded as { code: string }) : loaded.default!;
    const eql = useFunc(gen, equal);
    const unknown = useFunc(gen, holdsUnknown);
    const valid = gen.let("valid", true);
    const i = gen.let("i", _`${data}.length`);
    const j = gen.let("j");
    cxt.setParams({ i, j });
    gen.if(_`${i} > 1 && !${unknown}(${data})`, () => {
      const outer = gen.name("outer");
      gen.label(outer).for(_`;${i}--;`, () =>
        gen.for(_`${j} = ${i}; ${j}--;`, () =>
          gen.if(_`${eql}(${data}[${i}], ${data}[${j}])`, () => {
            cxt.error();
            gen.assign(valid, false).break(outer);
          }),
        ),
      );
    });
    cxt.ok(valid);
  },
};

/**
 * `{ "x-setting": { "minimum": 64, "maximum": 2097151, "units": { "kB": 1, "MB": 1024, … } } }` on
 * a string holding a number with an optional unit (a PostgreSQL setting such as "64MB" or "30s";
 * `pattern` checks the syntax): the number, converted to the setting's base unit (a value without
 * a unit is in the base unit), must be within the range. Not judged when the text does not parse
 * (the pattern reports that).
 */
export const SETTING = "x-setting";

const SETTING_VALUE_SOURCE = `(function settingValue(text, units) {
  const m = /^(-?[0-9]+(?:\\.[0-9]+)?) ?([A-Za-z]*)$/.exec(text);
  if (!m) return undefined;
  const factor = m[2] === "" ? 1 : units && Object.prototype.hasOwnProperty.call(units, m[2]) ? units[m[2]] : undefined;
  return factor === undefined ? undefined : Number(m[1]) * factor;
})`;
export const settingValue = Object.assign(new Function(`return ${SETTING_VALUE_SOURCE}`)() as (text: string, units?: Record<string, number>) => number | undefined, {
  code: SETTING_VALUE_SOURCE,
});

const setting: CodeKeywordDefinition = {
  keyword: SETTING,
  type: "string",
  schemaType: "object",
  code(cxt: KeywordCxt) {
    const { gen, data, schema } = cxt;
    const { minimum, maximum, units } = schema as { minimum?: number; maximum?: number; units?: Record<string, number> };
    const parse = useFunc(gen, settingValue);
    // Ajv's codegen interpolates a plain object as its JSON: an object literal in the generated code.
    const value = gen.const("value", _`${parse}(${data}, ${(units ?? null) as unknown as string})`);
    const outside: Code[] = [];
    if (minimum !== undefined) outside.push(_`${value} < ${minimum}`);
    if (maximum !== undefined) outside.push(_`${value} > ${maximum}`);
    cxt.fail(and(_`${value} !== undefined`, or(...outside)));
  },
};

export const KEYWORDS: CodeKeywordDefinition[] = [unknownOr, rule, unique, setting];

/**
 * The condition under which `schema` holds for the value `data`, as JavaScript, with JSON
 * Schema's meaning. Only the keywords rules use are accepted: anything else fails generation
 * rather than becoming a rule that never fires. `isObject`: `data` is known to be a plain object.
 */
export function ruleHolds(schema: SchemaNode, data: Code, isObject = false): Code {
  if (schema === true) return _`true`;
  if (schema === false) return _`false`;
  const parts: Code[] = [];
  const objectParts: Code[] = [];
  const property = (name: string) => _`${data}${getProperty(name)}`;
  const present = (name: string) => _`${property(name)} !== undefined`;
  for (const [keyword, value] of Object.entries(schema)) {
    switch (keyword) {
      case "const":
      case "enum": {
        const allowed: unknown[] = keyword === "const" ? [value] : value;
        for (const v of allowed) {
          if (v !== null && typeof v === "object") throw new Error(`rule keyword ${keyword}: only strings, numbers, bools and null can be compared, not ${JSON.stringify(v)}`);
        }
        parts.push(or(...allowed.map((v) => _`${data} === ${v as string}`)));
        break;
      }
      case "required":
        objectParts.push(and(...(value as string[]).map(present)));
        break;
      case "properties":
        for (const [name, sub] of Object.entries(value as Record<string, SchemaNode>)) {
          objectParts.push(or(_`${property(name)} === undefined`, ruleHolds(sub, property(name))));
        }
        break;
      case "dependentRequired":
        for (const [name, needed] of Object.entries(value as Record<string, string[]>)) {
          objectParts.push(or(_`${property(name)} === undefined`, and(...needed.map(present))));
        }
        break;
      case "not":
        parts.push(not(ruleHolds(value, data, isObject)));
        break;
      case "allOf":
        parts.push(and(...(value as SchemaNode[]).map((s) => ruleHolds(s, data, isObject))));
        break;
      case "anyOf":
        parts.push(or(...(value as SchemaNode[]).map((s) => ruleHolds(s, data, isObject))));
        break;
      case "oneOf": {
        const counts = (value as SchemaNode[]).map((s) => _`(${ruleHolds(s, data, isObject)} ? 1 : 0)`);
        parts.push(_`(${counts.reduce((a, b) => _`${a} + ${b}`)}) === 1`);
        break;
      }
      case "if": {
        const then = schema.then === undefined ? _`true` : ruleHolds(schema.then, data, isObject);
        const otherwise = schema.else === undefined ? _`true` : ruleHolds(schema.else, data, isObject);
        parts.push(_`(${ruleHolds(value, data, isObject)} ? ${then} : ${otherwise})`);
        break;
      }
      case "then":
      case "else":
        break; // read with "if"
      default:
        throw new Error(`rule keyword ${keyword} is not supported in x-terraform rules`);
    }
  }
  if (objectParts.length) {
    // as in JSON Schema, object keywords say nothing about a value that is not an object
    const objectHolds = and(...objectParts);
    parts.push(isObject ? objectHolds : or(not(_`(${data} && typeof ${data} == "object" && !Array.isArray(${data}))`), objectHolds));
  }
  return parts.length ? and(...parts) : _`true`;
}
