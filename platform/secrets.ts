// Secrets at rest and random identifiers.
//
// - Secrets the platform must be able to read back (a connector's connection string, exporter API
//   keys, secret keys and passwords, a tunnel's private key) are encrypted with AES-256-GCM under a
//   random 32-byte key kept in `<data dir>/platform.key` (mode 0600), or the shared key file of a
//   PostgreSQL platform (several keys during a rotation: the newest encrypts, any decrypts). The
//   row's id is bound in as additional authenticated data, so a ciphertext copied to another row
//   does not decrypt. Key files others can read are refused.
// - Secrets the platform only needs to check (service passwords, `password_wo`) are kept as
//   scrypt hashes; credential secrets and access tokens (high-entropy random strings) as salted
//   SHA-256.

import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  generateKeyPairSync,
  randomBytes,
  randomInt,
  randomUUID,
  scrypt,
  timingSafeEqual,
  type ScryptOptions,
} from "node:crypto";
import { chmodSync, existsSync, linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";

export const KEY_FILE = "platform.key";

/**
 * The secrets keys a platform is opened with, the newest last: secrets are encrypted with the
 * newest and opened with whichever key sealed them (rotation: platform migrate re-encrypts every
 * secret under the newest, key-check.ts). `source` names where they came from (a file, a variable)
 * for messages; a key itself is never printed, only its fingerprint.
 */
export interface SecretsKeys {
  keys: Buffer[];
  source: string;
}

const KEY_HELP = "32 random bytes in base64, made with `openssl rand -base64 32`";

/** Keys from text: one or more, base64, separated by newlines, commas or spaces; `#` starts a comment line. */
export function parseKeys(text: string, source: string): Buffer[] {
  const words = text
    .split("\n")
    .filter((line) => !line.trim().startsWith("#"))
    .join(" ")
    .split(/[\s,]+/)
    .filter((word) => word !== "");
  if (words.length === 0) throw new Error(`${source} holds no key (${KEY_HELP})`);
  return words.map((word, i) => {
    const key = Buffer.from(word, "base64");
    if (key.length !== 32) throw new Error(`${source} must hold keys of 32 bytes in base64 (${KEY_HELP}); key ${i + 1} has ${key.length} bytes`);
    return key;
  });
}

/**
 * Refuses a key file that others than its owner may read or write, as ssh refuses such a private
 * key: a key readable by a group or by everyone is a key shared with them.
 */
export function checkKeyFileMode(path: string): void {
  if (process.platform === "win32") return;
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new Error(`the secrets key file ${path} is accessible by others than its owner (mode ${mode.toString(8).padStart(4, "0")}); it must be private: run \`chmod 600 ${path}\``);
  }
}

function readKeyFile(path: string, source: string): Buffer[] {
  let text: string;
  try {
    checkKeyFileMode(path);
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    throw new Error(`cannot read ${source}: ${code}`);
  }
  return parseKeys(text, source);
}

