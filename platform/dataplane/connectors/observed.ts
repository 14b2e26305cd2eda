// What a connector's engine reports after one tick: the agent records it and it surfaces as the
// connector's `status` (and `message`) in the control plane and in `schemaform platform status`.

export interface ConnectorObserved {
  status: "ok" | "warning" | "error" | "paused";
  /** a sentence a person can act on; never a connection string, password or key */
  message?: string;
  details?: Record<string, unknown>;
}

/**
 * The text of an error with every secret of `secrets` (a connection string, and the password and
 * userinfo inside it) blotted out: PostgreSQL and the driver may quote what they were given.
 */
export function scrub(text: string, secrets: string[]): string {
  let out = text;
  const needles = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    needles.add(secret);
    try {
      const url = new URL(secret);
      if (url.password) {
        needles.add(url.password);
        needles.add(decodeURIComponent(url.password));
      }
    } catch {
      // not a URL: only the whole text is blotted out
    }
  }
  for (const needle of [...needles].filter((n) => n.length >= 3).sort((a, b) => b.length - a.length)) {
    out = out.split(needle).join("***");
  }
  // key=value conninfo a server may echo back
  return out.replace(/password\s*=\s*('[^']*'|\S+)/gi, "password=***");
}

/** An error's message, scrubbed of the given secrets. */
export function errorText(error: unknown, secrets: string[]): string {
  const text = error instanceof Error ? error.message : String(error);
  return scrub(text, secrets);
}
