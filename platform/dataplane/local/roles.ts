// The roles and the database users meet on a primary: `tsdbadmin` (LOGIN, CREATEDB, CREATEROLE,
// REPLICATION, not a superuser) owning database `tsdb`, its password set from the plan's SCRAM
// verifier (PostgreSQL stores a pre-hashed verifier as given), and the ephemeral login roles of
// tsdb_service_credentials. Ephemeral roles the driver made carry a comment, so that the ones no
// longer planned can be told from roles users created, and dropped. Statements holding a verifier
// are never logged by the driver, and PostgreSQL logs no statement text unless asked.

import type { Client as PgClient } from "pg";
import type { EphemeralRole } from "../driver.js";

export const ADMIN_ROLE = "tsdbadmin";
export const DATABASE = "tsdb";
const EPHEMERAL_MARK = "schemaform ephemeral role";

const VERIFIER = /^SCRAM-SHA-256\$\d+:[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/;

function checkVerifier(verifier: string, whose: string): void {
  // anything else would be stored by PostgreSQL as a plaintext password (hashed on the way in)
  if (!VERIFIER.test(verifier)) throw new Error(`the password of ${whose} is not a SCRAM-SHA-256 verifier`);
}

/** tsdbadmin and database tsdb, made when missing (idempotent: runs on every apply of a primary). */
export async function bootstrap(client: PgClient): Promise<void> {
  const role = await client.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [ADMIN_ROLE]);
  if (role.rowCount === 0) {
    await client.query(`CREATE ROLE ${ADMIN_ROLE} LOGIN CREATEDB CREATEROLE REPLICATION`);
    // monitoring views (pg_stat_activity of every session, replication state) as Timescale's admin sees them
    await client.query(`GRANT pg_monitor TO ${ADMIN_ROLE}`);
  }
  const database = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE]);
  if (database.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE} OWNER ${ADMIN_ROLE}`);
}

/** Sets tsdbadmin's password from the verifier when it differs from the stored one. */
export async function setAdminPassword(client: PgClient, verifier: string): Promise<boolean> {
  checkVerifier(verifier, ADMIN_ROLE);
  const stored = await client.query<{ rolpassword: string | null }>("SELECT rolpassword FROM pg_authid WHERE rolname = $1", [ADMIN_ROLE]);
  if (stored.rows[0]?.rolpassword === verifier) return false;
  await client.query(`ALTER ROLE ${ADMIN_ROLE} PASSWORD ${client.escapeLiteral(verifier)}`);
  return true;
}

/** Makes the planned ephemeral roles exist as planned and drops the ones the driver made that are no longer planned. */
export async function syncEphemeralRoles(client: PgClient, roles: EphemeralRole[]): Promise<string[]> {
  const warnings: string[] = [];
  const marked = await client.query<{ rolname: string }>(
    "SELECT r.rolname FROM pg_roles r JOIN pg_shdescription d ON d.objoid = r.oid AND d.classoid = 'pg_authid'::regclass WHERE d.description = $1",
    [EPHEMERAL_MARK],
  );
  const existing = new Set(marked.rows.map((row) => row.rolname));
  const planned = new Set(roles.map((role) => role.role));
  for (const role of roles) {
    checkVerifier(role.verifier, `role ${role.role}`);
    const name = client.escapeIdentifier(role.role);
    const until = new Date(role.validUntil);
    if (Number.isNaN(until.getTime())) throw new Error(`role ${role.role}: validUntil ${JSON.stringify(role.validUntil)} is not a timestamp`);
    const attributes = `LOGIN PASSWORD ${client.escapeLiteral(role.verifier)} VALID UNTIL ${client.escapeLiteral(until.toISOString())}`;
    const present = await client.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [role.role]);
    if (present.rowCount === 0) {
      await client.query(`CREATE ROLE ${name} ${attributes} IN ROLE ${ADMIN_ROLE}`);
      await client.query(`COMMENT ON ROLE ${name} IS ${client.escapeLiteral(EPHEMERAL_MARK)}`);
    } else if (existing.has(role.role)) {
      await client.query(`ALTER ROLE ${name} ${attributes}`);
    } else {
      warnings.push(`role ${role.role} exists and was not made by the platform: left unchanged`);
    }
  }
  for (const name of existing) {
    if (planned.has(name)) continue;
    try {
      await dropRole(client, name);
    } catch (error) {
      warnings.push(`ephemeral role ${name} could not be dropped: ${(error as Error).message}`);
    }
  }
  return warnings;
}

/** Drops a role after handing what it owns in this database to tsdbadmin (objects in other databases keep it alive). */
async function dropRole(client: PgClient, role: string): Promise<void> {
  const name = client.escapeIdentifier(role);
  await client.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1`, [role]);
  await client.query(`REASSIGN OWNED BY ${name} TO ${ADMIN_ROLE}`);
  await client.query(`DROP OWNED BY ${name}`);
  await client.query(`DROP ROLE ${name}`);
}
