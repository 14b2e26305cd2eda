#!/usr/bin/env node
// Bundles the provider plugin into one executable JavaScript file (dist/provider/provider.cjs).
// `schemaform provider install` copies it into a Terraform filesystem mirror as
// terraform-provider-<name>; the package holds nothing else that could differ between machines
// (better-sqlite3's native addon is installed per user and node, outside it: provider/native.ts).
//
// Why one CommonJS file: Terraform hashes every file of an installed provider on every command
// (the lock file's h1: hash), so there is no node_modules tree; the executable has no
// extension, and extensionless files are CommonJS to Node; and CommonJS starts a little faster
// than the ESM loader, which counts because Terraform starts several plugin processes per
// command.
//
// The file, from the top:
// - LAUNCHER, two lines that are a POSIX sh script and JavaScript at once: sh starts `node` on
//   the same file, without NODE_EXTRA_CA_CERTS (see LAUNCHER);
// - provider/code-cache.ts, which compiles the code units below through a V8 code cache kept
//   in the user's cache directory (never in the package, whose bytes must not change);
// - the main code unit: the bundle of the entry point, embedded as a string and run as this
//   module.
//
// Start-up: the process must print its handshake line fast (Terraform waits for it, several
// times per command), so only the transport is compiled at start. The runtime modules that
// the entry imports dynamically (framework, provider definitions, generated validators; one
// per provider, `runtimes/<name>.ts`, holding only that provider's generated types) are
// bundled on their own and embedded as strings (code units too), and only the served provider's
// is compiled, on the first RPC that needs it: their size never slows the handshake down.
//
// Build-time work that would otherwise happen at every start:
// - the protocol descriptor is parsed from the .proto files here and embedded as JSON
//   (provider/protocol/descriptor.ts is replaced), so the plugin never loads a .proto parser;
// - answers that depend on nothing but the build (GetProviderSchema) are computed here by
//   running the runtime, and embedded (provider/static-responses.ts is replaced): the process
//   Terraform starts only to read the schema never loads a runtime;
// - the `long` package is left out: int64 fields decode as plain numbers.
//
// The output is deterministic (same sources, same bytes, whatever the machine or the path of the
// checkout), so reinstalling the same build never changes the lock-file hash. A code unit's
// cache entry is named by a hash of its code. Because the packages are a function of the build,
// their h1: hashes are too: the build writes them to dist/provider/lock.json (PROVIDER_LOCK_DATA),
// from which the CDKTF constructs write a stack's lock-file entries at synth.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

const require = createRequire(import.meta.url);
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const PROTO_DIR = join(ROOT, "provider", "protocol");
export const PROTO_FILES = ["tfplugin6.proto", "grpc_controller.proto"];

/** The protobufjs JSON descriptor of the plugin protocol, parsed now instead of at run time. */
export function protocolDescriptor() {
  const protobuf = require("protobufjs");
  const root = new protobuf.Root().loadSync(
    PROTO_FILES.map((file) => join(PROTO_DIR, file)),
    { keepCase: true },
  );
  return root.toJSON();
}

const precompiledDescriptor = {
  name: "precompiled-protocol-descriptor",
  setup(build) {
    build.onLoad({ filter: /[\\/]provider[\\/]protocol[\\/]descriptor\.ts$/ }, () => ({
      loader: "js",
      contents:
        `// Precompiled by scripts/bundle-provider.mjs from ${PROTO_FILES.join(", ")}.\n` +
        `export const PROTO_FILES = ${JSON.stringify(PROTO_FILES)};\n` +
        `const descriptor = ${JSON.stringify(protocolDescriptor())};\n` +
        `export function protoDescriptor() { return descriptor; }\n`,
    }));
  },
};

const withoutLong = {
  name: "without-long",
  setup(build) {
    // protobufjs uses Long.js for int64 when it can load it; without it, plain numbers.
    build.onResolve({ filter: /^long$/ }, () => ({ path: "long", namespace: "without-long" }));
    build.onLoad({ filter: /.*/, namespace: "without-long" }, () => ({ contents: "module.exports = null;", loader: "js" }));
  },
};

function commonOptions(minify) {
  return {
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    // Prefer the ESM builds of dependencies: they tree-shake (x509's CommonJS build is twice the size).
    mainFields: ["module", "main"],
    minify,
    logLevel: "warning",
    absWorkingDir: ROOT,
    // CommonJS has no import.meta; the few modules that use import.meta.url get the bundle's URL.
    // __SCHEMAFORM_BUNDLE__ tells code that only the bundle runs (provider/native.ts) where it is.
    define: { "import.meta.url": "__schemaform_bundle_url", __SCHEMAFORM_BUNDLE__: "true" },
    plugins: [precompiledDescriptor, withoutLong],
  };
}

