// The platform commands' flags: an explicit flag wins over the environment (a user finding: with
// SCHEMAFORM_DATABASE_URL exported, `platform export --data-dir …` refused "not both" and printed
// the whole help), and a usage error prints the one usage line of its sub-command.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCredentials, runPlatformCli } from "./run-cli.js";
import { tempDir } from "./helpers.js";

describe("platform commands: flags and the environment", () => {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.SCHEMAFORM_DATABASE_URL;
    // a database that cannot be reached: any use of it would fail the command
    process.env.SCHEMAFORM_DATABASE_URL = "postgres://nobody@127.0.0.1:1/unreachable";
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.SCHEMAFORM_DATABASE_URL;
    else process.env.SCHEMAFORM_DATABASE_URL = saved;
  });

  it("--data-dir wins over SCHEMAFORM_DATABASE_URL for export, migrate and credentials", async () => {
    const dataDir = tempDir();
    await createCredentials(dataDir);
    const exported = await runPlatformCli(["export", "--data-dir", dataDir]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('"format":"schemaform-platform-export"');
    const migrated = await runPlatformCli(["migrate", "--data-dir", dataDir]);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain(`data directory ${dataDir} is up to date`);
    const listed = await runPlatformCli(["credentials", "list", "--data-dir", dataDir]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain("access key");
  });

  it("a usage error prints the one usage line of its sub-command, not the whole help", async () => {
    const both = await runPlatformCli(["export", "--data-dir", tempDir(), "--database", "postgres://x@127.0.0.1:1/db"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("give --data-dir (SQLite) or --database (PostgreSQL), not both");
    expect(both.stderr).toContain("usage: schemaform platform export [STORAGE] [--out FILE|-]");
    expect(both.stderr).not.toContain("schemaform platform serve");
    expect(both.stderr.trim().split("\n").length).toBeLessThanOrEqual(4);
    const unknown = await runPlatformCli(["migrate", "--bogus"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("usage: schemaform platform migrate [STORAGE]");
    expect(unknown.stderr.trim().split("\n").length).toBeLessThanOrEqual(4);
  });
});

describe("platform credentials: descriptions", () => {
  it("refuses a description with control or bidirectional override characters", async () => {
    const dataDir = tempDir();
    for (const description of ["bell\u0007", "two\nlines", "rtl\u202eoverride"]) {
      const created = await runPlatformCli(["credentials", "create", "--all-projects", "--description", description, "--data-dir", dataDir]);
      expect(created.code).toBe(2);
      expect(created.stderr).toContain("--description must not contain control characters");
    }
    expect((await runPlatformCli(["credentials", "list", "--data-dir", dataDir])).stdout).toBe("no credentials\n");
  });
});
