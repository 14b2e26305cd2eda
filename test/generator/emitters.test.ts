// Snapshot tests of every emitter on small fixture schemas (test/generator/fixtures.ts), one
// schema construct each, plus the behaviour of the emitted validator on bodies that must pass
// and fail. Snapshots live in __snapshots__/emitters/<fixture>/ as plain files to read in review.
import { createRequire } from "node:module";
import { describe, expect, test } from "vitest";
import { generateFrom } from "../../generator/generate.js";
import { lowerSchema } from "../../generator/lower.js";
import { fileName } from "../../generator/names.js";
import { fixtures, providerExample, providerFixture, type Fixture } from "./fixtures.js";

const requireHere = createRequire(import.meta.url);

const emitted = new Map<string, Promise<Map<string, string>>>();

/** Every emitter's output for one fixture (and the fixture provider), computed once. */
function emit(f: Fixture): Promise<Map<string, string>> {
  let files = emitted.get(f.name);
  if (!files) emitted.set(f.name, (files = generateFrom([providerFixture, f.doc], "0.0.0", { examples: { "provider.fx": providerExample, [f.key]: f.example } })));
  return files;
}

/** Loads an emitted standalone validator (CommonJS source) without writing it to disk. */
function loadValidator(code: string): ((data: unknown) => boolean) & { errors?: unknown[] } {
  const module = { exports: {} as any };
  new Function("module", "exports", "require", code)(module, module.exports, requireHere);
  return module.exports;
}

const snapshot = (f: Fixture, part: string) => `__snapshots__/emitters/${f.name}/${part}`;

describe.each(fixtures)("$name", (f) => {
  const kind = f.doc.root.kind;
  const file = fileName(f.doc.root.type, "fx", kind);
  const docPage = `docs/fx/${kind === "data" ? "data-sources" : "resources"}/${f.doc.root.type.slice(3)}.md`;

  test("model (emit-models)", async () => {
    await expect((await emit(f)).get(`models/${f.key}.ts`)).toMatchFileSnapshot(snapshot(f, "model.ts.snap"));
  });

  test("lowered schema and rule table (emit-validators)", async () => {
    const lowered = lowerSchema(f.doc.schema, f.doc.root.rules ?? []);
    await expect(`${JSON.stringify(lowered, null, 2)}\n`).toMatchFileSnapshot(snapshot(f, "lowered.json"));
  });

  test("the emitted validator accepts and rejects the right bodies", async () => {
    const validate = loadValidator((await emit(f)).get(`validators/${f.key}.cjs`)!);
    for (const body of f.valid) expect(validate(body), JSON.stringify(body)).toBe(true);
    for (const body of f.invalid) expect(validate(body), JSON.stringify(body)).toBe(false);
  });

  test("TypeScript types (emit-types)", async () => {
    await expect((await emit(f)).get(`types/fx/${file}.ts`)).toMatchFileSnapshot(snapshot(f, "types.ts.snap"));
  });

  test("construct class (emit-constructs)", async () => {
    await expect((await emit(f)).get(`constructs/fx/${file}.ts`)).toMatchFileSnapshot(snapshot(f, "construct.ts.snap"));
  });

  test("Terraform provider schema (emit-terraform)", async () => {
    const schema = JSON.parse((await emit(f)).get("terraform/fx.json")!);
    const provider = schema.provider_schemas["registry.terraform.io/schemaform/fx"];
    const part = (kind === "data" ? provider.data_source_schemas : provider.resource_schemas)[f.doc.root.type];
    await expect(`${JSON.stringify(part, null, 2)}\n`).toMatchFileSnapshot(snapshot(f, "terraform.json"));
  });

  test("reference page (emit-docs)", async () => {
    await expect((await emit(f)).get(docPage)).toMatchFileSnapshot(snapshot(f, "docs.md"));
  });

  test("editor schema definition (emit-editor-schema)", async () => {
    const editor = JSON.parse((await emit(f)).get("editor/tf.json.schema.json")!);
    await expect(`${JSON.stringify(editor.definitions[f.key], null, 2)}\n`).toMatchFileSnapshot(snapshot(f, "editor.json"));
  });
});

describe("shared outputs", () => {
  test("provider model, registry and the provider page", async () => {
    const files = await emit(fixtures[0]!);
    await expect(files.get("models/provider.fx.ts")).toMatchFileSnapshot("__snapshots__/emitters/provider/model.ts.snap");
    await expect(files.get("constructs/fx/provider.ts")).toMatchFileSnapshot("__snapshots__/emitters/provider/construct.ts.snap");
    await expect(files.get("docs/fx/index.md")).toMatchFileSnapshot("__snapshots__/emitters/provider/docs.md");
    await expect(files.get("registry.ts")).toMatchFileSnapshot("__snapshots__/emitters/provider/registry.ts.snap");
  });

  test("an example that breaks its schema stops the generator", async () => {
    const f = fixtures.find((x) => x.name === "string-pattern")!;
    await expect(
      generateFrom([providerFixture, f.doc], "0.0.0", { examples: { "provider.fx": providerExample, [f.key]: { blocks: [{ key: f.key, name: "bad", body: { name: "UPPER" } }] } } }),
    ).rejects.toThrow(/breaks its schema/);
  });
});
