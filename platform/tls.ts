// The server's certificate and private key (`platform serve --tls-cert FILE --tls-key FILE`), read and
// checked before the server starts, so that a wrong file is reported at start-up, naming the file,
// rather than at the first handshake. Messages never quote a file's content: the key is a secret.

import { X509Certificate, createPrivateKey, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";
import { createSecureContext } from "node:tls";

export interface TlsFiles {
  /** PEM: the server's certificate, then any intermediate certificates */
  cert: Buffer;
  /** PEM: the certificate's private key (unencrypted) */
  key: Buffer;
}

export class TlsSetupError extends Error {}

/**
 * The cert and key files (flags, else `SCHEMAFORM_TLS_CERT` / `SCHEMAFORM_TLS_KEY`), or undefined for
 * plain HTTP. One without the other is an error: a server meant to speak TLS must never silently
 * fall back to plain HTTP.
 */
export function tlsFilesFrom(certFile: string | undefined, keyFile: string | undefined, env: NodeJS.ProcessEnv = process.env): { certFile: string; keyFile: string } | undefined {
  const cert = certFile ?? (env.SCHEMAFORM_TLS_CERT || undefined);
  const key = keyFile ?? (env.SCHEMAFORM_TLS_KEY || undefined);
  if (cert === undefined && key === undefined) return undefined;
  if (cert === undefined) throw new TlsSetupError("--tls-key needs --tls-cert (or SCHEMAFORM_TLS_CERT): the certificate the key belongs to");
  if (key === undefined) throw new TlsSetupError("--tls-cert needs --tls-key (or SCHEMAFORM_TLS_KEY): the certificate's private key");
  return { certFile: cert, keyFile: key };
}

/** Reads both files and checks that they are PEM, that the key is a private key, and that it belongs to the certificate. */
export function loadTlsFiles(certFile: string, keyFile: string): TlsFiles {
  const cert = readPem(certFile, "certificate");
  const key = readPem(keyFile, "private key");
  let parsed: X509Certificate;
  try {
    parsed = new X509Certificate(cert);
  } catch {
    throw new TlsSetupError(`the TLS certificate file ${certFile} does not hold a PEM certificate (-----BEGIN CERTIFICATE-----)`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    // the parser's message may quote part of the input: say what is wrong without it
    throw new TlsSetupError(`the TLS key file ${keyFile} does not hold an unencrypted PEM private key (-----BEGIN PRIVATE KEY----- or -----BEGIN RSA/EC PRIVATE KEY-----)`);
  }
  if (!parsed.checkPrivateKey(privateKey)) {
    throw new TlsSetupError(`the TLS key file ${keyFile} does not belong to the certificate in ${certFile}`);
  }
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    throw new TlsSetupError(`the TLS certificate ${certFile} and key ${keyFile} cannot be used together: ${(error as { code?: string }).code ?? "rejected by OpenSSL"}`);
  }
  if (Date.parse(parsed.validTo) < Date.now()) {
    throw new TlsSetupError(`the TLS certificate in ${certFile} expired on ${parsed.validTo}`);
  }
  return { cert, key };
}

function readPem(file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new TlsSetupError(`cannot read the TLS ${what} file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}
