// Secrets at rest and random identifiers.
//
// - Secrets the platform must be able to read back (a connector's connection string, exporter API
//   keys, secret keys and passwords, a tunnel's private key) are encrypted with AES-256-GCM under a
//   random 32-byte key kept in `<data dir>/platform.key` (mode 0600). The row's id is bound in as
//   additional authenticated data, so a ciphertext copied to another row does not decrypt.
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
import { chmodSync, existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";

export const KEY_FILE = "platform.key";

/** Reads the data directory's key, creating it (atomically, 0600) on first use. */
export function loadOrCreateKey(dataDir: string): Buffer {
  const path = join(dataDir, KEY_FILE);
  for (let attempt = 0; attempt < 50; attempt++) {
    if (existsSync(path)) {
      const text = readFileSync(path, "utf8").trim();
      const key = Buffer.from(text, "base64");
      if (key.length === 32) return key;
      throw new Error(`the platform key file ${KEY_FILE} in the data directory is damaged (expected 32 bytes, base64)`);
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
 * The key of a platform on a shared database (PostgreSQL): every replica reads the same key from a
 * file it is given (`--secrets-key-file`, `SCHEMAFORM_SECRETS_KEY_FILE`) or from
 * `SCHEMAFORM_SECRETS_KEY`, 32 bytes in base64 (`openssl rand -base64 32`). It is never stored in
 * the database, so a copy of the database (a backup, a dump) does not reveal the secrets in it.
 */
export function loadSharedKey(file: string | undefined, env: NodeJS.ProcessEnv = process.env): Buffer {
  const path = file ?? env.SCHEMAFORM_SECRETS_KEY_FILE;
  let text: string;
  let source: string;
  if (path) {
    source = `the secrets key file ${path}`;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      throw new Error(`cannot read ${source}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  } else if (env.SCHEMAFORM_SECRETS_KEY) {
    source = "SCHEMAFORM_SECRETS_KEY";
    text = env.SCHEMAFORM_SECRETS_KEY;
  } else {
    throw new Error(
      "a platform on a shared database needs the secrets key every replica shares: give --secrets-key-file FILE or set SCHEMAFORM_SECRETS_KEY_FILE (or SCHEMAFORM_SECRETS_KEY) to 32 random bytes in base64, made once with `openssl rand -base64 32`",
    );
  }
  const key = Buffer.from(text.trim(), "base64");
  if (key.length !== 32) throw new Error(`${source} must hold 32 bytes in base64 (\`openssl rand -base64 32\`), found ${key.length} bytes`);
  return key;
}

/** Authenticated encryption of small secrets, bound to the row they belong to. */
export class SecretBox {
  readonly #key: Buffer;
  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error("SecretBox needs a 32-byte key");
    this.#key = key;
  }

  /** `v1.<iv>.<tag>.<ciphertext>` (base64url parts). */
  encrypt(plaintext: string, boundTo: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    cipher.setAAD(Buffer.from(boundTo, "utf8"));
    const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ct.toString("base64url")].join(".");
  }

  decrypt(sealed: string, boundTo: string): string {
    const [version, iv, tag, ct] = sealed.split(".");
    if (version !== "v1" || iv === undefined || tag === undefined || ct === undefined) throw new Error("unknown secret format");
    const decipher = createDecipheriv("aes-256-gcm", this.#key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(boundTo, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
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
  mac(purpose: string, data: string): Buffer {
    const subkey = createHmac("sha256", this.#key).update(`schemaform:${purpose}`).digest();
    return createHmac("sha256", subkey).update(data).digest();
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
