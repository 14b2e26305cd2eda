// `schemaform platform …`: run the platform as an HTTP server, and manage its credentials.
//
//   schemaform platform serve [--port N] [--host 127.0.0.1] [--data-dir DIR | --database URL --secrets-key-file FILE]
//                             [--tls-cert FILE --tls-key FILE] [--access-log FILE|-] [--shutdown-timeout SECONDS]
//   schemaform platform migrate [STORAGE]
//   schemaform platform export [STORAGE] [--out FILE|-]
//   schemaform platform import [STORAGE] [--in FILE|-] [--replace]
//   schemaform platform credentials create (--project ID | --all-projects) [--token] [--description TEXT] [STORAGE] [--json]
//   schemaform platform credentials list [STORAGE] [--json]
//   schemaform platform credentials revoke ID [STORAGE]
//   schemaform platform status [--data-dir DIR] [--json]
//   schemaform platform agent [--data-dir DIR]
// STORAGE: --data-dir DIR (SQLite, the default), or --database postgres://… with --secrets-key-file
// FILE (or SCHEMAFORM_DATABASE_URL, SCHEMAFORM_SECRETS_KEY_FILE).

import { parseArgs } from "node:util";
import type { EmbeddedPlatform } from "../../platform/embedded.js";
import type { SecretsKeys } from "../../platform/secrets.js";

const USAGE = `usage:
  schemaform platform serve [--port N] [--host 127.0.0.1] [STORAGE] [--tls-cert FILE --tls-key FILE]
                            [--access-log FILE|-] [--shutdown-timeout SECONDS] [--quiet]
      Serve the platform over HTTP (default http://127.0.0.1:8790), or https with --tls-cert and
      --tls-key (PEM files; or SCHEMAFORM_TLS_CERT, SCHEMAFORM_TLS_KEY). Requests are logged on
      stderr, one readable line each; --access-log writes one JSON line per request instead, to
      FILE (appended) or to stderr ('-'); --quiet logs nothing. On SIGTERM or Ctrl-C it stops
      accepting connections and lets the requests in flight finish (at most --shutdown-timeout
      seconds, default 10; a second signal cuts them), then exits 0.
  schemaform platform migrate [STORAGE]
      Apply the schema migrations (as serve does at start-up) and print the version before and after.
  schemaform platform export [STORAGE] [--out FILE|-]
  schemaform platform import [STORAGE] [--in FILE|-] [--replace]
      Copy every row of a platform (SQLite or PostgreSQL) to a JSON-lines file, and load one into an
      empty platform (--replace: empty it first). Secrets stay encrypted as stored: import checks
      that they open with the importing platform's key, which must be the exporting one's (a
      SQLite data directory's platform.key; give it with --secrets-key-file).
  schemaform platform credentials create --project ID [--token] [--description TEXT] [STORAGE] [--json]
      Create an access key and secret key (or, with --token, an access token) for a project
      (--all-projects: for every project). The secret is printed once; only a hash is stored.
  schemaform platform credentials list [STORAGE] [--json]
  schemaform platform credentials revoke ID [STORAGE]
  schemaform platform status [--data-dir DIR] [--json]
      What the data plane runs: each service's status, processes (pid, port), disk and warnings,
      each connector's and exporter's status, and whether the agent runs.
  schemaform platform agent [--data-dir DIR]
      Run the data plane's agent in the foreground (platform calls start it on demand, detached;
      one per data directory; it leaves when nothing needs it).
STORAGE:
  --data-dir DIR          SQLite in DIR (default: SCHEMAFORM_DATA_DIR, else the per-user data directory)
  --database URL          PostgreSQL, postgres://user:password@host:5432/db (or SCHEMAFORM_DATABASE_URL),
                          shared by any number of server replicas; needs the secrets key:
  --secrets-key-file FILE 32 random bytes in base64 (\`openssl rand -base64 32\`), the same file on every
                          replica (or SCHEMAFORM_SECRETS_KEY_FILE, SCHEMAFORM_SECRETS_KEY); private
                          (chmod 600); never stored in the database, only a check value that makes
                          a replica, migrate, export or import with another key refuse. Several keys
                          (the flag repeated, or one per line; the newest last) rotate it: migrate
                          re-encrypts every secret under the newest. migrate and export need no key
                          but check one given; import checks the secrets it loads against it (into
                          SQLite: installed as the data directory's platform.key if it has none)
`;

