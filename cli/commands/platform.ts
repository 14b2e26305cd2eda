// `schemaform platform …`: run the platform as an HTTP server, and manage its credentials.
//
//   schemaform platform serve [--port N] [--host 127.0.0.1] [--data-dir DIR | --database URL --secrets-key-file FILE]
//   schemaform platform credentials create (--project ID | --all-projects) [--token] [--description TEXT] [STORAGE] [--json]
//   schemaform platform credentials list [STORAGE] [--json]
//   schemaform platform credentials revoke ID [STORAGE]
// STORAGE: --data-dir DIR (SQLite, the default), or --database postgres://… with --secrets-key-file
// FILE (or SCHEMAFORM_DATABASE_URL, SCHEMAFORM_SECRETS_KEY_FILE).

import { parseArgs } from "node:util";
import type { EmbeddedPlatform } from "../../platform/embedded.js";

const USAGE = `usage:
  schemaform platform serve [--port N] [--host 127.0.0.1] [STORAGE]
      Serve the platform over HTTP (default http://127.0.0.1:8790). Stop with Ctrl-C or SIGTERM.
  schemaform platform credentials create --project ID [--token] [--description TEXT] [STORAGE] [--json]
      Create an access key and secret key (or, with --token, an access token) for a project
      (--all-projects: for every project). The secret is printed once; only a hash is stored.
  schemaform platform credentials list [STORAGE] [--json]
  schemaform platform credentials revoke ID [STORAGE]
STORAGE:
  --data-dir DIR          SQLite in DIR (default: SCHEMAFORM_DATA_DIR, else the per-user data directory)
  --database URL          PostgreSQL, postgres://user:password@host:5432/db (or SCHEMAFORM_DATABASE_URL),
                          shared by any number of server replicas; needs the secrets key:
  --secrets-key-file FILE 32 random bytes in base64 (\`openssl rand -base64 32\`), the same file on every
                          replica (or SCHEMAFORM_SECRETS_KEY_FILE); never stored in the database
`;

const STORAGE_OPTIONS = {
  "data-dir": { type: "string" },
  database: { type: "string" },
  "secrets-key-file": { type: "string" },
} as const;

/** The platform on the storage the flags and environment name (SQLite unless a database URL is given). */
async function openFromFlags(values: { "data-dir"?: string; database?: string; "secrets-key-file"?: string }): Promise<EmbeddedPlatform> {
  const { EmbeddedPlatform } = await import("../../platform/embedded.js");
  const url = values.database ?? (process.env.SCHEMAFORM_DATABASE_URL || undefined);
  if (url === undefined) {
    if (values["secrets-key-file"] !== undefined) throw new UsageError("--secrets-key-file goes with --database: a SQLite platform keeps its key in its data directory");
    return new EmbeddedPlatform({ dataDir: values["data-dir"] });
  }
  if (values["data-dir"] !== undefined) throw new UsageError("give --data-dir (SQLite) or --database (PostgreSQL), not both");
  if (!/^postgres(ql)?:\/\//.test(url)) throw new UsageError("--database must be a PostgreSQL URL: postgres://user:password@host:5432/database");
  const { loadSharedKey } = await import("../../platform/secrets.js");
  const { openPostgres } = await import("../../platform/postgres.js");
  let secretsKey: Buffer;
  try {
    secretsKey = loadSharedKey(values["secrets-key-file"]);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return new EmbeddedPlatform({ storage: { open: () => openPostgres({ url }), secretsKey } });
}

class UsageError extends Error {}


function fail(message: string): number {
  process.stderr.write(`schemaform platform: ${message}\n\n${USAGE}`);
  return 2;
}

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === "--help" || sub === "-h" || sub === "help") {
    process.stdout.write(USAGE);
    return sub ? 0 : 2;
  }
  try {
    if (sub === "serve") return await serve(rest);
    if (sub === "credentials") return await credentials(rest);
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message);
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
      quiet: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const { DEFAULT_PORT, startServer } = await import("../../platform/server.js");
  let port = DEFAULT_PORT;
  if (values.port !== undefined) {
    if (!/^[0-9]+$/.test(values.port) || Number(values.port) > 65535) return fail(`--port must be a port number (0-65535), got '${values.port}'`);
    port = Number(values.port);
  }
  const platform = await openFromFlags(values);
  const log = values.quiet ? undefined : (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
  const server = await startServer({ platform, host: values.host, port, log });
  const storage = (await platform.core()).ctx.store;
  const where = storage.kind === "sqlite" ? `data directory: ${platform.dataDir}` : `database: ${storage.location}`;
  process.stdout.write(`schemaform platform listening on ${server.url} (${where})\n`);
  if (values.host !== "127.0.0.1" && values.host !== "localhost" && values.host !== "::1") {
    process.stderr.write("warning: the server speaks plain HTTP; put it behind TLS before exposing it beyond this machine\n");
  }
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await server.close();
  await platform.close();
  process.stderr.write("schemaform platform stopped\n");
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
