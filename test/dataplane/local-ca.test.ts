// The platform CA of the local data plane: made once, kept private, read back by a later process,
// and signing server certificates that a client verifying 127.0.0.1 or localhost accepts.

import { X509Certificate, createPrivateKey } from "node:crypto";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { tempDir } from "../platform/helpers.js";

type CaModule = typeof import("../../platform/dataplane/local/ca.js");

/** The module as a new process would load it (nothing cached in memory). */
async function freshCa(): Promise<CaModule> {
  vi.resetModules();
  return import("../../platform/dataplane/local/ca.js");
}

describe("local data-plane CA", () => {
  it("signs server certificates for 127.0.0.1 and localhost with one CA, kept across processes", async () => {
    const dir = join(tempDir("schemaform-ca-"), "ca");
    const first = await freshCa();
    const caFile = await first.ensureCa(dir);
    const caPem = readFileSync(caFile, "utf8");
    expect(statSync(dir).mode & 0o077).toBe(0);
    expect(statSync(join(dir, "ca.key")).mode & 0o077).toBe(0);
    const ca = new X509Certificate(caPem);
    expect(ca.ca).toBe(true);

    const issued = await first.issueServerCertificate(dir, "svc-1 local data plane");
    const cert = new X509Certificate(issued.certPem);
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.checkIP("127.0.0.1")).toBe("127.0.0.1");
    expect(cert.checkHost("localhost")).toBe("localhost");
    expect(cert.checkHost("example.com")).toBeUndefined();
    expect(cert.checkPrivateKey(createPrivateKey(issued.keyPem))).toBe(true);

    // a later process: the same CA from its files, not a new one
    const later = await freshCa();
    expect(await later.ensureCa(dir)).toBe(caFile);
    expect(readFileSync(caFile, "utf8")).toBe(caPem);
    const again = new X509Certificate((await later.issueServerCertificate(dir, "svc-2")).certPem);
    expect(again.verify(ca.publicKey)).toBe(true);
    expect(again.serialNumber).not.toBe(cert.serialNumber);
  });

  it("renews a certificate that is missing, unreadable or signed by another CA, not a valid one", async () => {
    const { certificateNeedsRenewal, issueServerCertificate } = await freshCa();
    const dir = tempDir("schemaform-ca-");
    const caDir = join(dir, "ca");
    expect(certificateNeedsRenewal(join(dir, "missing.crt"), caDir)).toBe(true);
    const { certPem } = await issueServerCertificate(caDir, "svc");
    const file = join(dir, "server.crt");
    writeFileSync(file, certPem);
    expect(certificateNeedsRenewal(file, caDir)).toBe(false);
    expect(certificateNeedsRenewal(file, join(dir, "no-ca"))).toBe(true);
    const other = join(dir, "other-ca");
    await issueServerCertificate(other, "svc");
    expect(certificateNeedsRenewal(file, other)).toBe(true);
    writeFileSync(file, "not a certificate");
    expect(certificateNeedsRenewal(file, caDir)).toBe(true);
  });
});
