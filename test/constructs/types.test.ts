// Type-level tests with the TypeScript compiler: fixtures/types-usage.ts (every `@ts-expect-error`
// is an error; nothing else is), the enum typing with its exact errors, and every CDKTF example
// of the reference pages type-checks.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { expect, test } from "vitest";

const root = process.cwd();

function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return { ...parsed.options, noEmit: true, noUnusedLocals: false };
}

/** Type-checks real files plus virtual ones (path → source); returns the diagnostics as text. */
function typeCheck(files: string[], virtual: Map<string, string> = new Map()): string[] {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError, create) => {
    const text = virtual.get(name);
    return text !== undefined ? ts.createSourceFile(name, text, language) : getSourceFile(name, language, onError, create);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => virtual.get(name) ?? readFile(name);
  const program = ts.createProgram({ rootNames: [...files, ...virtual.keys()], options, host });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${d.file.fileName.replace(`${root}/`, "")}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : "";
    return `${where}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

test("wrong prop types, missing and unknown props are compile errors; tokens are not", () => {
  expect(typeCheck([join(root, "test", "constructs", "fixtures", "types-usage.ts")])).toEqual([]);
}, 120_000);

test("an error is reported where it is expected (the checker is not vacuous)", () => {
  const file = join(root, "test", "constructs", "fixtures", "virtual-wrong.ts");
  const source = [
    'import { App, TerraformStack } from "cdktf";',
    'import { Service } from "schemaform/tsdb";',
    'new Service(new TerraformStack(new App(), "s"), "db", { haReplicas: "2" });',
  ].join("\n");
  const diagnostics = typeCheck([], new Map([[file, source]]));
  expect(diagnostics).toHaveLength(1);
  expect(diagnostics[0]).toMatch(/virtual-wrong\.ts:3: TS2322 Type 'string' is not assignable to type 'number'/);
}, 120_000);

test("an enum prop rejects a misspelt literal and takes another construct's getter or a cast token", () => {
  const file = join(root, "test", "constructs", "fixtures", "virtual-enum.ts");
  const source = [
    'import { App, TerraformStack, TerraformVariable, Token } from "cdktf";',
    'import { Service, type ServiceEnvironmentTag } from "schemaform/tsdb";',
    'const stack = new TerraformStack(new App(), "s");',
    'const v = new TerraformVariable(stack, "v", {});',
    'const a = new Service(stack, "a", { environmentTag: "PROD" });',
    'new Service(stack, "b", { environmentTag: "PRDO" });',
    'new Service(stack, "c", { environmentTag: a.environmentTag });',
    'new Service(stack, "d", { environmentTag: Token.asString(v.value) as ServiceEnvironmentTag });',
    'new Service(stack, "e", { environmentTag: v.stringValue });',
  ].join("\n");
  const diagnostics = typeCheck([], new Map([[file, source]]));
  expect(diagnostics).toEqual([
    `test/constructs/fixtures/virtual-enum.ts:6: TS2322 Type '"PRDO"' is not assignable to type 'ServiceEnvironmentTag | undefined'.`,
    "test/constructs/fixtures/virtual-enum.ts:9: TS2322 Type 'string' is not assignable to type 'ServiceEnvironmentTag | undefined'.",
  ]);
}, 120_000);

test("a VPC's or an exporter's region passes into a region prop of another construct without a cast", () => {
  const file = join(root, "test", "constructs", "fixtures", "virtual-region.ts");
  const source = [
    'import { App, TerraformStack } from "cdktf";',
    'import { MetricExporter, Service, Vpcs } from "schemaform/tsdb";',
    'const stack = new TerraformStack(new App(), "s");',
    'const vpc = new Vpcs(stack, "net", { cidr: "10.0.0.0/16", regionCode: "eu-west-1" });',
    'const metrics = new MetricExporter(stack, "m", { name: "m", region: vpc.regionCode, pullmon: { username: "u", password: "p4ssw0rd-long" } });',
    'new Service(stack, "db", { vpcId: vpc.vpcsId, regionCode: vpc.regionCode, metricExporterId: metrics.id });',
    'new Service(stack, "db2", { regionCode: metrics.region });',
    'new Vpcs(stack, "typo", { cidr: "10.1.0.0/16", regionCode: "us-east1" });',
    'new Vpcs(stack, "azure", { cidr: "10.2.0.0/16", regionCode: "az-eastus" });',
  ].join("\n");
  expect(typeCheck([], new Map([[file, source]]))).toEqual([
    `test/constructs/fixtures/virtual-region.ts:8: TS2820 Type '"us-east1"' is not assignable to type 'VpcsRegionCode'. Did you mean '"us-east-1"'?`,
    `test/constructs/fixtures/virtual-region.ts:9: TS2322 Type '"az-eastus"' is not assignable to type 'VpcsRegionCode'.`,
  ]);
}, 120_000);

test("every CDKTF example of the reference pages type-checks", () => {
  const pages: string[] = [];
  const walk = (d: string) => readdirSync(d).forEach((e) => (statSync(join(d, e)).isDirectory() ? walk(join(d, e)) : e.endsWith(".md") && pages.push(join(d, e))));
  walk(join(root, "generated", "docs"));
  const virtual = new Map<string, string>();
  for (const page of pages) {
    const snippets = [...readFileSync(page, "utf8").matchAll(/```ts\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
    // Functions and ephemeral resources have no CDKTF class (CDKTF 0.21 has no ephemeral resources).
    const unbound = /[\\/](functions|ephemeral-resources)[\\/]/.test(page);
    expect(snippets.length, page).toBe(unbound ? 0 : 1);
    if (unbound) continue;
    const name = page.slice(join(root, "generated", "docs").length + 1).replace(/[\\/]/g, "-").replace(/\.md$/, ".ts");
    virtual.set(join(dirname(join(root, "test", "constructs", "fixtures", "x")), `doc-${name}`), snippets[0]!);
  }
  expect(virtual.size).toBe(13);
  expect(typeCheck([], virtual)).toEqual([]);
}, 120_000);

test("the README's usage examples type-check", () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  // Snippets that run under a test runner (jest's `expect`) are checked by test/package/, in the
  // cdktf template app that has jest's types.
  const snippets = [...readme.matchAll(/```ts\n([\s\S]*?)\n```/g)].map((m) => m[1]!).filter((s) => !s.includes("expect("));
  expect(snippets.length).toBeGreaterThanOrEqual(2);
  const files = new Map(snippets.map((snippet, i) => [join(root, "test", "constructs", "fixtures", `virtual-readme-${i}.ts`), `${snippet}\nexport {};\n`]));
  expect(typeCheck([], files)).toEqual([]);
}, 120_000);
