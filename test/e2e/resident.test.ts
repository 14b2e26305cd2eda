// The resident provider server (the default on Linux; provider/README.md "Resident server"),
// driven by real Terraform and the built providers with nothing set (the path users get):
// Terraform's launches are served by one warm server per provider and environment, a killed
// server is replaced without Terraform noticing, two Terraforms share a server but not a
// thread, a worker serves connection after connection without Node's warnings in Terraform's
// log, SCHEMAFORM_RESIDENT=0 turns it off, and a Terraform killed outright takes its
// connections and launchers with it and leaves the platform's database closed. The servers'
// own log (SCHEMAFORM_RESIDENT_LOG) tells which process and thread served what. Linux (/proc).
import { existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Suite, type Workspace } from "./support/harness.js";
import { alive, pluginChildren, until } from "./support/processes.js";

const PROJECT = "resident-project";
const CONFIG = {
  terraform: {
    required_providers: {
      tsdb: { source: "schemaform/tsdb", version: "0.1.0" },
      containerbackup: { source: "schemaform/containerbackup", version: "0.1.0" },
    },
  },
  provider: { tsdb: { project_id: PROJECT }, containerbackup: { project: PROJECT } },
};

let suite: Suite;
let ws: Workspace;
let runDir: string;
let logFile: string;
let residentEnv: NodeJS.ProcessEnv;

/** The servers' log lines written since `from` (a length of the log). */
function logSince(from: number): string[] {
  return existsSync(logFile) ? readFileSync(logFile, "utf8").slice(from).split("\n").filter(Boolean) : [];
}
const logLength = () => (existsSync(logFile) ? readFileSync(logFile, "utf8").length : 0);

/** Pids named by the servers' pid files (one directory per provider and environment), of servers working in `dir` when given. */
function serverPids(dir?: string): number[] {
  const base = join(runDir, "schemaform");
  if (!existsSync(base)) return [];
  const pids: number[] = [];
  for (const key of readdirSync(base)) {
    try {
      // "<pid> <start time>"
      pids.push(Number(readFileSync(join(base, key, "pid"), "utf8").split(" ")[0]));
    } catch {
      // a directory without a published server
    }
  }
  return pids.filter(alive).filter((pid) => dir === undefined || realpathSync(readlinkSync(`/proc/${pid}/cwd`)) === realpathSync(dir));
}

interface Served {
  server: number;
  launcher: number;
  terraform: number;
  thread: number;
  /** When its handshake was written, and when it ended (log timestamps, ms). */
  from: number;
  to?: number;
}

/** "connection for launcher L of Terraform T on thread N" lines: which server and thread served which Terraform. */
function connections(lines: string[]): Served[] {
  const served: Served[] = [];
  for (const line of lines) {
    const at = Date.parse(line.slice(0, line.indexOf(" ")));
    const start = /resident (\d+): connection for launcher (\d+) of Terraform (\d+) on thread (\d+)$/.exec(line);
    if (start) served.push({ server: Number(start[1]), launcher: Number(start[2]), terraform: Number(start[3]), thread: Number(start[4]), from: at });
    const end = /resident (\d+): connection of launcher (\d+) ended: /.exec(line);
    const connection = end && served.find((c) => c.launcher === Number(end[2]) && c.server === Number(end[1]));
    if (connection) connection.to = at;
  }
  return served;
}

/**
 * Runs plans until one is served by a resident server per provider (the first command of an
 * environment leaves its mark, the second starts the servers), and returns their pids.
 */
async function warmUp(env: NodeJS.ProcessEnv = {}, workspace: Workspace = ws): Promise<number[]> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const from = logLength();
    await workspace.ok(["plan", "-input=false"], [0, 2], env);
    const servers = new Set(connections(logSince(from)).map((c) => c.server));
    if (servers.size >= 2) return [...servers];
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("no plan was served by a resident server per provider");
}

