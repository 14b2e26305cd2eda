// The plugin's AutoMTLS certificate, written directly in DER (provider/transport/cert.ts): what
// Terraform's Go client needs of it (self-signed CA for localhost, serverAuth, a positive
// serial, unpadded base64 in the handshake), read back by OpenSSL through node:crypto.
import { X509Certificate, createPrivateKey, generateKeyPairSync, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createServerIdentity, selfSignedCertificate } from "../../provider/transport/cert.js";

describe("server identity", () => {
  it("is a self-signed CA certificate for localhost, for server and client auth, with its key", async () => {
    const identity = await createServerIdentity();
    const cert = new X509Certificate(identity.certPem);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.checkPrivateKey(createPrivateKey(identity.keyPem))).toBe(true);
    expect(cert.ca).toBe(true);
    expect(cert.subjectAltName).toBe("DNS:localhost");
    expect(cert.subject).toContain("CN=localhost");
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.keyUsage).toEqual(["1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"]);
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
    // Positive (top bit clear), 16 bytes.
    expect(cert.serialNumber).toMatch(/^[0-7][0-9A-F]{31}$/);
    const now = Date.now();
    expect(new Date(cert.validFrom).getTime()).toBeLessThanOrEqual(now);
    expect(new Date(cert.validTo).getTime()).toBeGreaterThan(now + 3600_000);
    // The handshake carries the DER, base64 without padding.
    expect(identity.certBase64).not.toMatch(/=/);
    expect(Buffer.from(identity.certBase64, "base64").equals(cert.raw)).toBe(true);
  });

  it("makes a new key and serial every time", async () => {
    const [a, b] = await Promise.all([createServerIdentity(), createServerIdentity()]);
    expect(a.keyPem).not.toBe(b.keyPem);
    expect(new X509Certificate(a.certPem).serialNumber).not.toBe(new X509Certificate(b.certPem).serialNumber);
  });

  it("writes dates from 2050 on as GeneralizedTime, which RFC 5280 requires", () => {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const der = selfSignedCertificate({
      serial: Buffer.concat([Buffer.from([0x11]), randomBytes(15)]),
      notBefore: new Date("2049-12-31T23:00:00Z"),
      notAfter: new Date("2051-06-01T12:00:00Z"),
      publicKeyInfo: publicKey.export({ type: "spki", format: "der" }),
      privateKey,
    });
    const cert = new X509Certificate(der);
    expect(new Date(cert.validFrom).toISOString()).toBe("2049-12-31T23:00:00.000Z");
    expect(new Date(cert.validTo).toISOString()).toBe("2051-06-01T12:00:00.000Z");
    expect(cert.verify(cert.publicKey)).toBe(true);
  });
});
