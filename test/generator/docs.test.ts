// The reference pages as users meet them (generated/docs/, shipped as docs/ in the package): the
// Terraform Registry layout, links that resolve, every section a page needs, every import
// identifier with its commands, an editor association that does not touch the user's files,
// requiredness that matches what Terraform and the validators enforce, and no wording about where
// facts came from in anything the package ships. (That the ```terraform examples are valid is
// test/e2e/doc-examples.test.ts: it needs the built providers.)
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, test } from "vitest";
import { loadType, validateBody } from "../../language/schema/body.js";

const root = process.cwd();
const DOCS = join(root, "generated", "docs");

function files(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((entry) => {
      const path = join(dir, entry);
      return statSync(path).isDirectory() ? files(path) : [path];
    })
    .sort();
}

const pages = new Map(files(DOCS).map((f) => [relative(DOCS, f).split("\\").join("/"), readFileSync(f, "utf8")]));
const page = (path: string) => pages.get(path) ?? "";
const schemas = new Map(
  readdirSync(join(root, "schemas"))
    .filter((f) => f.endsWith(".schema.json"))
    .map((f) => [f.replace(/\.schema\.json$/, ""), JSON.parse(readFileSync(join(root, "schemas", f), "utf8"))]),
);
const terraformSchemas = Object.fromEntries(
  ["tsdb", "containerbackup"].map((p) => [p, JSON.parse(readFileSync(join(root, "generated", "terraform", `${p}.json`), "utf8")).provider_schemas[`registry.terraform.io/schemaform/${p}`]]),
);

/** The page of a type key, by the Registry's rule: the type name without the provider prefix. */
function pathOf(key: string): string {
  const [kind, type] = key.split(".") as [string, string];
  if (kind === "provider") return `${type}/index.md`;
  const provider = type.split("_")[0]!;
  const folder = kind === "data" ? "data-sources" : kind === "ephemeral" ? "ephemeral-resources" : "resources";
  return `${provider}/${folder}/${type.slice(provider.length + 1)}.md`;
}

/** The text of a `## heading` section (up to the next `## `). */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) return "";
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** Argument names listed under `### Required` of the argument reference. */
function documentedRequired(text: string): string[] {
  const required = /\n### Required\n([\s\S]*?)(?=\n#|$)/.exec(section(text, "Argument reference"))?.[1] ?? "";
  return [...required.matchAll(/^- `([a-z0-9_]+)`/gm)].map((m) => m[1]!).sort();
}

describe("nothing said twice", () => {
  test("an argument's allowed values, its deprecation and the timeouts appear once each", () => {
    const service = page("tsdb/resources/service.md");
    const milli = service.split("\n").find((l) => l.startsWith("- `milli_cpu`"))!;
    expect(milli).toContain("Allowed: 500, 1000");
    expect(milli).not.toContain("Must be one of");
    const storage = service.split("\n").find((l) => l.startsWith("- `storage_gb`"))!;
    expect(storage.match(/Deprecated/g)).toHaveLength(2); // the flag, and the description's own word
    expect(storage).not.toContain("**Deprecated**:");
    expect(service).not.toContain("Nested schema for `timeouts`");
    expect(section(service, "Timeouts")).toContain("- `create` (default `45m`): Create, until the service is READY (or PAUSED)");
  });

  test("a default or a range the description gives is not said again", () => {
    const repeated: string[] = [];
    for (const [path, text] of pages) {
      for (const line of text.split("\n").filter((l) => l.startsWith("- `"))) {
        const generatedDefault = /Defaults to `([^`]*)`\./.exec(line);
        if (generatedDefault && new RegExp(`\\bdefault:?\\s+\`?${generatedDefault[1]!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\`?(?![\\w-])`, "i").test(line.slice(0, generatedDefault.index))) repeated.push(`${path}: ${line.slice(0, 60)}`);
        const generatedRange = /Must be between (-?\d+) and (-?\d+)\./.exec(line);
        if (generatedRange && line.includes(`${generatedRange[1]} to ${generatedRange[2]}`)) repeated.push(`${path}: ${line.slice(0, 60)}`);
      }
    }
    expect(repeated).toEqual([]);
    expect(page("tsdb/resources/service.md")).toContain("- `read_replica_nodes` (Number) Nodes of a read replica set, 1 to 10 (default 1); only with `read_replica_source`. When omitted");
  });
});

