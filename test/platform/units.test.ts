// Small pure pieces: import ids, durations, data directory, transition setting, tracks, CIDRs, routes.
import { describe, expect, it } from "vitest";
import { defaultDataDir, parseDuration, transitionSecondsFromEnv } from "../../platform/config.js";
import { restoreChannelIdFromImport } from "../../platform/core/restore-channels.js";
import { cidrsOverlap, parseCidr } from "../../platform/core/vpcs.js";
import { ROUTE_BY_OP, decodeArgs, encodeRequest, matchRoute } from "../../platform/routes.js";
import { statusAt, track } from "../../platform/status.js";
import { generateSshKeyPair, hashPassword, verifyPassword } from "../../platform/secrets.js";

describe("restore channel import ids", () => {
  it("accepts the three formats and fills the default project", () => {
    const full = "projects/p-123456/locations/us-central1/restoreChannels/ch";
    expect(restoreChannelIdFromImport(full)).toBe(full);
    expect(restoreChannelIdFromImport("p-123456/us-central1/ch")).toBe(full);
    expect(restoreChannelIdFromImport("us-central1/ch", "p-123456")).toBe(full);
    expect(() => restoreChannelIdFromImport("us-central1/ch")).toThrow(/no default project/);
    expect(() => restoreChannelIdFromImport("a/b/c/d")).toThrow(/doesn't match any of the accepted formats/);
  });
});

describe("settings", () => {
  it("parses Terraform durations", () => {
    expect(parseDuration("45m")).toBe(2_700_000);
    expect(parseDuration("1h30m")).toBe(5_400_000);
    expect(parseDuration("1.5s")).toBe(1500);
    expect(() => parseDuration("10 minutes")).toThrow(/not a duration/);
  });

  it("finds the data directory: SCHEMAFORM_DATA_DIR, then XDG_DATA_HOME, then the home directory", () => {
    expect(defaultDataDir({ SCHEMAFORM_DATA_DIR: "/srv/sf" })).toBe("/srv/sf");
    expect(defaultDataDir({ XDG_DATA_HOME: "/data" })).toBe("/data/schemaform");
    expect(defaultDataDir({})).toMatch(/schemaform$/);
  });

  it("reads SCHEMAFORM_TRANSITION_SECONDS (default 3) and rejects nonsense", () => {
    expect(transitionSecondsFromEnv({})).toBe(3);
    expect(transitionSecondsFromEnv({ SCHEMAFORM_TRANSITION_SECONDS: "0" })).toBe(0);
    expect(transitionSecondsFromEnv({ SCHEMAFORM_TRANSITION_SECONDS: "0.5" })).toBe(0.5);
    expect(() => transitionSecondsFromEnv({ SCHEMAFORM_TRANSITION_SECONDS: "-1" })).toThrow(/non-negative/);
  });
});

describe("status tracks", () => {
  it("derives the status from the time elapsed", () => {
    const t = track(1000, [["QUEUED", 500], ["CONFIGURING", 500]], "READY");
    expect(statusAt(t, 1000)).toBe("QUEUED");
    expect(statusAt(t, 1499)).toBe("QUEUED");
    expect(statusAt(t, 1500)).toBe("CONFIGURING");
    expect(statusAt(t, 2000)).toBe("READY");
    expect(statusAt(track(1000, [["QUEUED", 0]], "READY"), 1000)).toBe("READY");
  });
});

describe("CIDR blocks", () => {
  it("parses and detects overlaps", () => {
    expect(parseCidr("10.0.0.0/16")).toEqual({ base: 0x0a000000, prefix: 16 });
    expect(parseCidr("10.0.0.0/33")).toBeUndefined();
    expect(cidrsOverlap(parseCidr("10.0.0.0/16")!, parseCidr("10.0.128.0/20")!)).toBe(true);
    expect(cidrsOverlap(parseCidr("10.0.0.0/16")!, parseCidr("10.1.0.0/16")!)).toBe(false);
  });
});

describe("secrets helpers", () => {
  it("hashes passwords with scrypt and verifies them", async () => {
    const hash = await hashPassword("correct horse");
    expect(hash).toMatch(/^scrypt\$/);
    expect(hash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse", hash)).toBe(true);
    expect(await verifyPassword("wrong", hash)).toBe(false);
  });

  it("makes OpenSSH ed25519 public keys", () => {
    const { publicKey, privateKeyPem } = generateSshKeyPair("c1");
    expect(publicKey).toMatch(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI[A-Za-z0-9+/]{43} c1$/);
    expect(privateKeyPem).toMatch(/BEGIN PRIVATE KEY/);
  });
});

describe("routes", () => {
  it("round-trips arguments through a request, including full names and JSON query values", () => {
    const route = ROUTE_BY_OP.get("restoreChannels.get")!;
    const name = "projects/p-123456/locations/us-central1/restoreChannels/my channel";
    const encoded = encodeRequest(route, [name, { labelKeys: ["a"] }]);
    expect(encoded.url).toMatch(/^\/containerbackup\/v1\/projects\/p-123456\/locations\/us-central1\/restoreChannels\/my%20channel\?view=/);
    const url = new URL(encoded.url, "http://x");
    const { match } = matchRoute("GET", url.pathname);
    expect(match?.route.op).toBe("restoreChannels.get");
    expect(decodeArgs(match!, url.searchParams, undefined)).toEqual([name, { labelKeys: ["a"] }]);

    const peering = encodeRequest(ROUTE_BY_OP.get("peering.update")!, ["proj", 1001, 3001, { peer_cidr_blocks: ["10.0.0.0/16"] }]);
    const purl = new URL(peering.url, "http://x");
    const pm = matchRoute("PATCH", purl.pathname).match!;
    expect(decodeArgs(pm, purl.searchParams, peering.body)).toEqual(["proj", 1001, "3001", { peer_cidr_blocks: ["10.0.0.0/16"] }]);
  });
});
