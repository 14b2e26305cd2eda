// The HTTP API of `schemaform platform serve`, as one table shared by the server (to decode a
// request into the arguments of a PlatformClient method) and the HTTP client (to encode the
// arguments of a call into a request). Because both sides read the same table, the two clients
// cannot drift apart.
//
// Conventions: JSON bodies; creates answer 201, deletes 204, everything else 200; errors
// `{ "error": { "code", "message", "issues"? } }` with the status of the code (errors.ts).
// Restore channels live under /containerbackup/v1 and are addressed by their full name; the tsdb
// resources under /tsdb/v1/projects/{project}. Authentication: see server.ts.

import { InputRejected, parseJsonInput } from "./json-input.js";

export type Method = "GET" | "POST" | "PATCH" | "DELETE";

/**
 * Where one positional argument of the client method travels:
 * `path:x` a path parameter; `query:x` a string query parameter; `qnum:x` a numeric query
 * parameter; `qjson:x` a JSON-encoded query parameter; `body` the whole JSON body; `body:x` one
 * property of a JSON object body.
 */
export type ArgSpec = `path:${string}` | `query:${string}` | `qnum:${string}` | `qjson:${string}` | "body" | `body:${string}`;

export interface Route {
  /** `family.method` of PlatformClient */
  op: string;
  method: Method;
  /** `{x}` matches one segment; `{x=projects/*\/locations/*}` matches the given shape (`*` = one segment) */
  path: string;
  args: ArgSpec[];
  /** success status */
  status: 200 | 201 | 204;
  /** the project a call acts on (for credential scoping); undefined: any authenticated caller */
  project?: (args: unknown[]) => string | undefined;
  /**
   * The JSON type of each `body:x` member the method needs, checked by the server before the call
   * (a member of the wrong type would reach the core as a wrong argument); `null` counts as absent.
   */
  members?: Record<string, { type: "object" | "string" | "number"; required?: true }>;
}

const first = (args: unknown[]) => args[0] as string;
const fromFullName = (args: unknown[]) => /^projects\/([^/]+)\//.exec(String(args[0]))?.[1];

const CHANNEL = "{name=projects/*/locations/*/restoreChannels/*}";
const P = "/tsdb/v1/projects/{project}";

function tsdbFamily(family: string, collection: string, extraList: ArgSpec[] = []): Route[] {
  return [
    { op: `${family}.create`, method: "POST", path: `${P}/${collection}`, args: ["path:project", "body"], status: 201, project: first },
    { op: `${family}.list`, method: "GET", path: `${P}/${collection}`, args: ["path:project", ...extraList], status: 200, project: first },
    { op: `${family}.get`, method: "GET", path: `${P}/${collection}/{id}`, args: ["path:project", "path:id"], status: 200, project: first },
    { op: `${family}.update`, method: "PATCH", path: `${P}/${collection}/{id}`, args: ["path:project", "path:id", "body"], status: 200, project: first },
    { op: `${family}.delete`, method: "DELETE", path: `${P}/${collection}/{id}`, args: ["path:project", "path:id"], status: 204, project: first },
  ];
}