describe("first-time examples", () => {
  test("the provider index pages configure the embedded platform, with names of their own", () => {
    for (const provider of ["tsdb", "containerbackup"]) {
      const example = section(page(`${provider}/index.md`), "Example usage");
      expect(example).not.toContain("endpoint");
      expect(example).not.toMatch(/demo-project|main-vpc|prod-restores/);
    }
  });
});

describe("layout", () => {
  test("one page per type and per function at the Terraform Registry paths, and nothing else", () => {
    expect([...pages.keys()]).toEqual([
      "containerbackup/functions/location_from_id.md",
      "containerbackup/functions/name_from_id.md",
      "containerbackup/functions/project_from_id.md",
      "containerbackup/index.md",
      "containerbackup/resources/restore_channel.md",
      "tsdb/data-sources/products.md",
      "tsdb/data-sources/service.md",
      "tsdb/data-sources/vpcs.md",
      "tsdb/ephemeral-resources/service_credentials.md",
      "tsdb/functions/connection_uri.md",
      "tsdb/functions/parse_peering_import_id.md",
      "tsdb/functions/peering_import_id.md",
      "tsdb/index.md",
      "tsdb/resources/connector_obj_store.md",
      "tsdb/resources/connector_src_db.md",
      "tsdb/resources/log_exporter.md",
      "tsdb/resources/metric_exporter.md",
      "tsdb/resources/peering_connection.md",
      "tsdb/resources/service.md",
      "tsdb/resources/vpcs.md",
    ]);
    expect([...schemas.keys()].map(pathOf).sort()).toEqual([...pages.keys()].filter((p) => !p.includes("/functions/")));
  });

  test("each index page links every page of its provider, and every link resolves", () => {
    for (const provider of ["tsdb", "containerbackup"]) {
      const links = [...page(`${provider}/index.md`).matchAll(/\]\(([^)#]+\.md)\)/g)].map((m) => `${provider}/${m[1]}`).sort();
      expect(links).toEqual([...pages.keys()].filter((p) => p.startsWith(`${provider}/`) && !p.endsWith("index.md")));
    }
  });
});

describe.each([...schemas.keys()].map((key) => ({ key })))("$key", ({ key }) => {
  const schema = schemas.get(key)!;
  const ext = schema["x-terraform"];
  const text = page(pathOf(key));

  test("description, examples in native HCL, HCL-JSON and TypeScript, and the references", () => {
    expect(text).toContain(`\n${schema.description}\n`);
    expect(text).toMatch(/\n```terraform\n[\s\S]+?\n```\n/);
    expect(text).toMatch(/\n```json\n[\s\S]+?\n```\n/);
    // CDKTF 0.21 has no ephemeral resources: their pages say so instead of showing a stack.
    if (ext.kind === "ephemeral") expect(text).toContain("CDKTF 0.21 has no ephemeral resources");
    else expect(text).toMatch(/\n```ts\n[\s\S]+?\n```\n/);
    expect(section(text, "Argument reference")).not.toBe("");
    if (ext.kind !== "provider") expect(section(text, "Attribute reference")).not.toBe("");
    if (ext.kind === "provider") expect(section(text, "Example usage")).toContain(`terraform {\n  required_providers {\n    ${ext.type} = { source = "schemaform/${ext.type}" }\n  }\n}`);
  });

  test("timeouts, each with its default", () => {
    const timeouts = section(text, "Timeouts");
    if (!ext.timeouts) return expect(timeouts).toBe("");
    for (const [operation, duration] of Object.entries<string>(ext.timeouts)) expect(timeouts).toContain(`- \`${operation}\` (default \`${duration}\`)`);
  });

  test("the arguments documented as required are exactly the ones Terraform requires", () => {
    const provider = key.startsWith("provider.") ? ext.type : ext.type.split("_")[0];
    const tf = terraformSchemas[provider];
    const types = ext.kind === "data" ? tf.data_source_schemas : ext.kind === "ephemeral" ? tf.ephemeral_resource_schemas : tf.resource_schemas;
    const block = ext.kind === "provider" ? tf.provider.block : types[ext.type].block;
    const required = Object.entries<Record<string, unknown>>(block.attributes ?? {}).filter(([, a]) => a.required).map(([name]) => name);
    expect(documentedRequired(text)).toEqual(required.sort());
  });

  test.runIf(ext.kind === "resource")("import: every identifier format, each with an import block and a terraform import command", () => {
    const importing = section(text, "Import");
    const name = /\nimport \{\n {2}to = ([a-z0-9_]+\.[a-z0-9_]+)\n/.exec(importing)?.[1];
    expect(name).toMatch(new RegExp(`^${ext.type}\\.`));
    const formats: string[] = ext.importFormats.map((f: string | { format: string }) => (typeof f === "string" ? f : f.format));
    const examples = formats.map((format) => {
      const line = importing.split("\n").find((l) => l.startsWith(`- \`${format}\`, e.g. `));
      expect(line, format).toBeDefined();
      return /e\.g\. `([^`]+)`$/.exec(line!)![1]!;
    });
    for (const id of examples) {
      expect(importing).toContain(`\`\`\`terraform\nimport {\n  to = ${name}\n  id = ${JSON.stringify(id)}\n}\n\`\`\``);
      expect(importing).toContain(`terraform import ${name} '${id}'`);
    }
    expect(importing).toContain(`schemaform import ${ext.type} '${examples[0]}'`);
    expect(importing).toContain("generateConfigForImport");
  });
});

describe("import advice where a secret cannot be read back", () => {
  test("resources with a required secret send users to schemaform import", () => {
    for (const [path, secret] of [
      ["tsdb/resources/connector_src_db.md", "`connection_string`"],
      ["tsdb/resources/metric_exporter.md", "`saasmon.api_key` (when `saasmon` is set)"],
    ] as const) {
      const importing = section(page(path), "Import");
      expect(importing).toContain(secret);
      expect(importing).toMatch(/fails plan until you add/);
      expect(importing).toContain("Prefer `schemaform import` for this resource.");
    }
    expect(section(page("tsdb/resources/vpcs.md"), "Import")).not.toContain("Prefer `schemaform import`");
  });

  test("the import section says that the first apply after an import sets the secrets (user finding: a one-time password diff of a metric exporter)", () => {
    const importing = section(page("tsdb/resources/metric_exporter.md"), "Import");
    expect(importing).toContain("### The first apply after an import");
    expect(importing).toMatch(/state has no [^\n]*`pullmon\.password`[^\n]*the first apply sends the configured values to the platform/);
    // a write-only value is never in state: no difference to explain
    expect(section(page("tsdb/resources/service.md"), "Import")).not.toMatch(/state has no [^\n]*password_wo/);
    expect(section(page("tsdb/resources/vpcs.md"), "Import")).not.toContain("The first apply after an import");
  });
});

describe("editor schema association", () => {
  const association = [
    "```json",
    "{",
    '  "json.schemas": [',
    "    {",
    '      "fileMatch": ["*.tf.json"],',
    '      "url": "./node_modules/schemaform/generated/editor/tf.json.schema.json"',
    "    }",
    "  ]",
    "}",
    "```",
  ].join("\n");

  test("both index pages show the VS Code association by file name, to the schema the package ships", () => {
    for (const provider of ["tsdb", "containerbackup"]) expect(page(`${provider}/index.md`)).toContain(association);
    expect(statSync(join(root, "generated", "editor", "tf.json.schema.json")).isFile()).toBe(true);
  });

  test('no page tells users to put "$schema" in a file, and no example has one', () => {
    for (const [path, text] of pages) {
      expect(text, path).not.toMatch(/"\$schema"\s*:/);
      expect(text, path).not.toMatch(/sets? `?"\$schema"/i);
    }
  });
});

describe("log exporter cloudmon", () => {
  const minimal = { region: "us-east-1" };
  const cloudmon = { region: "us-east-1", log_group_name: "/g", log_stream_name: "s", role_arn: "arn:aws:iam::123456789012:role/w" };

  test("the validators reject a log exporter without cloudmon, and accept one with it", async () => {
    await loadType("resource.tsdb_log_exporter");
    expect(validateBody("resource.tsdb_log_exporter", minimal).map((i) => i.message)).toEqual(["cloudmon is required"]);
    expect(validateBody("resource.tsdb_log_exporter", { ...minimal, cloudmon })).toEqual([]);
  });

  test("so the page lists it as required, and Terraform's schema requires it", () => {
    expect(documentedRequired(page("tsdb/resources/log_exporter.md"))).toContain("cloudmon");
    expect(terraformSchemas.tsdb.resource_schemas.tsdb_log_exporter.block.attributes.cloudmon.required).toBe(true);
  });
});

describe("nothing users see says where facts came from", () => {
  const PROVENANCE = /reference provider|from the reference|\bseeds?\b/i;
  const shipped = [...files(join(root, "generated")), ...files(join(root, "schemas"))];

  test.each(shipped.map((f) => [relative(root, f)]))("%s", (file) => {
    const text = readFileSync(join(root, file), "utf8");
    expect(text.split("\n").filter((line) => PROVENANCE.test(line))).toEqual([]);
  });
});
