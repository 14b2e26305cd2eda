// A private certificate authority for the tests of https: a CA and a server certificate for
// 127.0.0.1 that it signed, made in memory (no openssl needed).
import { webcrypto, KeyObject } from "node:crypto";
import "reflect-metadata";
import * as x509 from "@peculiar/x509";

const ALGORITHM = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };

/** A CA and a server certificate for 127.0.0.1 that it signed, as PEM. */
export async function privatePki(): Promise<{ caPem: string; keyPem: string; certPem: string }> {
  x509.cryptoProvider.set(webcrypto as never);
  const now = Date.now();
  const validity = { notBefore: new Date(now - 60_000), notAfter: new Date(now + 3600_000) };
  const caKeys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ["sign", "verify"])) as webcrypto.CryptoKeyPair;
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    ...validity,
    serialNumber: "01",
    name: "CN=schemaform test CA",
    signingAlgorithm: ALGORITHM,
    keys: caKeys as never,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey as never),
    ],
  });
  const serverKeys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ["sign", "verify"])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    ...validity,
    serialNumber: "02",
    issuer: ca.subject,
    subject: "CN=platform.test",
    signingAlgorithm: ALGORITHM,
    publicKey: serverKeys.publicKey as never,
    signingKey: caKeys.privateKey as never,
    extensions: [
      new x509.SubjectAlternativeNameExtension([{ type: "ip", value: "127.0.0.1" }]),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey as never),
    ],
  });
  const keyPem = KeyObject.from(serverKeys.privateKey).export({ type: "pkcs8", format: "pem" }) as string;
  return { caPem: ca.toString("pem"), keyPem, certPem: cert.toString("pem") };
}

