// provider::tsdb::connection_uri: a libpq connection URI of a service. User name, password and
// database are percent-encoded (RFC 3986: everything but unreserved characters), so a password
// with `@`, `/`, `:` or `%` still parses back to itself. An IPv6 literal host is bracketed.
import type { FunctionImplementation } from "../framework/types.js";

const DEFAULT_DATABASE = "tsdb";

/** Percent-encoding of every character outside RFC 3986's unreserved set. */
function encode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export const connectionUri: FunctionImplementation = ([hostname, port, username, password, database]) => {
  const host = String(hostname).includes(":") && !String(hostname).startsWith("[") ? `[${String(hostname)}]` : String(hostname);
  const user = password === null || password === undefined ? encode(String(username)) : `${encode(String(username))}:${encode(String(password))}`;
  const db = database === null || database === undefined ? DEFAULT_DATABASE : String(database);
  return `postgres://${user}@${host}:${Number(port)}/${encode(db)}?sslmode=require`;
};