/**
 * Replaces a dynamically imported `runtime.ts` by a module that compiles the runtime's own
 * bundle from a string when it is first imported, as a code unit (its V8 code cache entry is
 * written when the process exits, with every function the process used). One runtime per
 * executable keeps a single copy of the framework (classes such as HandlerError must be one
 * class).
 *
 * A `static-responses.ts` beside a `runtime.ts` is replaced by the answers the runtime's
 * `staticResponses()` gives at build time (base64 protobuf bytes per provider and gRPC path):
 * RPCs whose answer never changes for a build (GetProviderSchema) are then served without
 * compiling or running the runtime at all. Terraform starts a process per command only to ask
 * for the schema, so that process never loads the runtime.
 */
function lazyRuntime(minify) {
  const runtimes = new Map();
  /** The runtime's bundle (built once per path). */
  const runtimeCode = (path) => {
    let code = runtimes.get(path);
    if (!code) {
      const options = commonOptions(minify);
      const provider = /[\\/]runtimes[\\/]([\w-]+)\.ts$/.exec(path)?.[1];
      if (provider) options.plugins = [onlyProvider(provider), ...options.plugins];
      code = esbuild.build({ ...options, entryPoints: [path], write: false, outfile: "runtime.cjs" }).then((result) => result.outputFiles[0].text);
      runtimes.set(path, code);
    }
    return code;
  };
  return {
    name: "lazy-runtime",
    setup(build) {
      build.onResolve({ filter: /(^|[\\/])runtime\.js$|(^|[\\/])runtimes[\\/][\w-]+\.js$/ }, (args) =>
        args.kind === "dynamic-import" ? { path: resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts")), namespace: "lazy-runtime" } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: "lazy-runtime" }, async (args) => {
        const code = await runtimeCode(args.path);
        const provider = /[\\/]runtimes[\\/]([\w-]+)\.ts$/.exec(args.path)?.[1];
        const name = provider ? `runtime-${provider}` : "runtime";
        return {
          loader: "js",
          resolveDir: dirname(args.path),
          contents: [
            `__schemaform_code_cache.compile(${unitLiteral(name, code, "__filename + \"#runtime\"")})(`,
            `  module.exports, require, module, __filename, __dirname, __schemaform_bundle_url, __schemaform_code_cache,`,
            `);`,
          ].join("\n"),
        };
      });
      build.onLoad({ filter: /[\\/]static-responses\.ts$/ }, async (args) => {
        const runtime = join(dirname(args.path), "runtime.ts");
        const responses = existsSync(runtime) ? await evaluateStaticResponses(runtime, await runtimeCode(runtime)) : undefined;
        return {
          loader: "js",
          contents: `// Computed by scripts/bundle-provider.mjs from the runtime's staticResponses().\nexport const staticResponses = ${JSON.stringify(responses)};\n`,
        };
      });
    },
  };
}

/**
 * For the runtime of one provider (`runtimes/<provider>.ts`): the generated models and
 * validators of other providers' types (`<kind>.<type>`, where a provider's types are named
 * `<provider>` or `<provider>_…`) become modules that refuse to load. generated/registry.ts
 * lists every type, but a provider only ever loads its own.
 */
function onlyProvider(provider) {
  const ours = (type) => type === provider || type.startsWith(`${provider}_`);
  return {
    name: "only-provider",
    setup(build) {
      build.onResolve({ filter: /(^|[\\/])(models|validators)[\\/](resource|data|provider)\.[\w-]+\.(c?js|ts)$/ }, (args) => {
        const type = /(?:resource|data|provider)\.([\w-]+)\.(?:c?js|ts)$/.exec(args.path)[1];
        return ours(type) ? undefined : { path: args.path, namespace: "other-provider" };
      });
      build.onLoad({ filter: /.*/, namespace: "other-provider" }, (args) => ({
        loader: "js",
        contents: `throw new Error(${JSON.stringify(`${args.path} is not part of the ${provider} provider`)});\n`,
      }));
    },
  };
}

