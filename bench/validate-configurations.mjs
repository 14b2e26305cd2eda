// The configurations the validate bench reads: generated files of our resources in the styles
// people and tools write them (as `cdktf synth` does, hand-written, minified, with templates),
// and a one-line file of services with one error each. The CDKTF-shaped stack with references
// and templates in most resources is cdktf-stack.mjs.

/**
 * A valid configuration of our resources of about `target` bytes.
 * style "cdktf": what `cdktf synth` writes (two-space indents, every resource carries its "//"
 * metadata comment); style "compact": hand-written (two-space indents, no comments); style
 * "minified": what a generator writes without indenting (no whitespace, no comments: the most
 * resources per megabyte); style "expressions": hand-written like "compact", but the values come
 * through local values and templates with functions and operators (which validate parses, and
 * evaluates where they are known: the services' sizes are local values the value rules check).
 */
export function generateConfiguration(target, style = "cdktf") {
  const root = {
    "//": { metadata: { generator: "schemaform bench" } },
    terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" }, containerbackup: { source: "schemaform/containerbackup" } } },
    provider: { tsdb: { project_id: "bench-project" }, containerbackup: { project: "bench-project" } },
    resource: {},
  };
  const parts = [];
  let size = 0;
  let i = 0;
  const regions = ["us-east-1", "eu-west-1", "ap-southeast-2"];
  while (size < target) {
    const region = regions[i % regions.length];
    const r = {
      tsdb_vpcs: { [`net${i}`]: { name: `net-${i}`, cidr: `10.${i % 250}.0.0/16`, region_code: region } },
      tsdb_log_exporter: {
        [`logs${i}`]: { region, name: `logs-${i}`, cloudmon: { region, log_group_name: `/tsdb/${i}`, log_stream_name: "postgres", role_arn: "arn:aws:iam::123456789012:role/exporter" } },
      },
      tsdb_metric_exporter: { [`metrics${i}`]: { region, name: `metrics-${i}`, saasmon: { api_key: "<API_KEY>", site: "datadoghq.com" } } },
      tsdb_service: {
        [`db${i}`]: {
          name: `db-${i}`,
          milli_cpu: 1000,
          memory_gb: "4",
          region_code: region,
          ha_replicas: 1,
          connection_pooler_enabled: true,
          environment_tag: "PROD",
          vpc_id: `\${tsdb_vpcs.net${i}.vpcs_id}`,
          log_exporter_id: `\${tsdb_log_exporter.logs${i}.id}`,
          metric_exporter_id: `\${tsdb_metric_exporter.metrics${i}.id}`,
          timeouts: { create: "45m" },
          lifecycle: { prevent_destroy: false },
        },
      },
      tsdb_connector_src_db: {
        [`src${i}`]: {
          service_id: `\${tsdb_service.db${i}.id}`,
          display_name: `source ${i}`,
          connection_string: "postgres://replicator:<PASSWORD>@source.example.com:5432/app",
          table_sync_workers: 4,
          tables: [
            { schema_name: "public", table_name: `events_${i}`, table_mapping: { schema_name: "public", table_name: `events_${i}` } },
            { schema_name: "public", table_name: `users_${i}` },
          ],
        },
      },
      tsdb_peering_connection: {
        [`peer${i}`]: { platform_vpc_id: `\${tsdb_vpcs.net${i}.vpcs_id}`, peer_account_id: "123456789012", peer_region_code: region, peer_vpc_id: "vpc-0123456789abcdef0" },
      },
      containerbackup_restore_channel: {
        [`channel${i}`]: { destination_project: "projects/restore-target", location: "us-central1", description: `channel ${i}`, labels: { team: "data", index: String(i) } },
      },
    };
    if (style === "cdktf" || style === "expressions-heavy") {
      for (const [type, blocks] of Object.entries(r)) {
        for (const [name, body] of Object.entries(blocks)) {
          blocks[name] = { "//": { metadata: { path: `bench/${type}/${name}`, uniqueId: `${type}_${name}` } }, ...body };
        }
      }
    }
    if (style === "expressions-heavy") {
      // CDKTF-shaped, and most values reference another resource or an input variable as one
      // bare traversal ("${var.ha}", "${tsdb_service.db1.name}"), as a stack with variables writes them
      const service = r.tsdb_service[`db${i}`];
      Object.assign(service, { ha_replicas: "${var.ha}", environment_tag: "${var.environment}", connection_pooler_enabled: "${var.pooler}" });
      r.tsdb_vpcs[`net${i}`].name = "${var.network_name}";
      r.tsdb_log_exporter[`logs${i}`].cloudmon.role_arn = "${var.role_arn}";
      r.tsdb_metric_exporter[`metrics${i}`].saasmon.api_key = "${var.api_key}";
      r.tsdb_connector_src_db[`src${i}`].display_name = `\${tsdb_service.db${i}.name}`;
      r.tsdb_connector_src_db[`src${i}`].connection_string = "${var.source_url}";
      r.tsdb_peering_connection[`peer${i}`].peer_account_id = "${var.peer_account}";
      r.containerbackup_restore_channel[`channel${i}`].destination_project = "${var.project}";
    }
    if (style === "expressions") {
      const service = r.tsdb_service[`db${i}`];
      Object.assign(service, { name: `\${local.env}-db-${i}`, milli_cpu: "${local.cpu}", memory_gb: "${local.cpu / 250}", ha_replicas: "${local.ha ? 2 : 1}" });
      service.environment_tag = "${upper(local.env)}";
      r.tsdb_connector_src_db[`src${i}`].display_name = `\${format("source %d", ${i})} (\${local.env})`;
      r.containerbackup_restore_channel[`channel${i}`].labels.index = `\${tostring(${i} % 16)}`;
    }
    parts.push(r);
    // minified, a part adds its blocks only (its type keys merge into the root's)
    size += style === "minified" ? Object.values(r).reduce((n, blocks) => n + JSON.stringify(blocks).length - 1, 0) : JSON.stringify(r, null, 2).length;
    i++;
  }
  // one object per resource type, as CDKTF and most generators emit it
  if (style === "expressions") root.locals = { env: "prod", cpu: 1000, ha: false };
  if (style === "expressions-heavy") {
    root.variable = Object.fromEntries(
      ["environment", "network_name", "role_arn", "source_url", "peer_account", "project"].map((name) => [name, { type: "string" }]).concat([["ha", { type: "number", default: 1 }], ["pooler", { type: "bool", default: true }], ["api_key", { type: "string", sensitive: true }]]),
    );
  }
  for (const part of parts) {
    for (const [type, blocks] of Object.entries(part)) Object.assign((root.resource[type] ??= {}), blocks);
  }
  return { text: style === "minified" ? JSON.stringify(root) : JSON.stringify(root, null, 2), groups: i };
}

