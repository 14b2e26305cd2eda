// The package as users meet it: the packed tarball installed into fresh apps — the project
// `cdktf init --template=typescript` creates (CommonJS, ts-node, ts-jest), an ESM/NodeNext app, a
// CDK Terrain (cdktn) app without cdktf, and an app on cdktf 0.20 — then synthesized, tested,
// validated and applied through the providers the installed package puts in a mirror.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, ROOT, requireTerraform, runProcess } from "../e2e/support/harness.js";
import { appEnv, cdktfTemplateApp, npmInstall, packTarball, run, TEMPLATE_DEV_DEPENDENCIES } from "./support/apps.js";

const STACK = `import { Construct } from "constructs";
import { TerraformOutput, TerraformStack } from "cdktf";
import { ContainerbackupProvider, RestoreChannel } from "schemaform/containerbackup";
import { DataTsdbProducts, Service, TsdbProvider, Vpcs } from "schemaform/tsdb";

export class PlatformStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new TsdbProvider(this, "tsdb", { projectId: "demo-project" });
    new ContainerbackupProvider(this, "containerbackup", { project: "demo-project" });
    const vpc = new Vpcs(this, "main", { cidr: "10.10.0.0/16", regionCode: "us-east-1" });
    const db = new Service(this, "db", { milliCpu: 1000, memoryGb: 4, vpcId: vpc.vpcsId });
    new RestoreChannel(this, "restores", { name: "restores", location: "us-central1", destinationProject: "projects/restore-target" });
    const products = new DataTsdbProducts(this, "products");
    new TerraformOutput(this, "db_id", { value: db.id });
    new TerraformOutput(this, "product_list", { value: products.products });
  }
}
`;

const JEST_TEST = `import "cdktf/lib/testing/adapters/jest";
import { TerraformStack, Testing } from "cdktf";
import { RestoreChannel } from "schemaform/containerbackup";
import { DataTsdbProducts, Service, TsdbProvider } from "schemaform/tsdb";
import { PlatformStack } from "../stack";

describe("the platform stack", () => {
  it("has the service, the restore channel and the product lookup", () => {
    const synthesized = Testing.synth(new PlatformStack(Testing.app(), "test"));
    expect(synthesized).toHaveResourceWithProperties(Service, { milli_cpu: 1000, memory_gb: 4 });
    expect(synthesized).toHaveResource(RestoreChannel);
    expect(synthesized).toHaveDataSource(DataTsdbProducts);
  });

  it("fails synth when a rule is broken", () => {
    const stack = new TerraformStack(Testing.app(), "broken");
    new TsdbProvider(stack, "tsdb", { projectId: "demo-project" });
    new Service(stack, "db", { haReplicas: 1, syncReplicas: 1 });
    expect(() => Testing.fullSynth(stack)).toThrow(/sync_replicas.*requires ha_replicas/);
  });
});
`;

let root: string;
let tarball: string;

/** The `cdktf init --template=typescript` project with the tarball, installed with --ignore-scripts. */
async function cdktfApp(): Promise<string> {
  const app = join(root, "cdktf-app");
  cdktfTemplateApp(app, "cdktf-app");
  writeFileSync(join(app, "stack.ts"), STACK);
  writeFileSync(
    join(app, "main.ts"),
    `import { App } from "cdktf";\nimport { PlatformStack } from "./stack";\n\nconst app = new App();\nnew PlatformStack(app, "cdktf-app");\napp.synth();\n`,
  );
  writeFileSync(join(app, "__tests__", "main-test.ts"), JEST_TEST);
  // Nothing the constructs or `schemaform validate` need may depend on a native build.
  await npmInstall(app, ["--ignore-scripts", "cdktf@^0.21.0", "constructs@10", tarball]);
  await npmInstall(app, ["--ignore-scripts", "-D", ...TEMPLATE_DEV_DEPENDENCIES]);
  return app;
}

