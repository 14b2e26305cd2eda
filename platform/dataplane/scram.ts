// tsdbadmin's SCRAM-SHA-256 verifier, in the form PostgreSQL stores in pg_authid and accepts in
// `ALTER ROLE … PASSWORD '<verifier>'`: SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>
// (RFC 5802/7677, base64). Computed by the control plane whenever a password is set, generated or
// rotated, so that the plaintext is never stored: the database checks logins against it.
//
// The password is used as its UTF-8 bytes, without SASLprep, as node-postgres does; for the
// ASCII passwords the platform generates, SASLprep changes nothing, so psql agrees too.

import { createHash, createHmac, pbkdf2, randomBytes, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const pbkdf2Async = promisify(pbkdf2);

/** PostgreSQL's default (scram_iterations). */
export const SCRAM_ITERATIONS = 4096;

export async function scramVerifier(password: string, salt: Buffer = randomBytes(16), iterations = SCRAM_ITERATIONS): Promise<string> {
  // PostgreSQL prepares a password (SASLprep) before hashing it; NFKC is the part of that which
  // changes anything a person types
  const salted = await pbkdf2Async(Buffer.from(password.normalize("NFKC"), "utf8"), salt, iterations, 32, "sha256");
  const clientKey = createHmac("sha256", salted).update("Client Key").digest();
  const storedKey = createHash("sha256").update(clientKey).digest();
  const serverKey = createHmac("sha256", salted).update("Server Key").digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
}

const VERIFIER = /^SCRAM-SHA-256\$(\d+):([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+):([A-Za-z0-9+/=]+)$/;

/** Whether `verifier` is a well-formed SCRAM-SHA-256 verifier (never a plaintext). */
export function isScramVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

/** Whether `password` matches `verifier` (recomputes the StoredKey with the verifier's salt). */
export async function checkScram(password: string, verifier: string): Promise<boolean> {
  const m = VERIFIER.exec(verifier);
  if (!m) return false;
  const expected = Buffer.from(await scramVerifier(password, Buffer.from(m[2]!, "base64"), Number(m[1])));
  const given = Buffer.from(verifier);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
