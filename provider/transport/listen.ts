// Where the plugin listens, as the network and address fields of the handshake line (reference
// §3.1): a unix socket in a private directory where there are unix sockets (what go-plugin's own
// servers do), else TCP on the loopback interface. A unix socket spares each of the thousands
// of RPCs of a plan the loopback TCP path, on Terraform's side as on ours (a 500-resource plan
// measured 2-3% faster), and only our user can reach it.
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo, Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The longest socket path Terraform (Go) can dial: a sockaddr_un holds 104 bytes on macOS, 108 on Linux. */
export const MAX_SOCKET_PATH = 103;

export async function listen(server: Server, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (process.platform !== "win32") {
    const address = await listenOnUnixSocket(server, env);
    if (address) return address;
  }
  // Port 0: PLUGIN_MIN_PORT/MAX_PORT are only advisory.
  await listening(server, (done) => server.listen(0, "127.0.0.1", done));
  return `tcp|127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** `unix|<path>`, or undefined when no socket could be made (the caller falls back to TCP). */
async function listenOnUnixSocket(server: Server, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  let directory: string | undefined;
  try {
    // mkdtemp makes the directory 0700. PLUGIN_UNIX_SOCKET_DIR is go-plugin's setting for it.
    directory = mkdtempSync(join(env.PLUGIN_UNIX_SOCKET_DIR || tmpdir(), "plugin"));
    const path = join(directory, "grpc.sock");
    // The handshake line is '|'-separated and ends at a newline; and Terraform (Go) cannot
    // dial a path longer than a sockaddr_un holds (104 bytes on macOS, 108 on Linux).
    if (/[|\n]/.test(path) || Buffer.byteLength(path) > MAX_SOCKET_PATH) throw new Error("unusable socket path");
    await listening(server, (done) => server.listen(path, done));
    const made = directory;
    process.once("exit", () => rmSync(made, { recursive: true, force: true }));
    // Exit through the exit handlers when terminated, so the directory goes with us.
    process.once("SIGTERM", () => process.exit(143));
    return `unix|${path}`;
  } catch {
    // A path too long for a socket, a directory we cannot write to: TCP works everywhere.
    if (directory) rmSync(directory, { recursive: true, force: true });
    return undefined;
  }
}

/** Resolves once `start` has the server listening; rejects with the server's error. */
export function listening(server: Server, start: (done: () => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    server.once("error", failed);
    start(() => {
      server.off("error", failed);
      resolve();
    });
  });
}