/** An ESM (NodeNext) app on the lowest constructs the peer range admits. */
async function esmApp(): Promise<string> {
  const app = join(root, "esm-app");
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "esm-app", version: "1.0.0", private: true, type: "module" }, null, 2));
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", strict: true, outDir: "out", skipLibCheck: false, types: ["node"] } }, null, 2),
  );
  writeFileSync(
    join(app, "main.ts"),
    [
      'import { createRequire } from "node:module";',
      'import { App, TerraformStack } from "cdktf";',
      'import { RestoreChannel } from "schemaform/containerbackup";',
      'import { Service, TsdbProvider, Vpcs } from "schemaform/tsdb";',
      "",
      "// import and require give the same classes: one copy of the package at run time.",
      'const required = createRequire(import.meta.url)("schemaform/tsdb") as typeof import("schemaform/tsdb");',
      'if (required.Service !== Service) throw new Error("two copies of Service");',
      "const app = new App();",
      'const stack = new TerraformStack(app, "esm-app");',
      'new TsdbProvider(stack, "tsdb", { projectId: "demo-project" });',
      'const vpc = new Vpcs(stack, "main", { cidr: "10.10.0.0/16", regionCode: "us-east-1" });',
      'new Service(stack, "db", { milliCpu: 1000, memoryGb: 4, vpcId: vpc.vpcsId });',
      'if (typeof RestoreChannel.tfResourceType !== "string") throw new Error("no RestoreChannel");',
      "app.synth();",
      "",
    ].join("\n"),
  );
  // Without install scripts (better-sqlite3 would compile for a minute; constructs never need it).
  await npmInstall(app, ["--ignore-scripts", "cdktf@^0.21.0", "constructs@10.4.2", tarball, "typescript@5", "@types/node@20"]);
  return app;
}

/** A CDK Terrain app: cdktn, the constructs it requires, no cdktf. */
async function cdktnApp(): Promise<string> {
  const app = join(root, "cdktn-app");
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "cdktn-app", version: "1.0.0", private: true }, null, 2));
  writeFileSync(join(app, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "CommonJS", target: "ES2018", strict: true, skipLibCheck: false, types: ["node"] } }, null, 2));
  const body = (broken: boolean) =>
    [
      'import { App, TerraformStack } from "cdktn";',
      'import { ContainerbackupProvider, RestoreChannel } from "schemaform/cdktn/containerbackup";',
      'import { DataTsdbVpcs, Service, TsdbProvider, Vpcs } from "schemaform/cdktn/tsdb";',
      "",
      "const app = new App();",
      'const stack = new TerraformStack(app, "cdktn-app");',
      'new TsdbProvider(stack, "tsdb", { projectId: "demo-project" });',
      'new ContainerbackupProvider(stack, "containerbackup", { project: "demo-project" });',
      'const vpc = new Vpcs(stack, "main", { cidr: "10.10.0.0/16", regionCode: "us-east-1" });',
      `new Service(stack, "db", { milliCpu: 1000, memoryGb: 4, vpcId: vpc.vpcsId${broken ? ", haReplicas: 1, syncReplicas: 1" : ""} });`,
      'new RestoreChannel(stack, "restores", { name: "restores", location: "us-central1", destinationProject: "projects/restore-target" });',
      'new DataTsdbVpcs(stack, "all");',
      "app.synth();",
      "",
    ].join("\n");
  writeFileSync(join(app, "main.ts"), body(false));
  writeFileSync(join(app, "broken.ts"), body(true));
  await npmInstall(app, ["--ignore-scripts", "cdktn@^0.24.0", "constructs@>=10.6.0 <10.8.0", tarball, "typescript@5", "@types/node@20"]);
  return app;
}

let apps: { cdktf: Promise<string>; esm: Promise<string>; cdktn: Promise<string> };

beforeAll(async () => {
  requireTerraform();
  root = mkdtempSync(join(tmpdir(), "schemaform-apps-"));
  tarball = await packTarball(root);
  // The apps install side by side (npm's cache is safe to share); each suite waits for its own.
  apps = { cdktf: cdktfApp(), esm: esmApp(), cdktn: cdktnApp() };
  for (const app of Object.values(apps)) app.catch(() => {}); // reported by the suite that awaits it
});

afterAll(() => {
  if (root && !process.env.SCHEMAFORM_E2E_KEEP) rmSync(root, { recursive: true, force: true });
});

/** The h1: hashes `schemaform provider install` printed, per provider address (the first one after each address). */
function printedHashes(output: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  let address: string | undefined;
  for (const line of output.split("\n")) {
    address = /(registry\.terraform\.io\/schemaform\/\w+)/.exec(line)?.[1] ?? address;
    const hash = /h1:[A-Za-z0-9+/=]+/.exec(line)?.[0];
    if (address && hash && !hashes[address]) hashes[address] = hash;
  }
  return hashes;
}

