// scripts/build.mjs decides from contents whether `npm run build` (and so `npm start` and
// `npm test`) may skip the build: a stale build must never be used, an unchanged tree must not
// be rebuilt. Checked on a small project tree of its own (the decision, not the compilers).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildNeeded, writeRecord } from "../../scripts/build.mjs";

let root: string;
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};

/** A tree as the build leaves it: sources, configuration, installed dependencies, outputs, and the record. */
function builtTree() {
  write("tsconfig.build.json", JSON.stringify({ include: ["src", "provider"] }));
  write("tsconfig.json", "{}");
  write("package.json", JSON.stringify({ name: "tree" }));
  write("package-lock.json", "{}");
  write("node_modules/.package-lock.json", JSON.stringify({ packages: { "node_modules/esbuild": { version: "0.28.2" } } }));
  write("src/index.ts", "export const answer = 42;\n");
  write("provider/protocol/tfplugin6.proto", 'syntax = "proto3";\n');
  write("scripts/build-cjs.mjs", "// a build step\n");
  write("dist/src/index.js", "export const answer = 42;\n");
  write("dist/provider/provider.cjs", "#!/bin/sh\n");
  writeRecord(root, buildNeeded(root).fingerprint);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "schemaform-build-"));
  builtTree();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("the build is skipped", () => {
  it("when nothing changed since the recorded build", () => {
    expect(buildNeeded(root).reason).toBeUndefined();
  });

  it("when a source was only touched (same contents, new time)", () => {
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, "src/index.ts"), later, later);
    expect(buildNeeded(root).reason).toBeUndefined();
  });

  it("when a build step's work directory (another build's, running at the same time) comes and goes", () => {
    write("dist/cjs.old-4242/index.js", "old tree being removed\n");
    writeRecord(root, buildNeeded(root).fingerprint);
    rmSync(join(root, "dist/cjs.old-4242"), { recursive: true });
    expect(buildNeeded(root).reason).toBeUndefined();
  });

  it("when files outside the build's inputs change (tests, benches, other scripts)", () => {
    write("test/new.test.ts", "// not compiled by the build\n");
    write("scripts/report.mjs", "// not a build step\n");
    expect(buildNeeded(root).reason).toBeUndefined();
  });
});

describe("the build runs", () => {
  it("without a record of a complete build", () => {
    rmSync(join(root, "node_modules/.cache"), { recursive: true });
    expect(buildNeeded(root).reason).toBe("no complete build recorded");
  });

  it.each([
    ["a source's contents change", () => write("src/index.ts", "export const answer = 43;\n")],
    ["a source is added", () => write("src/more.ts", "export {};\n")],
    ["a non-TypeScript input changes", () => write("provider/protocol/tfplugin6.proto", 'syntax = "proto3"; // 6.9\n')],
    ["a build step's script changes", () => write("scripts/build-cjs.mjs", "// another step\n")],
    ["the dependencies are reinstalled differently", () => write("node_modules/.package-lock.json", JSON.stringify({ packages: { "node_modules/esbuild": { version: "0.28.3" } } }))],
    ["the compiled directories change", () => write("tsconfig.build.json", JSON.stringify({ include: ["src"] }))],
  ])("when %s, incrementally", (_, change) => {
    change();
    expect(buildNeeded(root)).toMatchObject({ reason: "sources changed", outputsIntact: true });
  });

  it("in full when an output is missing, even with unchanged sources", () => {
    rmSync(join(root, "dist/provider/provider.cjs"));
    expect(buildNeeded(root)).toMatchObject({ reason: "dist/provider/provider.cjs is missing", outputsIntact: false });
  });

  it("in full when an output was written by something else since", () => {
    write("dist/src/index.js", "export const answer = 41;\n");
    expect(buildNeeded(root)).toMatchObject({ reason: "dist/src/index.js was rewritten since the last build", outputsIntact: false });
  });
});
