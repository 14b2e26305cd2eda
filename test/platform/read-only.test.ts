// A data directory the platform cannot write gets a message naming the directory, why, and what
// to set, instead of SQLite's "unable to open database file" or a mkdir's ENOENT. The directory
// is made read-only for real: a read-only bind mount when running as root (root ignores file
// modes), else file modes.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmbeddedPlatform } from "../../platform/embedded.js";

const root = mkdtempSync(join(tmpdir(), "schemaform-readonly-"));
const source = join(root, "data");
const readOnly = join(root, "read-only");
let how: "mount" | "modes" | null = null;

function makeReadOnly(): "mount" | "modes" | null {
  mkdirSync(readOnly);
  if (process.getuid?.() === 0) {
    const bind = spawnSync("mount", ["--bind", source, readOnly]);
    if (bind.status !== 0) return null;
    if (spawnSync("mount", ["-o", "remount,ro,bind", readOnly]).status === 0) return "mount";
    spawnSync("umount", [readOnly]);
    return null;
  }
  rmSync(readOnly, { recursive: true });
  chmodSync(source, 0o500);
  return "modes";
}

beforeAll(async () => {
  const platform = new EmbeddedPlatform({ dataDir: source });
  await platform.vpcs.list("p"); // creates the database
  platform.close();
  how = makeReadOnly();
});

afterAll(() => {
  if (how === "mount") spawnSync("umount", [readOnly]);
  if (how === "modes") chmodSync(source, 0o700);
  rmSync(root, { recursive: true, force: true });
});

describe("a data directory that cannot be written", () => {
  const dir = () => (how === "mount" ? readOnly : source);

  it("opening it names the directory and the reason", async (context) => {
    if (!how) context.skip(); // neither a bind mount (no privilege) nor file modes (root) can make it read-only here
    const platform = new EmbeddedPlatform({ dataDir: dir() });
    const error = (await platform.vpcs.list("p").catch((e: Error) => e)) as Error;
    platform.close();
    expect(error.message).toContain(`the platform's data directory ${dir()}`);
    expect(error.message).toMatch(how === "mount" ? /is on a read-only file system/ : /is not writable by this user/);
    expect(error.message).toMatch(/set SCHEMAFORM_DATA_DIR \(or --data-dir\) to a writable directory/);
  });

  it("a data directory to be created below it says the same, not ENOENT", async (context) => {
    if (!how) context.skip();
    const below = join(dir(), "new", "deeper");
    const platform = new EmbeddedPlatform({ dataDir: below });
    const error = (await platform.vpcs.list("p").catch((e: Error) => e)) as Error;
    platform.close();
    expect(error.message).not.toMatch(/ENOENT/);
    expect(error.message).toContain(`cannot open the platform's data directory ${below}: ${dir()} is`);
  });
});
