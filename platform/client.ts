// The platform API: one interface (`PlatformClient`, types.ts), two ways in.
//   openPlatform({ dataDir? })                 the embedded platform: a SQLite file in the data
//                                              directory, opened in this process on first use;
//   openPlatform({ endpoint, credentials })    a platform server (`schemaform platform serve`).
// Both throw `PlatformError` with the same codes for the same situations.

import { EmbeddedPlatform, type EmbeddedOptions } from "./embedded.js";
import { createHttpClient, type PlatformCredentials } from "./http-client.js";
import type { PlatformClient } from "./types.js";

export interface OpenPlatformOptions extends EmbeddedOptions {
  /** URL of a platform server; unset means the embedded platform */
  endpoint?: string;
  /** server mode: an access token, or an access key + secret key */
  credentials?: PlatformCredentials;
  /** server mode: per-request timeout (default 30 s) */
  requestTimeoutMs?: number;
}

/** Opens the platform. Nothing is read or connected until the first call. */
export function openPlatform(options: OpenPlatformOptions = {}): PlatformClient {
  if (options.endpoint) {
    return createHttpClient({ endpoint: options.endpoint, credentials: options.credentials, requestTimeoutMs: options.requestTimeoutMs });
  }
  return new EmbeddedPlatform(options);
}

export type * from "./types.js";
export { PlatformError, type PlatformErrorCode, type Issue, type Warning } from "./errors.js";
export { EmbeddedPlatform, type EmbeddedOptions } from "./embedded.js";
export type { PlatformCredentials } from "./http-client.js";
export { waitFor, waitForService, waitForVpc, waitForPeering, type WaitOptions, type WaitVerdict } from "./wait.js";
export { defaultDataDir, parseDuration } from "./config.js";
export { restoreChannelIdFromImport, parseRestoreChannelName } from "./core/restore-channels.js";
