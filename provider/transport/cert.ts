// The plugin's TLS identity, made fresh at every start (go-plugin AutoMTLS). Terraform pins
// the certificate we print in the handshake and connects with ServerName "localhost", so it must
// be self-signed, name DNS:localhost, allow serverAuth, and have a positive serial number.
import "reflect-metadata";
import { webcrypto, KeyObject } from "node:crypto";

export interface ServerIdentity {
  keyPem: string;
  certPem: string;
  /** The DER certificate as unpadded base64 (Go's RawStdEncoding), for the handshake line. */
  certBase64: string;
}

const ALGORITHM = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };

export async function createServerIdentity(): Promise<ServerIdentity> {
  // The key is made on libuv's thread pool while x509 initialises here (x509 is loaded only
  // when TLS is on: plaintext processes never pay for it).
  const pending = webcrypto.subtle.generateKey(ALGORITHM, true, ["sign", "verify"]) as Promise<webcrypto.CryptoKeyPair>;
  const x509 = await import("@peculiar/x509");
  // Node's WebCrypto is the implementation x509 expects; the types differ only by lib (DOM vs node).
  x509.cryptoProvider.set(webcrypto as never);
  const keys = await pending;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: positiveSerial(),
    name: "CN=localhost, O=schemaform",
    // A little slack for clock differences; the process lives minutes at most.
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 24 * 3600_000),
    signingAlgorithm: ALGORITHM,
    keys: keys as never,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
      new x509.SubjectAlternativeNameExtension([{ type: "dns", value: "localhost" }]),
    ],
  });
  const keyPem = KeyObject.from(keys.privateKey).export({ type: "pkcs8", format: "pem" }) as string;
  return {
    keyPem,
    certPem: cert.toString("pem"),
    // Padding breaks Terraform for 2 of 3 certificate lengths ("illegal base64 data").
    certBase64: Buffer.from(cert.rawData).toString("base64").replace(/=+$/, ""),
  };
}

/** 16 random bytes with the top bit clear (a DER INTEGER that is positive) and a non-zero first byte. */
function positiveSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return Buffer.from(bytes).toString("hex");
}
