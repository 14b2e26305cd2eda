// Where the local driver keeps clusters when it runs as root: beside the data directory when the
// cluster user can reach it, else in a folder of its own under /var/lib/schemaform, and once
// there, always there (a data directory opened up later must not lose its running clusters).

import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT_CLUSTERS_BASE, ServiceLayout, checkServiceId, prepareClustersDir, removeEmptyClustersDir, resolveClustersDir } from "../../platform/dataplane/local/layout.js";
import { resolveRunUser } from "../../platform/dataplane/local/run-user.js";
import { tempDir } from "../platform/helpers.js";

const asRoot = process.getuid?.() === 0;

describe("local driver layout", () => {
  it.runIf(asRoot && resolveRunUser(undefined).user)("places clusters where the cluster user can reach them, and keeps them there", () => {
    const user = resolveRunUser(undefined).user!;
    const dataDir = tempDir("schemaform-layout-");
    const reachable = join(dataDir, "open");
    mkdirSync(reachable);
    chmodSync(dataDir, 0o755);
    expect(resolveClustersDir(join(reachable, "clusters"), user)).toEqual({ dir: join(reachable, "clusters"), relocated: false });

    chmodSync(dataDir, 0o700);
    const placed = resolveClustersDir(join(reachable, "clusters"), user);
    expect(placed.relocated).toBe(true);
    expect(placed.dir.startsWith(`${ROOT_CLUSTERS_BASE}/clusters-`)).toBe(true);
    prepareClustersDir(placed.dir, join(reachable, "clusters"));
    try {
      chmodSync(dataDir, 0o755);
      expect(resolveClustersDir(join(reachable, "clusters"), user)).toEqual(placed);
    } finally {
      removeEmptyClustersDir(placed.dir);
    }
    expect(existsSync(placed.dir)).toBe(false);
    expect(resolveClustersDir(join(reachable, "clusters"), user).relocated).toBe(false);
  });

  it("takes only service ids that name one directory", () => {
    for (const id of ["svc-1", "abc.def_2", "x"]) expect(() => checkServiceId(id)).not.toThrow();
    for (const id of ["", "../x", "a/b", ".hidden", "a..b", "x".repeat(129)]) expect(() => checkServiceId(id)).toThrow(/cannot name a directory/);
  });

  it("moves a socket directory that would be too long for a unix socket path, or would hold spaces or commas", () => {
    const short = new ServiceLayout("/srv/c", "svc");
    expect(short.socketDir).toBe("/srv/c/svc/run");
    const long = new ServiceLayout(`/srv/${"d".repeat(90)}`, "svc");
    expect(`${long.socketDir}/.s.PGSQL.65535`.length).toBeLessThanOrEqual(100);
    // libpq reads a comma as a list of hosts
    expect(new ServiceLayout("/srv/my data, old", "svc").socketDir).toMatch(/^[A-Za-z0-9_./-]+$/);
  });
});
