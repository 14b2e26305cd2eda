// Small fixture schemas for the emitter snapshots: one schema construct each (openapi-typescript
// style), on a fixture provider `fx`, so a change to one transform shows up in one place.
import { schemaDocument, type SchemaDocument, type SchemaNode } from "../../generator/schema-source.js";
import type { DocExample } from "../../generator/doc-examples.js";
import { UNKNOWN_VALUE } from "../../language/schema/model-types.js";

export interface Fixture {
  name: string;
  /** The fixture's type key, e.g. "resource.fx_pattern". */
  key: string;
  doc: SchemaDocument;
  example: DocExample;
  /** Bodies the validator accepts / rejects. */
  valid: Record<string, unknown>[];
  invalid: Record<string, unknown>[];
}

const SCHEMA = "https://json-schema.org/draft/2020-12/schema";

function fixture(
  name: string,
  spec: {
    kind?: "resource" | "data";
    description?: string;
    properties: SchemaNode;
    required?: string[];
    rules?: SchemaNode[];
    importFormats?: unknown[];
    /** Import-format parts the example body does not set (default: `id`). */
    importParts?: Record<string, string>;
    timeouts?: Record<string, string>;
    example: Record<string, unknown>;
    valid?: Record<string, unknown>[];
    invalid: Record<string, unknown>[];
  },
): Fixture {
  const kind = spec.kind ?? "resource";
  const type = `fx_${name.replace(/-/g, "_")}`;
  const key = `${kind}.${type}`;
  const className = (kind === "data" ? "DataFx" : "Fx") + name.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());
  const raw: SchemaNode = {
    $schema: SCHEMA,
    title: type,
    description: spec.description ?? `Fixture: ${name}.`,
    type: "object",
    "x-terraform": {
      kind,
      type,
      className,
      version: 0,
      ...(kind === "resource" ? { importFormats: spec.importFormats ?? ["{id}"] } : {}),
      ...(spec.timeouts ? { timeouts: spec.timeouts } : {}),
      ...(spec.rules ? { rules: spec.rules } : {}),
    },
    ...(spec.required ? { required: spec.required } : {}),
    properties: { id: { type: "string", readOnly: true, description: "Identifier." }, ...spec.properties },
  };
  return {
    name,
    key,
    doc: schemaDocument(`${key}.schema.json`, raw),
    example: { blocks: [{ key, name: "example", body: spec.example }], ...(kind === "resource" ? { importParts: spec.importParts ?? { id: "abc123" } } : {}) },
    valid: [spec.example, ...(spec.valid ?? [])],
    invalid: spec.invalid,
  };
}

export const providerFixture: SchemaDocument = schemaDocument("provider.fx.schema.json", {
  $schema: SCHEMA,
  title: "fx",
  description: "Fixture provider.",
  type: "object",
  "x-terraform": { kind: "provider", type: "fx", className: "FxProvider", version: 0 },
  properties: {
    endpoint: { type: "string", description: "Where the platform is.", "x-terraform": { env: "FX_ENDPOINT" } },
    token: { type: "string", description: "Access token.", "x-terraform": { sensitive: true, env: "FX_TOKEN" } },
  },
});

export const providerExample: DocExample = { blocks: [{ key: "provider.fx", name: "fx", body: { endpoint: "https://fx.example.com" } }] };

/** What every consumer hands the validators for a value not known yet. */
const UNKNOWN = UNKNOWN_VALUE;