/** Runs the runtime bundle in this process and asks it for its static answers, as base64. */
async function evaluateStaticResponses(path, code) {
  const module = { exports: {} };
  const url = pathToFileURL(path).href;
  new Function("exports", "require", "module", "__filename", "__dirname", "__schemaform_bundle_url", code)(
    module.exports,
    createRequire(path),
    module,
    path,
    dirname(path),
    url,
  );
  if (typeof module.exports.staticResponses !== "function") return undefined;
  const responses = await module.exports.staticResponses();
  const out = {};
  for (const [name, byPath] of Object.entries(responses)) {
    out[name] = {};
    for (const [rpc, bytes] of Object.entries(byPath)) out[name][rpc] = Buffer.from(bytes).toString("base64");
  }
  return out;
}

/**
 * The launcher's resident path (the default on Linux, off with SCHEMAFORM_RESIDENT=0;
 * provider/README.md "Resident server", provider/transport/resident.ts), tried before
 * `exec node`, with no Node start:
 * - the server directory (the base): `$XDG_RUNTIME_DIR/schemaform`, else
 *   `<$TMPDIR or /tmp>/schemaform-<uid>`, made 0700; then one directory per key: a checksum of
 *   the environment without go-plugin's per-launch PLUGIN_* variables, the working directory
 *   and the executable's path (the server itself checks all of it exactly, and its executable);
 * - trusted only when ours: a base or key directory, `pid` file or request FIFO that is not this
 *   user's (or is a symlink) means a one-line warning on stderr and the direct way. Whoever could
 *   write there could answer our Terraform. The modes (writable by group or others) are
 *   checked with `find` where Node starts anyway (no live server), and by the server for each
 *   request (it refuses with a "!<why>" line, which is printed as the warning): each fork is
 *   about a millisecond of a launch, which Terraform waits for;
 * - a live server there: its `pid` file names it by pid and start time (field 22 of
 *   /proc/<pid>/stat, read with `read`), so a process that later took the pid of a dead server
 *   is not taken for it. Write "<our pid> <reply FIFO>" into its request FIFO, read the
 *   handshake line from the reply FIFO (2 s at most: then a watchdog writes "timeout" into it),
 *   print it, relay what follows to stderr, and exit 0 when the server closes the FIFO
 *   (Shutdown, or our Terraform gone; the server removes the FIFO). SIGINT is ignored, as the
 *   Node plugin does. A server that did not answer in time is taken for hung: its `pid` file is
 *   removed (it retires when it sees that) and a new one is started as below. Forks: cksum,
 *   mkfifo, the watchdog (the user id comes from /proc/$$/status and the environment from
 *   `export -p`, builtins);
 * - no live server: go on as if there were none, and start one in the background (one at a
 *   time: `starting`, stale after a minute; its output discarded) when an earlier Terraform
 *   command already launched us with this key (`seen` holds the pid of the Terraform that did;
 *   ours is $PPID): a directory used by one command only, as tools and test suites do by the
 *   hundred, never gets a server;
 * - anything else (a refusal): on to `exec node`, today's path.
 */
