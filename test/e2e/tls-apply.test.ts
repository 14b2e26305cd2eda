// A team platform served over https with a certificate from a private CA: real Terraform applies,
// re-plans clean and destroys through it when the CA is trusted the way Node programs trust one
// (NODE_EXTRA_CA_CERTS in Terraform's environment), and refuses to talk to it when it is not.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { privatePki } from "../platform/private-pki.js";
import { Suite } from "./support/harness.js";
import { PlatformServers, serverProviders, type Server } from "./support/platform-server.js";

const PROJECT = "tls-project";

let suite: Suite;
let servers: PlatformServers;
let server: Server;
let token: string;
let caFile: string;

beforeAll(async () => {
  suite = await Suite.create("tls");
  servers = new PlatformServers(suite.env);
  const pki = await privatePki();
  caFile = join(suite.root, "ca.pem");
  const certFile = join(suite.root, "server.pem");
  const keyFile = join(suite.root, "server-key.pem");
  writeFileSync(caFile, pki.caPem);
  writeFileSync(certFile, pki.certPem);
  writeFileSync(keyFile, pki.keyPem, { mode: 0o600 });
  const dataDir = join(suite.root, "server-data");
  token = await servers.token(dataDir, PROJECT);
  server = await servers.serve(dataDir, 0, 0, ["--tls-cert", certFile, "--tls-key", keyFile]);
}, 120_000);

afterAll(async () => {
  await servers?.stopAll();
  await suite?.dispose();
});

function config(): Record<string, unknown> {
  return {
    ...serverProviders(server.url, PROJECT),
    resource: {
      tsdb_vpcs: { net: { name: "tls-net", cidr: "10.20.0.0/16", region_code: "us-east-1" } },
      containerbackup_restore_channel: { ch: { name: "tls-channel", location: "us-central1", destination_project: "projects/tls-target" } },
    },
  };
}

test("the server speaks https: its URL is https and its health answers only a client that trusts the CA", async () => {
  expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  await expect(fetch(`${server.url}/v1/health`)).rejects.toThrow();
});

test("with the private CA trusted, Terraform applies over https, re-plans clean and destroys", async () => {
  const ws = suite.workspaceAt(suite.workspace("trusted").dir, { NODE_EXTRA_CA_CERTS: caFile, TSDB_ACCESS_TOKEN: token, CONTAINERBACKUP_ACCESS_TOKEN: token });
  ws.writeJson("main.tf.json", config());
  await ws.ok(["init", "-input=false"]);
  const apply = await ws.ok(["apply", "-input=false", "-auto-approve"]);
  expect(apply.output).toContain("2 added, 0 changed, 0 destroyed");
  const plan = await ws.tf(["plan", "-input=false", "-detailed-exitcode"]);
  expect(plan.code, plan.output).toBe(0);
  const destroy = await ws.ok(["destroy", "-input=false", "-auto-approve"]);
  expect(destroy.output).toContain("2 destroyed");
});

test("without the CA, plan fails at the provider with a certificate error and creates nothing", async () => {
  const ws = suite.workspaceAt(suite.workspace("untrusted").dir, { TSDB_ACCESS_TOKEN: token, CONTAINERBACKUP_ACCESS_TOKEN: token });
  ws.writeJson("main.tf.json", config());
  await ws.ok(["init", "-input=false"]);
  const apply = await ws.tf(["apply", "-input=false", "-auto-approve"]);
  expect(apply.code).toBe(1);
  const text = apply.output.replace(/\s+/g, " ");
  expect(text).toContain("The platform server's certificate is not trusted");
  expect(text).toContain("NODE_EXTRA_CA_CERTS");
  expect(apply.output).not.toContain(token);
  const state = await ws.tf(["state", "list"]);
  expect(state.stdout.trim()).toBe("");
});
