// The resident provider server (opt-in: SCHEMAFORM_RESIDENT=1; provider/README.md, "Resident
// server"). Terraform starts a provider process several times per command, and Node's start-up
// is most of a small plan's time. With this, the executable's sh launcher (LAUNCHER in
// scripts/bundle-provider.mjs) asks a warm, per-user process for a connection instead of
// starting Node: it writes "<its pid> <reply fifo>" to this server's request FIFO, and this
// server, after checking that the launcher runs with exactly the environment and working
// directory it was started with, makes a fresh TLS identity and a fresh unix-socket listener
// for the launcher's Terraform (its PLUGIN_CLIENT_CERT is the only client accepted there), and
// writes the go-plugin handshake line into the reply FIFO. The launcher prints that line and
// stays, relaying our log lines to its stderr, until the reply FIFO closes: on Shutdown, when
// its Terraform (or the launcher itself) is gone, or when this process dies. To Terraform, the
// launcher is the plugin process; the protocol is Terraform's own (AutoMTLS, handshake, Shutdown).
//
// Each connection has its own provider server (its own ConfigureProvider, client and Stop);
// when it ends, its work is stopped and its client released, so an idle resident server holds
// no platform database open. It exits after IDLE_EXIT_MS without connections.
//
// Linux only (the launcher checks for /proc): a launcher's environment, working directory and
// parent are read from /proc, so nothing the launcher says is taken on trust but its pid.
import { AsyncLocalStorage } from "node:async_hooks";
import { execFileSync } from "node:child_process";
import { appendFileSync, closeSync, existsSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import type http2 from "node:http2";
import { Socket } from "node:net";
import { dirname, join } from "node:path";
import { createServerIdentity, type ServerIdentity } from "./cert.js";
import { createGrpcServer, type Router, type UnaryRoute } from "./grpc.js";
import { listening } from "./listen.js";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE, lazyRouter, type ServeOptions, type ProviderRouter } from "./serve.js";

/** A resident server with no connection exits after this long. */
export const IDLE_EXIT_MS = 60_000;
/** Server identities kept ready, and the pause in requests after which the pool is refilled. */
const IDENTITY_POOL = 8;
const REFILL_AFTER_MS = 1500;
/** How often each connection's launcher and Terraform are checked. */
const WATCH_MS = 500;
const MAX_SOCKET_PATH = 103;

/**
 * The server's own messages (connections, refusals, a crash), one line each with its pid, in
 * the file SCHEMAFORM_RESIDENT_LOG names (nowhere without it: the server has no terminal).
 */
function note(message: string): void {
  const file = process.env.SCHEMAFORM_RESIDENT_LOG;
  if (!file) return;
  try {
    appendFileSync(file, `${new Date().toISOString()} resident ${process.pid}: ${message}\n`);
  } catch {
    // a log that cannot be written is no reason to stop serving
  }
}

/** Variables that differ between launches without changing what the provider does. */
function comparable(env: Map<string, string>): Map<string, string> {
  const out = new Map(env);
  for (const key of env.keys()) if (key.startsWith("PLUGIN_")) out.delete(key);
  // Set or changed by the shell itself (bash as sh exports these to what it starts).
  for (const key of ["_", "SHLVL", "PWD", "OLDPWD"]) out.delete(key);
  // The launcher moves NODE_EXTRA_CA_CERTS before it starts anything (LAUNCHER).
  const extra = out.get("NODE_EXTRA_CA_CERTS");
  out.delete("NODE_EXTRA_CA_CERTS");
  if (extra !== undefined && extra !== "") out.set("SCHEMAFORM_EXTRA_CA_CERTS", extra);
  return out;
}

function sameEnvironment(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) if (b.get(key) !== value) return false;
  return true;
}

function processEnvironment(pid: number): Map<string, string> {
  const env = new Map<string, string>();
  for (const entry of readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")) {
    const at = entry.indexOf("=");
    if (at > 0) env.set(entry.slice(0, at), entry.slice(at + 1));
  }
  return env;
}

