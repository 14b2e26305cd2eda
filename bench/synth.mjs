// `npm run bench:synth`: what synth-time validation costs, measured against CDKTF's own
// `skipValidation` in the same run, plus how long `import("schemaform/tsdb")` takes beyond cdktf
// and how much the package weighs. Writes bench/results/synth.json.
//
// Every measurement runs in a fresh child process (so one case's heap and JIT state never help
// another); validation on and off alternate, and each cell is the median of 3 runs.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(import.meta.url);
const root = join(dirname(here), "..");
const SIZES = [100, 1_000, 10_000];
const RUNS = 3;
const IMPORT_RUNS = 5;
const BARS = { ratioAt10k: 1.25, importMs: 100, packageBytes: 5 * 1024 * 1024 };

// ---------------------------------------------------------------------------------------------
// Child: one measurement, printed as JSON on stdout.

async function childSynth(n, validation) {
  const { App, TerraformStack } = await import("cdktf");
  const tsdb = await import("schemaform/tsdb");
  const { ContainerbackupProvider, RestoreChannel } = await import("schemaform/containerbackup");
  const outdir = mkdtempSync(join(os.tmpdir(), "schemaform-bench-"));
  try {
    const t0 = performance.now();
    const app = new App({ outdir, skipValidation: !validation, stackTraces: false });
    const stack = new TerraformStack(app, "bench");
    new tsdb.TsdbProvider(stack, "tsdb", { projectId: "bench-project" });
    new ContainerbackupProvider(stack, "containerbackup", { project: "bench-project" });
    buildMix(stack, n, tsdb, RestoreChannel);
    // Time the validations where app.synth() runs them (cold, as users meet them).
    let inSynthMs = 0;
    const runAllValidations = stack.runAllValidations.bind(stack);
    stack.runAllValidations = () => {
      const start = performance.now();
      runAllValidations();
      inSynthMs += performance.now() - start;
    };
    const t1 = performance.now();
    const cpu = process.cpuUsage();
    app.synth();
    const synthCpu = process.cpuUsage(cpu);
    const t2 = performance.now();
    const bytes = statSync(join(outdir, "stacks", "bench", "cdk.tf.json")).size;
    const peak = process.resourceUsage().maxRSS / 1024;
    // Once more, validations alone (warm): the share of synth they account for, less noisy than a ratio.
    const t3 = performance.now();
    if (validation) runAllValidations();
    const validationMs = validation ? performance.now() - t3 : 0;
    return {
      construct_ms: t1 - t0,
      synth_ms: t2 - t1,
      // CPU time of the process during app.synth(): less sensitive to other load on the machine.
      synth_cpu_ms: (synthCpu.user + synthCpu.system) / 1000,
      total_ms: t2 - t0,
      validations_in_synth_ms: inSynthMs,
      validations_alone_ms: validationMs,
      peak_rss_mb: peak,
      output_bytes: bytes,
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * A realistic mix, 10 resources per unit, wired with the references of the example app: a VPC,
 * two exporters, a service on the VPC with both exporters, its read replica, a peering of the
 * VPC, an object-store and a source-db connector into the service, a restore channel and a
 * lookup of the service.
 */
function buildMix(stack, n, t, RestoreChannel) {
  const ARN = "arn:aws:iam::123456789012:role/bench";
  for (let i = 0, made = 0; made < n; i++) {
    const add = (make) => {
      if (made < n) {
        made++;
        return make();
      }
      return undefined;
    };
    const vpc = add(() => new t.Vpcs(stack, `vpc_${i}`, { name: `vpc-${i}`, cidr: `10.${i % 256}.0.0/16`, regionCode: "us-east-1" }));
    const logs = add(
      () =>
        new t.LogExporter(stack, `logs_${i}`, {
          name: `logs-${i}`,
          region: "us-east-1",
          cloudmon: { region: "us-east-1", logGroupName: `/tsdb/${i}`, logStreamName: "primary", roleArn: ARN },
        }),
    );
    const metrics = add(() => new t.MetricExporter(stack, `metrics_${i}`, { name: `metrics-${i}`, region: "us-east-1", saasmon: { apiKey: "bench-key", site: "datadoghq.eu" } }));
    const db = add(
      () =>
        new t.Service(stack, `db_${i}`, {
          name: `db-${i}`,
          milliCpu: 1000,
          memoryGb: 4,
          regionCode: "us-east-1",
          haReplicas: 2,
          syncReplicas: 1,
          vpcId: vpc?.vpcsId,
          logExporterId: logs?.id,
          metricExporterId: metrics?.id,
          timeouts: { create: "30m" },
        }),
    );
    add(() => new t.Service(stack, `replica_${i}`, { readReplicaSource: db?.id ?? "abcde12345", readReplicaNodes: 2 }));
    add(
      () =>
        new t.PeeringConnection(stack, `peering_${i}`, {
          platformVpcId: vpc?.vpcsId ?? 1,
          peerAccountId: "123456789012",
          peerRegionCode: "us-east-1",
          peerVpcId: "vpc-0a1b2c3d4e5f67890",
        }),
    );
    add(
      () =>
        new t.ConnectorObjStore(stack, `events_${i}`, {
          serviceId: db?.id ?? "abcde12345",
          bucket: "bench-events",
          pattern: "exports/*.csv",
          credentials: { type: "RoleARN", roleArn: ARN },
          definition: { type: "CSV", csv: { delimiter: ",", skipHeader: true, columnNames: ["time", "device", "value"] } },
          tableIdentifier: { tableName: `events_${i}` },
          frequency: "@hourly",
        }),
    );
    add(
      () =>
        new t.ConnectorSrcDb(stack, `orders_${i}`, {
          serviceId: db?.id ?? "abcde12345",
          displayName: `Orders ${i}`,
          connectionString: "postgres://replicator@source.internal:5432/app",
          tables: [
            {
              schemaName: "public",
              tableName: "orders",
              hypertableSpec: { primaryDimension: { columnName: "created_at", partitionInterval: "7d" }, secondaryDimensions: [{ hash: { columnName: "customer_id", numberPartitions: 4 } }] },
            },
            { schemaName: "public", tableName: "customers", tableMapping: { schemaName: "crm", tableName: "customers" } },
          ],
        }),
    );
    add(() => new RestoreChannel(stack, `restores_${i}`, { name: `restores-${i}`, location: "us-central1", destinationProject: "projects/restore-target", labels: { unit: String(i) } }));
    add(() => new t.DataTsdbService(stack, `lookup_${i}`, { id: db?.id ?? "abcde12345" }));
  }
}

async function childImport() {
  const t0 = performance.now();
  await import("cdktf");
  await import("constructs");
  const t1 = performance.now();
  await import("schemaform/tsdb");
  const t2 = performance.now();
  await import("schemaform/containerbackup");
  const t3 = performance.now();
  return { cdktf_ms: t1 - t0, tsdb_ms: t2 - t1, containerbackup_ms: t3 - t2 };
}

// ---------------------------------------------------------------------------------------------
// Parent: runs the children, takes medians, writes the results.

function child(args) {
  const out = execFileSync(process.execPath, [here, "--child", ...args], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  return JSON.parse(out.trim().split("\n").pop());
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const round = (x, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

function summarize(runs) {
  const keys = Object.keys(runs[0]);
  return Object.fromEntries(keys.map((k) => [k, round(median(runs.map((r) => r[k])), k.endsWith("bytes") ? 0 : 1)]));
}

function packageFiles() {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const entries = [...(pkg.files ?? []), "package.json", ...readdirSync(root).filter((f) => /^(readme|license|changelog)/i.test(f))];
  let bytes = 0;
  let files = 0;
  let native = 0;
  const parts = {};
  const walk = (path, top) => {
    let s;
    try {
      s = statSync(path);
    } catch {
      return;
    }
    if (s.isDirectory()) return readdirSync(path).forEach((e) => walk(join(path, e), top));
    bytes += s.size;
    files += 1;
    if (path.endsWith(".node")) native += s.size;
    parts[top] = (parts[top] ?? 0) + s.size;
  };
  for (const entry of entries) walk(join(root, entry), entry);
  // The part the constructs need at run time (what `import("schemaform/tsdb")` can reach).
  let constructs = 0;
  for (const sub of ["constructs", "generated", "language"]) {
    const walkSize = (p) => {
      const s = statSync(p);
      if (s.isDirectory()) readdirSync(p).forEach((e) => walkSize(join(p, e)));
      else constructs += s.size;
    };
    try {
      walkSize(join(root, "dist", sub));
    } catch {
      /* not built */
    }
  }
  // Native addons copied in by the provider bundle are a dependency's files, counted apart.
  return { package_bytes: bytes, package_files: files, native_addon_bytes: native, package_bytes_without_native_addons: bytes - native, by_entry_bytes: parts, constructs_runtime_bytes: constructs };
}

async function main() {
  const synth = [];
  for (const n of SIZES) synth.push({ n, validation: [], skip_validation: [] });
  for (let run = 0; run < RUNS; run++) {
    for (const cell of synth) {
      const order = (run + SIZES.indexOf(cell.n)) % 2 === 0 ? ["on", "off"] : ["off", "on"];
      for (const mode of order) {
        const result = child(["synth", String(cell.n), mode]);
        (mode === "on" ? cell.validation : cell.skip_validation).push(result);
        process.stderr.write(`N=${cell.n} validation ${mode}: synth ${round(result.synth_ms)} ms, total ${round(result.total_ms)} ms, peak RSS ${round(result.peak_rss_mb)} MB\n`);
      }
    }
  }
  const rows = synth.map((cell) => {
    const on = summarize(cell.validation);
    const off = summarize(cell.skip_validation);
    return {
      n: cell.n,
      validation: on,
      skip_validation: off,
      ratio_synth: round(median(cell.validation.map((r) => r.synth_ms)) / median(cell.skip_validation.map((r) => r.synth_ms)), 3),
      ratio_synth_cpu: round(median(cell.validation.map((r) => r.synth_cpu_ms)) / median(cell.skip_validation.map((r) => r.synth_cpu_ms)), 3),
      ratio_total: round(median(cell.validation.map((r) => r.total_ms)) / median(cell.skip_validation.map((r) => r.total_ms)), 3),
      // The validations run once more on their own, warm, against synth without them.
      validation_share_of_synth: round(median(cell.validation.map((r) => r.validations_alone_ms)) / median(cell.skip_validation.map((r) => r.synth_ms)), 3),
      runs: { validation: cell.validation.map((r) => round(r.synth_ms)), skip_validation: cell.skip_validation.map((r) => round(r.synth_ms)) },
    };
  });

  const imports = [];
  for (let i = 0; i < IMPORT_RUNS; i++) imports.push(child(["import"]));
  const importSummary = summarize(imports);
  const size = packageFiles();
  const at10k = rows.find((r) => r.n === 10_000);
  const results = {
    about:
      "Synth of N resources (a mix of every tsdb resource plus restore channels and lookups, with references) with schemaform's synth-time validation on, and with CDKTF's skipValidation, in separate child processes that alternate; medians of 3. ratio_synth = app.synth() wall time with validation / without (ratio_synth_cpu: the same with the process's CPU time, which other load on the machine disturbs less); ratio_total includes constructing the stack; validation_share_of_synth = the validations run again alone (warm) / synth without them, a less noisy view of the same cost. Import times: median of 5 fresh processes, schemaform/tsdb measured after cdktf and constructs are loaded.",
    environment: { node: process.version, platform: `${os.platform()}-${os.arch()}`, cpus: os.cpus().length },
    date: new Date().toISOString(),
    synth: rows,
    import: importSummary,
    size,
    bars: {
      ratio_synth_at_10k: { value: at10k.ratio_synth, bar: BARS.ratioAt10k, pass: at10k.ratio_synth <= BARS.ratioAt10k },
      ratio_synth_cpu_at_10k: { value: at10k.ratio_synth_cpu, bar: BARS.ratioAt10k, pass: at10k.ratio_synth_cpu <= BARS.ratioAt10k },
      import_tsdb_ms: { value: importSummary.tsdb_ms, bar: BARS.importMs, pass: importSummary.tsdb_ms < BARS.importMs },
      package_bytes: { value: size.package_bytes, bar: BARS.packageBytes, pass: size.package_bytes < BARS.packageBytes },
    },
  };
  mkdirSync(join(root, "bench", "results"), { recursive: true });
  writeFileSync(join(root, "bench", "results", "synth.json"), `${JSON.stringify(results, null, 2)}\n`);
  for (const row of rows) {
    process.stdout.write(
      `N=${String(row.n).padStart(6)}  synth ${row.validation.synth_ms} ms vs ${row.skip_validation.synth_ms} ms (×${row.ratio_synth}; CPU ×${row.ratio_synth_cpu}), total ×${row.ratio_total}, validations alone ${row.validation.validations_alone_ms} ms (${Math.round(row.validation_share_of_synth * 100)}% of synth), peak RSS ${row.validation.peak_rss_mb} / ${row.skip_validation.peak_rss_mb} MB\n`,
    );
  }
  process.stdout.write(`import("schemaform/tsdb") after cdktf: ${importSummary.tsdb_ms} ms (cdktf itself ${importSummary.cdktf_ms} ms)\n`);
  process.stdout.write(`package files: ${(size.package_bytes / 1024 / 1024).toFixed(2)} MB in ${size.package_files} files\n`);
  for (const [name, bar] of Object.entries(results.bars)) process.stdout.write(`${bar.pass ? "pass" : "FAIL"}  ${name}: ${bar.value} (bar ${bar.bar})\n`);
  process.stdout.write("wrote bench/results/synth.json\n");
  if (Object.values(results.bars).some((b) => !b.pass)) process.exitCode = 1;
}

const args = process.argv.slice(2);
if (args[0] === "--child") {
  const result = args[1] === "import" ? await childImport() : await childSynth(Number(args[2]), args[3] === "on");
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  await main();
}
