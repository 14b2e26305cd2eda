// The platform's own certificate authority, and the server certificates it signs for the local
// clusters (127.0.0.1 and localhost), so that `sslmode=require` works unchanged and
// `sslmode=verify-full sslrootcert=<caDir>/ca.crt` verifies the server. Made with Node's WebCrypto
// and @peculiar/x509 (no openssl executable), loaded only when a certificate is made (processes
// that never make one, like a provider plugin, do not pay for it). The CA's key never leaves caDir
// (0700, key 0600).

import { X509Certificate, createPrivateKey, webcrypto } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as X509 from "@peculiar/x509";

const ALGORITHM = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const DAY_MS = 86_400_000;
const CA_DAYS = 3650;
const SERVER_DAYS = 825;
/** a server certificate this close to its end is replaced on the next apply */
const RENEW_BEFORE_DAYS = 30;

export const CA_CERT_FILE = "ca.crt";
const CA_KEY_FILE = "ca.key";

export interface ServerCertificate {
  certPem: string;
  keyPem: string;
}

interface Authority {
  cert: X509.X509Certificate;
  key: webcrypto.CryptoKey;
}

let library: Promise<typeof X509> | undefined;
function x509Library(): Promise<typeof X509> {
  library ??= (async () => {
    await import("reflect-metadata");
    const x509 = await import("@peculiar/x509");
    x509.cryptoProvider.set(webcrypto as never);
    return x509;
  })();
  return library;
}

const subtle = webcrypto.subtle;

function serial(): string {
  // positive (high bit clear), 16 random bytes
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = bytes[0]! & 0x7f;
  return Buffer.from(bytes).toString("hex");
}

function pemOfKey(der: ArrayBuffer): string {
  const base64 = Buffer.from(der).toString("base64").replace(/.{64}/g, "$&\n").trimEnd();
  return `-----BEGIN PRIVATE KEY-----\n${base64}\n-----END PRIVATE KEY-----\n`;
}

function writePrivate(file: string, content: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, content, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, file);
}

async function loadAuthority(caDir: string): Promise<Authority | undefined> {
  const certFile = join(caDir, CA_CERT_FILE);
  const keyFile = join(caDir, CA_KEY_FILE);
  if (!existsSync(certFile) || !existsSync(keyFile)) return undefined;
  const x509 = await x509Library();
  const cert = new x509.X509Certificate(readFileSync(certFile, "utf8"));
  let der: Buffer;
  try {
    der = createPrivateKey(readFileSync(keyFile)).export({ type: "pkcs8", format: "der" });
  } catch {
    throw new Error(`the platform CA key ${keyFile} holds no PEM private key`);
  }
  const key = await subtle.importKey("pkcs8", der, ALGORITHM, false, ["sign"]);
  return { cert, key };
}

async function createAuthority(caDir: string): Promise<Authority> {
  const x509 = await x509Library();
  const keys = (await subtle.generateKey(ALGORITHM, true, ["sign", "verify"])) as webcrypto.CryptoKeyPair;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: "CN=schemaform local data plane CA",
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + CA_DAYS * DAY_MS),
    signingAlgorithm: ALGORITHM,
    keys: keys as never,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey as never),
    ],
  });
  // the key first: a certificate without its key would be taken for a complete CA
  writePrivate(join(caDir, CA_KEY_FILE), pemOfKey(await subtle.exportKey("pkcs8", keys.privateKey)));
  writeFileSync(join(caDir, CA_CERT_FILE), cert.toString("pem") + "\n", { mode: 0o644 });
  return { cert, key: keys.privateKey };
}

const pending = new Map<string, Promise<Authority>>();

/** The platform CA in caDir, made on first use. */
async function authority(caDir: string): Promise<Authority> {
  let loading = pending.get(caDir);
  if (!loading) {
    loading = (async () => {
      mkdirSync(caDir, { recursive: true, mode: 0o700 });
      return (await loadAuthority(caDir)) ?? (await createAuthority(caDir));
    })();
    pending.set(caDir, loading);
    loading.catch(() => pending.delete(caDir));
  }
  return loading;
}

/** Makes the CA (once) and returns its certificate file: what clients give as sslrootcert. */
export async function ensureCa(caDir: string): Promise<string> {
  await authority(caDir);
  return join(caDir, CA_CERT_FILE);
}

/** A new server certificate for 127.0.0.1 and localhost, signed by the platform CA. */
export async function issueServerCertificate(caDir: string, commonName: string): Promise<ServerCertificate> {
  const ca = await authority(caDir);
  const x509 = await x509Library();
  const keys = (await subtle.generateKey(ALGORITHM, true, ["sign", "verify"])) as webcrypto.CryptoKeyPair;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    issuer: ca.cert.subject,
    subject: `CN=${commonName.replace(/[,=+<>#;"\\]/g, "_")}`,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + SERVER_DAYS * DAY_MS),
    signingAlgorithm: ALGORITHM,
    publicKey: keys.publicKey as never,
    signingKey: ca.key as never,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: "ip", value: "127.0.0.1" },
        { type: "dns", value: "localhost" },
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(ca.cert),
    ],
  });
  return { certPem: cert.toString("pem") + "\n", keyPem: pemOfKey(await subtle.exportKey("pkcs8", keys.privateKey)) };
}

/**
 * True when the PEM certificate file is missing, unreadable, ends within RENEW_BEFORE_DAYS, or was
 * not signed by the CA in caDir now (a CA made again: clients verifying with ca.crt would refuse it).
 */
export function certificateNeedsRenewal(certFile: string, caDir: string): boolean {
  try {
    const cert = new X509Certificate(readFileSync(certFile));
    const ca = new X509Certificate(readFileSync(join(caDir, CA_CERT_FILE)));
    return Date.parse(cert.validTo) - Date.now() < RENEW_BEFORE_DAYS * DAY_MS || !cert.verify(ca.publicKey);
  } catch {
    return true;
  }
}
