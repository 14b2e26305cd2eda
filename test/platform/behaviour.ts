// The behaviour every PlatformClient must show, whichever way in (embedded or HTTP). Each test
// file calls `behaviourSuite` with a factory; the same assertions run against both clients.

import { createPublicKey } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor, waitForPeering, waitForService, waitForVpc } from "../../platform/wait.js";
import type { PlatformClient, Service } from "../../platform/types.js";
import { manualClock, rejection, type Factory, type Harness } from "./helpers.js";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RFC3339_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const P = "rp1pz7uyae";

const ROLE = "arn:aws:iam::123456789012:role/writer";
const SECRET_KEY = "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY01";

export function behaviourSuite(name: string, factory: Factory): void {
  describe(`${name}: restore channels`, () => {
    let h: Harness;
    let c: PlatformClient;
    beforeAll(async () => {
      h = await factory();
      c = h.client;
    });
    afterAll(() => h.cleanup());

    it("creates a channel with its full name as id, a UUID uid, an etag and a generated name", async () => {
      const { body } = await c.restoreChannels.create({ destination_project: "projects/dest-project", location: "us-central1", description: "prod restores" }, { defaultProject: "my-project" });
      expect(body.id).toBe(`projects/my-project/locations/us-central1/restoreChannels/${body.name}`);
      expect(body.name).toMatch(/^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/);
      expect(body.project).toBe("my-project");
      expect(body.uid).toMatch(UUID_RE);
      expect(body.etag).toBeTruthy();
      expect(body.destination_project_id).toBe("dest-project");
      expect(await c.restoreChannels.get(body.id)).toMatchObject({ id: body.id, etag: body.etag, description: "prod restores" });
    });

    it("needs a project: from the body or the caller's default", async () => {
      const e = await rejection(() => c.restoreChannels.create({ destination_project: "projects/dest-project", location: "us-central1" }));
      expect(e.code).toBe("invalid");
      expect(e.message).toMatch(/project is required/);
      const { body } = await c.restoreChannels.create({ destination_project: "projects/dest-project", location: "us-central1", name: "explicit", project: "other-project" }, { defaultProject: "my-project" });
      expect(body.id).toBe("projects/other-project/locations/us-central1/restoreChannels/explicit");
    });

    it("refuses a second channel with the same name (conflict) and a bad name (invalid)", async () => {
      await c.restoreChannels.create({ destination_project: "projects/dest-project", location: "europe-west4", name: "dupe" }, { defaultProject: "my-project" });
      expect((await rejection(() => c.restoreChannels.create({ destination_project: "projects/dest-project", location: "europe-west4", name: "dupe" }, { defaultProject: "my-project" }))).code).toBe("conflict");
      expect((await rejection(() => c.restoreChannels.create({ destination_project: "projects/dest-project", location: "europe-west4", name: "Bad_Name" }, { defaultProject: "my-project" }))).code).toBe("invalid");
    });

    it("fails an update or delete with a stale etag instead of overwriting, and changes the etag on every change", async () => {
      const { body: created } = await c.restoreChannels.create({ destination_project: "projects/dest-project", location: "us-east1", name: "etags" }, { defaultProject: "my-project" });
      const first = await c.restoreChannels.get(created.id);
      const { body: second } = await c.restoreChannels.update(created.id, { description: "one" }, first.etag);
      expect(second.etag).not.toBe(first.etag);
      const stale = await rejection(() => c.restoreChannels.update(created.id, { description: "two" }, first.etag));
      expect(stale.code).toBe("conflict");
      expect(stale.message).toMatch(/changed after it was read/);
      expect((await c.restoreChannels.get(created.id)).description).toBe("one");
      expect((await rejection(() => c.restoreChannels.delete(created.id, first.etag))).code).toBe("conflict");
      const { body: third } = await c.restoreChannels.update(created.id, { description: null }, second.etag);
      expect(third.description).toBeUndefined();
      expect(third.etag).not.toBe(second.etag);
      await c.restoreChannels.delete(created.id, third.etag);
      expect((await rejection(() => c.restoreChannels.get(created.id))).code).toBe("not_found");
    });

    it("keeps labels it does not manage (non-authoritative) and reports all of them in effective_labels", async () => {
      const { body: created } = await c.restoreChannels.create(
        { destination_project: "projects/dest-project", location: "us-east1", name: "labels", labels: { app: "shop", tier: "gold" } },
        { defaultProject: "my-project", defaultLabels: { team: "platform", app: "default-app" } },
      );
      expect(created.labels).toEqual({ app: "shop", tier: "gold" });
      expect(created.tool_labels).toEqual({ app: "shop", tier: "gold", team: "platform" });
      expect(created.effective_labels).toEqual({ app: "shop", tier: "gold", team: "platform" });

      // another client adds a label of its own
      const { body: other } = await c.restoreChannels.update(created.id, { labels: { "backup-tool": "velero" } }, created.etag, { labelKeys: ["backup-tool"] });
      expect(other.labels).toEqual({ "backup-tool": "velero" });

      // Terraform changes one of its labels and stops managing another
      const view = { labelKeys: ["app"], defaultLabels: { team: "platform" } };
      const { body: updated } = await c.restoreChannels.update(created.id, { labels: { app: "shop2" }, remove_labels: ["tier"] }, other.etag, view);
      expect(updated.effective_labels).toEqual({ app: "shop2", team: "platform", "backup-tool": "velero" });
      expect(updated.labels).toEqual({ app: "shop2" });
      expect(updated.tool_labels).toEqual({ app: "shop2", team: "platform" });
      expect(await c.restoreChannels.get(created.id, view)).toMatchObject({ labels: { app: "shop2" }, tool_labels: { app: "shop2", team: "platform" } });
    });

    it("reports destination_project_id as the project id even when a number was given", async () => {
      const { body } = await c.restoreChannels.create({ destination_project: "projects/24240755850", location: "us-central1" }, { defaultProject: "my-project" });
      expect(body.destination_project).toBe("projects/24240755850");
      const pair = await c.restoreChannels.resolveProject("24240755850");
      expect(body.destination_project_id).toBe(pair.project_id);
      expect(body.destination_project_id).not.toMatch(/^[0-9]+$/);
      // the other direction: a project known by id gets a stable number, and the number resolves back
      const byId = await c.restoreChannels.resolveProject("dest-project");
      expect(byId.project_number).toMatch(/^[1-9][0-9]{11}$/);
      const { body: viaNumber } = await c.restoreChannels.create({ destination_project: `projects/${byId.project_number}`, location: "us-central1" }, { defaultProject: "my-project" });
      expect(viaNumber.destination_project_id).toBe("dest-project");
    });

    it("finds a channel by project number or id", async () => {
      const pair = await c.restoreChannels.resolveProject("numbered-project");
      const { body } = await c.restoreChannels.create({ destination_project: "projects/dest-project", location: "us-central1", name: "by-number" }, { defaultProject: pair.project_number });
      expect(body.id).toBe(`projects/${pair.project_number}/locations/us-central1/restoreChannels/by-number`);
      expect((await c.restoreChannels.get("projects/numbered-project/locations/us-central1/restoreChannels/by-number")).uid).toBe(body.uid);
      expect((await c.restoreChannels.list("numbered-project")).map((r) => r.name)).toEqual(["by-number"]);
    });

    it("refuses to change what cannot change in place", async () => {
      const { body } = await c.restoreChannels.create({ destination_project: "projects/dest-project", location: "us-central1", name: "fixed" }, { defaultProject: "my-project" });
      const e = await rejection(() => c.restoreChannels.update(body.id, { destination_project: "projects/elsewhere-1" }, body.etag));
      expect(e.code).toBe("failed_precondition");
      expect(e.message).toMatch(/must be replaced/);
    });
  });

  describe(`${name}: services`, () => {
    let h: Harness;
    let c: PlatformClient;
    beforeAll(async () => {
      h = await factory();
      c = h.client;
    });
    afterAll(() => h.cleanup());

    it("creates a service with the documented defaults and returns the generated password once", async () => {
      const { body } = await c.services.create(P, {});
      expect(body.id).toMatch(/^[a-z0-9]{10}$/);
      expect(body.name).toMatch(/^db-\d{5}$/);
      expect(body).toMatchObject({
        milli_cpu: 500,
        memory_gb: 2,
        ha_replicas: 0,
        sync_replicas: 0,
        connection_pooler_enabled: false,
        paused: false,
        region_code: "us-east-1",
        environment_tag: "DEV",
        username: "tsdbadmin",
      });
      expect(body.hostname).toBe(`${body.id}.${P}.tsdb.cloud.example.com`);
      expect(body.port).toBeGreaterThanOrEqual(30000);
      expect(body.pooler_hostname).toBeUndefined();
      expect(body.replica_hostname).toBeUndefined();
      expect(body.password).toMatch(/^.{16,}$/);
      const read = await c.services.get(P, body.id);
      expect(read.password).toBeUndefined();
      expect(await c.services.checkPassword(P, body.id, body.password!)).toBe(true);
      expect(await c.services.checkPassword(P, body.id, "not-the-password")).toBe(false);
    });

    it("exposes the pooler endpoint only with the pooler on, and the replica endpoint only with HA replicas", async () => {
      const { body } = await c.services.create(P, { connection_pooler_enabled: true });
      expect(body.pooler_hostname).toBe(`${body.id}-pooler.${P}.tsdb.cloud.example.com`);
      expect(body.pooler_port).toBeGreaterThan(0);
      expect(body.replica_hostname).toBeUndefined();
      const { body: ha } = await c.services.update(P, body.id, { ha_replicas: 2, sync_replicas: 1, connection_pooler_enabled: false });
      expect(ha.replica_hostname).toBe(`${body.id}-repl.${P}.tsdb.cloud.example.com`);
      expect(ha.pooler_hostname).toBeUndefined();
      expect(ha.hostname).toBe(body.hostname);
      expect(ha.port).toBe(body.port);
    });

    it("refuses a value that is not known yet: the platform stores known values only", async () => {
      const unknown = await rejection(() => c.services.create(P, { milli_cpu: "${unknown}", memory_gb: 4 } as never));
      expect(unknown.code).toBe("invalid");
      expect(unknown.message).toMatch(/milli_cpu is not known yet/);
    });

    it("applies the CPU/memory and HA rules", async () => {
      expect((await rejection(() => c.services.create(P, { milli_cpu: 1000, memory_gb: 8 }))).code).toBe("invalid");
      expect((await rejection(() => c.services.create(P, { ha_replicas: 1, sync_replicas: 1 }))).message).toMatch(/sync_replicas = 1 requires ha_replicas = 2/);
      const { body } = await c.services.create(P, { milli_cpu: 2000, memory_gb: 8, enable_ha_replica: true });
      expect(body).toMatchObject({ milli_cpu: 2000, memory_gb: 8, ha_replicas: 1 });
    });

    it("keeps password_wo only as a hash and applies it when password_wo_version changes", async () => {
      const { body } = await c.services.create(P, { password_wo: "first-secret-pw", password_wo_version: 1 });
      expect(body.password).toBeUndefined();
      expect(JSON.stringify(body)).not.toContain("first-secret-pw");
      expect(await c.services.checkPassword(P, body.id, "first-secret-pw")).toBe(true);
      // same version: not applied
      await c.services.update(P, body.id, { password_wo: "second-secret-pw", password_wo_version: 1 });
      expect(await c.services.checkPassword(P, body.id, "first-secret-pw")).toBe(true);
      // new version: applied
      const { body: updated } = await c.services.update(P, body.id, { password_wo: "second-secret-pw", password_wo_version: 2 });
      expect(updated.password_wo_version).toBe(2);
      expect(await c.services.checkPassword(P, body.id, "second-secret-pw")).toBe(true);
      const events = await c.events.list(P, { resourceId: body.id, kind: "password_reset" });
      expect(events).toHaveLength(1);
    });

    it("honours paused at create", async () => {
      const { body } = await c.services.create(P, { paused: true });
      const done = await waitForService(c, P, body.id, 5000);
      expect(done.status).toBe("PAUSED");
      expect(done.paused).toBe(true);
    });

    it("refuses to change region_code in place", async () => {
      const { body } = await c.services.create(P, {});
      const e = await rejection(() => c.services.update(P, body.id, { region_code: "eu-west-1" }));
      expect(e.code).toBe("failed_precondition");
    });

    describe("read replicas", () => {
      let primary: Service;
      beforeAll(async () => {
        primary = (await c.services.create(P, { region_code: "eu-west-1", milli_cpu: 1000, memory_gb: 4 })).body;
      });

      it("inherits the source's region and size, is named replica-<source>, has one node and no password of its own", async () => {
        const { body } = await c.services.create(P, { read_replica_source: primary.id });
        expect(body).toMatchObject({ region_code: "eu-west-1", milli_cpu: 1000, memory_gb: 4, name: `replica-${primary.name}`, read_replica_nodes: 1, ha_replicas: 0 });
        expect(body.password).toBeUndefined();
      });

      it("needs an existing source in the same region that is not itself a replica", async () => {
        const missing = await rejection(() => c.services.create(P, { read_replica_source: "nosuchsvc0" }));
        expect(missing.code).toBe("failed_precondition");
        expect(missing.message).toMatch(/does not exist/);
        const region = await rejection(() => c.services.create(P, { read_replica_source: primary.id, region_code: "us-east-1" }));
        expect(region.code).toBe("failed_precondition");
        expect(region.message).toMatch(/source's region/);
        const { body: replica } = await c.services.create(P, { read_replica_source: primary.id, region_code: "eu-west-1", read_replica_nodes: 3 });
        expect(replica.read_replica_nodes).toBe(3);
        const chained = await rejection(() => c.services.create(P, { read_replica_source: replica.id }));
        expect(chained.code).toBe("failed_precondition");
        expect(chained.message).toMatch(/read replica of a read replica/);
      });

      it("cannot have HA replicas, and its source cannot change", async () => {
        expect((await rejection(() => c.services.create(P, { read_replica_source: primary.id, ha_replicas: 1 }))).code).toBe("invalid");
        const { body } = await c.services.create(P, { read_replica_source: primary.id });
        const other = (await c.services.create(P, { region_code: "eu-west-1" })).body;
        expect((await rejection(() => c.services.update(P, body.id, { read_replica_source: other.id }))).code).toBe("failed_precondition");
        expect((await rejection(() => c.services.update(P, primary.id, { read_replica_source: other.id }))).code).toBe("failed_precondition");
      });

      it("blocks deleting a source that still has replicas", async () => {
        const source = (await c.services.create(P, {})).body;
        const replica = (await c.services.create(P, { read_replica_source: source.id })).body;
        const e = await rejection(() => c.services.delete(P, source.id));
        expect(e.code).toBe("failed_precondition");
        expect(e.message).toContain(replica.id);
        await c.services.delete(P, replica.id);
        await c.services.delete(P, source.id);
        expect((await rejection(() => c.services.get(P, source.id))).code).toBe("not_found");
      });
    });

    describe("attachments", () => {
      it("attaches a VPC only in the same region, with VPC endpoints on port 5432", async () => {
        const east = (await c.vpcs.create(P, { cidr: "10.1.0.0/16", region_code: "us-east-1" })).body;
        const west = (await c.vpcs.create(P, { cidr: "10.2.0.0/16", region_code: "us-west-2" })).body;
        const { body } = await c.services.create(P, { vpc_id: east.vpcs_id, connection_pooler_enabled: true });
        expect(body.hostname).toBe(`${body.id}.${P}.vpc.tsdb.cloud.example.com`);
        expect(body.port).toBe(5432);
        expect(body.pooler_hostname).toBe(`${body.id}-pooler.${P}.vpc.tsdb.cloud.example.com`);
        const e = await rejection(() => c.services.update(P, body.id, { vpc_id: west.vpcs_id }));
        expect(e.code).toBe("failed_precondition");
        expect(e.message).toMatch(/region/);
        expect((await rejection(() => c.services.create(P, { vpc_id: 999999 }))).code).toBe("failed_precondition");
        const { body: detached } = await c.services.update(P, body.id, { vpc_id: null });
        expect(detached.vpc_id).toBeUndefined();
        expect(detached.hostname).toBe(`${body.id}.${P}.tsdb.cloud.example.com`);
      });

      it("attaches exporters only in the same region, one of each kind at a time, and warns that a log exporter attached to a running service needs a restart", async () => {
        const cloudmon = { region: "us-east-1", log_group_name: "g", log_stream_name: "s", role_arn: ROLE };
        const log1 = (await c.logExporters.create(P, { region: "us-east-1", cloudmon })).body;
        const log2 = (await c.logExporters.create(P, { region: "us-east-1", cloudmon })).body;
        const logWest = (await c.logExporters.create(P, { region: "eu-west-1", cloudmon })).body;
        const metric = (await c.metricExporters.create(P, { region: "us-east-1", saasmon: { api_key: "k-123", site: "datadoghq.eu" } })).body;

        const created = await c.services.create(P, { log_exporter_id: log1.id, metric_exporter_id: metric.id });
        expect(created.body).toMatchObject({ log_exporter_id: log1.id, metric_exporter_id: metric.id });
        // a new service starts with its exporter: nothing to restart
        expect(created.warnings).toEqual([]);

        const wrongRegion = await rejection(() => c.services.update(P, created.body.id, { log_exporter_id: logWest.id }));
        expect(wrongRegion.code).toBe("failed_precondition");
        expect(wrongRegion.message).toMatch(/same region/);
        const wrongKind = await rejection(() => c.services.update(P, created.body.id, { log_exporter_id: metric.id }));
        expect(wrongKind.code).toBe("failed_precondition");

        // one log exporter at a time: attaching another detaches the first
        const switched = await c.services.update(P, created.body.id, { log_exporter_id: log2.id });
        expect(switched.body.log_exporter_id).toBe(log2.id);
        expect(switched.warnings).toHaveLength(1);
        expect(switched.warnings[0]!.message).toMatch(/logs flow only after the service restarts.*pause the service.*then resume it/);
        const attached = await rejection(() => c.logExporters.delete(P, log2.id));
        expect(attached.code).toBe("failed_precondition");
        expect(attached.message).toContain(created.body.id);
        await c.logExporters.delete(P, log1.id);
      });
    });

    it("deletes a service's connectors with it", async () => {
      const svc = (await c.services.create(P, {})).body;
      const conn = (await c.srcDbConnectors.create(P, { service_id: svc.id, display_name: "src", connection_string: "postgres://u:p@h/db" })).body;
      await c.services.delete(P, svc.id);
      expect((await rejection(() => c.srcDbConnectors.get(P, conn.id))).code).toBe("not_found");
    });

    it("answers not_found for a service of another project", async () => {
      const svc = (await c.services.create(P, {})).body;
      expect((await rejection(() => c.services.get("otherproj1", svc.id))).code).toBe("not_found");
    });
  });

  describe(`${name}: VPCs and peering`, () => {
    let h: Harness;
    let c: PlatformClient;
    beforeAll(async () => {
      h = await factory();
      c = h.client;
    });
    afterAll(() => h.cleanup());

    it("creates a VPC with an integer id, a cloud id and a generated name; finds it by id and by name", async () => {
      const { body } = await c.vpcs.create(P, { cidr: "10.10.0.0/16", region_code: "us-east-1" });
      expect(Number.isInteger(body.vpcs_id)).toBe(true);
      expect(body.id).toBe(String(body.vpcs_id));
      expect(body.provisioned_id).toMatch(/^vpc-[0-9a-f]{17}$/);
      expect(body.name).toMatch(/^vpc-\d{5}$/);
      expect(body).toMatchObject({ project_id: P, status: "CREATED", error_message: "" });
      expect(await c.vpcs.getByName(P, body.name)).toEqual(await c.vpcs.get(P, body.id));
    });

    it("refuses a duplicate name, a bad CIDR, an Azure region and an in-place CIDR change", async () => {
      const { body } = await c.vpcs.create(P, { cidr: "10.11.0.0/16", region_code: "us-east-1", name: "main" });
      expect((await rejection(() => c.vpcs.create(P, { cidr: "10.12.0.0/16", region_code: "us-east-1", name: "main" }))).code).toBe("conflict");
      const hostBits = await rejection(() => c.vpcs.create(P, { cidr: "10.12.0.1/16", region_code: "us-east-1" }));
      expect(hostBits.code).toBe("invalid");
      expect(hostBits.message).toMatch(/10\.12\.0\.0\/16/);
      expect((await rejection(() => c.vpcs.create(P, { cidr: "10.300.0.0/16", region_code: "us-east-1" }))).code).toBe("invalid");
      expect((await rejection(() => c.vpcs.create(P, { cidr: "10.13.0.0/16", region_code: "az-eastus" }))).code).toBe("invalid");
      expect((await rejection(() => c.vpcs.update(P, body.vpcs_id, { cidr: "10.14.0.0/16" }))).code).toBe("failed_precondition");
      const renamed = await c.vpcs.update(P, body.vpcs_id, { name: "main-renamed" });
      expect(renamed.body.name).toBe("main-renamed");
    });

    it("peers with a VPC: pcx ids, vpc type, a deprecated peer_cidr, and the platform VPC's cloud id", async () => {
      const vpc = (await c.vpcs.create(P, { cidr: "10.20.0.0/16", region_code: "us-east-1" })).body;
      const { body } = await c.peering.create(P, { platform_vpc_id: vpc.vpcs_id, peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_vpc_id: "vpc-0a1b2c3d4e5f67890" });
      expect(body).toMatchObject({ peering_type: "vpc", peer_cidr: "deprecated", vpc_id: vpc.provisioned_id, status: "ACTIVE", error_message: "" });
      expect(body.provisioned_id).toMatch(/^pcx-[0-9a-f]{17}$/);
      expect(body.accepter_provisioned_id).toBe(body.provisioned_id);
      expect(body.id).toBe(String(body.peering_connection_id));
      expect(body.peer_cidr_blocks.length).toBe(1); // filled in from the peer VPC
      expect(await c.peering.get(P, vpc.vpcs_id, body.peering_connection_id)).toEqual(body);
      expect((await rejection(() => c.peering.get(P, vpc.vpcs_id + 1000, body.peering_connection_id))).code).toBe("not_found");
    });

    it("peers with a transit gateway: tgw ids, needs CIDR blocks, updates them in place order-insensitively", async () => {
      const vpc = (await c.vpcs.create(P, { cidr: "10.21.0.0/16", region_code: "us-east-1" })).body;
      const missing = await rejection(() => c.peering.create(P, { platform_vpc_id: vpc.vpcs_id, peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_tgw_id: "tgw-0a1b2c3d4e5f67890" }));
      expect(missing.code).toBe("invalid");
      expect(missing.message).toMatch(/peer_cidr_blocks/);
      const { body } = await c.peering.create(P, {
        platform_vpc_id: vpc.vpcs_id,
        peer_account_id: "123456789012",
        peer_region_code: "us-east-1",
        peer_tgw_id: "tgw-0a1b2c3d4e5f67890",
        peer_cidr_blocks: ["192.168.0.0/24", "192.168.1.0/24"],
      });
      expect(body.peering_type).toBe("tgw");
      expect(body.provisioned_id).toMatch(/^tgw-/);
      expect(body.accepter_provisioned_id).toMatch(/^tgw-attach-[0-9a-f]{17}$/);
      const before = await c.events.list(P, { resourceId: body.id });
      const reordered = await c.peering.update(P, vpc.vpcs_id, body.peering_connection_id, { peer_cidr_blocks: ["192.168.1.0/24", "192.168.0.0/24"] });
      expect(reordered.body.peer_cidr_blocks).toEqual(["192.168.0.0/24", "192.168.1.0/24"]);
      expect(await c.events.list(P, { resourceId: body.id })).toHaveLength(before.length);
      const changed = await c.peering.update(P, vpc.vpcs_id, body.peering_connection_id, { peer_cidr_blocks: ["192.168.2.0/24"] });
      expect(changed.body.peer_cidr_blocks).toEqual(["192.168.2.0/24"]);
      expect((await rejection(() => c.peering.update(P, vpc.vpcs_id, body.peering_connection_id, { peer_account_id: "210987654321" }))).code).toBe("failed_precondition");
    });

    it("ends a peering whose blocks overlap the platform VPC in INVALID, with an error message", async () => {
      const vpc = (await c.vpcs.create(P, { cidr: "10.22.0.0/16", region_code: "us-east-1" })).body;
      const { body } = await c.peering.create(P, {
        platform_vpc_id: vpc.vpcs_id,
        peer_account_id: "123456789012",
        peer_region_code: "us-east-1",
        peer_vpc_id: "vpc-0a1b2c3d",
        peer_cidr_blocks: ["10.22.128.0/20"],
      });
      expect(body.status).toBe("INVALID");
      expect(body.error_message).toMatch(/overlaps/);
      const e = await rejection(() => waitForPeering(c, P, vpc.vpcs_id, body.peering_connection_id, 1000));
      expect(e.code).toBe("failed_precondition");
      expect(e.message).toMatch(/overlaps/);
    });

    it("refuses to delete a VPC with peering connections or attached services", async () => {
      const vpc = (await c.vpcs.create(P, { cidr: "10.23.0.0/16", region_code: "us-east-1" })).body;
      const pc = (await c.peering.create(P, { platform_vpc_id: vpc.vpcs_id, peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_vpc_id: "vpc-0b1b2c3d" })).body;
      const svc = (await c.services.create(P, { vpc_id: vpc.vpcs_id })).body;
      const withPeering = await rejection(() => c.vpcs.delete(P, vpc.vpcs_id));
      expect(withPeering.code).toBe("failed_precondition");
      expect(withPeering.message).toContain(pc.id);
      await c.peering.delete(P, vpc.vpcs_id, pc.peering_connection_id);
      const withService = await rejection(() => c.vpcs.delete(P, vpc.vpcs_id));
      expect(withService.message).toContain(svc.id);
      await c.services.delete(P, svc.id);
      await c.vpcs.delete(P, vpc.vpcs_id);
      expect((await rejection(() => c.vpcs.get(P, vpc.vpcs_id))).code).toBe("not_found");
    });

    it("lists VPCs with their peering connections in the lookup", async () => {
      const vpc = (await c.vpcs.create(P, { cidr: "10.24.0.0/16", region_code: "us-east-1", name: "looked-up" })).body;
      const pc = (await c.peering.create(P, { platform_vpc_id: vpc.vpcs_id, peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_vpc_id: "vpc-0c1b2c3d" })).body;
      const lookup = await c.lookups.vpcs(P);
      const entry = lookup.vpcs.find((v) => v.name === "looked-up")!;
      expect(entry).toMatchObject({ id: vpc.vpcs_id, cidr: "10.24.0.0/16", provisioned_id: vpc.provisioned_id });
      expect(entry.peering_connections).toEqual([expect.objectContaining({ id: pc.peering_connection_id, platform_vpc_id: vpc.vpcs_id, peering_type: "vpc", peer_cidr: "deprecated" })]);
    });
  });

  describe(`${name}: exporters`, () => {
    let h: Harness;
    let c: PlatformClient;
    beforeAll(async () => {
      h = await factory();
      c = h.client;
    });
    afterAll(() => h.cleanup());

    it("creates exporters with UUID ids, an RFC 3339 created time and the type of the configured block; never returns secrets", async () => {
      const log = (await c.logExporters.create(P, { region: "us-east-1", cloudmon: { region: "us-east-1", log_group_name: "g", log_stream_name: "s", access_key: "AKIAIOSFODNN7EXAMPLE", secret_key: SECRET_KEY } })).body;
      expect(log.id).toMatch(UUID_RE);
      expect(log.created).toMatch(RFC3339_RE);
      expect(log.type).toBe("cloudmon");
      expect(log.name).toMatch(/^logs-\d{5}$/);
      expect(log.cloudmon).toEqual({ region: "us-east-1", log_group_name: "g", log_stream_name: "s", access_key: "AKIAIOSFODNN7EXAMPLE" });
      const pull = (await c.metricExporters.create(P, { region: "us-east-1", name: "prom", pullmon: { username: "scraper", password: "pull-pass-1" } })).body;
      expect(pull.type).toBe("pullmon");
      expect(JSON.stringify(await c.metricExporters.get(P, pull.id))).not.toContain("pull-pass-1");
    });

    it("needs exactly one block and valid cloudmon authentication", async () => {
      expect((await rejection(() => c.metricExporters.create(P, { region: "us-east-1" }))).code).toBe("invalid");
      expect(
        (await rejection(() => c.metricExporters.create(P, { region: "us-east-1", saasmon: { api_key: "k", site: "datadoghq.com" }, pullmon: { username: "u", password: "p" } }))).code,
      ).toBe("invalid");
      const both = await rejection(() =>
        c.logExporters.create(P, { region: "us-east-1", cloudmon: { region: "us-east-1", log_group_name: "g", log_stream_name: "s", role_arn: ROLE, access_key: "AKIAIOSFODNN7EXAMPLE", secret_key: SECRET_KEY } }),
      );
      expect(both.code).toBe("invalid");
      expect(both.message).not.toContain(SECRET_KEY);
      expect((await rejection(() => c.logExporters.create(P, { region: "us-east-1", cloudmon: { region: "us-east-1", log_group_name: "g", log_stream_name: "s", access_key: "AKIAIOSFODNN7EXAMPLE" } }))).code).toBe("invalid");
      expect((await rejection(() => c.metricExporters.create(P, { region: "us-east-1", cloudmon: { region: "us-east-1", log_group_name: "g", log_stream_name: "s", role_arn: ROLE } }))).code).toBe("invalid");
    });

    it("updates in place (switching type), keeps the stored secret when it is not resent, and refuses a region change", async () => {
      const m = (await c.metricExporters.create(P, { region: "us-east-1", saasmon: { api_key: "key-1", site: "datadoghq.com" } })).body;
      const renamed = await c.metricExporters.update(P, m.id, { name: "renamed" });
      expect(renamed.body).toMatchObject({ name: "renamed", type: "saasmon", saasmon: { site: "datadoghq.com" } });
      const siteOnly = await c.metricExporters.update(P, m.id, { saasmon: { site: "datadoghq.eu" } });
      expect(siteOnly.body.saasmon).toEqual({ site: "datadoghq.eu" });
      const switched = await c.metricExporters.update(P, m.id, { saasmon: null, pullmon: { username: "u", password: "p-2" } });
      expect(switched.body.type).toBe("pullmon");
      expect(switched.body.saasmon).toBeUndefined();
      expect((await rejection(() => c.metricExporters.update(P, m.id, { region: "eu-west-1" }))).code).toBe("failed_precondition");
    });

    it("a pullmon exporter has an endpoint on a loopback port of its own, kept for its life; other types have none", async () => {
      const service = (await c.services.create(P, {})).body;
      const first = (await c.metricExporters.create(P, { region: "us-east-1", pullmon: { username: "u", password: "p-1" } })).body;
      const second = (await c.metricExporters.create(P, { region: "us-east-1", pullmon: { username: "u", password: "p-1" } })).body;
      const portOf = (endpoint: string | undefined) => Number(/^http:\/\/127\.0\.0\.1:(\d+)\/metrics$/.exec(endpoint ?? "")?.[1]);
      expect(portOf(first.endpoint)).toBeGreaterThan(1024);
      expect(portOf(second.endpoint)).not.toBe(portOf(first.endpoint));
      expect([service.port, service.pooler_port, service.replica_port]).not.toContain(portOf(first.endpoint));
      expect((await c.metricExporters.get(P, first.id)).endpoint).toBe(first.endpoint);
      expect((await c.metricExporters.list(P)).find((e) => e.id === first.id)?.endpoint).toBe(first.endpoint);
      // kept through a rename and a new password
      expect((await c.metricExporters.update(P, first.id, { name: "renamed", pullmon: { username: "u", password: "p-2" } })).body.endpoint).toBe(first.endpoint);
      // none for the other destinations; switching to pullmon chooses one, switching away drops it
      const saas = (await c.metricExporters.create(P, { region: "us-east-1", saasmon: { api_key: "key-1", site: "datadoghq.com" } })).body;
      expect(saas.endpoint).toBeUndefined();
      const toPull = (await c.metricExporters.update(P, saas.id, { saasmon: null, pullmon: { username: "u", password: "p" } })).body;
      expect(portOf(toPull.endpoint)).toBeGreaterThan(1024);
      expect([portOf(first.endpoint), portOf(second.endpoint)]).not.toContain(portOf(toPull.endpoint));
      const away = (await c.metricExporters.update(P, saas.id, { pullmon: null, saasmon: { api_key: "key-1", site: "datadoghq.com" } })).body;
      expect(away.endpoint).toBeUndefined();
      const log = (await c.logExporters.create(P, { region: "us-east-1", cloudmon: { region: "us-east-1", log_group_name: "g", log_stream_name: "s", role_arn: ROLE } })).body;
      expect((log as { endpoint?: string }).endpoint).toBeUndefined();
    });
  });

  describe(`${name}: connectors`, () => {
    let h: Harness;
    let c: PlatformClient;
    let serviceId: string;
    beforeAll(async () => {
      h = await factory();
      c = h.client;
      serviceId = (await c.services.create(P, {})).body.id;
    });
    afterAll(() => h.cleanup());

    it("creates an object-store connector with defaults, on an existing service only", async () => {
      const { body } = await c.objStoreConnectors.create(P, {
        service_id: serviceId,
        bucket: "sensor-exports",
        pattern: "exports/*.csv",
        credentials: { type: "RoleARN", role_arn: "arn:aws:iam::123456789012:role/reader" },
        definition: { type: "CSV", csv: { column_names: ["time", "value"] } },
        table_identifier: { table_name: "readings" },
      });
      expect(body.id).toMatch(UUID_RE);
      expect(body).toMatchObject({
        enabled: true,
        frequency: "@always",
        on_conflict_do_nothing: false,
        name: "sensor-exports",
        table_identifier: { table_name: "readings", schema_name: "public" },
        definition: { type: "CSV", csv: { delimiter: ",", skip_header: false, column_names: ["time", "value"] } },
      });
      expect(body.created_at).toMatch(RFC3339_RE);
      expect(body.updated_at).toMatch(RFC3339_RE);
      const e = await rejection(() =>
        c.objStoreConnectors.create(P, { service_id: "nosuchsvc0", bucket: "b-1", pattern: "*", credentials: { type: "Public" }, definition: { type: "PARQUET" }, table_identifier: { table_name: "t" } }),
      );
      expect(e.code).toBe("failed_precondition");
      const roleless = await rejection(() =>
        c.objStoreConnectors.create(P, { service_id: serviceId, bucket: "b-1", pattern: "*", credentials: { type: "RoleARN" }, definition: { type: "PARQUET" }, table_identifier: { table_name: "t" } }),
      );
      expect(roleless.code).toBe("invalid");
      const updated = await c.objStoreConnectors.update(P, body.id, { enabled: false, frequency: "@hourly" });
      expect(updated.body).toMatchObject({ enabled: false, frequency: "@hourly", created_at: body.created_at });
    });

    it("gives an SSH tunnel a real Ed25519 key pair and publishes the OpenSSH public key", async () => {
      const { body } = await c.srcDbConnectors.create(P, {
        service_id: serviceId,
        display_name: "Orders DB",
        connection_string: "postgres://replicator:s3cret-conn@db.internal:5432/orders",
        ssh_tunnel: { name: "bastion", host: "bastion.example.com", port: 22, username: "tunnel" },
      });
      expect(body.ssh_tunnel!.ssh_tunnel_id).toMatch(UUID_RE);
      const [type, blob] = body.ssh_tunnel!.public_key.split(" ");
      expect(type).toBe("ssh-ed25519");
      const raw = Buffer.from(blob!, "base64");
      expect(raw.readUInt32BE(0)).toBe(11);
      expect(raw.subarray(4, 15).toString()).toBe("ssh-ed25519");
      expect(raw.readUInt32BE(15)).toBe(32);
      const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: raw.subarray(19, 51).toString("base64url") }, format: "jwk" });
      expect(key.asymmetricKeyType).toBe("ed25519");
      expect(body.connection_string).toBeUndefined();
      expect(body.source_id).toMatch(UUID_RE);
      expect(body.name).toBe("orders-db");
      expect(body.table_sync_workers).toBe(4);

      // changing the tunnel keeps its key; removing and re-adding makes a new one
      const moved = await c.srcDbConnectors.update(P, body.id, { ssh_tunnel: { name: "bastion", host: "bastion2.example.com", port: 2222 } });
      expect(moved.body.ssh_tunnel!.public_key).toBe(body.ssh_tunnel!.public_key);
      const removed = await c.srcDbConnectors.update(P, body.id, { ssh_tunnel: null });
      expect(removed.body.ssh_tunnel).toBeUndefined();
      const again = await c.srcDbConnectors.update(P, body.id, { ssh_tunnel: { name: "bastion" } });
      expect(again.body.ssh_tunnel!.public_key).not.toBe(body.ssh_tunnel!.public_key);
    });

    it("re-adds a table whose table_mapping or publication_name changed, and refuses a hypertable_spec change", async () => {
      const spec = { primary_dimension: { column_name: "time", partition_interval: "7d" } };
      const { body } = await c.srcDbConnectors.create(P, {
        service_id: serviceId,
        display_name: "metrics",
        connection_string: "postgresql://u:p@h/db",
        tables: [
          { schema_name: "public", table_name: "metrics", hypertable_spec: spec },
          { schema_name: "public", table_name: "devices", publication_name: "pub_a" },
        ],
      });
      expect(body.status).toBe("ok");
      const result = await c.srcDbConnectors.update(P, body.id, {
        tables: [
          { schema_name: "public", table_name: "metrics", hypertable_spec: spec, table_mapping: { schema_name: "raw", table_name: "metrics" } },
          { schema_name: "public", table_name: "devices", publication_name: "pub_b" },
        ],
      });
      expect(result.warnings.map((w) => w.message).join("\n")).toMatch(/public\.metrics.*re-synced[\s\S]*public\.devices.*re-synced/);
      const resyncs = await c.events.list(P, { resourceId: body.id, kind: "table_resync" });
      expect(resyncs.map((e) => e.message)).toEqual([expect.stringContaining("public.metrics"), expect.stringContaining("public.devices")]);

      const e = await rejection(() =>
        c.srcDbConnectors.update(P, body.id, {
          tables: [{ schema_name: "public", table_name: "metrics", hypertable_spec: { primary_dimension: { column_name: "time", partition_interval: "1d" } } }],
        }),
      );
      expect(e.code).toBe("failed_precondition");
      expect(e.message).toMatch(/hypertable_spec/);
      // removing the spec of an existing table, and dropping a table, are fine
      const trimmed = await c.srcDbConnectors.update(P, body.id, { tables: [{ schema_name: "public", table_name: "metrics", table_mapping: { schema_name: "raw", table_name: "metrics" } }] });
      expect(trimmed.body.tables).toHaveLength(1);
      expect(trimmed.warnings).toHaveLength(0);
    });

    it("reports status paused when disabled and warning with no tables", async () => {
      const { body } = await c.srcDbConnectors.create(P, { service_id: serviceId, display_name: "empty", connection_string: "postgres://u:p@h/db" });
      expect(body.status).toBe("warning");
      expect((await c.srcDbConnectors.update(P, body.id, { enabled: false })).body.status).toBe("paused");
      expect((await c.srcDbConnectors.list(P, serviceId)).map((x) => x.id)).toContain(body.id);
    });

    it("refuses a connection string that is not a postgres URI, without echoing it", async () => {
      const e = await rejection(() => c.srcDbConnectors.create(P, { service_id: serviceId, display_name: "bad", connection_string: "mysql://u:hunter2@h/db" }));
      expect(e.code).toBe("invalid");
      expect(e.message).not.toContain("hunter2");
    });
  });

  describe(`${name}: lookups`, () => {
    let h: Harness;
    let c: PlatformClient;
    beforeAll(async () => {
      h = await factory();
      c = h.client;
    });
    afterAll(() => h.cleanup());

    it("lists products with plans per region where milli_cpu = 250 × memory_gb", async () => {
      const { products } = await c.lookups.products();
      expect(products.length).toBeGreaterThan(0);
      const plans = products.flatMap((p) => p.plans);
      expect(new Set(plans.map((p) => p.memory_gb))).toEqual(new Set([2, 4, 8, 16, 32, 64, 128, 192, 256]));
      for (const plan of plans) {
        expect(plan.milli_cpu).toBe(plan.memory_gb * 250);
        expect(plan.price).toBeGreaterThan(0);
      }
      expect(new Set(plans.map((p) => p.region_code))).toContain("us-east-1");
    });

    it("reads a service in the data source's shape", async () => {
      const svc = (await c.services.create(P, { ha_replicas: 1, environment_tag: "PROD" })).body;
      const s = await c.lookups.service(P, svc.id);
      expect(s).toMatchObject({ id: svc.id, name: svc.name, environment_tag: "PROD", region_code: "us-east-1", spec: { hostname: svc.hostname, port: svc.port, username: "tsdbadmin", replica_hostname: svc.replica_hostname } });
      expect(s.resources[0]!.spec).toEqual({ milli_cpu: 500, memory_gb: 2, ha_replicas: 1, sync_replicas: 0, enable_ha_replica: true });
    });
  });

  describe(`${name}: status transitions over time`, () => {
    let h: Harness;
    let c: PlatformClient;
    const clock = manualClock();
    beforeAll(async () => {
      h = await factory({ clock: clock.now, transitionSeconds: 10 });
      c = h.client;
    });
    afterAll(() => h.cleanup());

    it("moves a service QUEUED → CONFIGURING → READY, PAUSING → PAUSED and RESUMING → READY", async () => {
      const { body } = await c.services.create(P, {});
      expect(body.status).toBe("QUEUED");
      clock.advance(6000);
      expect((await c.services.get(P, body.id)).status).toBe("CONFIGURING");
      clock.advance(5000);
      expect((await c.services.get(P, body.id)).status).toBe("READY");

      const pausing = (await c.services.update(P, body.id, { paused: true })).body;
      expect(pausing).toMatchObject({ status: "PAUSING", paused: true });
      clock.advance(10_000);
      expect((await c.services.get(P, body.id)).status).toBe("PAUSED");
      const resuming = (await c.services.update(P, body.id, { paused: false })).body;
      expect(resuming).toMatchObject({ status: "RESUMING", paused: false });
      clock.advance(10_000);
      expect((await c.services.get(P, body.id)).status).toBe("READY");

      const resizing = (await c.services.update(P, body.id, { milli_cpu: 1000, memory_gb: 4 })).body;
      expect(resizing.status).toBe("CONFIGURING");
      clock.advance(10_000);
      expect((await c.services.get(P, body.id)).status).toBe("READY");
    });

    it("moves a VPC CREATING → CREATED and a peering PENDING → ACTIVE (transit gateways take twice as long)", async () => {
      const vpc = (await c.vpcs.create(P, { cidr: "10.30.0.0/16", region_code: "us-east-1" })).body;
      expect(vpc.status).toBe("CREATING");
      expect((await rejection(() => c.services.create(P, { vpc_id: vpc.vpcs_id }))).message).toMatch(/CREATING/);
      clock.advance(10_000);
      expect((await c.vpcs.get(P, vpc.vpcs_id)).status).toBe("CREATED");
      const pcx = (await c.peering.create(P, { platform_vpc_id: vpc.vpcs_id, peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_vpc_id: "vpc-0d1b2c3d" })).body;
      const tgw = (await c.peering.create(P, { platform_vpc_id: vpc.vpcs_id, peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_tgw_id: "tgw-0d1b2c3d", peer_cidr_blocks: ["192.168.0.0/16"] })).body;
      expect([pcx.status, tgw.status]).toEqual(["PENDING", "PENDING"]);
      clock.advance(10_000);
      expect((await c.peering.get(P, vpc.vpcs_id, pcx.peering_connection_id)).status).toBe("ACTIVE");
      expect((await c.peering.get(P, vpc.vpcs_id, tgw.peering_connection_id)).status).toBe("PENDING");
      clock.advance(10_000);
      expect((await c.peering.get(P, vpc.vpcs_id, tgw.peering_connection_id)).status).toBe("ACTIVE");
    });

    it("waits for readiness with waitFor, and times out with a clear error", async () => {
      const sleep = async (ms: number) => clock.advance(ms);
      const svc = (await c.services.create(P, {})).body;
      const ready = await waitForService(c, P, svc.id, 60_000, { now: clock.now, sleep });
      expect(ready.status).toBe("READY");
      const vpc = (await c.vpcs.create(P, { cidr: "10.31.0.0/16", region_code: "us-east-1" })).body;
      const e = await rejection(() => waitForVpc(c, P, vpc.vpcs_id, 3000, { now: clock.now, sleep }));
      expect(e.code).toBe("timeout");
      expect(e.message).toMatch(/timed out after 3s waiting for VPC .* \(last status CREATING\)/);
      const done = await waitFor(() => c.vpcs.get(P, vpc.vpcs_id), (v) => (v.status === "CREATED" ? "done" : "pending"), { timeoutMs: 60_000, what: "vpc", now: clock.now, sleep });
      expect(done.status).toBe("CREATED");
    });
  });
}
