// The seam between the data-plane agent (what should run, and what does) and whatever runs the
// databases. The agent reads the control plane's stored desired state, turns each service into a
// ServicePlan and hands it to a driver; the driver makes it so and reports what it observes. The
// local driver (local/) runs PostgreSQL processes on this machine; a team platform could place the
// same plans on Kubernetes with the CloudNativePG operator (README: the mapping).

/** How the agent (and the connectors and exporters it runs) reaches a service as its superuser. */
export interface AdminConnection {
  /** a unix-socket directory or 127.0.0.1 */
  host: string;
  port: number;
  user: string;
  database: string;
  password?: string;
}

/** One ephemeral login role (tsdb_service_credentials): a member of tsdbadmin until it expires. */
export interface EphemeralRole {
  role: string;
  /** SCRAM-SHA-256 verifier, never a plaintext password */
  verifier: string;
  /** ISO timestamp: the role's VALID UNTIL */
  validUntil: string;
}

/** What one tsdb_service should be. Plain data: the agent hashes it to know what it made real. */
export interface ServicePlan {
  id: string;
  /** a read replica service is a standby of its source's primary, with its own endpoint */
  role: "primary" | "read_replica";
  sourceId?: string;
  /** false: paused (stopped, files kept) */
  running: boolean;
  milliCpu: number;
  memoryGb: number;
  /** HA standbys (0-2) streaming from the primary; served read-only at ports.replica */
  haReplicas: number;
  /** 1: one standby is synchronous */
  syncReplicas: number;
  /** pgbouncer (transaction mode) at ports.pooler */
  pooler: boolean;
  /** loopback ports chosen by the control plane at create and kept for the service's life */
  ports: { main: number; replica: number; pooler: number };
  /** tsdbadmin's SCRAM-SHA-256 verifier (read replicas: their source's) */
  passwordVerifier: string;
  /** database parameters (tsdb_service.parameters), already validated against the allow-list */
  parameters: Record<string, string>;
  ephemeralRoles: EphemeralRole[];
}

export type ServicePhase = "running" | "stopped" | "starting" | "failed" | "absent";

export interface ObservedProcess {
  kind: "postgres" | "standby" | "pgbouncer";
  pid: number;
  port: number;
  /** a cluster's data directory */
  dataDir?: string;
}

/** What the driver sees of one service. */
export interface ServiceObserved {
  id: string;
  phase: ServicePhase;
  /** the cause, when failed: "port 31234 is taken", "initdb failed: …" (never a secret) */
  message?: string;
  processes: ObservedProcess[];
  diskBytes: number;
  /** degraded but working: "pgbouncer is not installed: the pooler is not running (apt-get install pgbouncer)" */
  warnings: string[];
}

export interface DriverAvailability {
  ok: boolean;
  /** why not, and how to get the binaries: printed once per service as a plain line */
  reason?: string;
}

export interface DataPlaneDriver {
  readonly name: string;
  available(): Promise<DriverAvailability>;
  /** Make the service match the plan (idempotent; restarts only what a change needs). */
  applyService(plan: ServicePlan): Promise<ServiceObserved>;
  /** Look without changing anything (a crashed postmaster is `failed` or `stopped`, never `running`). */
  observeService(id: string): Promise<ServiceObserved>;
  /** Stop every process of the service and remove its files. Idempotent. */
  removeService(id: string): Promise<void>;
  /** Ids of every service that has files or processes (to find what the desired state no longer has). */
  listServices(): Promise<string[]>;
  /** The superuser connection to the service's `tsdb` database (primary). */
  adminConnection(id: string): AdminConnection;
  /** The primary's server log (for the log exporter), when it has one. */
  serverLogFile(id: string): string | undefined;
  /** Stop every process this driver started (`schemaform down`, agent exit with nothing left). */
  stopAll(): Promise<void>;
  /** Work of its own still under way (the local driver making a spare cluster): the agent stays. */
  busy?(): boolean;
}
