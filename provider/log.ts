// Logging for the plugin process. Everything goes to stderr (stdout belongs to the go-plugin
// handshake), as JSON lines in the hclog shape so Terraform shows them at the right level
// under TF_LOG. Callers never pass sensitive values.
export type LogLevel = "trace" | "debug" | "info" | "warn" | "error";

export function log(level: LogLevel, message: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ "@level": level, "@message": message, "@module": "schemaform", "@timestamp": new Date().toISOString(), ...fields });
  try {
    process.stderr.write(`${line}\n`);
  } catch {
    // Terraform may have closed our stderr while shutting down; nothing left to tell.
  }
}
