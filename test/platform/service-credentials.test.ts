// Temporary database credentials of a service (the tsdb_service_credentials ephemeral
// resource's platform side), whichever way in (embedded or HTTP): a fresh role and random
// password, only a SCRAM-SHA-256 verifier and the expiry stored in service_credentials, accepted
// by checkPassword until they expire or are revoked.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkScram as scramMatches, scramVerifier } from "../../platform/dataplane/scram.js";
import type { PlatformClient } from "../../platform/types.js";
import { embeddedFactory, httpFactory, manualClock, rejection, type Factory, type Harness } from "./helpers.js";

const P = "creds-project";

function credentialsSuite(name: string, factory: Factory): void {
  describe(`${name}: temporary service credentials`, () => {
    const clock = manualClock();
    let h: Harness;
    let c: PlatformClient;
    let serviceId: string;
    beforeAll(async () => {
      h = await factory({ clock: clock.now });
      c = h.client;
      serviceId = (await c.services.create(P, { name: "creds-db" })).body.id;
    });
    afterAll(() => h.cleanup());

    it("returns a new role and password once, keeps only a SCRAM-SHA-256 verifier, and accepts the password until it expires", async () => {
      const creds = await c.services.createCredentials(P, serviceId, 600);
      const service = await c.services.get(P, serviceId);
      expect(creds).toMatchObject({ service_id: serviceId, hostname: service.hostname, port: service.port });
      expect(creds.username).toMatch(/^tsdb_tmp_[a-z0-9]{12}$/);
      expect(creds.password.length).toBeGreaterThanOrEqual(16);
      const other = await c.services.createCredentials(P, serviceId, 600);
      expect(other.username).not.toBe(creds.username);
      expect(other.password).not.toBe(creds.password);

      const db = new Database(join(h.dataDir, readdirSync(h.dataDir).find((f) => f.endsWith(".db") || f.endsWith(".sqlite"))!), { readonly: true });
      const rows = db.prepare("SELECT * FROM service_credentials WHERE role = ?").all(creds.username) as Array<{ verifier: string; expires_at: string; service_id: string }>;
      db.close();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.verifier).toMatch(/^SCRAM-SHA-256\$4096:[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
      expect(await scramMatches(creds.password, rows[0]!.verifier)).toBe(true);
      expect(rows[0]!.expires_at).toBe(creds.expires_at);
      expect(execFileSync("cat", readdirSync(h.dataDir).map((f) => join(h.dataDir, f))).includes(Buffer.from(creds.password))).toBe(false);

      expect(await c.services.checkPassword(P, serviceId, creds.password)).toBe(true);
      expect(await c.services.checkPassword(P, serviceId, "not-the-password")).toBe(false);
      clock.advance(601_000);
      expect(await c.services.checkPassword(P, serviceId, creds.password)).toBe(false);
      expect((await rejection(() => c.services.renewCredentials(P, serviceId, creds.id, 600))).code).toBe("not_found");
    });

    it("renews and revokes", async () => {
      const creds = await c.services.createCredentials(P, serviceId, 120);
      clock.advance(100_000);
      const renewed = await c.services.renewCredentials(P, serviceId, creds.id, 120);
      expect(renewed.expires_at > creds.expires_at).toBe(true);
      clock.advance(100_000);
      expect(await c.services.checkPassword(P, serviceId, creds.password)).toBe(true);
      await c.services.revokeCredentials(P, serviceId, creds.id);
      expect(await c.services.checkPassword(P, serviceId, creds.password)).toBe(false);
      await c.services.revokeCredentials(P, serviceId, creds.id); // twice is fine
    });

    it("refuses an unknown service and a lifetime out of range", async () => {
      expect((await rejection(() => c.services.createCredentials(P, "nosuchsvc0", 600))).code).toBe("not_found");
      const short = await rejection(() => c.services.createCredentials(P, serviceId, 5));
      expect(short.code).toBe("invalid");
      expect(short.message).toMatch(/from 60 to 86400/);
    });
  });
}

credentialsSuite("embedded", embeddedFactory);
credentialsSuite("http", httpFactory);

describe("SCRAM-SHA-256 verifier", () => {
  it("is PostgreSQL's form: RFC 5802 keys over PBKDF2-SHA-256 (RFC 7677 test vector)", async () => {
    // RFC 7677 section 3: password "pencil", salt W22ZaJ0SNY7soEsUEjb6gQ==, 4096 iterations.
    const verifier = await scramVerifier("pencil", Buffer.from("W22ZaJ0SNY7soEsUEjb6gQ==", "base64"), 4096);
    expect(verifier).toBe("SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=:wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU=");
  });
});
