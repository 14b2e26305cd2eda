// The editor JSON Schema for *.tf.json (generated/editor/tf.json.schema.json), checked with Ajv
// the way an editor applies it: associated by file name, to files without a "$schema" key.
// Every hand-written example, the synthesized example app and every reference page's HCL-JSON
// example are valid; mistakes in our blocks are errors at the right place; templates, string
// numbers, array forms, comments, meta-arguments and other providers' blocks are accepted; a
// "$schema" key, which Terraform rejects, is an error.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Ajv } from "ajv";
import { App } from "cdktf";
import { describe, expect, test } from "vitest";
import { PlatformStack } from "../../examples/stack/stack.js";

const root = process.cwd();
const schema = JSON.parse(readFileSync(join(root, "generated", "editor", "tf.json.schema.json"), "utf8"));
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
// Editor-only annotations (VS Code): not validation keywords.
for (const keyword of ["deprecationMessage", "patternErrorMessage", "errorMessage", "doNotSuggest"]) ajv.addKeyword(keyword);
const validate = ajv.compile(schema);

function errors(document: unknown): string[] {
  if (validate(document)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}${e.params && "additionalProperty" in e.params ? ` ${e.params.additionalProperty}` : ""}`);
}

function files(dir: string, suffix: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      const p = join(d, entry);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith(suffix)) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

describe("valid configurations", () => {
  const handWritten = files(join(root, "examples"), ".tf.json");
  test.each(handWritten.map((f) => [relative(root, f), f]))("%s", (_name, file) => {
    expect(errors(JSON.parse(readFileSync(file, "utf8")))).toEqual([]);
  });

  test("the synthesized example app", () => {
    const outdir = mkdtempSync(join(tmpdir(), "schemaform-editor-"));
    try {
      const app = new App({ outdir, stackTraces: false });
      new PlatformStack(app, "example");
      app.synth();
      expect(errors(JSON.parse(readFileSync(join(outdir, "stacks", "example", "cdk.tf.json"), "utf8")))).toEqual([]);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });

  const pages = files(join(root, "generated", "docs"), ".md");
  test.each(pages.map((f) => [relative(root, f), f]))("the HCL-JSON example of %s", (_name, page) => {
    // Index pages also show editor settings in a json block: those are not configurations.
    const blocks = [...readFileSync(page, "utf8").matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1]!)).filter((b) => !("json.schemas" in b));
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(errors(block)).toEqual([]);
  });

  test("HCL-JSON forms: templates anywhere, string numbers and bools, arrays at every level, comments, meta-arguments", () => {
    const document = [
      {
        "//": "a comment",
        resource: [
          {
            tsdb_service: [
              {
                db: {
                  "//": { note: "anything" },
                  count: "${var.n}",
                  depends_on: ["tsdb_vpcs.main"],
                  provider: "tsdb.eu",
                  lifecycle: { prevent_destroy: "true", ignore_changes: ["name"] },
                  milli_cpu: "1000",
                  memory_gb: "${var.memory}",
                  paused: "false",
                  ha_replicas: 2,
                  environment_tag: "${var.tag}",
                  timeouts: [{ create: "${var.timeout}" }],
                },
              },
            ],
          },
        ],
        data: { tsdb_vpcs: { all: [{}, { count: 0 }] } },
        provider: { tsdb: [{ project_id: "p" }, { alias: "eu", project_id: "${var.project}" }] },
      },
      { resource: { tsdb_vpcs: { main: { cidr: "${var.cidr}", region_code: "us-east-1", for_each: "${toset(var.names)}", name: "${each.key}" } } } },
    ];
    expect(errors(document)).toEqual([]);
  });

  test("other providers' blocks and other top-level keys are left alone", () => {
    expect(
      errors({
        terraform: { required_providers: { aws: { source: "hashicorp/aws" } } },
        resource: { aws_instance: { web: { ami: 1, whatever: { nested: true } } } },
        data: { aws_ami: { x: {} } },
        provider: { aws: { region: "us-east-1" } },
        locals: { a: 1 },
        variable: { x: {} },
        output: { y: { value: "${var.x}" } },
        module: { m: { source: "./m" } },
        import: [{ to: "tsdb_service.db", id: "abc" }],
        moved: [{ from: "a.b", to: "a.c" }],
        check: {},
        ephemeral: {},
      }),
    ).toEqual([]);
  });
});

describe("associated by file name, as the docs say", () => {
  const tfJson = files(join(root, "examples", "tf-json"), ".tf.json");

  test("the hand-written examples carry no \"$schema\" key and are accepted as they are", () => {
    expect(tfJson.length).toBeGreaterThan(0);
    for (const file of tfJson) {
      const document = JSON.parse(readFileSync(file, "utf8"));
      expect(Object.keys(document)).not.toContain("$schema");
      expect(errors(document), relative(root, file)).toEqual([]);
    }
  });

  test("a misspelt attribute in a hand-written example is rejected, at its place", () => {
    const document = JSON.parse(readFileSync(join(root, "examples", "tf-json", "platform", "main.tf.json"), "utf8"));
    const [name, body] = Object.entries<Record<string, unknown>>(document.resource.tsdb_service)[0]!;
    const { milli_cpu: value, ...rest } = body;
    expect(value).toBeDefined();
    document.resource.tsdb_service[name] = { ...rest, mili_cpu: value };
    expect(errors(document)).toContain(`/resource/tsdb_service/${name} additionalProperties mili_cpu`);
  });

  test("a \"$schema\" key is an error, as it is for Terraform, with a message that says what to do instead", () => {
    const file = { resource: { tsdb_vpcs: { main: { name: "main", cidr: "10.0.0.0/16", region_code: "us-east-1" } } } };
    expect(errors(file)).toEqual([]);
    expect(errors({ $schema: "./tf.json.schema.json", ...file })).toContain("/$schema not");
    expect(schema.definitions.file.properties.$schema.errorMessage).toMatch(/"json\.schemas" with "fileMatch": \["\*\.tf\.json"\]/);
    expect(schema.description).toMatch(/not with a "\$schema" key, which Terraform rejects/);
  });
});

describe("mistakes in our blocks", () => {
  const body = (b: Record<string, unknown>) => ({ resource: { tsdb_service: { db: b } } });
  const at = "/resource/tsdb_service/db";

  test("an unknown attribute name", () => {
    expect(errors(body({ nmae: "x" }))).toContain(`${at} additionalProperties nmae`);
  });

  test("a computed-only attribute", () => {
    expect(errors(body({ hostname: "x" }))).toContain(`${at} additionalProperties hostname`);
  });

  test("a wrong type", () => {
    expect(errors(body({ ha_replicas: true }))).toContain(`${at}/ha_replicas anyOf`);
    expect(errors(body({ paused: "yes" }))).toContain(`${at}/paused anyOf`);
    expect(errors(body({ timeouts: "30m" }))).toContain(`${at}/timeouts anyOf`);
  });

  test("an enum, a pattern and a range", () => {
    expect(errors(body({ environment_tag: "QA" }))).toContain(`${at}/environment_tag enum`);
    expect(errors(body({ timeouts: { create: "soon" } }))).toContain(`${at}/timeouts/create pattern`);
    expect(errors(body({ ha_replicas: 3 }))).toContain(`${at}/ha_replicas maximum`);
  });

  test("a missing required attribute, in a resource and in a nested object", () => {
    expect(errors({ resource: { tsdb_vpcs: { main: { cidr: "10.0.0.0/16" } } } })).toContain("/resource/tsdb_vpcs/main required");
    expect(
      errors({ resource: { tsdb_connector_src_db: { c: { service_id: "s", display_name: "d", connection_string: "postgres://x", ssh_tunnel: { host: "h" } } } } }),
    ).toContain("/resource/tsdb_connector_src_db/c/ssh_tunnel required");
  });

  test("a provider argument and a data source argument", () => {
    expect(errors({ provider: { tsdb: { project: "x" } } })).toContain("/provider/tsdb additionalProperties project");
    expect(errors({ data: { tsdb_service: { s: { id: "x", region_code: "us-east-1" } } } })).toContain("/data/tsdb_service/s additionalProperties region_code");
  });
});
