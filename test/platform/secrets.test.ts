// Secrets at rest: nothing a user handed over as a secret is in the database files in plaintext.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EmbeddedPlatform } from "../../platform/embedded.js";
import { SecretBox } from "../../platform/secrets.js";
import { embeddedFactory } from "./helpers.js";

const P = "secretproj";

describe("secrets at rest", () => {
  it("keeps no plaintext secret in the database, its WAL or its shared memory file", async () => {
    const h = await embeddedFactory();
    const c = h.client;
    const secrets: string[] = [
      "svc-plain-password-1",
      "wo-plain-password-2",
      "wo-plain-password-3",
      "conn-secret-4",
      "SECRETKEYSECRETKEYSECRETKEYSECRETKEY0005",
      "api-key-secret-6",
      "pull-secret-7",
    ];
    try {
      const generated = (await c.services.create(P, {})).body.password!;
      secrets.push(generated);
      const svc = (await c.services.create(P, { password: "svc-plain-password-1" })).body;
      const wo = (await c.services.create(P, { password_wo: "wo-plain-password-2", password_wo_version: 1 })).body;
      await c.services.update(P, wo.id, { password_wo: "wo-plain-password-3", password_wo_version: 2 });
      await c.srcDbConnectors.create(P, {
        service_id: svc.id,
        display_name: "db",
        connection_string: "postgres://user:conn-secret-4@db.example.com/app",
        ssh_tunnel: { name: "bastion", host: "bastion.example.com" },
      });
      await c.logExporters.create(P, {
        region: "us-east-1",
        cloudmon: { region: "us-east-1", log_group_name: "g", log_stream_name: "s", access_key: "AKIAIOSFODNN7EXAMPLE", secret_key: "SECRETKEYSECRETKEYSECRETKEYSECRETKEY0005" },
      });
      await c.metricExporters.create(P, { region: "us-east-1", saasmon: { api_key: "api-key-secret-6", site: "datadoghq.com" } });
      await c.metricExporters.create(P, { region: "us-east-1", pullmon: { username: "scraper", password: "pull-secret-7" } });

      const scan = () => {
        const found: string[] = [];
        for (const file of readdirSync(h.dataDir)) {
          if (file === "platform.key") continue;
          const bytes = readFileSync(join(h.dataDir, file));
          for (const s of secrets) if (bytes.includes(Buffer.from(s, "utf8"))) found.push(`${s} in ${file}`);
          if (bytes.includes(Buffer.from("PRIVATE KEY"))) found.push(`a private key in ${file}`);
        }
        return found;
      };
      const plainSomewhere = (text: string) =>
        readdirSync(h.dataDir).some((file) => readFileSync(join(h.dataDir, file)).includes(Buffer.from(text, "utf8")));
      // while open (data still in the WAL) …
      expect(readdirSync(h.dataDir)).toContain("platform.db-wal");
      expect(plainSomewhere("AKIAIOSFODNN7EXAMPLE")).toBe(true); // the scan does see stored data (a non-secret value)
      expect(scan()).toEqual([]);
      // … and after the WAL is checkpointed into the main file
      await c.close();
      expect(plainSomewhere("datadoghq.com")).toBe(true);
      expect(scan()).toEqual([]);
      // the key is private to the user
      expect(statSync(join(h.dataDir, "platform.key")).mode & 0o777).toBe(0o600);
    } finally {
      await h.cleanup();
    }
  });

  it("decrypts what it stored after a restart (the key file persists)", async () => {
    const h = await embeddedFactory();
    try {
      const m = (await h.client.metricExporters.create(P, { region: "us-east-1", saasmon: { api_key: "persisted-key", site: "datadoghq.com" } })).body;
      await h.client.close();
      const again = new EmbeddedPlatform({ dataDir: h.dataDir, transitionSeconds: 0 });
      // an update that does not resend the secret must still find it (it is decrypted and re-sealed)
      const renamed = await again.metricExporters.update(P, m.id, { name: "renamed" });
      expect(renamed.body.name).toBe("renamed");
      const core = await again.core();
      const row = (await core.ctx.read((tx) => tx.get<{ secrets: string }>("SELECT secrets FROM exporters WHERE id = ?", m.id)))!;
      const key = Buffer.from(readFileSync(join(h.dataDir, "platform.key"), "utf8").trim(), "base64");
      expect(JSON.parse(new SecretBox(key).decrypt(row.secrets, `exporter:${m.id}`))).toEqual({ api_key: "persisted-key" });
      // a ciphertext moved to another row does not decrypt
      expect(() => new SecretBox(key).decrypt(row.secrets, "exporter:another-id")).toThrow();
      await again.close();
    } finally {
      await h.cleanup();
    }
  });
});
