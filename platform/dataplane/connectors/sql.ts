// Small SQL helpers shared by the connector engines: identifier quoting and short-lived clients.

import type { Client, ClientConfig } from "pg";
import type { AdminConnection } from "../driver.js";

/** A PostgreSQL identifier, quoted. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `"schema"."table"` */
export function qualified(schema: string, table: string): string {
  return `${ident(schema)}.${ident(table)}`;
}

/** A string literal (for the few statements that take no parameters, such as CREATE SUBSCRIPTION). */
export function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** The compact form of a connector id for object names: UUID dashes removed, lower case. */
export function compactId(id: string): string {
  return id.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
}

const CONNECT_TIMEOUT_MS = 5_000;

async function open(config: ClientConfig): Promise<Client> {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionTimeoutMillis: CONNECT_TIMEOUT_MS, ...config });
  // an idle client's socket error must not crash the agent: the next query reports it
  client.on("error", () => {});
  await client.connect();
  return client;
}

/** A new client on the service's superuser connection (the caller ends it). */
export function connectService(target: AdminConnection): Promise<Client> {
  return open({ host: target.host, port: target.port, user: target.user, database: target.database, password: target.password, application_name: "schemaform-connectors" });
}

/** The service's superuser connection, for one unit of work. */
export async function withService<T>(target: AdminConnection, work: (client: Client) => Promise<T>): Promise<T> {
  const client = await connectService(target);
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** A connection to a user's source database, for one unit of work. */
export async function withSource<T>(connectionString: string, work: (client: Client) => Promise<T>): Promise<T> {
  let client: Client;
  try {
    client = await open({ connectionString, application_name: "schemaform-connectors" });
  } catch (error) {
    // callers scrub the text of secrets before showing it
    throw new Error(`cannot connect to the source database: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Runs `work` in a transaction on `client`: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(client: Client, work: () => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  try {
    const result = await work();
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