const RESIDENT = [
  'if [ "${SCHEMAFORM_RESIDENT-}" != 0 ] && [ -n "${PLUGIN_CLIENT_CERT-}" ] && [ -z "${TF_DISABLE_PLUGIN_TLS-}" ] && [ -r /proc/$$/environ ]; then',
  '_sf_warn() { echo "${0##*/}: not using the resident server: $1; starting the plugin directly" >&2; };',
  'if [ -n "${XDG_RUNTIME_DIR-}" ]; then _sf_b="$XDG_RUNTIME_DIR/schemaform"; else while read -r _sf_a _sf_x _sf_u _sf_x; do [ "$_sf_a" = Uid: ] && break; done </proc/$$/status; _sf_b="${TMPDIR:-/tmp}/schemaform-$_sf_u"; fi;',
  '[ -e "$_sf_b" ] || [ -L "$_sf_b" ] || mkdir -m 700 "$_sf_b" 2>/dev/null;',
  'if [ -L "$_sf_b" ] || { [ -e "$_sf_b" ] && { [ ! -d "$_sf_b" ] || [ ! -O "$_sf_b" ]; }; }; then _sf_warn "$_sf_b is not a directory of this user (did another user make it first?)";',
  'elif [ -d "$_sf_b" ]; then',
  '_sf_k=$(unset PLUGIN_CLIENT_CERT PLUGIN_PROTOCOL_VERSIONS PLUGIN_MIN_PORT PLUGIN_MAX_PORT _ SHLVL OLDPWD; { export -p; pwd; echo "$0"; } | LC_ALL=C cksum);',
  '_sf_s="$_sf_b/${_sf_k%% *}-${_sf_k##* }"; _sf_g=;',
  'if [ -L "$_sf_s" ] || { [ -e "$_sf_s" ] && { [ ! -d "$_sf_s" ] || [ ! -O "$_sf_s" ]; }; }; then _sf_warn "$_sf_s is not a directory of this user";',
  'elif ! read -r _sf_p _sf_q 2>/dev/null <"$_sf_s/pid"; then _sf_g=1;',
  'elif [ ! -O "$_sf_s/pid" ] || { [ -e "$_sf_s/q$_sf_p" ] && [ ! -O "$_sf_s/q$_sf_p" ]; }; then _sf_warn "the pid file or request FIFO in $_sf_s is not this user\'s";',
  'elif [ -p "$_sf_s/q$_sf_p" ] && read -r _sf_x _sf_x _sf_x _sf_x _sf_x _sf_x _sf_x _sf_x _sf_x _sf_x _sf_x _sf_x _sf_x _sf_x _sf_x _sf_x _sf_x _sf_x _sf_x _sf_x _sf_x _sf_t _sf_x 2>/dev/null </proc/$_sf_p/stat && [ "$_sf_t" = "$_sf_q" ]; then',
  '_sf_r="$_sf_s/r$$"; if LC_ALL=C mkfifo -m 600 "$_sf_r" 2>/dev/null; then',
  "trap '' INT;",
  // The watchdog: killed once the answer is in, and then its sleep goes with it.
  '{ trap "kill \\$_sf_z 2>/dev/null; exit 0" TERM; sleep 2 & _sf_z=$!; wait $_sf_z; [ -p "$_sf_r" ] && echo timeout >"$_sf_r"; } </dev/null >/dev/null 2>&1 & _sf_w=$!;',
  'printf "%s %s\\n" "$$" "$_sf_r" 1<>"$_sf_s/q$_sf_p";',
  '_sf_h=; if command exec 4<"$_sf_r" && IFS= read -r _sf_h <&4 && [ "${_sf_h#1|6|unix|}" != "$_sf_h" ]; then',
  'kill "$_sf_w" 2>/dev/null; printf "%s\\n" "$_sf_h";',
  'while IFS= read -r _sf_l <&4; do printf "%s\\n" "$_sf_l" >&2; done; exit 0; fi;',
  'kill "$_sf_w" 2>/dev/null; exec 4<&-; rm -f "$_sf_r"; trap - INT;',
  'case $_sf_h in timeout) if read -r _sf_a _sf_x 2>/dev/null <"$_sf_s/pid" && [ "$_sf_a $_sf_x" = "$_sf_p $_sf_q" ]; then rm -f "$_sf_s/pid"; fi; _sf_g=1;; "!"*) _sf_warn "${_sf_h#!}";; esac;',
  'fi;',
  'else _sf_g=1; fi;',
  'if [ -n "$_sf_g" ]; then',
  'if [ -n "$(find "$_sf_b" "$_sf_s" -prune \\( -perm -020 -o -perm -002 \\) -print 2>/dev/null)" ]; then _sf_warn "$_sf_b or $_sf_s is writable by group or others";',
  'else mkdir -m 700 "$_sf_s" 2>/dev/null;',
  'if read -r _sf_t 2>/dev/null <"$_sf_s/seen" && [ "$_sf_t" != "$PPID" ]; then',
  'if mkdir "$_sf_s/starting" 2>/dev/null || [ -n "$(find "$_sf_s/starting" -prune -mmin +1 2>/dev/null)" ]; then',
  'node "$0" --schemaform-resident "$_sf_s" </dev/null >/dev/null 2>&1 & fi;',
  'else echo "$PPID" 2>/dev/null >"$_sf_s/seen"; fi; fi; fi; fi; fi; ',
].join(" ");

/**
 * The executable's first two lines, which make it a POSIX sh script as well as JavaScript: sh
 * runs line 2, which starts `node` on this same file with NODE_EXTRA_CA_CERTS moved to
 * SCHEMAFORM_EXTRA_CA_CERTS; Node skips the `#!` line and reads line 2 as a string statement
 * and a comment. Node 20 loads that file and its own root certificates at start-up, 40-70 ms
 * per process, and Terraform starts several provider processes per command; the platform
 * client reads the file when an https endpoint needs it (platform/deferred-ca.ts). `node` is
 * found on PATH, as with `#!/usr/bin/env node`. The next line must not start with `(`, `[` or
 * a template: JavaScript would read it as a continuation of the string.
 *
 * Without `node` on PATH, the plugin cannot answer Terraform's handshake, and Terraform would
 * only guess ("the plugin was not compiled for this architecture"). Terraform quotes the first
 * line a plugin writes to stdout ("Unrecognized remote plugin message: …"), so that line says
 * what is wrong; stderr (Terraform's log) gets the PATH that was searched.
 */
