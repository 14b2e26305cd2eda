// The validate bench's CDKTF-shaped stack: a configuration of our resources as `cdktf synth`
// writes it for a stack with input variables and local values, in which most resource arguments
// are one reference (`"${tsdb_vpcs.net1.vpcs_id}"`, `"${var.ha}"`) or a template around one
// (`"${local.prefix}-db-1"`, some with functions), and the same configuration in native syntax
// (`.tf`), so that validate of a `.tf` file is measured against JSON.parse of its JSON form.
import { attribute, block, comment, expression, fromTemplate, renderHcl } from "../dist/language/syntax/native/writer.js";

const VARIABLES = {
  project_id: { type: "string", description: "the tsdb project" },
  env: { type: "string", default: "prod" },
  region: { type: "string", default: "us-east-1" },
  base_cidr: { type: "string", default: "10.0.0.0/8" },
  ha: { type: "number", default: 1 },
  milli_cpu: { type: "number", default: 1000 },
  memory_gb: { type: "number", default: 4 },
  pooler: { type: "bool", default: true },
  exporter_role_arn: { type: "string" },
  datadog_api_key: { type: "string", sensitive: true },
  source_url: { type: "string", sensitive: true },
  peer_account: { type: "string" },
  peer_vpc: { type: "string" },
  restore_project: { type: "string" },
};

/** One stack slice: a VPC, two exporters, a service on them, a peering, a connector and a restore channel. */
function slice(i) {
  const vpc = `tsdb_vpcs.net${i}`;
  const service = `tsdb_service.db${i}`;
  return {
    tsdb_vpcs: { [`net${i}`]: { cidr: `\${cidrsubnet(var.base_cidr, 8, ${i % 250})}`, name: `\${local.prefix}-net-${i}`, region_code: "${var.region}" } },
    tsdb_log_exporter: {
      [`logs${i}`]: {
        cloudmon: { log_group_name: `/tsdb/\${var.env}/${i}`, log_stream_name: "postgres", region: "${var.region}", role_arn: "${var.exporter_role_arn}" },
        name: `\${local.prefix}-logs-${i}`,
        region: "${var.region}",
      },
    },
    tsdb_metric_exporter: { [`metrics${i}`]: { name: `\${local.prefix}-metrics-${i}`, region: "${var.region}", saasmon: { api_key: "${var.datadog_api_key}", site: "datadoghq.com" } } },
    tsdb_service: {
      [`db${i}`]: {
        connection_pooler_enabled: "${var.pooler}",
        depends_on: [vpc],
        environment_tag: `\${upper(var.env) == "PROD" ? "PROD" : "DEV"}`,
        ha_replicas: "${var.ha}",
        log_exporter_id: `\${tsdb_log_exporter.logs${i}.id}`,
        memory_gb: "${var.memory_gb}",
        metric_exporter_id: `\${tsdb_metric_exporter.metrics${i}.id}`,
        milli_cpu: "${var.milli_cpu}",
        name: `\${local.prefix}-db-${i}`,
        region_code: `\${${vpc}.region_code}`,
        timeouts: { create: "45m" },
        vpc_id: `\${${vpc}.vpcs_id}`,
      },
    },
    tsdb_peering_connection: {
      [`peer${i}`]: { peer_account_id: "${var.peer_account}", peer_region_code: `\${${vpc}.region_code}`, peer_vpc_id: "${var.peer_vpc}", platform_vpc_id: `\${${vpc}.vpcs_id}` },
    },
    tsdb_connector_src_db: {
      [`src${i}`]: {
        connection_string: "${var.source_url}",
        display_name: `\${${service}.name} source`,
        service_id: `\${${service}.id}`,
        table_sync_workers: 4,
        tables: [{ schema_name: "public", table_name: `events_${i}` }],
      },
    },
    containerbackup_restore_channel: {
      [`channel${i}`]: {
        description: `restore of \${${service}.id}`,
        destination_project: "projects/${var.restore_project}",
        labels: { env: "${var.env}", service: `\${${service}.name}` },
        location: "us-central1",
      },
    },
  };
}