describe("the tarball", () => {
  it("holds the 20 reference pages in the Registry layout, the editor schema, the examples and the license", () => {
    const files = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" }).split("\n");
    const pages = files.filter((f) => /^package\/docs\/(tsdb|containerbackup)\/(index\.md|(resources|data-sources|ephemeral-resources|functions)\/\w+\.md)$/.test(f));
    // The pages' names and layout are checked in test/generator/docs.test.ts: here, that the
    // package ships every one of them at the root's docs/.
    const generated = (readdirSync(join(ROOT, "generated", "docs"), { recursive: true }) as string[]).filter((f) => f.endsWith(".md"));
    expect(generated).toHaveLength(20);
    expect(pages.sort()).toEqual(generated.map((page) => `package/docs/${page.replaceAll("\\", "/")}`).sort());
    expect(files).toContain("package/generated/editor/tf.json.schema.json");
    expect(files).toContain("package/examples/stack/stack.ts");
    expect(files).toContain("package/examples/terraform-test/tests/mocked.tftest.hcl");
    expect(files).toContain("package/LICENSE");
  });

  it("declares cdktf, cdktn and constructs as peer dependencies, not dependencies", () => {
    const manifest = JSON.parse(execFileSync("tar", ["xzf", tarball, "-O", "package/package.json"], { encoding: "utf8" })) as Record<string, Record<string, unknown>>;
    for (const name of ["cdktf", "cdktn", "constructs"]) {
      expect(manifest.dependencies?.[name]).toBeUndefined();
      expect(manifest.peerDependencies?.[name]).toBeDefined();
    }
    expect(manifest.repository).toBeDefined();
  });
});

describe("the project `cdktf init --template=typescript` creates (CommonJS), installed with --ignore-scripts", () => {
  let app: string;

  beforeAll(async () => {
    app = await apps.cdktf;
  });

  it("is the CommonJS project the template makes", () => {
    const tsconfig = JSON.parse(readFileSync(join(app, "tsconfig.json"), "utf8")) as { compilerOptions: { module: string } };
    expect(tsconfig.compilerOptions.module).toBe("CommonJS");
    expect(JSON.parse(readFileSync(join(app, "cdktf.json"), "utf8")).app).toBe("npx ts-node main.ts");
    expect(JSON.parse(readFileSync(join(app, "package.json"), "utf8")).type).toBeUndefined();
    // One cdktf: the package brought no copy of its own.
    expect(existsSync(join(app, "node_modules", "schemaform", "node_modules", "cdktf"))).toBe(false);
  });

  it("synthesizes with the app command (ts-node, type-checked)", async () => {
    await run("npx", ["ts-node", "main.ts"], app);
    const stack = JSON.parse(readFileSync(join(app, "cdktf.out", "stacks", "cdktf-app", "cdk.tf.json"), "utf8"));
    expect(Object.keys(stack.resource).sort()).toEqual(["containerbackup_restore_channel", "tsdb_service", "tsdb_vpcs"]);
    expect(stack.data.tsdb_products.products).toBeDefined();
    expect(stack.resource.tsdb_service.db.vpc_id).toBe("${tsdb_vpcs.main.vpcs_id}");
  });

  it("passes its jest tests (ts-jest, cdktf's matchers), including a rule that fails synth", async () => {
    const result = await run("npx", ["jest", "--ci"], app);
    expect(result.output).toMatch(/Tests:\s+2 passed, 2 total/);
  });

  it("rejects a type error at compile time", async () => {
    writeFileSync(join(app, "typo.ts"), `import { Service } from "schemaform/tsdb";\nexport const props: ConstructorParameters<typeof Service>[2] = { milliCpuu: 1000 };\n`);
    const result = await runProcess("npx", ["tsc", "--noEmit", "-p", "."], { cwd: app, env: appEnv() });
    rmSync(join(app, "typo.ts"));
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("milliCpuu");
  });

  it("validates hand-written HCL-JSON with `schemaform validate`", async () => {
    const good = join(app, "cdktf.out", "stacks", "cdktf-app", "cdk.tf.json");
    await run("npx", ["schemaform", "validate", good], app);
    const bad = join(app, "bad.tf.json");
    writeFileSync(bad, JSON.stringify({ resource: { tsdb_service: { db: { milli_cpu: 1000, memory_gb: 4, ha_replicas: 1, sync_replicas: 1 } } } }, null, 2));
    const result = await runProcess("npx", ["schemaform", "validate", bad], { cwd: app, env: appEnv() });
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/bad\.tf\.json:\d+:\d+.*sync_replicas/);
  });

  it("installs providers with the same h1: hashes as the repository build, and a lock file made with one inits with the other", async () => {
    const fromTarball = await run("npx", ["schemaform", "provider", "install", "--dir", join(app, "mirror")], app);
    const fromRepository = await run(process.execPath, [CLI, "provider", "install", "--dir", join(root, "repository-mirror")], ROOT);
    const hashes = printedHashes(fromTarball.output);
    expect(Object.keys(hashes).sort()).toEqual(["registry.terraform.io/schemaform/containerbackup", "registry.terraform.io/schemaform/tsdb"]);
    expect(printedHashes(fromRepository.output)).toEqual(hashes);

    const stackDir = join(app, "cdktf.out", "stacks", "cdktf-app");
    rmSync(join(stackDir, ".terraform.lock.hcl"), { force: true });
    await run("terraform", ["providers", "lock", `-fs-mirror=${join(app, "mirror")}`, "-platform=linux_amd64", "-platform=darwin_arm64", "schemaform/tsdb", "schemaform/containerbackup"], stackDir);
    const lock = readFileSync(join(stackDir, ".terraform.lock.hcl"), "utf8");
    for (const hash of Object.values(hashes)) expect(lock).toContain(hash);
    const init = await run("terraform", ["init", "-input=false", "-no-color"], stackDir, appEnv({ TF_CLI_CONFIG_FILE: join(root, "repository-mirror", "terraform.rc") }));
    expect(init.output).toContain("Terraform has been successfully initialized");
  });
});

