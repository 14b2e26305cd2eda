// With an endpoint, the providers check at configure time that the platform server answers and
// accepts their credentials for their project: wrong credentials fail `terraform plan` at once,
// before any resource is created, naming the settings to check.
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createHttpClient } from "../../platform/http-client.js";
import { checkServerAccess } from "../../provider/definitions/server-access.js";
import { Suite } from "./support/harness.js";
import { PlatformServers, serverProviders, type Server } from "./support/platform-server.js";

const PROJECT = "access-project";

let suite: Suite;
let servers: PlatformServers;
let server: Server;
let dataDir: string;

beforeAll(async () => {
  suite = await Suite.create("access");
  servers = new PlatformServers(suite.env);
  dataDir = join(suite.root, "server-data");
  await servers.token(dataDir, PROJECT); // creates the data directory
  server = await servers.serve(dataDir, 0, 0);
}, 120_000);

afterAll(async () => {
  await servers?.stopAll();
  await suite?.dispose();
});

function config(): Record<string, unknown> {
  return {
    ...serverProviders(server.url, PROJECT),
    resource: {
      tsdb_service: { svc: { name: "access-db" } },
      containerbackup_restore_channel: { ch: { name: "access-channel", location: "us-central1", destination_project: "projects/access-target" } },
    },
  };
}

test("credentials of another project fail plan at the provider, naming the settings, and nothing is created", async () => {
  const otherToken = await servers.token(dataDir, "someone-elses-project");
  const ws = suite.workspaceAt(suite.workspace("other-project").dir, { TSDB_ACCESS_TOKEN: otherToken, CONTAINERBACKUP_ACCESS_TOKEN: otherToken });
  ws.writeJson("main.tf.json", config());
  await ws.ok(["init", "-input=false"]);
  const apply = await ws.tf(["apply", "-input=false", "-auto-approve"]);
  expect(apply.code).toBe(1);
  const text = apply.output.replace(/\s+/g, " ");
  expect(text).toMatch(/Error: The platform server refused the credentials/);
  expect(text).toContain(`does not accept these credentials for project ${PROJECT}`);
  expect(text).toMatch(/Check access_token, or access_key and secret_key \(TSDB_ACCESS_TOKEN, TSDB_ACCESS_KEY, TSDB_SECRET_KEY\)/);
  expect(text).toMatch(/Check access_token \(CONTAINERBACKUP_ACCESS_TOKEN\)/);
  expect(text).not.toContain(otherToken);
  expect(text).not.toMatch(/Creating\.\.\./);
});

test("the right credentials plan and apply as before", async () => {
  const token = await servers.token(dataDir, PROJECT);
  const ws = suite.workspaceAt(suite.workspace("right").dir, { TSDB_ACCESS_TOKEN: token, CONTAINERBACKUP_ACCESS_TOKEN: token });
  ws.writeJson("main.tf.json", config());
  await ws.ok(["init", "-input=false"]);
  const apply = await ws.ok(["apply", "-input=false", "-auto-approve"]);
  expect(apply.output).toMatch(/Resources: 2 added/);
  await ws.ok(["destroy", "-input=false", "-auto-approve"]);
});

test("a server that does not answer is named, with the setting to check", async () => {
  // a port that was free a moment ago: nothing listens there
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = createHttpClient({ endpoint, credentials: { accessToken: "unused" }, retryForMs: 300 });
  const failure = await checkServerAccess({
    endpoint,
    project: PROJECT,
    credentialSettings: "access_token",
    endpointSetting: "endpoint (TSDB_ENDPOINT)",
    probe: () => client.lookups.vpcs(PROJECT),
  }).catch((error: Error & { detail?: string }) => error);
  expect(failure).toBeInstanceOf(Error);
  expect((failure as Error).message).toBe("Cannot reach the platform server");
  expect((failure as { detail?: string }).detail).toMatch(new RegExp(`^${endpoint}: .*Check endpoint \\(TSDB_ENDPOINT\\) and that the server runs`));
});