/**
 * The stack of about `target` bytes of JSON, as `cdktf synth` writes it (two-space indents, keys
 * sorted, a `"//"` metadata object at the top and in every resource), with one output per
 * service, and `native`, the same configuration in native syntax (`"//"` as comments).
 */
export function cdktfStack(target) {
  const root = {
    "//": { metadata: { backend: "local", stackName: "bench", version: "0.20.11" }, outputs: {} },
    locals: { prefix: "${var.project_id}-${var.env}" },
    output: {},
    provider: { containerbackup: [{ project: "${var.restore_project}" }], tsdb: [{ project_id: "${var.project_id}" }] },
    resource: {},
    terraform: { backend: { local: { path: "terraform.tfstate" } }, required_providers: { containerbackup: { source: "schemaform/containerbackup", version: "1.0.0" }, tsdb: { source: "schemaform/tsdb", version: "1.0.0" } } },
    variable: VARIABLES,
  };
  let size = 0;
  let i = 0;
  while (size < target) {
    const part = slice(i);
    for (const [type, blocks] of Object.entries(part)) {
      for (const [name, body] of Object.entries(blocks)) {
        blocks[name] = { "//": { metadata: { path: `bench/${type}.${name}`, uniqueId: name } }, ...body };
      }
      Object.assign((root.resource[type] ??= {}), blocks);
    }
    const output = { value: `\${tsdb_service.db${i}.hostname}` };
    root.output[`db${i}_host`] = output;
    root["//"].outputs[`db${i}_host`] = `db${i}_host`;
    size += JSON.stringify(part, null, 2).length + JSON.stringify(output, null, 2).length + 40;
    i++;
  }
  return { text: JSON.stringify(root, null, 2), native: nativeStack(root), groups: i, resources: i * 7 };
}

/** Arguments of our resources that are nested blocks in native syntax (the schemas' `block`s; `tables` is an attribute). */
const NESTED_BLOCKS = new Set(["timeouts"]);

function nativeValue(v) {
  if (typeof v === "string") return fromTemplate(v);
  if (Array.isArray(v)) return v.map(nativeValue);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, nativeValue(x)]));
  return v;
}

function nativeBody(body) {
  const items = [];
  for (const [name, v] of Object.entries(body)) {
    if (name === "//") items.push(comment(JSON.stringify(v)));
    else if (name === "depends_on") items.push(attribute(name, v.map((address) => expression(address))));
    else if (NESTED_BLOCKS.has(name)) for (const b of Array.isArray(v) ? v : [v]) items.push(block(name, [], nativeBody(b)));
    else items.push(attribute(name, nativeValue(v)));
  }
  return items;
}

function nativeStack(root) {
  const items = [comment(JSON.stringify(root["//"].metadata))];
  const { backend, required_providers } = root.terraform;
  items.push(
    block("terraform", [], [
      block("backend", ["local"], nativeBody(backend.local)),
      block("required_providers", [], Object.entries(required_providers).map(([name, v]) => attribute(name, nativeValue(v)))),
    ]),
  );
  for (const [name, { type, ...rest }] of Object.entries(root.variable)) items.push(block("variable", [name], [attribute("type", expression(type)), ...nativeBody(rest)]));
  items.push(block("locals", [], nativeBody(root.locals)));
  for (const [name, [body]] of Object.entries(root.provider)) items.push(block("provider", [name], nativeBody(body)));
  for (const [type, named] of Object.entries(root.resource)) for (const [name, body] of Object.entries(named)) items.push(block("resource", [type, name], nativeBody(body)));
  for (const [name, body] of Object.entries(root.output)) items.push(block("output", [name], nativeBody(body)));
  return renderHcl(items);
}
