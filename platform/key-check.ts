// Which secrets key a platform's data is encrypted under, and rotating it.
//
// The key check value (an HMAC of a fixed label under the key: it tells keys apart and reveals
// nothing of them, secrets.ts keyCheckValue) is stored in the `meta` table the first time the
// platform is opened. From then on a replica, `platform migrate`, `export` or `import` given
// another key refuses at once, naming where its key came from and the key's fingerprint, instead
// of writing secrets that the other replicas cannot open. A platform written before the check
// existed gets it on its first open, after one stored secret of each kind was opened with the key.
//
// Rotation: a replica encrypts with the newest of its keys and opens with any; it refuses to serve
// while its newest key is not the data's (its writes would be unreadable to replicas that lack
// it). `platform migrate` given the old and the new key re-encrypts every stored secret under the
// newest and moves the check value to it, in one transaction.

import { keyFingerprint, type SecretBox } from "./secrets.js";
import type { Storage, Tx } from "./storage.js";

const KEY_CHECK = "secrets_key_check";

export class SecretsKeyMismatch extends Error {
  override readonly name = "SecretsKeyMismatch";
}

type Row = Record<string, unknown>;

/** Every column that holds a sealed secret, with what its row binds it to (as the core sealed it). */
export const SEALED_COLUMNS: ReadonlyArray<{ table: string; column: string; keys: string[]; boundTo: (row: Row) => string }> = [
  { table: "exporters", column: "secrets", keys: ["id"], boundTo: (r) => `exporter:${String(r.id)}` },
  { table: "connectors", column: "secrets", keys: ["id"], boundTo: (r) => `connector:${String(r.id)}` },
  { table: "idempotency_keys", column: "answer", keys: ["credential", "project", "key"], boundTo: (r) => JSON.stringify([r.credential, r.project, r.key]) },
];

/** The key check value stored in a `meta` row of an export, if any. */
export function keyCheckOf(metaRows: Row[]): string | undefined {
  const row = metaRows.find((r) => r.key === KEY_CHECK);
  return typeof row?.value === "string" ? row.value : undefined;
}

/** Refuses `box` unless its keys include the one `stored` was made with (and, with `newest`, it is the newest). */
export function compareKeyCheck(box: SecretBox, stored: string, options: { newest: boolean; what: string }): void {
  const values = box.checkValues();
  const at = values.indexOf(stored);
  if (at === -1) {
    throw new SecretsKeyMismatch(
      `${box.source} (key fingerprint ${keyFingerprint(values[0]!)}) is not the secrets key of ${options.what} (its key's fingerprint is ${keyFingerprint(stored)}): ` +
        "every replica, migrate, export and import must be given the same key; to change it, rotate it with `schemaform platform migrate` (platform/README.md, \"Rotating the secrets key\")",
    );
  }
  if (at !== 0 && options.newest) {
    throw new SecretsKeyMismatch(
      `the newest key of ${box.source} (fingerprint ${keyFingerprint(values[0]!)}) is not yet the secrets key of ${options.what} (${keyFingerprint(stored)}, an older one of those given): ` +
        "run `schemaform platform migrate` with these keys first, to re-encrypt its secrets under the newest",
    );
  }
}

/**
 * Checks `box` against the data's key check value at open. With `record`, a platform that has none
 * yet gets the newest key's (after a stored secret of each kind opened with the box).
 */
export async function checkSecretsKey(store: Pick<Storage, "read" | "write" | "location">, box: SecretBox, options: { record: boolean; newest: boolean }): Promise<void> {
  const what = `the platform at ${store.location}`;
  let stored = await store.read((tx) => storedCheck(tx));
  if (stored === undefined) {
    await store.read((tx) => openOneOfEach(tx, box, what));
    if (!options.record) return;
    try {
      await store.write((tx) => tx.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", KEY_CHECK, box.checkValues()[0]!));
    } catch (error) {
      // a read-only copy of the data is served without recording anything
      if (/^SQLITE_READONLY/.test(String((error as { code?: unknown }).code ?? ""))) return;
      throw error;
    }
    stored = await store.read((tx) => storedCheck(tx)); // another replica may have recorded its own first
  }
  compareKeyCheck(box, stored!, { newest: options.newest, what });
}

/**
 * The rotation: every stored secret opened with any of the box's keys and sealed again under the
 * newest, and the key check moved to it, in one write transaction. The number of secrets re-encrypted.
 */
export async function reencryptSecrets(store: Pick<Storage, "write" | "location">, box: SecretBox): Promise<number> {
  const what = `the platform at ${store.location}`;
  return store.write(async (tx) => {
    const stored = await storedCheck(tx);
    if (stored !== undefined) compareKeyCheck(box, stored, { newest: false, what });
    let count = 0;
    for (const sealed of SEALED_COLUMNS) {
      const rows = await tx.all<Row>(`SELECT ${sealed.keys.join(", ")}, ${sealed.column} AS sealed FROM ${sealed.table} WHERE ${sealed.column} IS NOT NULL`);
      for (const row of rows) {
        const boundTo = sealed.boundTo(row);
        let plain: string;
        try {
          plain = box.decrypt(String(row.sealed), boundTo);
        } catch {
          throw new SecretsKeyMismatch(`a secret of ${what} (${sealed.table} ${sealed.keys.map((k) => String(row[k])).join("/")}) opens with none of the keys of ${box.source}`);
        }
        const where = sealed.keys.map((k) => `${k} = ?`).join(" AND ");
        await tx.run(`UPDATE ${sealed.table} SET ${sealed.column} = ? WHERE ${where}`, box.encrypt(plain, boundTo), ...sealed.keys.map((k) => row[k]));
        count++;
      }
    }
    await tx.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", KEY_CHECK, box.checkValues()[0]!);
    return count;
  });
}

/** The key check value the platform holds, if any. */
export function storedKeyCheck(store: Pick<Storage, "read">): Promise<string | undefined> {
  return store.read((tx) => storedCheck(tx));
}

async function storedCheck(tx: Tx): Promise<string | undefined> {
  return (await tx.get<{ value: string }>("SELECT value FROM meta WHERE key = ?", KEY_CHECK))?.value;
}

/** A platform without a check value yet: one stored secret of each kind must open with the box. */
async function openOneOfEach(tx: Tx, box: SecretBox, what: string): Promise<void> {
  for (const sealed of SEALED_COLUMNS) {
    const row = await tx.get<Row>(`SELECT ${sealed.keys.join(", ")}, ${sealed.column} AS sealed FROM ${sealed.table} WHERE ${sealed.column} IS NOT NULL LIMIT 1`);
    if (!row) continue;
    try {
      box.decrypt(String(row.sealed), sealed.boundTo(row));
    } catch {
      throw new SecretsKeyMismatch(
        `${box.source} (key fingerprint ${keyFingerprint(box.checkValues()[0]!)}) is not the secrets key of ${what}: its stored secrets do not open with it; give the key it was written with`,
      );
    }
  }
}