/** What the key directories hold: a started or starting server leaves `pid` or `starting`. */
function keyDirectories(): Map<string, string[]> {
  const base = join(runDir, "schemaform");
  return new Map(existsSync(base) ? readdirSync(base).map((key) => [key, readdirSync(join(base, key)).sort()]) : []);
}

beforeAll(async () => {
  suite = await Suite.create("resident");
  runDir = join(suite.root, "run");
  mkdirSync(runDir, { mode: 0o700 });
  logFile = join(suite.root, "resident.log");
  // Nothing set: the default user path (whatever the suite's environment says).
  residentEnv = { SCHEMAFORM_RESIDENT: undefined, XDG_RUNTIME_DIR: runDir, SCHEMAFORM_RESIDENT_LOG: logFile };
  ws = suite.workspaceAt(join(suite.root, "main"), residentEnv);
  mkdirSync(ws.dir);
  ws.writeJson("main.tf.json", {
    ...CONFIG,
    resource: {
      containerbackup_restore_channel: { ch: { location: "us-central1", destination_project: "projects/resident-target" } },
      tsdb_service: { a: { name: "resident-a", region_code: "us-east-1" } },
    },
  });
  await ws.ok(["init", "-input=false"]);
}, 120_000);

afterAll(async () => {
  // The servers are ours (they run in this suite's directory): none outlives the suite.
  if (logFile && existsSync(logFile)) {
    for (const match of readFileSync(logFile, "utf8").matchAll(/resident (\d+): serving/g)) {
      const pid = Number(match[1]);
      if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  }
  if (suite) await suite.dispose();
});

describe.runIf(process.platform === "linux")("resident provider server", () => {
  test("after the first launch, apply and a clean re-plan are served by one warm server per provider", async () => {
    const servers = await warmUp();
    const from = logLength();
    const applied = await ws.ok(["apply", "-auto-approve", "-input=false"]);
    expect(applied.output).toMatch(/Apply complete! Resources: 2 added/);
    const planned = await ws.tf(["plan", "-detailed-exitcode", "-input=false"]);
    expect(planned.code, planned.output).toBe(0);
    expect(planned.output).toMatch(/No changes/);

    const served = connections(logSince(from));
    // Terraform launches each provider several times per command: all of them here, by the same servers.
    expect(served.length).toBeGreaterThanOrEqual(8);
    expect(new Set(served.map((c) => c.server))).toEqual(new Set(servers));
    // Every connection ended by Terraform's Shutdown.
    expect(logSince(from).filter((line) => line.endsWith("ended: Shutdown")).length).toBe(served.length);
    expect([...ws.state().keys()].sort()).toEqual(["containerbackup_restore_channel.ch", "tsdb_service.a"]);
  }, 180_000);

  test("a worker serves connection after connection without Node's warnings reaching Terraform's log", async () => {
    const logPath = join(suite.root, "terraform-debug.log");
    const debug = { TF_LOG: "debug", TF_LOG_PATH: logPath };
    const servers = await warmUp(debug);
    const from = logLength();
    const planned = await ws.tf(["plan", "-detailed-exitcode", "-input=false"], debug);
    expect(planned.code, planned.output).toBe(0);
    // One plan is several connections per provider in a row, on the thread that served the last.
    const served = connections(logSince(from));
    const perThread = new Map<string, number>();
    for (const c of served) perThread.set(`${c.server}/${c.thread}`, (perThread.get(`${c.server}/${c.thread}`) ?? 0) + 1);
    expect(Math.max(...perThread.values())).toBeGreaterThanOrEqual(2);
    const fromPlugins = readFileSync(logPath, "utf8")
      .split("\n")
      .filter((line) => /provider\.terraform-provider-\w+: /.test(line));
    expect(fromPlugins.filter((line) => /\(node:\d+\)|Warning:/.test(line))).toEqual([]);
    // Servers of this environment only: the tests after this one count the directory's servers.
    for (const pid of servers) process.kill(pid, "SIGKILL");
    await until("this environment's servers to be gone", 10_000, () => servers.every((pid) => !alive(pid)));
  }, 180_000);

  test("two Terraform runs at once share the servers, but never a thread", async () => {
    const servers = await warmUp();
    const from = logLength();
    const [first, second] = await Promise.all([
      ws.tf(["plan", "-detailed-exitcode", "-lock=false", "-input=false"]),
      ws.tf(["plan", "-detailed-exitcode", "-lock=false", "-input=false"]),
    ]);
    expect(first.code, first.output).toBe(0);
    expect(second.code, second.output).toBe(0);
    await until("every connection to end", 10_000, () => connections(logSince(from)).every((c) => c.to !== undefined));
    const served = connections(logSince(from));
    expect(new Set(served.map((c) => c.terraform)).size).toBe(2);
    expect(new Set(served.map((c) => c.server))).toEqual(new Set(servers));
    // Connections open at the same time in one server ran on different threads: no thread
    // ever held two connections at once, so the two runs did not share a core.
    let overlapping = 0;
    for (const a of served) {
      for (const b of served) {
        if (a === b || a.server !== b.server || a.from > b.from || b.from >= a.to!) continue;
        overlapping++;
        expect(a.thread, `connections of launchers ${a.launcher} and ${b.launcher} shared a thread`).not.toBe(b.thread);
      }
    }
    expect(overlapping).toBeGreaterThan(0);
  }, 180_000);

  test("a directory's first Terraform command starts no server, its second starts one, its third is served", async () => {
    const once = suite.workspaceAt(join(suite.root, "once"), residentEnv);
    mkdirSync(once.dir);
    once.writeJson("main.tf.json", { ...CONFIG, resource: { tsdb_service: { a: { name: "resident-once", region_code: "us-east-1" } } } });
    await once.ok(["init", "-input=false"]);
    const before = keyDirectories();
    const first = await once.tf(["plan", "-detailed-exitcode", "-input=false"]);
    expect(first.code, first.output).toBe(2);
    // Each provider's launches left only their mark in a new key directory: no server started.
    const marked = [...keyDirectories()].filter(([key]) => !before.has(key));
    expect(marked.length).toBeGreaterThanOrEqual(2);
    for (const [key, entries] of marked) expect(entries, key).toEqual(["seen"]);
    // The second command starts the servers; a later one is served by them.
    expect(await warmUp({}, once)).toHaveLength(2);
  }, 180_000);

  test("SCHEMAFORM_RESIDENT=0 starts the plugin directly: no server, no connection", async () => {
    const off = { SCHEMAFORM_RESIDENT: "0" };
    const before = serverPids();
    const keysBefore = keyDirectories();
    const from = logLength();
    const planned = await ws.tf(["plan", "-detailed-exitcode", "-input=false"], off);
    expect(planned.code, planned.output).toBe(0);
    const again = await ws.tf(["plan", "-detailed-exitcode", "-input=false"], off);
    expect(again.code, again.output).toBe(0);
    expect(logSince(from)).toEqual([]);
    expect(serverPids().filter((pid) => !before.includes(pid))).toEqual([]);
    // The launcher did not even look for a server: no key directory of this environment (its
    // mark, `seen`, would be there after the first plan, and a server started by the second).
    expect([...keyDirectories().keys()].filter((key) => !keysBefore.has(key))).toEqual([]);
  }, 180_000);

  test("a killed server is replaced without Terraform noticing", async () => {
    const killed = await warmUp();
    for (const pid of killed) process.kill(pid, "SIGKILL");
    await until("the killed servers to be gone", 10_000, () => killed.every((pid) => !alive(pid)));

    // This plan finds dead servers: it is served the direct way and starts new servers.
    const during = await ws.tf(["plan", "-detailed-exitcode", "-input=false"]);
    expect(during.code, during.output).toBe(0);
    const replacements = await until("new servers", 30_000, () => {
      const pids = serverPids(ws.dir).filter((pid) => !killed.includes(pid));
      return pids.length >= 2 && pids;
    });
    const from = logLength();
    const after = await ws.tf(["plan", "-detailed-exitcode", "-input=false"]);
    expect(after.code, after.output).toBe(0);
    const served = connections(logSince(from));
    expect(served.length).toBeGreaterThan(0);
    expect(new Set(served.map((c) => c.server))).toEqual(new Set(replacements));
  }, 180_000);

  test("a server that does not answer (stopped) is waited for once, 2 s, then replaced; back, it retires", async () => {
    const stopped = await warmUp();
    for (const pid of stopped) process.kill(pid, "SIGSTOP");
    try {
      const from = logLength();
      const planned = await ws.tf(["plan", "-detailed-exitcode", "-input=false"]);
      expect(planned.code, planned.output).toBe(0);
      expect(connections(logSince(from)).filter((c) => stopped.includes(c.server))).toEqual([]);
      // The launch that waited in vain removed the stopped server's pid file and started another.
      await until("new servers", 30_000, () => serverPids(ws.dir).filter((pid) => !stopped.includes(pid)).length >= 2);
    } finally {
      for (const pid of stopped) process.kill(pid, "SIGCONT");
    }
    // Back, the stopped servers see that they were replaced and leave; the new ones serve.
    await until("the replaced servers to leave", 15_000, () => stopped.every((pid) => !alive(pid)));
    const from = logLength();
    const again = await ws.tf(["plan", "-detailed-exitcode", "-input=false"]);
    expect(again.code, again.output).toBe(0);
    const served = connections(logSince(from));
    expect(served.length).toBeGreaterThan(0);
    expect(served.filter((c) => stopped.includes(c.server))).toEqual([]);
  }, 180_000);

  test("Terraform killed mid-apply: its connections close, its launchers exit, the database is closed", async () => {
    const slow = { SCHEMAFORM_TRANSITION_SECONDS: "60" };
    ws.writeJson("main.tf.json", {
      ...CONFIG,
      resource: {
        containerbackup_restore_channel: { ch: { location: "us-central1", destination_project: "projects/resident-target" } },
        tsdb_service: { a: { name: "resident-a", region_code: "us-east-1" }, b: { name: "resident-b", region_code: "us-east-1" } },
      },
    });
    // The servers of this environment (another transition time is another environment).
    const servers = await warmUp(slow);
    const from = logLength();
    const { child: terraform, output, done: exited } = ws.applyInBackground({ ...residentEnv, ...slow });
    const pid = terraform.pid!;
    let launchers: number[] = [];
    try {
      await until("the apply to be creating the service", 60_000, () => /tsdb_service\.b: Creating\.\.\./.test(output()));
      launchers = pluginChildren(pid);
      expect(launchers.length).toBeGreaterThan(0);
      // The launchers are served by the resident servers (no Node of their own).
      const open = connections(logSince(from)).filter((c) => c.terraform === pid);
      expect(open.length).toBeGreaterThan(0);
      expect(open.every((c) => servers.includes(c.server))).toBe(true);

      terraform.kill("SIGKILL");
      await exited;
      const killedAt = Date.now();
      await until(`launchers ${launchers.join(", ")} to exit`, 15_000, () => launchers.every((p) => !alive(p)));
      expect(Date.now() - killedAt).toBeLessThan(10_000);
    } finally {
      for (const p of [pid, ...launchers]) if (alive(p)) process.kill(p, "SIGKILL");
    }
    await until("the connections to end", 10_000, () => logSince(from).some((line) => line.endsWith("ended: the launcher or its Terraform is gone")));
    // The servers live on, idle, but hold no database: the last connection closed it (no WAL left).
    await until("the platform database to be closed", 10_000, () => !existsSync(join(suite.dataDir, "platform.db-wal")));
    expect(servers.every(alive)).toBe(true);
    const again = await ws.tf(["apply", "-auto-approve", "-input=false"]);
    expect(again.code, again.output).toBe(0);
    expect([...ws.state().keys()].sort()).toEqual(["containerbackup_restore_channel.ch", "tsdb_service.a", "tsdb_service.b"]);
  }, 240_000);
});
