// After `schemaform up`: how to connect to the databases it applied, one `psql` line per service
// that runs on this machine (the data plane), with the password read from `terraform output` at
// the moment the line is run (the password itself is never printed); and the data plane's
// warnings (a missing pgbouncer), once each.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface StateFile {
  resources?: Array<{ mode: string; type: string; name: string; instances: Array<{ attributes: Record<string, unknown> }> }>;
}

/** Shell-quotes a word when it needs it. */
function quote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `psql` lines for the stack's data-plane services; `outputsJson` is `terraform output -json`. */
export function connectLines(stackDirectory: string, shownDirectory: string, outputsJson: string): string[] {
  const stateFile = join(stackDirectory, "terraform.tfstate");
  if (!existsSync(stateFile)) return [];
  const state = JSON.parse(readFileSync(stateFile, "utf8")) as StateFile;
  const outputs = JSON.parse(outputsJson || "{}") as Record<string, { value: unknown }>;
  const lines: string[] = [];
  for (const resource of state.resources ?? []) {
    if (resource.mode !== "managed" || resource.type !== "tsdb_service") continue;
    for (const { attributes: a } of resource.instances) {
      if (a.hostname !== "127.0.0.1" || typeof a.port !== "number") continue;
      const target = `"host=${a.hostname} port=${a.port} user=${String(a.username ?? "tsdbadmin")} dbname=tsdb sslmode=require"`;
      const password = a.password;
      const output = typeof password === "string" ? Object.entries(outputs).find(([, o]) => o.value === password)?.[0] : undefined;
      if (output) {
        lines.push(`PGPASSWORD="$(terraform -chdir=${quote(shownDirectory)} output -raw ${output})" psql ${target}`);
      } else if (!a.read_replica_source) {
        lines.push(`psql ${target}   # ${resource.name}: psql asks for the password (no output of this stack carries it)`);
      }
    }
  }
  return lines;
}

/** The data plane's warnings for the data directory's services (each distinct one once). */
export async function dataPlaneNotes(dataDir: string): Promise<string[]> {
  const { DB_FILE, openStore } = await import("../../platform/store.js");
  if (!existsSync(join(dataDir, DB_FILE))) return [];
  const store = await openStore({ dataDir });
  try {
    const { readObservations } = await import("../../platform/dataplane/observed.js");
    const observations = await store.read((tx) => readObservations(tx));
    return [...new Set([...observations.values()].flatMap((o) => o.warnings))];
  } finally {
    await store.close();
  }
}
