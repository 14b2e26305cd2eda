// Shared helpers for the construct suites: stacks with both providers, synthesized with
// `app.synth()` (validation on) into a temporary folder.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, TerraformStack } from "cdktf";
import { ContainerbackupProvider } from "schemaform/containerbackup";
import { TsdbProvider } from "schemaform/tsdb";

const outdirs: string[] = [];

/** Removes the temporary output folders made so far (call from `afterAll`). */
export function cleanOutdirs(): void {
  for (const dir of outdirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface Built {
  app: App;
  stack: TerraformStack;
}

/** A stack named "stack" in a fresh app; both providers unless `providers: false`. */
export function newStack(options: { providers?: boolean; skipValidation?: boolean } = {}): Built {
  const outdir = mkdtempSync(join(tmpdir(), "schemaform-constructs-"));
  outdirs.push(outdir);
  const app = new App({ outdir, skipValidation: options.skipValidation ?? false, stackTraces: false });
  const stack = new TerraformStack(app, "stack");
  if (options.providers !== false) {
    new TsdbProvider(stack, "tsdb", { projectId: "demo-project" });
    new ContainerbackupProvider(stack, "containerbackup", { project: "demo-project" });
  }
  return { app, stack };
}

/** Builds a stack and runs `app.synth()`: the validation errors (one per line), or [] when it synthesizes. */
export function synthErrors(build: (stack: TerraformStack) => void, options: { providers?: boolean } = {}): string[] {
  const { app, stack } = newStack(options);
  build(stack);
  try {
    app.synth();
    return [];
  } catch (error) {
    const message = (error as Error).message;
    if (!message.startsWith("Validation failed with the following errors:")) throw error;
    return message
      .split("\n")
      .slice(1)
      .map((line) => line.trim())
      .filter((line) => line.startsWith("["));
  }
}

/** Synthesizes and returns the stack's cdk.tf.json (parsed) and the manifest's annotations. */
export function synthesize(build: (stack: TerraformStack) => void): { json: any; annotations: { constructPath: string; level: string; message: string }[] } {
  const { app, stack } = newStack();
  build(stack);
  app.synth();
  const json = JSON.parse(readFileSync(join(app.outdir, "stacks", "stack", "cdk.tf.json"), "utf8"));
  const manifest = JSON.parse(readFileSync(join(app.outdir, "manifest.json"), "utf8"));
  return { json, annotations: manifest.stacks.stack.annotations };
}
