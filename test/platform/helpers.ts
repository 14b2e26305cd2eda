// Shared set-up of the platform tests: temporary data directories, an embedded platform, and a
// platform server with an HTTP client in front of it.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmbeddedPlatform, type EmbeddedOptions } from "../../platform/embedded.js";
import { createHttpClient } from "../../platform/http-client.js";
import { startServer, type RunningServer, type ServerOptions } from "../../platform/server.js";
import type { PlatformClient } from "../../platform/types.js";

export interface Harness {
  client: PlatformClient;
  dataDir: string;
  cleanup(): Promise<void>;
}

export interface HarnessOptions {
  clock?: () => number;
  transitionSeconds?: number;
  /** settings of the platform server (limits, log), for the HTTP harness */
  server?: Omit<ServerOptions, "platform" | "port">;
  /** another storage than a SQLite file in the temporary data directory (PostgreSQL) */
  storage?: EmbeddedOptions["storage"];
}

export type Factory = (options?: HarnessOptions) => Promise<Harness>;

export function tempDir(prefix = "schemaform-platform-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export const embeddedFactory: Factory = async (options = {}) => {
  const dataDir = tempDir();
  const client = new EmbeddedPlatform({ dataDir, clock: options.clock, transitionSeconds: options.transitionSeconds ?? 0, storage: options.storage });
  return {
    client,
    dataDir,
    cleanup: async () => {
      await client.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

export interface ServerHarness extends Harness {
  server: RunningServer;
  platform: EmbeddedPlatform;
  accessKey: string;
  secretKey: string;
}

/** A server on a free port with an all-projects key pair, and an HTTP client using that pair. */
export async function startServerHarness(options: HarnessOptions = {}): Promise<ServerHarness> {
  const dataDir = tempDir();
  const platform = new EmbeddedPlatform({ dataDir, clock: options.clock, transitionSeconds: options.transitionSeconds ?? 0, storage: options.storage });
  const server = await startServer({ ...options.server, platform, port: 0 });
  const core = await platform.core();
  const { accessKey, secretKey } = await core.credentials.createKeyPair(null, "tests");
  const client = createHttpClient({ endpoint: server.url, credentials: { accessKey, secretKey } });
  return {
    client,
    dataDir,
    server,
    platform,
    accessKey,
    secretKey,
    cleanup: async () => {
      await client.close();
      await server.close();
      await platform.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const httpFactory: Factory = (options) => startServerHarness(options);

/** A clock the test moves by hand. */
export function manualClock(start = Date.UTC(2030, 0, 1)): { now: () => number; advance(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

/** Runs `fn` and returns the PlatformError it throws (fails the test when it does not throw). */
export async function rejection(fn: () => Promise<unknown>): Promise<{ code: string; message: string; issues?: unknown[] }> {
  try {
    await fn();
  } catch (error) {
    return error as { code: string; message: string; issues?: unknown[] };
  }
  throw new Error("expected the call to fail, but it succeeded");
}
