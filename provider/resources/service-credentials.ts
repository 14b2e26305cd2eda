// ephemeral tsdb_service_credentials: temporary credentials of a service. Open creates them on
// the platform (a new role, a random password, valid for `ttl`), Renew extends them while the
// run lasts, Close revokes them. Terraform keeps only the credential's id between the calls
// (the protocol's private data), never the password.
import { parseDuration } from "../../platform/config.js";
import { waitForService } from "../../platform/wait.js";
import type { EphemeralResourceHandler } from "../framework/types.js";
import { HandlerError } from "../framework/types.js";
import { type TsdbClient, call, isNotFound, text } from "./common.js";

const DEFAULT_TTL = "1h";
const ROLE_TIMEOUT_MS = 60_000;

/** Renew when two thirds of the lifetime have passed. */
function renewAt(expiresAt: string, ttlSeconds: number): Date {
  return new Date(Date.parse(expiresAt) - (ttlSeconds * 1000) / 3);
}

export const serviceCredentials: EphemeralResourceHandler<TsdbClient> = {
  async open({ client, config }) {
    const serviceId = String(config.service_id);
    const ttl = Math.round(parseDuration(text(config.ttl) ?? DEFAULT_TTL) / 1000);
    if (ttl < 60 || ttl > 86400) throw new HandlerError("ttl out of range", { path: ["ttl"], detail: `ttl must be from 1m to 24h, got ${text(config.ttl)}.` });
    const creds = await call("Creating service credentials", () => client.platform.services.createCredentials(client.projectId, serviceId, ttl));
    // With the data plane the role is made by its agent: the service is READY again once the
    // role exists (its plan includes the role), so the credentials open only when they log in.
    await call("Waiting for the credentials' role", () => waitForService(client.platform, client.projectId, serviceId, ROLE_TIMEOUT_MS));
    return {
      result: { service_id: serviceId, hostname: creds.hostname, port: creds.port, username: creds.username, password: creds.password, expires_at: creds.expires_at },
      private: { service_id: serviceId, credential_id: creds.id, ttl },
      renewAt: renewAt(creds.expires_at, ttl),
    };
  },

  async renew({ client, private: kept }) {
    const ttl = Number(kept.ttl);
    const { expires_at } = await call("Renewing service credentials", () =>
      client.platform.services.renewCredentials(client.projectId, String(kept.service_id), String(kept.credential_id), ttl),
    );
    return { private: kept, renewAt: renewAt(expires_at, ttl) };
  },

  async close({ client, private: kept }) {
    if (!kept.credential_id) return;
    try {
      await client.platform.services.revokeCredentials(client.projectId, String(kept.service_id), String(kept.credential_id));
    } catch (error) {
      if (!isNotFound(error)) await call("Revoking service credentials", () => Promise.reject(error));
    }
  },
};
