// The plugin's TLS identity, made fresh at every start (go-plugin AutoMTLS). Terraform pins
// the certificate we print in the handshake and connects with ServerName "localhost", so it must
// be self-signed, name DNS:localhost, allow serverAuth, and have a positive serial number.
//
// The certificate is one fixed shape, so it is written here directly in DER and signed with
// node:crypto: an X.509 library costs a plugin process 10-40 ms of loading and ASN.1 work per
// certificate, at every one of the several starts per Terraform command (and, in a resident
// server, at every connection).
import { generateKeyPair, randomBytes, sign, type KeyObject } from "node:crypto";

export interface ServerIdentity {
  keyPem: string;
  certPem: string;
  /** The DER certificate as unpadded base64 (Go's RawStdEncoding), for the handshake line. */
  certBase64: string;
}

export async function createServerIdentity(): Promise<ServerIdentity> {
  const { privateKey, publicKey } = await new Promise<{ privateKey: KeyObject; publicKey: KeyObject }>((resolve, reject) =>
    generateKeyPair("ec", { namedCurve: "P-256" }, (error, publicKey, privateKey) => (error ? reject(error) : resolve({ publicKey, privateKey }))),
  );
  const now = Date.now();
  const der = selfSignedCertificate({
    serial: positiveSerial(),
    // A little slack for clock differences; a plugin process lives minutes at most (a
    // resident server makes a new identity for each connection).
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 24 * 3600_000),
    publicKeyInfo: publicKey.export({ type: "spki", format: "der" }),
    privateKey,
  });
  const base64 = der.toString("base64");
  return {
    keyPem: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
    certPem: `-----BEGIN CERTIFICATE-----\n${base64.replace(/.{1,64}/g, "$&\n")}-----END CERTIFICATE-----\n`,
    // Padding breaks Terraform for 2 of 3 certificate lengths ("illegal base64 data").
    certBase64: base64.replace(/=+$/, ""),
  };
}

interface CertificateFields {
  serial: Buffer;
  notBefore: Date;
  notAfter: Date;
  /** SubjectPublicKeyInfo, DER. */
  publicKeyInfo: Buffer;
  privateKey: KeyObject;
}

// DER building blocks (X.690): tag, length, contents.
function tlv(tag: number, ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents);
  const n = body.length;
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...length]), body]);
}
const sequence = (...items: Buffer[]) => tlv(0x30, ...items);
const set = (...items: Buffer[]) => tlv(0x31, ...items);
const octetString = (contents: Buffer) => tlv(0x04, contents);
const TRUE = Buffer.from([0x01, 0x01, 0xff]);
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, "utf8"));

function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split(".").map(Number);
  const bytes = [first! * 40 + second!];
  for (const arc of rest) {
    const groups = [arc & 0x7f];
    for (let value = arc >>> 7; value > 0; value >>>= 7) groups.unshift((value & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime (years 1950-2049), else GeneralizedTime, as RFC 5280 requires. */
function time(date: Date): Buffer {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const digits = iso.slice(0, 19).replace(/[-:T]/g, "");
  const year = date.getUTCFullYear();
  return year >= 1950 && year < 2050 ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${digits}Z`));
}

const ECDSA_WITH_SHA256 = sequence(oid("1.2.840.10045.4.3.2"));
const NAME = sequence(set(sequence(oid("2.5.4.3"), utf8("localhost"))), set(sequence(oid("2.5.4.10"), utf8("schemaform"))));
const EXTENSIONS = tlv(
  0xa3,
  sequence(
    // basicConstraints, critical: CA (the certificate is its own root in Terraform's pool).
    sequence(oid("2.5.29.19"), TRUE, octetString(sequence(TRUE))),
    // keyUsage, critical: digitalSignature and keyCertSign (bits 0 and 5; 2 unused bits).
    sequence(oid("2.5.29.15"), TRUE, octetString(Buffer.from([0x03, 0x02, 0x02, 0x84]))),
    // extKeyUsage: serverAuth, clientAuth.
    sequence(oid("2.5.29.37"), octetString(sequence(oid("1.3.6.1.5.5.7.3.1"), oid("1.3.6.1.5.5.7.3.2")))),
    // subjectAltName: dNSName localhost ([2] IMPLICIT IA5String).
    sequence(oid("2.5.29.17"), octetString(sequence(tlv(0x82, Buffer.from("localhost", "ascii"))))),
  ),
);

/** A self-signed X.509 v3 certificate (ECDSA P-256 with SHA-256), DER. */
export function selfSignedCertificate(fields: CertificateFields): Buffer {
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([0x02]))), // version v3
    tlv(0x02, fields.serial),
    ECDSA_WITH_SHA256,
    NAME,
    sequence(time(fields.notBefore), time(fields.notAfter)),
    NAME,
    fields.publicKeyInfo,
    EXTENSIONS,
  );
  const signature = sign("sha256", tbs, fields.privateKey); // DER ECDSA-Sig-Value
  return sequence(tbs, ECDSA_WITH_SHA256, tlv(0x03, Buffer.from([0x00]), signature));
}

/** 16 random bytes with the top bit clear (a DER INTEGER that is positive) and a non-zero first byte. */
function positiveSerial(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return bytes;
}