describe("an ESM app (NodeNext)", () => {
  let app: string;

  beforeAll(async () => {
    app = await apps.esm;
  });

  it("type-checks, runs, and synthesizes with one set of classes", async () => {
    await run("npx", ["tsc", "-p", "."], app);
    await run(process.execPath, [join("out", "main.js")], app);
    const stack = JSON.parse(readFileSync(join(app, "cdktf.out", "stacks", "esm-app", "cdk.tf.json"), "utf8"));
    expect(stack.resource.tsdb_service.db).toMatchObject({ milli_cpu: 1000, memory_gb: 4, vpc_id: "${tsdb_vpcs.main.vpcs_id}" });
  });
});

describe("a CDK Terrain app (cdktn, no cdktf)", () => {
  let app: string;

  beforeAll(async () => {
    app = await apps.cdktn;
  });

  it("installs without pulling cdktf in", () => {
    expect(existsSync(join(app, "node_modules", "cdktf"))).toBe(false);
    expect(existsSync(join(app, "node_modules", "schemaform", "node_modules", "cdktf"))).toBe(false);
  });

  it("type-checks and synthesizes through schemaform/cdktn/*", async () => {
    await run("npx", ["tsc", "-p", "."], app);
    await run(process.execPath, ["main.js"], app);
    const stack = JSON.parse(readFileSync(join(app, "cdktf.out", "stacks", "cdktn-app", "cdk.tf.json"), "utf8"));
    expect(Object.keys(stack.resource).sort()).toEqual(["containerbackup_restore_channel", "tsdb_service", "tsdb_vpcs"]);
    expect(stack.data.tsdb_vpcs.all).toBeDefined();
  });

  it("fails synth on a broken rule", async () => {
    const result = await runProcess(process.execPath, ["broken.js"], { cwd: app, env: appEnv() });
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/\[cdktn-app\/db\] tsdb_service\.db: sync_replicas.*requires ha_replicas/);
  });
});

describe("an app on cdktf 0.20", () => {
  it("stops at install with npm's peer conflict instead of installing a second cdktf", async () => {
    const app = join(root, "cdktf-020-app");
    mkdirSync(app, { recursive: true });
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "cdktf-020-app", version: "1.0.0", private: true, dependencies: { cdktf: "0.20.12", constructs: "^10.3.0" } }, null, 2));
    const result = await runProcess("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", tarball], { cwd: app, env: appEnv() });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("ERESOLVE");
    expect(result.output).toMatch(/peerOptional cdktf@"\^0\.21\.0" from schemaform/);
    expect(existsSync(join(app, "node_modules", "schemaform"))).toBe(false);
  });
});
