// What the resident provider server (provider/README.md "Resident server") trusts, on a machine
// shared with other users and over a long life, driven by real Terraform and the built provider
// (and, for the launcher's own checks, by running the executable as Terraform does):
// - the launcher refuses a base directory others can write, or another user's base (squatting),
//   key directory or pid file, with one line on stderr, and starts the plugin directly;
// - a stale key directory whose pid now belongs to an unrelated process costs no more than one
//   plan the direct way: the next is served by a new server;
// - a working directory moved away and recreated at the same path is another directory: its
//   objects go to its own (relative) data directory, not to the old tree's;
// - a CA bundle rewritten for a rotated CA is trusted by the next plan served by a warm worker;
//   a removed one no more;
// - 20 directories planned at once leave at most 8 resident servers (the per-user cap).
// The tests that need another user make one (CI runs as root) and remove it. Linux (/proc).
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openPlatform } from "../../platform/client.js";
import { privatePki } from "../platform/private-pki.js";
import { createLocalUser, type LocalUser } from "../support/second-user.js";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../provider/transport/serve.js";
import { ROOT, Suite, type Workspace } from "./support/harness.js";
import { PlatformServers, type Server } from "./support/platform-server.js";
import { alive, until } from "./support/processes.js";

const PROJECT = "trust-project";
const TSDB_ONLY = {
  terraform: { required_providers: { tsdb: { source: "schemaform/tsdb", version: "0.1.0" } } },
  provider: { tsdb: { project_id: PROJECT } },
};
const BUNDLE = join(ROOT, "dist", "provider", "provider.cjs");

let suite: Suite;
let runDir: string;
let logFile: string;
let residentEnv: NodeJS.ProcessEnv;
let other: LocalUser | undefined;

const logLength = () => (existsSync(logFile) ? readFileSync(logFile, "utf8").length : 0);
const logSince = (from: number) => (existsSync(logFile) ? readFileSync(logFile, "utf8").slice(from).split("\n").filter(Boolean) : []);
/** The servers that served a connection in these log lines. */
const servedBy = (lines: string[]) => new Set(lines.flatMap((line) => /resident (\d+): connection for launcher/.exec(line)?.[1] ?? []).map(Number));

/** Live resident servers whose command line names a key directory in `under` (this suite's run directory). */
function residentServers(under = runDir): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      const at = args.indexOf("--schemaform-resident");
      if (at > 0 && args[at + 1]?.startsWith(under) && alive(Number(entry))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** Plans until a plan is served by a resident server (the second command of a directory starts it). */
async function warmUp(ws: Workspace, env: NodeJS.ProcessEnv = {}): Promise<Set<number>> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const from = logLength();
    await ws.ok(["plan", "-input=false"], [0, 2], env);
    const servers = servedBy(logSince(from));
    if (servers.size > 0) return servers;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("no plan was served by a resident server");
}