export const ROUTES: Route[] = [
  // containerbackup
  {
    op: "restoreChannels.create",
    method: "POST",
    path: "/containerbackup/v1/restoreChannels",
    args: ["body:restore_channel", "body:options"],
    members: { restore_channel: { type: "object", required: true }, options: { type: "object" } },
    status: 201,
    project: (args) => (args[0] as { project?: string } | undefined)?.project ?? (args[1] as { defaultProject?: string } | undefined)?.defaultProject,
  },
  { op: "restoreChannels.resolveProject", method: "GET", path: "/containerbackup/v1/projects/{project}", args: ["path:project"], status: 200, project: first },
  { op: "restoreChannels.list", method: "GET", path: "/containerbackup/v1/projects/{project}/restoreChannels", args: ["path:project", "query:location"], status: 200, project: first },
  { op: "restoreChannels.get", method: "GET", path: `/containerbackup/v1/${CHANNEL}`, args: ["path:name", "qjson:view"], status: 200, project: fromFullName },
  {
    op: "restoreChannels.update",
    method: "PATCH",
    path: `/containerbackup/v1/${CHANNEL}`,
    args: ["path:name", "body:patch", "body:etag", "body:view"],
    members: { patch: { type: "object", required: true }, etag: { type: "string" }, view: { type: "object" } },
    status: 200,
    project: fromFullName,
  },
  { op: "restoreChannels.delete", method: "DELETE", path: `/containerbackup/v1/${CHANNEL}`, args: ["path:name", "query:etag"], status: 204, project: fromFullName },

  // tsdb resources
  ...tsdbFamily("services", "services"),
  {
    op: "services.checkPassword",
    method: "POST",
    path: `${P}/services/{id}/checkPassword`,
    args: ["path:project", "path:id", "body:password"],
    members: { password: { type: "string", required: true } },
    status: 200,
    project: first,
  },
  {
    op: "services.createCredentials",
    method: "POST",
    path: `${P}/services/{id}/credentials`,
    args: ["path:project", "path:id", "body:ttl_seconds"],
    members: { ttl_seconds: { type: "number", required: true } },
    status: 201,
    project: first,
  },
  {
    op: "services.renewCredentials",
    method: "POST",
    path: `${P}/services/{id}/credentials/{credential}/renew`,
    args: ["path:project", "path:id", "path:credential", "body:ttl_seconds"],
    members: { ttl_seconds: { type: "number", required: true } },
    status: 200,
    project: first,
  },
  { op: "services.revokeCredentials", method: "DELETE", path: `${P}/services/{id}/credentials/{credential}`, args: ["path:project", "path:id", "path:credential"], status: 204, project: first },
  ...tsdbFamily("vpcs", "vpcs"),
  { op: "vpcs.getByName", method: "GET", path: `${P}/vpcNames/{name}`, args: ["path:project", "path:name"], status: 200, project: first },
  { op: "peering.create", method: "POST", path: `${P}/peeringConnections`, args: ["path:project", "body"], status: 201, project: first },
  { op: "peering.list", method: "GET", path: `${P}/vpcs/{vpc}/peeringConnections`, args: ["path:project", "path:vpc"], status: 200, project: first },
  { op: "peering.get", method: "GET", path: `${P}/peeringConnections/{id}`, args: ["path:project", "qnum:platform_vpc_id", "path:id"], status: 200, project: first },
  { op: "peering.update", method: "PATCH", path: `${P}/peeringConnections/{id}`, args: ["path:project", "qnum:platform_vpc_id", "path:id", "body"], status: 200, project: first },
  { op: "peering.delete", method: "DELETE", path: `${P}/peeringConnections/{id}`, args: ["path:project", "qnum:platform_vpc_id", "path:id"], status: 204, project: first },
  ...tsdbFamily("logExporters", "logExporters"),
  ...tsdbFamily("metricExporters", "metricExporters"),
  ...tsdbFamily("objStoreConnectors", "objStoreConnectors", ["query:service_id"]),
  ...tsdbFamily("srcDbConnectors", "srcDbConnectors", ["query:service_id"]),

  // lookups and events
  { op: "lookups.products", method: "GET", path: "/tsdb/v1/products", args: [], status: 200 },
  { op: "lookups.vpcs", method: "GET", path: `${P}/lookups/vpcs`, args: ["path:project"], status: 200, project: first },
  { op: "lookups.service", method: "GET", path: `${P}/lookups/services/{id}`, args: ["path:project", "path:id"], status: 200, project: first },
  { op: "events.list", method: "GET", path: "/v1/projects/{project}/events", args: ["path:project", "qjson:filter"], status: 200, project: first },
];

export const ROUTE_BY_OP: ReadonlyMap<string, Route> = new Map(ROUTES.map((r) => [r.op, r]));

// --- compiling path templates ------------------------------------------------------------------

interface Compiled {
  regex: RegExp;
  params: string[];
}

const compiled = new Map<string, Compiled>();

function compile(template: string): Compiled {
  let c = compiled.get(template);
  if (c) return c;
  const params: string[] = [];
  const source = template.replace(/\{([a-z_]+)(?:=([^}]+))?\}|[.*+?^$()|[\]\\]/g, (match, name: string | undefined, shape: string | undefined) => {
    if (!name) return `\\${match}`;
    params.push(name);
    return shape ? `(${shape.split("*").map(escapeRe).join("[^/]+")})` : "([^/]+)";
  });
  c = { regex: new RegExp(`^${source}$`), params };
  compiled.set(template, c);
  return c;
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&");
}

// --- client side: arguments -> request ---------------------------------------------------------

export interface EncodedRequest {
  method: Method;
  /** path and query string */
  url: string;
  body?: unknown;
}