export const LAUNCHER =
  "#!/bin/sh\n" +
  '":" //; if [ -n "${NODE_EXTRA_CA_CERTS-}" ]; then export SCHEMAFORM_EXTRA_CA_CERTS="$NODE_EXTRA_CA_CERTS"; fi; unset NODE_EXTRA_CA_CERTS; ' +
  'command -v node >/dev/null 2>&1 || { ' +
  'echo "node (Node.js 20.19 or later) was not found on PATH: ${0##*/} is a Node.js program; install Node.js or add its directory to the PATH Terraform runs with"; ' +
  'echo "${0##*/}: node was not found on PATH ($PATH)" >&2; exit 127; }; ' +
  RESIDENT +
  'exec node "$0" "$@"\n';

/**
 * A code unit (provider/code-cache.ts) as a JavaScript expression: its code as a string, and its
 * SHA-256, which names its cache entry and binds the entry to this code (the same sources give
 * the same bytes and names).
 */
function unitLiteral(name, code, filenameExpression) {
  const hash = createHash("sha256").update(code).digest("hex");
  return `{ name: ${JSON.stringify(name)}, hash: ${JSON.stringify(hash)}, code: ${JSON.stringify(code)}, filename: ${filenameExpression} }`;
}

/**
 * The code that runs first, after the launcher lines: provider/code-cache.ts, which compiles
 * the bundle's main code (embedded as a string) through the V8 code cache.
 */
async function bootCode(minify) {
  const result = await esbuild.build({
    ...commonOptions(minify),
    entryPoints: [join(ROOT, "provider", "code-cache.ts")],
    format: "iife",
    globalName: "__schemaform_boot",
    write: false,
    outfile: "boot.js",
  });
  return result.outputFiles[0].text;
}

/**
 * Bundles one entry point into one executable CommonJS file. Exported for tests, which bundle
 * their fixture provider the same way.
 */
export async function bundleProvider({ entryPoint, outfile, minify = true }) {
  const options = commonOptions(minify);
  const [main, boot] = await Promise.all([
    esbuild.build({ ...options, entryPoints: [entryPoint], write: false, outfile: "main.cjs", plugins: [lazyRuntime(minify), ...options.plugins] }),
    bootCode(minify),
  ]);
  // A declaration first: the line after the launcher must not start with `(`, `[` or a template.
  const executable =
    LAUNCHER +
    "var __schemaform_code_cache;\n" +
    boot +
    "__schemaform_code_cache = __schemaform_boot.openCodeCache();\n" +
    `__schemaform_code_cache.compile(${unitLiteral("main", main.outputFiles[0].text, "__filename")})(\n` +
    '  exports, require, module, __filename, __dirname, require("node:url").pathToFileURL(__filename).href, __schemaform_code_cache,\n' +
    ");\n";
  mkdirSync(dirname(outfile), { recursive: true });
  writeFileSync(outfile, executable);
  return outfile;
}

export const PROVIDER_BUNDLE = join(ROOT, "dist", "provider", "provider.cjs");
/** The version and each provider package's h1: hash; constructs/runtime/lock-file.ts reads it. */
export const PROVIDER_LOCK_DATA = join(ROOT, "dist", "provider", "lock.json");

/**
 * Writes PROVIDER_LOCK_DATA for the bundle: the hashes come from the code `schemaform provider
 * install` uses (compiled to dist/ by tsc before this step), so they cannot disagree.
 */
export async function writeLockData(bundle = PROVIDER_BUNDLE, outfile = PROVIDER_LOCK_DATA) {
  const { packageHashes } = await import(pathToFileURL(join(ROOT, "dist", "provider", "install.js")).href);
  const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  writeFileSync(outfile, `${JSON.stringify({ version, hashes: packageHashes(bundle) }, null, 2)}\n`);
  return outfile;
}

async function main() {
  const started = performance.now();
  await bundleProvider({ entryPoint: join(ROOT, "provider", "main.ts"), outfile: PROVIDER_BUNDLE });
  await writeLockData();
  process.stderr.write(`bundled the provider plugin in ${Math.round(performance.now() - started)} ms\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`bundle-provider: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