/** Reads the data directory's key, creating it (atomically, 0600) on first use. */
export function loadOrCreateKey(dataDir: string): SecretsKeys {
  const path = join(dataDir, KEY_FILE);
  for (let attempt = 0; attempt < 50; attempt++) {
    if (existsSync(path)) {
      const source = `the platform key file ${path}`;
      try {
        return { keys: readKeyFile(path, source), source };
      } catch (error) {
        if (/must hold keys|holds no key/.test((error as Error).message)) {
          throw new Error(`the platform key file ${KEY_FILE} in the data directory is damaged (expected 32 bytes, base64)`);
        }
        throw error;
      }
    }
    // Write a complete file under a private name, then link it into place: link() fails if another
    // process won the race, and a reader never sees a half-written key.
    const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    writeFileSync(tmp, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
    try {
      chmodSync(tmp, 0o600);
      linkSync(tmp, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      unlinkSync(tmp);
    }
  }
  throw new Error("could not create the platform key file");
}

/**
 * The keys of a platform on a shared database (PostgreSQL): every replica reads the same keys from
 * the files it is given (`--secrets-key-file`, several times for a rotation, or
 * `SCHEMAFORM_SECRETS_KEY_FILE`) or from `SCHEMAFORM_SECRETS_KEY`, 32 bytes in base64 each
 * (`openssl rand -base64 32`), the newest last. They are never stored in the database, so a copy
 * of the database (a backup, a dump) does not reveal the secrets in it.
 */
export function loadSharedKey(files: string | string[] | undefined, env: NodeJS.ProcessEnv = process.env): SecretsKeys {
  const given = typeof files === "string" ? [files] : (files ?? []);
  const paths = given.length > 0 ? given : env.SCHEMAFORM_SECRETS_KEY_FILE ? [env.SCHEMAFORM_SECRETS_KEY_FILE] : [];
  if (paths.length > 0) {
    const source = paths.length === 1 ? `the secrets key file ${paths[0]}` : `the secrets key files ${paths.join(", ")}`;
    return { keys: paths.flatMap((path) => readKeyFile(path, `the secrets key file ${path}`)), source };
  }
  if (env.SCHEMAFORM_SECRETS_KEY) return { keys: parseKeys(env.SCHEMAFORM_SECRETS_KEY, "SCHEMAFORM_SECRETS_KEY"), source: "SCHEMAFORM_SECRETS_KEY" };
  throw new Error(
    "a platform on a shared database needs the secrets key every replica shares: give --secrets-key-file FILE or set SCHEMAFORM_SECRETS_KEY_FILE (or SCHEMAFORM_SECRETS_KEY) to 32 random bytes in base64, made once with `openssl rand -base64 32`",
  );
}

/** A short name of a key for messages (an HMAC under the key: tells keys apart, reveals nothing of them). */
export function keyCheckValue(key: Buffer): string {
  return createHmac("sha256", key).update("schemaform:secrets-key-check").digest("hex");
}

export function keyFingerprint(checkValue: string): string {
  return checkValue.slice(0, 12);
}

/** Authenticated encryption of small secrets, bound to the row they belong to. */
export class SecretBox {
  /** the newest key: encrypts and signs */
  readonly #key: Buffer;
  /** every key, the newest first: the order decryption tries them in */
  readonly #keys: Buffer[];
  /** where the keys came from, for messages */
  readonly source: string;

  constructor(keys: Buffer | SecretsKeys) {
    const list = Buffer.isBuffer(keys) ? [keys] : keys.keys;
    if (list.length === 0 || list.some((key) => key.length !== 32)) throw new Error("SecretBox needs 32-byte keys");
    this.#keys = [...list].reverse();
    this.#key = this.#keys[0]!;
    this.source = Buffer.isBuffer(keys) ? "the secrets key" : keys.source;
  }

  /** The key check value of each key, the newest first (key-check.ts). */
  checkValues(): string[] {
    return this.#keys.map(keyCheckValue);
  }

  /** `v1.<iv>.<tag>.<ciphertext>` (base64url parts). */
  encrypt(plaintext: string, boundTo: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    cipher.setAAD(Buffer.from(boundTo, "utf8"));
    const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ct.toString("base64url")].join(".");
  }

  /** Opens a secret sealed under any of the keys (AES-GCM's tag tells which: the others fail). */
  decrypt(sealed: string, boundTo: string): string {
    const [version, iv, tag, ct] = sealed.split(".");
    if (version !== "v1" || iv === undefined || tag === undefined || ct === undefined) throw new Error("unknown secret format");
    let failure: unknown;
    for (const key of this.#keys) {
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
        decipher.setAAD(Buffer.from(boundTo, "utf8"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  }

  /** Encrypts a JSON object of secrets; `undefined` when there is nothing to keep. */
  seal(secrets: Record<string, unknown>, boundTo: string): string | null {
    const present = Object.fromEntries(Object.entries(secrets).filter(([, v]) => v !== undefined && v !== null));
    return Object.keys(present).length === 0 ? null : this.encrypt(JSON.stringify(present), boundTo);
  }

  open(sealed: string | null, boundTo: string): Record<string, unknown> {
    return sealed ? (JSON.parse(this.decrypt(sealed, boundTo)) as Record<string, unknown>) : {};
  }

  /** A keyed MAC (for signing short-lived tokens), from a key derived for that purpose only. */
  mac(purpose: string, data: string, key: Buffer = this.#key): Buffer {
    const subkey = createHmac("sha256", key).update(`schemaform:${purpose}`).digest();
    return createHmac("sha256", subkey).update(data).digest();
  }

  /** The MAC under each key, the newest first: a value made before a rotation still matches. */
  macs(purpose: string, data: string): Buffer[] {
    return this.#keys.map((key) => this.mac(purpose, data, key));
  }
}

// --- password hashes (scrypt) ------------------------------------------------------------------
// One hash costs tens of milliseconds of CPU and 16 MiB: it runs on libuv's thread pool (the
// asynchronous crypto.scrypt), so the server's event loop keeps answering other requests meanwhile.

const SCRYPT_N = 16384;
const SCRYPT_R = 8;
const SCRYPT_P = 1;

// Hashes run on all cores but one (at least one hash at a time), the rest wait their turn: the
// pool has 4 threads however many cores there are, and 4 hashes on a 2-core machine leave the
// event loop waiting for a core (health p90 30 ms instead of 10 under load, bench/platform.mjs).
const HASH_SLOTS = Math.max(1, availableParallelism() - 1);
let hashesRunning = 0;
const waitingForSlot: Array<() => void> = [];

async function scryptAsync(password: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  if (hashesRunning >= HASH_SLOTS) await new Promise<void>((resolve) => waitingForSlot.push(resolve));
  else hashesRunning++;
  try {
    return await new Promise((resolve, reject) => scrypt(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key))));
  } finally {
    // hand the slot straight to the next in line, else free it
    const next = waitingForSlot.shift();
    if (next) next();
    else hashesRunning--;
  }
}

/** `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32, { N: SCRYPT_N, r: SCRYPT_R, p: SCRYPT_P });
  return `scrypt$${SCRYPT_N}$${SCRYPT_R}$${SCRYPT_P}$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false;
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, "base64url");
  const actual = await scryptAsync(password, Buffer.from(salt, "base64url"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

// --- token hashes (salted SHA-256; for high-entropy random secrets only) -----------------------

export function hashToken(secret: string, salt: string = randomBytes(16).toString("base64url")): string {
  return `sha256$${salt}$${createHash("sha256").update(`${salt}:${secret}`).digest("base64url")}`;
}

export function verifyToken(secret: string, stored: string): boolean {
  const parts = stored.split("$");
  if (parts.length !== 3 || parts[0] !== "sha256") return false;
  const expected = Buffer.from(hashToken(secret, parts[1]), "utf8");
  const actual = Buffer.from(stored, "utf8");
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Unsalted SHA-256, for looking a random token up by its hash. */
export function tokenLookupHash(secret: string): string {
  return createHash("sha256").update(secret).digest("base64url");
}

// --- random values -----------------------------------------------------------------------------

const LOWER_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";
const PASSWORD_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

export function randomString(length: number, alphabet: string = LOWER_ALNUM): string {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** Service id: 10 lowercase letters and digits, starting with a letter. */
export function newServiceId(): string {
  return randomString(1, "abcdefghijklmnopqrstuvwxyz") + randomString(9);
}

/** A generated database password: 24 characters from an unambiguous alphabet (~140 bits). */
export function newPassword(): string {
  return randomString(24, PASSWORD_CHARS);
}

export function randomHex(length: number): string {
  return randomBytes(Math.ceil(length / 2)).toString("hex").slice(0, length);
}

/** A number with exactly `digits` digits (no leading zero). */
export function randomDigits(digits: number): string {
  return String(randomInt(10 ** (digits - 1), 10 ** digits));
}

export function newUuid(): string {
  return randomUUID();
}

export function newEtag(): string {
  return randomBytes(12).toString("base64url");
}

// --- SSH key pairs -----------------------------------------------------------------------------

function sshString(data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length, 0);
  return Buffer.concat([len, data]);
}

/**
 * A fresh Ed25519 key pair: the public key in OpenSSH `authorized_keys` form
 * (`ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA… comment`) and the private key as PKCS#8 PEM.
 */
export function generateSshKeyPair(comment: string): { publicKey: string; privateKeyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const jwk = publicKey.export({ format: "jwk" });
  if (typeof jwk.x !== "string") throw new Error("ed25519 key export failed");
  const raw = Buffer.from(jwk.x, "base64url");
  const blob = Buffer.concat([sshString(Buffer.from("ssh-ed25519")), sshString(raw)]);
  return {
    publicKey: `ssh-ed25519 ${blob.toString("base64")} ${comment}`,
    privateKeyPem: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
  };
}