/**
 * One line (minified) of `count` services, each with one problem when `errors` is set: a misspelt
 * argument, a value of the wrong type, a value out of range, a value not among the allowed ones
 * or a reference to an undeclared resource, in turn. Without errors the same resources are valid.
 */
export function oneLineConfiguration(count, errors) {
  const services = {};
  for (let i = 0; i < count; i++) {
    const kind = errors ? i % 5 : -1;
    const body = { name: `db-${i}`, milli_cpu: 1000, memory_gb: "4", region_code: "us-east-1", ha_replicas: 1, environment_tag: "PROD", vpc_id: "${tsdb_vpcs.net.vpcs_id}" };
    if (kind === 0) {
      delete body.name;
      body.nmae = `db-${i}`;
    } else if (kind === 1) body.milli_cpu = { cpu: 1000 };
    else if (kind === 2) body.ha_replicas = 9;
    else if (kind === 3) body.environment_tag = "PRODUCTION";
    else if (kind === 4) body.vpc_id = "${tsdb_vpcs.nte.vpcs_id}";
    services[`db${i}`] = body;
  }
  return JSON.stringify({ resource: { tsdb_vpcs: { net: { name: "net", cidr: "10.0.0.0/16", region_code: "us-east-1" } }, tsdb_service: services } });
}