async function tsdbWorkspace(name: string, resources?: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Promise<Workspace> {
  const ws = suite.workspaceAt(join(suite.root, name), { ...residentEnv, ...env });
  mkdirSync(ws.dir);
  ws.writeJson("main.tf.json", resources ? { ...TSDB_ONLY, resource: resources } : TSDB_ONLY);
  await ws.ok(["init", "-input=false"]);
  return ws;
}

beforeAll(async () => {
  suite = await Suite.create("resident-trust");
  // Short: the servers' sockets are made in it (a unix socket's path holds 103 bytes at most).
  runDir = mkdtempSync(join(tmpdir(), "sf-run-"));
  logFile = join(suite.root, "resident.log");
  residentEnv = { SCHEMAFORM_RESIDENT: undefined, XDG_RUNTIME_DIR: runDir, SCHEMAFORM_RESIDENT_LOG: logFile };
  other = createLocalUser();
}, 120_000);

afterAll(async () => {
  for (const pid of residentServers()) process.kill(pid, "SIGKILL");
  other?.remove();
  if (runDir) rmSync(runDir, { recursive: true, force: true });
  if (suite) await suite.dispose();
});

describe.runIf(process.platform === "linux")("the launcher trusts only directories and files of this user that nobody else can write", () => {
  let work: string;
  let clientCert: string;
  beforeAll(async () => {
    // Reachable by the other user (to squat in): 0711, and short (the servers' sockets are in it).
    work = mkdtempSync(join(tmpdir(), "sf-launcher-"));
    chmodSync(work, 0o711);
    clientCert = (await privatePki()).caPem;
  });
  afterAll(() => {
    for (const pid of residentServers(work)) process.kill(pid, "SIGKILL");
    rmSync(work, { recursive: true, force: true });
  });

  /**
   * Starts the executable as Terraform does (its magic cookie, a client certificate) with
   * XDG_RUNTIME_DIR=`run`, and returns the first line of its stdout (the handshake) and its
   * stderr by then; the plugin is ended afterwards.
   */
  async function launch(run: string, extra: NodeJS.ProcessEnv = {}): Promise<{ handshake: string; stderr: string }> {
    const env = { PATH: process.env.PATH, HOME: work, XDG_RUNTIME_DIR: run, SCHEMAFORM_PROVIDER: "tsdb", SCHEMAFORM_RESIDENT_LOG: logFile, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_CLIENT_CERT: clientCert, PLUGIN_PROTOCOL_VERSIONS: "6", ...extra };
    const child = spawn("sh", [BUNDLE], { cwd: work, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    try {
      await until("the handshake line", 20_000, () => stdout.includes("\n"));
    } finally {
      child.kill("SIGKILL");
    }
    return { handshake: stdout.split("\n")[0]!, stderr };
  }
  const warnings = (stderr: string) => stderr.split("\n").filter((line) => line.includes("not using the resident server"));

  test("a base directory others can write is refused, with one line on stderr, and the plugin starts directly", async () => {
    const run = join(work, "writable");
    mkdirSync(join(run, "schemaform"), { recursive: true });
    chmodSync(join(run, "schemaform"), 0o777);
    const { handshake, stderr } = await launch(run);
    expect(handshake).toMatch(/^1\|6\|unix\|/);
    expect(warnings(stderr)).toHaveLength(1);
    expect(warnings(stderr)[0]).toContain(`${join(run, "schemaform")} or`);
    expect(warnings(stderr)[0]).toContain("is writable by group or others");
    // Nothing of ours was made there: no key directory, no mark, no server.
    expect(readdirSync(join(run, "schemaform"))).toEqual([]);
  }, 60_000);

  test("a base directory another user made first (squatting) is told on stderr", async () => {
    const run = join(work, "squatted");
    mkdirSync(run);
    chmodSync(run, 0o1777);
    other!.run("mkdir", ["-m", "700", join(run, "schemaform")]);
    const { handshake, stderr } = await launch(run);
    expect(handshake).toMatch(/^1\|6\|unix\|/);
    expect(warnings(stderr)).toEqual([expect.stringContaining(`${join(run, "schemaform")} is not a directory of this user (did another user make it first?)`)]);
  }, 60_000);

  test("a key directory or pid file of another user is refused; with a live server, a base made writable later is refused by it", async () => {
    const run = join(work, "keys");
    mkdirSync(run);
    // The first launch leaves its mark in a new key directory (as Terraform's first command does).
    expect(warnings((await launch(run)).stderr)).toEqual([]);
    const base = join(run, "schemaform");
    const [key] = readdirSync(base);
    const keyDir = join(base, key!);
    expect(readdirSync(keyDir)).toEqual(["seen"]);

    // The key directory is another user's (made while the base was open to others).
    renameSync(keyDir, `${keyDir}.ours`);
    chmodSync(base, 0o733);
    other!.run("mkdir", ["-m", "700", keyDir]);
    chmodSync(base, 0o700);
    expect(warnings((await launch(run)).stderr)).toEqual([expect.stringContaining(`${keyDir} is not a directory of this user`)]);
    rmSync(keyDir, { recursive: true });
    renameSync(`${keyDir}.ours`, keyDir);

    // A pid file (and request FIFO) of another user naming a live process: not asked at all.
    const sleeper = spawn("sleep", ["60"], { stdio: "ignore" });
    try {
      writeFileSync(join(keyDir, "pid"), `${sleeper.pid}\n`);
      execFileSync("mkfifo", [join(keyDir, `q${sleeper.pid}`)]);
      chownSync(join(keyDir, "pid"), other!.uid, other!.gid);
      chownSync(join(keyDir, `q${sleeper.pid}`), other!.uid, other!.gid);
      const planted = await launch(run);
      expect(planted.handshake).toMatch(/^1\|6\|unix\|/);
      expect(warnings(planted.stderr)).toEqual([expect.stringContaining(`the pid file or request FIFO in ${keyDir} is not this user's`)]);
    } finally {
      sleeper.kill("SIGKILL");
      rmSync(join(keyDir, "pid"), { force: true });
      rmSync(join(keyDir, `q${sleeper.pid}`), { force: true });
    }

    // A live server (an earlier Terraform, pid 1, launched us: this launch starts one), then a
    // base made writable by others: the server refuses, and the launcher says why.
    writeFileSync(join(keyDir, "seen"), "1\n");
    await launch(run);
    await until("the server to publish its pid", 30_000, () => existsSync(join(keyDir, "pid")));
    const from = logLength();
    const served = await launch(run);
    expect(servedBy(logSince(from)).size).toBe(1);
    expect(warnings(served.stderr)).toEqual([]);
    chmodSync(base, 0o777);
    try {
      const refused = await launch(run);
      expect(refused.handshake).toMatch(/^1\|6\|unix\|/);
      expect(warnings(refused.stderr)).toEqual([expect.stringContaining(`${base} is writable by group or others`)]);
    } finally {
      chmodSync(base, 0o700);
    }
  }, 120_000);
});

describe.runIf(process.platform === "linux")("the resident server with Terraform", () => {
  test("a stale key directory whose pid an unrelated process took costs at most one plan the direct way", async () => {
    const ws = await tsdbWorkspace("stale");
    const [server] = await warmUp(ws);
    // Its key directory: the last argument of its command line.
    const key = readFileSync(`/proc/${server}/cmdline`, "utf8").split("\0").filter(Boolean).slice(-1)[0]!;
    expect(existsSync(join(key, "pid"))).toBe(true);
    // The server dies without cleaning up (an OOM kill), and its pid goes to another process:
    // the pid file and request FIFO it left now name that process.
    const published = readFileSync(join(key, "pid"), "utf8");
    process.kill(server!, "SIGKILL");
    await until("the server to be gone", 10_000, () => !alive(server!));
    const unrelated = spawn("sleep", ["300"], { stdio: "ignore" });
    try {
      writeFileSync(join(key, "pid"), published.replace(/^\d+/, String(unrelated.pid)));
      execFileSync("mkfifo", ["-m", "600", join(key, `q${unrelated.pid}`)]);
      const first = await ws.tf(["plan", "-detailed-exitcode", "-input=false"]);
      expect(first.code, first.output).toBe(0);
      // The next plan is served again, by a new server.
      const from = logLength();
      const second = await ws.tf(["plan", "-detailed-exitcode", "-input=false"]);
      expect(second.code, second.output).toBe(0);
      const servers = servedBy(logSince(from));
      expect(servers.size, `plans took ${first.ms} and ${second.ms} ms`).toBe(1);
      expect(servers.has(server!)).toBe(false);
    } finally {
      unrelated.kill("SIGKILL");
    }
  }, 180_000);

  test("a working directory moved away and recreated at its path writes to its own data directory", async () => {
    // A relative data directory: each checkout has its own platform.
    const ws = await tsdbWorkspace("moved", { tsdb_service: { a: { name: "moved-a", region_code: "us-east-1" } } }, { SCHEMAFORM_DATA_DIR: "platform" });
    const [server] = await warmUp(ws);
    renameSync(ws.dir, `${ws.dir}.old`);
    mkdirSync(ws.dir);
    for (const file of ["main.tf.json", ".terraform", ".terraform.lock.hcl"]) cpSync(join(`${ws.dir}.old`, file), join(ws.dir, file), { recursive: true });
    const applied = await ws.ok(["apply", "-auto-approve", "-input=false"]);
    expect(applied.output).toMatch(/Apply complete! Resources: 1 added/);
    const names = async (dataDir: string) => {
      if (!existsSync(join(dataDir, "platform.db"))) return [];
      const platform = openPlatform({ dataDir });
      try {
        return (await platform.services.list(PROJECT)).map((service) => service.name);
      } finally {
        await platform.close();
      }
    };
    expect(await names(join(ws.dir, "platform"))).toEqual(["moved-a"]);
    expect(await names(join(`${ws.dir}.old`, "platform"))).toEqual([]);
    // The old tree's server, no longer in a directory at its path, retires.
    await until("the moved directory's server to leave", 15_000, () => !alive(server!));

    // Deleted and recreated (a CI checkout): it works as the direct path does.
    await warmUp(ws);
    rmSync(ws.dir, { recursive: true });
    mkdirSync(ws.dir);
    for (const file of ["main.tf.json", ".terraform", ".terraform.lock.hcl"]) cpSync(join(`${ws.dir}.old`, file), join(ws.dir, file), { recursive: true });
    const again = await ws.tf(["apply", "-auto-approve", "-input=false"]);
    expect(again.code, again.output).toBe(0);
    expect(await names(join(ws.dir, "platform"))).toEqual(["moved-a"]);
  }, 240_000);

  test("a rewritten CA bundle is trusted on the next plan, a removed one no more", async () => {
    const servers = new PlatformServers(suite.env);
    try {
      const dataDir = join(suite.root, "tls-platform");
      const token = await servers.token(dataDir, PROJECT);
      const pkiFiles = async (name: string) => {
        const pki = await privatePki();
        const files = { ca: join(suite.root, `${name}-ca.pem`), cert: join(suite.root, `${name}.pem`), key: join(suite.root, `${name}-key.pem`) };
        writeFileSync(files.ca, pki.caPem);
        writeFileSync(files.cert, pki.certPem);
        writeFileSync(files.key, pki.keyPem, { mode: 0o600 });
        return files;
      };
      const first = await pkiFiles("first");
      let platform: Server = await servers.serve(dataDir, 0, 0, ["--tls-cert", first.cert, "--tls-key", first.key]);
      const caBundle = join(suite.root, "ca-bundle.pem");
      cpSync(first.ca, caBundle);
      const ws = suite.workspaceAt(join(suite.root, "tls"), { ...residentEnv, NODE_EXTRA_CA_CERTS: caBundle, TSDB_ACCESS_TOKEN: token });
      mkdirSync(ws.dir);
      ws.writeJson("main.tf.json", {
        terraform: TSDB_ONLY.terraform,
        provider: { tsdb: { project_id: PROJECT, endpoint: platform.url } },
        resource: { tsdb_vpcs: { net: { name: "trust-net", cidr: "10.30.0.0/16", region_code: "us-east-1" } } },
      });
      await ws.ok(["init", "-input=false"]);
      await ws.ok(["apply", "-auto-approve", "-input=false"]);
      // Plans refresh the VPC over https, served by warm workers that have trusted the first CA.
      await warmUp(ws);
      await warmUp(ws);

      // The CA rotates: the server gets a certificate of the new CA (same port), the bundle the new CA.
      const second = await pkiFiles("second");
      platform.child.kill("SIGKILL");
      await new Promise((resolve) => platform.child.once("exit", resolve));
      platform = await servers.serve(dataDir, platform.port, 0, ["--tls-cert", second.cert, "--tls-key", second.key]);
      cpSync(second.ca, caBundle);
      const from = logLength();
      const rotated = await ws.tf(["plan", "-detailed-exitcode", "-input=false"]);
      expect(rotated.code, rotated.output).toBe(0);
      expect(servedBy(logSince(from)).size).toBeGreaterThan(0);

      // Removed: the plan fails as untrusted (nothing but Node's own roots is trusted).
      rmSync(caBundle);
      const removed = await ws.tf(["plan", "-detailed-exitcode", "-input=false"]);
      expect(removed.code).toBe(1);
      expect(removed.output.replace(/\s+/g, " ")).toContain("certificate is not trusted");
    } finally {
      await servers.stopAll();
    }
  }, 240_000);

  test("20 directories planned at once leave at most 8 resident servers", async () => {
    const template = await tsdbWorkspace("many-template");
    const many = Array.from({ length: 20 }, (_, i) => {
      const ws = suite.workspaceAt(join(suite.root, `many-${i}`), residentEnv);
      mkdirSync(ws.dir);
      for (const file of ["main.tf.json", ".terraform", ".terraform.lock.hcl"]) cpSync(join(template.dir, file), join(ws.dir, file), { recursive: true });
      return ws;
    });
    // A first command in each directory leaves its mark; the plans after it start servers.
    await Promise.all(many.map((ws) => ws.ok(["validate"])));
    await Promise.all(many.map((ws) => ws.ok(["plan", "-input=false", "-lock=false"], [0, 2])));
    await Promise.all(many.map((ws) => ws.ok(["plan", "-input=false", "-lock=false"], [0, 2])));
    // A server that was not admitted exits at once; one asked to leave, once idle (within 5 s).
    await until("at most 8 resident servers", 20_000, () => residentServers().length <= 8);
    expect(residentServers().length).toBeGreaterThan(0);
  }, 420_000);
});
