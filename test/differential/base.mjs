// Valid configurations: every resource and data source type of both providers, and the Terraform
// language around them (providers with aliases, meta-arguments, variables, locals, outputs, local
// child modules, moved/import/removed/check blocks, templates). A base is a model (files as plain
// objects) that mutations change before it is written; every base is itself a case ("valid").

export const SERVICE_SIZES = [
  [500, 2],
  [1000, 4],
  [2000, 8],
  [4000, 16],
  [8000, 32],
];
const REGIONS = ["us-east-1", "eu-west-1", "us-west-2", "ap-south-1"];

/** Deterministic pseudo-random numbers (mulberry32). */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

/**
 * The model of a module tree. `files` is the root module (file name → root object); `modules`
 * holds local child modules (./modules/NAME) the same way. `layout` says which file a top-level
 * block kind goes to; `features` what the base declared (mutations rely on the fixed core:
 * provider tsdb, tsdb_vpcs.main, tsdb_service.db, variables name_prefix/cpu/secret, local cpu).
 */
export function buildBase(r, index) {
  const layout = pickLayout(r, index);
  const m = { files: {}, modules: {}, layout, features: new Set(), style: index % 5 };
  const put = (kind, key, value) => {
    const file = layout[kind] ?? "main.tf.json";
    const root = (m.files[file] ??= {});
    const group = (root[kind] ??= {});
    group[key] = value;
  };
  const putResource = (kind, type, name, body) => {
    const file = layout[`${kind}:${type}`] ?? layout[kind] ?? "main.tf.json";
    const root = (m.files[file] ??= {});
    ((root[kind] ??= {})[type] ??= {})[name] = body;
  };
  m.put = put;
  m.putResource = putResource;

  // terraform and providers
  const terraform = {
    required_providers: {
      tsdb: { source: "schemaform/tsdb" },
      containerbackup: { source: "schemaform/containerbackup" },
    },
  };
  if (r.chance(0.4)) terraform.required_version = r.pick([">= 1.11", ">= 1.10, < 2.0", "~> 1.11"]);
  (m.files[layout.terraform ?? "main.tf.json"] ??= {}).terraform = terraform;
  const tsdbProviders = [{ project_id: r.pick(["proj-1", "demo-project", "analytics"]) }];
  if (index % 3 !== 0) {
    tsdbProviders.push({ alias: "east", project_id: "proj-east", access_key: "AKEXAMPLE", secret_key: "${var.secret}" });
    m.features.add("alias:east");
  }
  const providerFile = layout.provider ?? "main.tf.json";
  const providerRoot = (m.files[providerFile] ??= {});
  providerRoot.provider = { tsdb: tsdbProviders.length === 1 && r.chance(0.5) ? tsdbProviders[0] : tsdbProviders };
  if (index % 4 !== 1) {
    providerRoot.provider.containerbackup = { project: "my-project", default_labels: { team: "data" } };
    m.features.add("provider:containerbackup");
  }

  // variables
  put("variable", "name_prefix", {
    type: "string",
    default: "demo",
    description: "Prefix of every name.",
    validation: [{ condition: "${length(var.name_prefix) > 0}", error_message: "The prefix must not be empty." }],
  });
  put("variable", "cpu", { type: "number", default: 1000, nullable: false });
  put("variable", "secret", { type: "string", sensitive: true, default: "s3cr3t-value" });
  if (r.chance(0.6)) {
    put("variable", "regions", { type: "map(string)", default: { a: "us-east-1", b: "eu-west-1" } });
    m.features.add("var:regions");
  }
  if (r.chance(0.5)) {
    put("variable", "settings", {
      type: "object({ size = number, tags = optional(map(string), {}), tier = optional(string) })",
      default: { size: 2 },
    });
    m.features.add("var:settings");
  }
  if (r.chance(0.5)) {
    put("variable", "db_password", { type: "string", ephemeral: true, sensitive: true, default: "pw-123456" });
    m.features.add("var:ephemeral");
  }
  if (r.chance(0.4)) {
    put("variable", "counts", { type: "list(number)", default: [1, 2] });
    m.features.add("var:counts");
  }
  if (r.chance(0.4)) {
    put("variable", "enabled", { type: "bool", default: true });
    m.features.add("var:enabled");
  }

  // locals
  const [cpu, mem] = r.pick(SERVICE_SIZES);
  const locals = { cpu, mem, prefix: "${var.name_prefix}-${terraform.workspace}", tags: { team: "data", env: "dev" } };
  if (r.chance(0.5)) locals.upper_names = "${[for n in ['a', 'b'] : upper(n)]}".replace(/'/g, '"');
  if (r.chance(0.4)) locals.region = r.pick(REGIONS);
  const localsFile = layout.locals ?? "main.tf.json";
  const localsRoot = (m.files[localsFile] ??= {});
  localsRoot.locals = locals;

  // the core resources
  const region = r.pick(REGIONS);
  const vpc = { cidr: `10.${index % 250}.0.0/16`, region_code: region };
  if (r.chance(0.5)) vpc.name = "${local.prefix}-vpc";
  if (r.chance(0.3)) vpc.timeouts = { create: r.pick(["10m", "1h", "90s"]) };
  putResource("resource", "tsdb_vpcs", "main", vpc);

  const db = { name: "${local.prefix}-db", milli_cpu: "${local.cpu}", memory_gb: "${local.mem}", region_code: region };
  if (r.chance(0.5)) db.vpc_id = "${tsdb_vpcs.main.vpcs_id}";
  if (r.chance(0.3)) Object.assign(db, { ha_replicas: 2, sync_replicas: 1 });
  if (r.chance(0.3)) db.environment_tag = r.pick(["DEV", "PROD"]);
  if (r.chance(0.2)) db.connection_pooler_enabled = true;
  if (m.features.has("var:ephemeral") && r.chance(0.7)) Object.assign(db, { password_wo: "${var.db_password}", password_wo_version: 1 });
  if (r.chance(0.3)) db.timeouts = { create: "45m" };
  if (r.chance(0.4)) db.lifecycle = { ignore_changes: ["name"], create_before_destroy: true };
  putResource("resource", "tsdb_service", "db", db);

  // every other type, in turns (each base has several; the corpus has them all many times)
  const extras = [addReplica, addPeering, addConnectorObjStore, addConnectorSrcDb, addLogExporter, addMetricExporter, addRestoreChannel, addCountedVpcs, addForEachVpcs, addAliasedService];
  const chosen = new Set([extras[index % extras.length], extras[(index * 3 + 1) % extras.length]]);
  for (const add of extras) if (r.chance(0.25)) chosen.add(add);
  for (const add of extras) if (chosen.has(add)) add(m, r, region);

  // data sources
  const dataPicks = [
    () => putResource("data", "tsdb_vpcs", "all", {}),
    () => putResource("data", "tsdb_products", "catalog", {}),
    () => putResource("data", "tsdb_service", "existing", { id: r.chance(0.5) ? "svc-12345" : "${tsdb_service.db.id}" }),
  ];
  dataPicks[index % 3]();
  if (r.chance(0.4)) dataPicks[(index + 1) % 3]();
  m.features.add(`data:${["all", "catalog", "existing"][index % 3]}`);

  // outputs
  put("output", "db_hostname", { value: "${tsdb_service.db.hostname}", description: "Where to connect." });
  if (r.chance(0.5)) put("output", "secret_echo", { value: "${var.secret}", sensitive: true });
  if (r.chance(0.4)) put("output", "vpc", { value: "${tsdb_vpcs.main}", depends_on: ["tsdb_service.db"] });

  // language blocks
  if (index % 2 === 0) addModuleCall(m, r, "net");
  if (index % 5 === 1) addChannelModule(m, r);
  if (index % 4 === 2) {
    (m.files[layout.moved ?? "main.tf.json"] ??= {}).moved = [{ from: "tsdb_vpcs.legacy", to: "tsdb_vpcs.main" }];
    m.features.add("moved");
  }
  if (index % 4 === 3) {
    (m.files[layout.import ?? "main.tf.json"] ??= {}).import = [{ to: "tsdb_vpcs.main", id: "4242" }];
    m.features.add("import");
  }
  if (index % 6 === 1) {
    (m.files[layout.removed ?? "main.tf.json"] ??= {}).removed = [{ from: "tsdb_vpcs.retired", lifecycle: { destroy: false } }];
    m.features.add("removed");
  }
  if (index % 3 === 1) {
    put("check", "health", {
      data: { tsdb_vpcs: { probe: {} } },
      assert: [{ condition: "${length(data.tsdb_vpcs.probe.vpcs) >= 0}", error_message: "The VPC list cannot be read." }],
    });
    m.features.add("check");
  }
  return m;
}

function pickLayout(r, index) {
  switch (index % 4) {
    case 0:
      return {};
    case 1:
      return { terraform: "versions.tf.json", provider: "providers.tf.json", variable: "variables.tf.json", output: "outputs.tf.json" };
    case 2:
      return { variable: "variables.tf.json", locals: "variables.tf.json", "resource:tsdb_vpcs": "network.tf.json", "resource:tsdb_peering_connection": "network.tf.json" };
    default:
      return r.chance(0.5) ? { output: "outputs.tf.json", data: "data.tf.json" } : { provider: "providers.tf.json", check: "checks.tf.json", moved: "refactor.tf.json", import: "refactor.tf.json", removed: "refactor.tf.json" };
  }
}

function addReplica(m, r) {
  m.putResource("resource", "tsdb_service", "replica", { read_replica_source: "${tsdb_service.db.id}", read_replica_nodes: r.pick([1, 2, 3]), depends_on: ["tsdb_service.db"] });
  m.features.add("replica");
}

function addPeering(m, r, region) {
  const body = { platform_vpc_id: "${tsdb_vpcs.main.vpcs_id}", peer_account_id: "123456789012", peer_region_code: region };
  if (r.chance(0.5)) body.peer_vpc_id = "vpc-0a1b2c3d4e";
  else Object.assign(body, { peer_tgw_id: "tgw-0123456789abcdef0", peer_cidr_blocks: ["10.100.0.0/16", "10.101.0.0/16"] });
  m.putResource("resource", "tsdb_peering_connection", "peer", body);
  m.features.add("peering");
}

function addConnectorObjStore(m, r) {
  const csv = r.chance(0.5);
  m.putResource("resource", "tsdb_connector_obj_store", "files", {
    service_id: "${tsdb_service.db.id}",
    bucket: "my-data-bucket",
    pattern: "incoming/*.csv",
    credentials: r.chance(0.5) ? { type: "Public" } : { type: "RoleARN", role_arn: "arn:aws:iam::123456789012:role/reader" },
    definition: csv
      ? { type: "CSV", csv: { delimiter: ";", skip_header: true, column_names: ["time", "value"] } }
      : { type: "PARQUET", parquet: { column_mappings: [{ source: "ts", destination: "time" }] } },
    table_identifier: { table_name: "metrics", schema_name: "public" },
    frequency: r.pick(["@hourly", "@daily", "@5minutes"]),
  });
  m.features.add("obj_store");
}

function addConnectorSrcDb(m, r) {
  const body = {
    service_id: "${tsdb_service.db.id}",
    display_name: "orders",
    connection_string: "postgres://replicator:${var.secret}@db.example.com:5432/orders",
    table_sync_workers: r.pick([1, 4, 8, 64]),
    tables: [
      { schema_name: "public", table_name: "orders", table_mapping: { schema_name: "analytics", table_name: "orders" } },
      {
        schema_name: "public",
        table_name: "events",
        hypertable_spec: {
          primary_dimension: { column_name: "time", partition_interval: "1d" },
          secondary_dimensions: [{ hash: { column_name: "device", number_partitions: 4 } }],
        },
      },
    ],
  };
  if (r.chance(0.4)) body.ssh_tunnel = { name: "bastion", host: "bastion.example.com", port: 22, username: "tunnel" };
  m.putResource("resource", "tsdb_connector_src_db", "replication", body);
  m.features.add("src_db");
}

function addLogExporter(m, r, region) {
  m.putResource("resource", "tsdb_log_exporter", "logs", {
    region,
    cloudmon: { region, log_group_name: "/tsdb/${var.name_prefix}", log_stream_name: "postgres", role_arn: "arn:aws:iam::123456789012:role/logs" },
  });
  m.features.add("log_exporter");
  if (r.chance(0.6)) {
    // wire it into the service (same file or not, wherever tsdb_service.db lives)
    for (const root of Object.values(m.files)) {
      const db = root.resource?.tsdb_service?.db;
      if (db) db.log_exporter_id = "${tsdb_log_exporter.logs.id}";
    }
  }
}

function addMetricExporter(m, r, region) {
  const kind = r.int(3);
  const body = { region };
  if (kind === 0) body.saasmon = { api_key: "${var.secret}", site: "datadoghq.com" };
  else if (kind === 1) body.pullmon = { username: "prom", password: "${var.secret}" };
  else body.cloudmon = { region, log_group_name: "/metrics", log_stream_name: "tsdb", namespace: "TSDB", role_arn: "arn:aws:iam::123456789012:role/metrics" };
  m.putResource("resource", "tsdb_metric_exporter", "metrics", body);
  m.features.add("metric_exporter");
}

function addRestoreChannel(m, r) {
  const body = { destination_project: "projects/restore-target", location: r.pick(["us-central1", "europe-west4"]), description: "Restores for ${var.name_prefix}", labels: { team: "data" } };
  if (r.chance(0.4)) body.timeouts = { create: "10m", delete: "5m" };
  if (!m.features.has("provider:containerbackup")) body.project = "my-project";
  m.putResource("resource", "containerbackup_restore_channel", "channel", body);
  m.features.add("channel");
}

function addCountedVpcs(m, r) {
  const count = m.features.has("var:enabled") ? "${var.enabled ? 2 : 0}" : r.pick([2, "${length(local.tags)}"]);
  m.putResource("resource", "tsdb_vpcs", "counted", { count, cidr: "10.200.${count.index}.0/24", region_code: "us-east-1", name: "vpc-${count.index}" });
  m.features.add("counted");
}

function addForEachVpcs(m, r) {
  const forEach = m.features.has("var:regions") ? "${var.regions}" : r.pick([{ a: "us-east-1", b: "eu-west-1" }, '${toset(["us-east-1", "eu-west-1"])}']);
  m.putResource("resource", "tsdb_vpcs", "regional", { for_each: forEach, cidr: "10.210.0.0/16", region_code: "${each.value}", name: "vpc-${each.key}" });
  m.features.add("for_each");
}

function addAliasedService(m, r) {
  if (!m.features.has("alias:east")) return;
  const [cpu, mem] = r.pick(SERVICE_SIZES);
  m.putResource("resource", "tsdb_service", "east", {
    provider: "tsdb.east",
    milli_cpu: cpu,
    memory_gb: mem,
    lifecycle: {
      prevent_destroy: false,
      replace_triggered_by: ["tsdb_vpcs.main"],
      precondition: [{ condition: "${var.cpu > 0}", error_message: "cpu must be positive." }],
      postcondition: [{ condition: '${self.hostname != ""}', error_message: "The service needs a hostname." }],
    },
    dynamic: { timeouts: { for_each: '${toset(["45m"])}', content: { create: "${timeouts.value}" } } },
  });
  m.features.add("aliased_service");
}

/** ./modules/NAME: a VPC module (variables with and without defaults, outputs). */
export function addModuleCall(m, r, name) {
  m.modules[name] = {
    "main.tf.json": {
      terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" } } },
      variable: {
        cidr: { type: "string", description: "The VPC's CIDR block." },
        region: { type: "string", default: "us-east-1" },
        label: { type: "string", default: null },
      },
      resource: { tsdb_vpcs: { this: { cidr: "${var.cidr}", region_code: "${var.region}", name: "${var.label}" } } },
    },
    "outputs.tf.json": { output: { vpc_id: { value: "${tsdb_vpcs.this.vpcs_id}" }, cidr: { value: "${var.cidr}" } } },
  };
  const call = { source: `./modules/${name}`, cidr: "10.250.0.0/16" };
  if (r.chance(0.5)) call.region = "eu-west-1";
  if (m.features.has("alias:east") && r.chance(0.5)) call.providers = { tsdb: "tsdb.east" };
  m.put("module", name, call);
  m.put("output", `${name}_vpc_id`, { value: `\${module.${name}.vpc_id}` });
  m.features.add(`module:${name}`);
}

/** ./modules/channel: a restore channel module with its own nested local module call. */
function addChannelModule(m, r) {
  m.modules.channel = {
    "main.tf.json": {
      terraform: { required_providers: { containerbackup: { source: "schemaform/containerbackup" }, tsdb: { source: "schemaform/tsdb" } } },
      variable: {
        location: { type: "string" },
        settings: { type: "object({ labels = optional(map(string), {}), description = optional(string, \"managed\") })", default: {} },
      },
      resource: {
        containerbackup_restore_channel: {
          this: { destination_project: "projects/restore-target", location: "${var.location}", project: "my-project", labels: "${var.settings.labels}", description: "${var.settings.description}" },
        },
      },
      module: { inner: { source: "../net", cidr: "10.99.0.0/16" } },
      output: { channel_id: { value: "${containerbackup_restore_channel.this.id}" }, inner_vpc: { value: "${module.inner.vpc_id}" } },
    },
  };
  if (!m.modules.net) {
    // the nested call needs ./modules/net: declare the module without a root call
    addModuleCall({ files: {}, modules: m.modules, put: () => {}, features: new Set() }, r, "net");
  }
  m.put("module", "channel", { source: "./modules/channel", location: r.pick(["us-central1", "europe-west4"]) });
  m.features.add("module:channel");
}
