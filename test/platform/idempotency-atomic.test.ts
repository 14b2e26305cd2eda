// A create is answered once, with its object: the server's idempotency answer is committed with
// the object it describes, so a failure while storing it leaves no object behind (the retry
// creates exactly one), and a database out of space answers 503 with Retry-After and the cause,
// after which the same request, retried, creates the object once.
import { afterEach, beforeEach, expect, it } from "vitest";
import { describe } from "vitest";
import type { Store } from "../../platform/store.js";
import { startServerHarness, type ServerHarness } from "./helpers.js";

const PROJECT = "atomic-proj";

describe("platform server: idempotent creates commit with their answer", () => {
  let h: ServerHarness;
  let auth: string;

  beforeEach(async () => {
    h = await startServerHarness({ server: { rateLimits: { creates: { burst: 10_000, perSecond: 10_000 } } } });
    auth = `Basic ${Buffer.from(`${h.accessKey}:${h.secretKey}`).toString("base64")}`;
  });
  afterEach(async () => {
    await h.cleanup();
  });

  const createVpc = async (name: string, key: string) => {
    const response = await fetch(`${h.server.url}/tsdb/v1/projects/${PROJECT}/vpcs`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json", "idempotency-key": key },
      body: JSON.stringify({ name, cidr: "10.1.0.0/16", region_code: "us-east-1" }),
    });
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as any };
  };
  const db = async () => ((await h.platform.core()).ctx.store as Store).db;

  it("leaves no object when the answer cannot be stored, and the retry with the same key creates exactly one", async () => {
    const sqlite = await db();
    // the answer's INSERT fails, as it did on a full disk after the object had committed
    sqlite.exec("CREATE TRIGGER refuse_answers BEFORE INSERT ON idempotency_keys BEGIN SELECT RAISE(ABORT, 'answers cannot be stored'); END");
    for (const name of ["a", "b", "c"]) expect((await createVpc(`vpc-${name}`, `key-${name}`)).status).toBe(500);
    expect(await h.client.vpcs.list(PROJECT)).toEqual([]);

    sqlite.exec("DROP TRIGGER refuse_answers");
    const ids = new Set<number>();
    for (const name of ["a", "b", "c"]) {
      for (let repeat = 0; repeat < 2; repeat++) {
        const answer = await createVpc(`vpc-${name}`, `key-${name}`);
        expect(answer.status).toBe(201);
        ids.add(answer.body.body.vpcs_id);
      }
    }
    const listed = await h.client.vpcs.list(PROJECT);
    expect(listed.map((v) => v.name).sort()).toEqual(["vpc-a", "vpc-b", "vpc-c"]);
    expect(new Set(listed.map((v) => v.vpcs_id))).toEqual(ids);
  });

  it("answers a database out of space with 503, Retry-After and the cause; retried after space comes back, each create lands once", async () => {
    const sqlite = await db();
    // SQLite's own out-of-space error (SQLITE_FULL), by capping the file at the pages it has
    const pages = sqlite.pragma("page_count", { simple: true }) as number;
    sqlite.pragma(`max_page_count = ${pages}`);
    const created: number[] = [];
    let refused: Awaited<ReturnType<typeof createVpc>> | undefined;
    let refusedName = "";
    for (let i = 0; i < 400 && !refused; i++) {
      const answer = await createVpc(`vpc-${i}`, `full-${i}`);
      if (answer.status === 201) created.push(answer.body.body.vpcs_id);
      else {
        refused = answer;
        refusedName = `vpc-${i}`;
      }
    }
    expect(refused, "the capped file never filled up").toBeDefined();
    expect(refused!.status).toBe(503);
    expect(refused!.retryAfter).toMatch(/^[1-9][0-9]*$/);
    expect(refused!.body.error.message).toMatch(/the platform database is out of disk space/);

    sqlite.pragma("max_page_count = 1073741823");
    const retried = await createVpc(refusedName, `full-${created.length}`);
    expect(retried.status).toBe(201);
    const again = await createVpc(refusedName, `full-${created.length}`);
    expect(again.body.body.vpcs_id).toBe(retried.body.body.vpcs_id);
    const listed = await h.client.vpcs.list(PROJECT);
    expect(listed.map((v) => v.vpcs_id).sort((a, b) => a - b)).toEqual([...created, retried.body.body.vpcs_id].sort((a, b) => a - b));
  });
});
