// Short-lived database credentials of a service (the `tsdb_service_credentials` ephemeral
// resource): a fresh role name and a random password, of which only a SCRAM-SHA-256 verifier (the
// form PostgreSQL keeps in pg_authid) and the expiry are stored, in `service_credentials`. The
// data plane turns each row into a real role (`VALID UNTIL` the expiry, member of the service's
// admin role) and drops the role when the row is gone. Revoking deletes the row; an expired row
// no longer opens anything and is purged when the next credential of the project is created.

import { invalid, notFound } from "../errors.js";
import { newPassword, randomString } from "../secrets.js";
import type { ServiceCredentials as Credentials } from "../types.js";
import type { Ctx } from "./context.js";
import { projectKey } from "./projects.js";
import { checkProject, type Services } from "./services.js";
import { checkScram, scramVerifier } from "../dataplane/scram.js";

export const MIN_TTL_SECONDS = 60;
export const MAX_TTL_SECONDS = 24 * 3600;
const TYPE = "tsdb_service";

interface CredentialRow {
  id: string;
  project: string;
  service_id: string;
  role: string;
  verifier: string;
  expires_at: string;
  created: string;
}

function checkTtl(ttlSeconds: unknown): number {
  if (typeof ttlSeconds !== "number" || !Number.isInteger(ttlSeconds) || ttlSeconds < MIN_TTL_SECONDS || ttlSeconds > MAX_TTL_SECONDS) {
    throw invalid(["ttl"], `the lifetime of credentials must be a whole number of seconds from ${MIN_TTL_SECONDS} to ${MAX_TTL_SECONDS}, got ${JSON.stringify(ttlSeconds)}`);
  }
  return ttlSeconds;
}

export class ServiceCredentialsStore {
  constructor(
    private readonly ctx: Ctx,
    private readonly services: Services,
  ) {}

  /** New credentials for a service: returned once, with the password; only the verifier is kept. */
  async create(project: string, serviceId: string, ttlSeconds: number): Promise<Credentials> {
    checkProject(project);
    const ttl = checkTtl(ttlSeconds);
    project = await projectKey(this.ctx, project);
    const password = newPassword();
    const verifier = await scramVerifier(password);
    return await this.ctx.write(async (tx) => {
      const service = await this.services.findRow(tx, project, serviceId);
      if (!service) throw notFound(`service ${serviceId} in project ${project}`);
      const now = this.ctx.now();
      await tx.run("DELETE FROM service_credentials WHERE project = ? AND expires_at < ?", project, this.ctx.iso(now));
      const row: CredentialRow = {
        id: randomString(16),
        project,
        service_id: serviceId,
        role: `tsdb_tmp_${randomString(12)}`,
        verifier,
        expires_at: this.ctx.iso(now + ttl * 1000),
        created: this.ctx.iso(now),
      };
      await tx.run(
        "INSERT INTO service_credentials (id, project, service_id, role, verifier, expires_at, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
        row.id, row.project, row.service_id, row.role, row.verifier, row.expires_at, row.created,
      );
      await this.ctx.event(tx, project, TYPE, serviceId, "credentials_created", `temporary role ${row.role} created, valid until ${row.expires_at}`);
      const body = this.services.toBody(service);
      return { id: row.id, service_id: serviceId, username: row.role, password, hostname: body.hostname, port: body.port, expires_at: row.expires_at };
    });
  }

  /** Extends unexpired credentials by `ttlSeconds` from now; `not_found` once revoked or expired. */
  async renew(project: string, serviceId: string, credentialId: string, ttlSeconds: number): Promise<{ expires_at: string }> {
    checkProject(project);
    const ttl = checkTtl(ttlSeconds);
    project = await projectKey(this.ctx, project);
    return await this.ctx.write(async (tx) => {
      const now = this.ctx.now();
      const row = await tx.get<CredentialRow>("SELECT * FROM service_credentials WHERE id = ? AND project = ? AND service_id = ?", credentialId, project, serviceId);
      if (!row || row.expires_at < this.ctx.iso(now)) throw notFound(`credentials ${credentialId} of service ${serviceId}`);
      const expires = this.ctx.iso(now + ttl * 1000);
      await tx.run("UPDATE service_credentials SET expires_at = ? WHERE id = ?", expires, credentialId);
      return { expires_at: expires };
    });
  }

  /** Deletes the credentials (the data plane drops the role); revoking twice is not an error. */
  async revoke(project: string, serviceId: string, credentialId: string): Promise<void> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    await this.ctx.write(async (tx) => {
      const row = await tx.get<CredentialRow>("SELECT * FROM service_credentials WHERE id = ? AND project = ? AND service_id = ?", credentialId, project, serviceId);
      if (!row) return;
      await tx.run("DELETE FROM service_credentials WHERE id = ?", credentialId);
      await this.ctx.event(tx, project, TYPE, serviceId, "credentials_revoked", `temporary role ${row.role} revoked`);
    });
  }

  /** Whether `password` opens unexpired credentials of the service. */
  async accepts(project: string, serviceId: string, password: string): Promise<boolean> {
    checkProject(project);
    project = await projectKey(this.ctx, project);
    const rows = await this.ctx.read((tx) =>
      tx.all<CredentialRow>("SELECT verifier FROM service_credentials WHERE project = ? AND service_id = ? AND expires_at >= ?", project, serviceId, this.ctx.iso(this.ctx.now())),
    );
    for (const row of rows) if (await checkScram(password, row.verifier)) return true;
    return false;
  }
}
