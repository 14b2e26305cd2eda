// NODE_EXTRA_CA_CERTS, deferred to the first https request that needs it.
//
// Node 20 reads NODE_EXTRA_CA_CERTS, and parses its bundled root certificates with it, when a
// process starts: 40-70 ms, paid by each of the several provider processes Terraform starts
// per command, although most of them never open an https connection. The installed provider
// executable therefore starts Node without it and passes the file on as
// SCHEMAFORM_EXTRA_CA_CERTS (the launcher line of scripts/bundle-provider.mjs). The platform
// HTTP client is the only https client in the plugin: for an https endpoint it trusts that file
// here, on top of Node's root certificates, which is what Node would have done.
//
// Node reads the file once per process; a resident provider server's worker (provider/transport/
// resident-worker.ts) serves Terraform runs for many minutes, across a CA rotation. So the file
// is looked at again (one stat) for each client: a changed file (its inode, size, modification or
// change time) is read again, and a removed one trusts nothing more than Node's roots.
import { readFileSync, statSync } from "node:fs";
import { Agent, request } from "node:https";
import { rootCertificates } from "node:tls";

/** Set by the provider executable's launcher to the NODE_EXTRA_CA_CERTS it took out of Node's start-up. */
export const DEFERRED_CA_ENV = "SCHEMAFORM_EXTRA_CA_CERTS";

/** The agent for the file as it was last read, by the file's path. */
const agents = new Map<string, { version: string; agent: Agent | null }>();

/**
 * A fetch that trusts Node's root certificates plus the deferred file, or undefined when no
 * file was deferred (global fetch is then right) or it cannot be read (Node would have warned
 * and gone on without it; so do we).
 */
export function deferredCaFetch(env: NodeJS.ProcessEnv = process.env): typeof fetch | undefined {
  const file = env[DEFERRED_CA_ENV];
  if (!file) return undefined;
  const version = fileVersion(file);
  const known = agents.get(file);
  if (known?.version === version) return known.agent ? fetchWith(known.agent) : undefined;
  // The old agent is left to its client (a request in flight keeps going); its idle connections
  // close when the server times them out.
  let agent: Agent | null = null;
  try {
    agent = new Agent({ keepAlive: true, ca: [...rootCertificates, readFileSync(file, "utf8")] });
  } catch (error) {
    process.emitWarning(`Ignoring extra certs from \`${file}\`, load failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  agents.set(file, { version, agent });
  return agent ? fetchWith(agent) : undefined;
}

/** What tells a rewritten, replaced or removed file from the one read before. */
function fileVersion(file: string): string {
  try {
    const info = statSync(file, { bigint: true });
    return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  } catch {
    return "missing";
  }
}

/**
 * The part of fetch the platform client uses (method, headers, a string body, an abort signal;
 * no redirects, which the platform never sends) over node:https with our agent. Failures look
 * like fetch's: a TypeError whose cause carries the error code, or the signal's reason when it
 * aborted.
 */
function fetchWith(agent: Agent): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason);
      if (init.body != null && typeof init.body !== "string") return reject(new TypeError("only string bodies are supported"));
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => (headers[name] = value));
      const req = request(String(input), { agent, method: init.method ?? "GET", headers, signal });
      req.once("error", (error) => reject(signal?.aborted ? signal.reason : new TypeError("fetch failed", { cause: error })));
      req.once("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.once("error", (error) => reject(signal?.aborted ? signal.reason : new TypeError("fetch failed", { cause: error })));
        res.once("end", () => {
          const status = res.statusCode ?? 0;
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, one);
          }
          // Response refuses a body, even an empty one, for these statuses.
          const body = status === 204 || status === 205 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, statusText: res.statusMessage, headers: responseHeaders }));
        });
      });
      req.end(init.body ?? undefined);
    });
}
