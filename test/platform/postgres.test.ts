// The platform behaviour suite, unchanged, on PostgreSQL: the core on a real database (a cluster
// of this machine's PostgreSQL binaries, postgres-cluster.ts), embedded and behind the server.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres } from "../../platform/postgres.js";
import { behaviourSuite } from "./behaviour.js";
import { embeddedFactory, httpFactory, startServerHarness, type Harness, type HarnessOptions } from "./helpers.js";
import { describePostgres, startCluster, type Cluster } from "./postgres-cluster.js";

describePostgres("platform on PostgreSQL", () => {
    let cluster: Cluster;
    beforeAll(async () => {
      cluster = await startCluster();
    });
    afterAll(() => cluster?.stop());

    // a database of its own per harness, as the SQLite harnesses get a directory of their own
    const onPostgres =
      <H extends Harness>(factory: (options?: HarnessOptions) => Promise<H>) =>
      async (options: HarnessOptions = {}): Promise<H> => {
        const url = await cluster.createDatabase();
        return factory({ ...options, storage: { open: () => openPostgres({ url }), secretsKey: randomBytes(32) } });
      };

    behaviourSuite("postgres", onPostgres(embeddedFactory));
    behaviourSuite("postgres over http", onPostgres(httpFactory));

    describe("postgres: readiness", () => {
      it("/v1/ready answers 503 while the database refuses connections and 200 again when it is back", async () => {
        const h = await onPostgres(startServerHarness)();
        const database = new URL(await h.platform.core().then((c) => c.ctx.store.location)).pathname.slice(1);
        const pg = (await import("pg")).default;
        const admin = new pg.Client({ connectionString: cluster.adminUrl });
        await admin.connect();
        try {
          const ready = () => fetch(`${h.server.url}/v1/ready`);
          expect((await ready()).status).toBe(200);
          await admin.query(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS false`);
          await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [database]);
          const down = await ready();
          expect(down.status).toBe(503);
          expect(await down.json()).toMatchObject({ ready: false });
          expect((await fetch(`${h.server.url}/v1/health`)).status).toBe(200); // the process itself is fine
          await admin.query(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS true`);
          expect((await ready()).status).toBe(200);
        } finally {
          await admin.query(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS true`);
          await admin.end();
          await h.cleanup();
        }
      });
    });
});
