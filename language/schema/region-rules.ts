// The region rules across resources, shared by `schemaform validate` (cross-references.ts) and
// the CDKTF constructs at synth (constructs/runtime/region-checks.ts): a service uses only a VPC
// and exporters of its own region, and a read replica is in its source's region. Terraform sees
// none of this before apply, where the platform refuses it after other objects were created.

/** Region of a tsdb_service that sets no region_code (the platform's DEFAULT_REGION; the schema describes it). */
export const DEFAULT_SERVICE_REGION = "us-east-1";

/** A tsdb_service's arguments that reference something of these resource types, which must be in the service's region. */
export const REGION_REFERENCES: Readonly<Record<string, readonly string[]>> = {
  vpc_id: ["tsdb_vpcs"],
  log_exporter_id: ["tsdb_log_exporter", "tsdb_metric_exporter"],
  metric_exporter_id: ["tsdb_log_exporter", "tsdb_metric_exporter"],
  read_replica_source: ["tsdb_service"],
};

/**
 * The region a resource of type `type` is in, from its arguments (Terraform names): written out,
 * or the default of a service that is no read replica (a replica inherits its source's, not
 * known from its own arguments). Undefined for other types and when not known.
 */
export function regionOf(type: string, body: { [name: string]: unknown }): unknown {
  switch (type) {
    case "tsdb_service":
      return body.region_code ?? (body.read_replica_source === undefined ? DEFAULT_SERVICE_REGION : undefined);
    case "tsdb_vpcs":
      return body.region_code;
    case "tsdb_log_exporter":
    case "tsdb_metric_exporter":
      return body.region;
    default:
      return undefined;
  }
}

/** The error for a service (`service`, in `serviceRegion`) whose `attribute` references `target`, in another region. */
export function regionMismatch(attribute: string, target: string, targetRegion: string, service: string, serviceRegion: string): string {
  if (attribute === "read_replica_source") {
    return `Read replica region mismatch: region_code ${quote(serviceRegion)} differs from the region of its source ${target} (${quote(targetRegion)}); a read replica must be in its source's region.`;
  }
  if (attribute === "vpc_id") {
    return `VPC region mismatch: ${target} is in region ${quote(targetRegion)}, but ${service} is in ${quote(serviceRegion)}; a service can only use a VPC in its own region.`;
  }
  return `Exporter region mismatch: ${target} is in region ${quote(targetRegion)}, but ${service} is in ${quote(serviceRegion)}; only services in the exporter's region can attach it.`;
}

/** A value in a message: quoted, long ones cut (as config/context.ts's quote). */
function quote(s: string): string {
  return JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);
}