/** The parent of a live process, or undefined once it is gone (or a zombie). */
function parentOf(pid: number): number | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state, ppid] = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return state === "Z" ? undefined : Number(ppid);
  } catch {
    return undefined;
  }
}

/** Only a private directory of ours: anyone who could write there could answer our launchers. */
function assertPrivateDirectory(path: string): void {
  const info = lstatSync(path);
  const uid = process.getuid?.();
  if (!info.isDirectory() || (uid !== undefined && info.uid !== uid) || (info.mode & 0o077) !== 0) {
    throw new Error(`${path} is not a private directory of this user`);
  }
}

interface Connection {
  launcher: number;
  terraform: number;
  reply: Socket;
  end(reason: string): void;
}

export async function serveResident(options: ServeOptions, directory: string): Promise<void> {
  // Detached from Terraform: Ctrl-C reaches Terraform's process group, and Terraform stops our
  // work through StopProvider; nothing else is ours to print to.
  process.on("SIGINT", () => {});
  process.on("SIGHUP", () => {});
  // However this process ends, the next launcher may start another server at once.
  process.once("exit", () => rmSync(join(directory, "starting"), { recursive: true, force: true }));
  assertPrivateDirectory(dirname(directory));
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  assertPrivateDirectory(directory);
  for (const key of Object.keys(process.env)) if (key.startsWith("PLUGIN_")) delete process.env[key];
  const ownEnvironment = comparable(new Map(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)));
  const ownDirectory = realpathSync(process.cwd());

  const requests = join(directory, `q${process.pid}`);
  const pidFile = join(directory, "pid");
  const cleanUp = () => {
    rmSync(requests, { force: true });
    try {
      if (readFileSync(pidFile, "utf8").trim() === String(process.pid)) rmSync(pidFile, { force: true });
      // The key's directory goes with its last server (rmdir fails while anything is left).
      rmdirSync(directory);
    } catch {
      // replaced, removed, or still in use
    }
    note("exiting");
  };
  process.once("exit", cleanUp);
  process.once("SIGTERM", () => process.exit(143));
  execFileSync("mkfifo", ["-m", "600", requests]);
  // Read and write: the FIFO never reaches end-of-file when a launcher closes its end.
  const input = new Socket({ fd: openSync(requests, constants.O_RDWR | constants.O_NONBLOCK), readable: true, writable: false });
  // Published last, atomically: a launcher that reads the pid finds the FIFO ready.
  writeFileSync(`${pidFile}.${process.pid}`, `${process.pid}\n`, { mode: 0o600 });
  renameSync(`${pidFile}.${process.pid}`, pidFile);
  rmSync(join(directory, "starting"), { recursive: true, force: true });
  removeLeftovers(directory);
  removeAbandonedKeys(dirname(directory));

  const connections = new Set<Connection>();
  let idleTimer: NodeJS.Timeout | undefined;
  const armIdleExit = () => {
    clearTimeout(idleTimer);
    if (connections.size === 0) idleTimer = setTimeout(() => process.exit(0), IDLE_EXIT_MS);
  };
  armIdleExit();
  // Superseded (another server published its pid: two launchers started one each) or stale
  // (the executable was reinstalled or changed): no new connections; gone once idle.
  const executable = executableIdentity();
  let retiring = false;
  const stillCurrent = () => {
    try {
      return readFileSync(pidFile, "utf8").trim() === String(process.pid) && executableIdentity() === executable && existsSync(ownDirectory);
    } catch {
      return false;
    }
  };
  setInterval(() => {
    if (!stillCurrent()) retiring = true;
    if (retiring && connections.size === 0) process.exit(0);
  }, 5000).unref();

  // Where a log line of a connection's work goes: that launcher's stderr, through the reply FIFO.
  const current = new AsyncLocalStorage<Connection>();
  process.stderr.write = ((chunk: string | Uint8Array) => {
    const connection = current.getStore();
    if (connection && !connection.reply.destroyed) connection.reply.write(typeof chunk === "string" ? chunk : Buffer.from(chunk));
    return true;
  }) as typeof process.stderr.write;
  process.on("uncaughtException", (error) => {
    note(`uncaught exception: ${error.stack ?? String(error)}`);
    process.exit(70);
  });
  note(`serving ${directory}`);

  // Identities made ahead, while nobody waits: making one takes the event loop for a while
  // (several ms, far more on a busy machine), which would hold up the TLS handshakes and RPCs
  // of the connections being served. A command launches its plugin several times in quick
  // succession, so the pool is refilled only once requests have paused for REFILL_AFTER_MS
  // (made on demand if it runs dry).
  const identities: ServerIdentity[] = [];
  let refillTimer: NodeJS.Timeout | undefined;
  const refill = async () => {
    while (identities.length < IDENTITY_POOL) identities.push(await createServerIdentity());
  };
  const refillLater = () => {
    clearTimeout(refillTimer);
    refillTimer = setTimeout(() => void refill().catch(() => {}), REFILL_AFTER_MS);
  };
  void refill().catch(() => {});
  const nextIdentity = async () => {
    refillLater();
    return identities.shift() ?? createServerIdentity();
  };

  let counter = 0;
  const accept = async (launcher: number, replyPath: string) => {
    let replyFd: number | undefined;
    let reply: Socket | undefined;
    // Undoes a connection that failed half-way (its listener, its watch), so the launcher goes
    // on at once (the direct way) instead of after its watchdog.
    let abandon: (() => void) | undefined;
    if (!retiring && !stillCurrent()) retiring = true;
    try {
      // A FIFO the launcher made in our directory for this request, and nothing else.
      if (dirname(replyPath) !== directory || !/^r\d+$/.test(replyPath.slice(directory.length + 1))) return;
      replyFd = openSync(replyPath, constants.O_RDWR | constants.O_NONBLOCK | constants.O_NOFOLLOW);
      const info = fstatSync(replyFd);
      if (!info.isFIFO() || info.uid !== process.getuid?.()) return;
      reply = new Socket({ fd: replyFd, readable: false, writable: true });
      replyFd = undefined;
      reply.on("error", () => {});
      const answer = reply;
      const terraform = parentOf(launcher);
      const env = processEnvironment(launcher);
      // Removed with the connection (by then the launcher has opened it, or is gone); after a
      // refusal, the launcher removes it.
      const removeReply = () => rmSync(replyPath, { force: true });
      const refused = (why: string) => {
        note(`refused launcher ${launcher}: ${why}`);
        answer.destroy();
      };
      if (statSync(`/proc/${launcher}`).uid !== process.getuid?.()) return refused("a launcher of another user");
      if (retiring) return refused("this server is superseded or its executable changed");
      if (terraform === undefined) return refused("the launcher is gone");
      if (!sameEnvironment(comparable(env), ownEnvironment) || realpathSync(readlinkSync(`/proc/${launcher}/cwd`)) !== ownDirectory) {
        return refused("the launcher's environment or working directory differs");
      }
      const clientCert = env.get("PLUGIN_CLIENT_CERT");
      const offered = (env.get("PLUGIN_PROTOCOL_VERSIONS") ?? "6").split(",").map((v) => v.trim());
      // Anything unusual is the direct path's to answer (it prints the proper message).
      if (env.get(MAGIC_COOKIE_KEY) !== MAGIC_COOKIE_VALUE || !clientCert || !offered.includes("6") || env.get("TF_DISABLE_PLUGIN_TLS")) return refused("not a TLS launch");

      const identity = await nextIdentity();
      const socketPath = join(directory, `s${process.pid}-${++counter}.sock`);
      if (/[|\n]/.test(socketPath) || Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) return refused("socket path too long");

      let loaded: Promise<ProviderRouter> | undefined;
      const load = () => (loaded ??= options.router({ terraformPid: terraform }));
      let ended = false;
      const sessions = new Set<http2.ServerHttp2Session>();
      const connection: Connection = {
        launcher,
        terraform,
        reply: answer,
        end(reason) {
          if (ended) return;
          ended = true;
          clearInterval(watch);
          connections.delete(connection);
          note(`connection of launcher ${launcher} ended: ${reason}`);
          server.close();
          for (const session of sessions) session.destroy();
          rmSync(socketPath, { force: true });
          // Stop its work and release its client; then the launcher may go (end of the FIFO).
          const closing = loaded ? loaded.then((router) => router.close?.()) : Promise.resolve();
          closing.catch(() => {}).finally(() => {
            answer.end();
            removeReply();
            armIdleExit();
          });
        },
      };
      const shutdown: UnaryRoute = { call: async () => new Uint8Array(0), after: () => connection.end("Shutdown") };
      const routes = lazyRouter(load, options.staticResponses, shutdown);
      const router: Router = (path) => {
        const found = current.run(connection, () => routes(path));
        if (found && typeof (found as PromiseLike<unknown>).then === "function") return (found as Promise<UnaryRoute | undefined>).then((route) => route && inContext(route));
        return found && inContext(found as UnaryRoute);
      };
      const inContext = (route: UnaryRoute): UnaryRoute => ({ call: (request) => current.run(connection, () => route.call(request)), after: route.after });
      const server = createGrpcServer(router, { key: identity.keyPem, cert: identity.certPem, clientCert });
      server.on("session", (session: http2.ServerHttp2Session) => {
        sessions.add(session);
        session.once("close", () => sessions.delete(session));
      });
      // Terraform killed outright calls no Shutdown; a launcher killed (Terraform's kill after
      // Shutdown's grace time) neither. Either way this connection is over.
      const watch = setInterval(() => {
        if (parentOf(launcher) !== terraform) connection.end("the launcher or its Terraform is gone");
      }, WATCH_MS);
      abandon = () => connection.end("failed before its handshake");
      await listening(server, (done) => server.listen(socketPath, done));
      connections.add(connection);
      clearTimeout(idleTimer);
      answer.write(`1|6|unix|${socketPath}|grpc|${identity.certBase64}\n`);
      note(`connection for launcher ${launcher} of Terraform ${terraform}`);
    } catch (error) {
      note(`request of launcher ${launcher} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (abandon) abandon();
      else reply?.destroy();
    } finally {
      if (replyFd !== undefined) closeSync(replyFd);
    }
  };

  let buffered = "";
  input.setEncoding("utf8");
  input.on("data", (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      const match = /^(\d+) (\S+)$/.exec(line);
      if (match) void accept(Number(match[1]), match[2]!);
    }
    // A line never gets this long; whatever it was is dropped.
    if (buffered.length > 4096) buffered = "";
  });
}

/** The executable as a file: changed (reinstalled, rebuilt) means this process's code is stale. */
function executableIdentity(): string {
  const info = statSync(process.argv[1]!);
  return `${info.dev}:${info.ino}:${info.size}:${info.ctimeMs}`;
}

/** FIFOs and sockets of servers and launchers that died without cleaning up (their pid is not alive). */
function removeLeftovers(directory: string): void {
  for (const name of readdirSync(directory)) {
    const match = /^(?:q|r|s)(\d+)(?:-\d+\.sock)?$/.exec(name);
    if (!match || Number(match[1]) === process.pid) continue;
    if (parentOf(Number(match[1])) === undefined) rmSync(join(directory, name), { force: true });
  }
}

/**
 * Key directories with no live server, untouched for a minute: left by a server that could not
 * start (its working directory was already gone, say) or predates the `rmdir` at exit.
 */
function removeAbandonedKeys(base: string): void {
  const minuteAgo = Date.now() - 60_000;
  for (const name of readdirSync(base)) {
    if (!/^\d+-\d+$/.test(name)) continue;
    const key = join(base, name);
    try {
      if (statSync(key).mtimeMs > minuteAgo) continue;
      if (existsSync(join(key, "starting")) && statSync(join(key, "starting")).mtimeMs > minuteAgo) continue;
      let pid = 0;
      try {
        pid = Number(readFileSync(join(key, "pid"), "utf8"));
      } catch {
        // no server published there
      }
      if (pid > 0 && parentOf(pid) !== undefined) continue;
      rmSync(key, { recursive: true, force: true });
    } catch {
      // gone meanwhile, or not ours to judge
    }
  }
}
