// The resident provider server (the default on Linux; SCHEMAFORM_RESIDENT=0 turns it off;
// provider/README.md, "Resident server"). Terraform starts a provider process several times per
// command, and Node's start-up is most of a small plan's time. With this, the executable's sh
// launcher (LAUNCHER in scripts/bundle-provider.mjs) asks a warm, per-user process for a
// connection instead of starting Node: it writes "<its pid> <reply fifo>" to this server's
// request FIFO, and this server, after checking that the launcher runs with exactly the
// environment and working directory it was started with, hands the connection to a worker
// thread (resident-worker.ts), whose listener (a fresh TLS identity on a fresh unix socket, made
// ahead) accepts the launcher's Terraform alone (its PLUGIN_CLIENT_CERT), and which writes the
// go-plugin handshake line into the reply FIFO. The launcher prints that line and
// stays, relaying our log lines to its stderr, until the reply FIFO closes: on Shutdown, when
// its Terraform (or the launcher itself) is gone, or when this process dies. To Terraform, the
// launcher is the plugin process; the protocol is Terraform's own (AutoMTLS, handshake, Shutdown).
//
// Threads: this (main) thread only takes requests and checks launchers; each connection is served
// by a worker thread of its own, one connection at a time, so two Terraform runs served at once
// use two cores. One worker is always kept ready (a spare, with the provider's runtime already
// compiled), and a new spare is started in the background when the last one is taken, so a launch
// never waits for a thread to start. A worker that served a connection stays for the next one
// (its runtime is warm); idle workers beyond the spare leave after WORKER_IDLE_MS. Each
// connection has its own provider server (its own ConfigureProvider, client and Stop); when it
// ends, its work is stopped and its client released, so an idle resident server holds no platform
// database open. It exits after IDLE_EXIT_MS without connections.
//
// Linux only (the launcher checks for /proc): a launcher's environment, working directory and
// parent are read from /proc, so nothing the launcher says is taken on trust but its pid.
// What the launcher trusts in turn (only directories and files of this user that nobody else can
// write, a server named by pid and start time) is in LAUNCHER's comment; how many servers a user
// keeps, in resident-admission.ts.
import { execFileSync } from "node:child_process";
import { closeSync, existsSync, constants, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, renameSync, rmdirSync, rmSync, statSync, utimesSync, writeFileSync, writeSync } from "node:fs";
import { Socket } from "node:net";
import { dirname, join } from "node:path";
import { isMainThread, Worker } from "node:worker_threads";
import { MAX_SOCKET_PATH } from "./listen.js";
import { RESIDENT_FLAG } from "./resident-flag.js";
import { admit, BUSY_MARKER, KEY_NAME, liveServer } from "./resident-admission.js";
import { note, parentOf, processEnvironment, processIdentity } from "./resident-proc.js";
import { serveConnections, SOCKET_NAME_MAX, type ConnectionJob, type FromWorker, type ToWorker } from "./resident-worker.js";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE, type ServeOptions } from "./serve.js";

/** A resident server with no connection exits after this long. */
export const IDLE_EXIT_MS = 60_000;
/** An idle worker beyond the one spare leaves after this long. */
const WORKER_IDLE_MS = 20_000;
/** Workers at most: a request that finds them all busy waits for one to be free. */
const MAX_WORKERS = 8;
/** Workers in a row that died before they were ready, after which no more are started. */
const MAX_FAILED_STARTS = 3;
/**
 * A request that waited this long for a worker is answered with a refusal, so its launcher goes
 * the direct way at once (its own watchdog gives up at 2 s).
 */
const HANDOFF_MS = 1500;

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

/**
 * Why a directory is not a private one of ours (undefined when it is): anyone who could write
 * there could answer our launchers.
 */
function notPrivate(path: string): string | undefined {
  try {
    const info = lstatSync(path);
    if (!info.isDirectory()) return `${path} is not a directory`;
    if (info.uid !== process.getuid?.()) return `${path} belongs to another user`;
    if ((info.mode & 0o022) !== 0) return `${path} is writable by group or others`;
    return undefined;
  } catch (error) {
    return `${path} cannot be read (${(error as NodeJS.ErrnoException).code})`;
  }
}

function assertPrivateDirectory(path: string): void {
  const why = notPrivate(path);
  if (why) throw new Error(why);
}

