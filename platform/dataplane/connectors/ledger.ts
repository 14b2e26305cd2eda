// The connectors' own bookkeeping lives in the service database, schema `_schemaform`, so that it
// commits with the data it describes (a crash can neither lose nor repeat a load) and goes where
// the database goes (backups, restores, standbys).

import type { Client } from "pg";

const LEDGER_DDL = `
CREATE SCHEMA IF NOT EXISTS _schemaform;
COMMENT ON SCHEMA _schemaform IS 'schemaform connectors: what was replicated and loaded (do not edit)';
CREATE TABLE IF NOT EXISTS _schemaform.src_db_connectors (
  connector_id text PRIMARY KEY,
  table_sync_workers integer NOT NULL
);
CREATE TABLE IF NOT EXISTS _schemaform.src_db_tables (
  connector_id text NOT NULL,
  source_schema text NOT NULL,
  source_table text NOT NULL,
  target_schema text NOT NULL,
  target_table text NOT NULL,
  publication text NOT NULL,
  -- the connector created the target (hypertable_spec applied): partitions are its to keep ahead
  created_target boolean NOT NULL,
  partition_column_type text,
  hypertable_spec jsonb,
  PRIMARY KEY (connector_id, source_schema, source_table)
);
CREATE TABLE IF NOT EXISTS _schemaform.loaded_objects (
  connector_id text NOT NULL,
  object_key text NOT NULL,
  size bigint NOT NULL,
  mtime timestamptz NOT NULL,
  loaded_at timestamptz NOT NULL DEFAULT now(),
  rows bigint,
  -- NULL: loaded; otherwise why it failed (retried only when the object changes)
  error text,
  PRIMARY KEY (connector_id, object_key)
);
CREATE TABLE IF NOT EXISTS _schemaform.obj_store_scans (
  connector_id text PRIMARY KEY,
  last_scan timestamptz NOT NULL
);
`;

const ready = new WeakSet<Client>();

/** Creates the ledger tables when missing (once per client). */
export async function ensureLedger(client: Client): Promise<void> {
  if (ready.has(client)) return;
  const exists = await client.query("SELECT to_regclass('_schemaform.obj_store_scans') IS NOT NULL AS ok");
  if (!exists.rows[0]?.ok) {
    // two ticks racing on a fresh database: the loser's CREATE … IF NOT EXISTS may still collide
    await client.query("SELECT pg_advisory_lock(hashtext('_schemaform ledger'))");
    try {
      await client.query(LEDGER_DDL);
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('_schemaform ledger'))");
    }
  }
  ready.add(client);
}
