// PostgreSQL closing the platform's connections (a restart, a failover, an administrator): the
// process survives, whatever each connection was doing (idle in the pool, in a transaction
// between two statements, in the middle of a statement), the failures are the ones the server
// answers with 503 (database-faults.ts), and the next transaction works on a new connection.
// An unhandled 'error' event of a node-postgres client would end this test process.
import { afterAll, beforeAll, expect, it } from "vitest";
import { DATABASE_RESTARTING, databaseFault } from "../../platform/database-faults.js";
import { openPostgres, type PostgresStore } from "../../platform/postgres.js";
import { sleep } from "../../platform/storage.js";
import { rejection } from "./helpers.js";
import { describePostgres, startCluster, type Cluster } from "./postgres-cluster.js";

describePostgres("PostgreSQL ending the platform's connections", () => {
  let cluster: Cluster;
  let url: string;
  let store: PostgresStore;
  const uncaught: unknown[] = [];
  const note = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    cluster = await startCluster();
    url = await cluster.createDatabase();
    store = await openPostgres({ url, maxConnections: 4 });
    process.on("uncaughtException", note);
  }, 60_000);
  afterAll(async () => {
    process.off("uncaughtException", note);
    await store?.close();
    cluster?.stop();
  });

  /** Ends every other session of the platform's database, as a fast shutdown does (57P01). */
  async function terminateAll(): Promise<number> {
    const pg = (await import("pg")).default;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const ended = await admin.query("SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()");
      return (ended.rows[0] as { n: number }).n;
    } finally {
      await admin.end();
    }
  }

  it("survives connections ended while idle, between two statements of a transaction, and during a statement", async () => {
    // four connections in the pool, idle
    await Promise.all(Array.from({ length: 4 }, () => store.read((tx) => tx.get("SELECT pg_sleep(0.05)"))));
    // one waits between two statements of its transaction (checked out, no query running)
    const between = store.write(async (tx) => {
      await tx.get("SELECT 1");
      await sleep(400);
      return tx.get("SELECT 2 AS two");
    });
    // one is in the middle of a statement
    const during = store.read((tx) => tx.get("SELECT pg_sleep(5)"));
    // their failures are awaited from now on (a rejection nobody awaits yet is reported as unhandled)
    const failures = Promise.all([rejection(() => between), rejection(() => during)]);
    await sleep(150);
    expect(await terminateAll()).toBeGreaterThanOrEqual(3);

    const [inTransaction, inStatement] = await failures;
    expect(databaseFault(inTransaction)).toBe(DATABASE_RESTARTING);
    expect(databaseFault(inStatement)).toBe(DATABASE_RESTARTING);
    await sleep(100); // any late 'error' events of the ended clients
    expect(uncaught).toEqual([]);

    // the next transactions open new connections
    expect(await store.write((tx) => tx.get<{ n: number }>("SELECT 42 AS n"))).toEqual({ n: 42 });
    expect(await store.read((tx) => tx.get<{ n: number }>("SELECT 7 AS n"))).toEqual({ n: 7 });
  });

  it("says a stopped database is restarting or unreachable, and works again once it is back", async () => {
    const restartMs = cluster.restart();
    expect(restartMs).toBeGreaterThan(0);
    // the pool's old connections are gone; the first transaction finds out, a later one works
    const first = await store.read((tx) => tx.get("SELECT 1 AS one")).catch((error: unknown) => error);
    if (first instanceof Error) expect(databaseFault(first)).toBe(DATABASE_RESTARTING);
    expect(await store.read((tx) => tx.get("SELECT 1 AS one"))).toEqual({ one: 1 });
    expect(uncaught).toEqual([]);
  });
});