/** The one usage line of each sub-command, for a usage error (the whole text is for --help). */
const USAGE_LINE: Record<string, string> = {
  serve: "schemaform platform serve [--port N] [--host 127.0.0.1] [STORAGE] [--tls-cert FILE --tls-key FILE] [--access-log FILE|-] [--shutdown-timeout SECONDS] [--quiet]",
  migrate: "schemaform platform migrate [STORAGE]",
  export: "schemaform platform export [STORAGE] [--out FILE|-]",
  import: "schemaform platform import [STORAGE] [--in FILE|-] [--replace]",
  credentials: "schemaform platform credentials create (--project ID | --all-projects) [--token] [--description TEXT] [STORAGE] [--json] | list [STORAGE] [--json] | revoke ID [STORAGE]",
};
const STORAGE_LINE = "STORAGE: --data-dir DIR | --database URL --secrets-key-file FILE";

const STORAGE_OPTIONS = {
  "data-dir": { type: "string" },
  database: { type: "string" },
  // several for a rotation (the newest last): platform/README.md, "Rotating the secrets key"
  "secrets-key-file": { type: "string", multiple: true },
} as const;

type StorageFlags = { "data-dir"?: string; database?: string; "secrets-key-file"?: string[] };

/** The platform on the storage the flags and environment name (SQLite unless a database URL is given). */
async function openFromFlags(values: StorageFlags, onDataPlaneChange?: () => void): Promise<EmbeddedPlatform> {
  const { EmbeddedPlatform } = await import("../../platform/embedded.js");
  const target = await targetFromFlags(values);
  if (target.kind === "sqlite") {
    if (values["secrets-key-file"] !== undefined) throw new UsageError("--secrets-key-file goes with --database: a SQLite platform keeps its key in its data directory");
    return new EmbeddedPlatform({ dataDir: target.dataDir });
  }
  const { url } = target;
  const { loadSharedKey } = await import("../../platform/secrets.js");
  const { openPostgres } = await import("../../platform/postgres.js");
  let secretsKey: SecretsKeys;
  try {
    secretsKey = loadSharedKey(values["secrets-key-file"]);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return new EmbeddedPlatform({ storage: { open: () => openPostgres({ url }), secretsKey }, onDataPlaneChange });
}

class UsageError extends Error {}

/**
 * The database the flags and environment name (SQLite unless a database URL is given); migrate,
 * export and import need nothing more (no secrets key: secrets are copied as stored, encrypted).
 */
async function targetFromFlags(values: StorageFlags): Promise<import("../../platform/schema.js").StorageTarget> {
  if (values["data-dir"] !== undefined && values.database !== undefined) throw new UsageError("give --data-dir (SQLite) or --database (PostgreSQL), not both");
  // an explicit flag wins over the environment: --data-dir over SCHEMAFORM_DATABASE_URL
  const url = values["data-dir"] !== undefined ? undefined : (values.database ?? (process.env.SCHEMAFORM_DATABASE_URL || undefined));
  if (url === undefined) {
    const { defaultDataDir } = await import("../../platform/config.js");
    return { kind: "sqlite", dataDir: values["data-dir"] ?? defaultDataDir() };
  }
  if (!/^postgres(ql)?:\/\//.test(url)) throw new UsageError("--database must be a PostgreSQL URL: postgres://user:password@host:5432/database");
  return { kind: "postgres", url };
}

/**
 * The secrets keys migrate and export check the platform against (and migrate rotates to), when
 * given: PostgreSQL's from the flags or the environment; a SQLite platform's is its own platform.key.
 */
async function keysIfGiven(values: StorageFlags, target: import("../../platform/schema.js").StorageTarget): Promise<SecretsKeys | undefined> {
  if (target.kind === "sqlite") {
    if (values["secrets-key-file"] !== undefined) throw new UsageError("--secrets-key-file goes with --database: a SQLite platform keeps its key in its data directory");
    return undefined;
  }
  if (!values["secrets-key-file"] && !process.env.SCHEMAFORM_SECRETS_KEY_FILE && !process.env.SCHEMAFORM_SECRETS_KEY) return undefined;
  const { loadSharedKey } = await import("../../platform/secrets.js");
  try {
    return loadSharedKey(values["secrets-key-file"]);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Where a target is, for messages (never a password). */
async function describeTarget(target: import("../../platform/schema.js").StorageTarget): Promise<string> {
  if (target.kind === "sqlite") return `data directory ${target.dataDir}`;
  const { redact } = await import("../../platform/postgres.js");
  return `database ${redact(target.url)}`;
}


/** The sub-command being run, for the usage line of its errors. */
let current: string | undefined;

function fail(message: string): number {
  const line = current && USAGE_LINE[current];
  process.stderr.write(
    line
      ? `schemaform platform: ${message}\nusage: ${line}\n       ${STORAGE_LINE}\n(schemaform platform --help for more)\n`
      : `schemaform platform: ${message}\n\n${USAGE}`,
  );
  return 2;
}

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  current = sub;
  if (!sub || sub === "--help" || sub === "-h" || sub === "help") {
    process.stdout.write(USAGE);
    return sub ? 0 : 2;
  }
  try {
    if (sub === "serve") return await serve(rest);
    if (sub === "credentials") return await credentials(rest);
    if (sub === "migrate") return await migrate(rest);
    if (sub === "export") return await exportCommand(rest);
    if (sub === "import") return await importCommand(rest);
    if (sub === "agent") return await (await import("./platform-dataplane.js")).agentCommand(rest);
    if (sub === "status") return await (await import("./platform-dataplane.js")).statusCommand(rest);
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message);
    // the secrets key is not the platform's (key-check.ts): said as it is, without a stack
    if (error instanceof Error && error.name === "SecretsKeyMismatch") {
      process.stderr.write(`schemaform platform ${sub}: ${error.message}\n`);
      return 1;
    }
    if (error instanceof TypeError && (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) return fail(error.message);
    throw error;
  }
  return fail(`unknown sub-command '${sub}'`);
}

async function serve(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string" },
      host: { type: "string", default: "127.0.0.1" },
      ...STORAGE_OPTIONS,
      "tls-cert": { type: "string" },
      "tls-key": { type: "string" },
      "access-log": { type: "string" },
      "shutdown-timeout": { type: "string" },
      quiet: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const { DEFAULT_PORT, DEFAULT_SHUTDOWN_GRACE_MS, startServer } = await import("../../platform/server.js");
  let port = DEFAULT_PORT;
  if (values.port !== undefined) {
    if (!/^[0-9]+$/.test(values.port) || Number(values.port) > 65535) return fail(`--port must be a port number (0-65535), got '${values.port}'`);
    port = Number(values.port);
  }
  let graceMs = DEFAULT_SHUTDOWN_GRACE_MS;
  if (values["shutdown-timeout"] !== undefined) {
    if (!/^[0-9]+(\.[0-9]+)?$/.test(values["shutdown-timeout"])) return fail(`--shutdown-timeout must be a number of seconds, got '${values["shutdown-timeout"]}'`);
    graceMs = Math.round(Number(values["shutdown-timeout"]) * 1000);
  }
  // checked before the database is opened: a wrong file is the first thing to fix
  const { TlsSetupError, loadTlsFiles, tlsFilesFrom } = await import("../../platform/tls.js");
  let tls: { cert: Buffer; key: Buffer } | undefined;
  try {
    const files = tlsFilesFrom(values["tls-cert"], values["tls-key"]);
    tls = files && loadTlsFiles(files.certFile, files.keyFile);
  } catch (error) {
    if (error instanceof TlsSetupError) return fail(error.message);
    throw error;
  }
  const { openAccessLog } = await import("../../platform/access-log.js");
  let accessLog: ReturnType<typeof openAccessLog> | undefined;
  try {
    accessLog = values["access-log"] === undefined || values.quiet ? undefined : openAccessLog(values["access-log"]);
  } catch (error) {
    return fail((error as Error).message);
  }
  const toStderr = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
  // the JSON access log replaces the human-readable request lines, not the internal errors
  const log = values.quiet || accessLog ? undefined : toStderr;
  const errorLog = values.quiet ? undefined : toStderr;
  // on PostgreSQL the data plane's agent runs in this process (one of the replicas reconciles)
  const { changeRelay, serveDataPlane } = await import("../../platform/dataplane/serve-plane.js");
  const relay = (values.database ?? process.env.SCHEMAFORM_DATABASE_URL) ? changeRelay() : undefined;
  const platform = await openFromFlags(values, relay?.notify);
  const server = await startServer({ platform, host: values.host, port, log, errorLog, accessLog: accessLog && ((entry) => accessLog.write(entry)), tls });
  const storage = (await platform.core()).ctx.store;
  const where = storage.kind === "sqlite" ? `data directory: ${platform.dataDir}` : `database: ${storage.location}`;
  process.stdout.write(`schemaform platform listening on ${server.url} (${where})\n`);
  const dataPlane = await serveDataPlane(platform, relay, (line) => process.stderr.write(`${line}\n`));
  if (!tls && values.host !== "127.0.0.1" && values.host !== "localhost" && values.host !== "::1") {
    process.stderr.write("warning: the server speaks plain HTTP; give --tls-cert and --tls-key, or put it behind TLS, before exposing it beyond this machine\n");
  }
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  // Graceful: stop accepting, let the requests in flight finish (at most graceMs), then close the
  // database. A second signal cuts them at once.
  const now = () => void server.close(0);
  process.once("SIGINT", now);
  process.once("SIGTERM", now);
  const pending = server.inFlight();
  process.stderr.write(
    pending > 0 ? `schemaform platform stopping: finishing ${pending} request(s) in flight (at most ${graceMs / 1000} s; signal again to cut them)\n` : "schemaform platform stopping\n",
  );
  await server.close(graceMs);
  await dataPlane?.stop();
  await platform.close();
  await accessLog?.close();
  process.stderr.write("schemaform platform stopped\n");
  return 0;
}

/** The answer to --help or to a stray argument of migrate, export and import; undefined: go on. */
function helpOrStray(help: boolean | undefined, positionals: string[]): number | undefined {
  if (help) {
    process.stdout.write(USAGE);
    return 0;
  }
  return positionals.length > 0 ? fail(`unexpected argument '${positionals[0]}'`) : undefined;
}

async function migrate(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { ...STORAGE_OPTIONS, help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
  const answered = helpOrStray(values.help, positionals);
  if (answered !== undefined) return answered;
  const target = await targetFromFlags(values);
  const keys = await keysIfGiven(values, target);
  const { migrateTarget, openTarget } = await import("../../platform/schema.js");
  const where = await describeTarget(target);
  let versions: { before: number; after: number };
  try {
    versions = await migrateTarget(target);
  } catch (error) {
    process.stderr.write(`schemaform platform migrate: ${where}: ${(error as Error).message}\n`);
    return 1;
  }
  const { before, after } = versions;
  process.stdout.write(
    before === after ? `schema version ${after}: ${where} is up to date\n` : `schema version ${before} -> ${after}: applied ${after - before} migration(s) to ${where}\n`,
  );
  if (!keys) return 0;
  // given keys: the platform's must be among them, and its secrets move to the newest (a rotation)
  const { SecretBox, keyFingerprint } = await import("../../platform/secrets.js");
  const { reencryptSecrets, storedKeyCheck } = await import("../../platform/key-check.js");
  const box = new SecretBox(keys);
  const newest = box.checkValues()[0]!;
  const store = await openTarget(target);
  try {
    if ((await storedKeyCheck(store)) === newest) {
      process.stdout.write(`secrets key: the platform's secrets are under the newest key of ${keys.source} (fingerprint ${keyFingerprint(newest)})\n`);
      return 0;
    }
    const count = await reencryptSecrets(store, box);
    process.stdout.write(`secrets key: re-encrypted ${count} secret(s) under the newest key of ${keys.source} (fingerprint ${keyFingerprint(newest)}); serve with it from now on\n`);
    return 0;
  } finally {
    await store.close();
  }
}

async function exportCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { ...STORAGE_OPTIONS, out: { type: "string", default: "-" }, help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
  const answered = helpOrStray(values.help, positionals);
  if (answered !== undefined) return answered;
  const target = await targetFromFlags(values);
  const keys = await keysIfGiven(values, target);
  const where = await describeTarget(target);
  const { LATEST_SCHEMA_VERSION, openTarget, schemaVersion } = await import("../../platform/schema.js");
  const { exportPlatform } = await import("../../platform/transfer.js");
  let exported: { lines: string[]; rows: number };
  try {
    // Opening a database migrates it: an export must leave its source as it found it, so it opens
    // only one already at this schemaform's version.
    const version = await schemaVersion(target);
    if (version === 0) {
      process.stderr.write(`schemaform platform export: there is no platform in the ${where}\n`);
      return 1;
    }
    if (version > LATEST_SCHEMA_VERSION) {
      process.stderr.write(
        `schemaform platform export: the ${where} was written by a newer schemaform (schema version ${version}, this one's is ${LATEST_SCHEMA_VERSION}); export it with the schemaform that wrote it\n`,
      );
      return 1;
    }
    if (version !== LATEST_SCHEMA_VERSION) {
      process.stderr.write(
        `schemaform platform export: the ${where} is at schema version ${version} and this schemaform's is ${LATEST_SCHEMA_VERSION}: ` +
          "run `schemaform platform migrate` against it with this schemaform first (export does not change it), or export it with the schemaform version that matches it\n",
      );
      return 1;
    }
    const store = await openTarget(target);
    try {
      if (keys) {
        const { SecretBox } = await import("../../platform/secrets.js");
        const { checkSecretsKey } = await import("../../platform/key-check.js");
        await checkSecretsKey(store, new SecretBox(keys), { record: false, newest: false });
      }
      exported = await exportPlatform(store);
    } finally {
      await store.close();
    }
  } catch (error) {
    process.stderr.write(`schemaform platform export: ${where}: ${(error as Error).message}\n`);
    return 1;
  }
  const { lines, rows } = exported;
  const text = `${lines.join("\n")}\n`;
  if (values.out === "-") process.stdout.write(text);
  else {
    const { renameSync, writeFileSync } = await import("node:fs");
    // the file appears whole or not at all; 0600: it holds credential hashes and encrypted secrets
    const partial = `${values.out}.partial`;
    try {
      writeFileSync(partial, text, { mode: 0o600 });
      renameSync(partial, values.out);
    } catch (error) {
      process.stderr.write(`schemaform platform export: cannot write ${values.out}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
      return 1;
    }
    process.stderr.write(`exported ${rows} rows from the ${where} to ${values.out}\n`);
  }
  return 0;
}

async function importCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { ...STORAGE_OPTIONS, in: { type: "string", default: "-" }, replace: { type: "boolean", default: false }, help: { type: "boolean", short: "h" } },
    allowPositionals: true,
    strict: true,
  });
  const answered = helpOrStray(values.help, positionals);
  if (answered !== undefined) return answered;
  const target = await targetFromFlags(values);
  const where = await describeTarget(target);
  const { readFileSync } = await import("node:fs");
  let text: string;
  try {
    text = readFileSync(values.in === "-" ? 0 : values.in, "utf8");
  } catch (error) {
    process.stderr.write(`schemaform platform import: cannot read ${values.in === "-" ? "the standard input" : values.in}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
    return 1;
  }
  // The key the imported secrets must open with: the shared key of a PostgreSQL platform, or a
  // SQLite data directory's own platform.key (installed from --secrets-key-file when it has none).
  const { existsSync, mkdirSync, writeFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { KEY_FILE, SecretBox, loadSharedKey } = await import("../../platform/secrets.js");
  const sameKeys = (a: SecretsKeys, b: SecretsKeys) => a.keys.length === b.keys.length && a.keys.every((k, i) => k.equals(b.keys[i]!));
  const given = values["secrets-key-file"];
  let keys: SecretsKeys | undefined;
  let installKeyIn: string | undefined;
  try {
    if (target.kind === "postgres") {
      if (given || process.env.SCHEMAFORM_SECRETS_KEY_FILE || process.env.SCHEMAFORM_SECRETS_KEY) keys = loadSharedKey(given);
    } else {
      const own = join(target.dataDir, KEY_FILE);
      const existing = existsSync(own) ? loadSharedKey(own, {}) : undefined;
      keys = given ? loadSharedKey(given, {}) : existing;
      if (given && existing && !sameKeys(existing, keys!)) throw new Error(`the data directory already has another key (${own}); import into a new data directory`);
      if (given && !existing) installKeyIn = target.dataDir;
    }
  } catch (error) {
    process.stderr.write(`schemaform platform import: ${(error as Error).message}\n`);
    return 1;
  }
  const { openTarget } = await import("../../platform/schema.js");
  const { importPlatform } = await import("../../platform/transfer.js");
  let rows: number;
  try {
    const store = await openTarget(target);
    try {
      rows = await importPlatform(store, text, { replace: values.replace, box: keys && new SecretBox(keys) });
    } finally {
      await store.close();
    }
  } catch (error) {
    process.stderr.write(`schemaform platform import: ${where}: ${(error as Error).message}\n`);
    return 1;
  }
  if (installKeyIn) {
    mkdirSync(installKeyIn, { recursive: true, mode: 0o700 });
    writeFileSync(join(installKeyIn, KEY_FILE), keys!.keys.map((k) => `${k.toString("base64")}\n`).join(""), { mode: 0o600, flag: "wx" });
  }
  process.stdout.write(
    `imported ${rows} rows into the ${where}\n` +
      (target.kind === "postgres"
        ? "Serve it with the same secrets key (--secrets-key-file or SCHEMAFORM_SECRETS_KEY_FILE on every replica).\n"
        : keys
          ? `Its secrets open with the data directory's ${KEY_FILE}.\n`
          : ""),
  );
  return 0;
}

async function credentials(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (action === "--help" || action === "-h" || action === "help" || rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(USAGE);
    return 0;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      project: { type: "string" },
      "all-projects": { type: "boolean", default: false },
      token: { type: "boolean", default: false },
      description: { type: "string", default: "" },
      ...STORAGE_OPTIONS,
      json: { type: "boolean", default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  const platform = await openFromFlags(values);
  try {
    const core = await platform.core();
    if (action === "create") {
      if (positionals.length > 0) return fail(`unexpected argument '${positionals[0]}'`);
      if (values["all-projects"] === (values.project !== undefined)) return fail("give exactly one of --project ID and --all-projects");
      const project = values.project ?? null;
      if (project !== null && (project.trim() === "" || /[/\s]/.test(project))) return fail("--project must be a project id without slashes or spaces");
      // printed by `credentials list`, one line per credential: no control or bidirectional override character
      if (/[\p{Cc}\u202a-\u202e\u2066-\u2069]/u.test(values.description)) return fail("--description must not contain control characters (line breaks included) or bidirectional override characters");
      const scope = project === null ? "every project" : `project ${project}`;
      if (values.token) {
        const { tokenId, token } = await core.credentials.createAccessToken(project, values.description);
        if (values.json) process.stdout.write(`${JSON.stringify({ id: tokenId, project, access_token: token })}\n`);
        else {
          process.stdout.write(
            `Created access token ${tokenId} for ${scope}.\n` +
              `access token: ${token}\n` +
              "It is shown only now: the platform keeps only a hash of it.\n" +
              "Use it as the provider's access_token (TSDB_ACCESS_TOKEN or CONTAINERBACKUP_ACCESS_TOKEN).\n",
          );
        }
      } else {
        const { accessKey, secretKey } = await core.credentials.createKeyPair(project, values.description);
        if (values.json) process.stdout.write(`${JSON.stringify({ id: accessKey, project, access_key: accessKey, secret_key: secretKey })}\n`);
        else {
          process.stdout.write(
            `Created an access key for ${scope}.\n` +
              `access key: ${accessKey}\n` +
              `secret key: ${secretKey}\n` +
              "The secret key is shown only now: the platform keeps only a hash of it.\n" +
              "Use them as the tsdb provider's access_key and secret_key (TSDB_ACCESS_KEY and TSDB_SECRET_KEY).\n",
          );
        }
      }
      return 0;
    }
    if (action === "list") {
      const all = await core.credentials.list();
      if (values.json) process.stdout.write(`${JSON.stringify(all)}\n`);
      else if (all.length === 0) process.stdout.write("no credentials\n");
      else {
        for (const c of all) {
          process.stdout.write(
            `${c.id}\t${c.kind === "key" ? "access key" : "access token"}\t${c.project ?? "(all projects)"}\t${c.revoked ? `revoked ${c.revoked}` : `created ${c.created}`}${c.description ? `\t${c.description}` : ""}\n`,
          );
        }
      }
      return 0;
    }
    if (action === "revoke") {
      if (positionals.length !== 1) return fail("give the access key or token id to revoke");
      if (!(await core.credentials.revoke(positionals[0]!))) {
        process.stderr.write(`schemaform platform: no active credential '${positionals[0]}'\n`);
        return 1;
      }
      process.stdout.write(`revoked ${positionals[0]}\n`);
      return 0;
    }
    return fail(action ? `unknown credentials action '${action}'` : "credentials needs an action: create, list or revoke");
  } finally {
    await platform.close();
  }
}