export function encodeRequest(route: Route, args: unknown[]): EncodedRequest {
  const pathParams = new Map<string, string>();
  const query = new URLSearchParams();
  let body: unknown;
  const bodyObject: Record<string, unknown> = {};
  let hasBodyObject = false;
  route.args.forEach((spec, i) => {
    const value = args[i];
    const [kind, name] = spec.includes(":") ? (spec.split(":", 2) as [string, string]) : [spec, ""];
    switch (kind) {
      case "path":
        if (value === undefined || value === null || String(value) === "") throw new TypeError(`${route.op}: argument ${i + 1} (${name}) is required`);
        pathParams.set(name, String(value));
        break;
      case "query":
      case "qnum":
        if (value !== undefined && value !== null) query.set(name, String(value));
        break;
      case "qjson":
        if (value !== undefined && value !== null) query.set(name, JSON.stringify(value));
        break;
      case "body":
        if (name) {
          hasBodyObject = true;
          if (value !== undefined) bodyObject[name] = value;
        } else body = value;
        break;
    }
  });
  if (hasBodyObject) body = bodyObject;
  const path = route.path.replace(/\{([a-z_]+)(?:=[^}]+)?\}/g, (_m, name: string) =>
    pathParams
      .get(name)!
      .split("/")
      .map((segment) => encodeURIComponent(segment))
      .join("/"),
  );
  const qs = query.toString();
  return { method: route.method, url: qs ? `${path}?${qs}` : path, body };
}

// --- server side: request -> arguments ---------------------------------------------------------

export interface MatchedRoute {
  route: Route;
  /** path parameters as sent (percent-encoded): decoded by decodeArgs, after authentication */
  params: Record<string, string>;
}

/** Finds the route of a request; `allowed` lists the methods of a path that matched with another method. */
export function matchRoute(method: string, pathname: string): { match?: MatchedRoute; allowed: string[] } {
  const allowed: string[] = [];
  for (const route of ROUTES) {
    const c = compile(route.path);
    const m = c.regex.exec(pathname);
    if (!m) continue;
    if (route.method !== method) {
      allowed.push(route.method);
      continue;
    }
    const params: Record<string, string> = {};
    c.params.forEach((name, i) => {
      params[name] = m[i + 1]!;
    });
    return { match: { route, params }, allowed };
  }
  return { allowed };
}

export class BadRequest extends Error {}

function decodePathParam(raw: string, name: string): string {
  try {
    return raw
      .split("/")
      .map((segment) => decodeURIComponent(segment))
      .join("/");
  } catch {
    throw new BadRequest(`the path parameter ${name} is not valid percent-encoding (a '%' must start %XX of UTF-8)`);
  }
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (item !== null) out[key] = withoutNulls(item);
  return out;
}

function checkMember(route: Route, name: string, value: unknown): unknown {
  const want = route.members?.[name];
  if (!want) return value;
  if (value === undefined || value === null) {
    if (want.required) throw new BadRequest(`the request body needs "${name}" (a JSON ${want.type})`);
    return undefined;
  }
  const is = want.type === "object" ? typeof value === "object" && !Array.isArray(value) : typeof value === want.type;
  if (!is) throw new BadRequest(`"${name}" in the request body must be a JSON ${want.type}`);
  return value;
}

export function decodeArgs(match: MatchedRoute, query: URLSearchParams, body: unknown): unknown[] {
  return match.route.args.map((spec) => {
    const [kind, name] = spec.includes(":") ? (spec.split(":", 2) as [string, string]) : [spec, ""];
    switch (kind) {
      case "path":
        return decodePathParam(match.params[name]!, name);
      case "query":
        return query.get(name) ?? undefined;
      case "qnum": {
        const raw = query.get(name);
        if (raw === null) return undefined;
        if (!/^[0-9]+$/.test(raw)) throw new BadRequest(`query parameter ${name} must be a whole number`);
        return Number(raw);
      }
      case "qjson": {
        const raw = query.get(name);
        if (raw === null) return undefined;
        try {
          return parseJsonInput(raw, `query parameter ${name}`);
        } catch (error) {
          if (error instanceof InputRejected) throw new BadRequest(error.message);
          throw error;
        }
      }
      case "body":
        // A create's body is a resource body, where null means absent (ARCHITECTURE.md, section 1)
        // and the core expects none; in an update's patch, null clears an attribute.
        if (!name) return match.route.status === 201 ? withoutNulls(body) : body;
        if (body === undefined || body === null) return undefined;
        if (typeof body !== "object" || Array.isArray(body)) throw new BadRequest("the request body must be a JSON object");
        return checkMember(match.route, name, (body as Record<string, unknown>)[name]);
      default:
        return undefined;
    }
  });
}