export const fixtures: Fixture[] = [
  fixture("string-pattern", {
    properties: {
      name: {
        type: "string",
        minLength: 1,
        maxLength: 10,
        pattern: "^[a-z]+$",
        description: "Lowercase name.",
        "x-terraform": { message: "must be lowercase letters" },
      },
    },
    required: ["name"],
    example: { name: "abc" },
    valid: [{ name: UNKNOWN }],
    invalid: [{ name: "ABC" }, {}, { name: "abcdefghijk" }, { name: 3 }],
  }),
  fixture("enum", {
    properties: {
      tier: { type: "string", enum: ["small", "large"], description: "Size tier." },
      cpu: { type: "integer", enum: [1, 2, 4], description: "CPU count." },
    },
    example: { tier: "small", cpu: 2 },
    valid: [{ tier: UNKNOWN, cpu: UNKNOWN }],
    invalid: [{ tier: "medium" }, { cpu: 3 }],
  }),
  fixture("number-range", {
    properties: { replicas: { type: "integer", minimum: 0, maximum: 2, default: 0, description: "Replicas." } },
    example: { replicas: 1 },
    invalid: [{ replicas: 3 }, { replicas: 1.5 }, { replicas: "1" }],
  }),
  fixture("sensitive-write-only", {
    properties: {
      password: { type: "string", minLength: 8, description: "Password.", "x-terraform": { sensitive: true, computed: true } },
      password_wo: { type: "string", writeOnly: true, description: "Write-only password.", "x-terraform": { sensitive: true } },
    },
    example: { password_wo: "${var.x}" },
    invalid: [{ password: "short" }],
  }),
  fixture("computed", {
    properties: {
      name: { type: "string", description: "Name; generated when omitted.", "x-terraform": { computed: true } },
      status: { type: "string", readOnly: true, description: "Status." },
      etag: { type: "string", readOnly: true, description: "Changes on every update.", "x-terraform": { volatile: true } },
      enabled: { type: "boolean", default: true, description: "Whether it runs." },
    },
    example: { name: "a", enabled: false },
    invalid: [{ status: "READY" }, { enabled: "yes" }],
  }),
  fixture("deprecated", {
    properties: {
      size: { type: "integer", deprecated: true, description: "Old size.", "x-terraform": { deprecation: "use tier" } },
      tier: { type: "string", description: "Tier." },
    },
    example: { tier: "a" },
    valid: [{ size: 3 }],
    invalid: [{ size: "3" }],
  }),
  fixture("force-new", {
    properties: { region: { type: "string", description: "Region; changing it replaces the resource.", "x-terraform": { forceNew: true } } },
    required: ["region"],
    example: { region: "eu" },
    invalid: [{}],
  }),
  fixture("collections", {
    properties: {
      names: { type: "array", items: { type: "string" }, minItems: 1, description: "Names, in order." },
      cidrs: {
        type: "array",
        uniqueItems: true,
        items: { type: "string", pattern: "^[0-9./]+$", "x-terraform": { message: "must be a CIDR block" } },
        description: "CIDR blocks.",
      },
      labels: { type: "object", additionalProperties: { type: "string" }, description: "Labels." },
      weights: { type: "object", additionalProperties: { type: "number" }, description: "Weights." },
    },
    example: { names: ["a"], cidrs: ["10.0.0.0/8"], labels: { team: "x" }, weights: { a: 1.5 } },
    valid: [{ names: [UNKNOWN], cidrs: UNKNOWN, labels: { team: UNKNOWN } }],
    invalid: [{ names: [] }, { cidrs: ["x"] }, { cidrs: ["1.0.0.0/8", "1.0.0.0/8"] }, { labels: { a: 1 } }],
  }),
  fixture("nested-attribute", {
    properties: {
      credentials: {
        type: "object",
        required: ["type"],
        description: "How to authenticate.",
        "x-terraform": {
          rules: [
            {
              message: "credentials.role is required when credentials.type is role",
              path: "role",
              if: { properties: { type: { const: "role" } }, required: ["type"] },
              then: { required: ["role"] },
            },
          ],
        },
        properties: {
          type: { type: "string", enum: ["public", "role"], description: "Kind." },
          role: { type: "string", description: "Role to assume." },
          key_id: { type: "string", readOnly: true, description: "Generated key id." },
        },
      },
      columns: {
        type: "array",
        description: "Column mappings.",
        items: { type: "object", required: ["source"], properties: { source: { type: "string", description: "Source column." }, target: { type: "string", description: "Target column." } } },
      },
    },
    example: { credentials: { type: "role", role: "reader" }, columns: [{ source: "a", target: "b" }] },
    valid: [{ credentials: { type: UNKNOWN } }, { columns: UNKNOWN }],
    invalid: [{ credentials: { type: "role" } }, { credentials: { type: "public", key_id: "k" } }, { columns: [{ target: "b" }] }],
  }),
  fixture("blocks", {
    properties: {
      timeouts: {
        type: "object",
        description: "Operation timeouts.",
        "x-terraform": { block: "single" },
        properties: { create: { type: "string", pattern: "^[0-9]+[smh]$", description: "Create timeout." } },
      },
      rule: {
        type: "array",
        minItems: 1,
        maxItems: 3,
        description: "Firewall rules.",
        "x-terraform": { block: "list" },
        items: { type: "object", required: ["port"], properties: { port: { type: "integer", minimum: 1, maximum: 65535, description: "Port." } } },
      },
    },
    timeouts: { create: "10m" },
    example: { timeouts: { create: "5m" }, rule: [{ port: 443 }] },
    invalid: [{ timeouts: { create: "soon" } }, { rule: [] }, { rule: [{ port: 0 }] }, { rule: [{}] }],
  }),
  fixture("rules", {
    properties: {
      a: { type: "string", description: "A." },
      b: { type: "string", description: "B." },
      c: { type: "string", description: "C." },
      d: { type: "string", description: "D." },
      key: { type: "string", description: "Key." },
      secret: { type: "string", description: "Secret.", "x-terraform": { sensitive: true } },
      mode: { type: "string", enum: ["x", "y"], description: "Mode." },
      level: { type: "integer", description: "Level." },
    },
    rules: [
      { conflicts: ["a", "b"], message: "a conflicts with b" },
      { exactlyOneOf: ["c", "d"], message: "exactly one of c and d must be set" },
      { atMostOneOf: ["a", "c", "key"], message: "at most one of a, c and key" },
      { requiredTogether: ["key", "secret"], message: "key and secret must be set together" },
      { message: "mode = y requires level = 2", path: "mode", if: { properties: { mode: { const: "y" } }, required: ["mode"] }, then: { properties: { level: { const: 2 } }, required: ["level"] } },
    ],
    example: { c: "c", mode: "y", level: 2 },
    valid: [{ d: "d", key: "k", secret: "s" }, { c: "c", mode: "y", level: UNKNOWN }, { c: "c", mode: UNKNOWN, level: 1 }],
    invalid: [{ c: "c", a: "a", b: "b" }, {}, { c: "c", d: "d" }, { d: "d", key: "k" }, { c: "c", mode: "y", level: 1 }, { c: UNKNOWN, d: "d" }],
  }),
  fixture("import-formats", {
    properties: {
      project: { type: "string", description: "Project." },
      name: { type: "string", description: "Name." },
      number: { type: "integer", readOnly: true, description: "Internal number." },
    },
    importFormats: ["projects/{project}/things/{name}", { format: "{number}", parts: { number: "[0-9]+" } }, "{id}"],
    importParts: { number: "42", id: "abc123" },
    example: { project: "p", name: "n" },
    invalid: [{ number: 3 }],
  }),
  fixture("readonly-objects", {
    kind: "data",
    properties: {
      filter: { type: "string", description: "Filter." },
      items: {
        type: "array",
        readOnly: true,
        description: "Matching items.",
        items: {
          type: "object",
          properties: {
            id: { type: "integer", description: "Item id." },
            tags: { type: "array", items: { type: "string" }, description: "Tags." },
            owner: { type: "object", description: "Owner.", properties: { name: { type: "string", description: "Owner name." } } },
          },
        },
      },
    },
    example: {},
    valid: [{ filter: "x" }],
    invalid: [{ items: [] }],
  }),
];
