// Every ```terraform example of every reference page (generated/docs/) is a configuration real
// Terraform accepts with our providers, installed offline into a filesystem mirror: `terraform
// init` + `terraform validate` pass, and `terraform fmt` would not change a character. A page's
// first example is a whole configuration; each later one (an `import` block) is checked next to
// it, as the page tells users to put it. One directory per example, checked two at a time.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ROOT, Suite, type Workspace } from "./support/harness.js";

const DOCS = join(ROOT, "generated", "docs");

function pages(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((entry) => {
      const path = join(dir, entry);
      return statSync(path).isDirectory() ? pages(path) : path.endsWith(".md") ? [path] : [];
    })
    .sort();
}

function terraformBlocks(page: string): string[] {
  return [...readFileSync(page, "utf8").matchAll(/^```terraform\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

interface Example {
  /** "tsdb/resources/service.md #2" */
  label: string;
  files: Record<string, string>;
}

const examples: Example[] = pages(DOCS).flatMap((page) => {
  const [main, ...imports] = terraformBlocks(page);
  const name = relative(DOCS, page);
  if (main === undefined) return [{ label: `${name} (no terraform example)`, files: {} }];
  return [
    { label: `${name} #1`, files: { "main.tf": main } },
    ...imports.map((snippet, i) => ({ label: `${name} #${i + 2}`, files: { "main.tf": main, "import.tf": snippet } })),
  ];
});

let suite: Suite;
const results = new Map<string, { init: string; validate: string; fmt: string; codes: [number, number, number] }>();

/** init, validate and fmt -check in a fresh directory holding `files`. */
async function check(ws: Workspace, files: Record<string, string>) {
  for (const [file, text] of Object.entries(files)) ws.write(file, text);
  const init = await ws.tf(["init", "-input=false", "-backend=false"]);
  const validate = init.code === 0 ? await ws.tf(["validate"]) : { code: -1, output: "(not run: init failed)" };
  const fmt = await ws.tf(["fmt", "-check", "-diff", "-no-color"]);
  return { init: init.output, validate: validate.output, fmt: fmt.output, codes: [init.code, validate.code, fmt.code] as [number, number, number] };
}

beforeAll(async () => {
  suite = await Suite.create("docs");
  const queue = examples.map((example, i) => ({ example, dir: `example-${i}` }));
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      results.set(next.example.label, await check(suite.workspace(next.dir), next.example.files));
    }
  };
  await Promise.all([worker(), worker()]);
});

afterAll(async () => {
  if (suite) {
    process.stdout.write(`reference page examples: ${suite.summary()}\n`);
    await suite.dispose();
  }
});

describe("reference page examples in native HCL", () => {
  test("every page has one, every resource page one import block per import format, every function page its calls", () => {
    const counts = Object.fromEntries(pages(DOCS).map((page) => [relative(DOCS, page), terraformBlocks(page).length]));
    expect(counts).toEqual({
      "containerbackup/functions/location_from_id.md": 2,
      "containerbackup/functions/name_from_id.md": 2,
      "containerbackup/functions/project_from_id.md": 2,
      "containerbackup/index.md": 1,
      "containerbackup/resources/restore_channel.md": 4,
      "tsdb/data-sources/products.md": 1,
      "tsdb/data-sources/service.md": 1,
      "tsdb/data-sources/vpcs.md": 1,
      "tsdb/ephemeral-resources/service_credentials.md": 1,
      "tsdb/functions/connection_uri.md": 2,
      "tsdb/functions/parse_peering_import_id.md": 2,
      "tsdb/functions/peering_import_id.md": 2,
      "tsdb/index.md": 1,
      "tsdb/resources/connector_obj_store.md": 3,
      "tsdb/resources/connector_src_db.md": 3,
      "tsdb/resources/log_exporter.md": 2,
      "tsdb/resources/metric_exporter.md": 2,
      "tsdb/resources/peering_connection.md": 3,
      "tsdb/resources/service.md": 2,
      "tsdb/resources/vpcs.md": 3,
    });
  });

  test.each(examples.map((e) => [e.label]))("%s: terraform init, validate and fmt -check pass", (label) => {
    const result = results.get(label)!;
    expect(result, "not checked").toBeDefined();
    expect(result.codes[0], result.init).toBe(0);
    expect(result.codes[1], result.validate).toBe(0);
    expect(result.validate).toMatch(/The configuration is valid/);
    expect(result.codes[2], `terraform fmt would change it:\n${result.fmt}`).toBe(0);
  });

  test("the check is not vacuous: a misspelt argument in a page's example fails validate", async () => {
    const main = terraformBlocks(join(DOCS, "tsdb", "resources", "vpcs.md"))[0]!;
    expect(main).toMatch(/^  cidr +=/m);
    const ws = suite.workspace("misspelt");
    const result = await check(ws, { "main.tf": main.replace(/^  cidr( +)=/m, "  cdir$1=") });
    expect(result.codes[1]).toBe(1);
    expect(result.validate).toMatch(/Unsupported argument/);
    expect(result.validate).toMatch(/"cdir"/);
  });
});