/** A directory's identity: a path may come to name another directory (moved away, recreated). */
function directoryIdentity(path: string): string | undefined {
  try {
    const info = statSync(path);
    return `${info.dev}:${info.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * Tells a launcher no: its reply FIFO is opened and closed, so its read ends and it starts Node
 * the direct way. With a `warning` (a line starting with "!"), the launcher also prints it on
 * its stderr: for what the user should fix (a directory others can write).
 */
function refuseReply(replyPath: string, warning?: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(replyPath, constants.O_RDWR | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    writeSync(fd, warning ? `!${warning.replace(/\n/g, " ")}\n` : "-\n");
  } catch {
    // the launcher has gone (it removes its FIFO)
  }
  // Held open a moment: a FIFO that nobody holds open loses what was written to it, and the
  // launcher may not have opened its end yet.
  if (fd !== undefined) setTimeout(() => closeSync(fd), 1000).unref();
}

/** A worker thread and what it is doing. */
interface Slot {
  worker: Worker;
  state: "starting" | "idle" | "busy";
  job?: ConnectionJob;
  /** The socket of its listener (its current connection's, or the next one's). */
  socketPath?: string;
  /** When it last became idle (the most recent one is warmest). */
  idleSince: number;
}

interface Request extends ConnectionJob {
  at: number;
}

export async function serveResident(options: ServeOptions, directory: string): Promise<void> {
  if (!isMainThread) return serveConnections(options, directory);
  // Detached from Terraform: Ctrl-C reaches Terraform's process group, and Terraform stops our
  // work through StopProvider; nothing else is ours to print to.
  process.on("SIGINT", () => {});
  process.on("SIGHUP", () => {});
  // However this process ends, the next launcher may start another server at once (unless
  // this one was not admitted: then not for a minute, see below).
  let keepStarting = false;
  // Before the pid is published: another server's admission may send it at once.
  let onLeaveRequest = () => {};
  process.on("SIGUSR2", () => onLeaveRequest());
  process.once("exit", () => keepStarting || rmSync(join(directory, "starting"), { recursive: true, force: true }));
  const base = dirname(directory);
  assertPrivateDirectory(base);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  assertPrivateDirectory(directory);
  for (const key of Object.keys(process.env)) if (key.startsWith("PLUGIN_")) delete process.env[key];
  const ownEnvironment = comparable(new Map(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)));
  // The working directory as a directory, not a path: a checkout moved away and recreated at the
  // same path is another directory (with a relative SCHEMAFORM_DATA_DIR, another platform).
  const ownDirectory = realpathSync(process.cwd());
  const ownCwd = directoryIdentity("/proc/self/cwd");
  const ownIdentity = processIdentity(process.pid);
  if (!ownCwd || !ownIdentity) throw new Error("this process's working directory or start time cannot be read from /proc");

  const requests = join(directory, `q${process.pid}`);
  const pidFile = join(directory, "pid");
  const slots = new Set<Slot>();
  const idleWarmestFirst = () => [...slots].filter((slot) => slot.state === "idle").sort((a, b) => b.idleSince - a.idleSince);
  const cleanUp = () => {
    rmSync(requests, { force: true });
    for (const slot of slots) if (slot.socketPath) rmSync(slot.socketPath, { force: true });
    try {
      rmSync(join(directory, BUSY_MARKER), { force: true });
      if (readFileSync(pidFile, "utf8").trim() === ownIdentity) rmSync(pidFile, { force: true });
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
  // Published last, atomically: a launcher that reads the pid (and checks the start time, so a
  // process that later takes the pid of a dead server is not taken for it) finds the FIFO ready.
  // Only when admitted: the user's servers are capped (resident-admission.ts).
  const admitted = admit(base, directory, () => {
    writeFileSync(`${pidFile}.${process.pid}`, `${ownIdentity}\n`, { mode: 0o600 });
    renameSync(`${pidFile}.${process.pid}`, pidFile);
  });
  if (!admitted) {
    // `starting` stays (its launchers start no server for a minute) and they go the direct way.
    note("not started: the user's resident servers are all busy");
    keepStarting = true;
    try {
      utimesSync(join(directory, "starting"), new Date(), new Date());
    } catch {
      // started by hand, without a mark
    }
    process.exit(0);
  }
  rmSync(join(directory, "starting"), { recursive: true, force: true });
  removeLeftovers(directory);
  removeAbandonedKeys(dirname(directory));

  const pending: Request[] = [];
  const busy = () => [...slots].filter((slot) => slot.state === "busy").length + pending.length;
  // Idle: the workers leave first, so that their exit handlers run (a runtime compiled without
  // a code cache entry writes one then), and this process follows (at most a second later).
  let leaving = false;
  const leave = () => {
    if (leaving) return;
    leaving = true;
    // Launchers from now on find no server (and start a new one); those already waiting go
    // the direct way.
    rmSync(requests, { force: true });
    try {
      if (readFileSync(pidFile, "utf8").trim() === ownIdentity) rmSync(pidFile, { force: true });
    } catch {
      // replaced meanwhile
    }
    for (const request of pending.splice(0)) refuseReply(request.replyPath);
    const exited = [...slots].map((slot) => new Promise((resolve) => slot.worker.once("exit", resolve)));
    for (const slot of slots) slot.worker.postMessage({ type: "exit" } satisfies ToWorker);
    setTimeout(() => process.exit(0), 1000).unref();
    void Promise.all(exited).then(() => process.exit(0));
  };
  let idleTimer: NodeJS.Timeout | undefined;
  let wasBusy = false;
  const armIdleExit = () => {
    clearTimeout(idleTimer);
    const isBusy = busy() > 0;
    idleTimer = isBusy ? undefined : setTimeout(leave, IDLE_EXIT_MS);
    // For the cap (resident-admission.ts): a busy server is not asked to leave, and the idle
    // one used least recently (its pid file's modification time) is asked first.
    if (isBusy === wasBusy) return;
    wasBusy = isBusy;
    try {
      if (isBusy) writeFileSync(join(directory, BUSY_MARKER), "");
      else rmSync(join(directory, BUSY_MARKER), { force: true });
      utimesSync(pidFile, new Date(), new Date());
    } catch {
      // asked to leave meanwhile (its pid file removed)
    }
  };
  // Superseded (another server published its pid: two launchers started one each; or asked to
  // leave for the cap, or by a launcher that waited in vain: pid file removed), stale (the
  // executable was reinstalled or changed), its working directory no longer at its path (moved
  // away or removed), or its directories no longer private: no new connections; gone once idle.
  const executable = executableIdentity();
  let retiring = false;
  const stillCurrent = () => {
    try {
      return (
        readFileSync(pidFile, "utf8").trim() === ownIdentity &&
        executableIdentity() === executable &&
        directoryIdentity(ownDirectory) === ownCwd &&
        notPrivate(base) === undefined &&
        notPrivate(directory) === undefined
      );
    } catch {
      return false;
    }
  };
  // Asked to leave for the cap (resident-admission.ts), which has removed our pid file.
  onLeaveRequest = () => {
    retiring = true;
    if (busy() === 0) leave();
  };
  setInterval(() => {
    if (!stillCurrent()) retiring = true;
    if (retiring && busy() === 0) leave();
    // Idle workers beyond the warmest one leave after a while.
    const idle = idleWarmestFirst();
    for (const slot of idle.slice(1)) {
      if (Date.now() - slot.idleSince > WORKER_IDLE_MS) {
        slots.delete(slot);
        slot.worker.postMessage({ type: "exit" } satisfies ToWorker);
      }
    }
  }, 5000).unref();

  // Nothing of a connection runs on this thread; its output has nowhere to go.
  process.stderr.write = (() => true) as typeof process.stderr.write;
  process.on("uncaughtException", (error) => {
    note(`uncaught exception: ${error.stack ?? String(error)}`);
    process.exit(70);
  });
  note(`serving ${directory}`);

  let failedStarts = 0;
  const startWorker = () => {
    // The same executable in a thread: main.ts sees the flag and calls serveResident, which
    // serves connections off the main thread.
    // Untracked fds: a worker wraps each reply FIFO it opens in a socket, which closes the fd
    // itself; Node would still count the fd as the thread's own, warn when the number comes back
    // ("opened in unmanaged mode twice", in Terraform's log) and close it, whoever held it by
    // then, when the worker exits.
    const worker = new Worker(process.argv[1]!, { argv: [RESIDENT_FLAG, directory], trackUnmanagedFds: false });
    const slot: Slot = { worker, state: "starting", idleSince: 0 };
    slots.add(slot);
    worker.on("message", (message: FromWorker) => {
      if (message.type !== "ready" || !slots.has(slot)) return;
      failedStarts = 0;
      slot.socketPath = message.socketPath;
      slot.job = undefined;
      slot.state = "idle";
      slot.idleSince = Date.now();
      dispatch();
    });
    worker.on("error", (error) => note(`a worker failed: ${error.stack ?? String(error)}`));
    worker.on("exit", () => {
      slots.delete(slot);
      if (slot.state === "starting") failedStarts++;
      if (slot.socketPath) rmSync(slot.socketPath, { force: true });
      if (slot.job) {
        // It died serving: its listener is gone with it, and so is its end of the reply FIFO.
        note(`connection of launcher ${slot.job.launcher} ended: its worker exited`);
        rmSync(slot.job.replyPath, { force: true });
      }
      dispatch();
    });
  };

  // Gives waiting requests to idle workers (the warmest first) and keeps one spare on the way.
  const dispatch = () => {
    if (leaving) return;
    while (pending.length > 0) {
      const request = pending[0]!;
      if (Date.now() - request.at > HANDOFF_MS) {
        pending.shift();
        note(`refused launcher ${request.launcher}: no worker was free in time`);
        refuseReply(request.replyPath);
        continue;
      }
      const idle = idleWarmestFirst()[0];
      if (!idle) break;
      pending.shift();
      const { at: _at, ...job } = request;
      idle.state = "busy";
      idle.job = job;
      idle.worker.postMessage({ type: "serve", job } satisfies ToWorker);
    }
    // Workers that die before they are ready (the executable is being rebuilt, say) are not
    // started again and again: the server serves no more and leaves once idle.
    if (failedStarts >= MAX_FAILED_STARTS) retiring = true;
    const ready = () => [...slots].filter((slot) => slot.state !== "busy").length;
    while (!retiring && ready() < pending.length + 1 && slots.size < MAX_WORKERS) startWorker();
    // Requests still waiting are looked at again when they would expire.
    if (pending.length > 0) setTimeout(dispatch, HANDOFF_MS).unref();
    armIdleExit();
  };

  // The spare first (its runtime compiles on its own thread).
  dispatch();
  // Workers listen in this directory: a path too long for a socket means no connection here.
  const socketsFit = Buffer.byteLength(join(directory, "x".repeat(SOCKET_NAME_MAX))) <= MAX_SOCKET_PATH && !/[|\n]/.test(directory);

  const accept = (launcher: number, replyPath: string) => {
    // A FIFO the launcher made in our directory for this request, and nothing else.
    if (dirname(replyPath) !== directory || !/^r\d+$/.test(replyPath.slice(directory.length + 1))) return;
    const refused = (why: string, warning?: string) => {
      note(`refused launcher ${launcher}: ${why}`);
      refuseReply(replyPath, warning);
      // Retiring and idle: gone now, so that the launcher after this one starts a new server.
      if (retiring && busy() === 0) leave();
    };
    if (!retiring && !stillCurrent()) retiring = true;
    try {
      if (statSync(`/proc/${launcher}`).uid !== process.getuid?.()) return note(`refused launcher ${launcher}: a launcher of another user`);
      const info = lstatSync(replyPath);
      if (!info.isFIFO() || info.uid !== process.getuid?.()) return note(`refused launcher ${launcher}: its reply is not a FIFO of ours`);
      const exposed = notPrivate(base) ?? notPrivate(directory);
      if (exposed) return refused(exposed, exposed);
      if (retiring || leaving) return refused("this server is superseded, its executable changed, its working directory moved, or it is leaving");
      const terraform = parentOf(launcher);
      if (terraform === undefined) return refused("the launcher is gone");
      const env = processEnvironment(launcher);
      // The same directory, not merely the same path (the path may name a new directory now).
      if (!sameEnvironment(comparable(env), ownEnvironment) || directoryIdentity(`/proc/${launcher}/cwd`) !== ownCwd) {
        return refused("the launcher's environment or working directory differs");
      }
      const clientCert = env.get("PLUGIN_CLIENT_CERT");
      const offered = (env.get("PLUGIN_PROTOCOL_VERSIONS") ?? "6").split(",").map((v) => v.trim());
      // Anything unusual is the direct path's to answer (it prints the proper message).
      if (env.get(MAGIC_COOKIE_KEY) !== MAGIC_COOKIE_VALUE || !clientCert || !offered.includes("6") || env.get("TF_DISABLE_PLUGIN_TLS")) return refused("not a TLS launch");
      if (!socketsFit) return refused("socket path too long");
      pending.push({ launcher, terraform, replyPath, clientCert, at: Date.now() });
      dispatch();
    } catch (error) {
      refused(`its request failed: ${error instanceof Error ? error.message : String(error)}`);
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
      if (match) accept(Number(match[1]), match[2]!);
    }
    // A line never gets this long; whatever it was is dropped.
    if (buffered.length > 4096) buffered = "";
  });
}

/** The executable as a file: changed (reinstalled, rebuilt) means this process's code is stale. */
function executableIdentity(): string {
  const info = statSync(process.argv[1]!);
  // Not the ctime: a chmod, touch -a or a new hard link changes it, and none changes the code.
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}`;
}

/** FIFOs and sockets of servers and launchers that died without cleaning up (their pid is not alive). */
function removeLeftovers(directory: string): void {
  for (const name of readdirSync(directory)) {
    const match = /^(?:q|r|s)(\d+)(?:(?:-\d+)+\.sock)?$/.exec(name);
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
    if (!KEY_NAME.test(name)) continue;
    const key = join(base, name);
    try {
      if (statSync(key).mtimeMs > minuteAgo) continue;
      if (existsSync(join(key, "starting")) && statSync(join(key, "starting")).mtimeMs > minuteAgo) continue;
      if (liveServer(key)) continue;
      rmSync(key, { recursive: true, force: true });
    } catch {
      // gone meanwhile, or not ours to judge
    }
  }
}
