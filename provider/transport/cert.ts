// The plugin's TLS identity, made fresh at every start (go-plugin AutoMTLS). Terraform pins
// the certificate we print in the handshake and connects with ServerName "localhost", so it must
// be self-signed, name DNS:localhost, allow serverAuth, and have a positive serial number.
//
// The certificate is assembled here in DER by hand (a few fixed ASN.1 structures) and signed
// with node:crypto: an X.509 library costs 40-60 ms of loading and initialisation at every
// start, and Terraform starts several provider processes per command.
import { type KeyObject, generateKeyPairSync, randomBytes, sign } from "node:crypto";

export interface ServerIdentity {
  keyPem: string;
  certPem: string;
  /** The DER certificate as unpadded base64 (Go's RawStdEncoding), for the handshake line. */
  certBase64: string;
}

/** A little slack for clock differences; the process lives minutes at most. */
const NOT_BEFORE_SLACK_MS = 60_000;
const LIFETIME_MS = 24 * 3600_000;

export async function createServerIdentity(): Promise<ServerIdentity> {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const der = selfSignedCertificate(privateKey, publicKey, Date.now());
  const base64 = der.toString("base64");
  return {
    keyPem: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
    certPem: `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----\n`,
    // Padding breaks Terraform for 2 of 3 certificate lengths ("illegal base64 data").
    certBase64: base64.replace(/=+$/, ""),
  };
}

// ---------------------------------------------------------------------------------------------
// DER

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const n = body.length;
  let header: number[];
  if (n < 0x80) header = [tag, n];
  else if (n < 0x100) header = [tag, 0x81, n];
  else if (n < 0x10000) header = [tag, 0x82, n >> 8, n & 0xff];
  else header = [tag, 0x83, n >> 16, (n >> 8) & 0xff, n & 0xff];
  return Buffer.concat([Buffer.from(header), body]);
}

const sequence = (...items: Buffer[]) => tlv(0x30, ...items);
const set = (...items: Buffer[]) => tlv(0x31, ...items);
const octetString = (content: Buffer) => tlv(0x04, content);
const bitString = (content: Buffer, unusedBits = 0) => tlv(0x03, Buffer.from([unusedBits]), content);
const utf8String = (text: string) => tlv(0x0c, Buffer.from(text, "utf8"));
const TRUE = Buffer.from([0x01, 0x01, 0xff]);

function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split(".").map(Number);
  const bytes = [first! * 40 + second!];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let v = arc >>> 7; v > 0; v >>>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime up to 2049, GeneralizedTime after (RFC 5280 section 4.1.2.5). */
function time(ms: number): Buffer {
  const iso = new Date(ms).toISOString(); // 2026-11-22T06:36:42.271Z
  const digits = iso.slice(0, 19).replace(/[-:T]/g, ""); // 20261122063642
  const year = Number(iso.slice(0, 4));
  return year < 2050 ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${digits}Z`));
}

/** 16 random bytes with the top bit clear (a DER INTEGER that is positive) and a non-zero first byte. */
function positiveSerial(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return tlv(0x02, bytes);
}

const ECDSA_WITH_SHA256 = sequence(oid("1.2.840.10045.4.3.2"));

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? sequence(oid(id), TRUE, octetString(value)) : sequence(oid(id), octetString(value));
}

function selfSignedCertificate(privateKey: KeyObject, publicKey: KeyObject, now: number): Buffer {
  // CN=localhost, O=schemaform
  const name = sequence(set(sequence(oid("2.5.4.3"), utf8String("localhost"))), set(sequence(oid("2.5.4.10"), utf8String("schemaform"))));
  const extensions = sequence(
    // basicConstraints: CA (the certificate is its own issuer), critical
    extension("2.5.29.19", true, sequence(TRUE)),
    // keyUsage: digitalSignature (bit 0) and keyCertSign (bit 5), critical
    extension("2.5.29.15", true, bitString(Buffer.from([0x84]), 2)),
    // extKeyUsage: serverAuth, clientAuth
    extension("2.5.29.37", false, sequence(oid("1.3.6.1.5.5.7.3.1"), oid("1.3.6.1.5.5.7.3.2"))),
    // subjectAltName: DNS:localhost ([2] IMPLICIT IA5String)
    extension("2.5.29.17", false, sequence(tlv(0x82, Buffer.from("localhost")))),
  );
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))), // version v3
    positiveSerial(),
    ECDSA_WITH_SHA256,
    name, // issuer
    sequence(time(now - NOT_BEFORE_SLACK_MS), time(now + LIFETIME_MS)),
    name, // subject
    publicKey.export({ type: "spki", format: "der" }),
    tlv(0xa3, extensions),
  );
  // For EC keys node:crypto signs in the DER form X.509 expects (dsaEncoding "der").
  return sequence(tbs, ECDSA_WITH_SHA256, bitString(sign("sha256", tbs, privateKey)));
}
