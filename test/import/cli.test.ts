// `schemaform import` as a command: arguments, --from files, exit codes, messages, and output
// that is written whole or not at all.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseImportList, run } from "../../cli/commands/import.js";
import { runCommand, type CommandOutput } from "../support/command-output.js";
import { PROJECT, createEstate, tempDir, type Estate } from "./fixture.js";

let estate: Estate;
let dir: string;
const saved = { ...process.env };

beforeAll(async () => {
  estate = await createEstate();
  dir = tempDir("sf-import-cli-");
  process.env.SCHEMAFORM_DATA_DIR = estate.dataDir;
  delete process.env.TSDB_PROJECT_ID;
  delete process.env.CONTAINERBACKUP_PROJECT;
  delete process.env.TSDB_ENDPOINT;
  delete process.env.CONTAINERBACKUP_ENDPOINT;
});
afterAll(async () => {
  process.env = saved;
  await estate?.close();
});

function cli(...argv: string[]): Promise<CommandOutput> {
  return runCommand(run, argv);
}

describe("schemaform import", () => {
  it("imports TYPE ID pairs to standard output", async () => {
    const r = await cli("tsdb_service", estate.ids.primary, "tsdb_vpcs", estate.ids.vpcName, "--project", PROJECT);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.import).toEqual([
      { to: "tsdb_vpcs.main_vpc", id: estate.ids.vpc },
      { to: "tsdb_service.app_db", id: estate.ids.primary },
    ]);
    expect(doc.resource.tsdb_service.app_db.vpc_id).toBe("${tsdb_vpcs.main_vpc.vpcs_id}");
    expect(r.stderr).toContain("2 resources to import");
    expect(r.stderr).toContain("app_db_password: tsdb_service.app_db password");
  });

  it("reads --from files with comments, and takes the project from the environment", async () => {
    const list = join(dir, "imports.txt");
    writeFileSync(
      list,
      [
        "# existing resources",
        `tsdb_log_exporter ${estate.ids.logExporter}   # the log exporter`,
        "",
        `containerbackup_restore_channel us-central1/${estate.ids.channelName}`,
        `tsdb_peering_connection ${estate.ids.peering},${estate.ids.vpcsId}`,
      ].join("\n"),
    );
    process.env.TSDB_PROJECT_ID = PROJECT;
    process.env.CONTAINERBACKUP_PROJECT = PROJECT;
    try {
      const out = join(dir, "from.tf.json");
      const r = await cli("--from", list, "-o", out);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe("");
      const doc = JSON.parse(readFileSync(out, "utf8"));
      expect(doc.import.map((i: { id: string }) => i.id)).toEqual([estate.ids.logExporter, `${estate.ids.peering},${estate.ids.vpcsId}`, estate.ids.channel]);
      // The projects come from the environment: the provider blocks leave them out.
      expect(doc.provider).toEqual({ containerbackup: {}, tsdb: {} });
    } finally {
      delete process.env.TSDB_PROJECT_ID;
      delete process.env.CONTAINERBACKUP_PROJECT;
    }
  });

  it("fails on malformed and missing identifiers, naming the accepted formats, and writes nothing", async () => {
    const out = join(dir, "never.tf.json");
    const r = await cli("tsdb_peering_connection", "pcx-1", "tsdb_service", "nosuchsvc1", "containerbackup_restore_channel", "only-a-name", "--project", PROJECT, "-o", out);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('argument 1: tsdb_peering_connection "pcx-1": not a valid import identifier; accepted formats are "{peering_connection_id},{platform_vpc_id}", "{id}"');
    expect(r.stderr).toMatch(/argument 3: tsdb_service "nosuchsvc1" \(format "\{id\}"\) matches no existing service in project "acme-data"/);
    expect(r.stderr).toContain(
      '"projects/{project}/locations/{location}/restoreChannels/{name}", "{project}/{location}/{name}", "{location}/{name}"',
    );
    expect(existsSync(out)).toBe(false);
  });

  it("reports bad lines of a --from file with their line numbers", async () => {
    expect(parseImportList("tsdb_service\n\ntsdb_vpcs a b\n# ok\ntsdb_vpcs main # trailing", "list.txt")).toEqual({
      requests: [{ type: "tsdb_vpcs", id: "main", origin: "list.txt:5" }],
      problems: ["list.txt:1: expected 'TYPE ID', got only one field", "list.txt:3: expected 'TYPE ID', got 3 fields"],
    });
    const r = await cli("--from", join(dir, "missing.txt"));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no such file");
  });

  it("discovers everything and writes a CDKTF stack for a .ts output", async () => {
    const out = join(dir, "main.ts");
    const r = await cli("--discover", "--project", PROJECT, "--location", "us-central1", "-o", out);
    expect(r.code, r.stderr).toBe(0);
    const ts = readFileSync(out, "utf8");
    expect(ts.match(/\.importFrom\(/g)).toHaveLength(15);
    expect(r.stderr).toContain("15 resources to import");
    for (const secret of estate.secrets) {
      expect(ts).not.toContain(secret);
      expect(r.stderr).not.toContain(secret);
    }
  });

  it("says --discover found nothing in a misspelt project, exits 1 and writes nothing", async () => {
    const out = join(dir, "nothing.tf.json");
    const r = await cli("--discover", "--project", "demo-projcet", "-o", out);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--discover found nothing in project demo-projcet");
    expect(existsSync(out)).toBe(false);
  });

  it("names the credential variables when a platform server refuses the request", async () => {
    const { EmbeddedPlatform } = await import("../../platform/embedded.js");
    const { startServer } = await import("../../platform/server.js");
    const platform = new EmbeddedPlatform({ dataDir: tempDir("sf-import-auth-") });
    const server = await startServer({ platform, host: "127.0.0.1", port: 0 });
    try {
      // none given: nothing was refused, the message says so and how to give them
      const r = await cli("tsdb_service", estate.ids.primary, "--project", PROJECT, "--endpoint", server.url);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("the platform server needs credentials and none were given: TSDB_ACCESS_TOKEN (or TSDB_ACCESS_KEY and TSDB_SECRET_KEY) and CONTAINERBACKUP_ACCESS_TOKEN are not set");
      expect(r.stderr).not.toContain("refused the credentials");
      expect(r.stderr).toContain("TSDB_ACCESS_KEY and TSDB_SECRET_KEY");
      expect(r.stderr).not.toContain("Authorization: Bearer");
      // wrong ones given: refused
      process.env.TSDB_ACCESS_TOKEN = "not-a-token";
      process.env.CONTAINERBACKUP_ACCESS_TOKEN = "not-a-token";
      try {
        const wrong = await cli("--discover", "--project", PROJECT, "--endpoint", server.url);
        expect(wrong.code).toBe(1);
        expect(wrong.stderr).toContain("the platform server refused the credentials");
      } finally {
        delete process.env.TSDB_ACCESS_TOKEN;
        delete process.env.CONTAINERBACKUP_ACCESS_TOKEN;
      }
    } finally {
      await server.close();
      await platform.close();
    }
  });

  it("rejects usage errors with exit code 2", async () => {
    expect((await cli("tsdb_service")).code).toBe(2);
    expect((await cli("--format", "yaml", "--discover")).code).toBe(2);
    expect((await cli("--bogus")).code).toBe(2);
    expect((await cli()).code).toBe(2);
    const help = await cli("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("{peering_connection_id},{platform_vpc_id}");
    expect(help.stdout).toContain("TSDB_ACCESS_TOKEN");
  });
});
