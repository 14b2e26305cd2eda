// Credentials of the platform server. An access key + secret key pair (the secret shown once,
// stored as a salted hash), or a long-lived access token (shown once, stored as a hash). A key pair
// can be exchanged for a short-lived session token (HMAC-signed with a key derived from the data
// directory's key; checked against the credential on every use, so revoking the key ends its
// sessions). Each credential belongs to one project, or to every project (`project` null).

import { timingSafeEqual } from "node:crypto";
import { randomString, hashToken, tokenLookupHash, verifyToken, newUuid } from "../secrets.js";
import type { Ctx } from "./context.js";

export interface Principal {
  /** the project the credential may act on; null = every project */
  project: string | null;
  /** the access key or token id (never a secret) */
  credential: string;
  kind: "key" | "token" | "session";
}

export interface CredentialInfo {
  id: string;
  kind: "key" | "token";
  project: string | null;
  description: string;
  created: string;
  revoked: string | null;
}

const UPPER_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const SESSION_TTL_MS = 60 * 60 * 1000;

export class Credentials {
  constructor(private readonly ctx: Ctx) {}

  /** A new key pair; the secret key is returned here only. */
  async createKeyPair(project: string | null, description = ""): Promise<{ accessKey: string; secretKey: string }> {
    const accessKey = `SFAK${randomString(16, UPPER_ALNUM)}`;
    const secretKey = randomString(40, BASE62);
    await this.ctx.write(async (tx) => {
      await tx.run("INSERT INTO credentials (access_key, project, secret_hash, description, created) VALUES (?, ?, ?, ?, ?)", accessKey, project, hashToken(secretKey), description, this.ctx.iso());
    });
    return { accessKey, secretKey };
  }

  /** A new long-lived access token; returned here only. */
  async createAccessToken(project: string | null, description = ""): Promise<{ tokenId: string; token: string }> {
    const token = `sfat_${randomString(43, BASE62)}`;
    const tokenId = `tok-${newUuid().slice(0, 8)}`;
    await this.ctx.write(async (tx) => {
      await tx.run("INSERT INTO access_tokens (lookup, token_id, project, description, created) VALUES (?, ?, ?, ?, ?)", tokenLookupHash(token), tokenId, project, description, this.ctx.iso());
    });
    return { tokenId, token };
  }

  async list(): Promise<CredentialInfo[]> {
    return await this.ctx.read(async (tx) => [
      ...((await tx.all("SELECT access_key AS id, project, description, created, revoked FROM credentials ORDER BY created")) as Omit<CredentialInfo, "kind">[]).map(
        (c) => ({ ...c, kind: "key" as const }),
      ),
      ...((await tx.all("SELECT token_id AS id, project, description, created, revoked FROM access_tokens ORDER BY created")) as Omit<CredentialInfo, "kind">[]).map(
        (c) => ({ ...c, kind: "token" as const }),
      ),
    ]);
  }

  /** Revokes an access key or token id; false when there is no such active credential. */
  async revoke(id: string): Promise<boolean> {
    return await this.ctx.write(async (tx) => {
      const now = this.ctx.iso();
      const a = await tx.run("UPDATE credentials SET revoked = ? WHERE access_key = ? AND revoked IS NULL", now, id);
      const b = await tx.run("UPDATE access_tokens SET revoked = ? WHERE token_id = ? AND revoked IS NULL", now, id);
      return a + b > 0;
    });
  }

  async verifyKeyPair(accessKey: string, secretKey: string): Promise<Principal | undefined> {
    const row = await this.ctx.read(
      (tx) => tx.get<{ project: string | null; secret_hash: string }>("SELECT project, secret_hash FROM credentials WHERE access_key = ? AND revoked IS NULL", accessKey),
    );
    if (!row || !verifyToken(secretKey, row.secret_hash)) return undefined;
    return { project: row.project, credential: accessKey, kind: "key" };
  }

  /** A long-lived access token or a session token. */
  async verifyToken(token: string): Promise<Principal | undefined> {
    if (token.startsWith("sfst.")) return this.verifySession(token);
    const row = await this.ctx.read(
      (tx) => tx.get<{ token_id: string; project: string | null }>("SELECT token_id, project FROM access_tokens WHERE lookup = ? AND revoked IS NULL", tokenLookupHash(token)),
    );
    return row ? { project: row.project, credential: row.token_id, kind: "token" } : undefined;
  }

  /** Exchanges a verified key pair for a short-lived session token. */
  issueSession(principal: Principal, ttlMs: number = SESSION_TTL_MS): { access_token: string; token_type: "Bearer"; expires_in: number } {
    const payload = Buffer.from(JSON.stringify({ k: principal.credential, p: principal.project, exp: this.ctx.now() + ttlMs })).toString("base64url");
    const signature = this.ctx.box.mac("session", payload).toString("base64url");
    return { access_token: `sfst.${payload}.${signature}`, token_type: "Bearer", expires_in: Math.floor(ttlMs / 1000) };
  }

  private async verifySession(token: string): Promise<Principal | undefined> {
    const [, payload, signature] = token.split(".");
    if (!payload || !signature) return undefined;
    const expected = this.ctx.box.mac("session", payload);
    const given = Buffer.from(signature, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let claims: { k?: unknown; p?: unknown; exp?: unknown };
    try {
      claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    } catch {
      return undefined;
    }
    if (typeof claims.k !== "string" || typeof claims.exp !== "number" || claims.exp <= this.ctx.now()) return undefined;
    const active = await this.ctx.read((tx) => tx.get<{ project: string | null }>("SELECT project FROM credentials WHERE access_key = ? AND revoked IS NULL", claims.k));
    if (!active) return undefined;
    return { project: active.project, credential: claims.k, kind: "session" };
  }
}
